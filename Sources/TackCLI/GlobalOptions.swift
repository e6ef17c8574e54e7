#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            case "-q", "--quiet": setenv("TACK_QUIET", "1", 1)
            case "-v", "--verbose": setenv("TACK_VERBOSE", "1", 1)
            default:
                out.append(a)
                // What follows exec's command, and a `new` template's variables, are not tack's.
                if i > 0, arguments[0] == "exec", !a.hasPrefix("-") { passthrough = true }
            }
        }
        return out
    }
}
