import ArgumentParser
import TackCore

/// `--frozen`, for the commands that would install or lock.
struct FrozenOption: ParsableArguments {
    @Flag(help: "Change nothing: use exactly tack.lock, never write it, and fail on any difference from the manifest (also TACK_FROZEN=1).")
    var frozen = false
}
