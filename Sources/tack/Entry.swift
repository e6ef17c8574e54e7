import CLean

// The `tack` executable: TackLean, TackCore, YAML and the backend kinds (the directories
// beside this file link to their sources; Package.swift leaves out what installs) built as one
// Embedded Swift module and linked static, so it starts as fast as a C program. It answers what
// a snapshot answers (shims, `exec`, `which`, `current`, the prompt hook), resolves and saves a
// new snapshot itself when one no longer holds, and hands everything else to `tack-front`.
// See Launcher.
//
// SwiftPM links an executable target's entry point under `<module>_main` and aliases `main`
// to it (so tests can link the module); an Embedded Swift module cannot use top-level code
// for argc and argv, so the entry point is this C function with that name.
@_cdecl("tack_main")
func tackMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    Launcher.main(argc: argc, argv: argv, accepts: { command in
        // A tool name `tack current` refuses is refused by the front end, which says why.
        if case .current(let tool?, _) = command { return ToolName.isValid(String(cString: tool)) }
        return true
    }, refresh: { front in
        guard let settings = CurrentProcess.settings(relevantOnly: true, backends: .standard) else { return nil }
        return Snapshot.refreshQuietly(settings: settings, executable: front).flatMap { LeanSnapshot(made: $0) }
    })
}
