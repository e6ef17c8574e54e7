import Foundation
import Testing

/// Hardening, third pass (issue 44): what was added since the last attack holds under hostile
/// servers, files and values. Each test is one item, end to end.
@Suite(.ownThreads) struct HardeningThirdPassTests {
    // MARK: 1. a path the user names is written through, never replaced, unless it is a file

    @Test func sbomOutputWritesThroughWhatIsNotARegularFile() throws {
        let s = try SBOMTests().setUp()
        // A link the user chose: the file it points at gets the document; the link stays.
        try s.write("shared/bom.json", "old\n")
        try FileManager.default.createSymbolicLink(atPath: s.root + "/app/bom.json", withDestinationPath: s.root + "/shared/bom.json")
        let linked = try s.tack(["sbom", "--output", "bom.json"], in: "app")
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: s.root + "/app/bom.json") == s.root + "/shared/bom.json")
        #expect(s.read("shared/bom.json")?.contains("\"bomFormat\": \"CycloneDX\"") == true || s.read("shared/bom.json")?.contains("\"bomFormat\":\"CycloneDX\"") == true,
                "\(s.read("shared/bom.json") ?? "")")
        // A FIFO: a reader gets the document, and the FIFO is still one.
        let fifo = s.root + "/app/bom.fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let out = Pipe()
        reader.standardOutput = out
        try reader.run()
        let piped = try s.tack(["sbom", "--output", "bom.fifo"], in: "app")
        let received = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilDone()
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(received.contains("CycloneDX"), "\(received)")
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "the FIFO was replaced")
        // /dev/stdout (a link to /proc/self/fd/1, a CI idiom): the document reaches stdout.
        let before = try FileManager.default.destinationOfSymbolicLink(atPath: "/dev/stdout")
        // (A process: in-process, /dev/stdout would be the test runner's.)
        let stdout = try s.tackProcess(["sbom", "--output", "/dev/stdout"], in: "app")
        #expect(stdout.status == 0, "\(stdout.stderr)")
        #expect(stdout.stdout.contains("CycloneDX"), "\(stdout.stdout)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/dev/stdout") == before)
        // A device: written to, not replaced.
        let null = try s.tack(["sbom", "--output", "/dev/null"], in: "app")
        #expect(null.status == 0, "\(null.stderr)")
        #expect(lstat("/dev/null", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
        // A regular file is still replaced whole, atomically.
        try s.write("app/plain.json", String(repeating: "x", count: 100_000))
        #expect(try s.tack(["sbom", "--output", "plain.json"], in: "app").status == 0)
        #expect(s.read("app/plain.json")?.hasPrefix("{") == true)
    }

    // MARK: 3. every numeric setting is read through one bounded parser

    @Test func hostileNumericSettingsNeverCrash() throws {
        let s = try Sandbox()
        try s.mkdir("www")
        try FixtureServer.archive("tar.gz", s.root + "/www/flat-1.0.0.tar.gz", version: "1.0.0")
        let server = try FixtureServer(serving: s.root + "/www")
        try s.write("app/tack.yml", """
            tools:
              flat: { url: "\(server.url("files/flat-{version}.tar.gz"))", version: 1.0.0, bin: "shellcheck-v{version}/shellcheck" }

            """)
        let variables = ["TACK_HTTP_TIMEOUT", "TACK_CACHE_TIMEOUT", "TACK_HTTP_MIN_RATE", "TACK_PROGRESS_INTERVAL",
                         "TACK_UNPACK_MAX_BYTES", "TACK_UNPACK_MAX_ENTRIES", "TACK_JOBS", "TACK_MIN_RELEASE_AGE"]
        // Huge (the trap was 9.2e15 and up), negative, fractional, NaN and non-numeric; the
        // parser's own unit cases cover the rest (NumericSettingTests).
        let values = ["9.3e15", "-5", "0.25", "nan", "abc"]
        var n = 0
        for variable in variables {
            for value in values {
                n += 1
                // A store of its own each time, so the download (and its limits) really runs.
                let r = try s.tack(["install"], in: "app", env: [variable: value, "TACK_HOME": s.root + "/home-\(n)"])
                #expect(r.status == 0 || r.status == 1, "\(variable)=\(value): status \(r.status): \(r.stderr)")
                #expect(!r.stderr.contains("Fatal error"), "\(variable)=\(value): \(r.stderr)")
                if r.status == 1 {
                    // Only what cannot be read as a setting fails, saying which.
                    #expect(r.stderr.contains(variable), "\(variable)=\(value): \(r.stderr)")
                }
            }
        }
        withExtendedLifetime(server) {}
    }

    // MARK: 6. a FIFO where a file should be is refused, never waited on

    @Test func aFIFOWhereTackReadsAFileIsRefusedNotWaitedOn() throws {
        let s = try Sandbox()
        try s.write("app/tack.yml", "tools:\n  jq: { url: \"https://example.com/jq-{version}\", version: 1.7.1 }\n")
        #expect(mkfifo(s.root + "/app/tack.lock", 0o644) == 0)
        let tack = try Sandbox.binary()
        let dir = (tack as NSString).deletingLastPathComponent
        for (program, args) in [(tack, ["sbom"]), (tack, ["current"]), (dir + "/tack-front", ["current"]), (tack, ["install"]),
                                (tack, ["lock", "--verify"]), (tack, ["exec", "--", "true"])] {
            // A hang shows as timeout's 124.
            let r = try s.run("/usr/bin/timeout", ["20", program] + args, in: "app")
            #expect(r.status == 1, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("tack.lock") && r.stderr.contains("not a regular file"), "\(args): \(r.stderr)")
        }
    }

    // MARK: 10. nothing tack removes or creates in TACK_HOME follows a link out of it

    @Test func pruneAndUninstallNeverFollowALinkOutOfTheStore() throws {
        let s = try Sandbox()
        // Someone else's directory, linked in where a tool's installs would be.
        try s.write("precious/1.0.0/keep.txt", "mine\n")
        try s.write("precious/.tmp-1.0.0-999999/also.txt", "mine too\n")
        try s.mkdir("tack-home/installs")
        try FileManager.default.createSymbolicLink(atPath: s.root + "/tack-home/installs/precious", withDestinationPath: s.root + "/precious")
        try s.mkdir("app")
        let prune = try s.tack(["prune"], in: "app")
        #expect(prune.status == 0, "\(prune.stderr)")
        let uninstall = try s.tack(["uninstall", "precious@1.0.0"], in: "app")
        #expect(uninstall.status != 0)
        #expect(s.read("precious/1.0.0/keep.txt") == "mine\n")
        #expect(s.read("precious/.tmp-1.0.0-999999/also.txt") == "mine too\n")
        // A dangling link where a state lock goes: tack creates nothing at its target.
        try s.mkdir("tack-home/state/locks")
        try FileManager.default.createSymbolicLink(atPath: s.root + "/tack-home/state/trust.lock", withDestinationPath: s.root + "/outside-trust")
        try s.write("app/tack.yml", "tools: {}\nenv:\n  X: y\n")
        _ = try s.tack(["trust"], in: "app")
        #expect(!s.exists("outside-trust"), "a lock file was created through a link")
    }

    // MARK: 11. an info.json over the read limit is said as such

    @Test func anArtifactBundleWhoseInfoIsTooLargeNamesTheLimit() throws {
        let (s, server) = try ArtifactBundleTests().setUp("huge-info")
        try ArtifactBundleTests().manifest(s, server)
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("has an info.json tack will not read: the file is 2.0 MiB; tack reads files of at most 1.0 MiB"), "\(r.stderr)")
        #expect(!r.stderr.contains("no info.json"), "\(r.stderr)")
    }

    // MARK: 8. a checksum file that lists one name twice is ambiguous unless paths tell

    @Test func aChecksumFileWithTwoHashesForOneNameIsRefusedNamingBothLines() throws {
        let s = try Sandbox()
        try s.mkdir("www/linux")
        try s.mkdir("www/darwin")
        try FixtureServer.archive("tar.gz", s.root + "/www/linux/flat-1.0.0.tar.gz", version: "1.0.0")
        try FixtureServer.archive("tar.gz", s.root + "/www/darwin/flat-1.0.0.tar.gz", version: "2.0.0")
        let linux = try sha256(s.root + "/www/linux/flat-1.0.0.tar.gz"), darwin = try sha256(s.root + "/www/darwin/flat-1.0.0.tar.gz")
        let server = try FixtureServer(serving: s.root + "/www")
        func project(_ sums: String) throws {
            try s.write("www/SHA256SUMS", sums)
            try s.write("app/tack.yml", """
                tools:
                  flat: { url: "\(server.url("static/linux/flat-{version}.tar.gz"))", version: 1.0.0, bin: "shellcheck-v{version}/shellcheck", checksums: { url: "\(server.url("static/SHA256SUMS"))" } }

                """)
        }
        // Both lines name the bare file: which one this download is, nothing says.
        try project("\(darwin)  flat-1.0.0.tar.gz\n\(linux)  flat-1.0.0.tar.gz\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("lists flat-1.0.0.tar.gz more than once with different hashes (`\(darwin)  flat-1.0.0.tar.gz` and `\(linux)  flat-1.0.0.tar.gz`)"), "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/flat/1.0.0"))
        // Paths that tell them apart: the download's own line is used.
        try project("\(darwin)  darwin/flat-1.0.0.tar.gz\n\(linux)  ./linux/flat-1.0.0.tar.gz\n")
        let ok = try s.tack(["install"], in: "app")
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try s.tack(["exec", "--", "shellcheck"], in: "app").stdout == "shellcheck 1.0.0\n")
    }

    // MARK: 2. a password in a URL reaches no message, trace or bill of materials

    @Test func aPasswordInAURLIsNeverPrinted() throws {
        let s = try Sandbox()
        try s.mkdir("www")
        try FixtureServer.archive("tar.gz", s.root + "/www/flat-1.0.0.tar.gz", version: "1.0.0")
        let server = try FixtureServer(serving: s.root + "/www")
        let secret = "s3cr3t-Pa55"
        let base = server.url("files/").replacingOccurrences(of: "http://", with: "http://user:\(secret)@")
        func pin(_ file: String) throws {
            try s.write("app/tack.yml", "tools:\n  flat: { url: \"\(base)\(file)\", version: 1.0.0, bin: \"shellcheck-v{version}/shellcheck\" }\n")
        }
        var outputs: [String] = []
        // Failing: a file that is not there (plainly and with -v).
        try pin("nothing-{version}.tar.gz")
        for args in [["install"], ["-v", "install"]] {
            let r = try s.tack(args, in: "app")
            #expect(r.status == 1)
            #expect(r.stderr.contains("***@127.0.0.1"), "\(args): the host is still said: \(r.stderr)")
            outputs += [r.stdout, r.stderr]
        }
        // Succeeding, then every command that shows what is pinned.
        try pin("flat-{version}.tar.gz")
        for args in [["-v", "install"], ["lock", "--verify"], ["current", "--json"], ["ls", "--json"], ["sbom"], ["sbom", "--format", "spdx"], ["doctor"], ["outdated"]] {
            let r = try s.tack(args, in: "app")
            outputs += [r.stdout, r.stderr]
        }
        for (i, text) in outputs.enumerated() {
            #expect(!text.contains(secret), "output \(i) says the password: \(text)")
        }
        withExtendedLifetime(server) {}
    }

    // MARK: 5. a minisign signature binds the file it was made for

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/minisign"), "needs minisign: ./bootstrap.sh --dev"))
    func anOlderReleaseAndItsSignatureServedAsANewerOneAreRefused() throws {
        let f = try SignatureTests().setUp()
        let s = f.s
        let (key, _) = try f.minisignKey("publisher")
        // The publisher signs 1.0.0 (minisign's trusted comment names the file).
        try FixtureServer.archive("tar.gz", s.root + "/www/flat-1.0.0.tar.gz", version: "1.0.0")
        try f.run(["minisign", "-S", "-s", s.root + "/publisher.key", "-m", s.root + "/www/flat-1.0.0.tar.gz", "-x", s.root + "/www/flat-1.0.0.tar.gz.minisig"])
        // A hostile mirror serves that file and its signature at 2.0.0's URLs.
        try FileManager.default.copyItem(atPath: s.root + "/www/flat-1.0.0.tar.gz", toPath: s.root + "/www/flat-2.0.0.tar.gz")
        try FileManager.default.copyItem(atPath: s.root + "/www/flat-1.0.0.tar.gz.minisig", toPath: s.root + "/www/flat-2.0.0.tar.gz.minisig")
        try s.write("app/tack.yml", "tools:\n  flat:\n    url: \"\(f.server.url("files/flat-{version}.tar.gz"))\"\n    version: 2.0.0\n    bin: shellcheck-v{version}/shellcheck\n    minisign: \"\(key)\"\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 1)
        #expect(r.stderr.contains("it was made for \"flat-1.0.0.tar.gz\", not \"flat-2.0.0.tar.gz\""), "\(r.stderr)")
        #expect(!s.exists("tack-home/installs/flat/2.0.0"))
        #expect(!s.exists("app/tack.lock") || !(s.read("app/tack.lock") ?? "").contains("sha256"))
        // 1.0.0 itself, as signed, installs.
        try s.write("app/tack.yml", "tools:\n  flat:\n    url: \"\(f.server.url("files/flat-{version}.tar.gz"))\"\n    version: 1.0.0\n    bin: shellcheck-v{version}/shellcheck\n    minisign: \"\(key)\"\n")
        let ok = try s.tack(["install"], in: "app")
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    // MARK: 9. a publication date tack cannot read holds the version back, said once

    // (An empty date is captured only by a `published` group that allows one; this index's
    // regex, as the registry's, does not, and the version is then undated.)
    @Test(arguments: ["2026-13-01", "yesterday", "1700000000"])
    func anUnreadablePublicationDateCountsAsJustPublished(_ date: String) throws {
        let (s, server) = try ReleaseAgeTests().setUp()
        try s.write("www/releases.json", """
            [{"id": 2, "tag_name": "v1.1.0", "published_at": "\(date)", "assets": []},
             {"id": 1, "tag_name": "v1.0.0", "published_at": "\(ReleaseAgeTests.iso(daysAgo: 30))", "assets": []}]

            """)
        try ReleaseAgeTests().manifest(s, server, version: "~> 1.0")
        let r = try s.tack(["lock"], in: "app")
        #expect(r.status == 0, "\(date): \(r.stderr)")
        #expect(ReleaseAgeTests().locked(s) == "1.0.0", "\(date): \(s.read("app/tack.lock") ?? "")")
        #expect(r.stderr.contains("warning: hello 1.1.0's publication date in its version index is \"\(date)\", which tack cannot read"), "\(date): \(r.stderr)")
        #expect(r.stderr.components(separatedBy: "warning:").count == 2, "said once: \(r.stderr)")
    }

    // MARK: 4. each kind of small document has a cap, streamed and stopped there

    @Test func oversizedSignaturesChecksumFilesAndIndexesAreStoppedAtTheirCaps() throws {
        let f = try SignatureTests().setUp()
        let s = f.s
        // A signature of 2 MiB (a hostile server's would be 600 MB): stopped at 1 MiB.
        try s.write("www/" + SignatureTests.archive + ".minisig", String(repeating: "x", count: 2 << 20))
        let (key, _) = (try? f.minisignKey("publisher")) ?? ("RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3", "")
        try f.manifest("    minisign: \"\(key)\"\n")
        let sig = try s.tack(["install"], in: "app")
        #expect(sig.status == 1)
        #expect(sig.stderr.contains("the answer is larger than 1.0 MiB, the most tack reads of a signature"), "\(sig.stderr)")
        // A checksum file of 17 MiB: stopped at 16 MiB.
        try s.write("www/SHA256SUMS", String(repeating: "0", count: 17 << 20))
        try f.manifest("    checksums: { url: \"\(f.server.url("files/SHA256SUMS"))\" }\n")
        let sums = try s.tack(["install"], in: "app")
        #expect(sums.status == 1)
        #expect(sums.stderr.contains("the most tack reads of a checksum file"), "\(sums.stderr)")
        // A version index over TACK_MAX_INDEX_BYTES: named with its variable.
        try s.write("www/versions.txt", String(repeating: "v1.0.0\n", count: 20_000))
        try s.write("app/tack.yml", "tools:\n  shellcheck:\n    url: \"\(f.url)\"\n    version: \"~> 0.10\"\n    bin: shellcheck-v{version}/shellcheck\n    versions: { url: \"\(f.server.url("files/versions.txt"))\", regex: 'v([0-9.]+)' }\n")
        let index = try s.tack(["install"], in: "app", env: ["TACK_MAX_INDEX_BYTES": "65536"])
        #expect(index.status == 1)
        #expect(index.stderr.contains("the most tack reads of a version index or an API's answer (TACK_MAX_INDEX_BYTES raises it)"), "\(index.stderr)")
        #expect(!s.exists("tack-home/installs/shellcheck"))
    }

    @Test func anUnreadableUploadTimeOnPyPIsAPICountsAsJustPublished() throws {
        let s = try Sandbox()
        let dists = s.root + "/dists"
        try s.mkdir("dists")
        for v in ["1.0.0", "1.1.0"] {
            #expect(try FixturePython.run([FixtureServer.script, "wheel", "greet", v, dists]).status == 0)
        }
        #expect(try FixturePython.run([FixtureServer.script, "simple", dists]).status == 0)
        try s.write("dists/pypi/greet/json", #"{"info": {"name": "greet"}, "releases": {"1.0.0": [{"upload_time_iso_8601": ""# + ReleaseAgeTests.iso(daysAgo: 40)
            + #""}], "1.1.0": [{"upload_time_iso_8601": "yesterday"}]}}"#)
        let server = try FixtureServer(serving: dists)
        s.environment["PATH"] = "/usr/bin:/bin"
        try s.write("app/tack.yml", "min_release_age: 1d\ntools:\n  greet: { pip: greet, version: \"~> 1.0\", index_url: \"\(server.url("static/simple"))\" }\n")
        let r = try s.tack(["lock"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("app/tack.lock")?.contains("version: \"1.0.0\"") == true, "\(s.read("app/tack.lock") ?? "")")
        #expect(r.stderr.contains("warning: greet 1.1.0's publication date in its version index is \"yesterday\", which tack cannot read"), "\(r.stderr)")
        withExtendedLifetime(server) {}
    }
}
