import Foundation
import Testing

/// Every bad input fails with exactly one line on stderr (file, line, column where there is
/// one), a non-zero exit, nothing on stdout, and nothing written anywhere.
@Suite(.ownThreads) struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var files: [String: String]
        var args: [String] = ["current"]
        var env: [String: String] = [:]
        /// The error after `tack: `, with `$ROOT` for the sandbox.
        var error: String
        var status: Int32 = 1
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "misspelt top-level key", files: ["p/tack.yml": "tols:\n  jq: 1.7\n"],
             error: "$ROOT/p/tack.yml:1:1: unknown key `tols` at the top level; did you mean `tools`?"),
        Case(name: "bad requirement", files: ["p/tack.yml": "tools:\n  jq: 1.7\n  swiftformat: \"~>> 1.2\"\n"],
             error: "$ROOT/p/tack.yml:3:16: expected a version requirement, found \"~>> 1.2\""),
        Case(name: "path as a version", files: ["p/tack.yml": "tools:\n  jq: ../../etc/passwd\n"],
             error: "$ROOT/p/tack.yml:2:7: expected a version requirement for jq, found \"../../etc/passwd\": `/` is not allowed in a version requirement"),
        Case(name: "shell metacharacters", files: ["p/tack.yml": "tools:\n  jq: \"$(reboot)\"\n"],
             error: "$ROOT/p/tack.yml:2:7: expected a version requirement for jq, found \"$(reboot)\": `$` is not allowed in a version requirement"),
        Case(name: "duplicate key", files: ["p/tack.yml": "tools:\n  jq: 1.7\n  jq: 1.6\n"],
             error: "$ROOT/p/tack.yml:3:3: duplicate key `jq` (first set at line 2)"),
        Case(name: "tab indentation", files: ["p/tack.yml": "tools:\n\tjq: 1.7\n"],
             error: "$ROOT/p/tack.yml:2:1: a tab character; YAML indents with spaces only"),
        Case(name: "empty manifest", files: ["p/tack.yml": ""],
             error: "$ROOT/p/tack.yml:1:1: the file is empty; expected `tools:` with one tool per line, for example `  swiftlint: 0.57.0`"),
        Case(name: "tool name with a slash", files: ["p/tack.yml": "tools:\n  a/b: 1.0\n"],
             error: "$ROOT/p/tack.yml:2:3: `a/b` is not a valid tool name (lowercase letters, digits, `.`, `_` and `-`, starting with a letter or digit)"),
        Case(name: "wrong type", files: ["p/tack.yml": "tools:\n  ink: { git: x.git, products: { a: b } }\n"],
             error: "$ROOT/p/tack.yml:2:32: `products` must be a string or a list of strings, found a mapping"),
        Case(name: "unknown tool key", files: ["p/tack.yml": "tools:\n  ink: { git: x.git, prodcuts: [a] }\n"],
             error: "$ROOT/p/tack.yml:2:22: unknown key `prodcuts` in ink; did you mean `products`?"),
        Case(name: "two sources", files: ["p/tack.yml": "tools:\n  ink: { git: x.git, pip: ink }\n"],
             error: "$ROOT/p/tack.yml:2:22: ink has two sources, `git` (line 2) and `pip`; keep one"),
        Case(name: "broken quoting", files: ["p/tack.yml": "tools:\n  jq: \"1.7\n"],
             error: "$ROOT/p/tack.yml:3:1: found unexpected end of stream while scanning a quoted scalar"),
        Case(name: "lock from a newer tack", files: ["p/tack.yml": "tools:\n  jq: 1.7.1\n", "p/tack.lock": "version: 9\ntools: {}\n"],
             error: "$ROOT/p/tack.lock:1:10: tack.lock uses format 9, but this tack reads format 1 at most; upgrade tack"),
        Case(name: "damaged lock", files: ["p/tack.yml": "tools:\n  jq: 1.7.1\n", "p/tack.lock": "version: 1\ntools:\n  jq: { version: \"1.7.1\" }\n"],
             error: "$ROOT/p/tack.lock:3:7: the entry for jq has no `backend`; run `tack lock` to write it again"),
        Case(name: "bad environment override", files: ["p/tack.yml": "tools:\n  jq: 1.7.1\n"], env: ["TACK_JQ_VERSION": "1.7;id"],
             error: "TACK_JQ_VERSION=\"1.7;id\" in the environment is not a version requirement: `;` is not allowed in a version requirement"),
        Case(name: "broken global manifest", files: ["home/.config/tack/tack.yml": "tools:\n  jq: [1]\n"],
             error: "$ROOT/home/.config/tack/tack.yml:2:7: `jq` must be a version or a mapping (like `{ git: URL, version: 1.2 }`), found a list"),
        Case(name: "invalid tool argument", files: ["p/tack.yml": "tools:\n  jq: 1.7.1\n"], args: ["current", "../jq"],
             error: "`../jq` is not a valid tool name (lowercase letters, digits, `.`, `_` and `-`, starting with a letter or digit) — see `tack current --help`", status: 2),
        Case(name: "broken local manifest", files: ["p/tack.yml": "tools:\n  jq: 1.7.1\n", "p/tack.local.yml": "tools:\n  jq: { version: 1.6, version: 1.5 }\n"],
             error: "$ROOT/p/tack.local.yml:2:23: duplicate key `version` (first set at line 2)"),
        Case(name: "unknown key in a lock", files: ["p/tack.yml": "tools:\n  jq: 1.7.1\n", "p/tack.lock": "version: 1\ntools:\n  jq: { version: \"1.7.1\", backend: url, source: x, requested: 1.7.1, run: \"rm -rf ~\" }\n"],
             error: "$ROOT/p/tack.lock:3:70: unknown key `run` in the entry for jq (tack writes: archive, assets, binaries, build, built, cache, commit, gems, hashes, options, packages, path, platforms, plugin-commit, prebuilt, ref, registry, registry-sha256, sdk-path, sdk-sha256, sdk-signed-by, sha256, signatures, signed-by, tag, urls) — run `tack lock` to write it again"),
        Case(name: "YAML tag in a lock", files: ["p/tack.yml": "tools:\n  jq: 1.7.1\n", "p/tack.lock": "version: 1\ntools:\n  jq: !!python/object:os.system { version: \"1.7.1\" }\n"],
             error: "$ROOT/p/tack.lock:3:7: the YAML tag `tag:yaml.org,2002:python/object:os.system` is not allowed in tack files; write plain values"),
        Case(name: "platform key of what a platform installs", files: ["p/tack.yml": "tools:\n  black: { pip: black, version: 24.1.0 }\n", "p/tack.lock": "version: 1\ntools:\n  black:\n    version: \"24.1.0\"\n    backend: pip\n    source: black\n    requested: 24.1.0\n    platforms: { \"../../etc\": \"black\" }\n"],
             error: "$ROOT/p/tack.lock:8:16: \"../../etc\" in `platforms` of black is not a platform; platforms are written `os-arch`, like `linux-x86_64`"),
        Case(name: "platform key in a lock", files: ["p/tack.yml": "tools:\n  jq: 1.7.1\n", "p/tack.lock": "version: 1\ntools:\n  jq:\n    version: \"1.7.1\"\n    backend: url\n    source: x\n    requested: 1.7.1\n    sha256: { \"../../etc\": \"\(String(repeating: "a", count: 64))\" }\n"],
             error: "$ROOT/p/tack.lock:8:13: \"../../etc\" in `sha256` of jq is not a platform; platforms are written `os-arch`, like `linux-x86_64`"),
        Case(name: "checksum that is a number", files: ["p/tack.yml": "tools:\n  sc: { url: \"https://example.org/sc\", version: 1.0.0, checksum: 5 }\n"], args: ["lock"],
             error: "$ROOT/p/tack.yml:2:66: `checksum` must be a SHA-256 checksum (64 hexadecimal digits), found \"5\""),
        Case(name: "url that is a number", files: ["p/tack.yml": "tools:\n  sc: { url: 5, version: 1.0.0 }\n"], args: ["lock"],
             error: "$ROOT/p/tack.yml:2:14: `url` must be an https://, http:// or file:// URL, found \"5\""),
        Case(name: "bin outside the install", files: ["p/tack.yml": "tools:\n  sc: { url: \"https://example.org/sc\", version: 1.0.0, bin: /bin/sh }\n"], args: ["lock"],
             error: "$ROOT/p/tack.yml:2:61: `bin` paths name files inside the install, like `bin/tool` (relative, without `..`), found \"/bin/sh\""),
        Case(name: "bin going up", files: ["p/tack.yml": "tools:\n  sc: { url: \"https://example.org/sc\", version: 1.0.0, bin: [\"a/../../x\"] }\n"], args: ["install"],
             error: "$ROOT/p/tack.yml:2:62: `bin` paths name files inside the install, like `bin/tool` (relative, without `..`), found \"a/../../x\""),
        Case(name: "escape sequence in a key", files: ["p/tack.yml": "tools:\n  jq: 1.7.1\n\"\\e[31mred\": 1\n"],
             error: "$ROOT/p/tack.yml:3:1: unknown key `\\u{1B}[31mred` at the top level (expected one of: tools, env, bootstrap, cache, platforms, min_release_age, mirrors)"),
        Case(name: "unknown env-section value type", files: ["p/tack.yml": "tools:\n  jq: 1.7.1\nenv:\n  FOO: { a: 1 }\n"],
             error: "$ROOT/p/tack.yml:4:8: the value of `FOO` must be a string, found a mapping"),
    ]

    @Test(arguments: cases)
    func fails(_ c: Case) throws {
        let s = try Sandbox()
        for (path, text) in c.files { try s.write(path, text) }
        try s.mkdir("p/sub")
        let before = s.snapshot()
        let r = try s.tack(c.args, in: "p/sub", env: c.env)
        #expect(r.status == c.status)
        #expect(r.stdout == "")
        #expect(r.stderr == "tack: " + c.error.replacingOccurrences(of: "$ROOT", with: s.root) + "\n")
        #expect(s.snapshot() == before, "nothing written")
    }

    /// Other managers' version files that tack cannot read are not errors: they pin nothing,
    /// with one warning naming the file and line, and nothing in the project is written.
    @Test(arguments: [
        (".ruby-version", "../../../tmp/evil\n", "1:1: expected a version of ruby, found \"../../../tmp/evil\": `/` is not allowed in a version requirement"),
        (".tool-versions", "ruby 3.3.0\nnodejs\n", "2:1: `nodejs` has no version; write `nodejs 1.2.3`"),
        ("Mintfile", "SwiftLint@0.54.0\n", "1:1: expected `owner/repo@version` or a git URL, found \"SwiftLint@0.54.0\""),
        (".nvmrc", "20\n22\n", "2:1: more than one node version (the first is \"20\" on line 1); an .nvmrc holds one"),
        (".python-version", "\u{1b}]0;pwned\u{7}\n", "1:1: \"\\u001B]0;pwned\\u0007\" is not a version tack can use (a control character is not allowed in a version requirement); the line is skipped"),
    ])
    func compatibleFilesWarnAndPinNothing(_ file: String, _ text: String, _ problem: String) throws {
        let s = try Sandbox()
        try s.write("p/tack.yml", "tools:\n  jq: 1.7.1\n")
        try s.write("p/" + file, text)
        try s.mkdir("p/sub")
        let before = s.snapshot().filter { $0.key.hasPrefix("p") }
        let r = try s.tack(["current", "--json"], in: "p/sub")
        #expect(r.status == 0)
        #expect(r.stdout.contains(#""tool":"jq""#))
        let tail = file == ".python-version" ? "" : " — \(file) pins nothing until it is fixed"
        #expect(r.stderr == "tack: warning: \(s.root)/p/\(file):\(problem)\(tail)\n")
        #expect(s.snapshot().filter { $0.key.hasPrefix("p") } == before, "nothing written in the project")
    }

    @Test func tenMegabyteManifest() throws {
        let s = try Sandbox()
        try s.write("p/tack.yml", Data(repeating: 0x20, count: 10 << 20))
        let before = s.snapshot()
        let r = try s.tack(["current"], in: "p")
        #expect(r.status == 1)
        #expect(r.stderr == "tack: \(s.root)/p/tack.yml: the file is 10.0 MiB; tack reads files of at most 1.0 MiB\n")
        #expect(s.snapshot() == before)
    }

    /// A file dated after 2262 (ext4 keeps dates to 2446; a bad clock or `touch -d` makes
    /// them) holds more nanoseconds since 1970 than 64 bits do: it is read, not a crash.
    @Test func aManifestDatedPast2262IsRead() throws {
        let s = try Sandbox()
        try s.write("p/tack.yml", "tools:\n  jq: 1.7.1\n")
        try s.write("p/tack.lock", "version: 1\ntools: {}\n")
        for file in ["p/tack.yml", "p/tack.lock", "p"] {
            #expect(try s.run("/usr/bin/touch", ["-d", "2300-01-01", s.root + "/" + file]).status == 0)
        }
        for args in [["current", "jq"], ["install", "--dry-run"], ["ls"]] {
            let r = try s.tack(args, in: "p")
            #expect(r.status <= 2 && !r.stderr.contains("Fatal") && !r.stderr.contains("crash"), "\(args): \(r.status) \(r.stderr)")
        }
        let current = try s.tackProcess(["current", "jq"], in: "p")
        #expect(current.status == 1 && current.stdout.hasPrefix("1.7.1 (set by \(s.root)/p/tack.yml:2)"), "\(current.status) \(current.stdout) \(current.stderr)")
    }

    @Test func byteOrderMarkIsFine() throws {
        let s = try Sandbox()
        try s.write("p/tack.yml", Data([0xEF, 0xBB, 0xBF]) + Data("tools:\n  jq: 1.7.1\n".utf8))
        let r = try s.tack(["current", "jq"], in: "p")
        #expect(r.status == 1, "not installed")
        #expect(r.stdout.hasPrefix("1.7.1 (set by \(s.root)/p/tack.yml:2)"))
    }
}
