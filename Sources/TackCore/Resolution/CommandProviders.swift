/// Which pinned tools provide a command, from what their pins say before they are installed:
/// the tool's own name, its `products:`, and the names its `bin:` paths install as. `tack
/// exec` installs only those, not every missing tool.
public enum CommandProviders {
    public static func tools(providing command: String, among requests: [ToolRequest]) -> [String] {
        guard !command.contains("/") else { return [] }
        return requests.filter { names(of: $0).contains(command) }.map({ $0.name })
    }

    /// The command names a pin is known to install.
    public static func names(of request: ToolRequest) -> Set<String> {
        var out: Set<String> = [request.name]
        out.formUnion(request.options.commands)
        for spec in request.options.bin { out.insert(BinSpec.split(spec).name) }
        return out
    }
}
