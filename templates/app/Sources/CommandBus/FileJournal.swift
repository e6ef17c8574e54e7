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
/// KIND is `C` (a command; BODY is `{"id","payload","type"}` JSON), `A` (applied; no BODY) or
/// `F` (failed; BODY is the message). LENGTH is BODY's size in bytes and CRC32 (8 hex digits)
/// covers `SEQ KIND LENGTH ` and BODY, so a torn or damaged record is recognised, never
/// half-read. Each `append` is fsynced before it returns.
///
/// Opening the file checks every record. A bad record at the end is a write a crash cut short:
/// it is truncated away, so the next record starts on a clean line. A bad record followed by
/// good ones is damage, not a crash: opening fails (`JournalError.damaged`) and the file is
/// left as it is for a person to look at.
public final class FileJournal: Journal {
    public let url: URL
    struct State: ~Copyable {
        var fd: Int32
        var records: [JournalRecord]
    }
    let file: Mutex<State>

    public init(url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        DurableFile.removeTemporaries(of: url)
        let fd = open(url.path, O_RDWR | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { throw DurableFile.Failure(what: "open", path: url.path, code: errno) }
        do {
            let data = try Data(contentsOf: url)
            let parsed = try FileJournal.parse(data, path: url.path)
            if parsed.goodLength < data.count {
                guard ftruncate(fd, off_t(parsed.goodLength)) == 0, fsync(fd) == 0 else {
                    throw DurableFile.Failure(what: "truncate the torn end of", path: url.path, code: errno)
                }
            }
            file = Mutex(State(fd: fd, records: parsed.records))
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { file.withLock { _ = close($0.fd) } }

    public func append(_ record: JournalRecord) throws {
        let line = try FileJournal.encode(record)
        try file.withLock { state in
            try DurableFile.writeAll(state.fd, line, path: url.path)
            guard fsync(state.fd) == 0 else { throw DurableFile.Failure(what: "sync", path: url.path, code: errno) }
            state.records.append(record)
        }
    }

    public func records() -> [JournalRecord] { file.withLock { $0.records } }

    /// Rewrites the file without the records up to `seq` (a temporary file, fsynced, renamed).
    public func compact(through seq: UInt64) throws {
        try file.withLock { state in
            guard state.records.contains(where: { $0.seq <= seq }) else { return }
            let kept = state.records.filter { $0.seq > seq }
            var data = Data()
            for r in kept { data.append(try FileJournal.encode(r)) }
            try DurableFile.replace(url, with: data)
            let fd = open(url.path, O_RDWR | O_APPEND)
            guard fd >= 0 else { throw DurableFile.Failure(what: "open", path: url.path, code: errno) }
            close(state.fd)
            state.fd = fd
            state.records = kept
        }
    }

    // MARK: - The format

    static func encode(_ record: JournalRecord) throws -> Data {
        let kind: String, body: Data
        switch record.body {
        case .command(let entry): (kind, body) = ("C", try JournalEntry.encoder.encode(entry))
        case .applied: (kind, body) = ("A", Data())
        case .failed(let message): (kind, body) = ("F", Data(message.utf8))
        }
        let head = Data("\(record.seq) \(kind) \(body.count) ".utf8)
        let crc = CRC32.checksum(body, continuing: CRC32.checksum(head))
        var line = head
        line.append(contentsOf: Array(String(format: "%08x ", crc).utf8))
        line.append(body)
        line.append(0x0A)
        return line
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
        guard let seq = UInt64(fields[0]), seq > 0, let length = Int(fields[2]), length >= 0,
              fields[3].count == 8, let crc = UInt32(fields[3], radix: 16),
              i + length < bytes.count, bytes[i + length] == 0x0A else { return nil }
        let headEnd = start + fields[0].utf8.count + fields[1].utf8.count + fields[2].utf8.count + 3
        let body = bytes[i..<(i + length)]
        guard CRC32.checksum(body, continuing: CRC32.checksum(bytes[start..<headEnd])) == crc else { return nil }
        let parsed: JournalRecord.Body
        switch fields[1] {
        case "C":
            guard let entry = try? JournalEntry.decoder.decode(JournalEntry.self, from: Data(body)) else { return nil }
            parsed = .command(entry)
        case "A": parsed = .applied
        case "F": parsed = .failed(String(decoding: body, as: UTF8.self))
        default: return nil
        }
        return (JournalRecord(seq: seq, parsed), i + length + 1)
    }

    static func parse(_ data: Data, path: String) throws -> (records: [JournalRecord], goodLength: Int) {
        let bytes = [UInt8](data)
        var records: [JournalRecord] = []
        var offset = 0, lastCommand: UInt64 = 0
        while offset < bytes.count {
            if let found = readRecord(in: bytes, at: offset) {
                let (record, next) = found
                if case .command = record.body {
                    guard record.seq > lastCommand else {
                        throw JournalError.damaged(path: path, offset: offset, reason: "command \(record.seq) comes after command \(lastCommand)")
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
                    throw JournalError.damaged(path: path, offset: offset, reason: "a record that is not whole or fails its checksum, with records after it")
                }
            }
            return (records, offset)
        }
        return (records, bytes.count)
    }
}

public enum JournalError: Error, Equatable, CustomStringConvertible {
    case damaged(path: String, offset: Int, reason: String)

    public var description: String {
        switch self {
        case .damaged(let path, let offset, let reason): return "the journal \(path) is damaged at byte \(offset): \(reason); it is left as it is"
        }
    }
}
