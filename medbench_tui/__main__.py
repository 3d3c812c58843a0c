from medbench_tui.cli import main

raise SystemExit(main())
