import Archive
import Backends
import TackCore

/// The team cache in force for a project, connected: TACK_CACHE, else the nearest manifest
/// that names one and is trusted (or the global manifest). A project's cache that is not
/// trusted is left unused, and said once.
public enum TeamCacheConnection {
    public static func selection(_ project: Workspace) throws(TackError) -> TeamCache.Selection {
        let policy = TrustPolicy(settings: project.settings)
        return try TeamCache.select(settings: project.settings, manifests: project.resolution.manifests, isTrusted: policy.isTrusted)
    }

    /// The cache to install through, or nil (none named, or unusable: said).
    public static func open(_ project: Workspace, quietAboutTrust: Bool = false) -> (any BuildCache)? {
        // Installing from a copy: its builds, and no registry.
        if let copy = project.context.copy?.reader {
            return CarriedBuildCache(copy: copy, platform: BuildPlatform.current(fs: project.settings.fs), limits: SafeExtractor.Limits.from(environment: project.settings.environment))
        }
        let selection: TeamCache.Selection
        do { selection = try self.selection(project) } catch {
            project.context.notify(.problem(TackError(error.message + "; building without the team cache")))
            return nil
        }
        if let untrusted = selection.untrusted, !quietAboutTrust {
            let home = project.home
            let file = untrusted.origin.file
            project.context.notify(.line("note: \(Paths.abbreviate(file, home: home)) names the team cache \(untrusted.reference), which is not used until you trust the file: read it, then run `tack trust \(Paths.abbreviate(Paths.dirname(file), home: home))`"))
        }
        guard let cache = selection.cache else { return nil }
        return connect(cache, project)
    }

    public static func connect(_ cache: TeamCache, _ project: Workspace) -> OCIBuildCache {
        let env = project.settings.environment
        let transport = CurlHTTPClient(limits: .from(environment: env, timeoutVariable: "TACK_CACHE_TIMEOUT"), environment: env, trace: project.settings.trace)
        let credentials = RegistryCredentials(environment: env)
        let registry = OCIRegistry(host: cache.reference.registry, scheme: cache.scheme, transport: transport,
                                   credentials: { await credentials.credential(for: cache.reference.registry) },
                                   chunkSize: Int(env["TACK_CACHE_CHUNK_SIZE"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 64 << 20)
        return OCIBuildCache(cache: cache, registry: registry, platform: BuildPlatform.current(fs: project.settings.fs),
                             staging: project.store.cache + "/oci", limits: SafeExtractor.Limits.from(environment: env))
    }

    /// Whether what is built for `request` may be pushed: its pin (or the pin an environment
    /// variable overrides) is the user's own or from a trusted file.
    public static func isShareable(_ request: ToolRequest, overridden: ToolRequest?, policy: TrustPolicy) -> Bool {
        let origin = overridden?.origin ?? request.origin
        switch origin.kind {
        case .globalManifest, .commandLine: return true
        case .environment: return false
        default: return policy.isTrusted(origin.file)
        }
    }
}
