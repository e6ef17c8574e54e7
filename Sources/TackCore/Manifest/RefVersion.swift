/// Versions for `ref:` pins, as Go does for commits: `0.0.0-ref.<first 12 of the SHA>`. They
/// name the commit, sort below every release, and are valid store directory names.
public enum RefVersion {
    public static func version(commit: String) -> Version {
        Version("0.0.0-ref." + commit.prefix(12))!
    }
}
