import BackendKinds
import TackCore

/// The programs the pip backend runs: the Python interpreter a tool's environment is made
/// from (`python:`, or `python3` on PATH), and uv, found on PATH outside tack's shims.
struct PipPrograms {
    let runner: any ProcessRunner
    let environment: [String: String]
    /// tack's shims directory, never where an interpreter or uv is taken from.
    let shims: String?
    let fs: any FileSystem

    /// The interpreter: `python:` (a path, or a command on PATH, such as a python pinned with
    /// tack whose bin directory is on PATH) or `python3`; resolved to its real file.
    func interpreter(_ request: ToolRequest) async throws(TackError) -> (path: String, version: String) {
        let path = try interpreterPath(request)
        let probe = "import os, sys; print(os.path.realpath(sys.executable)); print('%d.%d.%d' % sys.version_info[:3])"
        let out: ProcessOutput
        do { out = try await runner.run(path, ["-c", probe], directory: "/", environment: environment) } catch {
            throw TackError("cannot run the Python interpreter \(path): \(error.message)")
        }
        let lines = out.output.split(separator: "\n").map(String.init)
        guard out.status == 0, lines.count >= 2, lines[lines.count - 2].hasPrefix("/") else {
            throw TackError("\(path) is not a working Python interpreter:\n\(out.tail(5))")
        }
        return (lines[lines.count - 2], lines[lines.count - 1])
    }

    func interpreterPath(_ request: ToolRequest) throws(TackError) -> String {
        let asked = request.options.pip.python ?? "python3"
        guard !asked.contains("/") else {
            let path = asked.hasPrefix("~/") ? (environment["HOME"] ?? "") + asked.dropFirst(1) : asked
            let absolute = path.hasPrefix("/") ? path : Paths.normalize(Paths.join(Paths.dirname(request.origin.file), path))
            guard fs.isExecutable(absolute) else {
                throw TackError("the Python interpreter \(absolute) of \(request.name) does not exist (set by \(request.origin.describe(home: nil)))")
            }
            return absolute
        }
        guard let found = locate(asked) else {
            throw TackError("\(request.name) needs Python, and `\(asked)` is not on PATH — install Python 3, or name an interpreter with `python:` (set by \(request.origin.describe(home: nil)))")
        }
        return found
    }

    /// The executable `name` on PATH, outside tack's shims.
    func locate(_ name: String) -> String? {
        ExecutableSearch(environment: environment, skipping: shims.map { [$0] } ?? []).find(name)
    }
}
