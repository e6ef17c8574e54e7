import TackCore

extension ReleaseAssetPicker.LibC {
    /// The C library `platform`'s downloads are for here: `given` (a test's), else on Linux
    /// this machine's (`host`), else GNU's (which macOS never asks about).
    static func of(_ platform: Platform, given: Self?, fs: any FileSystem) -> Self {
        given ?? (platform.os == "linux" ? .host(fs: fs) : .gnu)
    }

    /// This Linux machine's C library: musl on Alpine (and the other distributions built on
    /// it), or where only musl's dynamic loader is found; GNU otherwise, and on a machine
    /// that says nothing (what most Linux binaries are built against).
    public static func host(fs: any FileSystem) -> Self {
        if let text = try? fs.read("/etc/os-release", limit: 64 << 10) {
            for line in String(decoding: text, as: UTF8.self).split(separator: "\n") where line.hasPrefix("ID=") {
                let id = line.dropFirst(3).trimmingCharacters(in: "\"'")
                if ["alpine", "postmarketos", "chimera"].contains(id) { return .musl }
            }
        }
        let loaders = ["/lib", "/lib64", "/usr/lib"].flatMap { dir in (try? fs.list(dir)) ?? [] }
        if loaders.contains(where: { $0.hasPrefix("ld-linux") }) { return .gnu }
        if loaders.contains(where: { $0.hasPrefix("ld-musl-") }) { return .musl }
        return .gnu
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = self
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}
