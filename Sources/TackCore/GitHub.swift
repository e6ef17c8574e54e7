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
}
