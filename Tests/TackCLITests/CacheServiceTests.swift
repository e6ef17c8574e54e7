import Foundation
import TackCore
import TackKit
import Testing

/// `tack cache` as a service, in-process, where no registry is needed: what it says when there
/// is no cache, when the project's cache is not trusted, and when a tool named is not pinned.
@Suite(.ownThreads) struct CacheServiceTests {
    let entry = "hello: { url: \"https://example.com/hello-{version}\", version: \"1.0.0\" }"

    @Test func withoutACacheItSaysWhereToNameOne() throws {
        let t = try serviceSetup("tools:\n  \(entry)\n")
        do {
            _ = try CacheService(try Workspace(t.context())).connect()
            Issue.record("connected to no cache")
        } catch {
            #expect(error.message.hasPrefix("no team cache is set — add `cache: {url: oci://HOST/NAMESPACE}` to ~/.config/tack/tack.yml"), "\(error.message)")
        }
    }

    @Test func aProjectsCacheIsUsedOnlyWhenTrusted() throws {
        let t = try serviceSetup("cache: { url: \"oci://registry.example.com/team\" }\ntools:\n  \(entry)\n")
        do {
            _ = try CacheService(try Workspace(t.context())).connect()
            Issue.record("an untrusted project's cache was used")
        } catch {
            #expect(error.cause == .trust(.teamCache(file: t.sandbox.root + "/app/tack.yml", reference: "oci://registry.example.com/team")), "\(error)")
        }
        try TrustService(t.context()).trust(directory: nil, untrust: false) { _ in }
        let cache = try CacheService(try Workspace(t.context())).connect()
        #expect(cache.label.contains("registry.example.com/team"), "\(cache.label)")
    }

    @Test func pinnedToolsAreListedAndAnUnpinnedNameIsAnError() async throws {
        let t = try serviceSetup("tools:\n  \(entry)\n  world: { url: \"https://example.com/world-{version}\", version: \"1.1.0\" }\n")
        #expect(await InstallService(try Workspace(t.context())).run().status == 0)
        let service = CacheService(try Workspace(t.context()))
        let pinned = try service.pinned(only: [])
        #expect(pinned.map(\.request.name) == ["hello", "world"])
        #expect(pinned.map { $0.locked?.version.text } == ["1.0.0", "1.1.0"])
        #expect(throws: TackError("jq is not pinned here")) { _ = try service.pinned(only: ["jq"]) }
    }
}
