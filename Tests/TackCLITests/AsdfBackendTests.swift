import Foundation
import Testing

/// The asdf backend against a plugin repository made in the test: shell scripts that
/// "install" a versioned `hello` from local archives.
@Suite(.ownThreads) struct AsdfBackendTests {
    /// The plugin lists 1.0.0, 1.1.0 and 2.0.0; there is no archive for 2.0.0, so its
    /// download fails. exec-env exports HELLO_HOME.
    func plugin(_ s: Sandbox) throws -> GitFixture {
        let archives = s.root + "/archives"
        for v in ["1.0.0", "1.1.0"] {
            try s.write("build-\(v)/hello", "#!/bin/sh\necho \"hello \(v) HELLO_HOME=${HELLO_HOME##*/tack-home/} $*\"\n")
            chmod(s.root + "/build-\(v)/hello", 0o755)
            try s.mkdir("archives")
            let r = try s.run("/bin/sh", ["-c", "tar -czf '\(archives)/hello-\(v).tar.gz' -C build-\(v) hello"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        return try GitFixture.asdfPlugin(in: s, name: "asdf-hello", scripts: [
            "list-all": "echo 1.0.0 1.1.0 2.0.0\n",
            "download": "set -e\ncp '\(archives)/hello-'\"$ASDF_INSTALL_VERSION\"'.tar.gz' \"$ASDF_DOWNLOAD_PATH/\"\n",
            "install": "set -e\ntest \"$ASDF_INSTALL_TYPE\" = version\nmkdir -p \"$ASDF_INSTALL_PATH/bin\"\ntar -xzf \"$ASDF_DOWNLOAD_PATH/hello-$ASDF_INSTALL_VERSION.tar.gz\" -C \"$ASDF_INSTALL_PATH/bin\"\necho \"$ASDF_INSTALL_PATH\" > \"$ASDF_INSTALL_PATH/prefix.txt\"\n",
            "list-bin-paths": "echo bin\n",
            "exec-env": "export HELLO_HOME=\"$ASDF_INSTALL_PATH\"\n",
        ])
    }

    @Test func listsInstallsAndRunsOnlyWhenTrusted() throws {
        let s = try Sandbox()
        let repo = try plugin(s)
        try s.write("app/tack.yml", "tools:\n  hello: { asdf: \"\(repo.path)\", version: \"~> 1.0\" }\n")

        // Untrusted: the plugin's scripts do not run, and nothing is written.
        let untrusted = try s.tack(["install"], in: "app")
        #expect(untrusted.status != 0)
        #expect(untrusted.stderr.contains("is not trusted") && untrusted.stderr.contains("tack trust"), "\(untrusted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/app/tack.lock"))
        let plugins = (try? FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/cache/asdf-plugins")) ?? []
        #expect(plugins.isEmpty, "\(plugins)")

        #expect(try s.tack(["trust"], in: "app").status == 0)
        let remote = try s.tack(["ls-remote", "hello"], in: "app")
        #expect(remote.status == 0 && remote.stdout.contains("1.1.0") && remote.stdout.contains("2.0.0"), "\(remote)")
        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")
        let lock = try String(contentsOfFile: s.root + "/app/tack.lock", encoding: .utf8)
        #expect(lock.contains("backend: \"asdf\"") && lock.contains("version: \"1.1.0\""), "\(lock)")
        #expect(lock.contains("plugin-commit: \"\(try repo.commit(of: "HEAD"))\""), "\(lock)")

        // Installed where it stays: the path it was built with is the path it runs from.
        let prefix = try String(contentsOfFile: s.root + "/tack-home/installs/hello/1.1.0/install/prefix.txt", encoding: .utf8)
        #expect(prefix == s.root + "/tack-home/installs/hello/1.1.0/install\n")

        // Run through the shim and exec: exec-env's variable, with the final install path.
        let shim = try s.run(s.root + "/tack-home/shims/hello", ["x"], in: "app")
        #expect(shim.status == 0 && shim.stdout == "hello 1.1.0 HELLO_HOME=installs/hello/1.1.0/install x\n", "\(shim)")
        let exec = try s.tack(["exec", "--", "hello"], in: "app")
        #expect(exec.stdout == "hello 1.1.0 HELLO_HOME=installs/hello/1.1.0/install \n", "\(exec)")

        // The plugin moves on; the lock keeps its commit, and --frozen installs with it.
        try s.write("asdf-hello/bin/list-all", "#!/usr/bin/env bash\necho 1.0.0 1.1.0 2.0.0 3.0.0\n")
        try repo.git("commit", "-qam", "newer")
        #expect(try s.tack(["uninstall", "hello@1.1.0"], in: "app").status == 0)
        let frozen = try s.tack(["install", "--frozen"], in: "app")
        #expect(frozen.status == 0, "\(frozen.stderr)")
        #expect(try String(contentsOfFile: s.root + "/app/tack.lock", encoding: .utf8) == lock)
        let outdated = try s.tack(["outdated"], in: "app")
        #expect(outdated.stdout.contains("hello") && outdated.stdout.contains("3.0.0"), "\(outdated)")

        // An install that fails (no archive for 2.0.0) leaves nothing behind.
        try s.write("two/tack.yml", "tools:\n  hello: { asdf: \"\(repo.path)\", version: \"2.0.0\" }\n")
        #expect(try s.tack(["trust"], in: "two").status == 0)
        let failed = try s.tack(["install"], in: "two")
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("bin/download failed for hello 2.0.0"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/hello/2.0.0"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: s.root + "/tack-home/installs/hello").filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// `latest` is what the plugin's bin/latest-stable names, not the highest version listed.
    @Test func latestIsThePluginsLatestStable() throws {
        let s = try Sandbox()
        let repo = try plugin(s)
        try s.write("asdf-hello/bin/latest-stable", "#!/usr/bin/env bash\necho 1.0.0\n")
        chmod(s.root + "/asdf-hello/bin/latest-stable", 0o755)
        try repo.git("add", ".")
        try repo.git("commit", "-q", "-m", "latest-stable")
        try s.write("app/tack.yml", "tools:\n  hello: { asdf: \"\(repo.path)\", version: latest }\n")
        #expect(try s.tack(["trust"], in: "app").status == 0)
        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")
        #expect(try s.tack(["exec", "--", "hello"], in: "app").stdout.hasPrefix("hello 1.0.0 "))
    }

    /// A `.tool-versions` line for a tool a registry maps to an asdf plugin installs with it,
    /// and needs no trust: the registry names the plugin, not the project.
    @Test func toolVersionsThroughARegistryEntry() throws {
        let s = try Sandbox()
        let repo = try plugin(s)
        let registry = GitFixture(path: s.root + "/registry", environment: repo.environment)
        try s.write("registry/registry.yml", "hello:\n  asdf: \"\(repo.path)\"\n")
        try registry.git("init", "-q", "-b", "main")
        try registry.git("add", ".")
        try registry.git("commit", "-q", "-m", "registry")
        let add = try s.tack(["registry", "add", registry.path, "--name", "mine"])
        #expect(add.status == 0, "\(add.stderr)")
        try s.write("app/.tool-versions", "hello 1.0.0\n")
        let install = try s.tack(["install"], in: "app")
        #expect(install.status == 0, "\(install.stderr)")
        #expect(try s.tack(["exec", "--", "hello"], in: "app").stdout.hasPrefix("hello 1.0.0 "))

        // Variables a project file adds for the registry's plugin (`build_env`, LD_PRELOAD
        // say) would run code the registry never asked for: they need the file trusted.
        try s.write("other/tack.yml", "tools:\n  hello: { asdf: \"\(repo.path)\", version: 1.1.0, build_env: { LD_PRELOAD: \"/tmp/evil.so\" } }\n")
        let hostile = try s.tack(["install"], in: "other")
        #expect(hostile.status == 1 && hostile.stderr.contains("is not trusted"), "\(hostile.stderr)")
        // Refused by the install's trust check, before anything was fetched, not by the plugin
        // about to run.
        #expect(hostile.stderr.contains("nothing was fetched or installed"), "\(hostile.stderr)")
        #expect(!s.exists("tack-home/installs/hello/1.1.0"))
    }
}
