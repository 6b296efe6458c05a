from skatbot.cli import main

raise SystemExit(main())
