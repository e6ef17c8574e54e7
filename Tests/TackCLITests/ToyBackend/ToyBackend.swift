import TackCore

/// The shop's releases: each a version and the text of the program it installs.
enum ToyShop {
    static let releases: [String: [String: String]] = [
        "blocks": ["1.0.0": "stacking blocks", "1.2.0": "stacking more blocks"],
        "kite": ["0.9.0": "flying a kite"],
    ]

    static func digest(_ text: String) -> String { SHA256Digest.hex(Array(text.utf8)) }
}

/// The toy backend: lists the shop's releases, locks each one's digest, and installs a
/// script that says what it is, after checking the digest the lock holds.
struct ToyBackend: Backend {
    let fs: any FileSystem
    var name: String { "toy" }

    func versions(of request: ToolRequest) async throws(TackError) -> [AvailableVersion] {
        guard let shop = request.source.identity, let releases = ToyShop.releases[shop] else {
            throw TackError("the toy shop has no \(request.source.identity ?? request.name)")
        }
        return releases.compactMap { v, text in
            Version(v).map { AvailableVersion(version: $0, fields: ["toy-digest": .string(ToyShop.digest(text))]) }
        }
    }

    func install(_ job: InstallJob) async throws(TackError) -> InstallOutcome {
        let shop = job.locked.source
        guard let text = ToyShop.releases[shop]?[job.locked.version.text] else { throw TackError("the toy shop has no \(shop) \(job.locked.version)") }
        guard let digest = ToyRecord(job.locked).digest, digest == ToyShop.digest(text) else {
            throw TackError("\(job.locked.name) \(job.locked.version): the toy shop's digest does not match tack.lock's")
        }
        let flavour = job.request.options[ToyOptions.self].flavour ?? "plain"
        do {
            try fs.createDirectory(job.directory + "/bin")
            try WrapperScript(comment: "toy", command: ["/bin/echo", "\(text), \(flavour)"]).write(to: job.directory + "/bin/" + job.locked.name, fs: fs)
        } catch { throw TackError("cannot write \(job.directory): \(error)") }
        return InstallOutcome(binaries: ["bin/" + job.locked.name])
    }
}
