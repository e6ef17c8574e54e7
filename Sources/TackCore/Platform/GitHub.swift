/// Repositories on GitHub, as `github:` and Mintfile lines name them: `owner/repo`.
public enum GitHub {
    public static func isValidRepository(_ s: String) -> Bool {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return parts.allSatisfy { p in
            !p.isEmpty && p != "." && p != ".." && p.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
        }
    }

    /// The git URL of `owner/repo` on GitHub.
    public static func url(_ repository: String) -> String { "https://github.com/\(repository).git" }

    /// `owner/repo` of a release download on github.com (`https://github.com/owner/repo/releases/download/…`);
    /// nil for any other URL.
    public static func repository(ofDownload url: String) -> String? {
        guard url.lowercased().hasPrefix("https://github.com/") else { return nil }
        let parts = url.dropFirst("https://github.com/".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 4, parts[2] == "releases", parts[3] == "download" else { return nil }
        let repository = parts[0] + "/" + parts[1]
        return isValidRepository(String(repository)) ? String(repository) : nil
    }

    /// `owner/repo` of a git URL on GitHub (`https://github.com/owner/repo(.git)`); nil for
    /// any other.
    public static func repository(ofGitURL url: String) -> String? {
        guard url.lowercased().hasPrefix("https://github.com/") else { return nil }
        var rest = String(url.dropFirst("https://github.com/".count))
        if rest.hasSuffix("/") { rest.removeLast() }
        if rest.hasSuffix(".git") { rest.removeLast(4) }
        return isValidRepository(rest) ? rest : nil
    }

    /// The token for GitHub's rate limit (`GITHUB_TOKEN`, else `GH_TOKEN`), as an
    /// `Authorization` value, when `url` is GitHub's API or a github.com download over HTTPS
    /// (or under `TACK_GITHUB_API`, which stands in for the API in tests); nil anywhere else:
    /// the token never goes to another host, and a redirect elsewhere drops it.
    public static func authorization(for url: String, environment: [String: String]) -> String? {
        guard let token = [environment["GITHUB_TOKEN"], environment["GH_TOKEN"]].compactMap({ $0 }).first(where: { !$0.isEmpty }),
              !token.contains(where: { $0.isWhitespace || $0.isNewline }) else { return nil }
        if let api = environment["TACK_GITHUB_API"], !api.isEmpty, url.hasPrefix(api.hasSuffix("/") ? api : api + "/") {
            return "Bearer " + token
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("https://api.github.com/") || lower.hasPrefix("https://github.com/") else { return nil }
        return "Bearer " + token
    }

    /// What to say when GitHub refused for its rate limit (a 403 or 429 whose
    /// `X-RateLimit-Remaining` is 0), or nil when the answer was something else.
    public static func rateLimitProblem(status: Int, remaining: String?, withToken: Bool) -> String? {
        guard status == 403 || status == 429, remaining == "0" else { return nil }
        if withToken { return "GitHub's rate limit for this token is used up — wait for it to reset, or use another token in GITHUB_TOKEN" }
        return "GitHub's rate limit for requests without a token (60 an hour from this address) is used up — set GITHUB_TOKEN (or GH_TOKEN) to a GitHub token, which tack sends only to GitHub over HTTPS"
    }
}
