import Testing
@testable import TackCore

@Suite struct LockfileTests {
    static let sample = Lockfile(tools: [
        "swiftlint": LockedTool(
            name: "swiftlint", version: Version("0.54.1")!, requested: "~> 0.54", backend: "git",
            source: "https://github.com/realm/SwiftLint.git",
            fields: ["tag": .string("0.54.1"), "commit": .string("0123456789abcdef0123456789abcdef01234567"), "options": .map(["products": "swiftlint"])]),
        "shellcheck": LockedTool(
            name: "shellcheck", version: Version("0.10.0")!, requested: "0.10.0", backend: "url",
            source: "https://example.org/shellcheck-v{version}.{os}.{arch}.tar.xz",
            fields: ["sha256": .map(["linux-x86_64": "6c88000000000000000000000000000000000000000000000000000000000000", "darwin-arm64": "1f3e000000000000000000000000000000000000000000000000000000000000"])]),
    ])

    @Test func goldenBytes() {
        let text = String(decoding: Self.sample.serialized(), as: UTF8.self)
        #expect(text == """
            # tack.lock: written by tack from tack.yml. Commit it; do not edit it by hand.
            # `tack lock` resolves it again, `tack update` moves to the newest allowed versions.
            version: 1
            tools:
              shellcheck:
                backend: "url"
                requested: "0.10.0"
                sha256:
                  darwin-arm64: "1f3e000000000000000000000000000000000000000000000000000000000000"
                  linux-x86_64: "6c88000000000000000000000000000000000000000000000000000000000000"
                source: "https://example.org/shellcheck-v{version}.{os}.{arch}.tar.xz"
                version: "0.10.0"
              swiftlint:
                backend: "git"
                commit: "0123456789abcdef0123456789abcdef01234567"
                options:
                  products: "swiftlint"
                requested: "~> 0.54"
                source: "https://github.com/realm/SwiftLint.git"
                tag: "0.54.1"
                version: "0.54.1"

            """)
    }

    @Test func roundTripAndDeterminism() throws {
        let bytes = Self.sample.serialized()
        let parsed = try Lockfile.parse(bytes, path: "/p/tack.lock", backends: .standard)
        #expect(parsed == Self.sample)
        #expect(parsed.serialized() == bytes)
        // Insertion order does not matter.
        var other = Lockfile()
        for name in Self.sample.tools.keys.sorted().reversed() { other.tools[name] = Self.sample.tools[name] }
        #expect(other.serialized() == bytes)
    }

    @Test func awkwardStringsRoundTrip() throws {
        var rng = SplitMix64(seed: 42)
        let alphabet = Array("aZ09 :#\"'\\\n\t{}[],&*!|>%@`é\u{1}\u{7F}\u{85}\u{FEFF}-")
        for _ in 0..<200 {
            let s = String((0..<Int(rng.next() % 20)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
            let lock = Lockfile(tools: ["t": LockedTool(name: "t", version: Version("1.0")!, requested: s, backend: "git", source: s, fields: ["hashes": .map([s.isEmpty ? "x" : s: s]), "binaries": .list([s])])])
            #expect(try Lockfile.parse(lock.serialized(), path: "/l", backends: .standard) == lock, "\(s.debugDescription)")
        }
    }

    @Test func emptyLock() throws {
        #expect(try Lockfile.parse(Lockfile().serialized(), path: "/l", backends: .standard) == Lockfile())
    }

    @Test(arguments: [
        ("version: 2\ntools: {}\n", "/p/tack.lock:1:10: tack.lock uses format 2, but this tack reads format 1 at most; upgrade tack"),
        ("tools: {}\n", "/p/tack.lock:1:1: tack.lock has no `version:`; run `tack lock` to write it again"),
        ("version: one\n", "/p/tack.lock:1:10: `version` must be a whole number"),
        ("", "/p/tack.lock:1:1: tack.lock is empty or damaged; run `tack lock` to write it again"),
        ("version: 1\ntools:\n  jq:\n    version: \"1.7\"\n", "/p/tack.lock:4:5: the entry for jq has no `backend`; run `tack lock` to write it again"),
        ("version: 1\ntools:\n  jq: { version: \"../x\", backend: url, source: s, requested: r }\n", "/p/tack.lock:3:18: \"../x\" is not a version"),
        ("version: 1\ntools:\n  ../jq: {}\n", "/p/tack.lock:3:3: `../jq` is not a valid tool name (lowercase letters, digits, `.`, `_` and `-`, starting with a letter or digit)"),
        ("version: 1\nextra: 1\n", "/p/tack.lock:2:1: unknown key `extra` in tack.lock"),
        ("version: 1\ntools:\n  jq: { version: \"1\n", "/p/tack.lock:4:1: found unexpected end of stream while scanning a quoted scalar"),
    ])
    func badInput(_ text: String, _ expected: String) {
        #expect(throws: TackError(expected)) { try Lockfile.parse(Array(text.utf8), path: "/p/tack.lock", backends: .standard) }
    }
}
