import Foundation
import Testing
import TackCore
import TackKit

/// A backend added from outside tack's sources (`ToyKind`, `ToyBackend` beside this file),
/// registered by one line, goes through every walk a built-in backend does: the manifest
/// reads its keys, the lock writes and reads its fields, the factory makes its backend, the
/// installer installs it, trust refuses code it would run, and `tack sbom` describes it.
@Suite(.ownThreads) struct ToyBackendTests {
    /// The one registration line.
    static let backends = BackendCatalog.standard.adding(ToyKind())

    func context(_ sandbox: Sandbox, backends: BackendCatalog = Self.backends) -> (Context, Notices) {
        let notices = Notices()
        let settings = Settings(environment: sandbox.environment, cwd: sandbox.root + "/app", fs: LocalFileSystem(), backends: backends)
        return (Context(settings: settings, notify: { notices.add($0) }, defaultJobs: 2), notices)
    }

    @Test func aToyIsPinnedLockedInstalledAndDescribed() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("app/tack.yml", "tools:\n  blocks: { toy: blocks, version: \"~> 1.0\", flavour: sweet }\n")
        let (context, notices) = context(sandbox)
        try TrustService(context).trust(directory: nil, untrust: false) { _ in }
        let report = await InstallService(try Workspace(context)).run()
        #expect(report.status == 0, "\(notices.problems)")
        #expect(report.summary.installed == 1)

        let lock = try #require(sandbox.read("app/tack.lock"))
        #expect(lock.contains("backend: \"toy\"") && lock.contains("source: \"blocks\"") && lock.contains("flavour: \"sweet\""), "\(lock)")
        #expect(lock.contains("toy-digest: \"\(ToyShop.digest("stacking more blocks"))\""), "\(lock)")
        let program = sandbox.root + "/tack-home/installs/blocks/1.2.0/bin/blocks"
        #expect(try runProgram(program).trimmingCharacters(in: .whitespacesAndNewlines) == "stacking more blocks, sweet")

        // The lock and the install record, read back with the toy's own field: nothing to do.
        let again = await InstallService(try Workspace(context)).run()
        #expect(again.status == 0 && again.summary.already == 1, "\(notices.problems)")

        let bom = try SBOMService(context).billOfMaterials()
        let toy = try #require(bom.components.first)
        #expect(toy.purl == "pkg:toy/blocks@1.2.0" && toy.backend == "toy")
        #expect(toy.hashes == [BillOfMaterials.Hash(of: "blocks", sha256: ToyShop.digest("stacking more blocks"))])
        #expect(toy.verification == Verification(.trustOnFirstUse, "the toy shop's digest when first locked"))
    }

    @Test func itsKeysAreItsOwn() throws {
        func decode(_ yml: String, _ backends: BackendCatalog = Self.backends) throws -> Manifest {
            try Manifest.decode(Array(yml.utf8), path: "/p/tack.yml", kind: .manifest, backends: backends)
        }
        let toy = try decode("tools:\n  kite: { toy: kite, flavour: sour }\n").tools[0]
        #expect(toy.source.backend == "toy" && toy.source.identity == "kite")
        #expect(toy.options[ToyOptions.self].flavour == "sour" && toy.options.lockRecord == ["flavour": "sour"])
        #expect(toy.source.kind?.installRound == 0 && toy.source.kind?.builds == false)

        let elsewhere = #expect(throws: TackError.self) { try decode("tools:\n  black: { pip: black, flavour: sour }\n") }
        #expect(elsewhere?.message == "/p/tack.yml:2:24: `flavour` applies to toy tools, but black comes from pip")
        let noShop = #expect(throws: TackError.self) { try decode("tools:\n  yoyo: { toy: yoyo }\n") }
        #expect(noShop?.message == "/p/tack.yml:2:16: the toy shop has no \"yoyo\"")
        // Without its registration, tack has no such key.
        let unregistered = #expect(throws: TackError.self) { try decode("tools:\n  kite: { toy: kite }\n", .standard) }
        #expect(unregistered?.message.hasPrefix("/p/tack.yml:2:11: unknown key `toy` in kite") == true, "\(unregistered?.message ?? "")")
    }

    /// What the kind says runs code is refused from a file that is not trusted.
    @Test func codeItWouldRunNeedsTrust() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("app/tack.yml", "tools:\n  kite: { toy: kite, flavour: spicy }\n")
        let (context, notices) = context(sandbox)
        let report = await InstallService(try Workspace(context)).run()
        #expect(report.status != 0)
        let refusal = TrustRefusal.runsCode(what: "kite is spicy, which runs the toy shop's recipe on this machine",
                                            origin: Origin(kind: .manifest, file: sandbox.root + "/app/tack.yml", line: 2, column: 3))
        #expect(notices.failures.map(\.cause) == [.trust(refusal)], "\(notices.failures)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/tack-home/installs/kite"))
    }
}
