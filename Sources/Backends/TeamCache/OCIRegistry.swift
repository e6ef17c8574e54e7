import Foundation
import BackendKinds
import TackCore

/// What went wrong talking to a registry. `transient`: it may work later (down, slow, 5xx),
/// so tack builds locally instead; otherwise the registry answered and said no.
public struct RegistryError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var transient: Bool
    public init(_ message: String, transient: Bool = false) {
        self.message = message
        self.transient = transient
    }
    public var description: String { message }
}

/// A client of the OCI distribution API for one registry: manifests by tag, blobs by digest
/// (verified while they stream), uploads monolithic or chunked, and the registries' auth:
/// the bearer-token challenge (`WWW-Authenticate: Bearer realm=…,service=…,scope=…`) and basic
/// auth. Credentials go only over HTTPS or to a loopback registry, and never into a message.
public final class OCIRegistry: @unchecked Sendable {
    public static let manifestType = "application/vnd.oci.image.manifest.v1+json"

    let host: String
    let scheme: String
    let transport: any HTTPTransport
    /// Asked once, when a registry first asks for credentials.
    let credentials: @Sendable () async -> RegistryCredential?
    /// Attempts for one request when the registry is down or answers 5xx.
    let attempts: Int
    /// Uploads larger than this go in chunks (PATCH, then PUT).
    let chunkSize: Int
    private let lock = NSLock()
    /// `Authorization` values by scope (`repository:acme/x:pull`), or by host for basic auth.
    private var authorizations: [String: String] = [:]
    private var looked: RegistryCredential??
    /// Set when the registry stayed unreachable (or kept failing) through every attempt: the
    /// rest of this run does not wait for it again, tool after tool.
    private var down: RegistryError?

    public init(host: String, scheme: String, transport: any HTTPTransport, credentials: @escaping @Sendable () async -> RegistryCredential?,
                attempts: Int = 3, chunkSize: Int = 64 << 20) {
        self.host = host
        self.scheme = scheme
        self.transport = transport
        self.credentials = credentials
        self.attempts = max(1, attempts)
        self.chunkSize = max(1, chunkSize)
    }

    var base: String { "\(scheme)://\(host)" }
    /// Credentials may be sent: HTTPS, or a registry on this machine.
    var mayAuthenticate: Bool { scheme == "https" || CacheReference.isLoopback(host: CacheReference.hostName(of: host)) }

    // MARK: Manifests

    /// The manifest a tag names, with its digest (checked against its bytes), or nil when the
    /// registry has no such tag.
    public func manifest(_ repository: String, tag: String) async throws(RegistryError) -> (digest: String, bytes: [UInt8])? {
        let response = try await request(HTTPRequest("GET", "\(base)/v2/\(repository)/manifests/\(tag)", headers: ["Accept": OCIRegistry.manifestType]),
                                         repository: repository, push: false, limit: 4 << 20)
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw unexpected(response, "reading the manifest \(repository):\(tag)") }
        let digest = "sha256:" + SHA256Digest.hex(response.body)
        if let said = response.header("Docker-Content-Digest"), said.hasPrefix("sha256:"), said != digest {
            throw RegistryError("the registry's manifest for \(repository):\(tag) does not match its digest (\(said) said, \(digest) received)")
        }
        return (digest, response.body)
    }

    /// Stores a manifest under `tag`; returns its digest.
    @discardableResult
    public func putManifest(_ repository: String, tag: String, bytes: [UInt8]) async throws(RegistryError) -> String {
        let response = try await request(HTTPRequest("PUT", "\(base)/v2/\(repository)/manifests/\(tag)",
                                                     headers: ["Content-Type": OCIRegistry.manifestType], body: .bytes(bytes)),
                                         repository: repository, push: true)
        guard response.status == 201 || response.status == 200 else { throw unexpected(response, "storing the manifest \(repository):\(tag)") }
        return "sha256:" + SHA256Digest.hex(bytes)
    }

    // MARK: Blobs

    public func hasBlob(_ repository: String, digest: String) async throws(RegistryError) -> Bool {
        let response = try await request(HTTPRequest("HEAD", "\(base)/v2/\(repository)/blobs/\(digest)"), repository: repository, push: true)
        switch response.status {
        case 200: return true
        case 404: return false
        default: throw unexpected(response, "checking for the blob \(digest)")
        }
    }

    /// Streams a blob into `destination`, verifying its digest while it arrives; a mismatch
    /// removes the file and throws.
    public func blob(_ repository: String, digest: String, to destination: String, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(RegistryError) {
        guard digest.hasPrefix("sha256:") else { throw RegistryError("the blob \(digest) is not a SHA-256 digest; tack verifies only those") }
        var attempt = 0
        var reauthenticated = false
        while true {
            attempt += 1
            var req = HTTPRequest("GET", "\(base)/v2/\(repository)/blobs/\(digest)")
            if let auth = authorization(repository, push: false) { req.headers["Authorization"] = auth }
            do {
                let sum = try await transport.download(req, to: destination, progress: progress)
                guard "sha256:" + sum == digest else {
                    try? LocalFileSystem().remove(destination)
                    throw RegistryError("the blob \(digest) of \(repository) arrived as sha256:\(sum) — refused")
                }
                return
            } catch let failure as HTTPFailure {
                try? LocalFileSystem().remove(destination)
                if failure.status == 401, !reauthenticated {
                    // The token expired, or this is the first request: ask, then try again.
                    reauthenticated = true
                    _ = try await request(HTTPRequest("HEAD", "\(base)/v2/\(repository)/blobs/\(digest)"), repository: repository, push: false)
                    continue
                }
                if failure.isTransient, attempt < attempts { await pause(attempt); continue }
                throw RegistryError("cannot download the blob \(digest) of \(repository): \(failure.message)", transient: failure.isTransient)
            } catch let error as RegistryError {
                throw error
            } catch {
                throw RegistryError("cannot download the blob \(digest): \(error)", transient: true)
            }
        }
    }

    /// Uploads a file as a blob unless the registry has it already: one PUT, or PATCH chunks
    /// then a PUT when it is larger than `chunkSize`.
    public func pushBlob(_ repository: String, file: String, digest: String, size: Int) async throws(RegistryError) {
        if try await hasBlob(repository, digest: digest) { return }
        let start = try await request(HTTPRequest("POST", "\(base)/v2/\(repository)/blobs/uploads/", headers: ["Content-Length": "0"]),
                                      repository: repository, push: true)
        guard start.status == 202, var location = start.header("Location") else { throw unexpected(start, "starting the upload of \(digest)") }
        if size > chunkSize {
            guard let handle = FileHandle(forReadingAtPath: file) else { throw RegistryError("cannot read \(file)") }
            defer { try? handle.close() }
            var offset = 0
            while offset < size {
                let data: Data
                do { data = try handle.read(upToCount: chunkSize) ?? Data() } catch { throw RegistryError("cannot read \(file): \(describe(error))") }
                if data.isEmpty { break }
                let response = try await request(HTTPRequest("PATCH", resolve(location), headers: [
                    "Content-Type": "application/octet-stream", "Content-Length": String(data.count),
                    "Content-Range": "\(offset)-\(offset + data.count - 1)",
                ], body: .bytes([UInt8](data))), repository: repository, push: true, retry: false)
                guard response.status == 202, let next = response.header("Location") else { throw unexpected(response, "uploading \(digest)") }
                location = next
                offset += data.count
            }
            let done = try await request(HTTPRequest("PUT", append(resolve(location), "digest", digest), headers: ["Content-Length": "0"]),
                                         repository: repository, push: true, retry: false)
            guard done.status == 201 else { throw unexpected(done, "finishing the upload of \(digest)") }
        } else {
            let done = try await request(HTTPRequest("PUT", append(resolve(location), "digest", digest), headers: [
                "Content-Type": "application/octet-stream", "Content-Length": String(size),
            ], body: .file(file)), repository: repository, push: true, retry: false)
            guard done.status == 201 else { throw unexpected(done, "uploading \(digest)") }
        }
    }

    // MARK: Requests and auth

    /// Sends a request with the authorization this repository has earned; on a 401, answers
    /// the challenge once and sends it again. Down or 5xx: tried `attempts` times.
    func request(_ req: HTTPRequest, repository: String, push: Bool, limit: Int = 1 << 20, retry: Bool = true) async throws(RegistryError) -> HTTPResponse {
        if let down = lock.withLock({ down }) { throw down }
        do { return try await attempt(req, repository: repository, push: push, limit: limit, retry: retry) } catch {
            if error.transient { lock.withLock { down = error } }
            throw error
        }
    }

    func attempt(_ req: HTTPRequest, repository: String, push: Bool, limit: Int, retry: Bool) async throws(RegistryError) -> HTTPResponse {
        // An upload location (or any URL) on another host gets no credentials, and none of
        // the data either over plain HTTP off this machine.
        let own = isOwn(req.url)
        if !own, !Self.isSafeElsewhere(req.url) {
            throw RegistryError("the registry \(host) sent the request on to \(Redact.url(req.url)), plain HTTP to another machine; tack sends nothing there")
        }
        var answered = !own
        var attempt = 0
        while true {
            attempt += 1
            var r = req
            if own, let auth = authorization(repository, push: push) { r.headers["Authorization"] = auth }
            let response: HTTPResponse
            do { response = try await transport.send(r, limit: limit) } catch {
                if retry, attempt < attempts { await pause(attempt); continue }
                throw RegistryError("cannot reach the registry \(host): \(error.message)", transient: true)
            }
            if response.status == 401, !answered {
                answered = true
                try await answer(response, repository: repository, push: push)
                continue
            }
            if response.status >= 500 || response.status == 429, retry, attempt < attempts { await pause(attempt); continue }
            if response.status >= 500 || response.status == 429 {
                throw RegistryError("the registry \(host) answered \(response.status) \(HTTPStatusText.of(response.status))", transient: true)
            }
            if response.status == 401 || response.status == 403 {
                let who = await credential() == nil ? "without credentials (set TACK_CACHE_USERNAME and TACK_CACHE_PASSWORD, or `docker login \(host)`)" : "with the credentials tack found"
                throw RegistryError("the registry \(host) refused \(push ? "pushing to" : "reading") \(repository) \(who) (\(response.status))")
            }
            return response
        }
    }

    /// Earns an `Authorization` value from a 401's challenge: a bearer token from the realm
    /// (with the credentials, when there are any), or basic auth.
    func answer(_ response: HTTPResponse, repository: String, push: Bool) async throws(RegistryError) {
        let credential = await credential()
        let challenges = AuthChallenge.parse(response.header("WWW-Authenticate") ?? "")
        if let bearer = challenges.first(where: { $0.scheme == "bearer" }), let realm = bearer.parameters["realm"] {
            let scope = "repository:\(repository):\(push ? "pull,push" : "pull")"
            var url = realm
            if let service = bearer.parameters["service"] { url = append(url, "service", service) }
            url = append(url, "scope", scope)
            var tokenRequest = HTTPRequest("GET", url)
            let realmIsSafe = realm.lowercased().hasPrefix("https://") || (URLComponents(string: realm)?.host.map { CacheReference.isLoopback(host: $0) } ?? false)
            if let credential, realmIsSafe { tokenRequest.headers["Authorization"] = credential.basicHeader }
            let answer: HTTPResponse
            do { answer = try await transport.send(tokenRequest, limit: 1 << 20) } catch {
                throw RegistryError("cannot reach the registry's token service \(Redact.url(realm)): \(error.message)", transient: true)
            }
            guard answer.status == 200 else {
                if answer.status >= 500 { throw RegistryError("the registry's token service answered \(answer.status)", transient: true) }
                throw RegistryError("the registry's token service refused \(push ? "pushing to" : "reading") \(repository) (\(answer.status))\(credential == nil ? " without credentials" : "")")
            }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any],
                  let token = (object["token"] as? String) ?? (object["access_token"] as? String), !token.isEmpty else {
                throw RegistryError("the registry's token service answered without a token")
            }
            remember("Bearer " + token, repository, push: push)
        } else if challenges.contains(where: { $0.scheme == "basic" }) {
            guard let credential else {
                throw RegistryError("the registry \(host) needs credentials to \(push ? "push to" : "read") \(repository): set TACK_CACHE_USERNAME and TACK_CACHE_PASSWORD, or `docker login \(host)`")
            }
            guard mayAuthenticate else {
                throw RegistryError("the registry \(host) asks for a password over plain HTTP; tack sends credentials only over HTTPS or to this machine")
            }
            remember(credential.basicHeader, repository, push: push)
        } else {
            throw RegistryError("the registry \(host) asked for authentication tack does not speak (\(challenges.first?.scheme ?? "no challenge"))")
        }
    }

    func credential() async -> RegistryCredential? {
        if let known = lock.withLock({ looked }) { return known }
        let found = await credentials()
        lock.withLock { looked = .some(found) }
        return found
    }

    func authorization(_ repository: String, push: Bool) -> String? {
        lock.withLock { authorizations["\(repository):\(push ? "push" : "pull")"] ?? (push ? nil : authorizations["\(repository):push"]) }
    }

    func remember(_ value: String, _ repository: String, push: Bool) {
        lock.withLock { authorizations["\(repository):\(push ? "push" : "pull")"] = value }
    }

    func pause(_ attempt: Int) async {
        try? await Task.sleep(nanoseconds: UInt64(200_000_000 * attempt * attempt))
    }

    /// Whether `url` is this registry's own: same scheme, host and port.
    func isOwn(_ url: String) -> Bool {
        guard let c = URLComponents(string: url), let h = c.host else { return false }
        let hostPort = c.port.map { "\(h):\($0)" } ?? h
        return c.scheme?.lowercased() == scheme && hostPort.lowercased() == host.lowercased()
    }

    /// Another host may get a request (without credentials) over HTTPS, or on this machine.
    static func isSafeElsewhere(_ url: String) -> Bool {
        guard let c = URLComponents(string: url), let h = c.host else { return false }
        return c.scheme?.lowercased() == "https" || CacheReference.isLoopback(host: h)
    }

    /// An upload's `Location`, absolute.
    func resolve(_ location: String) -> String {
        if location.hasPrefix("http://") || location.hasPrefix("https://") { return location }
        return base + (location.hasPrefix("/") ? "" : "/") + location
    }

    func append(_ url: String, _ name: String, _ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+:,/?")
        let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
        return url + (url.contains("?") ? "&" : "?") + name + "=" + encoded
    }

    func unexpected(_ response: HTTPResponse, _ doing: String) -> RegistryError {
        var detail = ""
        if let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any],
           let errors = object["errors"] as? [[String: Any]], let first = errors.first {
            detail = ": " + [first["code"] as? String, first["message"] as? String].compactMap { $0 }.joined(separator: " ")
        }
        return RegistryError("the registry \(host) answered \(response.status) \(HTTPStatusText.of(response.status)) \(doing)\(Terminal.escapeControls(detail))",
                             transient: response.status >= 500)
    }
}
