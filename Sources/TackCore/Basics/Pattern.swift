/// Regular expressions as signers' identities are written (cosign's
/// `--certificate-identity-regexp`, aqua's registry, `gh attestation`): matched anywhere in the
/// text unless anchored with `^…$`. Swift's regular expressions, which read the syntax those
/// tools write (RE2's, for the patterns they use).
///
/// Embedded Swift (the `tack` executable) has no regular expressions: there a pattern is never
/// valid and never matches, so what needs one fails and the full path, `tack-front`, decides.
public enum Pattern {
    public static func isValid(_ pattern: String) -> Bool {
        #if hasFeature(Embedded)
        return false
        #else
        return (try? Regex(pattern)) != nil
        #endif
    }

    /// A pattern that matches `text` itself: every character a pattern gives meaning escaped.
    public static func literal(_ text: String) -> String {
        var out = ""
        for c in text {
            if "\\^$.|?*+()[]{}".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// Whether `pattern` matches somewhere in `text`; false for a pattern that is not one.
    public static func matchesAnywhere(_ pattern: String, _ text: String) -> Bool {
        #if hasFeature(Embedded)
        return false
        #else
        guard let regex = try? Regex(pattern) else { return false }
        return (try? regex.firstMatch(in: text)) != nil
        #endif
    }
}
