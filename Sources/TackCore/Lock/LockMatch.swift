/// Whether a tack.lock entry still describes a pin: the one answer that planning (`tack lock`
/// keeps an entry that matches), `--frozen` (every disagreement, said), the up-to-date check,
/// the resolver (which version runs here), `exec --frozen` and `outdated` all take.
///
/// The pin is compared with the backend and source it resolves to. Where those are not known
/// without the backends — a tool named only by the registry, seen by the resolver — only the
/// requirement is compared (`source` nil); the full check runs wherever the backends are.
public struct LockMatch: Sendable {
    public var request: ToolRequest
    /// The backend the pin resolves to (`git`, `url`, …).
    public var backend: String
    /// The source the pin resolves to, as tack.lock records it; nil when not known here.
    public var source: String?

    public init(_ request: ToolRequest, backend: String, source: String?) {
        self.request = request
        self.backend = backend
        self.source = source
    }

    /// From the pin alone (no backends): its own source's identity, when it names one.
    public init(pinOnly request: ToolRequest) {
        self.init(request, backend: request.source.backend, source: request.source.identity)
    }

    /// Whether `entry` describes the pin.
    public func matches(_ entry: LockedTool, platform: Platform = .current) -> Bool {
        disagreements(entry, platform: platform).isEmpty
    }

    /// Whether `entry` describes the pin and holds all `--frozen` needs to install it on
    /// `platform` (a download's checksum), with the signer tack.yml's key names, where it names
    /// one: an install with nothing to do.
    public func isReadyToInstall(_ entry: LockedTool, platform: Platform = .current) -> Bool {
        matches(entry, platform: platform) && !Self.needsChecksum(entry, kind: request.source.kind, platform: platform)
            && request.options.signingKey.map { $0.contradicts(entry, platform: platform) == nil && entry.signers[platform.description] != nil } ?? true
    }

    /// Whether installing `entry` on `platform` needs a checksum the entry does not have: a
    /// download is installed under `--frozen` only when it can be verified.
    public static func needsChecksum(_ entry: LockedTool, kind: (any BackendKind)?, platform: Platform) -> Bool {
        kind?.checksumsPerPlatform == true && !entry.hasChecksum(for: platform)
    }

    /// Every way `entry` fails to describe the pin; empty when it does. A locked version that
    /// no longer satisfies the requirement, another backend, source or options, a ref the pin
    /// does not follow, or a checksum that contradicts the manifest's: each means the lock was
    /// written for another pin (or by hand).
    public func disagreements(_ entry: LockedTool, platform: Platform = .current) -> [LockDisagreement] {
        let requirement = request.requirement
        var out: [LockDisagreement] = []
        if entry.requested != requirement.description {
            out.append(.requirement(pinned: requirement.description, locked: entry.requested))
        }
        guard let source else { return out }
        if entry.backend != backend || entry.source != source {
            out.append(.source(pinned: "\(backend) \(source)", locked: "\(entry.backend) \(entry.source)"))
        }
        out += refDisagreements(entry)
        let wanted = request.options.lockRecord, locked = entry.options
        if locked != wanted {
            out.append(.options(Set(locked.keys).union(wanted.keys).filter { locked[$0] != wanted[$0] }.sorted()))
        }
        if request.source.kind?.checksumsPerPlatform == true {
            let sums = entry.checksums, key = platform.description
            let manifest = request.options.manifestChecksum(platform: key)
            if let manifest, let sum = sums[key], !Checksum.same(manifest, sum) {
                out.append(.checksum(platform: key, pinned: manifest.lowercased(), locked: sum.lowercased()))
            }
        }
        return out
    }

    /// The ref a `ref:` pin follows against the entry's, and a version pin's entry: no ref it
    /// did not ask for, and a version its requirement allows.
    func refDisagreements(_ entry: LockedTool) -> [LockDisagreement] {
        let requirement = request.requirement
        let lockedRef = request.source.kind?.lockedRef(entry)
        switch requirement {
        case .ref(let ref):
            if let lockedRef { return lockedRef == ref ? [] : [.ref(pinned: ref, locked: lockedRef)] }
            return request.source.kind?.locksRefs == true ? [.missingRef(ref)] : []
        case .system, .path, .lts:
            // (An LTS line is known only from the version index, not from the lock.)
            return []
        default:
            var out: [LockDisagreement] = []
            // A ref under a version pin would choose a commit no tag names.
            if let lockedRef { out.append(.unaskedRef(lockedRef, pinned: requirement.description)) }
            // (A changed requirement is said already; this is a lock edited to another version.)
            if entry.requested == requirement.description && !requirement.matches(entry.version) {
                out.append(.versionOutside(locked: entry.version.text, requirement: requirement.description))
            }
            return out
        }
    }
}

/// One way a lock entry fails to describe its pin.
public enum LockDisagreement: Sendable, Equatable {
    case requirement(pinned: String, locked: String)
    case source(pinned: String, locked: String)
    case ref(pinned: String, locked: String)
    case missingRef(String)
    case unaskedRef(String, pinned: String)
    case versionOutside(locked: String, requirement: String)
    /// The option keys whose values differ.
    case options([String])
    case checksum(platform: String, pinned: String, locked: String)

    /// What the manifest says, and what tack.lock says instead (nil when the phrase is one
    /// whole): `--frozen` puts where the pin was set between them.
    public var phrases: (manifest: String, lock: String?) {
        switch self {
        case .requirement(let pinned, let locked): return ("the requirement is \(pinned)", "tack.lock was resolved for \(locked)")
        case .source(let pinned, let locked): return ("the source is \(pinned)", "tack.lock has \(locked)")
        case .ref(let pinned, let locked): return ("the ref is \(pinned)", "tack.lock followed \(locked)")
        case .missingRef(let ref): return ("the pin follows ref \(ref)", "tack.lock records no ref")
        case .unaskedRef(let ref, let pinned): return ("tack.lock follows ref \(ref), which the pin (\(pinned)) does not ask for", nil)
        case .versionOutside(let locked, let requirement): return ("tack.lock has \(locked), which does not satisfy \(requirement)", nil)
        case .options(let keys): return ("the options differ from tack.lock's (\(keys.joined(separator: ", ")))", nil)
        case .checksum(let platform, let pinned, let locked):
            return ("the manifest's checksum for \(platform) is \(pinned)", "tack.lock has \(locked)")
        }
    }

    /// The disagreement in one phrase.
    public var message: String {
        let p = phrases
        return p.lock.map { "\(p.manifest), but \($0)" } ?? p.manifest
    }

    /// The phrase with where the pin was set (`(set by tack.yml:3)`) after what the manifest says.
    public func message(setBy: String) -> String {
        let p = phrases
        return p.lock.map { "\(p.manifest) \(setBy), but \($0)" } ?? "\(p.manifest) \(setBy)"
    }
}
