/// Why an install stopped on what it fetched: one case for each, with what it names, said in
/// one place (`message`), so every such error reads alike and tests match the case. `tool` is
/// what is installed, as said (`jq 1.7.1`).
public enum InstallFailure: Sendable, Equatable {
    /// `tool`'s download for `platform` hashes to `actual`, not the `expected` that `origin` gave.
    case checksumMismatch(tool: String, platform: String, expected: String, actual: String, origin: ChecksumOrigin)
    /// tack.lock's tag of a git tool points to another commit (`now`) than the one it locked.
    case tagMoved(tool: String, tag: String, repository: String, now: String, locked: String)
    /// tack.lock's tag of a git tool is gone from its repository.
    case tagGone(tool: String, tag: String, repository: String)
    /// The aqua registry read (`tag`, from `source`) hashes to `actual`, not the `locked` SHA-256
    /// tack.lock was made with.
    case registryChanged(tag: String, source: String, actual: String, locked: String)

    /// The failure in words, with what to do.
    public var message: String {
        switch self {
        case .checksumMismatch(let tool, let platform, let expected, let actual, let origin):
            let next: String
            switch origin {
            case .lock:
                next = "if the publisher replaced the file on purpose, check it, then run `tack update \(Self.name(tool))` to lock the new one"
            case .manifest: next = "fix the checksum in tack.yml if the publisher replaced the file on purpose"
            case .publisher: next = "the file served is not the one its publisher lists: it was damaged or replaced on the way; try again later, and tell the publisher if it persists"
            }
            return "checksum mismatch for \(tool) (\(platform)): \(origin.says) \(expected), download is \(actual) — nothing was installed; \(next)"
        case .tagMoved(let tool, let tag, let repository, let now, let locked):
            return "tag \(tag) of \(repository) now points to \(now), but tack.lock says \(locked) — nothing was installed; if the move is expected, run `tack update \(Self.name(tool))`"
        case .tagGone(let tool, let tag, let repository):
            return "\(repository) has no tag \(tag) any more (tack.lock's tag for \(tool)) — nothing was installed"
        case .registryChanged(let tag, let source, let actual, let locked):
            return "aqua's registry \(tag) (\(source)) is not the one tack.lock was made with (its SHA-256 is \(actual), the lock's \(locked)) — nothing was installed; run `tack update` to lock with this registry"
        }
    }

    /// The tool's name in its label: `jq` of `jq 1.7.1`.
    static func name(_ tool: String) -> String {
        tool.split(separator: " ").first.map(String.init) ?? tool
    }
}

extension TackError {
    /// An install failure, in its words (`InstallFailure.message`).
    public init(_ failure: InstallFailure) {
        self.init(failure.message)
        cause = .install(failure)
    }
}
