import BackendKinds
import TackCore
import Testing

/// Each kind's options read from a tool's mapping, recorded in the lock, and overlaid on a
/// registry's entry: one type per kind, each owning its keys.
@Suite struct BackendOptionsTests {
    func tool(_ yaml: String) throws -> ToolRequest {
        let manifest = try Manifest.decode(Array("tools:\n  t: \(yaml)\n".utf8), path: "/p/tack.yml", kind: .manifest, backends: .standard)
        return try #require(manifest.tools.first)
    }

    @Test func eachKindReadsItsOwnKeysAndTheLockRecordsThem() throws {
        let git = try tool("{ git: \"https://x/t.git\", version: \"1.0\", products: [b, a], build: \"make\", bin: [out/t] }")
        #expect(git.options.git.products == ["b", "a"] && git.options.git.build == "make" && git.options.bin == ["out/t"])
        #expect(git.options.lockRecord == ["products": "b, a", "build": "make", "bin": "out/t"])
        let sum = String(repeating: "A", count: 64)
        let url = try tool("{ url: \"https://x/t-{version}\", version: \"1.0\", checksum: \"\(sum)\", platforms: { darwin-arm64: { url: unsupported } } }")
        #expect(url.options.url.checksum == sum.lowercased())
        #expect(url.options.lockRecord == ["checksum": sum.lowercased(), "platforms.darwin-arm64.url": "unsupported"])
        let pip = try tool("{ pip: black, version: \"24.1\", extras: [d], index_url: \"https://pypi.example/simple\" }")
        #expect(pip.options.pip.extras == ["d"] && pip.options.lockRecord == ["extras": "d", "index_url": "https://pypi.example/simple"])
        let gem = try tool("{ gem: rake, version: \"13.0\", source: \"https://gems.example\" }")
        #expect(gem.options.gem.source == "https://gems.example" && gem.options.lockRecord == ["source": "https://gems.example"])
        #expect(try tool("1.0.0").options.lockRecord.isEmpty, "a plain pin records no options")
    }

    @Test func aKeyNoKindHasIsNamedWithTheNearestOne() throws {
        do {
            _ = try tool("{ git: \"https://x/t.git\", version: \"1.0\", prodcts: [a] }")
            Issue.record("an unknown key was accepted")
        } catch let error as TackError {
            #expect(error.message.contains("unknown key `prodcts` in t; did you mean `products`?"), "\(error.message)")
        }
        #expect(throws: TackError.self) { _ = try tool("{ url: \"https://x/t\", version: \"1.0\", checksum: \"nope\" }") }
        #expect(throws: TackError.self) { _ = try tool("{ url: \"https://x/t\", version: \"1.0\", versions: { url: \"https://x\" } }") }
    }
}
