import ArgumentParser
import Foundation
import TackCore
import TackFront
import TackKit

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
