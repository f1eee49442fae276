"""The pytest plugin of :mod:`agent_hooks.testing`, registered through the
``pytest11`` entry point (``agent_hooks``): fixtures for hook authors.

* ``hook_payload``: :func:`agent_hooks.testing.payload`.
* ``run_hook``: :func:`agent_hooks.testing.run_hook` (synchronous tests; async tests
  ``await agent_hooks.testing.arun_hook(...)``).

The plugin imports nothing of agent_hooks until a fixture is used, so that it costs
nothing in test runs that do not use it. Disable it with ``-p no:agent_hooks``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

__all__ = ["hook_payload", "run_hook"]


@pytest.fixture
def hook_payload() -> Callable[..., dict[str, Any]]:
    """:func:`agent_hooks.testing.payload`: ``hook_payload("PreToolUse", command="ls")``."""
    from ._testing import payload

    return payload


@pytest.fixture
def run_hook() -> Callable[..., Any]:
    """:func:`agent_hooks.testing.run_hook`: ``run_hook("guard.sh", payload).blocked``."""
    from ._testing import run_hook as run

    return run
