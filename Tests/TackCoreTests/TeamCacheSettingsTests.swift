import Testing
@testable import TackCore

/// The team cache's settings and key, without a registry.
@Suite struct TeamCacheSettingsTests {
    @Test func referencesAreOCIRepositoryNamespaces() throws {
        let r = try #require(CacheReference("oci://ghcr.io/acme/tack-cache"))
        #expect(r.registry == "ghcr.io" && r.namespace == "acme/tack-cache" && !r.isLoopback)
        #expect(r.repository(for: "swift-format") == "acme/tack-cache/swift-format")
        #expect(r.repository(for: "_odd..name-") == "acme/tack-cache/odd.name")
        #expect(CacheReference("oci://localhost:5000/team")?.isLoopback == true)
        #expect(CacheReference("oci://127.0.0.9:5000/team")?.isLoopback == true)
        #expect(CacheReference("oci://[::1]:5000/team")?.host == "::1")
        for bad in ["https://ghcr.io/acme", "oci://ghcr.io", "oci://ghcr.io/", "oci://ghcr.io/Acme/x", "oci://ghcr.io/a//b",
                    "oci://ghcr.io/a/-b", "oci://user:pw@ghcr.io/a", "oci://ghcr.io:notaport/a", "oci://gh cr.io/a", "oci://ghcr.io/a/b?x=1"] {
            #expect(CacheReference(bad) == nil, "\(bad)")
        }
    }

    @Test func manifestsNameACacheAsAURLOrAMapping() throws {
        let short = try decode("cache: oci://ghcr.io/acme/c\ntools:\n  jq: 1.7.1\n")
        #expect(short.cache?.reference.description == "oci://ghcr.io/acme/c" && short.cache?.push == false)
        #expect(short.needsTrust, "a project's cache needs trust")
        let long = try decode("cache:\n  url: oci://localhost:5000/team\n  push: true\n  insecure: false\ntools: {}\n")
        #expect(long.cache?.push == true && long.cache?.scheme == "http")
        #expect(manifestError("cache: { push: true }\ntools: {}\n")?.contains("`cache` needs a `url:`") == true)
        #expect(manifestError("cache: { url: oci://h/a, pusj: true }\n")?.contains("did you mean `push`?") == true)
        #expect(manifestError("cache: { url: oci://h/a, push: maybe }\n")?.contains("`cache.push` must be true or false") == true)
        #expect(manifestError("cache: https://h/a\n")?.contains("is not a team cache; write it `oci://HOST/NAMESPACE`") == true)
    }

    @Test func theEnvironmentBeatsTrustedFilesAndUntrustedOnesAreSkipped() throws {
        let project = try decode("cache: oci://registry.example/project\ntools: {}\n", path: "/p/tack.yml")
        var global = try Manifest.decode(Array("cache: { url: oci://registry.example/mine, push: true }\n".utf8), path: "/home/u/.config/tack/tack.yml", kind: .globalManifest, backends: .standard)
        global.path = "/home/u/.config/tack/tack.yml"
        let settings = Settings(environment: ["HOME": "/home/u"], cwd: "/p", fs: InMemoryFileSystem(), backends: .standard)
        let untrusted = try TeamCache.select(settings: settings, manifests: [project, global]) { _ in false }
        #expect(untrusted.cache?.reference.namespace == "mine" && untrusted.untrusted?.reference.namespace == "project")
        let trusted = try TeamCache.select(settings: settings, manifests: [project, global]) { $0 == "/p/tack.yml" }
        #expect(trusted.cache?.reference.namespace == "project" && trusted.untrusted == nil)
        var env = settings
        env.environment["TACK_CACHE"] = "oci://localhost:5000/ci"
        env.environment["TACK_CACHE_PUSH"] = "1"
        let fromEnv = try TeamCache.select(settings: env, manifests: [project, global]) { _ in true }
        #expect(fromEnv.cache?.reference.namespace == "ci" && fromEnv.cache?.push == true && fromEnv.cache?.origin.kind == .environment)
        env.environment["TACK_CACHE"] = "off"
        #expect(try TeamCache.select(settings: env, manifests: [project, global]) { _ in true }.cache == nil)
        env.environment["TACK_CACHE"] = "ghcr.io/acme"
        #expect(throws: TackError.self) { try TeamCache.select(settings: env, manifests: []) { _ in true } }
    }

    @Test func theKeyIsADigestOfEveryFieldAndItsAnnotationsAreChecked() {
        let a = CacheKey(tool: "ink", inputs: ["backend": "git", "commit": "abc", "toolchain": "Swift version 6.3.1"], platform: ["os": "linux", "arch": "x86_64"])
        #expect(a.fields["format"] == CacheKey.formatVersion && a.fields["platform.os"] == "linux")
        #expect(a.tag.count == 64 && a.tag.allSatisfy(\.isHexDigit))
        var b = a
        b.fields["toolchain"] = "Swift version 6.2"
        #expect(a.tag != b.tag, "another toolchain is another key")
        // A newline in a value cannot forge a field.
        let forged = CacheKey(tool: "x", fields: ["a": "1\nb=2"])
        let honest = CacheKey(tool: "x", fields: ["a": "1", "b": "2"])
        #expect(forged.tag != honest.tag)
        #expect(a.mismatches(a.annotations).isEmpty)
        var wrong = a.annotations
        wrong["dev.tack.key.commit"] = "def"
        wrong["dev.tack.key.extra"] = "1"
        #expect(a.mismatches(wrong) == ["commit: expected \"abc\", found \"def\"", "extra: not part of this key, found \"1\""])
    }

    @Test func thePlatformNamesTheDistributionAndTheCLibrary() {
        let f = BuildPlatform.fields(platform: Platform(os: "linux", arch: "x86_64"), osRelease: "ID=debian\nVERSION_ID=\"12\"\n", libc: "glibc-2.36")
        #expect(f == ["os": "linux", "arch": "x86_64", "distribution": "debian-12", "libc": "glibc-2.36"])
        #expect(BuildPlatform.libcVersion()?.hasPrefix("glibc-") == true)
    }
}
