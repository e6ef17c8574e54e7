import Foundation
import Testing

/// `tack bootstrap` with fake package managers on PATH: one script, linked under each
/// manager's command names, that logs what it was asked and keeps "installed" packages in a
/// file. A package named `broken` fails to install.
@Suite(.ownThreads) struct BootstrapTests {
    static let fake = #"""
        #!/bin/sh
        me=$(basename "$0")
        printf '%s %s\n' "$me" "$(echo "$*" | tr '\n' ' ' | sed 's/ *$//')" >> "$FAKE_LOG"
        touch "$FAKE_STATE"
        is_installed() { grep -qx "$1" "$FAKE_STATE"; }
        add() { for p in "$@"; do
                  case "$p" in -*) continue ;; broken) echo "E: Unable to locate package broken" >&2; exit 100 ;; esac
                  is_installed "$p" || echo "$p" >> "$FAKE_STATE"
                done; }
        status=0
        case "$me" in
          dpkg-query) shift 2; for p in "$@"; do
                        if is_installed "$p"; then printf '%s\tinstall ok installed\n' "$p"; else echo "dpkg-query: no packages found matching $p" >&2; status=1; fi
                      done ;;
          apt-get) [ "$1" = update ] && exit 0; shift; add "$@" ;;
          rpm) shift 3; for p in "$@"; do if is_installed "$p"; then echo "$p"; else echo "package $p is not installed"; status=1; fi; done ;;
          dnf) shift 2; add "$@" ;;
          pacman) if [ "$1" = -Q ]; then shift; for p in "$@"; do if is_installed "$p"; then echo "$p 1.0-1"; else echo "error: package '$p' was not found" >&2; status=1; fi; done
                  else shift; add "$@"; fi ;;
          apk) if [ "$1" = info ]; then shift 2; for p in "$@"; do is_installed "$p" && echo "$p"; done; else shift; add "$@"; fi ;;
          brew) if [ "$1" = list ]; then shift 2; for p in "$@"; do if is_installed "$p"; then echo "$p 1.0"; else status=1; fi; done; else shift; add "$@"; fi ;;
        esac
        exit $status
        """#

    /// A sandbox with the fake managers first on PATH (and a `hello` tool to pin).
    func sandbox() throws -> (Sandbox, log: String, state: String) {
        let s = try Sandbox()
        try s.write("fake/pm", Self.fake)
        chmod(s.root + "/fake/pm", 0o755)
        for name in ["dpkg-query", "apt-get", "rpm", "dnf", "pacman", "apk", "brew"] {
            try FileManager.default.createSymbolicLink(atPath: s.root + "/fake/" + name, withDestinationPath: s.root + "/fake/pm")
        }
        s.environment["PATH"] = s.root + "/fake:/usr/bin:/bin"
        s.environment["FAKE_LOG"] = s.root + "/log"
        s.environment["FAKE_STATE"] = s.root + "/state"
        s.environment["SHELL"] = "/bin/bash"
        return (s, s.root + "/log", s.root + "/state")
    }

    func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test(arguments: ["apt", "dnf", "pacman", "apk", "brew"])
    func installsOnlyWhatIsMissingThenHasNothingToDo(manager: String) throws {
        let (s, log, state) = try sandbox()
        try "already\n".write(toFile: state, atomically: true, encoding: .utf8)
        // Packages for another manager are not this machine's business.
        let other = manager == "apt" ? "dnf" : "apt"
        try s.write("app/tack.yml", "bootstrap:\n  packages:\n    \(manager): [already, wanted, also]\n    \(other): [other-only]\n")
        let env = ["TACK_PACKAGE_MANAGER": manager]
        let first = try s.tack(["bootstrap", "--yes"], in: "app", env: env)
        if manager == "brew" && getuid() == 0 {
            // Homebrew refuses to run as root; tack says so instead of running it.
            #expect(first.status != 0 && first.stderr.contains("Homebrew does not run as root"), "\(first.stderr)")
            #expect(read(state) == "already\n")
            return
        }
        #expect(first.status == 0, "\(first.stderr)")
        let expectedInstall: [String: String] = [
            "apt": "apt-get update -q\napt-get install -y -q --no-install-recommends wanted also",
            "dnf": "dnf install -y wanted also", "pacman": "pacman -S --noconfirm --needed wanted also",
            "apk": "apk add wanted also", "brew": "brew install wanted also",
        ]
        let installs = read(log).split(separator: "\n").filter { !$0.hasPrefix("dpkg-query") && !$0.hasPrefix("rpm") && !$0.contains(" -Q ") && !$0.hasPrefix("apk info") && !$0.hasPrefix("brew list") }
        #expect(installs.joined(separator: "\n") == expectedInstall[manager], "\(read(log))")
        #expect(read(state) == "already\nwanted\nalso\n")
        #expect(first.stderr.contains("install system packages with") && first.stderr.contains("wanted, also"), "\(first.stderr)")

        // Second run: only the query, and nothing to do.
        try "".write(toFile: log, atomically: true, encoding: .utf8)
        let second = try s.tack(["bootstrap", "--yes"], in: "app", env: env)
        #expect(second.status == 0)
        #expect(second.stderr.contains("nothing to do"), "\(second.stderr)")
        #expect(read(log).split(separator: "\n").count == 1, "\(read(log))")
    }

    @Test func planDryRunPromptFailureShellRcAndCommands() throws {
        let (s, log, state) = try sandbox()
        let repo = try GitFixture.tool(in: s, tags: ["1.0.0"])
        try s.write("app/tack.yml", """
            tools:
              hello: \(repo.entry("1.0.0"))
            bootstrap:
              packages: { apt: [libfoo, broken] }
              run: ["hello > ran.txt", "echo second >> ran.txt"]

            """)
        try s.write("home/.bashrc", "# my settings\nalias ll='ls -l'\n")

        // Untrusted commands: refused before anything changes.
        let untrusted = try s.tack(["bootstrap", "--yes", "--shell-rc"], in: "app", env: ["TACK_PACKAGE_MANAGER": "apt"])
        #expect(untrusted.status != 0)
        #expect(untrusted.failures.map(\.cause) == [.trust(.bootstrapCommands(file: s.root + "/app/tack.yml"))], "\(untrusted.stderr)")
        #expect(read(log).isEmpty && read(state).isEmpty)
        #expect(try s.tack(["trust"], in: "app").status == 0)

        // The plan, and --dry-run changes nothing.
        let dry = try s.tack(["bootstrap", "--dry-run", "--shell-rc"], in: "app", env: ["TACK_PACKAGE_MANAGER": "apt"])
        #expect(dry.status == 0)
        for part in ["install system packages with apt-get", "libfoo, broken", "install tools: hello 1.0.0", "add the bash hook to ~/.bashrc",
                     "run: hello > ran.txt", "run: echo second >> ran.txt", "--dry-run: nothing was changed"] {
            #expect(dry.stderr.contains(part), "\(part): \(dry.stderr)")
        }
        #expect(!read(log).contains("apt-get"))
        #expect(read(s.root + "/home/.bashrc") == "# my settings\nalias ll='ls -l'\n")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/hello"))

        // Without --yes and no terminal: refused.
        let noYes = try s.tack(["bootstrap", "--shell-rc"], in: "app", env: ["TACK_PACKAGE_MANAGER": "apt"])
        #expect(noYes.status != 0 && noYes.stderr.contains("needs --yes"), "\(noYes.stderr)")
        #expect(!read(log).contains("apt-get"))

        // A failing package: the step is named, later steps do not run.
        let failing = try s.tack(["bootstrap", "--yes", "--shell-rc"], in: "app", env: ["TACK_PACKAGE_MANAGER": "apt"])
        #expect(failing.status != 0)
        #expect(failing.stderr.contains("installing system packages (") && failing.stderr.contains("Unable to locate package broken")
                && failing.stderr.contains("run `tack bootstrap` again"), "\(failing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/tack-home/installs/hello"))
        #expect(!FileManager.default.fileExists(atPath: s.root + "/app/ran.txt"))

        // Fixed: it continues, and does everything else.
        try s.write("app/tack.yml", """
            tools:
              hello: \(repo.entry("1.0.0"))
            bootstrap:
              packages: { apt: [libfoo] }
              run: ["hello > ran.txt", "echo second >> ran.txt"]

            """)
        #expect(try s.tack(["trust"], in: "app").status == 0)
        let fixed = try s.tack(["bootstrap", "--yes", "--shell-rc"], in: "app", env: ["TACK_PACKAGE_MANAGER": "apt"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(read(state).contains("libfoo"))
        #expect(read(s.root + "/app/ran.txt") == "hello 1.0.0\nsecond\n")
        let rc = read(s.root + "/home/.bashrc")
        #expect(rc.hasPrefix("# my settings\nalias ll='ls -l'\n\n# >>> tack"), "\(rc)")
        #expect(rc.contains("activate bash)\"\n# <<< tack <<<\n"), "\(rc)")
        #expect(fixed.stderr.contains("tack bootstrap: done"), "\(fixed.stderr)")

        // Second run: nothing to do, nothing run again, the rc file unchanged.
        let again = try s.tack(["bootstrap", "--yes", "--shell-rc"], in: "app", env: ["TACK_PACKAGE_MANAGER": "apt"])
        #expect(again.status == 0 && again.stderr.contains("nothing to do"), "\(again.stderr)")
        #expect(read(s.root + "/app/ran.txt") == "hello 1.0.0\nsecond\n")
        #expect(read(s.root + "/home/.bashrc") == rc)
    }

    /// At a terminal (a pty from `script`), tack asks before installing system packages.
    @Test func asksAtATerminal() throws {
        let (s, _, state) = try sandbox()
        try s.write("app/tack.yml", "bootstrap:\n  packages: { apt: [wanted] }\n")
        let command = "'\(try Sandbox.binary())' bootstrap"
        let no = try s.run("/usr/bin/script", ["-qec", command, "/dev/null"], in: "app", env: ["TACK_PACKAGE_MANAGER": "apt"], input: "n\n")
        #expect(no.status != 0 && no.stdout.contains("Install the system packages? [y/N]") && no.stdout.contains("nothing was changed"), "\(no)")
        #expect(read(state).isEmpty)
        let yes = try s.run("/usr/bin/script", ["-qec", command, "/dev/null"], in: "app", env: ["TACK_PACKAGE_MANAGER": "apt"], input: "y\n")
        #expect(yes.status == 0, "\(yes)")
        #expect(read(state) == "wanted\n")
    }

    @Test(arguments: [("zsh", "home/.zshrc", "activate zsh)\""), ("fish", "home/.config/fish/config.fish", "activate fish | source")])
    func shellRcForZshAndFish(shell: String, file: String, line: String) throws {
        let (s, _, _) = try sandbox()
        try s.write("app/tack.yml", "tools: {}\n")
        try s.write(file, "set -x EDITOR vi\n")
        s.environment["SHELL"] = "/usr/bin/" + shell
        let r = try s.tack(["bootstrap", "--shell-rc"], in: "app")
        #expect(r.status == 0, "\(r.stderr)")
        let text = read(s.root + "/" + file)
        #expect(text.hasPrefix("set -x EDITOR vi\n\n# >>> tack") && text.contains(line) && text.hasSuffix("# <<< tack <<<\n"), "\(text)")
        let again = try s.tack(["bootstrap", "--shell-rc"], in: "app")
        #expect(again.stderr.contains("nothing to do"), "\(again.stderr)")
        #expect(read(s.root + "/" + file) == text)
        // A block pointing at another tack is replaced in place, not added twice.
        try s.write(file, text.replacingOccurrences(of: "activate", with: "--old activate") + "# after\n")
        #expect(try s.tack(["bootstrap", "--shell-rc"], in: "app").status == 0)
        let replaced = read(s.root + "/" + file)
        #expect(replaced == text + "# after\n", "\(replaced)")
        // An unknown SHELL needs --shell.
        s.environment["SHELL"] = "/bin/tcsh"
        let unknown = try s.tack(["bootstrap", "--shell-rc"], in: "app")
        #expect(unknown.status != 0 && unknown.stderr.contains("--shell bash, zsh or fish"), "\(unknown.stderr)")
    }

    /// Debian's real apt-get, only with TACK_NETWORK_TESTS=1 (it downloads from Debian's
    /// mirror and installs a package on this machine) and as root: the tiny `sl` package (not
    /// `hello`: other tests run a pinned tool named hello and must not find a system one)
    /// installed, then nothing to do; the machine is left as it was found. The plans, prompts
    /// and failures are tested against a stand-in apt-get above.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get")
                   && ProcessInfo.processInfo.environment["TACK_NETWORK_TESTS"] == "1"))
    func realAptGet() throws {
        let s = try Sandbox()
        s.environment["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin"
        let apt = ["DEBIAN_FRONTEND": "noninteractive"]
        let wasInstalled = FileManager.default.fileExists(atPath: "/usr/games/sl")
        // Start from sl not installed, so the first run has something to do.
        _ = try s.run("/usr/bin/apt-get", ["remove", "-y", "-q", "sl"], env: apt)
        defer { if !wasInstalled { _ = try? s.run("/usr/bin/apt-get", ["remove", "-y", "-q", "sl"], env: apt) } }
        try s.write("app/tack.yml", "bootstrap:\n  packages: { apt: [sl], brew: [sl] }\n")
        let first = try s.tack(["bootstrap", "--yes"], in: "app")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/games/sl"))
        let second = try s.tack(["bootstrap", "--yes"], in: "app")
        #expect(second.status == 0 && second.stderr.contains("nothing to do"), "\(second.stderr)")
    }
}
