/// One kind's options inside `ToolOptions`, whose type only the box knows: what TackCore asks
/// of any set (its lock record, signing key, checksums, commands, how it overlays and compares),
/// and the set itself for its own backend (`options[GitOptions.self]`). A class, so a tool's
/// options hold sets of every kind without a protocol-typed value (which Embedded Swift, the
/// `tack` executable, cannot hold). Immutable.
class AnyOptionSetBox: @unchecked Sendable {
    fileprivate init() {}
    var lockRecord: [String: String] { [:] }
    var signingKey: SigningKey? { nil }
    func manifestChecksum(platform: String) -> String? { nil }
    var commands: [String] { [] }
    /// Whether `other` holds a set of the same kind.
    func isSameKind(as other: AnyOptionSetBox) -> Bool { false }
    /// This set with every option `other` (of the same kind) sets replacing ours.
    func overlaid(by other: AnyOptionSetBox) -> AnyOptionSetBox { self }
    func isEqual(to other: AnyOptionSetBox) -> Bool { false }
}

final class OptionSetBox<Set: BackendOptionSet>: AnyOptionSetBox, @unchecked Sendable {
    let value: Set

    init(_ value: Set) {
        self.value = value
        super.init()
    }

    override var lockRecord: [String: String] { value.lockRecord }
    override var signingKey: SigningKey? { value.signingKey }
    override func manifestChecksum(platform: String) -> String? { value.manifestChecksum(platform: platform) }
    override var commands: [String] { value.commands }
    override func isSameKind(as other: AnyOptionSetBox) -> Bool { other is OptionSetBox<Set> }

    override func overlaid(by other: AnyOptionSetBox) -> AnyOptionSetBox {
        guard let other = other as? OptionSetBox<Set> else { return self }
        return OptionSetBox(value.overlaid(by: other.value))
    }

    override func isEqual(to other: AnyOptionSetBox) -> Bool { (other as? OptionSetBox<Set>)?.value == value }
}
