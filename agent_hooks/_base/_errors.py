"""Exceptions raised by agent_hooks.

Only programming errors and unusable input raise; everything a handler or a
configuration file does wrong becomes a :class:`~agent_hooks.Diagnostic`.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "AgentHooksError",
    "InvalidPayloadError",
    "RegistrationError",
    "UnknownEventError",
]


class AgentHooksError(Exception):
    """Base class of every exception agent_hooks raises on purpose."""


class UnknownEventError(AgentHooksError, ValueError):
    """An event name that is neither a canonical name nor a known alias."""

    def __init__(self, name: object, suggestions: Sequence[str] = ()) -> None:
        self.name = name
        self.suggestions: tuple[str, ...] = tuple(suggestions)
        hint = f"; did you mean {', '.join(self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"unknown hook event {name!r}{hint}")


class InvalidPayloadError(AgentHooksError, ValueError):
    """A hook payload cannot be decoded into an event input.

    ``path`` names where in the payload the problem is (``$`` for the whole
    document, ``$.tool_name`` for a field).
    """

    def __init__(self, message: str, *, path: str = "$") -> None:
        self.path = path
        super().__init__(f"{path}: {message}")


class RegistrationError(AgentHooksError, TypeError):
    """A handler or matcher cannot be registered (wrong callback signature, bad option)."""
