/// URLs as tack says them: a password or token in a URL's user part (`https://user:pass@host/…`)
/// never reaches a message, a trace (`-v`) or a bill of materials. Every line tack writes to
/// stderr goes through `text`, so no message can forget it; the URL's host and path stay, so
/// the message still says where.
public enum URLRedaction {
    /// `text` with the user part of every `scheme://user[:password]@host` URL replaced by
    /// `***` (the host and everything after it kept).
    public static func text(_ text: String) -> String {
        guard text.contains("://"), text.contains("@") else { return text }
        var out = ""
        var rest = Substring(text)
        while let sep = rest.range(of: "://") {
            out += rest[..<sep.upperBound]
            rest = rest[sep.upperBound...]
            // The authority: up to the path, the query, the fragment or the end of the URL.
            let end = rest.firstIndex { "/?#".contains($0) || $0.isWhitespace || "\"'`<>()[]{},".contains($0) } ?? rest.endIndex
            let authority = rest[..<end]
            if let at = authority.lastIndex(of: "@") {
                out += "***@"
                rest = rest[rest.index(after: at)...]
            }
        }
        return out + rest
    }
}
