import TackCore

/// Which asset of a GitHub release is one platform's download, read from the asset names
/// alone (what `release:` tools and the lock of another platform need, with nothing
/// downloaded): each name is read for an OS, an architecture, a C library and a format, as
/// ubi and mise's github backend read them; the one that names this platform best wins.
///
/// Unlike a score that always names something, it refuses rather than guesses: a source
/// archive that names no platform is never a download, an Apple-silicon Mac does not take an
/// Intel binary (that is an explicit choice), and two different programs that fit equally
/// (`buildifier-…`, `buildozer-…`) are a question for `asset:`, not an alphabetical pick.
public struct ReleaseAssetPicker: Sendable {
    /// The C library a Linux binary is built against.
    public enum LibC: String, Sendable { case gnu, musl }

    /// Why no asset was chosen.
    public enum Failure: Error, Equatable, Sendable {
        /// No asset is a download for the platform; `assets` are the names tack could install
        /// on some platform (empty when the release has none at all).
        case none(platform: String, assets: [String])
        /// Several different programs fit equally.
        case ambiguous(platform: String, candidates: [String])

        /// The sentence a user reads, for `tool` in `release` (`cli/cli v2.62.0`).
        public func message(tool: String, release: String) -> String {
            switch self {
            case .none(let platform, let assets):
                let found = assets.isEmpty ? "no asset tack can install (an archive or a program)" : "only \(assets.prefix(12).joined(separator: ", "))\(assets.count > 12 ? ", …" : "")"
                return "the \(release) release has no download of \(tool) for \(platform): it has \(found) — name the asset with `asset:`, or pin another version"
            case .ambiguous(let platform, let candidates):
                let program = candidates.first.map { AssetName($0, project: "").program } ?? ""
                return "the \(release) release has several downloads of \(tool) for \(platform) (\(candidates.joined(separator: ", "))) — say which with `asset:` (part of the asset's name), like `asset: \"\(program)\"`"
            }
        }
    }

    /// The repository's name (`cli` of `cli/cli`): an asset named after it wins a tie, and it
    /// is cut off the front of a name before the name is read (so `go-arch-lint` names no
    /// architecture, and `win-tool` no OS).
    public let project: String
    /// `project` as a stem reads (`unused-deps` of `unused_deps`).
    let named: String
    public var platform: Platform
    /// The C library of this platform's Linux (`gnu` for a platform that is not this machine).
    public var libc: LibC

    public init(project: String, platform: Platform, libc: LibC = .gnu) {
        self.project = project.lowercased()
        named = AssetName.withoutVersion(self.project)
        self.platform = platform
        self.libc = libc
    }

    /// The asset of `names` for the platform.
    public func pick(_ names: [String]) -> Result<String, Failure> {
        let readings = names.map { AssetName($0, project: project) }.filter { !$0.isMetadata }
        let installable = readings.filter { $0.format.rank > 0 }
        var fits = installable.compactMap { fit($0, namingOS: true) }
        // Nothing names this OS: a name with no OS fits when it names this architecture
        // (`tool-x86_64.tar.gz`), never one that names neither (a source archive).
        if fits.isEmpty { fits = installable.compactMap { fit($0, namingOS: false) } }
        guard let best = fits.max(by: { $0.key < $1.key })?.key else {
            return .failure(.none(platform: platform.description, assets: installable.map(\.name)))
        }
        let top = fits.filter { $0.key == best }.map(\.asset)
        // Variants of one program (`bun-linux-x64`, `bun-linux-x64-baseline`): the plainest,
        // the shortest name. Different programs: the user says which.
        guard Set(top.map(\.stem)).count == 1 else {
            return .failure(.ambiguous(platform: platform.description, candidates: top.map(\.name).sorted()))
        }
        let chosen = top.min { ($0.name.count, $0.name) < ($1.name.count, $1.name) }
        return chosen.map { .success($0.name) } ?? .failure(.none(platform: platform.description, assets: []))
    }

    /// How well `asset` fits the platform (greater is better), or nil when it does not.
    func fit(_ asset: AssetName, namingOS: Bool) -> (asset: AssetName, key: FitKey)? {
        if namingOS {
            guard asset.os == platform.os else { return nil }
        } else {
            guard asset.os == nil, asset.arch == platform.arch else { return nil }
        }
        let arch: Int
        switch asset.arch {
        case platform.arch?: arch = 2
        case nil, "universal"?: arch = 1
        default: return nil
        }
        var libcRank = 1
        if platform.os == "linux", let other = asset.libc {
            if other == libc { libcRank = 2 }
            else if libc == .musl { return nil }  // a glibc binary does not run on musl
            else { libcRank = 0 }                 // a static musl binary runs on glibc
        }
        return (asset, FitKey(arch: arch, libc: libcRank, named: asset.stem == named ? 1 : 0, format: asset.format.rank))
    }

    struct FitKey: Comparable {
        var arch: Int, libc: Int, named: Int, format: Int
        static func < (a: FitKey, b: FitKey) -> Bool { (a.arch, a.libc, a.named, a.format) < (b.arch, b.libc, b.named, b.format) }
    }

    /// The release's checksum files that may list `asset`, the likeliest first: its own
    /// `ASSET.sha256`, then a list for the whole release (`checksums.txt`, `SHA256SUMS`,
    /// `tool_1.2.3_checksums.txt`). SHA-256 only; a list of other hashes is not one.
    public static func checksumFiles(for asset: String, in names: [String]) -> [String] {
        let own = [asset + ".sha256", asset + ".sha256sum", asset + ".sha256.txt"]
        let sidecars = own.compactMap { candidate in names.first { $0.lowercased() == candidate.lowercased() } }
        let lists = names.filter { name in
            let n = name.lowercased()
            guard !["sha512", "sha1", "md5", "blake", ".sig", ".asc", ".pem", ".cert", ".minisig", ".bundle", ".json", ".intoto"].contains(where: n.contains) else { return false }
            let base = n.hasSuffix(".txt") ? String(n.dropLast(4)) : n
            return base.hasSuffix("checksums") || base.hasSuffix("checksum") || base.hasSuffix("sha256sums") || base == "sha256sum"
                || base == "shasums256" || base.hasSuffix("checksums.sha256")
        }.sorted()
        return sidecars + lists
    }
}

/// One asset's name, read: what it runs on and what it is.
struct AssetName: Sendable {
    let name: String
    let os: String?
    /// `x86_64`, `arm64`, `universal`, another architecture's word, or nil for none.
    let arch: String?
    let libc: ReleaseAssetPicker.LibC?
    let format: Format
    /// The program's name: what comes before the first platform word, without a version
    /// (`protoc` of `protoc-22.2-linux-x86_64.zip`).
    let stem: String
    /// `stem` as the name writes it (`unused_deps` of `unused_deps-linux-amd64`): what
    /// `asset:` can say to choose it.
    let program: String
    /// A checksum, signature or other file about the downloads, not one.
    let isMetadata: Bool

    enum Format: Equatable, Sendable {
        /// `compressed`: one program, gzip-, bzip2-, xz- or zstd-compressed (`elm-linux-x64.gz`).
        case archive(String), program, compressed(String), refused(String)
        /// Greater is preferred; 0 is not installable.
        var rank: Int {
            switch self {
            case .archive(let ext): [".zip": 2, ".tar": 3, ".tar.bz2": 3, ".tbz": 3, ".tbz2": 3][ext] ?? 4
            case .program, .compressed: 1
            case .refused: 0
            }
        }
    }

    init(_ name: String, project: String) {
        self.name = name
        let lower = name.lowercased()
        // The project's own name says nothing of the platform: `go-arch-lint`, `win-tool`.
        var text = lower
        if !project.isEmpty, text.hasPrefix(project), let next = text.dropFirst(project.count).first, Self.isSeparator(next) {
            text = String(text.dropFirst(project.count))
        }
        let os = Self.firstWord(in: text, of: Self.osWords)
        let arch = Self.firstWord(in: text, of: Self.archWords)
        self.os = os?.value
        self.arch = arch?.value
        libc = Self.firstWord(in: text, of: Self.libcWords).map { $0.value == "musl" ? .musl : .gnu }
        (format, isMetadata) = Self.format(of: lower)
        let cut = [os?.at, arch?.at].compactMap { $0 }.min().map { text.distance(from: text.startIndex, to: $0) } ?? text.count
        let before = lower.count - text.count + cut
        stem = Self.withoutVersion(String(lower.prefix(before)))
        program = Self.trimmedVersion(String(name.prefix(before)))
    }

    static func isSeparator(_ c: Character) -> Bool { c == "-" || c == "_" || c == "." || c == " " || c == "+" }

    /// Words that name an OS (with what they mean), each matched as a whole word.
    static let osWords: [(String, String)] = [
        ("linux", "linux"), ("linux64", "linux"), ("linux32", "linux"), ("linuxstatic", "linux"), ("manylinux*", "linux"),
        ("musllinux*", "linux"), ("alpine", "linux"), ("ubuntu", "linux"), ("debian", "linux"),
        ("darwin", "darwin"), ("macos", "darwin"), ("macosx", "darwin"), ("osx", "darwin"), ("mac", "darwin"), ("apple", "darwin"),
        ("windows", "windows"), ("win", "windows"), ("win32", "windows"), ("win64", "windows"), ("mingw*", "windows"), ("msvc", "windows"),
        ("freebsd", "freebsd"), ("netbsd", "netbsd"), ("openbsd", "openbsd"), ("dragonfly", "dragonfly"), ("illumos", "illumos"),
        ("solaris", "solaris"), ("sunos", "solaris"), ("android", "android"), ("fuchsia", "fuchsia"), ("aix", "aix"),
        ("plan9", "plan9"), ("wasi", "wasi"),
    ]

    /// Words that name an architecture; the 64-bit x86 words come before `x86`.
    static let archWords: [(String, String)] = [
        ("x86_64", "x86_64"), ("x86-64", "x86_64"), ("amd64", "x86_64"), ("x64", "x86_64"), ("linux64", "x86_64"), ("win64", "x86_64"), ("64bit", "x86_64"),
        ("aarch64", "arm64"), ("aarch_64", "arm64"), ("arm64", "arm64"), ("arm_64", "arm64"),
        ("universal", "universal"), ("universal2", "universal"), ("universal_binary", "universal"), ("all", "universal"),
        ("x86", "x86"), ("386", "x86"), ("i386", "x86"), ("i586", "x86"), ("i686", "x86"), ("x86_32", "x86"), ("linux32", "x86"), ("32bit", "x86"),
        ("arm", "arm"), ("armv5", "arm"), ("armv6", "arm"), ("armv7", "arm"), ("armv6l", "arm"), ("armv7l", "arm"), ("armhf", "arm"), ("armel", "arm"),
        ("ppc64le", "ppc64le"), ("ppc64", "ppc64"), ("powerpc64le", "ppc64le"), ("powerpc64", "ppc64"), ("s390x", "s390x"),
        ("riscv64", "riscv64"), ("riscv64gc", "riscv64"), ("loong64", "loong64"), ("loongarch64", "loong64"),
        ("mips", "mips"), ("mipsle", "mips"), ("mips64", "mips64"), ("mips64le", "mips64"), ("sparc64", "sparc64"), ("sparcv9", "sparc64"),
    ]

    static let libcWords: [(String, String)] = [
        ("musl", "musl"), ("musllinux*", "musl"), ("alpine", "musl"), ("gnu", "gnu"), ("glibc", "gnu"), ("manylinux*", "gnu"),
    ]

    /// The first of `words` found in `text` as a whole word (`*`: any letters, digits or `_`
    /// may follow), by position, and where it starts.
    static func firstWord(in text: String, of words: [(String, String)]) -> (word: String, value: String, at: String.Index)? {
        var best: (word: String, value: String, at: String.Index)?
        for (word, value) in words {
            let prefix = word.hasSuffix("*")
            let needle = prefix ? String(word.dropLast()) : word
            var from = text.startIndex
            while let range = text.range(of: needle, range: from..<text.endIndex) {
                var end = range.upperBound
                if prefix { while end < text.endIndex, text[end].isLetter || text[end].isNumber || text[end] == "_" { end = text.index(after: end) } }
                let startsWord = range.lowerBound == text.startIndex || isSeparator(text[text.index(before: range.lowerBound)])
                let endsWord = end == text.endIndex || isSeparator(text[end])
                if startsWord && endsWord {
                    if let found = best, found.at <= range.lowerBound { break }
                    best = (word, value, range.lowerBound)
                    break
                }
                from = text.index(after: range.lowerBound)
            }
        }
        return best
    }

    static let archives = [".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".tbz", ".tar.zst", ".tzst", ".tar", ".zip"]
    static let metadata = ["sha256", "sha256sum", "sha256sums", "sha512", "sha512sum", "sha1", "md5", "sig", "asc", "minisig", "pem", "cert", "crt", "cer",
                           "key", "pub", "sbom", "spdx", "json", "jsonl", "txt", "xml", "yaml", "yml", "intoto", "bundle", "b3", "sum", "sums", "md"]
    static let refused = ["deb", "rpm", "apk", "msi", "msix", "pkg", "dmg", "appimage", "snap", "flatpak", "exe", "7z", "rar", "vsix", "whl", "nupkg", "jar"]
    static let compressions = ["gz", "xz", "bz2", "zst"]

    /// What the name says the file is: an archive, a program (no extension, or a dot that is
    /// part of a version or a platform word: `tool_1.2.3_linux_amd64`), a compressed program,
    /// a file about the downloads, or a format tack does not install.
    static func format(of lower: String) -> (Format, isMetadata: Bool) {
        if lower.hasPrefix("checksums") || lower.hasPrefix("sha256sums") || lower.hasPrefix("shasums") { return (.refused("checksums"), true) }
        if let ext = archives.first(where: lower.hasSuffix) { return (.archive(ext), false) }
        guard let dot = lower.lastIndex(of: "."), dot != lower.startIndex else { return (.program, false) }
        let ext = String(lower[lower.index(after: dot)...])
        if metadata.contains(ext) { return (.refused(ext), true) }
        if refused.contains(ext) { return (.refused(ext), false) }
        if compressions.contains(ext) { return (.compressed(ext), false) }
        // Letters alone after the last dot are an extension tack does not know, unless they
        // are a platform word; anything else (digits, `_`) is part of the name.
        let platformWord = (osWords + archWords).contains { $0.0 == ext }
        if !ext.isEmpty, ext.allSatisfy(\.isLetter), ext.count <= 8, !platformWord { return (.refused(ext), false) }
        return (.program, false)
    }

    /// `omegasort` of `omegasort_0.0.7_`, `cargo-msrv` of `cargo-msrv-`: trailing separators
    /// and words that are a version (`1.2`, `v1.2.3`) removed.
    static func withoutVersion(_ s: String) -> String {
        var parts = s.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        while let last = parts.last, isVersionWord(last) || last.isEmpty { parts.removeLast() }
        var out = parts.joined(separator: "-")
        while let c = out.last, isSeparator(c) { out.removeLast() }
        return out
    }

    /// `s` without trailing separators and version words, as written.
    static func trimmedVersion(_ s: String) -> String {
        var out = Substring(s)
        while true {
            while let c = out.last, isSeparator(c) { out = out.dropLast() }
            guard let cut = out.lastIndex(where: { $0 == "-" || $0 == "_" }), isVersionWord(String(out[out.index(after: cut)...])) else { break }
            out = out[..<cut]
        }
        return String(out)
    }

    static func isVersionWord(_ w: String) -> Bool {
        let body = w.hasPrefix("v") ? w.dropFirst() : Substring(w)
        guard let first = body.first, first.isNumber else { return false }
        return body.allSatisfy { $0.isNumber || $0 == "." }
    }
}
