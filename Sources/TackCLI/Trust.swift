import ArgumentParser
import Backends
import TackCore

struct Trust: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Allow a project's manifests to set env and run bootstrap commands.",
        discussion: """
            Trusts tack.yml and tack.local.yml of the project (the nearest above DIR), as they \
            are now: any change to a file needs trust again. Until then its tools still run, \
            but its `env` is not applied and its `bootstrap.run` commands do not run. Trust is \
            kept in $TACK_HOME, never in the project.

            Examples:
              tack trust                trust this project's manifests
              tack trust --untrust      take it back
            """
    )

    @Argument(help: "A directory in the project (default: the current one).")
    var dir: String?

    @Flag(help: "Take trust back.")
    var untrust = false

    func run() throws {
        var settings = try processSettings()
        if let dir {
            let abs = Paths.join(settings.cwd, dir)
            guard settings.fs.isDirectory(abs) else { throw fail(TackError("\(Terminal.word(dir)) is not a directory — give a directory of the project (default: this one)")) }
            settings.cwd = abs
        }
        let store: Store
        let resolution: Resolution
        do {
            store = try settings.requireStore()
            resolution = try Resolver(settings).resolve()
        } catch { throw fail(error) }
        guard let root = resolution.projectRoot else {
            throw fail(TackError("no tack.yml above \(Paths.abbreviate(settings.cwd, home: settings.home)), so there is nothing to trust — run it in the project, or name the project's directory"))
        }
        // The manifests there, and every version file there whose pins tack read (a
        // `.tool-versions` with a `path:` pin puts that path on PATH once trusted).
        var files = resolution.manifests.map(\.path).filter { Paths.dirname($0) == root }
        for origin in resolution.pins.map(\.request.origin) + resolution.pins.compactMap({ $0.overridden?.origin }) {
            guard origin.kind != .environment, origin.kind != .commandLine, origin.kind != .globalManifest,
                  Paths.dirname(origin.file) == root, !files.contains(origin.file) else { continue }
            files.append(origin.file)
        }
        files.sort()
        guard !files.isEmpty else { throw fail(TackError("no tack.yml, tack.local.yml or version file in \(root), so there is nothing to trust — run it in the project, or name the project's directory")) }
        let trust = TrustStore(store: store)
        for file in files {
            do throws(TackError) {
                if untrust {
                    let was = try trust.untrust(file)
                    Output.err((was ? "no longer trusted: " : "was not trusted: ") + Terminal.escapeControls(Paths.abbreviate(file, home: settings.home)) + "\n")
                } else {
                    let bytes: [UInt8]
                    do { bytes = try settings.fs.read(file) } catch { throw TackError(error.description) }
                    try trust.trust(file, hash: SHA256Digest.hex(bytes))
                    Output.err("trusted: \(Terminal.escapeControls(Paths.abbreviate(file, home: settings.home)))\n")
                }
            } catch { throw fail(error) }
        }
    }
}
