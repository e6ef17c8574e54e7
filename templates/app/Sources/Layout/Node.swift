public enum Direction: Sendable, Equatable { case vertical, horizontal }
public enum Justify: Sendable, Equatable { case start, center, end, spaceBetween, spaceAround, spaceEvenly }
public enum Align: Sendable, Equatable { case start, center, end, stretch }
/// Whether a stack keeps its children on one line along its axis (they shrink or overflow) or
/// starts another line when the next child does not fit (CSS's and Yoga's `flex-wrap`).
public enum Wrap: Sendable, Equatable { case noWrap, wrap }
/// How a wrapping stack places its lines across its axis (CSS's `align-content`): stretched
/// to share the room left (the default, as in CSS), packed to the start, centre or end, or
/// spread out.
public enum AlignContent: Sendable, Equatable { case start, center, end, stretch, spaceBetween, spaceAround, spaceEvenly }

/// How a leaf sizes itself: given what its parent allows, the size it wants. Text wraps to the
/// width allowed; an image or a control has its own size.
public struct Measure: Sendable {
    let size: @Sendable (SizeRange) -> Size
    /// Two measures with the same identity size alike: a kept layout (`LayoutTree`) reuses
    /// the results of a leaf whose measure has not changed. Nil: never the same as another.
    let identity: String?
    /// The narrowest the content can be without overflowing (CSS's min-content width: the
    /// longest word of a text): in a horizontal stack, a child whose min width is auto shrinks
    /// no further, as a flex item's automatic minimum size does in CSS.
    let minimumWidth: Double

    public init(identity: String? = nil, minimumWidth: Double = 0, _ size: @escaping @Sendable (SizeRange) -> Size) {
        self.size = size
        self.identity = identity
        self.minimumWidth = minimumWidth
    }

    public static func fixed(_ size: Size) -> Measure { Measure(identity: "fixed \(size.width) \(size.height)") { _ in size } }

    /// Text wrapped at word boundaries to the width allowed, in `metrics`' units, as a browser
    /// lays out a block of text: as wide as its longest line when it fits, else as wide as the
    /// width allowed (CSS's fit-content: never narrower than its longest word, which then
    /// overflows), its lines broken at spaces to that width.
    public static func text(_ text: String, _ metrics: TextMetrics) -> Measure {
        let longest = Double(text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(\.count).max() ?? 0) * metrics.characterWidth
        let unwrapped = metrics.size(of: TextMetrics.wrap(text, width: nil)).width
        return Measure(identity: "text \(metrics.characterWidth) \(metrics.lineHeight) \(text)", minimumWidth: longest) { range in
            let lines = TextMetrics.wrap(text, width: metrics.columns(range.max.width))
            let width = min(unwrapped, max(longest, range.max.width))
            return Size(width: width, height: Double(lines.count) * metrics.lineHeight)
        }
    }
}

/// Sizes of text in a grid of fixed cells: a terminal's, or a stand-in for a platform's text
/// measurement (swap in CoreText's or TextKit's in an app).
public struct TextMetrics: Sendable, Equatable {
    public var characterWidth: Double
    public var lineHeight: Double
    public init(characterWidth: Double, lineHeight: Double) {
        self.characterWidth = characterWidth
        self.lineHeight = lineHeight
    }
    /// One point is one terminal cell.
    public static let cells = TextMetrics(characterWidth: 1, lineHeight: 1)

    /// How many characters fit in `width`: a line fits when its width, in a browser's layout
    /// units of 1/64 point, rounded down, is within it (as Chromium breaks lines).
    /// Nil (no limit) for an unbounded width, or one that holds more characters than an `Int`
    /// counts (a width of 1e10 in characters 1e-300 wide).
    func columns(_ width: Double) -> Int? {
        let fit = max(0, (width + 1.0 / 64) / characterWidth).rounded(.down)
        guard width.isFinite, characterWidth > 0, fit < Double(Int32.max) else { return nil }
        var n = Int(fit)
        while n > 0, (Double(n) * characterWidth * 64).rounded(.down) / 64 > width { n -= 1 }
        return n
    }

    func size(of lines: [String]) -> Size {
        Size(width: Double(lines.map(\.count).max() ?? 0) * characterWidth, height: Double(lines.count) * lineHeight)
    }

    /// `text` in lines of at most `width` characters (nil: unlimited), broken at spaces; a word
    /// longer than a line stays whole on a line of its own (it overflows, as CSS's
    /// `overflow-wrap: normal` lets it). Newlines in `text` are kept.
    public static func wrap(_ text: String, width: Int?) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let width else {
                lines.append(String(paragraph))
                continue
            }
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty && line.count + 1 + word.count <= width {
                    line += " " + word
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                line = String(word)
            }
            lines.append(line)
        }
        return lines
    }
}

/// What a leaf shows. The layout only sizes it; a renderer draws it.
public enum Content: Sendable, Equatable {
    case none
    case text(String)
    /// A box drawn along the frame's edges.
    case border
    /// A control that asks for `action` when tapped (`Frame.action(at:)`); drawn as `(label)`.
    case button(label: String, action: String)
}

/// A node with content of its own and a way to size it.
public struct Leaf: Sendable {
    public var content: Content
    public var measure: Measure
    public var size: SizeSpec
    public var name: String?

    public init(_ content: Content = .none, measure: Measure, size: SizeSpec = SizeSpec(), name: String? = nil) {
        self.content = content
        self.measure = measure
        self.size = size
        self.name = name
    }
}

/// A stack lays its children out along one axis, flexbox's way: each child's basis, then
/// grow or shrink (within each child's min and max) to the stack's size, then justify along
/// the axis and align across it.
public struct Stack: Sendable {
    /// Whether `other` lays its children out as this does (its children aside).
    func laysOutLike(_ other: Stack) -> Bool {
        direction == other.direction && spacing == other.spacing && justifyContent == other.justifyContent
            && alignItems == other.alignItems && wrap == other.wrap && alignContent == other.alignContent
            && size == other.size && children.count == other.children.count
            && zip(children, other.children).allSatisfy { a, b in
                a.spacingBefore == b.spacingBefore && a.spacingAfter == b.spacingAfter && a.flexGrow == b.flexGrow
                    && a.flexShrink == b.flexShrink && a.flexBasis == b.flexBasis && a.alignSelf == b.alignSelf && a.position == b.position
            }
    }

    public var direction: Direction
    public var spacing: Double
    public var justifyContent: Justify
    public var alignItems: Align
    public var children: [StackChild]
    public var size: SizeSpec
    /// One line, or as many as the children need (`spacing` is also the space between lines).
    public var wrap: Wrap
    /// Where the lines go across the axis when the stack wraps.
    public var alignContent: AlignContent

    public init(_ direction: Direction, spacing: Double = 0, justifyContent: Justify = .start, alignItems: Align = .stretch,
                wrap: Wrap = .noWrap, alignContent: AlignContent = .stretch, size: SizeSpec = SizeSpec(), children: [StackChild]) {
        self.direction = direction
        self.spacing = spacing
        self.justifyContent = justifyContent
        self.alignItems = alignItems
        self.wrap = wrap
        self.alignContent = alignContent
        self.children = children
        self.size = size
    }
}

/// Distances from a stack's edges (auto: not given).
public struct Offsets: Sendable, Equatable {
    public var top: Length, left: Length, bottom: Length, right: Length
    public init(top: Length = .auto, left: Length = .auto, bottom: Length = .auto, right: Length = .auto) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

/// Where a stack's child goes: in the stack's flow (the default), or out of it, placed against
/// the stack's own edges (CSS's `position: absolute` in a `position: relative` box, Yoga's
/// absolute position type). An absolute child takes no room and does not flex; its size is
/// its own, else what its opposite offsets leave of the stack, else its content's (as wide
/// as fits in what its offsets leave); along an axis it has no offset on, it goes where the
/// stack's justify and align (its `alignSelf`, if any) would put the stack's only child.
/// `alignSelf` does nothing else for it: unlike a browser, it is not aligned between its
/// offsets. Offsets are from the stack's own frame (inside an `inset` around it).
public enum Position: Sendable, Equatable {
    case inFlow
    case absolute(Offsets)
}

extension Stack {
    /// The room spacing takes among `children` (some of this stack's, in order): each one's
    /// spacing before and after it, and `spacing` between neighbours.
    func gaps(_ children: some Collection<StackChild>) -> Double {
        children.reduce(0) { $0 + $1.spacingBefore + $1.spacingAfter } + spacing * Double(max(0, children.count - 1))
    }
}

/// A child of a stack, with how it flexes and aligns.
public struct StackChild: Sendable {
    public var node: Node
    public var spacingBefore: Double
    public var spacingAfter: Double
    public var flexGrow: Double
    public var flexShrink: Double
    /// The main-axis size flexing starts from (auto: the child's own).
    public var flexBasis: Length
    /// Overrides the stack's `alignItems` for this child.
    public var alignSelf: Align?
    /// In the flow, or placed against the stack's edges.
    public var position: Position

    public init(_ node: Node, spacingBefore: Double = 0, spacingAfter: Double = 0, flexGrow: Double = 0, flexShrink: Double = 0,
                flexBasis: Length = .auto, alignSelf: Align? = nil, position: Position = .inFlow) {
        self.node = node
        self.spacingBefore = spacingBefore
        self.spacingAfter = spacingAfter
        self.flexGrow = flexGrow
        self.flexShrink = flexShrink
        self.flexBasis = flexBasis
        self.alignSelf = alignSelf
        self.position = position
    }

    /// A child out of the flow, at these distances from the stack's edges.
    public static func absolute(_ node: Node, top: Length = .auto, left: Length = .auto, bottom: Length = .auto, right: Length = .auto,
                                alignSelf: Align? = nil) -> StackChild {
        StackChild(node, alignSelf: alignSelf, position: .absolute(Offsets(top: top, left: left, bottom: bottom, right: right)))
    }

    var inFlow: Bool { position == .inFlow }
}

/// A viewport onto a child laid out without limit along `direction`, showing it from
/// `offset` (held within what there is to show); what falls outside is clipped. As a flex
/// item its automatic minimum is zero, as a CSS scroll container's is, so it shrinks.
public struct Scroll: Sendable {
    public var direction: Direction
    public var offset: Double
    public var size: SizeSpec
    public var name: String?
    public var child: Node

    public init(_ direction: Direction = .vertical, offset: Double = 0, size: SizeSpec = SizeSpec(), name: String? = nil, _ child: Node) {
        self.direction = direction
        self.offset = offset
        self.size = size
        self.name = name
        self.child = child
    }
}

/// An immutable layout tree: built from state, on any thread; `Flexbox.layout` turns it into frames.
public indirect enum Node: Sendable {
    case leaf(Leaf)
    case stack(Stack)
    case scroll(Scroll)
    case inset(EdgeInsets, Node)
    /// `top` laid out at the size of `base`, over it.
    case overlay(Node, over: Node)
    /// `fill` laid out at the size of `base`, behind it.
    case background(Node, behind: Node)

    /// A leaf of a fixed size.
    public static func fixed(_ size: Size, _ content: Content = .none, spec: SizeSpec = SizeSpec(), name: String? = nil) -> Node {
        .leaf(Leaf(content, measure: .fixed(size), size: spec, name: name))
    }

    /// Wrapping text.
    public static func text(_ text: String, _ metrics: TextMetrics = .cells, spec: SizeSpec = SizeSpec(), name: String? = nil) -> Node {
        .leaf(Leaf(.text(text), measure: .text(text, metrics), size: spec, name: name))
    }

    public static func stack(_ direction: Direction, spacing: Double = 0, justifyContent: Justify = .start, alignItems: Align = .stretch,
                             wrap: Wrap = .noWrap, alignContent: AlignContent = .stretch, size: SizeSpec = SizeSpec(),
                             _ children: [StackChild]) -> Node {
        .stack(Stack(direction, spacing: spacing, justifyContent: justifyContent, alignItems: alignItems, wrap: wrap,
                     alignContent: alignContent, size: size, children: children))
    }

    /// A button: `(label)`, asking for `action` when tapped.
    public static func button(_ label: String, action: String, _ metrics: TextMetrics = .cells, name: String? = nil) -> Node {
        let text = "(\(label))"
        return .leaf(Leaf(.button(label: label, action: action), measure: .fixed(metrics.size(of: [text])), name: name))
    }

    public static func scroll(_ direction: Direction = .vertical, offset: Double = 0, size: SizeSpec = SizeSpec(), name: String? = nil,
                              _ child: Node) -> Node {
        .scroll(Scroll(direction, offset: offset, size: size, name: name, child))
    }

    /// `node` with a border drawn around it, one cell in from each edge.
    public static func bordered(_ node: Node, name: String? = nil) -> Node {
        .background(.inset(EdgeInsets(all: 1), node), behind: .leaf(Leaf(.border, measure: .fixed(.zero), name: name)))
    }
}
