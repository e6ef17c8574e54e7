import TackCore

/// A copy of everything a lock needs, in use: being made (`tack mirror`: what backends fetch
/// is kept in it) or installed from (`tack install --from`: it answers every fetch, and
/// nothing else does). Backends are made with one in `BackendEffects`.
public enum CarriedCopy: Sendable {
    case making(CopyWriter)
    case from(CopyReader)

    public var writer: CopyWriter? { if case .making(let w) = self { return w } else { return nil } }
    public var reader: CopyReader? { if case .from(let r) = self { return r } else { return nil } }
}
