import Backends
import Foundation
import TackCore
import Testing

/// tack's HTTP client (libcurl) against a server on loopback, in-process: redirects followed
/// with credentials kept to their origin, and failures that say where the request ended up.
@Suite(.ownThreads) struct CurlHTTPClientTests {
    let client = CurlHTTPClient(environment: [:])

    func served(_ s: Sandbox) throws -> FixtureServer {
        try s.write("www/tool", "#!/bin/sh\necho tool\n")
        return try FixtureServer(serving: s.root + "/www")
    }

    func body(_ request: HTTPRequest, _ s: Sandbox) async throws -> String {
        let path = s.root + "/out-\(UUID().uuidString)"
        _ = try await client.download(request, to: path) { _, _ in }
        return s.read(String(path.dropFirst(s.root.count + 1))) ?? ""
    }

    @Test func redirectsAreFollowedAndCredentialsStayWithTheirOrigin() async throws {
        let s = try Sandbox()
        let server = try served(s)
        let secret = ["Authorization": "Bearer secret"]
        // The same scheme, host and port: the header goes on.
        #expect(try await body(HTTPRequest("GET", server.url("redirect/127.0.0.1/authorization"), headers: secret), s) == "Bearer secret")
        // Another host (the same server by another name): it does not.
        #expect(try await body(HTTPRequest("GET", server.url("redirect/localhost/authorization"), headers: secret), s) == "none")
        #expect(try await body(HTTPRequest("GET", server.url("redirect/localhost/redirect/127.0.0.1/authorization"), headers: secret), s) == "none")
        // What a redirected download hashes is the file, not the redirect.
        let sum = try await client.download(server.url("redirect/localhost/files/tool"), to: s.root + "/tool") { _, _ in }
        #expect(sum == Hashing.sha256(Array("#!/bin/sh\necho tool\n".utf8)))
        #expect(s.read("tool") == "#!/bin/sh\necho tool\n")
    }

    @Test func failuresSayWhereTheRequestEndedUp() async throws {
        let s = try Sandbox()
        let server = try served(s)
        await #expect(throws: HTTPFailure(.answered(status: 404, redirectedTo: nil))) {
            _ = try await client.download(server.url("files/missing"), to: s.root + "/missing") { _, _ in }
        }
        let target = server.url("files/missing").replacingOccurrences(of: "127.0.0.1", with: "localhost")
        await #expect(throws: HTTPFailure(.answered(status: 404, redirectedTo: target))) {
            _ = try await client.download(server.url("redirect/localhost/files/missing"), to: s.root + "/missing") { _, _ in }
        }
        await #expect(throws: HTTPFailure(.tooManyRedirects(url: server.url("loop"), limit: 10))) {
            _ = try await client.get(server.url("loop"))
        }
        await #expect(throws: HTTPFailure(.largerThan(bytes: 4))) {
            _ = try await client.send(HTTPRequest("GET", server.url("files/tool")), limit: 4)
        }
        await #expect(throws: HTTPFailure(.notHTTP(url: "ftp://127.0.0.1/tool"))) {
            _ = try await client.send(HTTPRequest("GET", "ftp://127.0.0.1/tool"), limit: 4)
        }
    }

    /// Nothing listens: one line naming the host, not a crash or a hang.
    @Test func aRefusedConnectionNamesTheHost() async throws {
        do {
            _ = try await client.get("http://127.0.0.1:1/x")
            Issue.record("a request to a closed port succeeded")
        } catch {
            guard case .unreachable(let host, _) = error.reason else { Issue.record("\(error.reason)"); return }
            #expect(host == "127.0.0.1" && error.status == nil && error.isTransient && error.message.hasPrefix("cannot reach 127.0.0.1: "), "\(error.message)")
        }
    }
}
