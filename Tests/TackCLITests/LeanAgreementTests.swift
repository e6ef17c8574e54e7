import Backends
import Foundation
import Testing
import TackCore
import TackFront
import TackLean

/// The lean hot path (the `tack` executable) must agree with TackCore on everything it re-implements.
@Suite struct LeanAgreementTests {
    @Test func constantsAgree() {
        #expect(LeanSnapshot.formatVersion.description == Snapshot.formatVersion)
        #expect(Launcher.emptyDigest.description == ShellHook.emptyDigest)
    }

    @Test func environmentKeyAgrees() {
        let lean = String(decoding: LeanContext.environmentKey(), as: UTF8.self)
        #expect(lean == Snapshot.environmentKey(ProcessInfo.processInfo.environment))
    }

    @Test func sha256AgreesWithSwiftCrypto() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 1000, 4097] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(SHA256Digest.hex(bytes) == Hashing.sha256(bytes), "length \(length)")
        }
    }
}
