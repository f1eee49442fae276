"""``python -m agent_hooks``: the ``agent-hooks`` command line.

``agent-hooks run`` is first offered to the resident server's thin client, which
imports nothing heavy; everything else (and ``run`` when the client declines) goes
through the full command line."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # (typing is not imported on the client's path)
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """The ``agent-hooks`` command line (``argv``, default ``sys.argv[1:]``); returns
    the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    from ._bridges._daemon._client import client_main

    code = client_main(args)
    if code is not None:
        return code
    from ._bridges._cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
