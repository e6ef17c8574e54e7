#if !hasFeature(Embedded)
import TackCore
#endif

/// What tack.lock records of an asdf tool's version: the commit of the plugin whose scripts
/// install it (a release of the plugin; its default branch moves).
public struct AsdfLockRecord: Equatable {
    public var pluginCommit: String?

    public init(pluginCommit: String?) { self.pluginCommit = pluginCommit }

    public init(_ fields: [String: LockValue]) {
        if case .string(let c)? = fields["plugin-commit"] { pluginCommit = c }
    }

    public var fields: [String: LockValue] { pluginCommit.map { ["plugin-commit": .string($0)] } ?? [:] }
}
