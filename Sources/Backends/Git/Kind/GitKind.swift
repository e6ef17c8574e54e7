#if !hasFeature(Embedded)
import TackCore
import YAML
#endif

/// Tools built from a git repository (`git: URL`, `github: owner/repo`), at a tag, a branch or
/// a commit, with `swift build` or the entry's own `build:` command.
public final class GitKind: BackendKind {
    public init() {}
    public var name: String { "git" }
    public var sourceKeys: [String] { ["git", "github"] }

    public func source(_ key: Scalar, _ value: Node, _ reader: ManifestDecoder) throws(TackError) -> String {
        guard key.value == "github" else { return try reader.url(value, "`git`") }
        let repo = try reader.string(value, "`github`")
        guard GitHub.isValidRepository(repo) else {
            throw reader.fail(value.mark, "expected `owner/repo` after `github:`, found \(quoted(repo))")
        }
        return GitHub.url(repo)
    }

    public let options = OptionSetReader(GitOptions.self)
    public var otherOwnKeys: [String] { ["ref"] }

    /// `artifactbundle:` beside `git:`/`github:`: the release's prebuilt bundle.
    public func companion(_ key: String, identity: String, into options: inout ToolOptions) -> Bool {
        guard key == "artifactbundle" else { return false }
        options.git.bundle = identity
        return true
    }

    public var registryMayName: Bool { true }
    public var installRound: Int { 1 }
    public var builds: Bool { true }
    /// Unless the entry gives its own `build:` command.
    public func buildsWithSwift(_ request: ToolRequest) -> Bool { request.options.git.build == nil }
    public var locksRefs: Bool { true }
    public var lockFields: [String] { ["tag", "commit", "ref", "prebuilt"] }

    public func lockedRef(_ entry: LockedTool) -> String? { GitLockRecord(entry.fields).ref }
    public func revision(_ entry: LockedTool) -> String? { GitLockRecord(entry.fields).commit }

    public func runsChosenCode(_ request: ToolRequest) -> String? {
        request.options.git.build.map { _ in "\(request.name) has a `build:` command, which would run on this machine" }
    }

    public func verification(_ entry: LockedTool, request: ToolRequest?) -> Verification {
        if GitLockRecord(entry.fields).prebuilt?["sha256"] != nil {
            return Verification(.trustOnFirstUse, "the SHA-256 of the release's bundle when first locked")
        }
        return Verification(.trustOnFirstUse, "the commit its tag named when first locked, built here")
    }

    public func describe(_ entry: LockedTool, in c: inout BillOfMaterials.Component) {
        let v = entry.version.text
        let record = GitLockRecord(entry.fields)
        let commit = record.commit
        if let repo = GitHub.repository(ofGitURL: entry.source) {
            c.purl = PackageURL.github(repo, record.tag ?? v)
        } else {
            c.purl = PackageURL.generic(entry.name, v, qualifiers: [("vcs_url", "git+" + URLRedaction.text(entry.source) + (commit.map { "@" + $0 } ?? ""))])
        }
        c.location = entry.source
        c.isRepository = true
        if let prebuilt = record.prebuilt, let sum = prebuilt["sha256"] {
            c.hashes = [BillOfMaterials.Hash(of: prebuilt["url"].map(Paths.basename) ?? "bundle", sha256: sum)]
            c.location = prebuilt["url"] ?? c.location
            c.isRepository = prebuilt["url"] == nil
        }
    }
}

extension ToolSource {
    /// A git repository's URL.
    public static func git(_ url: String) -> ToolSource { ToolSource(GitKind(), url) }
}
