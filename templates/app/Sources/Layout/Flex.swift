/// Flexbox's "resolving flexible lengths" (CSS Flexbox §9.7, as Yoga does it): the sizes of a
/// stack's children along its axis, given how much room there is.
enum Flex {
    struct Item {
        /// Where flexing starts: the flex basis, or the child's own size.
        var base: Double
        var min: Double
        var max: Double
        var grow: Double
        var shrink: Double
        /// The part of the base that is insets (padding): shrinking scales by the rest, the
        /// inner flex base size, as CSS does.
        var insets = 0.0

        /// The base within min and max; a min above the max wins, as in CSS.
        var hypothetical: Double { Swift.max(Swift.min(base, max), min) }
        func clamp(_ v: Double) -> Double { Swift.min(Swift.max(v, min, 0), Swift.max(max, min)) }
    }

    /// The items (by index) on each line of a wrapping stack: as many on each as fit in
    /// `available` by their `sizes` with `spacing` between them, in order; an item wider than
    /// the room has a line of its own.
    static func lines(_ sizes: [Double], available: Double, spacing: Double) -> [[Int]] {
        var lines: [[Int]] = []
        var line: [Int] = []
        var used = 0.0
        for (i, size) in sizes.enumerated() {
            // A hair of slack, as browsers lay out in fractions of a pixel.
            if !line.isEmpty && used + spacing + size > available + 1e-7 {
                lines.append(line)
                line = []
            }
            used = line.isEmpty ? size : used + spacing + size
            line.append(i)
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Each item's size when `available` is shared out: grown by `grow` (shrunk by `shrink`
    /// times its base) and held within its min and max — an item that would pass one is
    /// frozen there and the rest is shared again among the others.
    static func resolve(_ items: [Item], available: Double) -> [Double] {
        let growing = items.reduce(0) { $0 + $1.hypothetical } < available
        var target = items.map(\.hypothetical)
        var frozen = items.map { item in
            let factor = growing ? item.grow : item.shrink
            return factor == 0 || (growing && item.base > item.hypothetical) || (!growing && item.base < item.hypothetical)
        }
        func free() -> Double { available - items.indices.reduce(0) { $0 + (frozen[$1] ? target[$1] : items[$1].base) } }
        let initialFree = free()
        for _ in 0...items.count {
            let open = items.indices.filter { !frozen[$0] }
            if open.isEmpty { break }
            var remaining = free()
            let factors = open.reduce(0) { $0 + (growing ? items[$1].grow : items[$1].shrink) }
            if factors < 1, abs(initialFree * factors) < abs(remaining) { remaining = initialFree * factors }
            if growing {
                for i in open { target[i] = items[i].base + remaining * items[i].grow / factors }
            } else {
                func inner(_ i: Int) -> Double { Swift.max(0, items[i].base - items[i].insets) }
                let scaled = open.reduce(0) { $0 + items[$1].shrink * inner($1) }
                for i in open { target[i] = scaled > 0 ? items[i].base - abs(remaining) * items[i].shrink * inner(i) / scaled : items[i].base }
            }
            var violation = 0.0
            var clamped = target
            for i in open {
                clamped[i] = items[i].clamp(target[i])
                violation += clamped[i] - target[i]
            }
            for i in open where violation == 0 || (violation > 0 && clamped[i] > target[i]) || (violation < 0 && clamped[i] < target[i]) {
                frozen[i] = true
            }
            for i in open { target[i] = clamped[i] }
        }
        return target
    }
}
