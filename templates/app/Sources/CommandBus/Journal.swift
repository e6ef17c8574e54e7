import Foundation

/// One journaled command: its id, its stable type name and its JSON.
public struct JournalEntry: Codable, Sendable, Equatable {
    public var id: UUID
    public var type: String
    public var payload: Data

    public init(id: UUID, type: String, payload: Data) {
        self.id = id
        self.type = type
        self.payload = payload
    }

    /// The command, decoded.
    public func decode<C: Command>(_ type: C.Type) throws -> C { try JSONDecoder().decode(C.self, from: payload) }
}

/// Where the bus records commands before running them.
public protocol Journal: Sendable {
    func append(_ entry: JournalEntry) async throws
    func entries() async throws -> [JournalEntry]
}

/// A journal in memory (tests, previews).
public actor MemoryJournal: Journal {
    var stored: [JournalEntry] = []
    public init(_ entries: [JournalEntry] = []) { stored = entries }
    public func append(_ entry: JournalEntry) { stored.append(entry) }
    public func entries() -> [JournalEntry] { stored }
}

/// A journal in a file: one JSON object per line, each line flushed to disk (fsync) before
/// `append` returns, so a command the bus accepted survives a crash. A torn last line (a
/// crash in the middle of a write) is ignored when reading.
public actor FileJournal: Journal {
    public let url: URL
    let handle: FileHandle

    public init(url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        }
        handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
    }

    public func append(_ entry: JournalEntry) throws {
        var line = try JSONEncoder().encode(entry)
        line.append(0x0A)
        try handle.write(contentsOf: line)
        try handle.synchronize()
    }

    public func entries() throws -> [JournalEntry] {
        let data = try Data(contentsOf: url)
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(JournalEntry.self, from: Data($0)) }
    }
}
