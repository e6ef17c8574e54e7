public enum ToolName {
    /// `[a-z0-9][a-z0-9._-]*`, at most 64 characters: never a path, never an option.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 64 else { return false }
        func ok(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) }
        guard ok(first) else { return false }
        return name.utf8.allSatisfy { ok($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }

    public static func problem(_ name: String) -> String {
        "`\(name)` is not a valid tool name (lowercase letters, digits, `.`, `_` and `-`, starting with a letter or digit)"
    }

    /// The tool name tack knows (the names pinned here first, then the registries' entries and
    /// what is installed) that `word` is closest to: the same letters in lowercase, or a small
    /// typo away; nil when none is close.
    public static func suggestion(for word: String, store: Store?, pinned: [String] = []) -> String? {
        let lowered = word.lowercased()
        if lowered != word, pinned.contains(lowered) { return lowered }
        if let close = UsageError.suggestions(for: lowered, among: pinned.filter { $0 != word }.sorted()).first { return close }
        var names = ToolRegistry.names(store: store)
        if let store { names.formUnion(store.installedTools()) }
        let lower = word.lowercased()
        if lower != word, names.contains(lower) { return lower }
        names.remove(word)
        return UsageError.suggestions(for: lower, among: names.sorted()).first
    }

    /// `problem`, with "did you mean" when `word` is close to a tool tack knows.
    public static func withSuggestion(_ problem: String, for word: String, store: Store?) -> String {
        guard !word.isEmpty, let close = suggestion(for: word, store: store) else { return problem }
        return problem + " — did you mean `\(close)`?"
    }

    /// `swift-format` → `TACK_SWIFT_FORMAT_VERSION`.
    public static func environmentVariable(_ name: String) -> String {
        "TACK_" + String(name.uppercased().map { $0 == "-" || $0 == "." ? "_" : $0 }) + "_VERSION"
    }

    /// Whether a variable's name has the form of an override, `TACK_…_VERSION`, compared as
    /// bytes (as the lean reader does): what the snapshot's key holds and what resolution
    /// applies are then the same variables. `TACK_VERSION` counts, the two parts overlapping.
    public static func isVersionVariable(_ name: String) -> Bool {
        let u = name.utf8
        return u.count >= 8 && u.starts(with: "TACK_".utf8) && u.suffix(8).elementsEqual("_VERSION".utf8)
    }
}

extension ToolName {
    /// A binary's file name: no path separators, not `.` or `..`, no control characters.
    public static func isValidBinaryName(_ s: String) -> Bool {
        !s.isEmpty && s != "." && s != ".." && !s.hasPrefix("-") && s.count <= 255
            && !s.contains("/") && !s.contains(where: { $0.isControl })
    }
}
