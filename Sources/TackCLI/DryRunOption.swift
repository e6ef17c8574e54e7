import ArgumentParser
import TackCore

/// `--dry-run`, for the commands that change the machine.
struct DryRunOption: ParsableArguments {
    @Flag(help: "Print what would be done and change nothing.")
    var dryRun = false
}
