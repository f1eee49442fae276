"""``python -m agent_hooks``: the ``agent-hooks`` command line."""

from __future__ import annotations

import sys

from ._bridges._cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
