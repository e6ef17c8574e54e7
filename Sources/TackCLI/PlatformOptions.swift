import ArgumentParser
import TackCore

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
