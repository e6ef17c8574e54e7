import Foundation
import Synchronization

/// One command as the journal keeps it: its id, its stable type name, the version of its
/// stored form, its JSON, byte for byte as the command encoded it, and the command whose
/// handler sent it, if one did.
public struct JournalEntry: Sendable, Equatable, Codable {
    public var id: UUID
    public var type: String
    public var version: Int
    /// The command's JSON exactly as encoded: never re-read as numbers, so an Int64, a UInt64
    /// or a Decimal decodes on replay to what it was when sent.
    public var payload: Data
    /// The `seq` of the command whose handler sent this one (recovery uses it to tell a
    /// replayed handler's follow-ups from new ones).
    public var parent: UInt64?

    public init(id: UUID, type: String, version: Int = 1, payload: Data, parent: UInt64? = nil) {
        self.id = id
        self.type = type
        self.version = version
        self.payload = payload
        self.parent = parent
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

    // MARK: - In the journal: the payload embedded verbatim

    /// `{"id":…,"parent":…,"payload":PAYLOAD,"type":…,"version":…}`, the payload's bytes as
    /// they are, so the journal stays readable and exact.
    func journalBody() throws -> Data {
        var out = Data("{\"id\":".utf8)
        out.append(try JournalEntry.encoder.encode(id))
        if let parent { out.append(Data(",\"parent\":\(parent)".utf8)) }
        out.append(Data(",\"payload\":".utf8))
        out.append(payload)
        out.append(Data(",\"type\":".utf8))
        out.append(try JournalEntry.encoder.encode(type))
        out.append(Data(",\"version\":\(version)}".utf8))
        return out
    }

    /// The entry a journal body holds; nil if it is not one.
    init?(journalBody bytes: [UInt8]) {
        guard let members = JSONSpans.members(bytes), let payload = members["payload"], let idSpan = members["id"],
              let typeSpan = members["type"],
              let id = try? JournalEntry.decoder.decode(UUID.self, from: Data(bytes[idSpan])),
              let type = try? JournalEntry.decoder.decode(String.self, from: Data(bytes[typeSpan])) else { return nil }
        var version = 1
        if let span = members["version"] {
            guard let v = Int(String(decoding: bytes[span], as: UTF8.self)) else { return nil }
            version = v
        }
        var parent: UInt64?
        if let span = members["parent"] {
            guard let p = UInt64(String(decoding: bytes[span], as: UTF8.self)) else { return nil }
            parent = p
        }
        self.init(id: id, type: type, version: version, payload: Data(bytes[payload]), parent: parent)
    }

    // MARK: - In a snapshot (the undo history): the payload as a string of its exact JSON

    enum CodingKeys: String, CodingKey { case id, type, version, payload }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        type = try c.decode(String.self, forKey: .type)
        version = try c.decodeIfPresent(Int.self, forKey: .version) ?? 1
        if let text = try? c.decode(String.self, forKey: .payload) {
            payload = Data(text.utf8)
        } else {
            // Snapshots written before payloads were kept verbatim embedded them as JSON.
            payload = try c.decode(JSON.self, forKey: .payload).data()
        }
        parent = nil
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(type, forKey: .type)
        try c.encode(version, forKey: .version)
        try c.encode(String(decoding: payload, as: UTF8.self), forKey: .payload)
    }
}

/// One record of the journal. A command is recorded (`.command`) before its handler runs; what
/// happened is recorded after (`.applied` or `.failed`, with the command's `seq`). A command
/// with no outcome was interrupted: replay runs it. `.held` marks a command this build cannot
/// read (no handler, a newer version, a payload that does not decode): it is kept, with the
/// reason, for a build that can. `.seen` lists the ids of commands compaction dropped, so a
/// command that arrives again from elsewhere (`CommandBus.receive`) is still known to have run.
/// `.other` is a whole record of a kind this build does not know, kept as it is.
public struct JournalRecord: Sendable, Equatable {
    public enum Body: Sendable, Equatable {
        case command(JournalEntry)
        case applied
        case failed(String)
        case held(String)
        case seen([UUID])
        case other(kind: String, body: [UInt8])
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
    public enum Outcome: Sendable, Equatable { case applied, failed(String), unknown, held(String) }
    public var seq: UInt64
    public var entry: JournalEntry
    public var outcome: Outcome
}

/// Where the bus records commands before running them.
///
/// `write` queues records and returns at once; its `JournalWrite` says when they are durable.
/// Writes are made in the order queued. `compact(through:)` drops what a snapshot holds,
/// except commands held for a build that can read them; a store calls it on the state
/// directory's I/O queue, right after writing the snapshot.
public protocol Journal: Sendable {
    func write(_ records: [JournalRecord]) -> JournalWrite
    func records() throws -> [JournalRecord]
    func compact(through seq: UInt64) throws
}

extension Journal {
    /// Writes `record` and returns once it is durable.
    public func append(_ record: JournalRecord) async throws { try await write([record]).wait() }

    /// The commands after `seq`, in order, each with its outcome.
    public func commands(after seq: UInt64) throws -> [PendingCommand] {
        JournalRecords.commands(in: try records(), after: seq)
    }

    /// The highest command sequence number recorded (0 for none).
    public func lastSeq() throws -> UInt64 {
        try records().reduce(0) { last, r in if case .command = r.body { return max(last, r.seq) } else { return last } }
    }
}

/// What every journal does with its records, in one place.
enum JournalRecords {
    static func commands(in records: [JournalRecord], after seq: UInt64) -> [PendingCommand] {
        var commands: [PendingCommand] = []
        var index: [UInt64: Int] = [:]
        for record in records where record.seq > seq {
            switch record.body {
            case .command(let entry):
                index[record.seq] = commands.count
                commands.append(PendingCommand(seq: record.seq, entry: entry, outcome: .unknown))
            case .applied: if let i = index[record.seq] { commands[i].outcome = .applied }
            case .failed(let message): if let i = index[record.seq] { commands[i].outcome = .failed(message) }
            case .held(let why): if let i = index[record.seq], commands[i].outcome == .unknown { commands[i].outcome = .held(why) }
            case .seen, .other: break
            }
        }
        return commands
    }

    /// What compaction through `seq` keeps: the records after it; a command whatever its seq
    /// (with its records) whose outcome is not durable yet — interrupted, or its handler still
    /// running — or that is held for a build that can read it; and, first, one `.seen` record
    /// with the ids of every command it drops that did not fail (and those earlier `.seen`
    /// records listed), so a command received again is still known to have run.
    static func kept(_ records: [JournalRecord], through seq: UInt64) -> [JournalRecord] {
        let all = commands(in: records, after: 0)
        let unsettled = Set(all.compactMap { c -> UInt64? in
            switch c.outcome {
            case .held, .unknown: return c.seq
            case .applied, .failed: return nil
            }
        })
        let keeps: (JournalRecord) -> Bool = { r in
            if case .seen = r.body { return false }
            return r.seq > seq || unsettled.contains(r.seq)
        }
        var seen = seenIDs(records)
        for c in all where !unsettled.contains(c.seq) && c.seq <= seq {
            if case .failed = c.outcome { continue }
            seen.append(c.entry.id)
        }
        let rest = records.filter(keeps)
        guard !seen.isEmpty else { return rest }
        return [JournalRecord(seq: max(1, seq), .seen(seen))] + rest
    }

    /// The ids `.seen` records list, in order.
    static func seenIDs(_ records: [JournalRecord]) -> [UUID] {
        records.flatMap { r -> [UUID] in if case .seen(let ids) = r.body { return ids } else { return [] } }
    }

    /// Every command id this journal knows ran or is running: its commands that did not fail,
    /// and the ids compaction kept (`.seen`).
    static func knownIDs(_ records: [JournalRecord]) -> Set<UUID> {
        var ids = Set(seenIDs(records))
        for c in commands(in: records, after: 0) {
            if case .failed = c.outcome { continue }
            ids.insert(c.entry.id)
        }
        return ids
    }
}

/// A journal in memory (tests, previews).
public final class MemoryJournal: Journal {
    let stored: Mutex<[JournalRecord]>
    public init(_ records: [JournalRecord] = []) { stored = Mutex(records) }
    public func write(_ records: [JournalRecord]) -> JournalWrite {
        stored.withLock { $0.append(contentsOf: records) }
        return .done
    }
    public func records() -> [JournalRecord] { stored.withLock { $0 } }
    public func compact(through seq: UInt64) {
        stored.withLock { $0 = JournalRecords.kept($0, through: seq) }
    }
}
