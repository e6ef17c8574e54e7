import Backends
import TackCore
import Testing

/// The asset of a GitHub release each platform downloads, read from real releases' asset
/// names (ubi's and mise's test suites use many of the same releases).
@Suite struct ReleaseAssetPickerTests {
    static let linux = Platform(os: "linux", arch: "x86_64")
    static let linuxArm = Platform(os: "linux", arch: "arm64")
    static let mac = Platform(os: "darwin", arch: "arm64")
    static let intelMac = Platform(os: "darwin", arch: "x86_64")

    func pick(_ project: String, _ names: [String], _ platform: Platform, libc: ReleaseAssetPicker.LibC = .gnu) -> Result<String, ReleaseAssetPicker.Failure> {
        ReleaseAssetPicker(project: project, platform: platform, libc: libc).pick(names)
    }

    func expectPicks(_ project: String, _ names: [String], _ expected: [Platform: String], sourceLocation: SourceLocation = #_sourceLocation) {
        for (platform, name) in expected {
            #expect(pick(project, names, platform) == .success(name), "\(platform)", sourceLocation: sourceLocation)
        }
    }

    @Test func goreleaserArchivesByOSAndArchitecture() {
        let names = ["Darwin_arm64", "Darwin_x86_64", "FreeBSD_arm64", "FreeBSD_i386", "FreeBSD_x86_64", "Linux_arm", "Linux_arm64", "Linux_386",
                     "Linux_mips64", "Linux_x86_64", "Windows_arm64", "Windows_i386", "Windows_x86_64"].map { "omegasort_0.0.7_\($0).tar.gz" }
            + ["checksums.txt"]
        expectPicks("omegasort", names, [
            Self.linux: "omegasort_0.0.7_Linux_x86_64.tar.gz", Self.linuxArm: "omegasort_0.0.7_Linux_arm64.tar.gz",
            Self.mac: "omegasort_0.0.7_Darwin_arm64.tar.gz", Self.intelMac: "omegasort_0.0.7_Darwin_x86_64.tar.gz",
        ])
    }

    @Test func anArchitectureNamedBeatsAUniversalBuildAndSourceArchivesAreNeverDownloads() {
        let names = ["protobuf-22.2.tar.gz", "protobuf-22.2.zip", "protoc-22.2-linux-aarch_64.zip", "protoc-22.2-linux-ppcle_64.zip",
                     "protoc-22.2-linux-s390_64.zip", "protoc-22.2-linux-x86_32.zip", "protoc-22.2-linux-x86_64.zip", "protoc-22.2-osx-aarch_64.zip",
                     "protoc-22.2-osx-universal_binary.zip", "protoc-22.2-osx-x86_64.zip", "protoc-22.2-win32.zip", "protoc-22.2-win64.zip"]
        expectPicks("protobuf", names, [
            Self.linux: "protoc-22.2-linux-x86_64.zip", Self.linuxArm: "protoc-22.2-linux-aarch_64.zip",
            Self.mac: "protoc-22.2-osx-aarch_64.zip", Self.intelMac: "protoc-22.2-osx-x86_64.zip",
        ])
        // With no build for the architecture, the universal one.
        let universal = names.filter { !$0.contains("osx-aarch_64") }
        #expect(pick("protobuf", universal, Self.mac) == .success("protoc-22.2-osx-universal_binary.zip"))
    }

    @Test func bareProgramsWhoseDotsArePartOfTheVersion() {
        let names = ["darwin-amd64", "darwin-arm64", "linux-amd64", "linux-arm", "linux-arm64", "windows-amd64.exe", "windows-arm64.exe"].map { "mkcert-v1.4.4-\($0)" }
        expectPicks("mkcert", names, [
            Self.linux: "mkcert-v1.4.4-linux-amd64", Self.linuxArm: "mkcert-v1.4.4-linux-arm64",
            Self.mac: "mkcert-v1.4.4-darwin-arm64", Self.intelMac: "mkcert-v1.4.4-darwin-amd64",
        ])
    }

    @Test func linux64IsAnOSAndAnArchitectureAndAnAppleSiliconMacTakesNoIntelBuild() {
        let names = ["jq-1.6.tar.gz", "jq-1.6.zip", "jq-linux32", "jq-linux64", "jq-osx-amd64", "jq-win32.exe", "jq-win64.exe"]
        expectPicks("jq", names, [Self.linux: "jq-linux64", Self.intelMac: "jq-osx-amd64"])
        #expect(pick("jq", names, Self.mac) == .failure(.none(platform: "darwin-arm64", assets: ["jq-1.6.tar.gz", "jq-1.6.zip", "jq-linux32", "jq-linux64", "jq-osx-amd64"])))
        #expect(pick("jq", names, Self.linuxArm) == .failure(.none(platform: "linux-arm64", assets: ["jq-1.6.tar.gz", "jq-1.6.zip", "jq-linux32", "jq-linux64", "jq-osx-amd64"])))
    }

    @Test func rustTriplesAndTheCLibrary() {
        let names = ["aarch64-apple-darwin", "x86_64-apple-darwin", "x86_64-unknown-linux-gnu", "x86_64-unknown-linux-musl"]
            .map { "cargo-msrv-\($0)-v0.19.3.tgz" } + ["cargo-msrv-x86_64-pc-windows-msvc-v0.19.3.zip"]
        expectPicks("cargo-msrv", names, [
            Self.linux: "cargo-msrv-x86_64-unknown-linux-gnu-v0.19.3.tgz", Self.mac: "cargo-msrv-aarch64-apple-darwin-v0.19.3.tgz",
            Self.intelMac: "cargo-msrv-x86_64-apple-darwin-v0.19.3.tgz",
        ])
        #expect(pick("cargo-msrv", names, Self.linux, libc: .musl) == .success("cargo-msrv-x86_64-unknown-linux-musl-v0.19.3.tgz"))
        if case .failure(.none) = pick("cargo-msrv", names, Self.linuxArm) {} else { Issue.record("no linux-arm64 build, yet one was picked") }
    }

    @Test func aMuslBuildServesGlibcWhenItIsTheOnlyOneButGlibcBuildsNeverServeMusl() {
        let names = ["ubi-Darwin-aarch64.tar.gz", "ubi-Darwin-x86_64.tar.gz", "ubi-FreeBSD-x86_64.tar.gz", "ubi-Linux-aarch64-musl.tar.gz",
                     "ubi-Linux-arm-musl.tar.gz", "ubi-Linux-i586-musl.tar.gz", "ubi-Linux-powerpc64-gnu.tar.gz", "ubi-Linux-riscv64-gnu.tar.gz",
                     "ubi-Linux-x86_64-musl.tar.gz", "ubi-NetBSD-x86_64.tar.gz", "ubi-Windows-x86_64.zip", "checksums.txt"]
        expectPicks("ubi", names, [
            Self.linux: "ubi-Linux-x86_64-musl.tar.gz", Self.linuxArm: "ubi-Linux-aarch64-musl.tar.gz", Self.mac: "ubi-Darwin-aarch64.tar.gz",
        ])
        let glibcOnly = ["tool-x86_64-unknown-linux-gnu.tar.gz", "tool-aarch64-apple-darwin.tar.gz"]
        #expect(pick("tool", glibcOnly, Self.linux, libc: .musl) == .failure(.none(platform: "linux-x86_64", assets: glibcOnly)))
        let manylinux = ["opengrep-core_linux_aarch64.tar.gz", "opengrep_manylinux_aarch64", "opengrep_musllinux_aarch64"]
        #expect(pick("opengrep", manylinux, Self.linuxArm) == .success("opengrep_manylinux_aarch64"))
        #expect(pick("opengrep", manylinux, Self.linuxArm, libc: .musl) == .success("opengrep_musllinux_aarch64"))
    }

    @Test func theProjectsOwnNameSaysNothingOfThePlatform() {
        let names = ["darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64"].map { "go-arch-lint_1.15.0_\($0).tar.gz" } + ["go-arch-lint_1.15.0_windows_amd64.zip"]
        expectPicks("go-arch-lint", names, [Self.linux: "go-arch-lint_1.15.0_linux_amd64.tar.gz", Self.mac: "go-arch-lint_1.15.0_darwin_arm64.tar.gz"])
    }

    @Test func variantsOfOneProgramTakeThePlainestAndTheProjectsProgramWins() {
        let bun = ["bun-linux-x64-baseline-profile.zip", "bun-linux-x64-baseline.zip", "bun-linux-x64-profile.zip", "bun-linux-x64.zip", "bun-darwin-aarch64.zip"]
        #expect(pick("bun", bun, Self.linux) == .success("bun-linux-x64.zip"))
        let agnix = ["agnix-lsp-x86_64-unknown-linux-gnu.tar.gz", "agnix-mcp-x86_64-unknown-linux-gnu.tar.gz", "agnix-x86_64-unknown-linux-gnu.tar.gz"]
        #expect(pick("agnix", agnix, Self.linux) == .success("agnix-x86_64-unknown-linux-gnu.tar.gz"))
        let opengrep = ["opengrep-core_osx_aarch64.tar.gz", "opengrep_osx_arm64"]
        #expect(pick("opengrep", opengrep, Self.mac) == .success("opengrep_osx_arm64"))
    }

    @Test func differentProgramsThatFitEquallyAreAQuestionNotAGuess() {
        let names = ["buildifier", "buildozer", "unused_deps"].flatMap { tool in ["darwin-amd64", "darwin-arm64", "linux-amd64", "linux-arm64"].map { "\(tool)-\($0)" } }
        let result = pick("buildtools", names, Self.linux)
        #expect(result == .failure(.ambiguous(platform: "linux-x86_64", candidates: ["buildifier-linux-amd64", "buildozer-linux-amd64", "unused_deps-linux-amd64"])))
        if case .failure(let failure) = result {
            #expect(failure.message(tool: "buildifier", release: "bazelbuild/buildtools v7.1.2").contains("say which with `asset:` (part of the asset's name), like `asset: \"buildifier\"`"))
            let underscored = ReleaseAssetPicker.Failure.ambiguous(platform: "linux-x86_64", candidates: ["unused_deps_1.2-linux-amd64", "buildozer-linux-amd64"])
            #expect(underscored.message(tool: "t", release: "r").contains("like `asset: \"unused_deps\"`"))
        }
    }

    @Test func packagesSignaturesAndChecksumsAreNeverTheDownload() {
        let names = ["quickhook-1.6.2-linux-amd64.deb", "quickhook-1.6.2-linux-amd64.rpm", "quickhook-1.6.2-linux-amd64.deb.sha256", "quickhook-1.6.2-linux-arm64.deb"]
        #expect(pick("quickhook", names, Self.linux) == .failure(.none(platform: "linux-x86_64", assets: [])))
        let signed = ["tool-1.0.0-linux-x86_64.tar.gz", "tool-1.0.0-linux-x86_64.tar.gz.asc", "tool-1.0.0-linux-x86_64.tar.gz.sig", "tool-1.0.0-linux-x86_64.tar.gz.pem",
                      "tool-1.0.0-linux-x86_64.tar.gz.sha256", "tool-1.0.0-linux-x86_64.sbom.json", "release-notes.txt", "tool-1.0.0-linux-x86_64.AppImage"]
        #expect(pick("tool", signed, Self.linux) == .success("tool-1.0.0-linux-x86_64.tar.gz"))
        // An archive is preferred to the bare program of the same build.
        #expect(pick("tool", ["tool-linux-amd64", "tool-linux-amd64.tar.gz"], Self.linux) == .success("tool-linux-amd64.tar.gz"))
    }

    @Test func aCompressedProgramIsADownloadAndAPlainOneIsPreferred() {
        #expect(pick("elm", ["elm-0.19.2-linux-x64.gz", "elm-0.19.2-mac-x64.gz", "elm-0.19.2-windows.exe"], Self.linux) == .success("elm-0.19.2-linux-x64.gz"))
        #expect(pick("tool", ["tool-linux-amd64.xz", "tool-linux-amd64"], Self.linux) == .success("tool-linux-amd64"))
    }

    @Test func aNameWithNoOSServesOnlyTheArchitectureItNames() {
        #expect(pick("tool", ["tool-x86_64.tar.gz", "tool-arm64.tar.gz"], Self.linux) == .success("tool-x86_64.tar.gz"))
        #expect(pick("tool", ["tool.tar.gz", "tool-src.zip"], Self.linux) == .failure(.none(platform: "linux-x86_64", assets: ["tool.tar.gz", "tool-src.zip"])))
    }

    @Test func checksumFilesTheLikeliestFirst() {
        let names = ["tool_1.2.3_linux_amd64.tar.gz", "tool_1.2.3_linux_amd64.tar.gz.sha256", "tool_1.2.3_checksums.txt", "tool_1.2.3_checksums.txt.sig",
                     "SHA256SUMS", "SHA512SUMS", "tool_1.2.3_linux_amd64.tar.gz.md5", "checksums.txt.pem"]
        #expect(ReleaseAssetPicker.checksumFiles(for: "tool_1.2.3_linux_amd64.tar.gz", in: names)
                == ["tool_1.2.3_linux_amd64.tar.gz.sha256", "SHA256SUMS", "tool_1.2.3_checksums.txt"])
        #expect(ReleaseAssetPicker.checksumFiles(for: "a.zip", in: ["a.zip", "b.zip"]).isEmpty)
    }

    @Test func hostileNamesReadWithoutATrap() {
        let names = ["", ".", "..", "-", "_linux", "linux_", ".tar.gz", "x86_64", "\u{0}", "ä-linux-x86_64", String(repeating: "linux-", count: 500)]
        for platform in [Self.linux, Self.mac] { _ = pick("", names, platform); _ = pick("linux", names, platform) }
        _ = ReleaseAssetPicker.checksumFiles(for: "", in: names)
    }
}
