#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore

/// `-q/--quiet` and `-v/--verbose`, taken out of the command line wherever they stand before a
/// `--` (and before the command `exec` runs), and set as TACK_QUIET / TACK_VERBOSE so that
/// every part of this process, and the tack processes it starts, hear them.
enum GlobalOptions {
    static func apply(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var passthrough = false
        for (i, a) in arguments.enumerated() {
            if passthrough || a == "--" {
                passthrough = true
                out.append(a)
                continue
            }
            switch a {
            case "-q", "--quiet": set("TACK_QUIET")
            case "-v", "--verbose": set("TACK_VERBOSE")
            default:
                out.append(a)
                // What follows exec's command, and a `new` template's variables, are not tack's.
                if i > 0, arguments[0] == "exec", !a.hasPrefix("-") { passthrough = true }
            }
        }
        return out
    }

    /// The variable set to 1 in the process, or in the command's scope when it runs in-process.
    static func set(_ name: String) {
        if let scope = ProcessScope.current { scope.set(name, "1") } else { setenv(name, "1", 1) }
    }
}
