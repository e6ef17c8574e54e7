import BackendKinds
import TackCore

extension CurrentProcess {
    /// The process's settings, with tack's own kinds of backend (`BackendCatalog.standard`):
    /// what the three binaries' commands start from.
    public static func settings(relevantOnly: Bool = false) -> Settings? {
        settings(relevantOnly: relevantOnly, backends: .standard)
    }
}
