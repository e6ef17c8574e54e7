import TackCore
import Testing

/// The system package managers `tack bootstrap` asks and drives: what each says is
/// installed, how each is asked, and which one a machine has.
@Suite struct PackageManagerTests {
    @Test func eachManagersAnswerIsRead() {
        let asked = ["libfoo", "libbar"]
        #expect(PackageManager.apt.installed(from: "libfoo\tinstall ok installed\nlibbar\tdeinstall ok config-files\n", asked: asked) == ["libfoo"])
        #expect(PackageManager.apt.installed(from: "libfoo:amd64\tinstall ok installed\n", asked: asked) == ["libfoo"])
        #expect(PackageManager.dnf.installed(from: "libfoo\npackage libbar is not installed\n", asked: asked) == ["libfoo"])
        #expect(PackageManager.brew.installed(from: "libbar 1.2.3\n", asked: asked) == ["libbar"])
    }

    @Test func queriesAndInstallsAreArgumentListsNeverShellText() {
        let (program, args) = PackageManager.apt.queryCommand(["libfoo"])
        #expect(program == "dpkg-query" && args.last == "libfoo")
        let steps = PackageManager.apt.installCommands(["lib foo; rm -rf /"])
        #expect(steps.last?.1.last == "lib foo; rm -rf /", "a package name stays one argument")
        #expect(PackageManager.brew.installCommands(["x"]).map(\.0) == ["brew"])
    }

    @Test func theManagerIsChosenOrNamedWrongly() throws {
        #expect(try PackageManager.detect(environment: ["TACK_PACKAGE_MANAGER": "dnf"], isExecutable: { _ in false }) == .dnf)
        #expect(throws: TackError.self) { _ = try PackageManager.detect(environment: ["TACK_PACKAGE_MANAGER": "yum"], isExecutable: { _ in false }) }
        #expect(try PackageManager.detect(environment: ["PATH": "/nowhere"], isExecutable: { _ in false }) == nil)
    }
}
