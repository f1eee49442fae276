"""Python callbacks named by reference in a config file: ``{"type": "python",
"callable": "package.module:function"}``.

The module is imported once, at registration, with the config file's directory
searched first (and the project directory, for files inside the project), then
the normal ``sys.path``, then the project directory for files outside it; the
callable may have either accepted signature. Importing project code is code
execution: loaders only build these for sources that passed the trust gate.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Sequence
from typing import Any

import attrs

from .._base._errors import RegistrationError
from ._callbacks import callback_node
from ._nodes import HandlerNode, OnError

__all__ = ["PythonRefHook", "resolve_callable"]


def resolve_callable(
    ref: str, search_paths: Sequence[str] = (), fallback_paths: Sequence[str] = ()
) -> Any:
    """Import ``module:attr`` (``attr`` may be dotted), searching ``search_paths`` before
    ``sys.path`` and ``fallback_paths`` after it.

    Raises:
        RegistrationError: the reference is malformed, the import fails, or the
            attribute is missing or not callable.
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
        module = importlib.import_module(module_name)
    except Exception as exc:
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


@attrs.frozen(kw_only=True)
class PythonRefHook:
    """A Python callback given by import path, run in-process like any callback."""

    callable: str
    search_paths: Sequence[str] = ()
    fallback_paths: Sequence[str] = ()
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
        fn = resolve_callable(self.callable, self.search_paths, self.fallback_paths)
        return callback_node(
            fn,
            name=self.name or self.callable,
            timeout=self.timeout,
            on_error=self.on_error,
            background=self.async_,
            if_rule=self.if_rule,
            status_message=self.status_message,
        )
