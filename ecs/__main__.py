from ecs.cli import main

raise SystemExit(main())
