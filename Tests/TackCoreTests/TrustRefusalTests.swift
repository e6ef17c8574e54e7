import Testing
@testable import TackCore

/// Each trust refusal in the words a user reads, said in one place (`TrustRefusal.message`):
/// the command tests match the case, and this holds the words.
@Suite struct TrustRefusalTests {
    @Test func eachRefusalSaysWhatAndHowToLiftIt() {
        let file = "/home/me/app/tack.yml"
        let origin = Origin(kind: .manifest, file: file, line: 2, column: 3)
        let cases: [(TrustRefusal, String)] = [
            (.runsCode(what: "hello has a `build:` command, which would run on this machine", origin: origin),
             "hello has a `build:` command, which would run on this machine, and ~/app/tack.yml is not trusted (set by ~/app/tack.yml:2) — read it, then run `tack trust ~/app`; nothing was fetched or installed"),
            (.environmentNotApplied(file: file),
             "~/app/tack.yml is not trusted, so its env and path: pins were not applied — read it, then run `tack trust ~/app`"),
            (.bootstrapCommands(file: file),
             "~/app/tack.yml has `bootstrap.run` commands and is not trusted — read them, then run `tack trust ~/app`; nothing was changed"),
            (.teamCache(file: file, reference: "oci://registry.example.com/team"),
             "~/app/tack.yml names the team cache oci://registry.example.com/team, but the file is not trusted — read it, then run `tack trust ~/app`"),
            (.pushedBuilds(file: file),
             "nothing was pushed: ~/app/tack.yml pins the builds here and is not trusted, and tack shares only builds of trusted pins — read it, then run `tack trust ~/app`"),
        ]
        for (refusal, words) in cases {
            #expect(refusal.message(home: "/home/me") == words)
            #expect(refusal.file == file)
            let error = TackError(refusal, home: "/home/me")
            #expect(error.message == words && error.cause == .trust(refusal))
        }
    }
}
