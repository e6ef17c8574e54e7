import ArgumentParser
import TackCore

/// `--frozen`, for the commands that would install or lock.
struct FrozenOption: ParsableArguments {
    @Flag(help: "Change nothing: use exactly tack.lock, never write it, and fail on any difference from the manifest (also TACK_FROZEN=1).")
    var frozen = false
}

/// `--dry-run`, for the commands that change the machine.
struct DryRunOption: ParsableArguments {
    @Flag(help: "Print what would be done and change nothing.")
    var dryRun = false
}

/// `--no-cache`, for the commands that install.
struct NoCacheOption: ParsableArguments {
    @Flag(help: "Build here: neither pull from nor push to the team cache (also TACK_CACHE=off).")
    var noCache = false
}

/// `--platform OS-ARCH` (repeatable): more platforms for the lock to cover, as tack.yml's
/// `platforms:` lists them (Bundler's `lock --add-platform`).
struct PlatformOptions: ParsableArguments {
    @Option(name: .customLong("platform"), help: ArgumentHelp("Also lock checksums for this platform (linux-x86_64, darwin-arm64, …; repeatable).", valueName: "os-arch"))
    var names: [String] = []

    func validate() throws {
        for n in names where Platform(key: n) == nil {
            throw ValidationError("\(quoted(n)) is not a platform; write OS-ARCH with OS linux or darwin and ARCH x86_64 or arm64, like linux-x86_64")
        }
    }

    var platforms: [Platform] { names.compactMap { Platform(key: $0) } }
}
