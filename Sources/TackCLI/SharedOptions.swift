import ArgumentParser

/// `--frozen`, for the commands that would install or lock.
struct FrozenOption: ParsableArguments {
    @Flag(help: "Change nothing: use exactly tack.lock, never write it, and fail on any difference from the manifest (also TACK_FROZEN=1).")
    var frozen = false
}

/// `--dry-run`, for the commands that change the machine.
struct DryRunOption: ParsableArguments {
    @Flag(help: "Print what would be done and change nothing.")
    var dryRun = false
}

/// `--no-cache`, for the commands that install.
struct NoCacheOption: ParsableArguments {
    @Flag(help: "Build here: neither pull from nor push to the team cache (also TACK_CACHE=off).")
    var noCache = false
}
