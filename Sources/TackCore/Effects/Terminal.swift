/// Text from files and servers made safe to print on a terminal.
public enum Terminal {
    /// Control characters (C0 but the line break, DEL, C1) written as `\u{1B}` and the like,
    /// so that no escape sequence reaches the terminal. Everything else is unchanged.
    public static func escapeControls(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        var out = ""
        for c in s.unicodeScalars {
            if isControl(c) {
                let hex = String(c.value, radix: 16, uppercase: true)
                out += "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A word from the command line or a file as one line of a message shows it: every
    /// control character escaped (line breaks as `\n`), at most `limit` characters.
    public static func word(_ s: String, limit: Int = 80) -> String {
        var out = ""
        var count = 0
        for c in s.unicodeScalars {
            if count >= limit { return out + "…" }
            count += 1
            if c == "\n" { out += "\\n" } else if isControl(c) {
                let hex = String(c.value, radix: 16, uppercase: true)
                out += "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func isControl(_ c: Unicode.Scalar) -> Bool {
        (c.value < 0x20 && c != "\n") || (c.value >= 0x7F && c.value < 0xA0)
    }
}
