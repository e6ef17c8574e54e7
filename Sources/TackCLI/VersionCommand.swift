import ArgumentParser
import TackCore

struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Print tack's version (as `tack --version`).")

    func run() throws {
        Output.out("tack \(TackVersion.current)\n")
    }
}
