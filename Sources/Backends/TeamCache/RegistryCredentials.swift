import Foundation
import TackCore

/// Where a registry's credentials come from, first match wins: `TACK_CACHE_USERNAME` and
/// `TACK_CACHE_PASSWORD` (CI); then Docker's `config.json` (`$DOCKER_CONFIG/config.json`, else
/// `~/.docker/config.json`): a credential helper named for the registry in `credHelpers`, the
/// registry's `auths` entry (`auth`, base64 of `user:password`, or `username`/`password`), the
/// default helper in `credsStore`. None: anonymous.
public struct RegistryCredentials: Sendable {
    let environment: [String: String]
    /// Runs `docker-credential-<helper> get` with the server on standard input and returns its
    /// output, or nil when the helper cannot run or has nothing.
    let helper: @Sendable (_ name: String, _ server: String) async -> String?

    public init(environment: [String: String], helper: (@Sendable (String, String) async -> String?)? = nil) {
        self.environment = environment
        self.helper = helper ?? { name, server in await RegistryCredentials.runHelper(name, server: server, environment: environment) }
    }

    public func credential(for registry: String) async -> RegistryCredential? {
        if let user = environment["TACK_CACHE_USERNAME"], !user.isEmpty, let password = environment["TACK_CACHE_PASSWORD"] {
            return RegistryCredential(username: user, password: password)
        }
        guard let config = dockerConfig() else { return nil }
        let names = RegistryCredentials.configNames(registry)
        if let helpers = config["credHelpers"] as? [String: String], let name = names.lazy.compactMap({ helpers[$0] }).first {
            return await fromHelper(name, server: registry)
        }
        if let auths = config["auths"] as? [String: Any] {
            for name in names {
                guard let entry = auths[name] as? [String: Any] else { continue }
                if let found = RegistryCredentials.decode(entry) { return found }
            }
        }
        if let store = config["credsStore"] as? String, !store.isEmpty { return await fromHelper(store, server: registry) }
        return nil
    }

    /// The keys Docker writes for a registry: the host, and for Docker Hub its historical URL.
    static func configNames(_ registry: String) -> [String] {
        var names = [registry, "https://\(registry)", "http://\(registry)", "https://\(registry)/v1/", "https://\(registry)/v2/"]
        if registry == "docker.io" || registry == "registry-1.docker.io" || registry == "index.docker.io" {
            names.append("https://index.docker.io/v1/")
        }
        return names
    }

    static func decode(_ entry: [String: Any]) -> RegistryCredential? {
        if let auth = entry["auth"] as? String, !auth.isEmpty,
           let data = Data(base64Encoded: auth), let text = String(data: data, encoding: .utf8),
           let colon = text.firstIndex(of: ":") {
            return RegistryCredential(username: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
        }
        if let user = entry["username"] as? String, let password = entry["password"] as? String, !user.isEmpty {
            return RegistryCredential(username: user, password: password)
        }
        return nil
    }

    func dockerConfig() -> [String: Any]? {
        let dir: String
        if let d = environment["DOCKER_CONFIG"], !d.isEmpty { dir = d }
        else if let home = environment["HOME"], !home.isEmpty { dir = home + "/.docker" }
        else { return nil }
        guard let bytes = try? LocalFileSystem().read(dir + "/config.json") else { return nil }
        let data = Data(bytes)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    func fromHelper(_ name: String, server: String) async -> RegistryCredential? {
        // A helper's name is a word, never a path or an option.
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }), !name.hasPrefix("-") else { return nil }
        guard let out = await helper(name, server),
              let object = (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [String: Any],
              let user = object["Username"] as? String, let secret = object["Secret"] as? String, !secret.isEmpty else { return nil }
        return RegistryCredential(username: user, password: secret)
    }

    /// `docker-credential-NAME get`, the server on standard input, found on PATH.
    static func runHelper(_ name: String, server: String, environment: [String: String]) async -> String? {
        guard let path = ExecutableSearch(environment: environment).find("docker-credential-" + name) else { return nil }
        // The server name on standard input (a pipe: it is a few bytes), the answer into a file.
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        let answer = Paths.child(CurrentProcess.temporaryDirectory, "tack-credential-\(UUID().uuidString)")
        defer { unlink(answer) }
        let out = open(answer, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        guard out >= 0, null >= 0 else {
            close(fds[0]); close(fds[1])
            if out >= 0 { close(out) }
            return nil
        }
        let pid: pid_t
        do { pid = try ChildProcess.start(path, ["get"], directory: nil, environment: environment, input: fds[0], output: out, error: null) } catch {
            close(fds[0]); close(fds[1]); close(out)
            return nil
        }
        close(fds[0])
        close(out)
        let bytes = Array(server.utf8)
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        guard await ChildProcess.wait(pid) == 0, let data = (try? LocalFileSystem().read(answer)).map({ Data($0) }) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
