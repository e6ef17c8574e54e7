import Foundation
import TackCore
import Testing
/// aqua.yaml read as a version file: each standard-registry package a pin.
@Suite struct AquaYAMLTests {
    func read(_ text: String) throws(TackError) -> CompatibleFile.Reading {
        try CompatibleFile.aquaYAML.parse(Array(text.utf8), path: "/p/aqua.yaml", backends: .standard)
    }

    @Test func packagesArePinsOfTheStandardRegistry() throws {
        let r = try read("""
            registries:
              - type: standard
                ref: v4.99.1 # renovate: depName=aquaproj/aqua-registry
              - name: mine
                type: local
                path: registry.yaml
            packages:
              - name: cli/cli@v2.62.0
              - name: jqlang/jq
                version: jq-1.7.1
              - name: acme/tool@v1.0.0
                registry: mine
              - import: aqua/*.yaml
            """)
        #expect(r.pins.map(\.name) == ["cli", "jq", "tool"])
        #expect(r.pins.map(\.source.backend) == ["aqua", "aqua", "aqua"] && r.pins.map(\.source.identity) == ["cli/cli", "jqlang/jq", "acme/tool"])
        #expect(r.pins.map(\.requirement) == [.prefix(Version("2.62.0")!), .prefix(Version("1.7.1")!), .prefix(Version("1.0.0")!)])
        #expect(r.pins.map(\.options.lockRecord) == [[:], [:], ["registry": "registry.yaml"]])
        #expect(r.pins.first?.origin.describe(home: nil) == "/p/aqua.yaml:8")
        #expect(r.skipped.map(\.message) == ["/p/aqua.yaml:13:5: `import:` is not read; pin those packages here or in tack.yml"])
    }

    @Test(arguments: [
        ("packages:\n  - name: cli/cli\n", "/p/aqua.yaml:2:5: cli/cli has no version; aqua.yaml pins each package at a release, like `cli/cli@v1.2.3`"),
        ("packages:\n  - name: a/b@nightly\n", "/p/aqua.yaml:2:5: \"nightly\" is not a release tag tack can read a version from"),
        ("packages:\n  - name: a/tool@v1\n  - name: b/tool@v2\n", "/p/aqua.yaml:3:5: b/tool and the package on line 2 are both named `tool`"),
        ("packages:\n  - version: v1\n", "/p/aqua.yaml:2:5: a package needs `name:`"),
        ("- a\n", "/p/aqua.yaml:1:1: aqua.yaml is a mapping with `packages:`"),
    ])
    func whatItCannotReadIsSaidWithItsLine(text: String, message: String) {
        do throws(TackError) { _ = try read(text); Issue.record("read \(text)") } catch { #expect(error.message.hasPrefix(message) || error.message.contains(message), "\(error.message)") }
    }
}
