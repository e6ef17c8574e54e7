import ArgumentParser
import Backends
import TackCore
import TackKit

struct Mirror: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy everything tack.lock needs, for every platform it covers, for installs with no network.",
        discussion: """
            Into a directory (made, or added to) or an OCI registry (oci://HOST/REPO[:TAG], \
            tag `latest` by default): each tool's downloads, checksum files, signatures and \
            Sigstore bundles, the pinned aqua registry file, pip distributions and gems, Swift \
            toolchains and SDKs, git and asdf plugin repositories, prebuilt bundles, and the \
            team cache's builds for this machine. Each is checked against tack.lock as \
            `tack lock --verify` checks it. `tack install --from` installs from the copy with \
            no other network, verified against tack.lock as from the publishers.

            Examples:
              tack mirror /media/usb/tack-copy
              tack mirror oci://registry.corp/tack/copy:2026-11
              tack install --frozen --from /media/usb/tack-copy     on the machine with no network
            """
    )

    @Argument(help: ArgumentHelp("Where the copy goes: a directory, or oci://HOST/REPO[:TAG].", valueName: "copy"))
    var destination: String

    @Option(help: "How many downloads to make at once (default: TACK_JOBS, else the number of cores).")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if destination.isEmpty { throw ValidationError("name a directory or oci://HOST/REPO[:TAG] for the copy") }
    }

    func run() async throws {
        let settings = try processSettings()
        let reference: CopyRegistry.Reference?
        do { reference = destination.hasPrefix("oci://") ? try CopyConnection.reference(destination) : nil } catch { throw fail(error) }
        let root: String
        if reference != nil {
            let store: Store
            do { store = try settings.requireStore() } catch { throw fail(error) }
            root = Paths.join(store.cache, ".mirror-push-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))")
        } else {
            root = CopyConnection.directory(destination, settings)
        }
        defer { if reference != nil { try? settings.fs.remove(root) } }
        let writer: CopyWriter
        do { writer = try CopyWriter(root: root, fs: settings.fs) } catch { throw fail(error) }
        let project = try Workspace.current(copy: .making(writer))
        let report: MirrorService.Report
        do { report = try await MirrorService(project, copy: writer, jobs: jobs ?? project.context.defaultJobs).run() } catch { throw fail(error) }
        if report.problems > 0 {
            Output.err("the copy lacks what the problems above name\(reference == nil ? " (\(Paths.abbreviate(root, home: settings.home)) holds the rest)" : "; nothing was pushed") — fix them, then run `tack mirror` again\n")
            throw ExitCode(1)
        }
        var place = Paths.abbreviate(root, home: settings.home)
        if let reference {
            do { place = "\(reference) (\(try await CopyConnection.registry(reference, settings).push(root)))" } catch { throw fail(error) }
        }
        let platforms = writer.snapshot.platforms.joined(separator: ", ")
        let builds = report.builds == 0 ? "" : ", \(report.builds) build\(report.builds == 1 ? "" : "s")"
        Output.err("copied \(report.tools) tool\(report.tools == 1 ? "" : "s") (\(report.artifacts) artifact\(report.artifacts == 1 ? "" : "s")\(builds)) for \(platforms) to \(place)\n")
    }
}
