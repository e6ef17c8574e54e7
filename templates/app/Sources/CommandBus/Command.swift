import Foundation

/// Something the app asks to be done. Commands are values: they are written to the journal
/// before they run, so they must encode, and their `typeName` must never change once shipped
/// (it is how a journal or a snapshot written by an older build finds its handler).
public protocol Command: Codable, Sendable {
    static var typeName: String { get }
    var id: UUID { get }
    /// A short description for people (`history`); the type name unless a command says more.
    var summary: String { get }
    /// The version of this command's stored form. Bump it when a change to the command's fields
    /// would not decode from what older builds journaled, and say how in `upgrade`.
    static var version: Int { get }
    /// A payload journaled at `version` (older than `Self.version`) brought up to date.
    static func upgrade(_ payload: JSON, from version: Int) throws -> JSON
}

extension Command {
    public var summary: String { Self.typeName }
    public static var version: Int { 1 }
    public static func upgrade(_ payload: JSON, from version: Int) throws -> JSON { payload }

    /// The command a journal entry holds, upgraded from the version it was journaled at.
    public static func decode(_ entry: JournalEntry) throws -> Self {
        guard entry.type == typeName else { throw CommandBusError.wrongType(expected: typeName, found: entry.type) }
        if entry.version == version { return try JournalEntry.decoder.decode(Self.self, from: entry.payload) }
        guard entry.version < version else { throw CommandBusError.newerCommand(typeName, found: entry.version, known: version) }
        let upgraded = try upgrade(try JSON(data: entry.payload), from: entry.version)
        return try JournalEntry.decoder.decode(Self.self, from: try upgraded.data())
    }
}

/// Where a handler runs: the command's place in the journal, and whether it is being replayed
/// at launch (its first run was journaled before a crash, or before the last snapshot).
public struct CommandContext: Sendable, Equatable {
    public var seq: UInt64
    public var id: UUID
    public var replaying: Bool

    public init(seq: UInt64, id: UUID, replaying: Bool = false) {
        self.seq = seq
        self.id = id
        self.replaying = replaying
    }
}

/// Undoes the last undoable command (see `Store`'s handlers: the undo history lives with the
/// state it undoes). Journaled like any command, so an undo survives a crash too.
public struct Undo: Command {
    public static let typeName = "bus.undo"
    public var id = UUID.random()
    public init() {}
    public var summary: String { "undo" }
}

/// Applies again the last command undone.
public struct Redo: Command {
    public static let typeName = "bus.redo"
    public var id = UUID.random()
    public init() {}
    public var summary: String { "redo" }
}

/// What the bus reports about each command it ran, in the order it ran them.
public enum BusEvent: Sendable, Equatable {
    case applied(seq: UInt64, type: String)
    case failed(seq: UInt64, type: String, message: String)
}

public enum CommandBusError: Error, Equatable, CustomStringConvertible {
    case duplicateHandler(String)
    case noHandler(String)
    case wrongType(expected: String, found: String)
    case newerCommand(String, found: Int, known: Int)
    case recovering
    case closed

    public var description: String {
        switch self {
        case .wrongType(let expected, let found): return "a \(found) entry is not a \(expected)"
        case .newerCommand(let type, let found, let known):
            return "\(type) was journaled at version \(found), newer than this build's \(known): a newer version of the app wrote it"
        case .duplicateHandler(let t): return "a handler for \(t) is already registered"
        case .noHandler(let t): return "no handler is registered for \(t)"
        case .recovering: return "the bus is recovering the journal; send once recover has returned"
        case .closed: return "the bus is closed"
        }
    }
}

extension UUID {
    /// A random (version 4) UUID from the system's generator, as `UUID()` makes, without the
    /// file `UUID()` opens and closes for each one on Linux: every command makes one (and
    /// decoding one makes another before its own is read), so it is on every command's path.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var bytes = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40
            raw[8] = (raw[8] & 0x3F) | 0x80
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }
}
