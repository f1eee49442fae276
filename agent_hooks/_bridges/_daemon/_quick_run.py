"""The file the quick client runs as: ``<python> -I -S <this file> run ARGS...``.

It only puts its own directory on the module path and imports :mod:`._quick` from there
(a script is compiled on every run, an imported module is read from its cached
bytecode; the client's code is in the module so that only these lines are compiled
per call), then takes its own directory off the path again. When that import fails
(a broken installation) it exits 2, which the harnesses read as a block.
"""

import os
import sys

TYPE_CHECKING = False  # (not typing's: this file imports nothing it does not need)
if TYPE_CHECKING:
    from . import _quick
else:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        import _quick
    except Exception as exc:  # (a broken installation: a guard blocks, it never passes)
        sys.stderr.write(
            f"agent-hooks: the quick client cannot load ({type(exc).__name__}: {exc}); "
            "blocked (exit 2): reinstall py-agent-hooks\n"
        )
        sys.exit(2)
    finally:
        del sys.path[0]

if __name__ == "__main__":
    sys.exit(_quick.main(sys.argv[1:]))
