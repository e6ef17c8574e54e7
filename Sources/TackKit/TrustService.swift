import TackCore

/// `tack trust`: a project's manifests and the version files whose pins tack read, trusted
/// as they are now (or trust taken back). Trust lives in `$TACK_HOME`, never in the project.
public struct TrustService: Sendable {
    public let context: Context

    public init(_ context: Context) { self.context = context }

    /// What happened to one file.
    public enum Change: Sendable, Equatable {
        case trusted(String)
        case untrusted(String)
        case wasNotTrusted(String)
    }

    /// Trusts (or, with `untrust`, stops trusting) the files of the project at or above
    /// `directory` (relative to the working directory; nil: the working directory itself),
    /// each change said through `each` as it is made.
    public func trust(directory: String?, untrust: Bool, each: (Change) -> Void) throws(TackError) {
        var settings = context.settings
        if let directory {
            let abs = Paths.join(settings.cwd, directory)
            guard settings.fs.isDirectory(abs) else {
                throw TackError("\(Terminal.word(directory)) is not a directory — give a directory of the project (default: this one)")
            }
            settings.cwd = abs
        }
        let store = try settings.requireStore()
        let files = try Self.files(Resolver(settings).resolve(), settings: settings)
        let trust = TrustStore(store: store)
        for file in files {
            if untrust {
                each(try trust.untrust(file) ? .untrusted(file) : .wasNotTrusted(file))
            } else {
                let bytes: [UInt8]
                do { bytes = try settings.fs.read(file) } catch { throw TackError(error.description) }
                try trust.trust(file, hash: SHA256Digest.hex(bytes))
                each(.trusted(file))
            }
        }
    }

    /// The project root's manifests, and every version file there whose pins tack read (a
    /// `.tool-versions` with a `path:` pin puts that path on PATH once trusted), sorted.
    static func files(_ resolution: Resolution, settings: Settings) throws(TackError) -> [String] {
        guard let root = resolution.projectRoot else {
            throw TackError("no tack.yml above \(Paths.abbreviate(settings.cwd, home: settings.home)), so there is nothing to trust — run it in the project, or name the project's directory")
        }
        var files = resolution.manifests.map(\.path).filter { Paths.dirname($0) == root }
        for origin in resolution.pins.map(\.request.origin) + resolution.pins.compactMap({ $0.overridden?.origin }) {
            guard origin.kind != .environment, origin.kind != .commandLine, origin.kind != .globalManifest,
                  Paths.dirname(origin.file) == root, !files.contains(origin.file) else { continue }
            files.append(origin.file)
        }
        guard !files.isEmpty else {
            throw TackError("no tack.yml, tack.local.yml or version file in \(root), so there is nothing to trust — run it in the project, or name the project's directory")
        }
        return files.sorted()
    }
}
