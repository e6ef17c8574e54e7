import TackCore

/// Which wheels serve which platform, and uv's word for a platform and its failures to
/// resolve for one: what locking a pip tool for every platform the team runs on needs.
enum PipPlatforms {
    /// uv's `--python-platform` for a platform: its target triple, glibc Linux (uv's
    /// manylinux_2_28 baseline) or macOS (uv's oldest supported release), so a wheel locked
    /// runs on any current machine of that platform.
    static func uvTarget(_ platform: Platform) -> String { platform.triple }

    /// Whether a distribution file can be installed on one of `platforms`: a wheel by its
    /// platform tags (`any`, `macosx_11_0_arm64`, `manylinux_2_17_x86_64`, …), an sdist always.
    static func concerns(_ file: String, _ platforms: [Platform]) -> Bool {
        guard file.hasSuffix(".whl"), let tagSet = file.dropLast(4).split(separator: "-").last else { return true }
        return tagSet.split(separator: ".").contains { tag in
            if tag == "any" { return true }
            let os: String
            if tag.hasPrefix("macosx_") { os = "darwin" } else if tag.hasPrefix("manylinux") || tag.hasPrefix("musllinux") || tag.hasPrefix("linux_") { os = "linux" } else { return false }
            return platforms.contains { p in
                guard p.os == os else { return false }
                if tag.hasSuffix("universal2") || tag.hasSuffix("universal") { return true }
                if tag.hasSuffix("_intel") { return p.arch == "x86_64" }
                return tag.hasSuffix(p.arch == "arm64" ? (os == "darwin" ? "_arm64" : "_aarch64") : "_x86_64")
            }
        }
    }

    /// uv's failure to resolve for a platform, in one line when it is a missing wheel.
    static func resolutionFailure(_ out: ProcessOutput, tool: String, platform: Platform, python: String) -> TackError {
        let text = out.output
        if let m = text.firstMatch(of: #/([A-Za-z0-9._-]+)==([^\s]+) has no wheels with a matching (platform|Python ABI|Python implementation|Python version) tag/#) {
            let what = m.output.3 == "platform" ? "for \(platform)" : "for Python \(python) on \(platform)"
            var message = "\(tool) needs \(m.output.1) \(m.output.2), which has no wheel \(what) and no source distribution to build one"
            if let hint = text.firstMatch(of: #/Wheels are available for `[^`]+` \(v[^)]*\) on the following platforms?: ([^\n]+)/#) {
                message += " (the index has wheels for \(hint.output.1.replacingOccurrences(of: "`", with: "")))"
            }
            return TackError(message + " — drop \(platform) from `platforms:`, or pin a version that has one; nothing was changed")
        }
        return TackError("cannot resolve \(tool) for \(platform): uv failed (exit \(out.status)):\n\(out.tail(15))")
    }

}
