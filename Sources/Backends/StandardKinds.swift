#if !hasFeature(Embedded)
import TackCore
#endif

extension BackendCatalog {
    /// tack's own kinds of backend: registering a backend is one line here (and its
    /// implementation's in `BackendFactory.standard`).
    public static let standard = BackendCatalog([GitKind(), URLKind(), PipKind(), GemKind(), AsdfKind(), SwiftKind(), ReleaseKind(), AquaKind()])
}
