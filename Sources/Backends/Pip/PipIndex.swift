import Foundation
import BackendKinds
import TackCore

/// A package index (PEP 503's simple pages, and PyPI's JSON API for upload times) and
/// `find_links` directories: what they offer of a project, read over the HTTP client or the
/// file system.
struct PipIndex {
    let http: any HTTPClient
    let fs: any FileSystem
    /// For a `find_links` of `~/…`.
    let home: String?

    static let defaultIndex = "https://pypi.org/simple"

    /// When each version was first uploaded, from the index's JSON API where it has one
    /// (PyPI's `/pypi/<project>/json`, beside `/simple`): what `min_release_age` holds back, as
    /// uv's `--exclude-newer` reads the same times. Empty where the index has no such API.
    /// Each version's first upload, and the versions whose upload times are there but
    /// unreadable (each with one of them, for the warning).
    func uploadTimes(_ project: String, index: String) async -> (times: [String: Int64], unreadable: [String: String]) {
        var root = index
        while root.hasSuffix("/") { root.removeLast() }
        guard root.hasSuffix("/simple"), root.contains("://") else { return ([:], [:]) }
        root.removeLast("/simple".count)
        guard let body = try? await http.get(root + "/pypi/" + project + "/json"),
              let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let releases = json["releases"] as? [String: Any] else { return ([:], [:]) }
        var out: [String: Int64] = [:], unreadable: [String: String] = [:]
        for (version, files) in releases {
            guard let v = Version(version) else { continue }
            let raw = (files as? [[String: Any]] ?? []).compactMap { $0["upload_time_iso_8601"].map { "\($0)" } }
            let times = raw.compactMap(ReleaseAge.timestamp)
            if let first = times.min() { out[v.text] = first } else if let shown = raw.first { unreadable[v.text] = shown }
        }
        return (out, unreadable)
    }

    /// File names a PEP 503 page (or a local directory) offers; yanked files are left out.
    func listing(_ location: String, what: String, missingIsEmpty: Bool = false) async throws(TackError) -> [String] {
        try await files(at: location, what: what, missingIsEmpty: missingIsEmpty).filter { !$0.yanked }.map(\.name)
    }

    /// The files a PEP 503 page (or a local directory) offers, yanked ones included and marked.
    func files(at location: String, what: String, missingIsEmpty: Bool = false) async throws(TackError) -> [PipIndexFile] {
        if location.hasPrefix("/") {
            guard let names = try? fs.list(location) else {
                throw TackError("cannot read \(what) \(location)")
            }
            return names.sorted().map { PipIndexFile(name: $0, location: location + "/" + $0) }
        }
        let body: [UInt8]
        do { body = try await http.get(location) } catch {
            if error.status == 404 && missingIsEmpty { return [] }
            if error.status == 404 { throw TackError("\(location) does not exist (404): is the package name right?") }
            throw TackError("cannot read \(what) \(location): \(error.message)")
        }
        return PipIndexPage.files(String(decoding: body, as: UTF8.self), base: location)
    }

    /// `find_links` as pip takes it: a URL, or a directory (relative to the manifest).
    func findLinks(_ value: String, _ request: ToolRequest) -> String {
        if value.hasPrefix("file://") { return String(value.dropFirst("file://".count)) }
        if value.contains("://") { return value }
        if value.hasPrefix("/") { return value }
        if value.hasPrefix("~/"), let home { return home + value.dropFirst(1) }
        return Paths.normalize(Paths.join(Paths.dirname(request.origin.file), value))
    }

    /// The files of one locked distribution on its index and in its find_links.
    func distributionFiles(_ pin: PipPin, _ request: ToolRequest) async throws(TackError) -> [PipIndexFile] {
        var out: [PipIndexFile] = []
        if let links = request.options.pip.findLinks { out += try await files(at: findLinks(links, request), what: "find_links") }
        let index = request.options.pip.indexURL ?? Self.defaultIndex
        out += try await files(at: PipIndexPage.slash(index) + pin.name + "/", what: "the index", missingIsEmpty: !out.isEmpty)
        return out.filter { file in
            guard let d = PipName.distribution(file.name) else { return false }
            return d.project == pin.name && d.version == pin.version
        }
    }
}
