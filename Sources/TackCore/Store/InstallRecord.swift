/// What an install's record (`.tack-install.lock`, written last into the install) adds to the
/// lock entry it was made from: its executables and the facts of its build. The one place
/// those fields are named; everything else reads and writes them through these.
extension LockedTool {
    static let binariesField = "binaries"
    static let builtField = "built"

    /// The install's executables, relative to its directory (`bin/jq`); empty in a lock entry.
    public var binaries: [String] {
        get {
            if case .list(let b)? = fields[Self.binariesField] { return b }
            return []
        }
        set { fields[Self.binariesField] = .list(newValue) }
    }

    /// Whether this is an install's record (it names its executables, even none).
    public var recordsBinaries: Bool {
        if case .list? = fields[Self.binariesField] { return true }
        return false
    }

    /// The facts of the build (`swift`: the toolchain that built it, `from`/`seconds`: where it
    /// came from, `products`, `python`, `installer`, `keep`, `unshareable`); empty when none.
    public var built: [String: String] {
        get { fieldMap(Self.builtField) }
        set { fields[Self.builtField] = newValue.isEmpty ? nil : .map(newValue) }
    }

    /// The Swift toolchain that built it (`Swift version 6.3.1 (…)`), where one did.
    public var builtWithSwift: String? { built["swift"] }

    /// The lock entry an install was made from, without what only the install knows.
    public var withoutInstallFacts: LockedTool {
        var entry = self
        entry.fields[Self.binariesField] = nil
        entry.fields[Self.builtField] = nil
        return entry
    }
}
