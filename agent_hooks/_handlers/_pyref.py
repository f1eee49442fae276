"""Python callbacks named by reference in a config file: ``{"type": "python",
"callable": "package.module:function"}``.

The module is imported once, at registration, with the config file's directory
searched first (and the project directory, for files inside the project), then
the normal ``sys.path``, then the project directory for files outside it when that
project is trusted; the callable may have either accepted signature. Importing
project code is code execution: loaders only build these for sources that passed
the trust gate, and a module that would come from under an untrusted project
directory (through any ``sys.path`` entry) is refused before it runs.

Module names are resolved through this process's ``sys.modules``: one process must
never load hooks of two projects (the resident server gives each project a worker
process of its own and replaces it when a module file it loaded changes; see
``_bridges/_daemon/_worker``).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

import attrs

from .._base._errors import RegistrationError
from ._callbacks import callback_node
from ._nodes import HandlerNode, OnError

__all__ = ["PythonRefHook", "installation_dirs", "resolve_callable"]


def resolve_callable(
    ref: str,
    search_paths: Sequence[str] = (),
    fallback_paths: Sequence[str] = (),
    untrusted_dirs: Sequence[str] = (),
) -> Any:
    """Import ``module:attr`` (``attr`` may be dotted), searching ``search_paths`` before
    ``sys.path`` and ``fallback_paths`` after it. A module (or any package on its dotted
    path) not imported yet whose file would come from under one of ``untrusted_dirs``
    is refused before any of its code runs, whichever ``sys.path`` entry leads there;
    the running interpreter's standard library and site-packages are never refused.

    Raises:
        RegistrationError: the reference is malformed, the import fails or is refused,
            or the attribute is missing or not callable.
    """
    module_name, sep, attr_path = ref.partition(":")
    if not sep or not module_name or not attr_path:
        raise RegistrationError(
            f"python hook reference must look like 'package.module:function', got {ref!r}"
        )
    added = [p for p in search_paths if p and p not in sys.path]
    appended = [p for p in fallback_paths if p and p not in sys.path and p not in added]
    sys.path[:0] = added
    sys.path.extend(appended)
    try:
        if untrusted_dirs:
            _refuse_untrusted(module_name, ref, untrusted_dirs)
        module = importlib.import_module(module_name)
    except RegistrationError:
        raise
    except (Exception, SystemExit) as exc:  # (a module that exits while loading is a bad hook)
        raise RegistrationError(
            f"cannot import {module_name!r} for python hook {ref!r}: {type(exc).__name__}: {exc}"
        ) from None
    finally:
        for p in (*added, *appended):
            with contextlib.suppress(ValueError):
                sys.path.remove(p)
    target: Any = module
    for part in attr_path.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise RegistrationError(
                f"{module_name!r} has no attribute {attr_path!r} (python hook {ref!r})"
            ) from None
    if not callable(target):
        raise RegistrationError(f"python hook {ref!r} is not callable")
    return target


def _refuse_untrusted(module_name: str, ref: str, untrusted_dirs: Sequence[str]) -> None:
    """Raise when ``module_name`` or a package on its path would be imported from under
    an untrusted directory. Only finders run (``importlib.util.find_spec``), and a
    package's ``__init__`` only after its own location passed the same check.

    Raises:
        RegistrationError: it would.
    """
    import importlib.util

    roots = [os.path.realpath(d) for d in untrusted_dirs]
    installed = installation_dirs()
    parts = module_name.split(".")
    for i in range(1, len(parts) + 1):
        name = ".".join(parts[:i])
        if name in sys.modules:
            continue
        try:
            spec = importlib.util.find_spec(name)
        except Exception:  # the import proper reports it
            return
        if spec is None:
            return
        places = [spec.origin] if spec.origin and spec.has_location else []
        places += list(spec.submodule_search_locations or ())
        for place in places:
            real = os.path.realpath(os.path.abspath(place))
            if any(_within(real, p) for p in installed):
                continue
            root = next((r for r in roots if _within(real, r)), None)
            if root is not None:
                raise RegistrationError(
                    f"python hook {ref!r} not imported: {name!r} would come from {place}, "
                    f"inside the project {root}, which is not trusted; review the project "
                    f"and trust its hook files (`agent-hooks trust --project-dir {root}`; "
                    "headless runs: --trust-project-hooks), or install the module outside "
                    "the project"
                )


def installation_dirs() -> set[str]:
    """The running interpreter's library directories (standard library, site-packages):
    what is installed there is never refused (an interpreter run from a project's own
    virtual environment already runs that environment's code)."""
    import site
    import sysconfig

    dirs: set[str] = set()
    for scheme_paths in (
        sysconfig.get_paths(),
        sysconfig.get_paths(vars={"base": sys.base_prefix}),
    ):
        dirs.update(scheme_paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib"))
    with contextlib.suppress(Exception):
        dirs.update(site.getsitepackages())
    with contextlib.suppress(Exception):
        dirs.add(site.getusersitepackages())
    return {os.path.realpath(d) for d in dirs if d}


def _within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


@attrs.frozen(kw_only=True)
class PythonRefHook:
    """A Python callback given by import path, run in-process like any callback."""

    callable: str
    search_paths: Sequence[str] = ()
    fallback_paths: Sequence[str] = ()
    untrusted_dirs: Sequence[str] = ()
    """Directories no module may be imported from (an untrusted project)."""
    name: str | None = None
    timeout: float | None = None
    on_error: OnError | None = None
    async_: bool = False
    if_rule: str | None = None
    status_message: str | None = None

    def to_node(self) -> HandlerNode:
        """Import the callable and build its node.

        Raises:
            RegistrationError: see :func:`resolve_callable`; or a wrong signature.
        """
        fn = resolve_callable(
            self.callable, self.search_paths, self.fallback_paths, self.untrusted_dirs
        )
        return callback_node(
            fn,
            name=self.name or self.callable,
            timeout=self.timeout,
            on_error=self.on_error,
            background=self.async_,
            if_rule=self.if_rule,
            status_message=self.status_message,
        )
