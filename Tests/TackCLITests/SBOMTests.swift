import Foundation
import Testing
import TackCore

/// `tack sbom` (issue 35, item 4) and doctor's list of tools resting on trust on first use
/// (item 5): a project whose tack.lock holds one tool of every kind, each verified its own way.
/// The bill of materials is made from the lock alone, so nothing is served or installed.
@Suite(.ownThreads) struct SBOMTests {
    static let minisignKey = "RWT+ocXWlNqWvrou0nldDB1llJd8bfHcY8r3dd66iHgj9X+mWtI1pUL4"
    static func sum(_ c: Character) -> String { String(repeating: c, count: 64) }

    static let manifest = """
        tools:
          jq: { url: "https://example.com/jq-{version}-{os}-{arch}", version: 1.7.1 }
          shellcheck: { url: "https://example.com/sc-{version}.tar.gz", version: 0.10.0, checksums: { url: "https://example.com/SHA256SUMS" } }
          minitool: { url: "https://example.com/mt-{version}.tar.gz", version: 2.0.0, minisign: "\(minisignKey)" }
          ink: { github: JohnSundell/Ink, version: 0.6.0 }
          black: { pip: black, version: 24.1.0 }
          rake: { gem: rake, version: 13.2.1 }
          swift: { version: 6.0.3, sdks: [static-linux] }

        """

    static let lock = """
        version: 1
        tools:
          black:
            version: "24.1.0"
            backend: "pip"
            source: "black"
            requested: "24.1.0"
            packages: { black: "24.1.0", click: "8.1.7" }
            hashes: { black: "sha256:\(sum("1"))", click: "sha256:\(sum("2")) sha256:\(sum("3"))" }
          ink:
            version: "0.6.0"
            backend: "git"
            source: "https://github.com/JohnSundell/Ink.git"
            requested: "0.6.0"
            tag: "0.6.0"
            commit: "\(String(repeating: "c", count: 40))"
          jq:
            version: "1.7.1"
            backend: "url"
            source: "https://example.com/jq-{version}-{os}-{arch}"
            requested: "1.7.1"
            sha256: { darwin-arm64: "\(sum("4"))", linux-x86_64: "\(sum("5"))" }
          minitool:
            version: "2.0.0"
            backend: "url"
            source: "https://example.com/mt-{version}.tar.gz"
            requested: "2.0.0"
            sha256: { linux-x86_64: "\(sum("6"))" }
            signed-by: { linux-x86_64: "minisign:BE96DA94D6C5A1FE" }
          rake:
            version: "13.2.1"
            backend: "gem"
            source: "rake"
            requested: "13.2.1"
            gems: { rake: "13.2.1" }
            sha256: { rake-13.2.1.gem: "\(sum("7"))" }
          shellcheck:
            version: "0.10.0"
            backend: "url"
            source: "https://example.com/sc-{version}.tar.gz"
            requested: "0.10.0"
            options: { checksums: "https://example.com/SHA256SUMS" }
            sha256: { linux-x86_64: "\(sum("8"))" }
          swift:
            version: "6.0.3"
            backend: "swift"
            source: "swift.org"
            requested: "6.0.3"
            tag: "swift-6.0.3-RELEASE"
            options: { sdks: "static-linux" }
            sha256: { ubuntu24.04: "\(sum("9"))" }
            signed-by: { ubuntu24.04: "A3BAFD3556A59079C06894BD63BC1CFE91D306C6" }
            sdk-path: { static-linux: "swift-6.0.3-release/static-sdk/swift-6.0.3-RELEASE/swift-6.0.3-RELEASE_static-linux-0.0.1.artifactbundle.tar.gz" }
            sdk-sha256: { static-linux: "\(sum("a"))" }
            sdk-signed-by: { static-linux: "A3BAFD3556A59079C06894BD63BC1CFE91D306C6" }

        """

    func setUp() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("app/tack.yml", Self.manifest)
        try s.write("app/tack.lock", Self.lock)
        return s
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func properties(_ component: [String: Any]) -> [String: String] {
        var out: [String: String] = [:]
        for p in component["properties"] as? [[String: Any]] ?? [] { out[p["name"] as? String ?? ""] = p["value"] as? String }
        return out
    }

    /// A python3 that has jsonschema (`./bootstrap.sh --dev` installs Debian's).
    static var python: String? {
        for candidate in ["/usr/bin/python3", "python3"] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = [candidate, "-c", "import jsonschema"]
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { continue }
            p.waitUntilDone()
            if p.terminationStatus == 0 { return candidate }
        }
        return nil
    }

    @Test func theCycloneDXDocumentIsValidAndSaysWhatEachToolIsAndHowItWasVerified() throws {
        let s = try setUp()
        let r = try s.tack(["sbom"], in: "app", env: ["SOURCE_DATE_EPOCH": "0"])
        #expect(r.status == 0, "\(r.stderr)")
        try s.write("bom.json", r.stdout)
        let python = try #require(Self.python, "python3 with jsonschema is missing: ./bootstrap.sh --dev")
        let validate = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/cyclonedx/validate.py").path
        let valid = try s.run("/usr/bin/env", [python, validate, s.root + "/bom.json"])
        #expect(valid.status == 0, "\(valid.stdout)\(valid.stderr)")

        let bom = try json(r.stdout)
        #expect(bom["specVersion"] as? String == "1.5" && bom["bomFormat"] as? String == "CycloneDX")
        #expect((bom["metadata"] as? [String: Any])?["timestamp"] as? String == "1970-01-01T00:00:00Z")
        let components = bom["components"] as? [[String: Any]] ?? []
        #expect(components.compactMap { $0["name"] as? String } == ["black", "ink", "jq", "minitool", "rake", "shellcheck", "swift"])
        let byName = Dictionary(uniqueKeysWithValues: components.map { ($0["name"] as? String ?? "", $0) })
        #expect(byName["black"]?["purl"] as? String == "pkg:pypi/black@24.1.0")
        #expect(byName["ink"]?["purl"] as? String == "pkg:github/johnsundell/ink@0.6.0")
        #expect(byName["rake"]?["purl"] as? String == "pkg:gem/rake@13.2.1")
        // This machine's URL where the lock covers it, else the first platform's.
        let here = Platform.current.description
        let jqURL = "jq-1.7.1-" + (["darwin-arm64", "linux-x86_64"].contains(here) ? here : "darwin-arm64")
        #expect(byName["jq"]?["purl"] as? String == "pkg:generic/jq@1.7.1?download_url=https%3A%2F%2Fexample.com%2F\(jqURL)")
        let verification = byName.mapValues { properties($0)["tack:verification"] ?? "" }
        #expect(verification == ["black": "trust-on-first-use", "ink": "trust-on-first-use", "jq": "trust-on-first-use", "rake": "trust-on-first-use",
                                 "shellcheck": "checksum-file", "minitool": "signature", "swift": "signature"])
        // Each platform's hash, as tack.lock records it.
        let jq = properties(byName["jq"] ?? [:])
        #expect(jq["tack:sha256:linux-x86_64"] == Self.sum("5") && jq["tack:sha256:darwin-arm64"] == Self.sum("4"))
        #expect((byName["jq"]?["hashes"] as? [[String: Any]])?.count == 2)
        // What a tool was installed with, or beside: a pip tool's distributions, the toolchain's SDK.
        let black = (byName["black"]?["components"] as? [[String: Any]] ?? []).compactMap { $0["purl"] as? String }
        #expect(black == ["pkg:pypi/black@24.1.0", "pkg:pypi/click@8.1.7"])
        let sdk = (byName["swift"]?["components"] as? [[String: Any]])?.first
        #expect(sdk?["name"] as? String == "swift-sdk-static-linux" && properties(sdk ?? [:])["tack:sha256:static-linux"] == Self.sum("a"))

        // A SOURCE_DATE_EPOCH past year 9999 is no date: the document carries the time now.
        let far = try s.tack(["sbom"], in: "app", env: ["SOURCE_DATE_EPOCH": "67768036191676799"])
        #expect(far.status == 0 && !far.stdout.contains("\"timestamp\": \"1970") && far.stdout.contains("\"timestamp\": \"2"), "\(far.stderr)")

        // The same project and SOURCE_DATE_EPOCH give the same document.
        let again = try s.tack(["sbom"], in: "app", env: ["SOURCE_DATE_EPOCH": "0"])
        #expect(again.stdout == r.stdout)
    }

    @Test func spdxOutputToAFileAndAPinNotLockedIsAnError() throws {
        let s = try setUp()
        let r = try s.tack(["sbom", "--format", "spdx", "--output", "bom.spdx.json"], in: "app")
        #expect(r.status == 0 && r.stdout.isEmpty, "\(r.stderr)")
        let doc = try json(s.read("app/bom.spdx.json") ?? "")
        #expect(doc["spdxVersion"] as? String == "SPDX-2.3" && doc["dataLicense"] as? String == "CC0-1.0")
        let packages = doc["packages"] as? [[String: Any]] ?? []
        let purls = packages.flatMap { ($0["externalRefs"] as? [[String: Any]] ?? []).compactMap { $0["referenceLocator"] as? String } }
        #expect(purls.contains("pkg:gem/rake@13.2.1") && purls.contains("pkg:pypi/click@8.1.7"), "\(purls)")
        #expect(packages.allSatisfy { ($0["SPDXID"] as? String)?.hasPrefix("SPDXRef-") == true })
        let relationships = doc["relationships"] as? [[String: Any]] ?? []
        #expect(relationships.filter { $0["relationshipType"] as? String == "DESCRIBES" }.count == 7)

        let bad = try s.tack(["sbom", "--format", "xml"], in: "app")
        #expect(bad.status != 0)
        try s.write("app/tack.yml", Self.manifest + "  yq: { url: \"https://example.com/yq\", version: 4.0.0 }\n".replacingOccurrences(of: "\n\n", with: "\n"))
        let unlocked = try s.tack(["sbom"], in: "app")
        #expect(unlocked.status != 0)
        #expect(unlocked.stderr.contains("yq is pinned but not in tack.lock — run `tack lock` first"), "\(unlocked.stderr)")
    }

    @Test func doctorNamesTheToolsThatRestOnTrustOnFirstUse() throws {
        let s = try setUp()
        let r = try s.tack(["doctor"], in: "app")
        let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("note     ") }.map(String.init) ?? ""
        #expect(line.contains("black, ink, jq, rake rest on trust on first use"), "\(r.stdout)")
        #expect(!line.contains("minitool") && !line.contains("shellcheck") && !line.contains("swift"), "\(line)")
        // A checksum file says what the bytes are, not who published them: said apart.
        let checksumOnly = r.stdout.split(separator: "\n").first { $0.contains("verified by a checksum only") }.map(String.init) ?? ""
        #expect(checksumOnly.hasPrefix("note     shellcheck is verified by a checksum only"), "\(r.stdout)")
        let doctorJSON = try s.tack(["doctor", "--json"], in: "app")
        #expect(doctorJSON.stdout.contains("\"status\":\"note\""), "\(doctorJSON.stdout)")
    }
}
