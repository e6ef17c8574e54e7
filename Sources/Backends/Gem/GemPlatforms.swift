import TackCore

/// RubyGems' platforms and a lock's gems across them: one version of each gem on every
/// platform, platform gems where the source has them.
enum GemPlatforms {
    /// RubyGems' name for a platform (`x86_64-linux`, `arm64-darwin`): what its platform gems
    /// are built for.
    static func gemPlatform(_ platform: Platform) -> String {
        switch (platform.os, platform.arch) {
        case ("darwin", "arm64"): return "arm64-darwin"
        case ("darwin", _): return "x86_64-darwin"
        case (_, "arm64"): return "aarch64-linux"
        default: return "x86_64-linux"
        }
    }

    /// Each gem's version, without its platform: one version on every platform.
    static func versions(of selection: PlatformSelection, tool: String) throws(TackError) -> [String: String] {
        var out: [String: String] = [:]
        var seenOn: [String: String] = [:]
        for platform in selection.byPlatform.keys.sorted() {
            for stem in selection.byPlatform[platform] ?? [] {
                guard let p = GemPin.pinned(stem: stem) else { continue }
                let plain = GemPin.splitPlatform(p.version).0
                if let other = out[p.name], other != plain {
                    throw TackError("\(tool) needs \(p.name) \(plain) on \(platform) but \(other) on \(seenOn[p.name] ?? "another platform"), and a lock keeps one version of each gem on every platform — drop one from `platforms:`, or lock another version; nothing was changed")
                }
                out[p.name] = plain
                seenOn[p.name] = platform
            }
        }
        return out
    }
}
