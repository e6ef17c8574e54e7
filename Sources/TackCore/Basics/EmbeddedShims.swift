#if hasFeature(Embedded)
import CLean

// What the Glibc and Darwin overlays and the string-processing library add to Swift, for
// TackCore built in Embedded Swift (inside the `tack` executable), where those libraries do not
// exist: the same names with the same meaning, so the sources read the same in both builds.

/// The calling thread's last error number.
var errno: Int32 {
    get { lean_errno() }
    set { lean_set_errno(newValue) }
}

/// `open(2)`, which C declares variadic (Swift cannot call that).
func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { lean_open(path, flags, mode) }

/// The process environment.
var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { lean_environ() }

extension StringProtocol {
    /// Whether `other` occurs in this string, compared character by character as the
    /// string-processing library's `contains` compares.
    func contains(_ other: some StringProtocol) -> Bool {
        guard !other.isEmpty else { return true }
        var i = startIndex
        while i < endIndex {
            if self[i...].starts(with: other) { return true }
            i = index(after: i)
        }
        return false
    }
}
#endif
