import Foundation
import TackCore
import Backends

/// The system packages the pinned Swift toolchain needs on this Linux distribution, as
/// swift.org lists them: what `tack doctor` checks and `tack bootstrap` installs.
enum SwiftDependencies {
    struct Needed {
        var platform: String
        var manager: PackageManager
        var packages: [String]
    }

    /// Nothing where swift is not pinned here, on macOS, or on a platform tack has no list for.
    static func needed(_ resolution: Resolution, osRelease: String? = nil) -> Needed? {
        guard Platform.machine.os == "linux", let pin = resolution.swiftToolchain else { return nil }
        let text = osRelease ?? ((try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? "")
        guard let platform = SwiftPlatform.forMachine(.current, osRelease: text, chosen: pin.request.options.toolchainPlatform),
              let list = platform.systemPackages else { return nil }
        return Needed(platform: platform.identifier, manager: list.manager, packages: list.packages)
    }

    /// Those of `needed`'s packages that are not installed, asked of the package manager;
    /// nil when this machine's manager is another or cannot be asked.
    static func missing(_ needed: Needed, environment: [String: String]) async -> [String]? {
        guard let manager = try? PackageManager.detect(environment: environment, isExecutable: ExecutableSearch.isExecutable),
              manager == needed.manager else { return nil }
        let (program, args) = manager.queryCommand(needed.packages)
        guard let out = try? await ChildProcessRunner(trace: .standardError).run(program, args, directory: "/", environment: environment) else { return nil }
        let installed = manager.installed(from: out.output, asked: needed.packages)
        return needed.packages.filter { !installed.contains($0) }
    }
}
