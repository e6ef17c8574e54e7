import Foundation
import Testing

/// tack building real Swift packages with `swift build` (slow: a release build each).
@Suite(.ownThreads, .serialized) struct SwiftBuildTests {
    @Test func buildsAnExecutableProductWithItsResources() throws {
        let s = try Sandbox()
        let repo = try GitFixture.tool(in: s, name: "greet", tags: [])
        try s.write("greet/Package.swift", """
            // swift-tools-version: 5.9
            import PackageDescription
            let package = Package(
                name: "greet",
                products: [.executable(name: "greet", targets: ["greet"])],
                targets: [
                    .executableTarget(name: "greet", exclude: ["motto.txt"], resources: [.copy("greeting.txt")]),
                    .executableTarget(name: "helper"),
                ]
            )
            """)
        try s.write("greet/Sources/helper/main.swift", "print(\"an internal helper, not a product\")\n")
        try s.write("greet/Sources/greet/greeting.txt", "hello from a resource\n")
        try s.write("greet/Sources/greet/motto.txt", "read through a path compiled in\n")
        // Like protoc's include directory: a file found through a path the build compiled in.
        try s.write("greet/Sources/greet/main.swift", """
            import Foundation
            if CommandLine.arguments.dropFirst().first == "--motto" {
                let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("motto.txt")
                print(try! String(contentsOf: here, encoding: .utf8), terminator: "")
                exit(0)
            }
            let url = Bundle.module.url(forResource: "greeting", withExtension: "txt")!
            print(try! String(contentsOf: url, encoding: .utf8), terminator: "")
            """)
        try repo.git("add", ".")
        try repo.commitAndTag("1.0.0")
        // No `products:`: tack asks the package for its executable products.
        try s.write("app/tack.yml", "tools:\n  greet: { git: \"\(repo.path)\", version: 1.0.0 }\n")
        let r = try s.tack(["install"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        let bin = s.root + "/tack-home/installs/greet/1.0.0/bin"
        #expect(FileManager.default.isExecutableFile(atPath: bin + "/greet"))
        #expect(FileManager.default.fileExists(atPath: bin + "/greet_greet.resources") || FileManager.default.fileExists(atPath: bin + "/greet_greet.bundle"))
        // The build products are gone; the sources stay where the build compiled them in
        // (issue 43, item 2: a scratch path tack deleted was compiled into protoc).
        let install = s.root + "/tack-home/installs/greet/1.0.0"
        #expect(try FileManager.default.contentsOfDirectory(atPath: install).sorted() == [".tack-install.lock", "bin", "src"])
        #expect(!FileManager.default.fileExists(atPath: install + "/src/.git"))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: install + "/src/.build")) ?? []).allSatisfy { $0 == "checkouts" })
        let binary = try Data(contentsOf: URL(fileURLWithPath: bin + "/greet"))
        #expect(binary.range(of: Data("\(install)/src/Sources/greet/main.swift".utf8)) != nil)
        #expect(binary.range(of: Data(".tmp-".utf8)) == nil, "no path of the temporary build directory")
        #expect(try runProgram(bin + "/greet", ["--motto"], in: "/") == "read through a path compiled in\n")
        // Run from elsewhere: the resource bundle travels with the executable.
        let out = try runProgram(bin + "/greet", in: "/")
        #expect(out == "hello from a resource\n")
        let metadata = s.read("tack-home/installs/greet/1.0.0/.tack-install.lock") ?? ""
        #expect(metadata.contains("swift: \"Swift version "))
        #expect(metadata.contains("binaries: [\"bin/greet\"]"), "the declared product, not the helper target")

        // One install per build (issue 30, item 6): a pin naming the package's only executable
        // is the same build as the pin naming none, so neither project evicts the other's.
        try s.write("other/tack.yml", "tools:\n  greet: { git: \"\(repo.path)\", version: 1.0.0, products: [greet] }\n")
        let other = try s.tack(["install"], in: "other")
        #expect(other.status == 0, "\(other.stderr)")
        #expect(!other.stderr.contains("building"), "not built again: \(other.stderr)")
        for project in ["app", "other"] {
            let current = try s.tack(["current", "--json"], in: project)
            #expect(current.stdout.contains("\"installed\":true"), "\(project): \(current.stdout)")
        }
        #expect(try s.tack(["doctor"], in: "other").stdout.contains("differ in") == false)

        // `products:` is part of the pin: a product the package does not declare fails here
        // as on a machine without the install, listing the products there are, before building.
        try s.write("app/tack.yml", "tools:\n  greet: { git: \"\(repo.path)\", version: 1.0.0, products: [nosuch] }\n")
        let missing = try s.tack(["install"], in: "app")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("the Swift package of greet 1.0.0 has no executable product \"nosuch\" (named by `products:`); its executable products are: greet — nothing was installed"), "\(missing.stderr)")
        #expect(try runProgram(bin + "/greet", in: "/") == "hello from a resource\n", "the install is untouched")
    }

    /// The README's first example: real code no one here wrote, from the machine's git mirror
    /// of github.com (`url.<base>.insteadOf` in /etc/gitconfig, which tack honours).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/opt/swift-packages/JohnSundell/Ink.git") || ProcessInfo.processInfo.environment["TACK_NETWORK_TESTS"] == "1"))
    func inkFromGitHub() throws {
        let s = try Sandbox()
        try s.mkdir("app")
        let r = try s.tack(["use", "ink@0.6.0", "--git", "https://github.com/JohnSundell/Ink.git", "--product", "ink-cli"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.read("app/tack.yml") == "tools:\n  ink: { git: \"https://github.com/JohnSundell/Ink.git\", version: 0.6.0, products: [ink-cli] }\n")
        #expect(s.read("app/tack.lock")?.contains("tag: \"0.6.0\"") == true)
        try s.write("app/doc.md", "# Hello\n\n*tack*\n")
        let html = try s.tack(["exec", "--", "ink-cli", "doc.md"], in: "app")
        #expect(html.status == 0, "\(html.stderr)")
        #expect(html.stdout == "<h1>Hello</h1><p><em>tack</em></p>\n")
    }

}
