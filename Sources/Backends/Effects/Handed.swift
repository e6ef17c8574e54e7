/// What crosses to the exchange's own thread and back: used by one thread at a time.
struct Handed<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
