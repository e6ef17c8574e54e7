/// What a project file chose that does not run or apply until the file is trusted: one case
/// for each thing trust guards, with what it names, said in one place (`message(home:)`), so
/// every refusal reads alike and tests match the case.
public enum TrustRefusal: Sendable, Equatable {
    /// Installing a pin would run code the file chose; `what` is its kind's words for it
    /// (`BackendKind.runsChosenCode`), `origin` where the pin was set.
    case runsCode(what: String, origin: Origin)
    /// The file's `env:` and `path:` pins were left out of what runs.
    case environmentNotApplied(file: String)
    /// The file's `bootstrap.run` commands.
    case bootstrapCommands(file: String)
    /// The file names a team cache, whose builds everyone who installs the project would run.
    case teamCache(file: String, reference: String)
    /// The file pins the builds here, and only builds of trusted pins are shared.
    case pushedBuilds(file: String)

    /// The file that needs `tack trust`.
    public var file: String {
        switch self {
        case .runsCode(_, let origin): return origin.file
        case .environmentNotApplied(let file), .bootstrapCommands(let file), .teamCache(let file, _), .pushedBuilds(let file): return file
        }
    }

    /// The refusal in words, with the `tack trust` that lifts it.
    public func message(home: String?) -> String {
        let shown = Paths.abbreviate(file, home: home)
        let trust = "run `tack trust \(Paths.abbreviate(Paths.dirname(file), home: home))`"
        switch self {
        case .runsCode(let what, let origin):
            return "\(what), and \(shown) is not trusted (set by \(origin.describe(home: home))) — read it, then \(trust); nothing was fetched or installed"
        case .environmentNotApplied:
            return "\(shown) is not trusted, so its env and path: pins were not applied — read it, then \(trust)"
        case .bootstrapCommands:
            return "\(shown) has `bootstrap.run` commands and is not trusted — read them, then \(trust); nothing was changed"
        case .teamCache(_, let reference):
            return "\(shown) names the team cache \(reference), but the file is not trusted — read it, then \(trust)"
        case .pushedBuilds:
            return "nothing was pushed: \(shown) pins the builds here and is not trusted, and tack shares only builds of trusted pins — read it, then \(trust)"
        }
    }
}
