import Foundation
import Synchronization

/// One command as the journal keeps it: its id, its stable type name, the version of its
/// stored form, and its JSON.
public struct JournalEntry: Sendable, Equatable, Codable {
    public var id: UUID
    public var type: String
    public var version: Int
    public var payload: Data

    public init(id: UUID, type: String, version: Int = 1, payload: Data) {
        self.id = id
        self.type = type
        self.version = version
        self.payload = payload
    }

    /// The entry for `command`.
    public init<C: Command>(_ command: C) throws {
        self.init(id: command.id, type: C.typeName, version: C.version, payload: try JournalEntry.encoder.encode(command))
    }

    /// The command, decoded (and upgraded if it was journaled at an older version).
    public func decode<C: Command>(_ type: C.Type) throws -> C { try C.decode(self) }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()
    static let decoder = JSONDecoder()

    enum CodingKeys: String, CodingKey { case id, type, version, payload }

    // The payload is embedded as JSON (not base64), so the journal and snapshots stay readable.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        type = try c.decode(String.self, forKey: .type)
        version = try c.decodeIfPresent(Int.self, forKey: .version) ?? 1
        payload = try c.decode(JSON.self, forKey: .payload).data()
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(type, forKey: .type)
        try c.encode(version, forKey: .version)
        try c.encode(try JSON(data: payload), forKey: .payload)
    }
}

/// One record of the journal. A command is recorded (`.command`) before its handler runs; what
/// happened is recorded after (`.applied` or `.failed`, with the command's `seq`). A command
/// with no outcome was interrupted: replay runs it.
public struct JournalRecord: Sendable, Equatable {
    public enum Body: Sendable, Equatable {
        case command(JournalEntry)
        case applied
        case failed(String)
    }

    public var seq: UInt64
    public var body: Body

    public init(seq: UInt64, _ body: Body) {
        self.seq = seq
        self.body = body
    }
}

/// A journaled command and what the journal says happened to it.
public struct PendingCommand: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable { case applied, failed(String), unknown }
    public var seq: UInt64
    public var entry: JournalEntry
    public var outcome: Outcome
}

/// Where the bus records commands before running them. `append` returns once the record is
/// durable; `compact(through:)` drops what a snapshot already holds.
public protocol Journal: Sendable {
    func append(_ record: JournalRecord) throws
    func records() throws -> [JournalRecord]
    func compact(through seq: UInt64) throws
}

extension Journal {
    /// The commands after `seq`, in order, each with its outcome.
    public func commands(after seq: UInt64) throws -> [PendingCommand] {
        var commands: [PendingCommand] = []
        var index: [UInt64: Int] = [:]
        for record in try records() where record.seq > seq {
            switch record.body {
            case .command(let entry):
                index[record.seq] = commands.count
                commands.append(PendingCommand(seq: record.seq, entry: entry, outcome: .unknown))
            case .applied: if let i = index[record.seq] { commands[i].outcome = .applied }
            case .failed(let message): if let i = index[record.seq] { commands[i].outcome = .failed(message) }
            }
        }
        return commands
    }

    /// The highest command sequence number recorded (0 for none).
    public func lastSeq() throws -> UInt64 {
        try records().reduce(0) { last, r in if case .command = r.body { return max(last, r.seq) } else { return last } }
    }
}

/// A journal in memory (tests, previews).
public final class MemoryJournal: Journal {
    let stored: Mutex<[JournalRecord]>
    public init(_ records: [JournalRecord] = []) { stored = Mutex(records) }
    public func append(_ record: JournalRecord) { stored.withLock { $0.append(record) } }
    public func records() -> [JournalRecord] { stored.withLock { $0 } }
    public func compact(through seq: UInt64) { stored.withLock { $0.removeAll { $0.seq <= seq } } }
}
