/// How tack reaches the network, from the environment: the proxy for each scheme
/// (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, either case, the lowercase one first; curl
/// itself reads only the lowercase `http_proxy`, a rule for CGI programs tack is not),
/// the hosts that bypass it (`NO_PROXY`: host names, domains, `*`, IPv4 CIDR ranges), and the
/// certificate authorities to trust (`TACK_CA_BUNDLE`, else `SSL_CERT_FILE`; `SSL_CERT_DIR`).
/// One rule for tack's HTTP client, libgit2's fetches and the children tack runs.
public struct NetworkSettings: Sendable, Equatable {
    public var httpsProxy: String?
    public var httpProxy: String?
    public var noProxy: [String]
    /// A PEM file of the certificate authorities to trust instead of the system's.
    public var caFile: String?
    /// The variable that named it (`TACK_CA_BUNDLE` or `SSL_CERT_FILE`).
    public var caVariable: String?
    /// A directory of them (OpenSSL's hashed layout).
    public var caDirectory: String?

    public init(environment: [String: String]) {
        func first(_ names: String...) -> String? {
            for n in names { if let v = environment[n], !v.isEmpty { return v } }
            return nil
        }
        let all = first("all_proxy", "ALL_PROXY")
        httpsProxy = first("https_proxy", "HTTPS_PROXY") ?? all
        httpProxy = first("http_proxy", "HTTP_PROXY") ?? all
        noProxy = (first("no_proxy", "NO_PROXY") ?? "").split(separator: ",").map { String($0).trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
        caVariable = first("TACK_CA_BUNDLE") != nil ? "TACK_CA_BUNDLE" : first("SSL_CERT_FILE") != nil ? "SSL_CERT_FILE" : nil
        caFile = caVariable.flatMap { first($0) }
        caDirectory = first("SSL_CERT_DIR")
    }

    /// The proxy a request to `url` goes through, or nil for a direct connection.
    public func proxy(for url: String) -> String? {
        guard let (scheme, host) = Self.schemeAndHost(url) else { return nil }
        let proxy = scheme == "https" ? httpsProxy : scheme == "http" ? httpProxy : nil
        guard let proxy, !bypasses(host) else { return nil }
        return proxy
    }

    /// Whether `NO_PROXY` names `host`: `*`, the host itself, a domain it is in (`example.com`
    /// or `.example.com` covers `a.example.com`), or an IPv4 range (`10.0.0.0/8`).
    public func bypasses(_ host: String) -> Bool {
        let host = host.lowercased()
        for entry in noProxy {
            if entry == "*" { return true }
            var name = entry
            // An IPv6 address, bracketed or not (`[::1]`, `::1`), is compared whole.
            if name.hasPrefix("["), let close = name.firstIndex(of: "]") { name = String(name[name.index(after: name.startIndex)..<close]) }
            if name.filter({ $0 == ":" }).count > 1 {
                if host == name { return true }
                continue
            }
            // A port in the entry (`host:8080`) is not compared: curl compares names.
            if let colon = name.lastIndex(of: ":"), !name.contains("/") { name = String(name[..<colon]) }
            if name.hasPrefix(".") { name.removeFirst() }
            guard !name.isEmpty else { continue }
            if host == name || host.hasSuffix("." + name) { return true }
            if let range = IPv4Range(name), let address = IPv4Range.address(host), range.contains(address) { return true }
        }
        return false
    }

    /// Why a TLS connection to `host` failed its certificate check, and what to do: the one
    /// message tack's HTTP client and its git fetches give (`detail`: what the TLS library said).
    public func untrustedCertificate(host: String, detail: String) -> String {
        let trusted = caFile.map { "the certificate authorities in \($0)" } ?? "the system's certificate authorities (set SSL_CERT_FILE or TACK_CA_BUNDLE to a PEM file that adds your organisation's)"
        return "the certificate of \(host) is not signed by \(trusted)\(detail.isEmpty ? "" : " (\(detail))") — behind a TLS-inspecting proxy, trust its certificate authority with SSL_CERT_FILE; tack never turns verification off"
    }

    /// What to add to a child's failure whose output says a certificate was not trusted
    /// (uv's `invalid peer certificate: UnknownIssuer`, pip's `CERTIFICATE_VERIFY_FAILED`,
    /// ruby's `certificate verify failed`): the variable to set. Nil for any other failure.
    public func certificateHint(_ output: String) -> String? {
        let o = output.lowercased()
        guard ["unknownissuer", "certificate_verify_failed", "certificate verify failed", "invalid peer certificate", "self-signed certificate", "self signed certificate",
               "unable to get local issuer"].contains(where: o.contains) else { return nil }
        let trusted = caFile.map { "the certificate authorities in \($0) (\(caVariable ?? "SSL_CERT_FILE"))" } ?? "the system's certificate authorities"
        return "a server's certificate is not signed by \(trusted) — set SSL_CERT_FILE or TACK_CA_BUNDLE to a PEM file that adds your organisation's (behind a TLS-inspecting proxy, its certificate authority); tack never turns verification off"
    }

    /// What is in effect, for `tack doctor` and `-v`, with credentials left out.
    public var description: [String] {
        var out: [String] = []
        if let httpsProxy { out.append("HTTPS proxy \(Self.redact(httpsProxy))") }
        if let httpProxy, httpProxy != httpsProxy { out.append("HTTP proxy \(Self.redact(httpProxy))") }
        if !noProxy.isEmpty { out.append("no proxy for \(noProxy.joined(separator: ", "))") }
        if let caFile { out.append("certificate authorities from \(caFile)") }
        if let caDirectory { out.append("certificate authorities in \(caDirectory)") }
        return out
    }

    /// The environment children run in, told of the certificate authorities the way each
    /// reads them (pip: `PIP_CERT`; git: `GIT_SSL_CAINFO`; uv, ruby and OpenSSL's others:
    /// `SSL_CERT_FILE`; Python's requests: `REQUESTS_CA_BUNDLE`). Proxies they read as they are.
    /// An empty certificate variable, which tack reads as unset, is unset for them too (an
    /// empty `SSL_CERT_FILE` makes uv load no certificate at all).
    public func childEnvironment(_ environment: [String: String]) -> [String: String] {
        var env = environment
        for name in ["SSL_CERT_FILE", "SSL_CERT_DIR", "TACK_CA_BUNDLE"] where env[name]?.isEmpty == true { env[name] = nil }
        guard let caFile else { return env }
        env["SSL_CERT_FILE"] = caFile
        for name in ["PIP_CERT", "GIT_SSL_CAINFO", "REQUESTS_CA_BUNDLE"] where env[name] == nil { env[name] = caFile }
        return env
    }

    /// `scheme://user:password@host` without the credentials.
    public static func redact(_ proxy: String) -> String {
        guard let at = proxy.lastIndex(of: "@") else { return proxy }
        let scheme = proxy.range(of: "://").map { String(proxy[..<$0.upperBound]) } ?? ""
        return scheme + "…@" + proxy[proxy.index(after: at)...]
    }

    public static func schemeAndHost(_ url: String) -> (scheme: String, host: String)? {
        guard let sep = url.range(of: "://") else { return nil }
        let scheme = url[..<sep.lowerBound].lowercased()
        var rest = url[sep.upperBound...]
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        var host = String(rest)
        if host.hasPrefix("[") {
            if let close = host.firstIndex(of: "]") { host = String(host[host.index(after: host.startIndex)..<close]) }
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        return (String(scheme), host)
    }

    /// An IPv4 range in CIDR form.
    struct IPv4Range {
        let base: UInt32
        let mask: UInt32

        init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let address = Self.address(String(parts[0])), let bits = Int(parts[1]), (0...32).contains(bits) else { return nil }
            mask = bits == 0 ? 0 : ~UInt32(0) << UInt32(32 - bits)
            base = address & mask
        }

        func contains(_ address: UInt32) -> Bool { address & mask == base }

        static func address(_ text: String) -> UInt32? {
            let octets = text.split(separator: ".", omittingEmptySubsequences: false)
            guard octets.count == 4 else { return nil }
            var value: UInt32 = 0
            for o in octets {
                guard (1...3).contains(o.count), o.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt32(o), n <= 255 else { return nil }
                value = value << 8 | n
            }
            return value
        }
    }
}
