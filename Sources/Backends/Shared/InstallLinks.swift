import Foundation
import TackCore

/// `bin/<name>` of an install linked to an executable in its `files/`: the one way url tools
/// and prebuilt bundles put their commands in place.
enum InstallLinks {
    /// Links `directory/bin/<name>` to `files/<path>`, which must be an executable inside
    /// `files` once links are resolved (an archive's own links were checked when it was
    /// extracted); `missing` is the error when it is not.
    static func link(_ name: String, to path: String, directory: String, files: String, fs: any FileSystem, missing: String) throws(TackError) -> String {
        let full = files + "/" + path
        let real = (full as NSString).resolvingSymlinksInPath
        guard real.hasPrefix((files as NSString).resolvingSymlinksInPath + "/"), ExecutableSearch.isExecutable(full) else {
            throw TackError(missing)
        }
        do { try fs.makeLink(directory + "/bin/" + name, to: "../files/" + path) } catch {
            throw TackError("cannot link bin/\(name): \(error)")
        }
        return "bin/" + name
    }
}
