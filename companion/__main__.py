"""``python -m companion`` is the same program as ``totem-companion``."""

from companion.cli import main

raise SystemExit(main())
