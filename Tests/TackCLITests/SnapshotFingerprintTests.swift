import Foundation
import Testing
@testable import TackCore
@testable import TackLean

/// A snapshot keys small files by their content too: times that move over the same bytes (a
/// `touch`, a checkout, an editor's save with no change) keep it; any other change does not.
/// TackCore's reader and the lean one must agree on every case.
@Suite(.ownThreads) struct SnapshotFingerprintTests {
    /// Both readers' verdict on whether `key` still holds for `path`.
    func verdicts(_ key: String, _ path: String) -> (core: Bool, lean: Bool) {
        var keyBytes = Array(key.utf8) + [0]
        var pathBytes = Array(path.utf8) + [0]
        let lean = keyBytes.withUnsafeMutableBufferPointer { k in
            pathBytes.withUnsafeMutableBufferPointer { p in LeanSnapshot.probeHolds(key: k.baseAddress!, path: p.baseAddress!) }
        }
        return (Snapshot.probeHolds(key: key, path: path, fs: LocalFileSystem()), lean)
    }

    func key(_ path: String) throws -> String {
        let key = Snapshot.statKey(path, fs: LocalFileSystem())
        return try #require(Snapshot.fingerprintedKey(path, key: key, fs: LocalFileSystem()))
    }

    func setTimes(_ path: String, ahead seconds: Double) throws {
        let date = Date().addingTimeInterval(seconds)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    @Test func touchedWithTheSameBytesStillHolds() throws {
        let dir = try Sandbox()
        try dir.write("tack.yml", "tools:\n  jq: 1.7.1\n")
        let path = dir.root + "/tack.yml"
        let key = try key(path)
        #expect(key.contains("="), "a small file is recorded with its fingerprint: \(key)")
        #expect(verdicts(key, path) == (true, true))
        try setTimes(path, ahead: 5)
        #expect(Snapshot.statKey(path, fs: LocalFileSystem()) != key.split(separator: "=")[0].description, "the times moved")
        #expect(verdicts(key, path) == (true, true))
        // Rewritten by rename (a new inode), same bytes: an editor's save.
        try "tools:\n  jq: 1.7.1\n".write(toFile: path + ".new", atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: path + ".new", toPath: path)
        #expect(verdicts(key, path) == (true, true))
    }

    @Test func otherBytesOfTheSameSizeDoNotHold() throws {
        let dir = try Sandbox()
        try dir.write("tack.yml", "tools:\n  jq: 1.7.1\n")
        let path = dir.root + "/tack.yml"
        let key = try key(path)
        try dir.write("tack.yml", "tools:\n  jq: 1.6.0\n")
        #expect(verdicts(key, path) == (false, false))
        try dir.write("tack.yml", "tools:\n  jq: 1.7.1\n  # more\n")
        #expect(verdicts(key, path) == (false, false))
        try FileManager.default.removeItem(atPath: path)
        #expect(verdicts(key, path) == (false, false))
    }

    @Test func largeFilesAndDirectoriesAreKeyedByTheirTimesAlone() throws {
        let dir = try Sandbox()
        try dir.write("big", String(repeating: "x", count: Int(Snapshot.contentLimit) + 1))
        let big = dir.root + "/big"
        let bigKey = try key(big)
        #expect(!bigKey.contains("="))
        try setTimes(big, ahead: 5)
        #expect(verdicts(bigKey, big) == (false, false))
        try dir.mkdir("d")
        let d = dir.root + "/d"
        let dKey = try key(d)
        #expect(!dKey.contains("="))
        #expect(verdicts(dKey, d) == (true, true))
        try setTimes(d, ahead: 5)
        #expect(verdicts(dKey, d) == (false, false))
    }

    @Test func aDamagedFingerprintNeverHolds() throws {
        let dir = try Sandbox()
        try dir.write("tack.yml", "tools: {}\n")
        let path = dir.root + "/tack.yml"
        let stat = Snapshot.statKey(path, fs: LocalFileSystem())
        try setTimes(path, ahead: 5)
        for bad in [stat + "=", stat + "=zz", stat + "=" + String(repeating: "f", count: 17), stat + "=1"] {
            #expect(verdicts(bad, path) == (false, false), "\(bad)")
        }
    }

    @Test func theLimitsAgree() {
        #expect(Snapshot.contentLimit == LeanSnapshot.contentLimit)
        #expect(Snapshot.sizeLimit == LeanSnapshot.sizeLimit)
    }
}
