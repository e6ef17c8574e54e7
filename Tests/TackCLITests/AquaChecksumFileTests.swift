@testable import Backends
import TackCore
import Testing
import YAML

/// Checksum files as aqua's registry describes them.
@Suite struct AquaChecksumFileTests {
    static let a = String(repeating: "a", count: 64), b = String(repeating: "b", count: 64)

    @Test func linesOfHashAndFile() throws {
        let file = try AquaChecksumFile("\(Self.a)  gh_2.62.0_linux_amd64.tar.gz\r\n\(Self.b) *dist/gh_2.62.0_macOS_arm64.zip\n", format: "")
        #expect(file.hash(for: "gh_2.62.0_linux_amd64.tar.gz", algorithm: "sha256") == Self.a)
        #expect(file.hash(for: "gh_2.62.0_macOS_arm64.zip", algorithm: "sha256") == Self.b)
        #expect(file.hash(for: "other", algorithm: "sha256") == nil)
        #expect(file.hash(for: "gh_2.62.0_linux_amd64.tar.gz", algorithm: "sha512") == nil, "a hash of another length is not this algorithm's")
    }

    @Test func oneHashRawAndPatterns() throws {
        #expect(try AquaChecksumFile("\(Self.a.uppercased())\n", format: "").hash(for: "x", algorithm: "sha256") == Self.a)
        #expect(try AquaChecksumFile("  \(Self.b)  \n", format: "raw").hash(for: "x", algorithm: "sha256") == Self.b)
        let listed = "tool-linux: sha256=\(Self.a)\ntool-darwin: sha256=\(Self.b)\n"
        let file = try AquaChecksumFile(listed, format: "regexp", checksumPattern: "sha256=([0-9a-f]{64})", filePattern: "^([^:]+):")
        #expect(file.hash(for: "tool-darwin", algorithm: "sha256") == Self.b)
        #expect(throws: TackError.self) { try AquaChecksumFile(listed, format: "regexp", checksumPattern: "(unclosed", filePattern: nil) }
    }
}
