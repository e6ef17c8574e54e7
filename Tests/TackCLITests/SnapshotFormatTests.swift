import Foundation
import Testing
@testable import TackCore
@testable import TackLean

/// The snapshot's format, specified once (docs/formats.md) and pinned by a golden file that
/// both readers read: TackCore's `Snapshot` (tack-front, tack-cli) and the Embedded `tack`'s
/// `LeanSnapshot`. The writer writes it back byte for byte, and both readers see the same bin
/// directories, env, untrusted files, missing tools, digest, up-to-date mark and answers. A
/// change to the format changes this file and the format line's number, in both readers.
@Suite struct SnapshotFormatTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/snapshots/project.snapshot").path

    /// The golden text with its digest line filled in (the digest of what it runs).
    func golden() throws -> (text: String, snapshot: Snapshot) {
        var text = try String(contentsOfFile: Self.golden, encoding: .utf8)
        let undigested = try #require(Snapshot.decode(Array(text.utf8)), "TackCore's reader refuses the golden file")
        text = text.replacingOccurrences(of: "digest\tDIGEST\n", with: "digest\t\(undigested.run.digest)\n")
        return (text, try #require(Snapshot.decode(Array(text.utf8))))
    }

    @Test func theWriterWritesTheGoldenFileBack() throws {
        let (text, snapshot) = try golden()
        let written = try #require(snapshot.encode())
        #expect(String(decoding: written, as: UTF8.self) == text)
        #expect(text.hasPrefix(Snapshot.formatVersion + "\n") && text.hasPrefix("\(LeanSnapshot.formatVersion)\n"))
    }

    @Test func bothReadersSeeTheSameThings() throws {
        let (text, core) = try golden()
        var bytes = Array(text.utf8) + [0]
        try bytes.withUnsafeMutableBufferPointer { buffer in
            let lean = try #require(LeanSnapshot.parse(base: buffer.baseAddress!, count: buffer.count - 1, context: nil), "the lean reader refuses the golden file")
            func all(_ tag: LeanSnapshot.Tag) -> [[String]] {
                var out: [[String]] = []
                lean.forEach(tag) { a, b in
                    out.append([String(cString: UnsafeRawPointer(a).assumingMemoryBound(to: CChar.self)),
                                String(cString: UnsafeRawPointer(b).assumingMemoryBound(to: CChar.self))])
                    return true
                }
                return out
            }
            #expect(all(.bin).map { $0[0] } == core.run.binDirectories)
            #expect(all(.setenv) == core.run.variables.map { [$0.name, $0.value] })
            #expect(all(.untrusted).map { $0[0] } == core.run.untrusted)
            #expect(all(.missing).map { $0[0] } == core.run.missing)
            #expect(lean.hasMissing && lean.isMissing("ruby") && !lean.isMissing("jq"))
            #expect(lean.digest.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } == core.run.digest)
            #expect(lean.isUpToDate == core.upToDate && core.upToDate)
            #expect(!lean.hasUntrusted == core.run.untrusted.isEmpty)
            for (key, output) in core.answers {
                #expect(lean.answer(Array(key.utf8)).map { String(decoding: $0, as: UTF8.self) } == output, "\(key)")
            }
            #expect(core.answers.map(\.output) == ["1.7.1\n", "{\"jq\": \"1.7.1\"}\t100%\r\n"])
            #expect(core.probes.map(\.path) == ["/work/app/tack.yml", "/work/app/tack.lock", "/work/app/a/b/.tool-versions"] && core.probes.map(\.key).last == "-")
            #expect(core.absent.map(\.directory) == ["/work/app/a"] && core.absent.map(\.names) == [[".nvmrc", ".tool-versions"]])
        }
        #expect(core.rows.map(\.tool) == ["jq", "mytool", "ruby"])
        #expect(core.rows[0].installDirectory == "/home/u/.local/share/tack/installs/jq/1.7.1" && core.rows[2].installed == false)
        #expect(core.pathRoots == ["mytool": "/work/tools/mytool"])
    }

    @Test func eitherReaderRefusesAnotherFormatLine() throws {
        let (text, _) = try golden()
        let other = text.replacingOccurrences(of: Snapshot.formatVersion, with: "tack-snapshot 999")
        #expect(Snapshot.decode(Array(other.utf8)) == nil)
        var bytes = Array(other.utf8) + [0]
        bytes.withUnsafeMutableBufferPointer { b in
            #expect(LeanSnapshot.parse(base: b.baseAddress!, count: b.count - 1, context: nil) == nil)
        }
    }

    /// A snapshot is never flushed to disk: after a crash its file may hold only a prefix of
    /// what was written (or nothing). Every prefix short of the last line is refused by both
    /// readers, and by the reader of a stale snapshot's absences, rather than answered from
    /// (before, a prefix cut after a line held, with fewer probes or none at all).
    @Test func eitherReaderRefusesASnapshotCutShort() throws {
        let (text, _) = try golden()
        let whole = Array(text.utf8)
        #expect(text.hasSuffix("\nend\n"))
        for count in 0...whole.count {
            let prefix = Array(whole.prefix(count))
            // The whole file, or all of it but the last newline, is whole.
            let isWhole = count >= whole.count - 1
            #expect((Snapshot.decode(prefix) != nil) == isWhole, "cut at \(count) of \(whole.count)")
            #expect((LeanSnapshot(made: prefix) != nil) == isWhole, "cut at \(count) of \(whole.count)")
            #expect(Snapshot.isWhole(prefix) == (count == whole.count), "cut at \(count) of \(whole.count)")
        }
        // Nothing after the last line, no empty line, no NUL anywhere (never written; the lean
        // reader's fields end at one), and no `end` with more on its line, in either reader.
        for other in [text + "bin\t/usr/bin\n", text + "end\n", text.replacingOccurrences(of: "\ndigest", with: "\n\ndigest"),
                      text.replacingOccurrences(of: "\nend\n", with: "\nend\u{0}junk\n"), text.replacingOccurrences(of: "\nend\n", with: "\nend\tx\n"),
                      text.replacingOccurrences(of: "\nend\n", with: "\nend\r\n"), text.replacingOccurrences(of: "tack-snapshot 7\n", with: "tack-snapshot 7\u{0}x\n")] {
            #expect(Snapshot.decode(Array(other.utf8)) == nil, "\(other.suffix(40).debugDescription)")
            #expect(LeanSnapshot(made: Array(other.utf8)) == nil, "\(other.suffix(40).debugDescription)")
        }
    }

    /// A value holding a line break cannot be stored, CRLF included (a Swift `Character`
    /// search for "\n" does not see the one inside "\r\n", and the line format would break).
    @Test func aValueWithALineBreakIsNotStored() throws {
        let (_, snapshot) = try golden()
        for value in ["/work/a\r\nb", "/work/a\nb", "/work/a\tb", "/work/a\u{0}b"] {
            var s = snapshot
            s.cwd = value
            #expect(s.encode() == nil, "\(value.debugDescription)")
        }
        #expect(snapshot.encode() != nil)
        // An answer may hold anything, a NUL too: escaped, and read back as it was by both.
        var withNUL = snapshot
        withNUL.answers.append(("current odd", "a\u{0}b%\t\n"))
        let bytes = try #require(withNUL.encode())
        #expect(!bytes.contains(0) && Snapshot.decode(bytes) == withNUL)
        #expect(LeanSnapshot(made: bytes)?.answer(Array("current odd".utf8)) == Array("a\u{0}b%\t\n".utf8))
    }
}
