@testable import Backends
import BackendKinds
import Foundation
import TackCore
import Testing

/// What the pip and gem backends read from their tools' output and from tack.lock, in-process:
/// a lock is input from a cloned repository, so a value that is not a name, a version or a
/// digest never reaches pip's or gem's command line.
@Suite(.ownThreads) struct PipLockTests {
    static let sum = String(repeating: "a", count: 64)

    func distributions(_ entry: LockedTool) throws(TackError) -> [PipPin] {
        try PipLockRecord(entry.fields).distributions(of: "\(entry.name) \(entry.version)")
    }

    func entry(packages: [String: String], hashes: [String: String]) -> LockedTool {
        LockedTool(name: "black", version: Version("24.1.0")!, requested: "24.1.0", backend: "pip", source: "black",
                   fields: ["packages": .map(packages), "hashes": .map(hashes)])
    }

    @Test func aWellFormedEntryGivesEveryDistributionWithItsHashes() throws {
        let pinned = try distributions(entry(
            packages: ["black": "24.1.0", "click": "8.1.7"],
            hashes: ["black": "sha256:\(Self.sum)", "click": "sha256:\(Self.sum) sha256:\(String(repeating: "b", count: 64))"]))
        #expect(pinned.map(\.name) == ["black", "click"])
        #expect(pinned[1].hashes.count == 2)
        // What the lock records round-trips.
        #expect(PipLockRecord(pinned).fields == entry(packages: ["black": "24.1.0", "click": "8.1.7"],
                                                        hashes: ["black": "sha256:\(Self.sum)", "click": "sha256:\(Self.sum) sha256:\(String(repeating: "b", count: 64))"]).fields)
    }

    @Test(arguments: [
        ("black\n--index-url https://evil.example", "24.1.0", "is not a package name"),
        ("-r/etc/passwd", "24.1.0", "is not a package name"),
        ("black", "24.1.0 --pre", "is not a version"),
        ("black", "", "is not a version"),
    ])
    func aNameOrVersionThatIsNotOneInstallsNothing(_ name: String, _ version: String, _ said: String) {
        do {
            _ = try distributions(entry(packages: [name: version], hashes: [name: "sha256:\(Self.sum)"]))
            Issue.record("\(name.debugDescription) \(version.debugDescription) was accepted")
        } catch {
            #expect(error.message.contains(said) && error.message.contains("nothing was installed"), "\(error.message)")
        }
    }

    @Test func hashesMustBeSHA256AndMatchTheListedDistributions() {
        #expect(throws: TackError.self) { try distributions(entry(packages: ["black": "24.1.0"], hashes: ["black": "md5:0123"])) }
        #expect(throws: TackError.self) { try distributions(entry(packages: ["black": "24.1.0"], hashes: [:])) }
        #expect(throws: TackError.self) {
            try distributions(entry(packages: ["black": "24.1.0"], hashes: ["black": "sha256:\(Self.sum)", "evil": "sha256:\(Self.sum)"]))
        }
    }

    @Test func requirementsFilesAndFileNamesAreReadAsPipWritesThem() {
        let text = """
            # via black
            black[d]==24.1.0 \\
                --hash=sha256:\(Self.sum)
            Click==8.1.7 --hash=sha256:\(Self.sum)
            -e ./local
            """
        let pinned = PipPin.parseRequirements(text)
        #expect(pinned.map(\.name) == ["black", "click"])
        #expect(pinned.map(\.version) == ["24.1.0", "8.1.7"])
        #expect(pinned.allSatisfy { $0.hashes == [Self.sum] })
        #expect(PipName.normalize("Foo.Bar__baz") == "foo-bar-baz")
        #expect(PipName.distribution("black-24.1.0-py3-none-any.whl")! == ("black", "24.1.0"))
        #expect(PipName.distribution("zope.interface-6.1.tar.gz")! == ("zope-interface", "6.1"))
        #expect(PipName.distribution("README.md") == nil)
    }

    @Test func anIndexPageGivesItsFilesWithoutYankedOnes() {
        let html = """
            <a href="../../files/black-24.1.0-py3-none-any.whl#sha256=\(Self.sum)">black-24.1.0-py3-none-any.whl</a>
            <a data-yanked="" href="black-23.0.0.tar.gz">black-23.0.0.tar.gz</a>
            <A HREF='black%2B-1.0.zip'>x</A>
            """
        let files = PipIndexPage.files(html, base: "https://pypi.example/simple/black/")
        #expect(files.map(\.name) == ["black-24.1.0-py3-none-any.whl", "black-23.0.0.tar.gz", "black+-1.0.zip"])
        #expect(files[0].location == "https://pypi.example/files/black-24.1.0-py3-none-any.whl")
        #expect(files[0].declared == Self.sum)
        #expect(PipIndexPage.links(html) == ["black-24.1.0-py3-none-any.whl", "black+-1.0.zip"])
    }
}
