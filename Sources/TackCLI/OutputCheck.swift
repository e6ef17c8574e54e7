#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Backends
import Dispatch
import Foundation
import TackCore

/// Output that could not be written (a full disk, a closed pipe's reader gone) is an error:
/// stdout is flushed at exit and a failure is said on stderr with exit status 1.
enum OutputCheck {
    static func install() {
        atexit {
            errno = 0
            if fflush(nil) != 0 {
                let why = errno != 0 ? String(cString: strerror(errno)) : "write error"
                Output.error("cannot write output: \(why)")
                _exit(1)
            }
        }
    }
}
