import Foundation
import Testing
@testable import TackCore

/// Inputs the fuzzer (Fuzz/run) found, kept so they stay fixed.
@Suite struct FuzzRegressionTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A lock with a field key over 1024 characters was written with an implicit key, which
    /// YAML does not allow, so it did not read back. Field keys are now only those tack
    /// writes, so the fuzzer's lock is refused where the key is; long keys inside a field's
    /// map still round-trip (below).
    @Test func lockWithAVeryLongKeyIsRefusedWhereItIs() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("lock-long-key.crash"))
        do {
            _ = try Lockfile.parse(Array(data.dropFirst()), path: "/f/tack.lock", backends: .standard)
            Issue.record("the fuzzer's lock parsed")
        } catch {
            #expect(error.message.hasPrefix("/f/tack.lock:15:5: unknown key `363x-x86"), "\(error.message.prefix(80))")
        }
    }

    /// `path:` followed by a combining mark: the mark joined the colon into one Character, so
    /// the printed requirement did not parse back as a path.
    @Test func pathStartingWithACombiningMarkRoundTrips() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("requirement-combining-mark.crash"))
        let text = String(decoding: data.dropFirst(), as: UTF8.self)
        let r = try Requirement.parse(text)
        #expect(try Requirement.parse(r.description) == r)
        #expect(try Requirement.parse("path:\u{345}x") == .path("\u{345}x"))
        #expect(try Requirement.parse("ref:\u{345}x") == .ref("\u{345}x"))
    }

    @Test func longKeysOfEveryKindRoundTrip() throws {
        let long = String(repeating: "k", count: 2000)
        let lock = Lockfile(tools: ["t": LockedTool(name: "t", version: Version("1")!, requested: "1", backend: "b", source: "s",
                                                    fields: ["commit": .string(long), "hashes": .map([long: "v"]), "binaries": .list([long])])])
        #expect(try Lockfile.parse(lock.serialized(), path: "/l", backends: .standard) == lock)
    }
}
