"""Which worker of the resident server a call goes to: its project and its *loading
environment*, the values of the variables that decide which files load and which
Python code they import. The variables are those the harness rows declare
(``_config._harness.loading_env()``: a new harness's variable is a row's, not a list
here) and :data:`~._protocol.BASE_LOADING_ENV`. Two calls of one project whose
loading environments differ get different workers, so no module imported under one
(``sys.modules``) answers for the other: a worker loads exactly what an in-process
``run`` of its calls would (each call runs with its own whole environment)."""

from __future__ import annotations

from collections.abc import Mapping

from ..._config._harness import loading_env
from ._protocol import BASE_LOADING_ENV

__all__ = ["WorkerKey", "loading_names", "loading_of", "worker_key"]

WorkerKey = tuple[str, tuple[tuple[str, str], ...]]
"""(project, loading environment)."""


def loading_names() -> tuple[str, ...]:
    """Every variable of a call's loading environment, in a fixed order."""
    return tuple(dict.fromkeys((*BASE_LOADING_ENV, *loading_env())))


def loading_of(environ: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """The loading environment of a call with ``environ`` (an unset variable is
    ``""``, as an empty one reads)."""
    return tuple((name, environ.get(name, "")) for name in loading_names())


def worker_key(project: str, environ: Mapping[str, str]) -> WorkerKey:
    """The worker of a call for ``project`` with ``environ``."""
    return project, loading_of(environ)
