/// Something an install saw for the first time that a lock records: what (`the checksum of its
/// linux-x86_64 download`) and its value.
public struct Learned: Sendable, Equatable {
    public var what: String
    public var value: String
    public init(_ what: String, _ value: String) {
        self.what = what
        self.value = value
    }
}
