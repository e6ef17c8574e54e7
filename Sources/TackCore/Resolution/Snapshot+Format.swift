/// The snapshot's format: one record a line, fields separated by tabs (docs/formats.md), read
/// by both readers (this one and `LeanSnapshot`).
extension Snapshot {
    /// The snapshot's bytes, made field by field; nil when a value holds a tab, a newline or a
    /// NUL, which the format cannot store (such a directory just resolves every time).
    public func encode() -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(4096 + rows.count * 1024)
        var storable = true
        func put(_ field: String) {
            var field = field
            field.withUTF8 { bytes in
                if bytes.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0 }) { storable = false }
                out.append(contentsOf: bytes)
            }
        }
        func line(_ fields: String...) { lineOf(fields) }
        func lineOf(_ fields: [String]) {
            for (i, field) in fields.enumerated() {
                if i > 0 { out.append(0x09) }
                put(field)
            }
            out.append(0x0A)
        }
        line(Snapshot.formatVersion)
        line("cwd", cwd)
        line("env", environment)
        for p in probes { line("probe", p.key, p.path) }
        for a in absent { lineOf(["absent", a.key, a.directory] + a.names) }
        for r in rows {
            let o = r.origin
            line("row", r.tool, r.requested, r.version ?? "", r.backend, r.source, r.line.map { String($0) } ?? "",
                 r.installed ? "1" : "0", o.kind.rawValue, o.file, String(o.line), String(o.column), pathRoots[r.tool] ?? "",
                 r.installDirectory ?? "")
        }
        for d in run.binDirectories { line("bin", d) }
        for t in run.missing { line("missing", t) }
        for v in run.variables { line("setenv", v.name, v.value) }
        for u in run.untrusted { line("untrusted", u) }
        line("digest", run.digest)
        if upToDate { line("uptodate") }
        for a in answers {
            out.append(contentsOf: "answer\t".utf8)
            put(a.key)
            out.append(0x09)
            Snapshot.escape(a.output, into: &out)
            out.append(0x0A)
        }
        // The last line: a snapshot cut short (a crash before the file, never flushed, reached
        // the disk) has none, and is refused rather than answered from.
        line(Snapshot.endLine)
        return storable ? out : nil
    }

    /// Parsed byte by byte: this runs on every shim call, and splitting a String by
    /// Characters (grapheme clusters) costs more than the whole resolution it replaces.
    public static func decode(_ bytes: [UInt8]) -> Snapshot? {
        // No NUL is ever written (the lean reader's fields end at one): a file holding one is
        // not a snapshot.
        guard !bytes.contains(0) else { return nil }
        var s = Snapshot(cwd: "", environment: "", probes: [], rows: [], pathRoots: [:])
        var first = true
        var ended = false
        var start = 0
        func fields(_ line: ArraySlice<UInt8>) -> [String] {
            line.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        }
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let line = bytes[start..<end]
            start = end + 1
            if first {
                guard line.elementsEqual(formatVersion.utf8) else { return nil }
                first = false
                continue
            }
            // Nothing after the last line, and no empty line (neither is written; the lean reader
            // refuses both too).
            guard !ended, !line.isEmpty else { return nil }
            let f = fields(line)
            switch f[0] {
            case Snapshot.endLine where f.count == 1: ended = true
            case "cwd" where f.count == 2: s.cwd = f[1]
            case "env" where f.count == 2: s.environment = f[1]
            case "probe" where f.count == 3: s.probes.append((f[1], f[2]))
            case "absent" where f.count >= 4: s.absent.append((f[1], f[2], Array(f[3...])))
            case "row" where f.count == 14:
                guard let kind = Origin.Kind(rawValue: f[8]), let ol = Int(f[10]), let oc = Int(f[11]) else { return nil }
                s.rows.append(CurrentTool(tool: f[1], requested: f[2], version: f[3].isEmpty ? nil : f[3], backend: f[4], source: f[5],
                                          line: Int(f[6]), installed: f[7] == "1", origin: Origin(kind: kind, file: f[9], line: ol, column: oc),
                                          installDirectory: f[13].isEmpty ? nil : f[13]))
                if !f[12].isEmpty { s.pathRoots[f[1]] = f[12] }
            case "bin" where f.count == 2: s.run.binDirectories.append(f[1])
            case "missing" where f.count == 2: s.run.missing.append(f[1])
            case "setenv" where f.count == 3: s.run.variables.append(.init(name: f[1], value: f[2]))
            case "untrusted" where f.count == 2: s.run.untrusted.append(f[1])
            case "digest" where f.count == 2: continue
            case "uptodate" where f.count == 1: s.upToDate = true
            case "answer" where f.count == 3:
                guard let output = unescape(f[2]) else { return nil }
                s.answers.append((f[1], output))
            default: return nil
            }
        }
        return ended ? s : nil
    }

    /// The snapshot's last line; one without it was cut short.
    static let endLine = "end"

    /// Whether `bytes` end with the last line a whole snapshot has (a cheap check for readers
    /// that read only its first records).
    static func isWhole(_ bytes: [UInt8]) -> Bool {
        bytes.count > endLine.utf8.count + 1 && bytes.suffix(endLine.utf8.count + 2).elementsEqual([0x0A] + Array(endLine.utf8) + [0x0A])
    }

    /// `%`, tab, newline, carriage return and NUL as `%XX`, so any output fits in one field.
    static func escape(_ s: String) -> String {
        var out: [UInt8] = []
        escape(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func escape(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            // Runs that need no escape are copied whole (an answer is mostly such a run).
            var run = 0
            for (i, b) in bytes.enumerated() where b == UInt8(ascii: "%") || b == 0x09 || b == 0x0A || b == 0x0D || b == 0 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
                out.append(UInt8(ascii: "%"))
                out.append(hexDigit(b >> 4))
                out.append(hexDigit(b & 0xF))
                run = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
    }

    static func hexDigit(_ n: UInt8) -> UInt8 { n < 10 ? 0x30 + n : 0x41 + n - 10 }

    static func unescape(_ s: String) -> String? {
        var out: [UInt8] = []
        var bytes = s.utf8.makeIterator()
        func digit(_ c: UInt8?) -> UInt8? {
            switch c {
            case let c? where c >= 0x30 && c <= 0x39: return c - 0x30
            case let c? where c >= 0x41 && c <= 0x46: return c - 0x41 + 10
            default: return nil
            }
        }
        while let b = bytes.next() {
            if b == UInt8(ascii: "%") {
                guard let hi = digit(bytes.next()), let lo = digit(bytes.next()) else { return nil }
                out.append(hi << 4 | lo)
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
