import TackFront

Front.main()
