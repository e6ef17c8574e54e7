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
        case .problem(let message): Output.error(message)
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

extension Context {
    /// The context tack-cli runs services in: notices rendered on stderr, project files
    /// written so that an interrupt puts them back, shims pointing at the `tack` beside it.
    static func cli(_ settings: Settings) -> Context {
        let renderer = NoticeRenderer(settings: settings)
        return Context(
            settings: settings, notify: { renderer.render($0) },
            projectFiles: InterruptSafeWriter(fs: settings.fs),
            undoOnInterrupt: { Interrupts.undoOnInterrupt($0, $1) },
            launcher: { Front.launcherPath() })
    }
}

extension Workspace {
    /// The workspace of the process's working directory, or a printed error. With `locking`,
    /// read under the project's lock (for commands that write its files).
    static func current(locking: Bool = false, locksVersionFiles: Bool = false) throws -> Workspace {
        var settings = try processSettings()
        settings.locksVersionFiles = locksVersionFiles
        let context = Context.cli(settings)
        do { return locking ? try Workspace.locked(context) : try Workspace(context) } catch { throw fail(error) }
    }
}

/// Fails a command with the error's message on stderr.
func fail(_ error: TackError, status: Int32 = 1) -> ExitCode {
    Output.error(error.message)
    return ExitCode(status)
}

/// Project files written so that an interrupt puts back what was there (`Interrupts.write`).
struct InterruptSafeWriter: ProjectFileWriter {
    let fs: any FileSystem
    func write(_ path: String, _ bytes: [UInt8]) throws(TackError) { try Interrupts.write(path, bytes, fs: fs) }
}
