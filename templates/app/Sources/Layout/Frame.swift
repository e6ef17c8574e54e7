/// A laid-out node: its rectangle in its parent's coordinates, what it shows, and its children.
public struct Frame: Sendable, Equatable, CustomStringConvertible {
    public var rect: Rect
    public var content: Content
    public var name: String?
    public var children: [Frame]
    /// Whether the children are cut off at the frame's edges (a scroll viewport).
    public var clips: Bool

    public init(_ rect: Rect, content: Content = .none, name: String? = nil, children: [Frame] = [], clips: Bool = false) {
        self.rect = rect
        self.content = content
        self.name = name
        self.children = children
        self.clips = clips
    }

    var size: Size { Size(width: rect.width, height: rect.height) }

    /// The frames of the nodes named `name`, in root coordinates, in drawing order.
    public func named(_ name: String) -> [Rect] {
        var out: [Rect] = []
        visit { frame, origin in
            if frame.name == name { out.append(Rect(x: origin.x, y: origin.y, width: frame.rect.width, height: frame.rect.height)) }
        }
        return out
    }

    /// Calls `body` with each frame and its origin in root coordinates, parents before children.
    public func visit(_ body: (Frame, (x: Double, y: Double)) -> Void) {
        func walk(_ f: Frame, _ x: Double, _ y: Double) {
            let origin = (x: x + f.rect.x, y: y + f.rect.y)
            body(f, origin)
            for c in f.children { walk(c, origin.x, origin.y) }
        }
        walk(self, 0, 0)
    }

    /// The action of the button at (`x`, `y`) in root coordinates, if one is there and shown
    /// (not clipped away by a viewport).
    public func action(at x: Double, _ y: Double) -> String? {
        func find(_ f: Frame, _ ox: Double, _ oy: Double) -> String? {
            let (fx, fy) = (ox + f.rect.x, oy + f.rect.y)
            let inside = x >= fx && x < fx + f.rect.width && y >= fy && y < fy + f.rect.height
            if f.clips && !inside { return nil }
            for c in f.children.reversed() { if let found = find(c, fx, fy) { return found } }
            if inside, case .button(_, let action) = f.content { return action }
            return nil
        }
        return find(self, 0, 0)
    }

    /// How many frames the tree holds.
    public var count: Int { children.reduce(1) { $0 + $1.count } }

    public var description: String {
        "\(name.map { $0 + " " } ?? "")\(rect)" + (children.isEmpty ? "" : " [" + children.map(\.description).joined(separator: ", ") + "]")
    }
}
