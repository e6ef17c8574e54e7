import TackCore

/// Installs that must name their final place (script shebangs) and expose some of their files
/// in `bin/`.
struct Relocation {
    let fs: any FileSystem

    /// Rewrites `#!<from>…` shebangs (and activation scripts) in `dir` to name `to` instead:
    /// the install is built in a temporary directory and renamed into place.
    func rewriteScripts(in dir: String, from: String, to: String) throws(TackError) {
        guard from != to else { return }
        for name in (try? fs.list(dir)) ?? [] {
            let path = dir + "/" + name
            guard fs.linkTarget(path) == nil, let info = fs.info(path), info.kind == .file, info.size < 1 << 20,
                  let bytes = try? fs.read(path) else { continue }
            let isShebang = bytes.starts(with: Array("#!".utf8))
            guard isShebang || name.hasPrefix("activate") else { continue }
            guard let text = String(bytes: bytes, encoding: .utf8), text.contains(from) else { continue }
            let rewritten = text.replacingOccurrences(of: from, with: to)
            // Not flushed: the install is staged, and made durable when it is renamed into place.
            do { try fs.writeAtomically(path, Array(rewritten.utf8), permissions: info.permissions, flush: false) } catch {
                throw TackError("cannot rewrite \(path): \(error)")
            }
        }
    }

    /// A copy of the tree at `source` at `destination`: directories made, symbolic links made
    /// again, files hard-linked (copied where they cannot be). Files that are changed later
    /// are replaced (a new file, then a rename), never written in place, so copies stay apart.
    func cloneTree(_ source: String, to destination: String) throws(FileSystemError) {
        guard fs.isDirectory(source) else { throw FileSystemError(source, .notFound) }
        try fs.createDirectory(destination)
        try cloneEntries(source, to: destination)
    }

    /// One directory's entries, each looked at once (a link, else what it is).
    private func cloneEntries(_ source: String, to destination: String) throws(FileSystemError) {
        for name in try fs.list(source) {
            let from = source + "/" + name, to = destination + "/" + name
            if let target = fs.linkTarget(from) {
                try fs.makeLink(to, to: target)
                continue
            }
            switch fs.info(from)?.kind {
            case .directory?:
                try fs.createDirectory(to)
                try cloneEntries(from, to: to)
            case .file?:
                try fs.linkOrCopy(from, to: to)
            default:
                continue
            }
        }
    }

    /// `bin/<name>` links to `<from>/<name>` for each name; returns the `bin/` paths.
    func link(_ names: [String], from: String, in directory: String) throws(TackError) -> [String] {
        try fs.makeDirectory(directory + "/bin")
        var out: [String] = []
        for name in names {
            do { try fs.makeLink(directory + "/bin/" + name, to: "../" + from + "/" + name) } catch {
                throw TackError("cannot link bin/\(name): \(error)")
            }
            out.append("bin/" + name)
        }
        return out
    }
}
