import Backends
import TackCore

/// Where a copy of a lock is (`tack mirror DIR|oci://…`, `tack install --from DIR|oci://…`,
/// `TACK_MIRROR_FROM`): a directory, or an artifact on an OCI registry.
public enum CopyConnection {
    /// The copy at `place`, ready to install from: a directory as it is, a registry's
    /// artifact pulled into the download cache first.
    public static func open(_ place: String, settings: Settings) async throws(TackError) -> CopyReader {
        if place.hasPrefix("oci://") {
            let reference = try self.reference(place)
            let store = try settings.requireStore()
            let root = try await registry(reference, settings).pull(into: store.cache)
            return try CopyReader(root: root, label: reference.description, fs: settings.fs)
        }
        return try CopyReader(root: directory(place, settings), fs: settings.fs)
    }

    /// `place` as an absolute directory (relative to the working directory).
    public static func directory(_ place: String, _ settings: Settings) -> String {
        place.hasPrefix("/") ? Paths.normalize(place) : Paths.join(settings.cwd, place)
    }

    public static func reference(_ place: String) throws(TackError) -> CopyRegistry.Reference {
        guard let reference = CopyRegistry.Reference(place) else {
            throw TackError("\(quoted(place)) is not a copy's place; write a directory, or `oci://HOST/REPOSITORY[:TAG]`, for example `oci://registry.corp/tack/copy:2026-11`")
        }
        return reference
    }

    /// The registry client for a copy, with the process's proxy, certificates and credentials
    /// (`TACK_CACHE_USERNAME`/`TACK_CACHE_PASSWORD`, or Docker's config).
    public static func registry(_ reference: CopyRegistry.Reference, _ settings: Settings) -> CopyRegistry {
        let env = settings.environment
        let transport = CurlHTTPClient(limits: .from(environment: env, timeoutVariable: "TACK_CACHE_TIMEOUT"), environment: env, trace: settings.trace)
        let credentials = RegistryCredentials(environment: env)
        return CopyRegistry(reference, transport: transport, credentials: { await credentials.credential(for: reference.repository.registry) }, fs: settings.fs)
    }
}
