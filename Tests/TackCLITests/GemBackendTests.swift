import Foundation
import TackCore
import Testing

/// The gem backend against gems built in the test (`gem build`) on a loopback gem source
/// (`gem generate_index`).
@Suite(.ownThreads) struct GemBackendTests {
    /// Builds `name-version.gem` into `repo/gems`; its executable prints its version, its
    /// dependency's version (if any) and its arguments. `marker` changes the bytes only.
    /// `platform` makes it a platform gem (`name-version-platform.gem`).
    static func buildGem(_ s: Sandbox, _ name: String, _ version: String, dependsOn dep: String? = nil, marker: String = "", platform: String? = nil) throws {
        let full = platform.map { "\(version)-\($0)" } ?? version
        let src = "src/\(name)-\(full)"
        let module = name.capitalized
        try s.write(src + "/lib/\(name).rb", "module \(module); VERSION = \"\(version)\"; end # \(marker)\n")
        var files = "[\"lib/\(name).rb\"]"
        var extra = ""
        if let dep {
            let depModule = dep.capitalized
            try s.write(src + "/exe/\(name)", "#!/usr/bin/env ruby\nrequire \"\(name)\"\nrequire \"\(dep)\"\nputs ([\"\(name)\", \(module)::VERSION, \"\(dep)\", \(depModule)::VERSION, \"GEM_HOME=\" + ENV[\"GEM_HOME\"].to_s.split(\"/\").last(3).join(\"/\")] + ARGV).join(\" \")\n")
            chmod(s.root + "/" + src + "/exe/\(name)", 0o755)
            files = "[\"lib/\(name).rb\", \"exe/\(name)\"]"
            extra = "  s.bindir = \"exe\"\n  s.executables = [\"\(name)\"]\n  s.add_runtime_dependency \"\(dep)\", \">= 1\"\n"
        }
        if let platform { extra += "  s.platform = \"\(platform)\"\n" }
        try s.write(src + "/\(name).gemspec", "Gem::Specification.new do |s|\n  s.name = \"\(name)\"\n  s.version = \"\(version)\"\n  s.summary = \"\(name)\"\n  s.authors = [\"tack\"]\n  s.files = \(files)\n\(extra)end\n")
        try s.mkdir("repo/gems")
        // Built once per test run for these arguments (`FixtureCache`).
        let key = [name, full, dep ?? "-", String(SHA256Digest.hex(Array(marker.utf8)).prefix(16))].joined(separator: "_")
        try FixtureCache.copy("gem-\(key).gem", to: s.root + "/repo/gems/\(name)-\(full).gem") { path in
            let r = try s.run("/bin/sh", ["-c", "gem build -q \(name).gemspec -o '\(path)'"], in: src)
            guard r.status == 0 else { Issue.record("gem build: \(r.stderr)"); throw FixtureServer.FixtureFailed() }
        }
    }

    /// `gem generate_index` of `repo` (its `gems/`), made once per test run for each set of gem
    /// files (`FixtureCache`) and copied over what `repo` holds: a Ruby start otherwise.
    static func index(_ s: Sandbox) throws {
        let repo = s.root + "/repo"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: repo + "/gems")) ?? []).sorted()
        var listing = ""
        for file in files {
            let bytes = [UInt8](FileManager.default.contents(atPath: repo + "/gems/" + file) ?? Data())
            listing += file + " " + SHA256Digest.hex(bytes) + "\n"
        }
        let made = try FixtureCache.tree("gem-index-" + String(SHA256Digest.hex(Array(listing.utf8)).prefix(24))) { tree in
            let r = try s.run("/bin/sh", ["-c", "gem generate_index --directory . >/dev/null"], in: "repo")
            guard r.status == 0 else { Issue.record("gem generate_index: \(r.stderr)"); throw FixtureServer.FixtureFailed() }
            // What it wrote: the spec files and quick/Marshal.4.8/*.gemspec.rz.
            for entry in try FileManager.default.contentsOfDirectory(atPath: repo) where entry.hasSuffix(".4.8") || entry.hasSuffix(".4.8.gz") || entry == "quick" {
                try FileManager.default.copyItem(atPath: repo + "/" + entry, toPath: tree + "/" + entry)
            }
        }
        for entry in try FileManager.default.contentsOfDirectory(atPath: made) {
            try FixtureCache.merge(made + "/" + entry, into: repo + "/" + entry)
        }
    }

    @Test func installsSideBySideRunsWithItsOwnGemsAndRefusesAChangedGem() throws {
        let s = try Sandbox()
        s.environment["PATH"] = "/usr/bin:/bin"
        try Self.buildGem(s, "helper", "1.2.0")
        try Self.buildGem(s, "greet", "1.0.0", dependsOn: "helper")
        try Self.buildGem(s, "greet", "1.1.0", dependsOn: "helper")
        try Self.index(s)
        let server = try FixtureServer(serving: s.root + "/repo")
        let source = server.url("static/")
        try s.write("one/tack.yml", "tools:\n  greet: { gem: greet, version: \"1.0.0\", source: \"\(source)\" }\n")
        try s.write("two/tack.yml", "tools:\n  greet: { gem: greet, version: \"~> 1.0\", source: \"\(source)\" }\n")

        let remote = try s.tack(["ls-remote", "greet"], in: "two")
        #expect(remote.status == 0 && remote.stdout.contains("1.0.0") && remote.stdout.contains("1.1.0"), "\(remote)")
        for dir in ["one", "two"] {
            let r = try s.tack(["install"], in: dir)
            #expect(r.status == 0, "\(dir): \(r.stderr)")
        }
        let lock = try String(contentsOfFile: s.root + "/two/tack.lock", encoding: .utf8)
        let greetSum = try sha256(s.root + "/repo/gems/greet-1.1.0.gem")
        #expect(lock.contains("backend: \"gem\"") && lock.contains("version: \"1.1.0\""), "\(lock)")
        #expect(lock.contains("greet-1.1.0.gem: \"\(greetSum)\""), "\(lock)")
        #expect(lock.contains("helper: \"1.2.0\""), "\(lock)")

        let outdated = try s.tack(["outdated"], in: "one")
        #expect(outdated.stdout.contains("greet") && outdated.stdout.contains("1.1.0"), "\(outdated)")

        // Side by side, each with its own GEM_HOME, whatever the caller's gem settings.
        let shim = s.root + "/tack-home/shims/greet"
        let hostile = ["GEM_HOME": "/nonexistent", "GEM_PATH": "/nonexistent", "RUBYOPT": "-rnonexistent"]
        let one = try s.run(shim, ["hi"], in: "one", env: hostile)
        #expect(one.status == 0 && one.stdout == "greet 1.0.0 helper 1.2.0 GEM_HOME=greet/1.0.0/gems hi\n", "\(one)")
        let two = try s.tack(["exec", "--", "greet", "there"], in: "two", env: hostile)
        #expect(two.status == 0 && two.stdout == "greet 1.1.0 helper 1.2.0 GEM_HOME=greet/1.1.0/gems there\n", "\(two)")

        // Installing from the lock again uses the cache; with the cache gone and the gem on the
        // source changed (same name and version, other bytes), --frozen fails and installs nothing.
        #expect(try s.tack(["uninstall", "greet@1.1.0"], in: "two").status == 0)
        let again = try s.tack(["install", "--frozen"], in: "two")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try s.tack(["uninstall", "greet@1.1.0"], in: "two").status == 0)
        try FileManager.default.removeItem(atPath: s.root + "/tack-home/cache/gems")
        try Self.buildGem(s, "greet", "1.1.0", dependsOn: "helper", marker: "changed")
        try Self.index(s)
        #expect(try sha256(s.root + "/repo/gems/greet-1.1.0.gem") != greetSum)
        let tampered = try s.tack(["install", "--frozen"], in: "two")
        #expect(tampered.status != 0)
        #expect(tampered.stderr.contains("checksum mismatch for greet-1.1.0.gem"), "\(tampered.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/greet/1.1.0"))
        #expect(try String(contentsOfFile: s.root + "/two/tack.lock", encoding: .utf8) == lock)

        // A gem the source does not have, and a library without executables: clear failures.
        try s.write("bad/tack.yml", "tools:\n  nope: { gem: no-such-gem, version: \"~> 1.0\", source: \"\(source)\" }\n  helper: { gem: helper, version: \"1.2.0\", source: \"\(source)\" }\n")
        let bad = try s.tack(["install"], in: "bad")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("no gem named `no-such-gem`"), "\(bad.stderr)")
        #expect(bad.stderr.contains("has no executables"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/helper"))

        // prune: a cached gem no install records goes; the helper gem, which greet 1.0.0's
        // install records, stays.
        let gems = s.root + "/tack-home/cache/gems"
        let helperSum = try sha256(s.root + "/repo/gems/helper-1.2.0.gem")
        let stale = String(repeating: "0", count: 64)
        try s.write("tack-home/cache/gems/\(stale)/old-1.0.0.gem", "old\n")
        let pruned = try s.tack(["prune"], in: "one")
        #expect(pruned.status == 0 && pruned.stdout.contains("removed ") && pruned.stdout.contains("/cache/gems/\(stale)"), "\(pruned.stdout)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: gems)
        #expect(!kept.contains(stale) && kept.contains(helperSum), "\(kept)")
    }
}
