import Testing
@testable import TackCore

@Suite struct SwiftToolchainNameTests {
    /// swiftenv's and swift.org's names read as swiftly's; swiftly's stay as they are.
    @Test(arguments: [
        ("6.0.3", "6.0.3"), ("swift-6.0.3-RELEASE", "6.0.3"), ("swift-6.0-RELEASE", "6.0"), ("5.10.1-RELEASE", "5.10.1"),
        ("swift-DEVELOPMENT-SNAPSHOT-2024-08-30-a", "main-snapshot-2024-08-30"), ("DEVELOPMENT-SNAPSHOT-2016-03-01-a", "main-snapshot-2016-03-01"),
        ("swift-6.0-DEVELOPMENT-SNAPSHOT-2024-08-30-a", "6.0-snapshot-2024-08-30"), ("swift-2.2-SNAPSHOT-2016-01-11-a", "2.2-snapshot-2016-01-11"),
        ("main-snapshot", "main-snapshot"), ("6.0-snapshot-2024-08-30", "6.0-snapshot-2024-08-30"), ("swift-nonsense", "swift-nonsense"),
    ])
    func normalize(_ pair: (String, String)) {
        #expect(SwiftToolchain.normalize(pair.0) == pair.1)
    }

    @Test func namesAndSeries() throws {
        func name(_ s: String) -> SwiftToolchain.Name? { Version(word: s).flatMap(SwiftToolchain.name) }
        #expect(name("6.0.3") == .release(Version("6.0.3")!))
        #expect(name("main-snapshot") == .snapshot(branch: "main", date: nil))
        #expect(name("6.0-snapshot-2024-08-30") == .snapshot(branch: "6.0", date: "2024-08-30"))
        #expect(name("main-snapshot-2024-13") == nil)
        #expect(name("6.0.3-beta") == nil)
        // A series is not an exact version; a dated snapshot is.
        #expect(try Requirement.parse("main-snapshot").exactVersion == nil)
        #expect(try Requirement.parse("6.0-snapshot").exactVersion == nil)
        #expect(try Requirement.parse("main-snapshot-2024-08-30").exactVersion?.text == "main-snapshot-2024-08-30")
        // A series matches its branch's snapshots only, newest last.
        let all = ["main-snapshot-2024-08-22", "main-snapshot-2024-08-30", "6.0-snapshot-2024-09-01", "6.0.3"].compactMap { Version(word: $0) }
        #expect(try Requirement.parse("main-snapshot").best(of: all)?.text == "main-snapshot-2024-08-30")
        #expect(try Requirement.parse("6.0-snapshot").best(of: all)?.text == "6.0-snapshot-2024-09-01")
        #expect(try Requirement.parse("6.0").best(of: all)?.text == "6.0.3")
    }

    @Test func platformsFromOSRelease() {
        #expect(SwiftPlatform.candidates(osRelease: "ID=ubuntu\nVERSION_ID=\"22.04\"\n") == ["ubuntu2204"])
        #expect(SwiftPlatform.candidates(osRelease: "ID=debian\nVERSION_ID=\"12\"\nVERSION_CODENAME=bookworm\n") == ["debian12"])
        #expect(SwiftPlatform.candidates(osRelease: "ID=linuxmint\nID_LIKE=\"ubuntu debian\"\nVERSION_ID=\"21.3\"\nUBUNTU_CODENAME=jammy\n") == ["ubuntu2204"])
        #expect(SwiftPlatform.candidates(osRelease: "ID=\"amzn\"\nVERSION_ID=\"2\"\n") == ["amazonlinux2"])
        #expect(SwiftPlatform.candidates(osRelease: "ID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\nVERSION_ID=\"9.3\"\n") == ["ubi9"])
        #expect(SwiftPlatform.candidates(osRelease: "ID=fedora\nVERSION_ID=39\n") == ["fedora39"])
        #expect(SwiftPlatform.candidates(osRelease: "ID=arch\n") == [])
        let p = SwiftPlatform(identifier: "ubuntu2204", arch: "aarch64")
        #expect(p.directory == "ubuntu2204-aarch64" && p.archiveSuffix == "ubuntu22.04-aarch64")
        #expect(SwiftPlatform(identifier: "macos", arch: "universal").archiveSuffix == "osx")
        #expect(SwiftPlatform.identifier(releaseName: "Red Hat Universal Base Image 9") == "ubi9")
        #expect(SwiftPlatform.identifier(releaseName: "Amazon Linux 2") == "amazonlinux2")
    }
}
