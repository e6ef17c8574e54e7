import Foundation
import Testing
@testable import TackCore

/// Inputs the fuzzer (Fuzz/run) found, kept so they stay fixed.
@Suite struct FuzzRegressionTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A lock with a field key over 1024 characters was written with an implicit key, which
    /// YAML does not allow, so it did not read back.
    @Test func lockWithAVeryLongKeyRoundTrips() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("lock-long-key.crash"))
        let lock = try Lockfile.parse(Array(data.dropFirst()), path: "/f/tack.lock")
        let again = try Lockfile.parse(lock.serialized(), path: "/f/tack.lock")
        #expect(again == lock)
        #expect(again.serialized() == lock.serialized())
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
                                                    fields: [long: .string("v"), "m": .map([long: "v"]), long + "x": .list([long])])])
        #expect(try Lockfile.parse(lock.serialized(), path: "/l") == lock)
    }
}
