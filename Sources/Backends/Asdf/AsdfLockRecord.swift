import TackCore

/// What tack.lock records of an asdf tool's version: the commit of the plugin whose scripts
/// install it (a release of the plugin; its default branch moves).
struct AsdfLockRecord: Equatable {
    var pluginCommit: String?

    init(pluginCommit: String?) { self.pluginCommit = pluginCommit }

    init(_ fields: [String: LockValue]) {
        if case .string(let c)? = fields["plugin-commit"] { pluginCommit = c }
    }

    var fields: [String: LockValue] { pluginCommit.map { ["plugin-commit": .string($0)] } ?? [:] }
}
