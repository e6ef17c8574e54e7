import CLean

// The `tack` executable: TackLean's sources (the files beside this one link to them) built in
// Embedded Swift and linked static, so it starts as fast as a C program. It answers what a
// snapshot answers (shims, `exec`, `which`, the prompt hook) and hands everything else to
// `tack-front`. See Launcher.
//
// SwiftPM links an executable target's entry point under `<module>_main` and aliases `main`
// to it (so tests can link the module); an Embedded Swift module cannot use top-level code
// for argc and argv, so the entry point is this C function with that name.
@_cdecl("tack_main")
func tackMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    Launcher.main(argc: argc, argv: argv)
}
