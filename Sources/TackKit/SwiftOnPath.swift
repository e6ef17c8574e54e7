import Backends
import TackCore

/// The Swift toolchain first on PATH, as tack records it in a build's metadata
/// (`Swift version 6.0.3 (swift-6.0.3-RELEASE)`): what `--rebuild` and `tack doctor` compare
/// installs with.
public enum SwiftOnPath {
    public static func version(_ settings: Settings, runner: any ProcessRunner) async -> String? {
        guard let out = try? await runner.run("swift", ["--version"], directory: settings.cwd, environment: settings.environment),
              out.status == 0 else { return nil }
        return GitBackend.toolchainLine(out.output)
    }
}
