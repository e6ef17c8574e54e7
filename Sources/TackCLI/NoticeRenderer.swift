import ArgumentParser
import Foundation
import TackCore
import TackFront
import TackKit

/// How tack-cli says a service's notices: problems as `tack: …` lines, the rest as lines on
/// stderr, progress through one `ProgressReporter`, in the order they come.
final class NoticeRenderer: @unchecked Sendable {
    private let settings: Settings
    private let lock = NSLock()
    private var reporter: ProgressReporter?

    init(settings: Settings) { self.settings = settings }

    func render(_ notice: Notice) {
        // Interrupted: the handler says what happened, once; a build the interrupt stopped is
        // no failure to report, and nothing else is said after it.
        guard !Interrupts.isStopping else { return }
        switch notice {
        case .problem(let error):
            ProcessScope.current?.failed(error)
            Output.error(error.message)
        case .line(let line): Output.err(line + "\n")
        case .lockChanged(let change): Output.err(change.description + "\n")
        case .learned(let label, let learned, let recorded, let frozen):
            if recorded {
                Output.err("\(label): recorded \(learned.what) in tack.lock: \(learned.value)\n")
            } else {
                Output.err("\(label): \(learned.what) is \(learned.value) (no tack.lock records it\(frozen ? ": --frozen writes none" : ""))\n")
            }
        case .unresolved(let name): Output.err("\(name): failed (not resolved)\n")
        case .summary(let summary): if let line = summary.line { Output.err(line + "\n") }
        case .progress(let event): progress().handle(event)
        case .ignored(let files): IgnoredFiles.report(files, settings: settings)
        }
    }

    private func progress() -> ProgressReporter {
        lock.withLock {
            if let reporter { return reporter }
            let made = ProgressReporter(settings: settings)
            reporter = made
            return made
        }
    }
}
