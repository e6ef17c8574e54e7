/// Work on many items, at most `jobs` at once (`TACK_JOBS`): downloads to hash for a lock's
/// platforms, files to fetch again for `tack lock --verify`.
public enum Concurrently {
    /// `body` of each item, in the items' order.
    public static func map<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, _ body: @escaping @Sendable (T) async -> R) async -> [R] {
        guard !items.isEmpty else { return [] }
        let indexed = await withTaskGroup(of: (Int, R).self) { group in
            var next = 0
            func start() {
                let i = next, item = items[i]
                next += 1
                group.addTask { (i, await body(item)) }
            }
            for _ in 0..<min(max(1, jobs), items.count) { start() }
            var out: [(Int, R)] = []
            while let r = await group.next() {
                out.append(r)
                if next < items.count { start() }
            }
            return out
        }
        return indexed.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
