import TackCore

/// The system packages the pinned Swift toolchain needs on this Linux distribution, as
/// swift.org lists them: what `tack doctor` checks and `tack bootstrap` installs.
public enum SwiftDependencies {
    public struct Needed: Sendable {
        public var platform: String
        public var manager: PackageManager
        public var packages: [String]
    }

    /// Nothing where swift is not pinned here, on macOS, or on a platform tack has no list for.
    public static func needed(_ resolution: Resolution, fs: any FileSystem, osRelease: String? = nil) -> Needed? {
        guard Platform.machine.os == "linux", let pin = resolution.swiftToolchain else { return nil }
        let text = osRelease ?? ((try? fs.read("/etc/os-release")).map { String(decoding: $0, as: UTF8.self) } ?? "")
        guard let platform = SwiftPlatform.forMachine(.current, osRelease: text, chosen: pin.request.options.toolchainPlatform),
              let list = platform.systemPackages else { return nil }
        return Needed(platform: platform.identifier, manager: list.manager, packages: list.packages)
    }

    /// Those of `needed`'s packages that are not installed, asked of the package manager;
    /// nil when this machine's manager is another or cannot be asked.
    public static func missing(_ needed: Needed, environment: [String: String], runner: any ProcessRunner) async -> [String]? {
        guard let manager = try? PackageManager.detect(environment: environment, isExecutable: ExecutableSearch.isExecutable),
              manager == needed.manager else { return nil }
        let (program, args) = manager.queryCommand(needed.packages)
        guard let out = try? await runner.run(program, args, directory: "/", environment: environment) else { return nil }
        let installed = manager.installed(from: out.output, asked: needed.packages)
        return needed.packages.filter { !installed.contains($0) }
    }
}
