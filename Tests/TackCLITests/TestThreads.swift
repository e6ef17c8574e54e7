import Foundation
import Testing

/// Threads of the test run's own, for tests that block: most end-to-end tests wait on a child
/// process, a loopback server or an fsync, and on Swift's cooperative pool (one thread a
/// core) two such waits stop every other test. Run on these, `width` tests wait at once while
/// the cores do the others' work. `TACK_TEST_THREADS` sets the width (default: four a core,
/// at least eight).
final class TestThreads: TaskExecutor, @unchecked Sendable {
    static let shared = TestThreads(width: TestThreads.defaultWidth)
    /// Where commands run in-process by the harness run (`InProcessRun`).
    static let commands = TestThreads(width: TestThreads.defaultWidth)
    /// The suite's longest chain of waits, on a thread of its own so it starts at once rather
    /// than behind the queue (`.longestChain`).
    static let longest = TestThreads(width: 1)

    static var defaultWidth: Int {
        if let text = ProcessInfo.processInfo.environment["TACK_TEST_THREADS"], let n = Int(text), n > 0 { return n }
        return max(8, ProcessInfo.processInfo.activeProcessorCount * 4)
    }

    private let ready = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0

    init(width: Int) {
        for i in 0..<width {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "test-thread-\(i)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        ready.lock()
        jobs.append(unowned)
        ready.signal()
        ready.unlock()
    }

    private func work() {
        while true {
            ready.lock()
            while next == jobs.count { ready.wait() }
            let job = jobs[next]
            next += 1
            // Drop what has run once the queue has caught up, so it never grows without end.
            if next == jobs.count { jobs.removeAll(keepingCapacity: true); next = 0 }
            ready.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// A suite's tests on threads of the run's own rather than the cooperative pool:
/// `@Suite(.ownThreads)` on `TestThreads.shared`; `@Suite(.longestChain)` on a thread of its
/// own from the start of the run (`TestThreads.longest`), for the test whose chain of waits is
/// the run's longest, so it does not start last.
struct OnTestThreads: SuiteTrait, TestTrait, TestScoping {
    let threads: TestThreads
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(threads) { try await function() }
    }
}

extension Trait where Self == OnTestThreads {
    static var ownThreads: Self { OnTestThreads(threads: .shared) }
    static var longestChain: Self { OnTestThreads(threads: .longest) }
}
