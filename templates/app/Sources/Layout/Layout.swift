/// The layout algorithm: a pure function from a node tree and a size range to frames, safe to
/// run on any thread (see `LayoutQueue` for running it off the main one).
///
/// Stacks are the flexbox subset ComponentKit and Yoga share: direction, spacing, justify,
/// align (stretch by default), flex grow and shrink within each child's min and max, a basis,
/// and wrapping onto more lines (each line flexed on its own, the lines placed by
/// `alignContent`); leaves size themselves with a measure function (text wraps). Each node's result is cached
/// for the pass, and a result is reused for any narrower range it still fits — so a node is
/// computed a small, fixed number of times and a layout costs time linear in its nodes.
///
/// No input crashes it. A tree deeper than `maximumDepth` levels is laid out to that depth
/// (deeper nodes are left out: a stack loses them, another node shows as empty), and one
/// deeper than `deepOnAThread` is laid out on a thread of its own with a large stack, so any
/// thread may call it. No frame holds a NaN or an infinite length or position: a length that
/// would be one (a NaN or infinite size, spacing or inset; an unbounded range with nothing to
/// size by) is 0.
public enum Flexbox {
    /// The deepest tree laid out whole: far deeper than any screen, and shallow enough that
    /// what reads a frame recursively (equality, `visit`, `description`, releasing it) fits
    /// any thread's stack.
    public static let maximumDepth = 512
    /// Deeper trees are laid out on a thread with a large stack.
    static let deepOnAThread = 64

    /// Lays `node` out within `range`, at the origin.
    public static func layout(_ node: Node, in range: SizeRange) -> Frame { measured(node, in: range).frame }

    /// The layout, and how many times a node was computed rather than taken from the cache.
    public static func measured(_ node: Node, in range: SizeRange) -> (frame: Frame, computed: Int) {
        safely(node) { node in
            let pass = Pass()
            let frame = pass.measure(Item(node), range, parent: range.max)
            return (frame, pass.computed)
        }
    }

    /// `body` of `node` (held to `maximumDepth`), on a large stack when it is deep.
    static func safely<T>(_ node: Node, _ body: @escaping (Node) -> T) -> T {
        let depth = node.depth
        guard depth > deepOnAThread else { return body(node) }
        return LargeStack.run { body(depth > maximumDepth ? node.limited(to: maximumDepth) : node) }
    }
}

/// A layout kept between passes, as Yoga keeps its node tree: each pass compares the new node
/// tree with the last one, keeps the laid-out results of every subtree that did not change,
/// and marks dirty only the nodes that did and their ancestors. A one-item change in a long
/// list lays out that item and re-places its siblings from their kept results.
///
/// Not thread-safe: use one from one thread or queue at a time (`LayoutQueue` does).
public final class LayoutTree {
    var root: Item?

    public init() {}

    /// Lays `node` out within `range`, reusing what the last pass computed for unchanged parts.
    public func layout(_ node: Node, in range: SizeRange) -> (frame: Frame, computed: Int) {
        Flexbox.safely(node) { node in
            let item = self.root?.reconciled(with: node) ?? Item(node)
            self.root = item
            let pass = Pass()
            let frame = pass.measure(item, range, parent: range.max)
            return (frame, pass.computed)
        }
    }
}

/// A node of the tree being laid out, with its cached results.
final class Item {
    enum Kind {
        case leaf(Leaf)
        case stack(Stack, [Item])
        case scroll(Scroll, Item)
        case inset(EdgeInsets, Item)
        case overlay(Item, Item)
        case background(Item, Item)
    }

    struct Key: Equatable {
        var range: SizeRange
        var parent: Size
        var unboundedMain: Direction?
        /// Whether its height counts as definite (for percentages of it), as its parent decided
        /// (nil: by its own height).
        var definiteHeight: Bool? = nil
    }

    let kind: Kind
    /// Whether a percent anywhere below makes results depend on the sizes they resolve against.
    let usesPercent: Bool
    var cache: [(key: Key, frame: Frame)] = []

    convenience init(_ node: Node) {
        switch node {
        case .leaf(let leaf): self.init(Kind.leaf(leaf))
        case .stack(let stack): self.init(Kind.stack(stack, stack.children.map { Item($0.node) }))
        case .scroll(let scroll): self.init(Kind.scroll(scroll, Item(scroll.child)))
        case .inset(let e, let child): self.init(Kind.inset(e, Item(child)))
        case .overlay(let base, let top): self.init(Kind.overlay(Item(base), Item(top)))
        case .background(let base, let fill): self.init(Kind.background(Item(base), Item(fill)))
        }
    }

    init(_ kind: Kind) {
        self.kind = kind
        switch kind {
        case .leaf(let leaf): usesPercent = leaf.size.usesPercent
        case .stack(let stack, let children):
            usesPercent = stack.size.usesPercent || children.contains { $0.usesPercent } || stack.children.contains { child in
                guard case .absolute(let o) = child.position else { return child.flexBasis.isPercent }
                return [o.top, o.left, o.bottom, o.right].contains { $0.isPercent }
            }
        case .scroll(let scroll, let child): usesPercent = scroll.size.usesPercent || child.usesPercent
        case .inset(_, let c): usesPercent = c.usesPercent
        case .overlay(let a, let b), .background(let a, let b): usesPercent = a.usesPercent || b.usesPercent
        }
    }

    /// This item if `node` lays out as it did (its cached results stay good), else a new
    /// item that keeps every unchanged subtree: only the changed nodes and their ancestors
    /// start with empty caches (are dirty).
    func reconciled(with node: Node) -> Item {
        switch (kind, node) {
        case (.leaf(let old), .leaf(let new)):
            let same = old.content == new.content && old.size == new.size && old.name == new.name
                && old.measure.identity != nil && old.measure.identity == new.measure.identity
            return same ? self : Item(node)
        case (.stack(let old, let items), .stack(let new)):
            let kids = new.children.indices.map { i in i < items.count ? items[i].reconciled(with: new.children[i].node) : Item(new.children[i].node) }
            let same = kids.count == items.count && zip(kids, items).allSatisfy { $0 === $1 } && old.laysOutLike(new)
            return same ? self : Item(Kind.stack(new, kids))
        case (.scroll(let old, let child), .scroll(let new)):
            let kept = child.reconciled(with: new.child)
            let same = kept === child && old.direction == new.direction && old.offset == new.offset && old.size == new.size && old.name == new.name
            return same ? self : Item(Kind.scroll(new, kept))
        case (.inset(let old, let child), .inset(let new, let node)):
            let kept = child.reconciled(with: node)
            return kept === child && old == new ? self : Item(Kind.inset(new, kept))
        case (.overlay(let a, let b), .overlay(let base, let top)):
            let (ka, kb) = (a.reconciled(with: base), b.reconciled(with: top))
            return ka === a && kb === b ? self : Item(Kind.overlay(ka, kb))
        case (.background(let a, let b), .background(let base, let fill)):
            let (ka, kb) = (a.reconciled(with: base), b.reconciled(with: fill))
            return ka === a && kb === b ? self : Item(Kind.background(ka, kb))
        default:
            return Item(node)
        }
    }

    /// The narrowest its content can be without overflowing (CSS's min-content width, the
    /// content size suggestion of a flex item's automatic minimum): a text's longest word,
    /// a row's children's contributions side by side, a column's widest.
    lazy var minContentWidth: Double = {
        switch kind {
        case .leaf(let l): return l.measure.minimumWidth
        case .stack(let whole, let all):
            let (s, items) = Item.inFlow(whole, all)
            let row = s.direction == .horizontal
            // A wrapping row can put each child on a line of its own: its widest child's
            // contribution (its flex basis aside, as Chromium has it).
            let wraps = row && s.wrap == .wrap
            let widths = zip(s.children, items).map { child, item in item.minContributionWidth(flex: row && !wraps ? child : nil) }
            guard row else { return widths.max() ?? 0 }
            if wraps { return zip(s.children, widths).map { $1 + $0.spacingBefore + $0.spacingAfter }.max() ?? 0 }
            return widths.reduce(0, +) + s.gaps(s.children)
        // Across, a viewport's content is laid out at its max-content width (it scrolls).
        case .scroll(let scroll, let c): return scroll.direction == .vertical ? c.minContributionWidth(flex: nil) : c.maxContributionWidth(flex: nil)
        // An inset and what it holds are one box (CSS's padding): its content is the child's
        // content, the child's own width being the box's (`spec`), not its content.
        case .inset(let e, let c): return c.minContentWidth + e.left + e.right
        case .overlay(let base, _), .background(let base, _): return base.minContentWidth
        }
    }()

    /// As wide as its content can be, unwrapped (CSS's max-content width): a text on one line,
    /// a row's children's contributions side by side, a column's widest.
    lazy var maxContentWidth: Double = {
        switch kind {
        case .leaf(let l): return l.measure.size(.unconstrained).width
        case .stack(let whole, let all):
            let (s, items) = Item.inFlow(whole, all)
            let row = s.direction == .horizontal
            let widths = zip(s.children, items).map { child, item in item.maxContributionWidth(flex: row ? child : nil) }
            guard row else { return wrappedColumnWidth(widths) ?? widths.max() ?? 0 }
            let sum = widths.reduce(0, +) + s.gaps(s.children)
            // A wrapping row is never narrower than its min-content width (its widest child).
            return s.wrap == .wrap ? max(minContentWidth, sum) : sum
        case .scroll(_, let c): return c.maxContributionWidth(flex: nil)
        case .inset(let e, let c): return c.maxContentWidth + e.left + e.right
        case .overlay(let base, _), .background(let base, _): return base.maxContentWidth
        }
    }()

    /// What it adds to its parent's min-content width (CSS Flexbox §9.9.1, as Chromium does
    /// it): its own width if it has one, else its content's min-content width; in a row, no
    /// more than its flex base size if it cannot grow and no less if it cannot shrink; within
    /// its min and max.
    func minContributionWidth(flex: StackChild?) -> Double { contributionWidth(content: minContentWidth, flex: flex) }

    /// What it adds to its parent's max-content width: the same, from its max-content width.
    func maxContributionWidth(flex: StackChild?) -> Double { contributionWidth(content: maxContentWidth, flex: flex) }

    func contributionWidth(content: Double, flex: StackChild?) -> Double {
        let s = spec
        let preferred = s.width.resolve(.nan)
        var c = preferred ?? content
        var lowest = s.minWidth.resolve(.nan) ?? 0
        if let flex {
            // Held to its flex base size only when that is given (a basis or a width), as
            // Chromium has it: a content-sized base adds nothing to a min-content contribution.
            if let base = flex.flexBasis.resolve(.nan) ?? preferred {
                if flex.flexGrow == 0 { c = min(c, base) }
                if flex.flexShrink == 0 { c = max(c, base) }
            }
            // A flex item's min width, when auto, is its automatic minimum.
            if s.minWidth.resolve(.nan) == nil && !isScroll {
                lowest = min(minContentWidth, preferred ?? .infinity, s.maxWidth.resolve(.nan) ?? .infinity)
            }
        }
        return max(min(c, s.maxWidth.resolve(.nan) ?? .infinity), lowest)
    }

    /// How tall its content is at `width` (CSS's intrinsic block size, the content size
    /// suggestion of a flex item's automatic minimum height), its own height aside: a
    /// column's children's hypothetical heights one after the other, a row's tallest.
    func contentHeight(width: Double) -> Double {
        if let (w, h) = contentHeightCache, w == width { return h }
        let h = computeContentHeight(width: width)
        contentHeightCache = (width, h)
        return h
    }
    var contentHeightCache: (Double, Double)?

    func computeContentHeight(width: Double) -> Double {
        switch kind {
        case .leaf(let l): return l.measure.size(SizeRange(max: Size(width: width, height: .infinity))).height
        case .stack(let whole, let all):
            let (s, items) = Item.inFlow(whole, all)
            let column = s.direction == .vertical
            // In a row that does not wrap, each child is as wide as flexing makes it.
            let widths = column || s.wrap == .wrap ? nil : Item.rowWidths(s, items, width: width)
            let heights = zip(s.children, items).enumerated().map { i, pair -> Double in
                let (child, item) = pair
                let spec = item.spec
                let at = widths?[i] ?? item.widthInColumn(stretched: (child.alignSelf ?? s.alignItems) == .stretch, room: width, parent: .nan)
                let content = item.contentHeight(width: at)
                let preferred = spec.height.resolve(.nan), highest = spec.maxHeight.resolve(.nan) ?? .infinity
                // In a column, its hypothetical height: its flex base size within its min (when
                // auto, its automatic minimum) and max; in a row, its own height or its content's.
                var lowest = spec.minHeight.resolve(.nan) ?? 0
                if column && spec.minHeight.resolve(.nan) == nil && !item.isScroll {
                    lowest = min(item.minContentHeight(width: at, content: content), preferred ?? .infinity, highest)
                }
                // A percent basis of a height not known yet is the content (CSS Flexbox §7.2.3).
                let h = (column ? child.flexBasis.resolve(.nan) ?? (child.flexBasis.isPercent ? content : nil) : nil) ?? preferred ?? content
                return max(min(h, highest), lowest)
            }
            guard column else {
                guard s.wrap == .wrap else { return heights.max() ?? 0 }
                // A wrapping row: its lines at this width (by the children's hypothetical
                // widths), one under another.
                let lines = Flex.lines(zip(s.children, items).map { child, item in
                    item.widthFlexItem(child, room: width).hypothetical + child.spacingBefore + child.spacingAfter
                }, available: width, spacing: s.spacing)
                return lines.reduce(0) { $0 + ($1.map { heights[$0] }.max() ?? 0) } + s.spacing * Double(max(0, lines.count - 1))
            }
            return heights.reduce(0, +) + s.gaps(s.children)
        // A viewport's content is its child's box: the child's own height, if it has one.
        case .scroll(_, let c):
            let spec = c.spec
            let h = spec.height.resolve(.nan) ?? c.contentHeight(width: spec.widthWithin(.nan) ?? width)
            return max(min(h, spec.maxHeight.resolve(.nan) ?? .infinity), spec.minHeight.resolve(.nan) ?? 0)
        case .inset(let e, let c): return c.contentHeight(width: max(0, width - e.left - e.right)) + e.top + e.bottom
        case .overlay(let base, _), .background(let base, _): return base.contentHeight(width: width)
        }
    }

    /// The shortest its content can be at `width` (CSS's min-content height, the content size
    /// suggestion of a flex item's automatic minimum height): its content's height
    /// (`content`), but a wrapping column of a given height (or max height) is as tall as its
    /// longest line when broken at that height, as Chromium has it.
    func minContentHeight(width: Double, content: Double) -> Double {
        guard let (heights, lines) = columnLines(width: width) else { return content }
        return lines.map { line in line.reduce(0) { $0 + heights[$1] } + spacing * Double(max(0, line.count - 1)) }.max() ?? 0
    }

    /// A wrapping column's lines when its height (or max height) is given, with its children's
    /// heights at `width`; nil for any other node.
    func columnLines(width: Double) -> (heights: [Double], lines: [[Int]])? {
        guard case .stack(let whole, let all) = kind, case let (s, items) = Item.inFlow(whole, all), s.direction == .vertical, s.wrap == .wrap,
              let limit = s.size.height.resolve(.nan).map({ min($0, s.size.maxHeight.resolve(.nan) ?? .infinity) }) ?? s.size.maxHeight.resolve(.nan)
        else { return nil }
        // Each child's hypothetical height: its basis, else its own height, else its content's.
        let heights = zip(s.children, items).map { child, item in
            let spec = item.spec
            let h = child.flexBasis.resolve(.nan) ?? spec.height.resolve(.nan) ?? item.contentHeight(width: spec.widthWithin(.nan) ?? width)
            return max(min(h, spec.maxHeight.resolve(.nan) ?? .infinity), spec.minHeight.resolve(.nan) ?? 0) + child.spacingBefore + child.spacingAfter
        }
        return (heights, Flex.lines(heights, available: max(limit, s.size.minHeight.resolve(.nan) ?? 0), spacing: s.spacing))
    }

    /// A wrapping column of a given height is as wide as its lines side by side, each as wide
    /// as its widest child (`widths`, their contributions), as Chromium has it; nil otherwise.
    func wrappedColumnWidth(_ widths: [Double]) -> Double? {
        guard let (_, lines) = columnLines(width: .infinity) else { return nil }
        return lines.reduce(0) { $0 + ($1.map { widths[$0] }.max() ?? 0) } + spacing * Double(max(0, lines.count - 1))
    }

    var spacing: Double { if case .stack(let s, _) = kind { return s.spacing } else { return 0 } }

    /// How wide it is in a column `room` wide: its own width, else the column's when
    /// stretched, else its content's within the room (CSS's fit-content), within its min and
    /// max (`parent`: what their percentages refer to).
    func widthInColumn(stretched: Bool, room: Double, parent: Double) -> Double {
        let spec = self.spec
        if let w = spec.widthWithin(parent) { return w }
        let fit = stretched ? room : min(maxContentWidth, max(minContentWidth, room))
        return max(min(fit, spec.maxWidth.resolve(parent) ?? .infinity), spec.minWidth.resolve(parent) ?? 0)
    }

    /// The widths of a row's children when it is `width` wide: each child's hypothetical
    /// width, flexed to share out what is left (as the row lays them out).
    static func rowWidths(_ s: Stack, _ items: [Item], width: Double) -> [Double] {
        Flex.resolve(zip(s.children, items).map { child, item in item.widthFlexItem(child, room: width) }, available: width - s.gaps(s.children))
    }

    /// As a row's flex item in a row `room` wide: its base (its basis or own width, else its
    /// max-content width), its min (when auto, its automatic minimum) and max, and how it
    /// flexes; its `hypothetical` is CSS's hypothetical main size.
    func widthFlexItem(_ child: StackChild, room: Double) -> Flex.Item {
        let s = spec
        let highest = s.maxWidth.resolve(room) ?? .infinity
        let lowest = s.minWidth.resolve(room) ?? (isScroll ? 0 : min(minContentWidth, s.width.resolve(room) ?? .infinity, highest))
        var item = Flex.Item(base: child.flexBasis.resolve(room) ?? s.width.resolve(room) ?? maxContentWidth, min: lowest, max: highest,
                             grow: child.flexGrow, shrink: child.flexShrink)
        if case .inset(let e, _) = kind { item.insets = e.left + e.right }
        return item
    }

    var isScroll: Bool { if case .scroll = kind { return true } else { return false } }

    /// A stack with only its children in the flow, and their items: what its intrinsic sizes
    /// come from (a child placed against its edges takes no room).
    static func inFlow(_ stack: Stack, _ items: [Item]) -> (Stack, [Item]) {
        guard stack.children.contains(where: { !$0.inFlow }) else { return (stack, items) }
        var flow = stack
        flow.children = stack.children.filter(\.inFlow)
        return (flow, zip(stack.children, items).filter { $0.0.inFlow }.map(\.1))
    }

    /// The node's own size spec. A wrapper has its child's, grown by an inset's edges (a
    /// bordered child of max width 30 is at most 32 wide), so a stack flexes it within them.
    var spec: SizeSpec {
        switch kind {
        case .leaf(let l): return l.size
        case .stack(let s, _): return s.size
        case .scroll(let s, _): return s.size
        case .inset(let e, let child): return child.spec.grown(width: e.left + e.right, height: e.top + e.bottom)
        case .overlay(let base, _), .background(let base, _): return base.spec
        }
    }

    /// A cached frame for `key`: the same request, or a looser one whose result fits this one.
    func cached(_ key: Key) -> Frame? {
        for entry in cache.reversed() where entry.key.unboundedMain == key.unboundedMain && (!usesPercent || entry.key.definiteHeight == key.definiteHeight) {
            if entry.key == key { return entry.frame }
            if usesPercent && (entry.key.parent != key.parent || entry.key.range.max != key.range.max) { continue }
            if entry.key.range.contains(key.range) && key.range.contains(entry.frame.size) { return entry.frame }
        }
        return nil
    }
}

final class Pass {
    var computed = 0

    /// `item` laid out within `range`; `parent` is the size its percentages refer to.
    /// `unboundedMain`: ignore the item's own min and max along that axis (a flex basis).
    /// `definiteHeight`: whether its height counts as definite for percentages of it, when the
    /// parent decides — a stretched height (CSS Flexbox §9.4 step 11) is; a column's length
    /// after flexing is when the column's height or the item's basis is — or nil: its own
    /// height decides.
    func measure(_ item: Item, _ range: SizeRange, parent: Size, unboundedMain: Direction? = nil, definiteHeight: Bool? = nil) -> Frame {
        let key = Item.Key(range: range, parent: parent, unboundedMain: unboundedMain, definiteHeight: definiteHeight)
        if let frame = item.cached(key) { return frame }
        computed += 1
        let frame = compute(item, range, parent: parent, unboundedMain: unboundedMain, definiteHeight: definiteHeight).finite()
        item.cache.append((key, frame))
        if item.cache.count > 6 { item.cache.removeFirst() }
        return frame
    }

    func compute(_ item: Item, _ range: SizeRange, parent: Size, unboundedMain: Direction?, definiteHeight: Bool? = nil) -> Frame {
        switch item.kind {
        case .leaf(let leaf):
            let r = constrain(range, leaf.size, parent: parent, unboundedMain: unboundedMain)
            let s = r.clamp(leaf.measure.size(r))
            return Frame(Rect(x: 0, y: 0, width: s.width, height: s.height), content: leaf.content, name: leaf.name)
        case .stack(let stack, let children):
            // Its height is definite (percentages of it resolve) when its own height resolves,
            // or its parent, of definite height itself, gave it exactly this height (a length
            // after flexing, a stretched height): otherwise percentages of it are auto.
            let definite = definiteHeight ?? (stack.size.height.resolve(parent.height) != nil || (range.min.height == range.max.height && parent.height.isFinite))
            return layoutStack(stack, children, constrain(range, stack.size, parent: parent, unboundedMain: unboundedMain), heightDefinite: definite)
        case .scroll(let scroll, let child):
            let r = constrain(range, scroll.size, parent: parent, unboundedMain: unboundedMain)
            let vertical = scroll.direction == .vertical
            // Across, the content fills the viewport (within its own min and max), unless it
            // has a size of its own there, which it keeps (overflowing or not), as CSS's do.
            var (lo, hi) = vertical ? (r.min.width, r.max.width) : (r.min.height, r.max.height)
            let spec = child.spec
            let (own, ownMin, ownMax) = vertical ? (spec.width, spec.minWidth, spec.maxWidth) : (spec.height, spec.minHeight, spec.maxHeight)
            if own.resolve(hi) != nil {
                (lo, hi) = (0, .infinity)
            } else if lo == hi {
                lo = max(min(lo, ownMax.resolve(hi) ?? .infinity), ownMin.resolve(hi) ?? 0)
                hi = lo
            }
            let inner = vertical
                ? SizeRange(min: Size(width: lo, height: 0), max: Size(width: hi, height: .infinity))
                : SizeRange(min: Size(width: 0, height: lo), max: Size(width: .infinity, height: hi))
            var c = measure(child, inner, parent: r.max)
            let s = r.clamp(c.size)
            let hidden = vertical ? c.rect.height - s.height : c.rect.width - s.width
            let offset = min(max(scroll.offset, 0), max(0, hidden))
            if vertical { c.rect.y = -offset } else { c.rect.x = -offset }
            return Frame(Rect(x: 0, y: 0, width: s.width, height: s.height), name: scroll.name, children: [c], clips: true)
        case .inset(let e, let child):
            let (h, v) = (e.left + e.right, e.top + e.bottom)
            let inner = SizeRange(
                min: Size(width: max(0, range.min.width - h), height: max(0, range.min.height - v)),
                max: Size(width: max(0, range.max.width - h), height: max(0, range.max.height - v)))
            // Its min and max are the child's (grown by the edges): a flex basis ignores them there.
            var c = measure(child, inner, parent: inner.max, unboundedMain: unboundedMain)
            c.rect.x = e.left
            c.rect.y = e.top
            // Never narrower than its insets (padding is not squeezed; it overflows, as CSS's).
            let clamped = range.clamp(Size(width: c.rect.width + h, height: c.rect.height + v))
            let s = Size(width: max(clamped.width, h), height: max(clamped.height, v))
            return Frame(Rect(x: 0, y: 0, width: s.width, height: s.height), children: [c])
        case .overlay(let base, let top):
            let b = measure(base, range, parent: parent, unboundedMain: unboundedMain)
            let t = measure(top, .exactly(b.size), parent: b.size)
            return Frame(Rect(x: 0, y: 0, width: b.rect.width, height: b.rect.height), children: [b, t])
        case .background(let base, let fill):
            let b = measure(base, range, parent: parent, unboundedMain: unboundedMain)
            let f = measure(fill, .exactly(b.size), parent: b.size)
            return Frame(Rect(x: 0, y: 0, width: b.rect.width, height: b.rect.height), children: [f, b])
        }
    }

    /// A child out of the flow, in a stack of `size` (CSS's absolute positioning against a
    /// positioned box): its own size, else what its opposite offsets leave (within its min and
    /// max), else its content's (as wide as fits in what its offsets leave, as tall as it is);
    /// at its offsets, else where the stack's justify and align would put its only child.
    func placeAbsolute(_ item: Item, _ o: Offsets, alignSelf: Align?, in stack: Stack, size: Size) -> Frame {
        let spec = item.spec
        let (top, left, bottom, right) = (o.top.resolve(size.height), o.left.resolve(size.width), o.bottom.resolve(size.height), o.right.resolve(size.width))
        func axis(_ own: Length, _ lo: Length, _ hi: Length, _ a: Double?, _ b: Double?, _ room: Double, content: (Double) -> Double?) -> (Double, Double) {
            if own.resolve(room) != nil { return (0, .infinity) }
            let left = max(0, room - (a ?? 0) - (b ?? 0))
            guard let v = a != nil && b != nil ? left : content(left) else { return (0, .infinity) }
            let held = max(min(v, hi.resolve(room) ?? .infinity), lo.resolve(room) ?? 0)
            return (held, held)
        }
        // Across, its content's width within what its offsets leave (CSS's shrink-to-fit);
        // down, its content's height.
        let w = axis(spec.width, spec.minWidth, spec.maxWidth, left, right, size.width) { min(item.maxContentWidth, max(item.minContentWidth, $0)) }
        let h = axis(spec.height, spec.minHeight, spec.maxHeight, top, bottom, size.height) { _ in nil }
        var f = measure(item, SizeRange(min: Size(width: w.0, height: h.0), max: Size(width: w.1, height: h.1)), parent: size)
        // Where it would go as the stack's only child: along the axis by justify (the spacing
        // values as they are for one child), across by align (a stretch is the start).
        func along(_ free: Double) -> Double {
            switch stack.justifyContent {
            case .start, .spaceBetween: return 0
            case .center, .spaceAround, .spaceEvenly: return free / 2
            case .end: return free
            }
        }
        func across(_ free: Double) -> Double {
            switch alignSelf ?? stack.alignItems {
            case .start, .stretch: return 0
            case .center: return free / 2
            case .end: return free
            }
        }
        let (freeX, freeY) = (size.width - f.rect.width, size.height - f.rect.height)
        let row = stack.direction == .horizontal
        f.rect.x = left ?? right.map { size.width - $0 - f.rect.width } ?? (row ? along(freeX) : across(freeX))
        f.rect.y = top ?? bottom.map { size.height - $0 - f.rect.height } ?? (row ? across(freeY) : along(freeY))
        return f
    }

    /// The parent's range narrowed by the node's own spec. An explicit size (held within the
    /// spec's min and max) is the node's size whatever room the parent has, as in CSS (the node
    /// overflows), unless the parent has decided that axis (its range there is one size: a
    /// flexed length, a stretch). An auto size takes the parent's range within the spec's min
    /// and max, where the node's own min beats the parent's room as `min-width` does in CSS.
    func constrain(_ range: SizeRange, _ spec: SizeSpec, parent: Size, unboundedMain: Direction?) -> SizeRange {
        func axis(_ size: Length, _ lo: Length, _ hi: Length, _ p: Double, _ pmin: Double, _ pmax: Double, unbounded: Bool) -> (Double, Double) {
            let minV = unbounded ? 0 : lo.resolve(p) ?? 0
            let maxV = unbounded ? .infinity : max(minV, hi.resolve(p) ?? .infinity)
            if let exact = size.resolve(p), pmin != pmax {
                let v = min(max(exact, minV), maxV)
                return (v, v)
            }
            var (a, b) = (minV, maxV)
            if let exact = size.resolve(p) { a = min(max(exact, minV), maxV); b = a }
            let clamp = { (v: Double) in min(max(v, pmin), pmax) }
            let low = max(clamp(a), minV)
            return (low, max(clamp(b), low))
        }
        let w = axis(spec.width, spec.minWidth, spec.maxWidth, parent.width, range.min.width, range.max.width, unbounded: unboundedMain == .horizontal)
        let h = axis(spec.height, spec.minHeight, spec.maxHeight, parent.height, range.min.height, range.max.height, unbounded: unboundedMain == .vertical)
        return SizeRange(min: Size(width: w.0, height: h.0), max: Size(width: w.1, height: h.1))
    }

    func layoutStack(_ stack: Stack, _ items: [Item], _ r: SizeRange, heightDefinite: Bool) -> Frame {
        // The children in the flow lay the stack out; those placed against its edges go on it
        // after, in their places among its children.
        if stack.children.contains(where: { !$0.inFlow }) {
            let (flow, flowItems) = Item.inFlow(stack, items)
            var frame = layoutStack(flow, flowItems, r, heightDefinite: heightDefinite)
            var laidOut = frame.children.makeIterator()
            var children: [Frame] = []
            for (child, item) in zip(stack.children, items) {
                if case .absolute(let offsets) = child.position {
                    children.append(placeAbsolute(item, offsets, alignSelf: child.alignSelf, in: stack, size: frame.size))
                } else if let f = laidOut.next() {
                    children.append(f)
                }
            }
            frame.children = children
            return frame
        }
        let d = stack.direction
        func main(_ s: Size) -> Double { d == .vertical ? s.height : s.width }
        func cross(_ s: Size) -> Double { d == .vertical ? s.width : s.height }
        func size(main: Double, cross: Double) -> Size { d == .vertical ? Size(width: cross, height: main) : Size(width: main, height: cross) }
        func range(main lo: Double, _ hi: Double, cross clo: Double, _ chi: Double) -> SizeRange {
            SizeRange(min: size(main: lo, cross: clo), max: size(main: hi, cross: chi))
        }
        func mainBounds(_ spec: SizeSpec) -> (Length, Length) { d == .vertical ? (spec.minHeight, spec.maxHeight) : (spec.minWidth, spec.maxWidth) }
        func crossSize(_ spec: SizeSpec) -> (Length, Length, Length) {
            d == .vertical ? (spec.width, spec.minWidth, spec.maxWidth) : (spec.height, spec.minHeight, spec.maxHeight)
        }

        let (minMain, maxMain, minCross, maxCross) = (main(r.min), main(r.max), cross(r.min), cross(r.max))
        // What the children's percentages resolve against: the stack's size; a height that is
        // not definite counts as unknown (their percentage heights are auto).
        let parent = Size(width: r.max.width, height: heightDefinite ? r.max.height : .infinity)
        // The room a child has across: a column's width, but never less than the child's
        // min-content width (CSS's fit-content: text wraps to the column, a wider child
        // overflows it); a row's children are as tall as their content (they overflow a
        // shorter row, as block sizes do in CSS).
        let crossRooms = items.map { d == .vertical ? max(maxCross, $0.minContributionWidth(flex: nil)) : .infinity }
        let children = stack.children
        let gaps = stack.gaps(children)

        // In a column, how wide a child is: its own width, else the column's when stretched,
        // else its content's, within the column (CSS's fit-content).
        func columnWidth(_ i: Int) -> Double {
            items[i].widthInColumn(stretched: (children[i].alignSelf ?? stack.alignItems) == .stretch, room: maxCross, parent: cross(parent))
        }
        // 1. Each child's flex base size (its basis, or its own size without its min and max)
        //    and its bounds along the axis.
        let flex: [Flex.Item] = items.indices.map { i in
            let (lo, hi) = mainBounds(items[i].spec)
            let maxV = hi.resolve(main(parent)) ?? .infinity
            // An auto min is the content's min-content size (CSS's automatic minimum size of a
            // flex item), no more than an explicit size or the max; a viewport's is zero.
            var minV = lo.resolve(main(parent)) ?? 0
            if lo.resolve(main(parent)) == nil && !items[i].isScroll {
                let spec = items[i].spec
                let width = columnWidth(i)
                let content = d == .horizontal ? items[i].minContentWidth : items[i].minContentHeight(width: width, content: items[i].contentHeight(width: width))
                minV = min(content, (d == .horizontal ? spec.width : spec.height).resolve(main(parent)) ?? .infinity, maxV)
            }
            // A percent basis of a stack whose length is not known yet is `content` (CSS
            // Flexbox §7.2.3): the content's size, the child's own size along the axis aside.
            let base: Double
            if let b = children[i].flexBasis.resolve(main(parent)) {
                base = b
            } else if children[i].flexBasis.isPercent {
                base = d == .horizontal ? items[i].maxContentWidth : items[i].contentHeight(width: columnWidth(i))
            } else {
                base = main(measure(items[i], range(main: 0, .infinity, cross: 0, crossRooms[i]), parent: parent,
                                    unboundedMain: (lo == .auto && hi == .auto) ? nil : d).size)
            }
            var item = Flex.Item(base: base, min: minV, max: maxV, grow: children[i].flexGrow, shrink: children[i].flexShrink)
            if case .inset(let e, _) = items[i].kind { item.insets = d == .horizontal ? e.left + e.right : e.top + e.bottom }
            return item
        }
        // 2. The stack's length: its content's, within what the parent allows; share it out.
        //    A row's content is as wide as its children's max-content contributions (CSS
        //    Flexbox §9.9.1), a column's as tall as their hypothetical sizes.
        let natural = d == .horizontal
            ? items.indices.reduce(0) { $0 + items[$1].maxContributionWidth(flex: children[$1]) } + gaps
            : flex.reduce(0) { $0 + $1.hypothetical } + gaps
        // A wrapping row's is never narrower than its widest child (its min-content width).
        let widest = d == .horizontal && stack.wrap == .wrap
            ? items.indices.map { items[$0].minContributionWidth(flex: nil) + children[$0].spacingBefore + children[$0].spacingAfter }.max() ?? 0 : 0
        var container = min(max(natural, widest, minMain), maxMain)
        // The lines: every child on one, or, wrapping, as many children on each as fit by their
        // hypothetical sizes (a child always fits on a line of its own); each line shares out
        // its own room.
        let lines = stack.wrap == .wrap
            ? Flex.lines(items.indices.map { flex[$0].hypothetical + children[$0].spacingBefore + children[$0].spacingAfter },
                         available: container, spacing: stack.spacing)
            : [Array(items.indices)]
        func lineGaps(_ line: [Int]) -> Double {
            stack.gaps(line.map { children[$0] })
        }
        // A wrapping column of no set height is as tall as its longest line (as Chromium has it).
        if d == .vertical, lines.count > 1, minMain < maxMain {
            let longest = lines.map { line in line.reduce(0) { $0 + flex[$1].hypothetical } + lineGaps(line) }.max() ?? 0
            container = min(max(longest, minMain), maxMain)
        }
        var lengths = Array(repeating: 0.0, count: items.count)
        for line in lines {
            for (i, length) in zip(line, Flex.resolve(line.map { flex[$0] }, available: container - lineGaps(line))) { lengths[i] = length }
        }
        // 3. Lay each child out at its length; a line is as thick as its thickest child, and the
        //    stack as its lines; stretch the others to their line (within their own max).
        // A column's lengths after flexing are definite heights when its own height is, or the
        // child's basis is (as Chromium has it).
        func flexedDefinite(_ i: Int) -> Bool? {
            guard d == .vertical else { return nil }
            let basis = children[i].flexBasis
            return heightDefinite || basis.resolve(main(parent)) != nil || (basis == .auto && items[i].spec.height.resolve(main(parent)) != nil)
        }
        var frames = items.indices.map { i in
            measure(items[i], range(main: lengths[i], lengths[i], cross: 0, crossRooms[i]), parent: parent, definiteHeight: flexedDefinite(i))
        }
        var lineCross = lines.map { line in line.map { cross(frames[$0].size) }.max() ?? 0 }
        let linesCross = lineCross.reduce(0, +) + stack.spacing * Double(max(0, lines.count - 1))
        let stackCross = min(max(stack.wrap == .wrap ? linesCross : lineCross.first ?? 0, minCross), maxCross)
        // A stack sized to its content across its width: percentages of its width resolve
        // against the width it ends up with — its max-content width, to which percentages add
        // nothing — as a browser lays them out once the width is known. Laid out again at
        // exactly that width.
        if r.min.width < r.max.width, items.contains(where: { $0.usesPercent }) {
            let intrinsic = d == .vertical ? min(max(items.map { $0.maxContributionWidth(flex: nil) }.max() ?? 0, r.min.width), r.max.width) : container
            if intrinsic <= r.max.width {
                return layoutStack(stack, items, SizeRange(min: Size(width: intrinsic, height: r.min.height), max: Size(width: intrinsic, height: r.max.height)),
                                   heightDefinite: heightDefinite)
            }
        }
        // Where each line starts across (CSS's align-content; one line that does not wrap is
        // as thick as the stack). Lines that overflow fall back as the spacing values do
        // along the axis: to the start.
        var lineStart = Array(repeating: 0.0, count: lines.count)
        if stack.wrap == .wrap {
            let free = stackCross - linesCross
            var content = stack.alignContent
            if free < 0, content != .center, content != .end { content = .start }
            let n = Double(lines.count)
            var cursor = 0.0, between = 0.0
            switch content {
            case .start: break
            case .stretch: for l in lineCross.indices { lineCross[l] += free / n }
            case .center: cursor = free / 2
            case .end: cursor = free
            case .spaceBetween: between = n > 1 ? free / (n - 1) : 0
            case .spaceAround: between = free / n; cursor = between / 2
            case .spaceEvenly: between = free / (n + 1); cursor = between
            }
            for l in lines.indices {
                lineStart[l] = cursor
                cursor += lineCross[l] + stack.spacing + between
            }
        } else {
            lineCross = [stackCross]
        }
        for (l, line) in lines.enumerated() {
            for i in line where (children[i].alignSelf ?? stack.alignItems) == .stretch {
                let (explicit, lo, hi) = crossSize(items[i].spec)
                guard explicit == .auto else { continue }
                let target = max(min(lineCross[l], hi.resolve(cross(parent)) ?? .infinity), lo.resolve(cross(parent)) ?? 0)
                // Again when already that size, if percentages below it may resolve now.
                guard cross(frames[i].size) != target || (d == .horizontal && items[i].usesPercent) else { continue }
                // Stretched, its height counts as definite for what it holds (a row's children).
                frames[i] = measure(items[i], range(main: lengths[i], lengths[i], cross: target, target), parent: parent,
                                    definiteHeight: d == .horizontal ? true : flexedDefinite(i))
            }
        }
        // 4. Position: justify each line's free space along the axis, align across its line.
        for (l, line) in lines.enumerated() {
            let content = line.reduce(0) { $0 + main(frames[$1].size) } + lineGaps(line)
            // Negative when the children overflow (CSS Flexbox §9.5): centred they overflow both
            // sides, at the end the start; the spacing values fall back as CSS Box Alignment says
            // (space-between to the start, space-around and space-evenly to a safe centre, which
            // is the start when the children overflow).
            let free = container - content
            var justify = stack.justifyContent
            if free < 0 {
                switch justify {
                case .spaceBetween, .spaceAround, .spaceEvenly: justify = .start
                default: break
                }
            }
            let n = Double(line.count)
            var cursor = 0.0, between = 0.0
            switch justify {
            case .start: break
            case .center: cursor = free / 2
            case .end: cursor = free
            case .spaceBetween: between = n > 1 ? free / (n - 1) : 0
            case .spaceAround: between = n > 0 ? free / n : 0; cursor = between / 2
            case .spaceEvenly: between = free / (n + 1); cursor = between
            }
            for i in line {
                cursor += children[i].spacingBefore
                let childCross = cross(frames[i].size)
                let offset: Double
                switch children[i].alignSelf ?? stack.alignItems {
                case .start, .stretch: offset = 0
                case .center: offset = (lineCross[l] - childCross) / 2
                case .end: offset = lineCross[l] - childCross
                }
                let across = lineStart[l] + offset
                if d == .vertical { (frames[i].rect.x, frames[i].rect.y) = (across, cursor) } else { (frames[i].rect.x, frames[i].rect.y) = (cursor, across) }
                cursor += main(frames[i].size) + children[i].spacingAfter + stack.spacing + between
            }
        }
        let s = size(main: container, cross: stackCross)
        return Frame(Rect(x: 0, y: 0, width: s.width, height: s.height), children: frames)
    }
}
