import TackCore

/// Makes a toolchain's SwiftPM read Swift SDKs from the toolchain's own install
/// (`<install>/swift-sdks`) instead of the user's `~/.swiftpm/swift-sdks`, which every
/// toolchain on the machine shares (and an SDK works only with its own toolchain version).
///
/// SwiftPM is one program, `usr/bin/swift-package`, that acts by the name it is run as
/// (`swift-build`, `swift-sdk` and the rest link to it; the `swift` driver runs them from the
/// directory it really lives in). tack renames it `.swift-package-tack` in the same directory
/// (its libraries are found relative to it) and puts a small script in its place that runs it
/// under the name it was called by, with `--swift-sdks-path` added where that command reads
/// it. An explicit `--swift-sdks-path` comes later on the command line, and wins.
struct SwiftPMWrapper {
    let fs: any FileSystem

    /// The renamed program.
    static let real = ".swift-package-tack"
    /// Commands that are their own program in older toolchains rather than a link to
    /// swift-package: renamed `.<name>-tack` beside it, and linked to the wrapper.
    static let commands = ["swift-build", "swift-test", "swift-run", "swift-sdk", "swift-experimental-sdk"]

    /// Wraps the SwiftPM of the toolchain installed at `toolchain` (whose `bin/swift` links
    /// into it), unless it is wrapped already or has no SwiftPM.
    func install(toolchain: String, tool: String) throws(TackError) {
        guard let target = fs.linkTarget(toolchain + "/bin/swift"), target.hasPrefix("../"), target.hasSuffix("/usr/bin/swift") else { return }
        let top = String(target.dropFirst(3).dropLast("/usr/bin/swift".count))
        try install(usrBin: toolchain + "/" + top + "/usr/bin", top: top, tool: tool)
    }

    /// Wraps the SwiftPM in `usrBin`, the `usr/bin` of the toolchain directory `top` (relative
    /// to the install, like `files/swift-6.0.3-RELEASE-ubuntu22.04`).
    func install(usrBin: String, top: String, tool: String) throws(TackError) {
        let program = usrBin + "/swift-package"
        guard fs.info(usrBin + "/" + Self.real) == nil, fs.linkTarget(program) == nil, fs.isFile(program), fs.isExecutable(program) else { return }
        // From usr/bin up to the install: one step per component of `top`, two for usr/bin.
        let depth = top.split(separator: "/").count + 2
        let sdks = String(repeating: "../", count: depth) + "swift-sdks"
        do {
            for name in Self.commands where fs.linkTarget(usrBin + "/" + name) == nil && fs.isFile(usrBin + "/" + name) {
                try fs.move(usrBin + "/" + name, to: usrBin + "/.\(name)-tack")
                try fs.makeLink(usrBin + "/" + name, to: "swift-package")
            }
            try fs.move(program, to: usrBin + "/" + Self.real)
            try fs.writeAtomically(program, Array(Self.script(sdks: sdks).utf8), permissions: 0o755)
        } catch {
            throw TackError("cannot set up the SwiftPM of \(tool) to read its own Swift SDKs (\(usrBin)): \(error)")
        }
    }

    /// The wrapper: finds the directory it really lives in (through tack's links), then runs
    /// the real program under the name it was called by.
    static func script(sdks: String) -> String {
        """
        #!/bin/bash
        # Written by tack. This toolchain's SwiftPM reads Swift SDKs from its own directory
        # (\(sdks) from here), where tack installs the SDKs pinned with it, so
        # `swift build --swift-sdk …` sees exactly the SDKs of this toolchain's version.
        # An explicit --swift-sdks-path comes later on the command line and wins.
        self=$0
        while [ -L "$self" ]; do
          link=$(readlink "$self") || break
          case $link in
            /*) self=$link ;;
            *) case $self in */*) self=${self%/*}/$link ;; *) self=$link ;; esac ;;
          esac
        done
        case $self in */*) here=${self%/*} ;; *) here=. ;; esac
        sdks=$here/\(sdks)
        name=${0##*/}
        real=$here/.$name-tack
        [ -x "$real" ] || real=$here/\(real)
        case $name in
          swift-sdk|swift-experimental-sdk)
            case ${1-} in
              install|list|remove|configure)
                sub=$1; shift
                exec -a "$0" "$real" "$sub" --swift-sdks-path "$sdks" "$@" ;;
              configuration)
                case ${2-} in
                  set|reset|show)
                    sub=$1; sub2=$2; shift 2
                    exec -a "$0" "$real" "$sub" "$sub2" --swift-sdks-path "$sdks" "$@" ;;
                esac ;;
            esac ;;
          swift-build|swift-test|swift-run|swift-package)
            exec -a "$0" "$real" --swift-sdks-path "$sdks" "$@" ;;
        esac
        exec -a "$0" "$real" "$@"

        """
    }
}
