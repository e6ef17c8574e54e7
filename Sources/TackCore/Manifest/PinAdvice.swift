/// The `tack use` (or `tack install`) a hint names: one builder, so every hint tack prints is
/// a command that works — with the source option a tool the registries do not know needs.
public enum PinAdvice {
    /// `tack use` options naming a source, by backend.
    static let sourceOptions = ["git": "git", "url": "url", "pip": "pip", "gem": "gem"]

    /// The source options `tack use` takes, as a hint lists them.
    public static let sourceOptionsHint = "--github OWNER/REPO, --git URL, --url URL, --release OWNER/REPO, --aqua OWNER/REPO, --pip PACKAGE or --gem GEM"

    /// `tack use tool@version`, with the source an install was made from when no registry
    /// names the tool (`tack use cowsay@6.1 --pip cowsay`).
    public static func use(_ tool: String, _ version: String, installedFrom record: LockedTool?, registryKnows: Bool) -> String {
        var command = "tack use \(tool)@\(version)"
        if !registryKnows, let record, let option = sourceOptions[record.backend] {
            command += " --\(option) \(ShellQuote.posixIfNeeded(record.source))"
            // A url tool's binaries in its archive (`bin:`), as `--bin` gives them.
            if record.backend == "url", let bins = record.options["bin"], !bins.isEmpty {
                for bin in bins.split(separator: ",") { command += " --bin \(ShellQuote.posixIfNeeded(String(bin).trimming { $0 == " " }))" }
            }
        }
        return "`\(command)`"
    }

    /// How to pin a tool pinned nowhere here: `tack use TOOL` when a registry names it, else
    /// `tack use` with the source options.
    public static func pin(_ tool: String, registryKnows: Bool) -> String {
        registryKnows ? "pin it with `tack use \(tool)`"
            : "no registry knows \(tool), so pin it with its source: `tack use \(tool)@VERSION` with \(sourceOptionsHint)"
    }

    /// Whether tack's or the user's registries name `tool`.
    public static func registryKnows(_ tool: String, store: Store?) -> Bool {
        ToolRegistry.names(store: store).contains(tool)
    }

    /// The hint for a tool name that is pinned nowhere here: "did you mean" a pinned or known
    /// name close to it, else how to pin it.
    public static func notPinned(_ tool: String, pinned: [String], store: Store?) -> String {
        if let close = ToolName.suggestion(for: tool, store: store, pinned: pinned) { return "did you mean `\(close)`?" }
        return pin(tool, registryKnows: registryKnows(tool, store: store))
    }
}
