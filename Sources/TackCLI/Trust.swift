import ArgumentParser
import TackCore
import TackKit

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
        let settings = try processSettings()
        let shown = { (file: String) in Terminal.escapeControls(Paths.abbreviate(file, home: settings.home)) }
        do {
            try TrustService(.cli(settings)).trust(directory: dir, untrust: untrust) { change in
                switch change {
                case .trusted(let file): Output.err("trusted: \(shown(file))\n")
                case .untrusted(let file): Output.err("no longer trusted: \(shown(file))\n")
                case .wasNotTrusted(let file): Output.err("was not trusted: \(shown(file))\n")
                }
            }
        } catch { throw fail(error) }
    }
}
