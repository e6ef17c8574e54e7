import TackFront

Front.main(CommandLine.arguments)
