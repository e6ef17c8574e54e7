import TackCLI

await Tack.runFromCommandLine()
