import TackCLI

Tack.main()
