@testable import Backends
import BackendKinds
import Foundation
import TackCore
import Testing

/// What the git, asdf and swift backends read from their tools, in-process.
@Suite(.ownThreads) struct BackendOutputTests {
    @Test func swiftsVersionAndTargetAreRead() {
        let out = "Swift version 6.0.3 (swift-6.0.3-RELEASE)\nTarget: x86_64-unknown-linux-gnu\n"
        #expect(GitBackend.toolchainLine(out) == "Swift version 6.0.3 (swift-6.0.3-RELEASE)")
        #expect(GitBackend.targetLine(out) == "x86_64-unknown-linux-gnu")
        #expect(GitBackend.toolchainLine("nothing here") == "unknown" && GitBackend.targetLine("Target:   \n") == nil)
    }

    @Test func executableProductsComeFromThePackageDescription() {
        let json = """
            warning: something first
            {"name": "P", "products": [
              {"name": "tool", "type": {"executable": null}},
              {"name": "Lib", "type": {"library": ["automatic"]}},
              {"name": "another", "type": {"executable": null}}]}
            """
        #expect(GitBackend.executableProducts(json) == ["another", "tool"])
        #expect(GitBackend.executableProducts("not json").isEmpty)
    }

    @Test func pluginDirectoriesAndPlatformListsAreStable() {
        #expect(AsdfBackend.key("https://github.com/asdf-vm/asdf-ruby.git") == AsdfBackend.key("https://github.com/asdf-vm/asdf-ruby.git"))
        #expect(AsdfBackend.key("https://github.com/asdf-vm/asdf-ruby.git") != AsdfBackend.key("https://github.com/asdf-vm/asdf-python.git"))
        #expect(SwiftBackend.list(["ubuntu2204": ["x86_64", "aarch64"], "macos": ["x86_64"], "debian12": ["x86_64"]], arch: "x86_64") == "debian12, ubuntu2204")
        #expect(SwiftBackend.list(["ubuntu2204": ["x86_64"]], arch: "aarch64") == "no Linux platform on aarch64")
    }
}
