import Backends
import TackCore

/// Whether the proxies and mirrors in effect answer (`tack doctor`): a proxy is asked
/// directly (any HTTP answer will do: it is there), a mirror's place through the proxy, as
/// downloads reach it. Each is given a few seconds, all at once.
public struct NetworkReachability: Sendable {
    /// Why `url` did not answer, or nil when it did; `direct`: not through the proxy.
    public var probe: @Sendable (_ url: String, _ direct: Bool) async -> String?

    public init(probe: @escaping @Sendable (_ url: String, _ direct: Bool) async -> String?) { self.probe = probe }

    /// libcurl, with the process's network settings (none for a direct probe), a few seconds
    /// to connect and answer.
    public static func curl(_ settings: Settings) -> NetworkReachability {
        let environment = settings.environment
        return NetworkReachability { url, direct in
            var env = environment
            if direct {
                for name in ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"] { env[name] = nil }
            }
            let client = CurlHTTPClient(limits: TransferLimits(idle: 4), environment: env, trace: settings.trace)
            do throws(HTTPFailure) {
                _ = try await client.send(HTTPRequest("HEAD", url), limit: 0)
                return nil
            } catch { return error.message }
        }
    }

    /// Each proxy and mirror, checked: the lines `tack doctor` shows (ok or a problem).
    public func check(network: NetworkSettings, mirrors: DownloadMirrors, fs: any FileSystem) async -> [(ok: Bool, message: String)] {
        var probes: [(label: String, url: String, direct: Bool)] = []
        for (scheme, proxy) in [("HTTPS", network.httpsProxy), ("HTTP", network.httpProxy)] {
            guard let proxy, !probes.contains(where: { $0.url == proxy }) else { continue }
            probes.append(("the \(scheme) proxy \(URLRedaction.text(proxy))", proxy, true))
        }
        var out: [(Bool, String)] = []
        for (rule, shown) in zip(mirrors.rules, mirrors.describe) {
            if rule.to.hasPrefix("file://") {
                let dir = String(rule.to.dropFirst("file://".count))
                out.append(fs.isDirectory(dir) ? (true, "mirror \(shown) is there") : (false, "mirror \(shown): \(dir) is not a directory on this machine"))
                continue
            }
            probes.append(("mirror \(shown)", rule.to + "/", false))
        }
        let answers = await Concurrently.map(probes, jobs: max(1, probes.count)) { p in await probe(p.url, p.direct) }
        for (p, why) in zip(probes, answers) {
            out.append(why.map { (false, "\(p.label) does not answer: \(URLRedaction.text($0))") } ?? (true, "\(p.label) answers"))
        }
        return out
    }
}
