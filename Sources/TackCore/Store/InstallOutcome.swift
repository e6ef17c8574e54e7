/// What an install produced, beyond the files: recorded in the install's metadata.
public struct InstallOutcome: Sendable, Equatable {
    /// Executables, relative to the install directory (`bin/ink-cli`).
    public var binaries: [String]
    /// Facts about this machine's build (the Swift toolchain a tool was built with).
    public var metadata: [String: String]
    /// What the lock should learn (a checksum first seen on this platform), merged into the
    /// lock entry after the install.
    public var lockFields: [String: LockValue]
    /// Things the user should know (a setuid bit removed).
    public var notes: [String]
    /// What this install saw first and the lock should learn, for the user (the checksum of
    /// its linux-x86_64 download, and its value): said as recorded in tack.lock only where the
    /// lock is written.
    public var learned: [Learned] = []
    /// Why this build must not go to the team cache (its source tree changed while it was
    /// built), or nil.
    public var unshareable: String?
    /// Downloaded as its publisher built it, though its backend builds (a git tool's bundle).
    public var prebuilt = false
    /// A part moved into the cache when the install is removed (a pip tool's environment),
    /// recorded in this machine's install record only.
    public var kept: KeptPart?
    public init(binaries: [String], metadata: [String: String] = [:], lockFields: [String: LockValue] = [:], notes: [String] = [], unshareable: String? = nil) {
        self.binaries = binaries
        self.metadata = metadata
        self.lockFields = lockFields
        self.notes = notes
        self.unshareable = unshareable
    }
}
