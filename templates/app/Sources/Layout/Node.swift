public enum Direction: Sendable, Equatable { case vertical, horizontal }
public enum Justify: Sendable, Equatable { case start, center, end, spaceBetween, spaceAround, spaceEvenly }
public enum Align: Sendable, Equatable { case start, center, end, stretch }

/// How a leaf sizes itself: given what its parent allows, the size it wants. Text wraps to the
/// width allowed; an image or a control has its own size.
public struct Measure: Sendable {
    let size: @Sendable (SizeRange) -> Size

    public init(_ size: @escaping @Sendable (SizeRange) -> Size) { self.size = size }

    public static func fixed(_ size: Size) -> Measure { Measure { _ in size } }

    /// Text wrapped at word boundaries to the width allowed, in `metrics`' units.
    public static func text(_ text: String, _ metrics: TextMetrics) -> Measure {
        Measure { range in metrics.size(of: TextMetrics.wrap(text, width: metrics.columns(range.max.width))) }
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

    func columns(_ width: Double) -> Int? { width.isFinite ? Int((width / characterWidth + 1e-9).rounded(.down)) : nil }

    func size(of lines: [String]) -> Size {
        Size(width: Double(lines.map(\.count).max() ?? 0) * characterWidth, height: Double(lines.count) * lineHeight)
    }

    /// `text` in lines of at most `width` characters (nil: unlimited), broken at spaces; a word
    /// longer than a line is broken where the line ends. Newlines in `text` are kept.
    public static func wrap(_ text: String, width: Int?) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let width, width > 0 else {
                lines.append(String(paragraph))
                continue
            }
            var line = ""
            for word in paragraph.split(separator: " ") {
                var word = Substring(word)
                if !line.isEmpty && line.count + 1 + word.count <= width {
                    line += " " + word
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                while word.count > width {
                    lines.append(String(word.prefix(width)))
                    word = word.dropFirst(width)
                }
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
    public var direction: Direction
    public var spacing: Double
    public var justifyContent: Justify
    public var alignItems: Align
    public var children: [StackChild]
    public var size: SizeSpec

    public init(_ direction: Direction, spacing: Double = 0, justifyContent: Justify = .start, alignItems: Align = .stretch,
                size: SizeSpec = SizeSpec(), children: [StackChild]) {
        self.direction = direction
        self.spacing = spacing
        self.justifyContent = justifyContent
        self.alignItems = alignItems
        self.children = children
        self.size = size
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
    public var flexBasis: Dimension
    /// Overrides the stack's `alignItems` for this child.
    public var alignSelf: Align?

    public init(_ node: Node, spacingBefore: Double = 0, spacingAfter: Double = 0, flexGrow: Double = 0, flexShrink: Double = 0,
                flexBasis: Dimension = .auto, alignSelf: Align? = nil) {
        self.node = node
        self.spacingBefore = spacingBefore
        self.spacingAfter = spacingAfter
        self.flexGrow = flexGrow
        self.flexShrink = flexShrink
        self.flexBasis = flexBasis
        self.alignSelf = alignSelf
    }
}

/// An immutable layout tree: built from state, on any thread; `Layout.layout` turns it into frames.
public indirect enum Node: Sendable {
    case leaf(Leaf)
    case stack(Stack)
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
                             size: SizeSpec = SizeSpec(), _ children: [StackChild]) -> Node {
        .stack(Stack(direction, spacing: spacing, justifyContent: justifyContent, alignItems: alignItems, size: size, children: children))
    }

    /// `node` with a border drawn around it, one cell in from each edge.
    public static func bordered(_ node: Node, name: String? = nil) -> Node {
        .background(.inset(EdgeInsets(all: 1), node), behind: .leaf(Leaf(.border, measure: .fixed(.zero), name: name)))
    }
}
