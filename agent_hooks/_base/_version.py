"""The package version and distribution name (one place: the public package and the
CLI read them here), and the check that no other distribution's files are mixed into
this package.

PyPI has other projects whose distributions install an ``agent_hooks`` import package
too (``agent-hooks``, ``agent-hooks-sdk``); installed into the same environment, the
later install writes its files into this package's directory. Importing this module
(``import agent_hooks`` does) looks for that at a cost nothing measures: one listing of
the package directory, compared with :data:`SHIPPED`. Only when a name is there that
this distribution does not ship (or something else is off) does it ask
``importlib.metadata`` which installed distributions own files in the directory, and
then raises :class:`ImportError` naming them. A stray file that no other distribution
owns (an editor's backup, a new module in a source checkout) costs that look-up and
nothing else. ``agent-hooks --version`` runs the full look-up every time
(:func:`~agent_hooks._base._mixed.foreign_distributions`).

Not detectable from here: another distribution that replaced this package's
``__init__.py`` (then this module never runs on ``import agent_hooks``; the
``agent-hooks`` command still runs it, through ``agent_hooks.__main__``), or one whose
files all have this package's names.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # (typing is not imported on the start-up path)
if TYPE_CHECKING:
    from collections.abc import Iterable

VERSION = "0.1.0"
DISTRIBUTION = "py-agent-hooks"
"""The name this package is installed under (``pip install py-agent-hooks``)."""

SHIPPED = frozenset(
    {
        "__init__.py",
        "__main__.py",
        "agent_framework.py",
        "agno.py",
        "autogen.py",
        "__pycache__",
        "_base",
        "_bridges",
        "_config",
        "_dispatch",
        "_events",
        "_handlers",
        "_wire",
        "claude_agent_sdk.py",
        "crewai.py",
        "google_adk.py",
        "haystack.py",
        "langchain.py",
        "openai_agents.py",
        "otel.py",
        "py.typed",
        "pydantic_ai.py",
        "semantic_kernel.py",
        "strands.py",
        "testing.py",
    }
)
"""The entries of the ``agent_hooks`` directory this distribution ships (and
``__pycache__``); a test keeps it equal to the wheel's."""

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The ``agent_hooks`` directory this module was loaded from."""


def check_package_dir(
    package_dir: str = PACKAGE_DIR, shipped: Iterable[str] = SHIPPED
) -> None:
    """Raise :class:`ImportError` when another distribution's files are in
    ``package_dir`` (see the module's docstring for what is detected and at what
    cost; the look-up is :func:`~agent_hooks._base._mixed.foreign_distributions`)."""
    if not __package__:
        return  # (loaded by itself, by the quick client: the package checks when it loads)
    try:
        extra = set(os.listdir(package_dir)).difference(shipped)
    except OSError:
        return  # (a zip import or an unreadable directory: nothing to compare)
    if not extra:
        return
    from ._mixed import foreign_distributions, mixed_message

    found = foreign_distributions(package_dir, DISTRIBUTION)
    if found:
        raise ImportError(mixed_message(found, package_dir, DISTRIBUTION), name="agent_hooks")


check_package_dir()
