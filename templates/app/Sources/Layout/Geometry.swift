/// A length in a size spec: points, a percent of the parent's size, or auto (the content's).
public enum Length: Sendable, Equatable {
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

    var isPercent: Bool { if case .percent = self { return true } else { return false } }
}

public struct Size: Sendable, Equatable, Hashable, CustomStringConvertible {
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
public struct SizeRange: Sendable, Equatable, Hashable {
    public var min: Size
    public var max: Size
    public init(min: Size = .zero, max: Size) {
        self.min = min
        self.max = max
    }
    public static func exactly(_ size: Size) -> SizeRange { SizeRange(min: size, max: size) }
    public static let unconstrained = SizeRange(max: Size(width: .infinity, height: .infinity))

    public func clamp(_ s: Size) -> Size {
        Size(width: Swift.min(Swift.max(s.width, min.width), max.width), height: Swift.min(Swift.max(s.height, min.height), max.height))
    }

    func contains(_ s: Size) -> Bool {
        s.width >= min.width && s.width <= max.width && s.height >= min.height && s.height <= max.height
    }

    /// Whether every size `other` allows, this allows too.
    func contains(_ other: SizeRange) -> Bool {
        other.min.width >= min.width && other.min.height >= min.height && other.max.width <= max.width && other.max.height <= max.height
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
    public var width: Length
    public var height: Length
    public var minWidth: Length
    public var maxWidth: Length
    public var minHeight: Length
    public var maxHeight: Length
    public init(width: Length = .auto, height: Length = .auto, minWidth: Length = .auto, maxWidth: Length = .auto,
                minHeight: Length = .auto, maxHeight: Length = .auto) {
        self.width = width
        self.height = height
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.minHeight = minHeight
        self.maxHeight = maxHeight
    }

    var usesPercent: Bool { [width, height, minWidth, maxWidth, minHeight, maxHeight].contains { $0.isPercent } }

    /// This spec around content `width` and `height` larger (an inset's edges): lengths in
    /// points grow by them; a percent, which refers to the inner box, says nothing of the
    /// outer one and reads as auto.
    func grown(width w: Double, height h: Double) -> SizeSpec {
        func grow(_ d: Length, _ by: Double) -> Length {
            switch d {
            case .points(let p): return .points(p + by)
            case .auto, .percent: return .auto
            }
        }
        return SizeSpec(width: grow(width, w), height: grow(height, h), minWidth: grow(minWidth, w), maxWidth: grow(maxWidth, w),
                        minHeight: grow(minHeight, h), maxHeight: grow(maxHeight, h))
    }

    /// Its width against a parent `parent` wide, within its min and max width (a min above
    /// the max wins); nil when auto.
    func widthWithin(_ parent: Double) -> Double? {
        guard let w = width.resolve(parent) else { return nil }
        let lo = minWidth.resolve(parent) ?? 0
        return max(min(w, maxWidth.resolve(parent) ?? .infinity), lo)
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
