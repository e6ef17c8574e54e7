#if !hasFeature(Embedded)
import YAML
#endif

enum EnvName {
    /// Why `env` cannot set `name`, or nil: PATH is tack's to assemble (each pinned tool's bin
    /// directory first, the caller's PATH after), and `__TACK_*` holds the shell hook's state.
    static func reserved(_ name: String) -> String? {
        if name == "PATH" {
            return "`env` cannot set PATH: tack puts each pinned tool's bin directory first on PATH itself, the PATH you run with after — to put a directory of your own on it, pin it (`mytool: { path: ./tools/mytool }`)"
        }
        if name.hasPrefix("__TACK_") { return "`env` cannot set `\(name)`: names starting with __TACK_ hold the shell hook's state" }
        return nil
    }

    static func isValid(_ s: String) -> Bool {
        guard let f = s.utf8.first, !(f >= 0x30 && f <= 0x39) else { return false }
        return s.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }
}
