import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A journal in a file, one record per line:
///
///     SEQ KIND LENGTH CRC32 BODY\n
///
/// KIND is `C` (a command; BODY is `{"id","parent","payload","type","version"}` JSON, the
/// payload verbatim), `A` (applied; no BODY), `F` (failed; BODY is the message), `H` (held
/// for a build that can read it; BODY is why) or `I` (the ids of commands compaction dropped,
/// one per line; SEQ is where it compacted through). LENGTH is BODY's size in bytes and CRC32 (8 hex
/// digits) covers `SEQ KIND LENGTH ` and BODY, so a torn or damaged record is recognised, never
/// half-read. A whole record of another kind, with a good checksum, is kept as it is.
///
/// Writes run on the state directory's I/O queue. Whatever is queued when the queue gets to
/// it is written together and shares one fsync (group commit); if a write or the fsync fails,
/// the file is cut back to its length before them, each of their `JournalWrite`s fails, and
/// the next write starts on a clean line.
///
/// Opening the file reads it like SQLite reads its write-ahead log: the journal is the records
/// up to the first one that is not whole and intact. A crash's torn last record is cut away.
/// Anything after a bad record when whole records follow it (damage, not a crash) is first
/// copied aside to `journal.log.damaged-…` with a warning; the app opens either way.
public final class FileJournal: Journal {
    public let url: URL
    let directory: StateDirectory
    let io: FileIO
    let groupCommit: Bool

    struct Queued {
        var data: Data
        var records: [JournalRecord]
        var write: JournalWrite
    }
    struct State {
        var fd: Int32
        var records: [JournalRecord]
        /// The file's length after the last durable write.
        var length: Int
        var queued: [Queued] = []
        var scheduled = false
        /// A write of outcomes alone is put off a moment (`outcomeDelay`), to share the next
        /// command's fsync instead of costing one of its own.
        var outcomesScheduled = false
        /// Why the journal can no longer be written, once a failed write could not be undone.
        var broken: String?
        var closed = false
    }
    let state: Mutex<State>

    /// Opens (or makes) `name` in `directory`. `warn` hears about damage moved aside;
    /// `groupCommit: false` fsyncs each write on its own (for comparison); `io` is for tests.
    public init(in directory: StateDirectory, name: String = "journal.log", groupCommit: Bool = true, io: FileIO = .system,
                warn: @escaping @Sendable (String) -> Void = FileJournal.printWarning) throws {
        url = directory.file(name)
        self.directory = directory
        self.io = io
        self.groupCommit = groupCommit
        let path = url.path
        let existed = FileManager.default.fileExists(atPath: path)
        let fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DurableFile.Failure(what: "open", path: path, code: errno) }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            closeFile(fd)
            throw error
        }
        let parsed = FileJournal.parse(data)
        state = Mutex(State(fd: fd, records: parsed.records, length: parsed.goodLength))
        // What opening must make durable runs first on the I/O queue, not on the caller's
        // (cooperative) thread: every write queued after it waits for it.
        directory.io.async { [io] in
            do {
                // The new file's name is on disk only once its directory is synced.
                if !existed { try DurableFile.syncDirectory(directory.url, io: io) }
                guard parsed.goodLength < data.count else { return }
                if let damage = parsed.damage {
                    let aside = URL(fileURLWithPath: path + ".damaged-\(Int(Date().timeIntervalSince1970))-\(UUID().uuidString.prefix(8))")
                    try DurableFile.replace(aside, with: data.subdata(in: parsed.goodLength..<data.count))
                    warn("the journal \(path) is damaged at byte \(parsed.goodLength) (\(damage)); it opens with the \(parsed.records.count) records before that, and the \(data.count - parsed.goodLength) bytes from there on are kept in \(aside.path)")
                }
                guard ftruncate(fd, off_t(parsed.goodLength)) == 0, io.fsync(fd) == 0 else {
                    throw DurableFile.Failure(what: "truncate the torn end of", path: path, code: errno)
                }
            } catch {
                // Nothing is written after a tail that could not be set aside or cut away.
                self.state.withLock { $0.broken = "\(error)" }
                warn("the journal \(path) cannot be written: \(error)")
            }
        }
    }

    deinit {
        state.withLock { s in
            if !s.closed { closeFile(s.fd) }
        }
    }

    /// How long a write of outcomes alone waits for a command to share its fsync with.
    static let outcomeDelay: DispatchTimeInterval = .milliseconds(5)

    public static func printWarning(_ message: String) {
        FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
    }

    public func records() -> [JournalRecord] { state.withLock { $0.records } }

    public func write(_ records: [JournalRecord]) -> JournalWrite {
        let data: Data
        do { data = try records.reduce(into: Data()) { $0.append(try FileJournal.encode($1)) } } catch { return .failed(error) }
        let write = JournalWrite()
        let outcomesOnly = records.allSatisfy { r in
            switch r.body {
            case .applied, .failed: return true
            default: return false
            }
        }
        let refusal: JournalFailure? = state.withLock { s in
            if s.closed { return .closed(url.path) }
            if let why = s.broken { return .broken(url.path, why) }
            s.queued.append(Queued(data: data, records: records, write: write))
            guard !s.scheduled else { return nil }
            if outcomesOnly {
                // Nobody waits on an outcome: it rides with the next command's write, or goes
                // on its own a moment later.
                guard !s.outcomesScheduled else { return nil }
                s.outcomesScheduled = true
                directory.io.asyncAfter(deadline: .now() + FileJournal.outcomeDelay) {
                    self.state.withLock { $0.outcomesScheduled = false }
                    self.writeQueued()
                }
                return nil
            }
            s.scheduled = true
            directory.io.async { self.writeQueued() }
            return nil
        }
        if let refusal { write.finish(.failure(refusal)) }
        return write
    }

    /// On the I/O queue: writes what is queued, all of it under one fsync (or one fsync each
    /// without group commit).
    func writeQueued() {
        let (batch, fd, startLength) = state.withLock { s in
            let batch = s.queued
            s.queued = []
            s.scheduled = false
            return (batch, s.fd, s.length)
        }
        let groups = groupCommit ? [batch] : batch.map { [$0] }
        var length = startLength
        for group in groups where !group.isEmpty {
            let data = group.reduce(into: Data()) { $0.append($1.data) }
            let result: Result<Void, any Error>
            do {
                try DurableFile.writeAll(fd, data, path: url.path, io: io)
                guard io.datasync(fd) == 0 else { throw DurableFile.Failure(what: "sync", path: url.path, code: errno) }
                length += data.count
                let records = group.flatMap(\.records)
                state.withLock { s in
                    s.records.append(contentsOf: records)
                    s.length = length
                }
                result = .success(())
            } catch {
                // Undo the part that may have reached the file, so the next write starts clean
                // and no seq is ever read back from a failed write.
                if ftruncate(fd, off_t(length)) != 0 || fsync(fd) != 0 {
                    let why = "\(error), and cutting the file back to \(length) bytes failed: \(String(cString: strerror(errno)))"
                    state.withLock { $0.broken = why }
                }
                result = .failure(error)
            }
            if case .failure = result {
                // Outcomes (and holds) ride along with whatever is written next: losing one
                // would make recovery run its command again. Commands fail with the write.
                let broken = state.withLock { $0.broken != nil }
                let retried = broken ? [] : group.filter { q in !q.records.contains { if case .command = $0.body { return true } else { return false } } }
                if !retried.isEmpty { state.withLock { $0.queued.insert(contentsOf: retried, at: 0) } }
                for queued in group where !retried.contains(where: { $0.write === queued.write }) { queued.write.finish(result) }
            } else {
                for queued in group { queued.write.finish(result) }
            }
        }
    }

    /// Rewrites the file without the records up to `seq` (see `JournalRecords.kept`). Call it
    /// on the state directory's I/O queue (a store does, after each snapshot): it runs between
    /// writes, holding no lock while it writes and fsyncs, so a sender only queues behind it.
    public func compact(through seq: UInt64) throws {
        dispatchPrecondition(condition: .onQueue(directory.io))
        let (records, closed) = state.withLock { ($0.records, $0.closed) }
        guard !closed, records.contains(where: { $0.seq <= seq }) else { return }
        let kept = JournalRecords.kept(records, through: seq)
        guard kept != records else { return }
        var data = Data()
        for r in kept { data.append(try FileJournal.encode(r)) }
        try DurableFile.replace(url, with: data)
        let fd = open(url.path, O_RDWR | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { throw DurableFile.Failure(what: "open", path: url.path, code: errno) }
        state.withLock { s in
            closeFile(s.fd)
            s.fd = fd
            s.records = kept
            s.length = data.count
        }
    }

    /// Writes what is queued now (outcomes put off included) and returns once it is durable.
    public func sync() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            directory.io.async {
                self.writeQueued()
                done.resume()
            }
        }
    }

    /// Writes what is queued, then closes the file; later writes fail with `.closed`.
    public func close() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            directory.io.async {
                self.writeQueued()
                let left: [Queued] = self.state.withLock { s in
                    if !s.closed { closeFile(s.fd) }
                    s.closed = true
                    defer { s.queued = [] }
                    return s.queued
                }
                for queued in left { queued.write.finish(.failure(JournalFailure.closed(self.url.path))) }
                done.resume()
            }
        }
    }

    // MARK: - The format

    static func encode(_ record: JournalRecord) throws -> Data {
        let kind: String, body: Data
        switch record.body {
        case .command(let entry): (kind, body) = ("C", try entry.journalBody())
        case .applied: (kind, body) = ("A", Data())
        case .failed(let message): (kind, body) = ("F", Data(message.utf8))
        case .held(let why): (kind, body) = ("H", Data(why.utf8))
        case .seen(let ids): (kind, body) = ("I", Data(ids.map(\.uuidString).joined(separator: "\n").utf8))
        case .other(let k, let b): (kind, body) = (k, Data(b))
        }
        let head = Data("\(record.seq) \(kind) \(body.count) ".utf8)
        let crc = CRC32.checksum(body, continuing: CRC32.checksum(head))
        var line = head
        line.append(contentsOf: FileJournal.hex8(crc))
        line.append(0x20)
        line.append(body)
        line.append(0x0A)
        return line
    }

    /// `value` as eight lowercase hex digits.
    static func hex8(_ value: UInt32) -> [UInt8] {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(8)
        var shift: UInt32 = 28
        for _ in 0..<8 {
            let nibble: UInt32 = (value >> shift) & 0xF
            out.append(digits[Int(nibble)])
            shift &-= 4
        }
        return out
    }

    /// The record starting at `start`, and where the next one starts; nil if it is not whole
    /// and intact.
    static func readRecord(in bytes: [UInt8], at start: Int) -> (JournalRecord, Int)? {
        var fields: [String] = []
        var i = start, fieldStart = start
        while fields.count < 4 {
            guard i < bytes.count, i - start < 64 else { return nil }
            if bytes[i] == 0x20 {
                fields.append(String(decoding: bytes[fieldStart..<i], as: UTF8.self))
                fieldStart = i + 1
            }
            i += 1
        }
        guard let seq = UInt64(fields[0]), seq > 0, !fields[1].isEmpty, let length = Int(fields[2]), length >= 0,
              fields[3].count == 8, let crc = UInt32(fields[3], radix: 16),
              length < bytes.count - i, bytes[i + length] == 0x0A else { return nil }
        let headEnd = start + fields[0].utf8.count + fields[1].utf8.count + fields[2].utf8.count + 3
        let body = Array(bytes[i..<(i + length)])
        guard CRC32.checksum(body, continuing: CRC32.checksum(bytes[start..<headEnd])) == crc else { return nil }
        let parsed: JournalRecord.Body
        switch fields[1] {
        case "C":
            // A command this build cannot parse (a newer build's form) is kept as it is.
            if let entry = JournalEntry(journalBody: body) { parsed = .command(entry) } else { parsed = .other(kind: "C", body: body) }
        case "A": parsed = .applied
        case "F": parsed = .failed(String(decoding: body, as: UTF8.self))
        case "H": parsed = .held(String(decoding: body, as: UTF8.self))
        case "I":
            let ids = String(decoding: body, as: UTF8.self).split(separator: "\n").map { UUID(uuidString: String($0)) }
            parsed = ids.allSatisfy { $0 != nil } ? .seen(ids.compactMap { $0 }) : .other(kind: "I", body: body)
        default: parsed = .other(kind: fields[1], body: body)
        }
        return (JournalRecord(seq: seq, parsed), i + length + 1)
    }

    /// The records up to the first bad one, the length they take, and, when whole records
    /// follow the bad one, why it is damage rather than a torn end.
    static func parse(_ data: Data) -> (records: [JournalRecord], goodLength: Int, damage: String?) {
        let bytes = [UInt8](data)
        var records: [JournalRecord] = []
        var offset = 0, lastCommand: UInt64 = 0
        while offset < bytes.count {
            if let (record, next) = readRecord(in: bytes, at: offset) {
                if case .command = record.body {
                    guard record.seq > lastCommand else {
                        return (records, offset, "command \(record.seq) comes after command \(lastCommand)")
                    }
                    lastCommand = record.seq
                }
                records.append(record)
                offset = next
                continue
            }
            // A bad record: the torn end of the file, or damage if whole records follow it.
            var probe = offset
            while probe < bytes.count {
                guard let newline = bytes[probe...].firstIndex(of: 0x0A) else { break }
                probe = newline + 1
                if readRecord(in: bytes, at: probe) != nil {
                    return (records, offset, "a record that is not whole or fails its checksum, with records after it")
                }
            }
            return (records, offset, nil)
        }
        return (records, bytes.count, nil)
    }
}

public enum JournalFailure: Error, Equatable, CustomStringConvertible {
    case closed(String)
    case broken(String, String)

    public var description: String {
        switch self {
        case .closed(let path): return "the journal \(path) is closed"
        case .broken(let path, let why): return "the journal \(path) cannot be written since a write failed (\(why)); restart the app"
        }
    }
}
