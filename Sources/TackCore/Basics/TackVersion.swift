public enum TackVersion {
    /// tack's own version, printed by `tack --version`.
    public static let current = "0.1.0"
}
