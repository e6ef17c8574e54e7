import Git
import TackCore

/// Remote repositories through libgit2, each call on a thread of its own (`OffPool`): a
/// fetch that waits on a slow server never holds a thread of the cooperative pool.
public struct LibGit2Remotes: GitRemotes {
    /// Where each call to a remote is said, for `-v`.
    let trace: Trace
    /// The proxy for each URL (and NO_PROXY), as the context's environment says.
    let network: NetworkSettings

    public init(trace: Trace = .off, network: NetworkSettings = NetworkSettings(environment: [:])) {
        self.trace = trace
        self.network = network
        // libgit2 keeps one set of certificate authorities for the process; a file that is
        // not there is said by the fetch that needs it (and by `tack doctor`).
        try? Git.trustCertificates(file: network.caFile, directory: network.caDirectory)
    }

    /// `body`, refused first when it would reach a plain-http repository through a proxy
    /// (libgit2 sends such a request to the repository's server instead of the proxy,
    /// libgit2#5650: it tunnels only https), and its certificate failure said as tack's HTTP
    /// client says one: the host, and what to set.
    func tls<T>(_ url: String, _ body: () async throws(GitError) -> T) async throws(GitError) -> T {
        let actual = Git.rewrite(url)
        let target = NetworkSettings.schemeAndHost(actual)
        if target?.scheme == "http", let proxy = network.proxy(for: actual) {
            throw GitError(message: "tack cannot reach the plain-http repository \(URLRedaction.text(url)) through the proxy \(URLRedaction.text(proxy)): libgit2 tunnels only https through a proxy — use the repository's https:// URL, or name its host in NO_PROXY")
        }
        do { return try await body() } catch where error.isTLS && Self.isUntrusted(error.message) {
            throw GitError(message: network.untrustedCertificate(host: target?.host ?? URLRedaction.text(url), detail: error.message), isTLS: true)
        }
    }

    /// Whether a TLS library's message is about the certificate's signer (not, say, its name).
    static func isUntrusted(_ message: String) -> Bool {
        let m = message.lowercased()
        return ["not correctly signed", "verify failed", "local issuer", "self signed", "self-signed", "not trusted", "unknown ca"].contains { m.contains($0) }
    }

    public func listTags(_ url: String) async throws(GitError) -> [RemoteTag] {
        trace("listing the tags of \(URLRedaction.text(url))")
        return try await tls(url) { () async throws(GitError) in try await OffPool.run { () throws(GitError) in try Git.listTags(url, proxy: network.proxy(for: Git.rewrite(url))) } }
    }

    public func listRefs(_ url: String) async throws(GitError) -> [RemoteTag] {
        trace("listing the branches and tags of \(URLRedaction.text(url))")
        return try await tls(url) { () async throws(GitError) in try await OffPool.run { () throws(GitError) in try Git.listRefs(url, proxy: network.proxy(for: Git.rewrite(url))) } }
    }

    public func checkout(_ url: String, ref: String, into directory: String) async throws(GitError) -> String {
        trace("fetching \(ref) of \(URLRedaction.text(url))")
        return try await tls(url) { () async throws(GitError) in
            try await OffPool.run { () throws(GitError) in try Git.checkout(url, ref: ref, into: directory, proxy: network.proxy(for: Git.rewrite(url))) }
        }
    }

    public func clone(_ url: String, into directory: String) async throws(GitError) {
        trace("cloning \(URLRedaction.text(url))")
        try await tls(url) { () async throws(GitError) in try await OffPool.run { () throws(GitError) in try Git.clone(url, into: directory, proxy: network.proxy(for: Git.rewrite(url))) } }
    }

    public func fetch(_ url: String, commit: String, reachableFrom origin: CommitOrigin, into directory: String, checkout: Bool) async throws(GitError) {
        trace("fetching commit \(commit) of \(URLRedaction.text(url))")
        try await tls(url) { () async throws(GitError) in
            try await OffPool.run { () throws(GitError) in
                try Git.fetch(url, commit: commit, reachableFrom: origin, into: directory, checkout: checkout, proxy: network.proxy(for: Git.rewrite(url)))
            }
        }
    }

    public func mirror(_ url: String, into directory: String) async throws(GitError) {
        trace("copying every branch and tag of \(URLRedaction.text(url))")
        try await tls(url) { () async throws(GitError) in try await OffPool.run { () throws(GitError) in try Git.mirror(url, into: directory, proxy: network.proxy(for: Git.rewrite(url))) } }
    }
}
