import Foundation
import Testing

/// The shell scripts in the repository pass shellcheck (installed by `./bootstrap.sh --dev`).
@Suite struct ScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    @Test(arguments: ["bootstrap.sh", "bench/run", "Fuzz/run", ".ci/run"])
    func shellcheck(_ script: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["shellcheck", Self.repository + "/" + script]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "shellcheck \(script) (missing? run ./bootstrap.sh --dev):\n\(text)")
    }

    @Test func bootstrapHelp() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.repository + "/bootstrap.sh")
        p.arguments = ["--help"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(text.hasPrefix("Usage: ./bootstrap.sh"))
    }
}
