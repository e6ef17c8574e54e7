/// A laid-out node: its rectangle in its parent's coordinates, and its children's.
public struct Frame: Sendable, Equatable, CustomStringConvertible {
    public var rect: Rect
    public var name: String?
    public var children: [Frame]

    public init(_ rect: Rect, name: String? = nil, children: [Frame] = []) {
        self.rect = rect
        self.name = name
        self.children = children
    }

    var size: Size { Size(width: rect.width, height: rect.height) }

    /// The frames of the leaves named `name`, in root coordinates.
    public func named(_ name: String, origin: (x: Double, y: Double) = (0, 0)) -> [Rect] {
        let x = origin.x + rect.x, y = origin.y + rect.y
        var out: [Rect] = self.name == name ? [Rect(x: x, y: y, width: rect.width, height: rect.height)] : []
        for c in children { out += c.named(name, origin: (x, y)) }
        return out
    }

    public var description: String { "\(name.map { $0 + " " } ?? "")\(rect)" + (children.isEmpty ? "" : " [" + children.map(\.description).joined(separator: ", ") + "]") }
}

/// The layout algorithm: a pure function from a node tree and a size range to frames, safe
/// to run on any thread. Stacks follow ComponentKit's CKStackLayoutComponent: measure each
/// child, flex the flexible ones by the violation (what the children need against what the
/// stack allows, in whole points, the remainder to the first flexible child), stretch, then
/// position (justify on the main axis, align on the cross axis).
public enum Layout {
    /// Lays `node` out within `range`, at the origin.
    public static func layout(_ node: Node, in range: SizeRange) -> Frame {
        measure(node, range, parent: range.max)
    }

    /// `node` laid out within `range`; `parent` is the size percentages refer to.
    static func measure(_ node: Node, _ range: SizeRange, parent: Size) -> Frame {
        switch node {
        case .leaf(let intrinsic, let spec, let name):
            let r = constrain(range, spec, parent: parent)
            let s = r.clamp(intrinsic)
            return Frame(Rect(x: 0, y: 0, width: s.width, height: s.height), name: name)
        case .stack(let direction, let spacing, let justify, let alignItems, let children, let spec):
            return stack(direction, spacing, justify, alignItems, children, constrain(range, spec, parent: parent))
        case .inset(let e, let child):
            let inner = SizeRange(
                min: Size(width: max(0, range.min.width - e.left - e.right), height: max(0, range.min.height - e.top - e.bottom)),
                max: Size(width: max(0, range.max.width - e.left - e.right), height: max(0, range.max.height - e.top - e.bottom)))
            var c = measure(child, inner, parent: inner.max)
            c.rect.x = e.left
            c.rect.y = e.top
            let s = range.clamp(Size(width: c.rect.width + e.left + e.right, height: c.rect.height + e.top + e.bottom))
            return Frame(Rect(x: 0, y: 0, width: s.width, height: s.height), children: [c])
        case .overlay(let base, let top):
            let b = measure(base, range, parent: parent)
            let t = measure(top, .exactly(b.size), parent: b.size)
            return Frame(Rect(x: 0, y: 0, width: b.rect.width, height: b.rect.height), children: [b, t])
        case .background(let base, let fill):
            let b = measure(base, range, parent: parent)
            let f = measure(fill, .exactly(b.size), parent: b.size)
            return Frame(Rect(x: 0, y: 0, width: b.rect.width, height: b.rect.height), children: [f, b])
        }
    }

    /// The parent's range narrowed by the node's own size spec: an explicit size (clamped to
    /// the spec's min and max), else the spec's min and max; the parent's range always wins.
    static func constrain(_ range: SizeRange, _ spec: SizeSpec, parent: Size) -> SizeRange {
        func axis(_ size: Dimension, _ lo: Dimension, _ hi: Dimension, _ p: Double, _ pmin: Double, _ pmax: Double) -> (Double, Double) {
            let minV = lo.resolve(p) ?? 0
            let maxV = max(minV, hi.resolve(p) ?? .infinity)
            var (a, b) = (minV, maxV)
            if let exact = size.resolve(p) { a = min(max(exact, minV), maxV); b = a }
            let cl = { (v: Double) in min(max(v, pmin), pmax) }
            return (cl(a), cl(b))
        }
        let w = axis(spec.width, spec.minWidth, spec.maxWidth, parent.width, range.min.width, range.max.width)
        let h = axis(spec.height, spec.minHeight, spec.maxHeight, parent.height, range.min.height, range.max.height)
        return SizeRange(min: Size(width: w.0, height: h.0), max: Size(width: w.1, height: h.1))
    }

    static func main(_ s: Size, _ d: Direction) -> Double { d == .vertical ? s.height : s.width }
    static func cross(_ s: Size, _ d: Direction) -> Double { d == .vertical ? s.width : s.height }
    static func size(main: Double, cross: Double, _ d: Direction) -> Size {
        d == .vertical ? Size(width: cross, height: main) : Size(width: main, height: cross)
    }

    static func hasExplicitCross(_ node: Node, _ d: Direction) -> Bool {
        let spec: SizeSpec
        switch node {
        case .leaf(_, let s, _): spec = s
        case .stack(_, _, _, _, _, let s): spec = s
        default: return false
        }
        return (d == .vertical ? spec.width : spec.height) != .auto
    }

    static func stack(_ d: Direction, _ spacing: Double, _ justify: Justify, _ alignItems: Align, _ children: [StackChild], _ r: SizeRange) -> Frame {
        let minMain = main(r.min, d), maxMain = main(r.max, d)
        let minCross = cross(r.min, d), maxCross = cross(r.max, d)
        let parent = r.max
        // 1. Measure: each child's main size before flexing (its basis, or its own size).
        func childRange(main lo: Double, _ hi: Double, crossMin: Double = 0) -> SizeRange {
            SizeRange(min: size(main: lo, cross: crossMin, d), max: size(main: hi, cross: maxCross, d))
        }
        var sizes: [Double] = children.map { c in
            if let basis = c.flexBasis.resolve(maxMain) { return basis }
            return main(measure(c.node, childRange(main: 0, .infinity), parent: parent).size, d)
        }
        let gaps = children.reduce(0) { $0 + $1.spacingBefore + $1.spacingAfter } + spacing * Double(max(0, children.count - 1))
        let used = sizes.reduce(0, +) + gaps
        // 2. Flex by the violation, in whole points; the remainder goes to the first flexible child.
        var violation = 0.0
        if used < minMain { violation = minMain - used } else if used > maxMain { violation = maxMain - used }
        if violation != 0 {
            let factors = children.map { violation > 0 ? $0.flexGrow : $0.flexShrink }
            let total = factors.reduce(0, +)
            if total > 0 {
                var shares = factors.map { f -> Double in
                    let share = (abs(violation) * f / total).rounded(.down)
                    return violation > 0 ? share : -share
                }
                if let first = factors.firstIndex(where: { $0 > 0 }) { shares[first] += violation - shares.reduce(0, +) }
                for i in sizes.indices { sizes[i] = max(0, sizes[i] + shares[i]) }
            }
        }
        // 3. Lay each child out at its main size; then stretch to the stack's cross size.
        var frames = children.indices.map { i in measure(children[i].node, childRange(main: sizes[i], sizes[i]), parent: parent) }
        let stackCross = min(max(frames.map { cross($0.size, d) }.max() ?? 0, minCross), maxCross)
        for i in children.indices {
            let align = children[i].alignSelf ?? alignItems
            guard align == .stretch, !hasExplicitCross(children[i].node, d), cross(frames[i].size, d) != stackCross else { continue }
            frames[i] = measure(children[i].node, childRange(main: sizes[i], sizes[i], crossMin: stackCross), parent: parent)
        }
        // 4. Position: justify the free main-axis space, align on the cross axis.
        let content = frames.reduce(0) { $0 + main($1.size, d) } + gaps
        let stackMain = min(max(content, minMain), maxMain)
        let free = max(0, stackMain - content)
        var cursor = 0.0, between = 0.0
        switch justify {
        case .start: break
        case .center: cursor = free / 2
        case .end: cursor = free
        case .spaceBetween: between = children.count > 1 ? free / Double(children.count - 1) : 0
        case .spaceAround:
            between = children.isEmpty ? 0 : free / Double(children.count)
            cursor = between / 2
        }
        for i in children.indices {
            cursor += children[i].spacingBefore
            let childCross = cross(frames[i].size, d)
            let offset: Double
            switch children[i].alignSelf ?? alignItems {
            case .start, .stretch: offset = 0
            case .center: offset = (stackCross - childCross) / 2
            case .end: offset = stackCross - childCross
            }
            if d == .vertical {
                frames[i].rect.x = offset
                frames[i].rect.y = cursor
            } else {
                frames[i].rect.x = cursor
                frames[i].rect.y = offset
            }
            cursor += main(frames[i].size, d) + children[i].spacingAfter + spacing + between
        }
        let s = size(main: stackMain, cross: stackCross, d)
        return Frame(Rect(x: 0, y: 0, width: s.width, height: s.height), children: frames)
    }
}
