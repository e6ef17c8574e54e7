import Foundation

/// Runs work that recurses once per level of a tree on a thread of its own with a large stack
/// (64 MiB, reserved, not used up front), so a deep tree lays out on any thread — a dispatch
/// queue's has 512 KiB — without overflowing it.
enum LargeStack {
    static let size = 64 << 20

    /// `body`'s result, computed on a thread with a large stack; the caller waits, so what
    /// `body` touches is never used by two threads at once.
    static func run<T>(_ body: @escaping () -> T) -> T {
        let work = Work(body)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work.value = work.body()
            done.signal()
        }
        thread.stackSize = size
        thread.start()
        done.wait()
        guard let value = work.value else { preconditionFailure("the layout thread ended without a result") }
        return value
    }

    /// The work and its result: set by the thread before it signals, read by the caller after
    /// it waits.
    final class Work<T>: @unchecked Sendable {
        let body: () -> T
        var value: T?
        init(_ body: @escaping () -> T) { self.body = body }
    }
}

extension Node {
    /// How many levels deep the tree goes (a leaf is 1), counted without recursion.
    var depth: Int {
        var deepest = 0
        var stack: [(Node, Int)] = [(self, 1)]
        while let (node, level) = stack.popLast() {
            deepest = max(deepest, level)
            switch node {
            case .leaf: break
            case .stack(let s): for c in s.children { stack.append((c.node, level + 1)) }
            case .scroll(let s): stack.append((s.child, level + 1))
            case .inset(_, let child): stack.append((child, level + 1))
            case .overlay(let a, let b), .background(let a, let b):
                stack.append((a, level + 1))
                stack.append((b, level + 1))
            }
        }
        return deepest
    }

    /// The tree with every node deeper than `levels` left out: a stack loses those children,
    /// any other node becomes an empty leaf. Recurses at most `levels` deep.
    func limited(to levels: Int) -> Node {
        guard levels > 1 else {
            if case .leaf = self { return self }
            return .leaf(Leaf(measure: .fixed(.zero)))
        }
        switch self {
        case .leaf: return self
        case .stack(var s):
            s.children = s.children.map { var c = $0; c.node = c.node.limited(to: levels - 1); return c }
            return .stack(s)
        case .scroll(var s):
            s.child = s.child.limited(to: levels - 1)
            return .scroll(s)
        case .inset(let e, let child): return .inset(e, child.limited(to: levels - 1))
        case .overlay(let a, let b): return .overlay(a.limited(to: levels - 1), over: b.limited(to: levels - 1))
        case .background(let a, let b): return .background(a.limited(to: levels - 1), behind: b.limited(to: levels - 1))
        }
    }
}

extension Frame {
    /// The frame with every non-finite length or position (from a NaN or infinite input, or
    /// an unbounded range with nothing to size by) made 0.
    /// The children's positions are the ones this frame's node gave them (their own sizes
    /// were made finite when they were laid out).
    func finite() -> Frame {
        func f(_ r: Rect) -> Rect {
            func v(_ x: Double) -> Double { x.isFinite ? x : 0 }
            return r.x.isFinite && r.y.isFinite && r.width.isFinite && r.height.isFinite ? r : Rect(x: v(r.x), y: v(r.y), width: v(r.width), height: v(r.height))
        }
        var out = self
        out.rect = f(rect)
        if out.children.contains(where: { !($0.rect.x.isFinite && $0.rect.y.isFinite) }) {
            for i in out.children.indices { out.children[i].rect = f(out.children[i].rect) }
        }
        return out
    }
}
