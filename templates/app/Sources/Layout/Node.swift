/// A length in a size spec: points, a percent of the parent's size, or auto (the content's).
public enum Dimension: Sendable, Equatable {
    case auto
    case points(Double)
    case percent(Double)

    /// The length against a parent of `parent` points; nil for auto, or a percent of an
    /// undefined (infinite) parent, which counts as auto.
    func resolve(_ parent: Double) -> Double? {
        switch self {
        case .auto: return nil
        case .points(let p): return p
        case .percent(let p): return parent.isFinite ? parent * p / 100 : nil
        }
    }
}

public struct Size: Sendable, Equatable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)x\(height)" }
}

/// What a parent allows: every size between `min` and `max` (`max` may be infinite).
public struct SizeRange: Sendable, Equatable {
    public var min: Size
    public var max: Size
    public init(min: Size = .zero, max: Size) {
        self.min = min
        self.max = max
    }
    public static func exactly(_ size: Size) -> SizeRange { SizeRange(min: size, max: size) }
    public static let unconstrained = SizeRange(max: Size(width: .infinity, height: .infinity))

    func clamp(_ s: Size) -> Size {
        Size(width: Swift.min(Swift.max(s.width, min.width), max.width), height: Swift.min(Swift.max(s.height, min.height), max.height))
    }
}

public struct Rect: Sendable, Equatable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var description: String { "(\(x), \(y), \(width), \(height))" }
}

/// A node's own size: width and height (auto: its content's), and their bounds.
public struct SizeSpec: Sendable, Equatable {
    public var width: Dimension = .auto
    public var height: Dimension = .auto
    public var minWidth: Dimension = .auto
    public var maxWidth: Dimension = .auto
    public var minHeight: Dimension = .auto
    public var maxHeight: Dimension = .auto
    public init(width: Dimension = .auto, height: Dimension = .auto, minWidth: Dimension = .auto, maxWidth: Dimension = .auto,
                minHeight: Dimension = .auto, maxHeight: Dimension = .auto) {
        self.width = width
        self.height = height
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.minHeight = minHeight
        self.maxHeight = maxHeight
    }
}

public struct EdgeInsets: Sendable, Equatable {
    public var top: Double, left: Double, bottom: Double, right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
    public init(all: Double) { self.init(top: all, left: all, bottom: all, right: all) }
}

public enum Direction: Sendable, Equatable { case vertical, horizontal }
public enum Justify: Sendable, Equatable { case start, center, end, spaceBetween, spaceAround }
public enum Align: Sendable, Equatable { case start, center, end, stretch }

/// A child of a stack, with how it flexes and aligns.
public struct StackChild: Sendable, Equatable {
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

/// An immutable layout tree. Build it from state; `layout` turns it into frames.
public indirect enum Node: Sendable, Equatable {
    /// Content with a size of its own (text, an image), and an optional name for finding it.
    case leaf(Size, size: SizeSpec = SizeSpec(), name: String? = nil)
    case stack(Direction, spacing: Double = 0, justifyContent: Justify = .start, alignItems: Align = .stretch,
               children: [StackChild], size: SizeSpec = SizeSpec())
    case inset(EdgeInsets, Node)
    /// `top` laid out at the size of `base`, over it.
    case overlay(Node, over: Node)
    /// `fill` laid out at the size of `base`, behind it.
    case background(Node, behind: Node)
}
