@testable import Backends
import BackendKinds
import Foundation
import TackCore
import Testing

/// What the gem backend reads from `gem`'s output, in-process.
@Suite(.ownThreads) struct GemOutputTests {
    @Test func searchAndExplainOutputAreRead() {
        let search = "rake (13.2.1, 13.1.0 x86_64-linux, 12.3.3)\nrake-compiler (1.2.5)\n"
        #expect(GemServer.parseSearch(search, gem: "rake").map(\.text).sorted() == ["12.3.3", "13.1.0", "13.2.1"])
        let explain = "Gems to install:\n  nokogiri-1.16.0-x86_64-linux\n  racc-1.7.3\n  mini_portile2-2.8.5\n"
        let gems = GemPin.parseExplain(explain)
        #expect(gems.map(\.name) == ["nokogiri", "racc", "mini_portile2"])
        #expect(gems[0].version == "1.16.0-x86_64-linux" && gems[0].file == "nokogiri-1.16.0-x86_64-linux.gem")
        #expect(GemPin.splitPlatform("1.16.0-x86_64-linux") == ("1.16.0", "x86_64-linux"))
        #expect(GemPin.splitPlatform("1.7.3") == ("1.7.3", nil))
        #expect(GemPin.pinned(stem: "net-http-0.4.1")?.name == "net-http")
    }

    @Test func eachPlatformHasItsRubyGemsName() {
        #expect(GemPlatforms.gemPlatform(Platform(os: "darwin", arch: "arm64")) == "arm64-darwin")
        #expect(GemPlatforms.gemPlatform(Platform(os: "darwin", arch: "x86_64")) == "x86_64-darwin")
        #expect(GemPlatforms.gemPlatform(Platform(os: "linux", arch: "arm64")) == "aarch64-linux")
        #expect(GemPlatforms.gemPlatform(Platform(os: "linux", arch: "x86_64")) == "x86_64-linux")
        #expect(PipPlatforms.uvTarget(Platform(os: "linux", arch: "arm64")) == "aarch64-unknown-linux-gnu")
    }
}
