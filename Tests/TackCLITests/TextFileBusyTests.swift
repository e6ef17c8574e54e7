import Backends
import Foundation
import Testing
import TackCore

/// A program tack has just written may, for a moment, be open for writing in a child another
/// install started (it inherited the descriptor and has not exec'd yet): running it then fails
/// with "Text file busy". `ChildProcess` asks again until that moment has passed.
@Suite(.ownThreads) struct TextFileBusyTests {
    @Test func aProgramStillOpenForWritingElsewhereRunsOnceItIsClosed() async throws {
        let s = try Sandbox()
        let program = s.root + "/fresh"
        try copyExecutable("/bin/true", to: program)
        // Another process holds it open for writing for a quarter of a second.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec 3>>\"$0\"; sleep 0.25", program]
        try holder.run()
        usleep(50_000)
        let r = try await ChildProcessRunner().run(program, [], directory: s.root, environment: ["PATH": "/usr/bin:/bin"], output: nil)
        #expect(r.status == 0)
        holder.waitUntilDone()
    }
}
