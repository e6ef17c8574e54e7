import TackLean

Launcher.main()
