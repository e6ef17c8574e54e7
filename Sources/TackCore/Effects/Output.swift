#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import CLean
#endif

/// Unbuffered output straight to the file descriptors. What is asked for goes to stdout;
/// what tack says while it works goes to stderr, and `-q` (TACK_QUIET) silences it, never the
/// errors; `-v` (TACK_VERBOSE) adds each program run and URL fetched.
public enum Output {
    public static func out(_ s: String) { write(1, s) }
    /// Progress and notes on stderr, unless quiet.
    public static func err(_ s: String) { if !isQuiet { write(2, URLRedaction.text(s)) } }
    /// A question for the user: said even when quiet.
    public static func prompt(_ s: String) { write(2, s) }
    /// A detail for `-v`: `tack: <message>` on stderr.
    public static func verbose(_ message: @autoclosure () -> String) {
        if isVerbose { write(2, "tack: \(Terminal.escapeControls(URLRedaction.text(message())))\n") }
    }

    public static var isQuiet: Bool { flag("TACK_QUIET") }
    public static var isVerbose: Bool { flag("TACK_VERBOSE") && !isQuiet }

    static func flag(_ name: String) -> Bool {
        guard let v = CurrentProcess.variable(name) else { return false }
        return !v.isEmpty && v != "0"
    }

    static func write(_ fd: Int32, _ s: String) {
        if let scope = ProcessScope.current { return scope.write(fd, Array(s.utf8)) }
        var bytes = Array(s.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buf in
                #if canImport(Darwin)
                Darwin.write(fd, buf.baseAddress! + offset, buf.count - offset)
                #elseif canImport(Glibc)
                Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                #else
                CLean.write(fd, buf.baseAddress! + offset, buf.count - offset)
                #endif
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                // Output that cannot be written is a failure, said where it still can be.
                if fd == 1 {
                    let why = n < 0 ? String(cString: strerror(errno)) : "nothing was written"
                    write(2, "tack: cannot write output: \(why)\n")
                    exit(1)
                }
                return
            }
            offset += n
        }
    }

    /// `tack: <message>` on stderr, with every control character but the line break escaped:
    /// a tool name, key, path or server's answer cannot move the cursor, recolour or retitle
    /// the user's terminal.
    public static func error(_ message: String) { write(2, "tack: \(Terminal.escapeControls(URLRedaction.text(message)))\n") }
}
