import Foundation

/// A real OCI registry for the tests: CNCF Distribution (`docker-registry`, installed by
/// `./bootstrap.sh --dev`) on a free loopback port, with its storage in a temporary directory;
/// without auth, behind htpasswd basic auth, or behind a token service (Docker's bearer-token
/// flow, `Fixtures/registry_token.py`). Stopped, and its storage removed, when the value goes.
final class RegistryServer {
    enum Auth { case none, basic, token }
    static let user = "ci-bot"
    static let password = "s3cret-Pa55word"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/docker-registry") }

    let root: String
    let port: Int
    let registry = Process()
    var tokenService: Process?
    let tokenInput = Pipe()
    var tokenPort: Int?

    init(auth: Auth = .none) throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/tack-registry-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else { throw FixtureServer.FixtureFailed() }
        root = String(cString: template)
        port = try RegistryServer.freePort()
        var authConfig = ""
        switch auth {
        case .none: break
        case .basic:
            let out = try RegistryServer.capture("/usr/bin/htpasswd", ["-Bbn", RegistryServer.user, RegistryServer.password])
            try out.write(toFile: root + "/htpasswd", atomically: true, encoding: .utf8)
            authConfig = "auth:\n  htpasswd:\n    realm: tack-test\n    path: \(root)/htpasswd\n"
        case .token:
            let service = Process()
            let out = Pipe()
            service.executableURL = URL(fileURLWithPath: FixtureServer.python)
            service.arguments = [FixtureServer.script.replacingOccurrences(of: "fixtures.py", with: "registry_token.py"),
                                 root, RegistryServer.user, RegistryServer.password, "tack-test-issuer"]
            service.standardInput = tokenInput
            service.standardOutput = out
            try service.run()
            tokenService = service
            var line = Data()
            while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
            guard let p = Int(String(decoding: line, as: UTF8.self)) else { throw FixtureServer.FixtureFailed() }
            tokenPort = p
            authConfig = """
                auth:
                  token:
                    realm: http://127.0.0.1:\(p)/token
                    service: tack-test-registry
                    issuer: tack-test-issuer
                    rootcertbundle: \(root)/cert.pem

                """
        }
        let config = """
            version: 0.1
            log:
              level: error
            storage:
              filesystem:
                rootdirectory: \(root)/data
            http:
              addr: 127.0.0.1:\(port)
            \(authConfig)
            """
        try config.write(toFile: root + "/config.yml", atomically: true, encoding: .utf8)
        registry.executableURL = URL(fileURLWithPath: "/usr/bin/docker-registry")
        registry.arguments = ["serve", root + "/config.yml"]
        registry.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        FileManager.default.createFile(atPath: root + "/registry.log", contents: nil)
        registry.standardError = FileHandle(forWritingAtPath: root + "/registry.log")
        try registry.run()
        // Up when /v2/ answers at all (200, or 401 behind auth). On a loaded machine (the test
        // run keeps several end-to-end tests going at once) the registry may take seconds to
        // start: up to 60 are given, and a registry that exited is said at once.
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline {
            if (try? RegistryServer.capture("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/v2/"])).map({ $0 == "200" || $0 == "401" }) == true { return }
            guard registry.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw FixtureServer.FixtureFailed()
    }

    /// Stops the registry, keeping what it stored (`root/data`, `root/config.yml`).
    func stop() {
        guard registry.isRunning else { return }
        registry.terminate()
        registry.waitUntilDone()
    }

    deinit {
        stop()
        try? tokenInput.fileHandleForWriting.close()
        tokenService?.terminate()
        tokenService?.waitUntilDone()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The team cache URL for a namespace in this registry.
    func cacheURL(_ namespace: String = "team") -> String { "oci://127.0.0.1:\(port)/\(namespace)" }

    /// The tags a repository has (`/v2/NAME/tags/list`), asked with curl as another client would.
    func tags(_ repository: String) throws -> [String] {
        var args = ["-s", "http://127.0.0.1:\(port)/v2/\(repository)/tags/list"]
        if tokenService == nil, FileManager.default.fileExists(atPath: root + "/htpasswd") { args = ["-u", "\(RegistryServer.user):\(RegistryServer.password)"] + args }
        let out = try RegistryServer.capture("/usr/bin/curl", args)
        guard let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] else { return [] }
        return object["tags"] as? [String] ?? []
    }

    /// How many tokens the token service handed out or refused.
    func tokenRequests() throws -> Int {
        guard let tokenPort else { return 0 }
        return Int(try RegistryServer.capture("/usr/bin/curl", ["-s", "http://127.0.0.1:\(tokenPort)/count"])) ?? -1
    }

    static func freePort() throws -> Int {
        let (fd, port) = try LoopbackFileServer.bindLoopback()
        close(fd)
        return port
    }

    @discardableResult
    static func capture(_ program: String, _ args: [String], input: Data? = nil) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        if let input {
            let inp = Pipe()
            p.standardInput = inp
            try p.run()
            try inp.fileHandleForWriting.write(contentsOf: input)
            try inp.fileHandleForWriting.close()
        } else {
            try p.run()
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilDone()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
