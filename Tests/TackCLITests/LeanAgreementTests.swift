import Backends
import Foundation
import Testing
import TackCore
import TackFront
import TackLean

/// The lean hot path (the `tack` executable) must agree with TackCore on everything it re-implements.
@Suite(.ownThreads) struct LeanAgreementTests {
    @Test func constantsAgree() {
        #expect(LeanSnapshot.formatVersion.description == Snapshot.formatVersion)
        #expect(Launcher.emptyDigest.description == ShellHook.emptyDigest)
    }

    @Test func environmentKeyAgrees() {
        let lean = LeanContext.environmentKey().map { String(decoding: $0, as: UTF8.self) }
        #expect(lean == Snapshot.environmentKey(ProcessInfo.processInfo.environment))
    }

    @Test func sha256AgreesWithLibcrypto() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 1000, 4097] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(SHA256Digest.hex(bytes) == Hashing.sha256(bytes), "length \(length)")
        }
    }

    /// FIPS 180's examples, so a wrong binding of libcrypto (the wrong algorithm, a digest cut
    /// short) cannot pass for a hash.
    @Test func libcryptoDigestsMatchThePublishedExamples() {
        let abc = Array("abc".utf8)
        #expect(Hashing.hex(Digest.hash(.sha1, abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Hashing.hex(Digest.hash(.sha256, abc)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hashing.hex(Digest.hash(.sha384, abc)) == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(Hashing.hex(Digest.hash(.sha512, abc)) == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        let pieces = Digest(.sha256)
        pieces.update(Array("a".utf8))
        pieces.update(Array("bc".utf8))
        #expect(Hashing.hex(pieces.finalize()) == Hashing.hex(Digest.hash(.sha256, abc)))
    }
}
