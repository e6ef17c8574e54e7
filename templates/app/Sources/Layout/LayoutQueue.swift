import Dispatch
import Synchronization

/// Lays out off the main thread and delivers on the main actor. `submit` is cheap and may be
/// called from any thread; only the newest submission is laid out (older ones not yet started
/// are dropped), and results arrive tagged with their version, newest last.
public final class LayoutQueue: Sendable {
    struct Job: Sendable {
        var version: UInt64
        var range: SizeRange
        var build: @Sendable () -> Node
    }

    let pending = Mutex<Job?>(nil)
    /// The layout kept between jobs: a change re-lays out only what it touches.
    let tree = Mutex(LayoutTree())
    let queue = DispatchQueue(label: "LayoutQueue", qos: .userInitiated)
    let deliver: @MainActor @Sendable (Frame, UInt64) -> Void

    public init(deliver: @escaping @MainActor @Sendable (Frame, UInt64) -> Void) { self.deliver = deliver }

    /// Lays out what `build` returns (called on the layout queue) within `range`.
    public func submit(version: UInt64, in range: SizeRange, _ build: @escaping @Sendable () -> Node) {
        pending.withLock { job in
            if let job, job.version > version { return }
            job = Job(version: version, range: range, build: build)
        }
        queue.async { self.run() }
    }

    func run() {
        guard let job = pending.withLock({ job -> Job? in defer { job = nil }; return job }) else { return }
        let node = job.build()
        let frame = tree.withLock { $0.layout(node, in: job.range).frame }
        let deliver = self.deliver
        Task { @MainActor in deliver(frame, job.version) }
    }
}
