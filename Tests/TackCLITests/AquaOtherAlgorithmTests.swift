@testable import Backends
import Foundation
import TackCore
import Testing

/// A publisher's hash of another algorithm than SHA-256 is checked against the download.
@Suite struct AquaOtherAlgorithmTests {
    @Test func aSHA512IsCheckedAgainstTheDownload() throws {
        let s = try Sandbox()
        try s.write("file", "the download\n")
        let sum = String(try runProgram("/usr/bin/env", ["sha512sum", s.root + "/file"]).prefix(128))
        let backend = AquaBackend(http: FakeHTTPClient([:]), fs: LocalFileSystem(), cache: s.root, environment: [:], retryDelays: [])
        try backend.check(s.root + "/file", against: (sum, "sha512"), tool: "t 1", url: "https://example.org/file")
        let wrong = String(sum.reversed())
        #expect(throws: TackError.self) { try backend.check(s.root + "/file", against: (wrong, "sha512"), tool: "t 1", url: "https://example.org/file") }
        #expect(throws: TackError.self) { try backend.check(s.root + "/missing", against: (sum, "sha512"), tool: "t 1", url: "https://example.org/file") }
    }
}
