import TackCore

/// What the backends that install a locked set of packages share (pip's distributions, gem's
/// gems): which part of the set this platform installs, what `--frozen` refuses, the lock
/// fields an install records, and the words for each, so a pip tool and a gem tool are locked,
/// refused and explained alike.
struct PackageSet {
    /// What the set's members are called: "distributions", "gems".
    let noun: String
    /// The tool as messages name it: `black 24.1.0`.
    let tool: String

    init(_ entry: LockedTool, noun: String) {
        self.init(tool: "\(entry.name) \(entry.version)", noun: noun)
    }

    init(tool: String, noun: String) {
        self.noun = noun
        self.tool = tool
    }

    /// What this platform installs of a lock made for several platforms: the names its
    /// selection records for it (`recorded`), or, when it records none, a set resolved here
    /// (`resolve`) and recorded in `selection` by `name`. Nil when the lock has no selection
    /// (it was locked on one platform, and the whole set is this one's). `--frozen` refuses a
    /// platform the lock does not cover: it installs only what it can verify.
    func forThisPlatform<Pin>(_ selection: inout PlatformSelection, job: InstallJob, recorded: ([String]) -> [Pin], name: (Pin) -> String,
                              resolve: () async throws(TackError) -> [Pin]) async throws(TackError) -> (pins: [Pin], resolvedHere: Bool)? {
        guard selection.isRecorded else { return nil }
        let here = Platform.current
        if let names = selection.names(for: here) { return (recorded(names), false) }
        guard !job.frozen else { throw TackError(.setUncovered(noun: noun, tool: tool, covered: selection.covered.sorted(), platform: here.description)) }
        job.report(.custom("resolving for \(here)"))
        let pins = try await resolve()
        selection.set(pins.map(name), for: here)
        return (pins, true)
    }

    /// A lock that records no set for the tool yet is resolved by the install: `--frozen`
    /// refuses it, as it installs only what the lock records.
    func requireRecorded(_ job: InstallJob) throws(TackError) {
        guard !job.frozen else { throw TackError(.setUnrecorded(noun: noun, tool: tool)) }
    }

    /// Refuses a resolution that did not select the package the tool is (a misspelt name
    /// resolves to nothing of it, or to something else). `output`: what the resolver said.
    func requireSelected(_ selected: Bool, package: String, platform: Platform? = nil, output: String? = nil) throws(TackError) {
        guard !selected else { return }
        throw TackError("resolving \(tool)\(platform.map { " for \($0)" } ?? "") did not select \(package) itself — is `\(package)` the package's name?"
            + (output.map { "\n" + $0 } ?? ""))
    }

    /// Refuses an install that gave nothing to run. `package`: the package as its kind says it
    /// (`the gem rake 13.0`), `programs`: what it would have been (`executables`).
    static func requireSomething(_ found: [String], package: String, programs: String) throws(TackError) {
        guard found.isEmpty else { return }
        throw TackError("\(package) has no \(programs), so there is nothing to run — is it a library rather than a tool?")
    }

    /// The lock fields of the set's record, with the platform selection when the lock has one.
    static func lockFields(_ record: [String: LockValue], selection: PlatformSelection) -> [String: LockValue] {
        guard selection.isRecorded else { return record }
        return record.merging([PlatformSelection.field: selection.lockValue]) { $1 }
    }
}
