import ArgumentParser
import Backends
import TackCore
import TackKit

struct Cache: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Share builds through the team cache (an OCI registry).",
        discussion: """
            The team cache is named by `cache: {url: oci://HOST/NAMESPACE, push: true}` in the \
            global manifest (or a trusted tack.yml), or by TACK_CACHE. `tack install` pulls a \
            build whose key matches and builds only when none does. See docs/cache.md.
            """,
        subcommands: [Push.self, Status.self]
    )

    /// A pinned tool's lock entry, with the pin it came from.
    struct Pinned {
        var request: ToolRequest
        var overridden: ToolRequest?
        var locked: LockedTool?
    }

    static func pinned(_ project: Workspace, only names: [String]) throws -> [Pinned] {
        var out: [Pinned] = []
        for (lockPath, requests) in project.groups {
            let lock: Lockfile
            do { lock = try lockPath.map(project.loadLock) ?? Lockfile() } catch { throw fail(error) }
            for request in requests where names.isEmpty || names.contains(request.name) {
                out.append(Pinned(request: request, overridden: project.resolution.pin(request.name)?.overridden, locked: lock.tools[request.name]))
            }
        }
        for name in names where !out.contains(where: { $0.request.name == name }) {
            throw fail(TackError("\(name) is not pinned here"))
        }
        return out.sorted { $0.request.name < $1.request.name }
    }

    static func connect(_ project: Workspace) throws -> OCIBuildCache {
        let selection: TeamCache.Selection
        do { selection = try TeamCacheConnection.selection(project) } catch { throw fail(error) }
        guard let cache = selection.cache else {
            if let untrusted = selection.untrusted {
                let file = Paths.abbreviate(untrusted.origin.file, home: project.home)
                throw fail(TackError("\(file) names the team cache \(untrusted.reference), but the file is not trusted — read it, then run `tack trust \(Paths.abbreviate(Paths.dirname(untrusted.origin.file), home: project.home))`"))
            }
            throw fail(TackError("no team cache is set — add `cache: {url: oci://HOST/NAMESPACE}` to \(project.settings.globalManifest.map { Paths.abbreviate($0, home: project.home) } ?? "the global manifest"), or set TACK_CACHE"))
        }
        return TeamCacheConnection.connect(cache, project)
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload builds installed here to the team cache.",
            discussion: """
                Pushes the installed build of every pinned tool built from source (git, asdf), or of \
                the tools named. Only builds from the user's own or trusted files are pushed, and \
                never one whose checkout changed while it was built.
                """)
        @Argument(help: "Pinned tools (default: every one built from source).", completion: ToolArgument.completion) var tools: [String] = []

        func validate() throws {
            for t in tools { try ToolArgument(argument: t).check(allowingRequirement: false) }
        }

        func run() async throws {
            let project = try Workspace.current()
            let cache = try Cache.connect(project)
            let policy = TrustPolicy(settings: project.settings)
            var failed = 0
            var pushed = 0
            var untrusted: Set<String> = []
            for pin in try Cache.pinned(project, only: tools) {
                let name = pin.request.name
                func skip(_ why: String) {
                    if tools.contains(name) { Output.error("\(name): \(why)"); failed += 1 } else { Output.verbose("\(name): \(why)") }
                }
                guard let locked = pin.locked else { skip("not locked — run `tack install`"); continue }
                let label = "\(name) \(locked.version)"
                guard let backend = try? project.registry.backend(for: pin.request) else { skip("no backend"); continue }
                guard let installed = project.store.installs(name, locked.version).first(where: { locked.isSameInstall(as: $0.record) }) else {
                    skip("\(label) is not installed as tack.lock says — run `tack install`"); continue
                }
                let record = installed.record, directory = installed.directory
                guard TeamCacheConnection.isShareable(pin.request, overridden: pin.overridden, policy: policy) else {
                    untrusted.insert((pin.overridden ?? pin.request).origin.file)
                    skip("\(label) is pinned by a file that is not trusted, so its build is not shared"); continue
                }
                var built: [String: String] = [:]
                if case .map(let m)? = record.fields["built"] { built = m }
                if let why = built[Installer.unshareableField] { skip("\(label) is not shared: \(why)"); continue }
                let inputs: [String: String]
                do {
                    guard let i = try await backend.buildInputs(pin.request, locked, destination: directory, built: built) else {
                        skip("\(label) comes from the \(backend.name) backend, which downloads rather than builds"); continue
                    }
                    inputs = i
                } catch { skip(error.message); continue }
                let key = CacheKey(tool: name, inputs: inputs, platform: cache.platform)
                do {
                    let digest = try await cache.push(key, directory: directory, record: record)
                    CacheDigests(store: project.store).remember(key.tag, digest)
                    Output.err("pushed \(label) to \(cache.label) (\(digest.prefix(19))…)\n")
                    pushed += 1
                } catch {
                    Output.error("cannot push \(label): \(error.message)")
                    failed += 1
                }
            }
            if pushed == 0 && failed == 0 {
                if let file = untrusted.sorted().first {
                    let home = project.home
                    throw fail(TackError("nothing was pushed: \(Paths.abbreviate(file, home: home)) pins the builds here and is not trusted, and tack shares only builds of trusted pins — read it, then run `tack trust \(Paths.abbreviate(Paths.dirname(file), home: home))`"))
                }
                Output.err("nothing to push: no pinned tool here is an installed build\n")
            }
            if failed > 0 { throw ExitCode(1) }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show, per pinned tool, whether the team cache has its build, and the key.")
        @Flag(help: "Print JSON: [{tool, version, status, tag, digest, key}].") var json = false

        func run() async throws {
            let project = try Workspace.current()
            let cache = try Cache.connect(project)
            var rows: [JSON] = []
            var lines: [String] = []
            for pin in try Cache.pinned(project, only: []) {
                let name = pin.request.name
                let version = pin.locked?.version.text
                var status = "", tag: String?, digest: String?, key: CacheKey?
                if let locked = pin.locked, let backend = try? project.registry.backend(for: pin.request) {
                    do {
                        if let inputs = try await backend.buildInputs(pin.request, locked, destination: project.store.installDirectory(for: locked) ?? project.store.installTarget(for: locked), built: nil) {
                            let k = CacheKey(tool: name, inputs: inputs, platform: cache.platform)
                            key = k
                            tag = k.tag
                            do {
                                digest = try await cache.lookup(k)
                                status = digest == nil ? "miss" : "hit"
                            } catch { status = "error: \(error.message)" }
                        } else {
                            status = "not a build"
                        }
                    } catch { status = "no key: \(error.message)" }
                } else {
                    status = "not locked"
                }
                rows.append(.object([
                    ("tool", .string(name)), ("version", version.map(JSON.string) ?? .null), ("status", .string(status)),
                    ("tag", tag.map(JSON.string) ?? .null), ("digest", digest.map(JSON.string) ?? .null),
                    ("key", key.map { k in .object(k.fields.keys.sorted().map { ($0, .string(k.fields[$0] ?? "")) }) } ?? .null),
                ]))
                var line = "\(name) \(version ?? "-")  \(status)"
                if let tag { line += "  \(tag.prefix(12))" }
                lines.append(line)
                if let key, Output.isVerbose {
                    for f in key.fields.keys.sorted() { lines.append("    \(f) = \(key.fields[f] ?? "")") }
                }
            }
            if json { Output.out(JSON.array(rows).serialized() + "\n") } else {
                Output.out("team cache: \(cache.label)\(cache.pushes ? " (push)" : "")\n" + lines.map { $0 + "\n" }.joined())
            }
        }
    }
}
