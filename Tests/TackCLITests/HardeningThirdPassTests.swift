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
        reader.waitUntilExit()
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(received.contains("CycloneDX"), "\(received)")
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "the FIFO was replaced")
        // /dev/stdout (a link to /proc/self/fd/1, a CI idiom): the document reaches stdout.
        let before = try FileManager.default.destinationOfSymbolicLink(atPath: "/dev/stdout")
        let stdout = try s.tack(["sbom", "--output", "/dev/stdout"], in: "app")
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
}
