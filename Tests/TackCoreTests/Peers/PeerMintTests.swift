import Testing
@testable import TackCore

/// Mint's own cases for packages and Mintfiles (Tests/MintTests/PackageTests.swift,
/// MintfileTests.swift and the Mintfiles in Tests/Fixtures), in tack's words. Mint's
/// `PackageReference(package:)` is a Mintfile line here; the test name is beside each case.
@Suite struct PeerMintTests {
    /// testPackageReferenceInfo and testPackageGitPaths: a line → (git URL, requirement, name).
    @Test(arguments: [
        ("yonaskolb/mint", "https://github.com/yonaskolb/mint.git", "latest", "mint"),
        ("yonaskolb/mint@0.0.1", "https://github.com/yonaskolb/mint.git", "0.0.1", "mint"),
        ("github.com/yonaskolb/mint", "https://github.com/yonaskolb/mint.git", "latest", "mint"),
        ("github.com/yonaskolb/mint@0.0.1", "https://github.com/yonaskolb/mint.git", "0.0.1", "mint"),
        ("https://github.com/yonaskolb/mint", "https://github.com/yonaskolb/mint", "latest", "mint"),
        ("https://github.com/yonaskolb/mint@0.0.1", "https://github.com/yonaskolb/mint", "0.0.1", "mint"),
        ("https://github.com/yonaskolb/mint.git", "https://github.com/yonaskolb/mint.git", "latest", "mint"),
        ("https://github.com/yonaskolb/mint.git@0.0.1", "https://github.com/yonaskolb/mint.git", "0.0.1", "mint"),
        ("mycustomdomain.com/package", "https://mycustomdomain.com/package", "latest", "package"),
        ("mycustomdomain.com/package@0.0.1", "https://mycustomdomain.com/package", "0.0.1", "package"),
        ("mycustomdomain.com/package.git", "https://mycustomdomain.com/package.git", "latest", "package"),
        ("mycustomdomain.com/package.git@0.0.1", "https://mycustomdomain.com/package.git", "0.0.1", "package"),
        ("https://mycustomdomain.com/package", "https://mycustomdomain.com/package", "latest", "package"),
        ("https://mycustomdomain.com/package@0.0.1", "https://mycustomdomain.com/package", "0.0.1", "package"),
        ("https://mycustomdomain.com/package.git", "https://mycustomdomain.com/package.git", "latest", "package"),
        ("https://mycustomdomain.com/package.git@0.0.1", "https://mycustomdomain.com/package.git", "0.0.1", "package"),
        ("git@github.com:yonaskolb/Mint.git", "git@github.com:yonaskolb/Mint.git", "latest", "mint"),
        ("git@github.com:yonaskolb/Mint.git@0.0.1", "git@github.com:yonaskolb/Mint.git", "0.0.1", "mint"),
        ("ssh://git@server.com/user/project.git", "ssh://git@server.com/user/project.git", "latest", "project"),
        ("ssh://git@server.com/user/project.git@0.1", "ssh://git@server.com/user/project.git", "0.1", "project"),
        // Fixtures/Mintfile: spaces around `@`.
        ("yonaskolb/mint @ 0.9.1", "https://github.com/yonaskolb/mint.git", "0.9.1", "mint"),
        // (issue) a branch or a commit after `@` is a ref.
        ("yonaskolb/XcodeGen@develop", "https://github.com/yonaskolb/XcodeGen.git", "ref:develop", "xcodegen"),
        ("yonaskolb/XcodeGen@fgvb45g", "https://github.com/yonaskolb/XcodeGen.git", "ref:fgvb45g", "xcodegen"),
        ("realm/SwiftLint@v0.54.0", "https://github.com/realm/SwiftLint.git", "0.54.0", "swiftlint"),
    ])
    func packageReference(_ line: String, _ url: String, _ requirement: String, _ name: String) throws {
        let pins = try CompatibleFile.mintfile.parse(Array(line.utf8), path: "/p/Mintfile", backends: .standard).pins
        #expect(pins.count == 1, "\(line)")
        #expect(pins.first?.source == .git(url), "\(line)")
        #expect(pins.first?.requirement.description == requirement, "\(line)")
        #expect(pins.first?.name == name, "\(line)")
    }

    /// MintfileTests.testMintfileFromString and Fixtures: comments, trailing comments, no
    /// version, CRLF.
    @Test(arguments: [
        ("testMintfileFromString", "# Swifttools\nyonaskolb/xcodegen@1.8.0\nrealm/SwiftLint@0.25.0 # Linting Tool\n", ["xcodegen 1.8.0", "swiftlint 0.25.0"]),
        ("Fixtures/Mintfile", "# This is a comment\n\nyonaskolb/simplepackage@4.0.0\nyonaskolb/mint @ 0.9.1\n", ["simplepackage 4.0.0", "mint 0.9.1"]),
        ("Fixtures/SimpleMintfile", "yonaskolb/SimplePackage@5.0.0\n", ["simplepackage 5.0.0"]),
        ("Fixtures/MintfileWithoutVersion", "yonaskolb/SimplePackage\n", ["simplepackage latest"]),
        ("(tack) CRLF lines", "yonaskolb/xcodegen@1.8.0\r\nrealm/SwiftLint@0.25.0\r\n", ["xcodegen 1.8.0", "swiftlint 0.25.0"]),
        ("(tack) comments only", "# nothing yet\n", []),
    ])
    func mintfile(_ peerTest: String, _ text: String, _ expected: [String]) throws {
        #expect(try read(.mintfile, text).get() == expected, "\(peerTest)")
    }

    /// Fixtures/ComplexMintfile: two packages named SimplePackage. Mint's `mint run
    /// SimplePackage` would pick one; tack names tools after repositories, so the file is
    /// refused with both lines named.
    @Test func sameNameTwice() {
        let text = "yonaskolb/SimplePackage@4.0.0\nacecilia/SimplePackage@6.0.0\nacecilia/SimplePackage@5.0.0\n"
        guard case .failure(let e) = read(.mintfile, text) else { Issue.record("read"); return }
        #expect(e.message == "/p/Mintfile:2:1: acecilia/SimplePackage and yonaskolb/SimplePackage (line 1) are both named `simplepackage`; tack names a Mintfile's tools after their repositories, so one of them must go")
    }

    @Test(arguments: [
        "SwiftLint@1.0\n",
        "realm/SwiftLint@../x\n",
        "realm/SwiftLint@1 extra\n",
        "-oProxyCommand=x/y@1.0\n",
        "https://example.com@1.0\n",
        "ftp://example.com/x.git@1.0\n",
    ])
    func refused(_ text: String) {
        #expect(isUnreadable(.mintfile, text), "\(text)")
    }
}
