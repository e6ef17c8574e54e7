import ArgumentParser
import TackCore
import TackKit

struct Sbom: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sbom",
        abstract: "Write the bill of materials of the tools pinned here (CycloneDX 1.5 or SPDX 2.3 JSON).",
        discussion: """
            Every pinned tool with its version, source, package URL (pkg:github/…, pkg:pypi/…, \
            pkg:gem/…, pkg:generic/…), the SHA-256s tack.lock records for each platform, what \
            it was installed with (a pip tool's distributions, a gem's gems, a toolchain's \
            SDKs), and how each was verified: a publisher's signature, its checksum file, a \
            checksum in tack.yml, or trust on first use. Made from tack.lock alone, offline. \
            SOURCE_DATE_EPOCH fixes its timestamp.

            Examples:
              tack sbom > bom.cdx.json
              tack sbom --format spdx --output bom.spdx.json
            """
    )

    @Option(help: "cyclonedx (CycloneDX 1.5, the default) or spdx (SPDX 2.3).")
    var format: SBOMService.Format = .cyclonedx

    @Option(help: "Write it to this file instead of standard output.")
    var output: String?

    func validate() throws {
        if let output, output.isEmpty || output.contains(where: { $0.isNewline || $0 == "\0" }) { throw ValidationError("--output needs a file path") }
    }

    func run() async throws {
        let settings = try processSettings()
        let text: String
        do { text = try SBOMService(Context.cli(settings)).document(format) } catch { throw fail(error) }
        guard let output else { return Output.out(text) }
        let path = Paths.join(settings.cwd, output)
        do { try settings.fs.writeUserFile(path, Array(text.utf8)) } catch { throw fail(TackError.cannotWrite(path, error)) }
    }
}

extension SBOMService.Format: ExpressibleByArgument {}
