import ArgumentParser
import Foundation
import Backends
import TackCore
import TackFront
import TackKit

extension Workspace {
    /// The workspace of the process's working directory, or a printed error. With `locking`,
    /// read under the project's lock (for commands that write its files).
    /// With `copy`, its backends make (`tack mirror`) or read (`install --from`) that copy.
    static func current(locking: Bool = false, locksVersionFiles: Bool = false, copy: CarriedCopy? = nil) throws -> Workspace {
        var settings = try processSettings()
        settings.locksVersionFiles = locksVersionFiles
        var context = Context.cli(settings)
        context.copy = copy
        do { return locking ? try Workspace.locked(context) : try Workspace(context) } catch { throw fail(error) }
    }
}
