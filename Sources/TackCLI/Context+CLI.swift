import ArgumentParser
import Foundation
import TackCore
import TackFront
import TackKit

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
