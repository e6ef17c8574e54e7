import ArgumentParser
import TackCore

/// `--no-cache`, for the commands that install.
struct NoCacheOption: ParsableArguments {
    @Flag(help: "Build here: neither pull from nor push to the team cache (also TACK_CACHE=off).")
    var noCache = false
}
