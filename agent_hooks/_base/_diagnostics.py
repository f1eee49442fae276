"""Diagnostics: what went wrong (or was worth saying), where, with a stable code.

Nothing in agent_hooks drops input or a handler's answer silently: whenever a
value is ignored, cut, overridden or refused, a :class:`Diagnostic` says so.
Diagnostics are values; they never raise. Codes are stable strings that tools
may match on; messages are for people and may change.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Iterable

import attrs

__all__ = [
    "DIAGNOSTICS_LOGGER",
    "LOGGED_AS_ERRORS",
    "Diagnostic",
    "DiagnosticCode",
    "Severity",
    "log_errors",
    "one_line",
]

DIAGNOSTICS_LOGGER = "agent_hooks.diagnostics"
"""The logger that diagnostics of severity error are logged to (a child of ``agent_hooks``)."""


class Severity(str, enum.Enum):
    """How serious a diagnostic is."""

    ERROR = "error"
    """Something was refused or failed: a configuration piece dropped, a handler that failed."""
    WARNING = "warning"
    """Something was ignored, cut or overridden, but work went on."""
    INFO = "info"
    """Worth knowing, nothing was lost."""


class DiagnosticCode(str, enum.Enum):
    """Stable diagnostic codes.

    Grouped by the layer that emits them. A code's string value never changes once
    released; new codes may be added, and a code nothing emits any more is removed
    (the changelog says so).
    """

    # -- wire: payloads (hook input) --
    INVALID_FIELD = "invalid_field"
    """A payload field has the wrong type; it was left unset."""
    UNTYPED_EVENT = "untyped_event"
    """An event this version does not type (a warning): carried untyped, its hooks run
    with the payload as it came and their answers reduced by the rules every event shares."""

    # -- wire: handler output --
    MALFORMED_JSON = "malformed_json"
    """Output that looked like JSON did not parse."""
    NOT_OBJECT = "not_object"
    """Output is valid JSON but not an object (array, string, null, number)."""
    WRONG_TYPE = "wrong_type"
    """An output field has the wrong type; the field was ignored."""
    INVALID_VALUE = "invalid_value"
    """An output field has a value outside its allowed set; the field was ignored."""
    UNKNOWN_FIELD = "unknown_field"
    """An output key no event knows: passed on to the harness as it came (an echoed
    payload key is ignored); in a payload, a nested key no class declares."""
    UNSUPPORTED_FIELD = "unsupported_field"
    """An output field that exists, but not for this event; it was ignored."""
    MISMATCHED_OUTPUT = "mismatched_output"
    """``hookSpecificOutput.hookEventName`` names another event; the specific part was ignored."""
    DEPRECATED_FIELD = "deprecated_field"
    """A deprecated spelling was accepted and translated."""
    INVALID_OUTPUT = "invalid_output"
    """A callback returned something that is not an output for its event."""
    PLAIN_STDOUT_IGNORED = "plain_stdout_ignored"
    """Plain (non-JSON) stdout on an event where it does not become context."""
    UNREADABLE_ANSWER = "unreadable_answer"
    """An answer on an event that can block could not be read whole where a decision may
    have been (JSON that does not parse or is not an object, a decision of the wrong type
    or value, ``hookSpecificOutput`` of another event): the hook failed, under its failure
    policy (``warn``: read as the harness reads it; ``block``, ``--fail-closed``: blocks)."""

    # -- handlers --
    HANDLER_ERROR = "handler_error"
    """A Python callback raised; the message names the exception."""
    TIMEOUT = "timeout"
    """A handler ran past its timeout and was stopped."""
    CANCELLED = "cancelled"
    """A handler was cancelled before it finished."""
    NONZERO_EXIT = "nonzero_exit"
    """A command exited with a non-blocking failure status."""
    LAUNCH_FAILED = "launch_failed"
    """A command could not be started."""
    STDOUT_TRUNCATED = "stdout_truncated"
    """A command printed more than the stdout cap; the rest was discarded."""
    STDERR_TRUNCATED = "stderr_truncated"
    """A command printed more than the stderr cap; the rest was discarded."""
    IO_FAILED = "io_failed"
    """Reading from or writing to a hook process failed."""
    FAILED_CLOSED = "failed_closed"
    """A failing handler blocked because its failure policy is ``block``."""
    HANDLER_DISABLED = "handler_disabled"
    """A configured handler cannot run here (unknown kind, unsupported option) and was kept disabled."""

    # -- dispatch and reduction --
    OVERRIDDEN = "overridden"
    """A later handler's value replaced an earlier one (e.g. two ``updatedInput``)."""
    CONTINUATION_CAP = "continuation_cap"
    """A Stop block was not honoured because the consecutive-continuation cap was reached."""
    BACKGROUND_FAILED = "background_failed"
    """A fire-and-forget handler failed; reported with the next dispatch."""
    BACKGROUND_CANCELLED = "background_cancelled"
    """A fire-and-forget handler was still running when its session closed and was cancelled."""
    ASYNC_REPLY = "async_reply"
    """A callback answered ``async``; its answer carries no decision."""
    UNDELIVERED = "undelivered"
    """What fire-and-forget handlers said could not be delivered: their one-off session
    (``agent-hooks run`` without the resident server) has no later answer to carry it."""

    # -- registration and configuration --
    INVALID_MATCHER = "invalid_matcher"
    """A matcher is not a valid regular expression; its group was dropped."""
    UNSUPPORTED_MATCHER = "unsupported_matcher"
    """A matcher on an event that has nothing to match."""
    INVALID_HANDLER = "invalid_handler"
    """A handler entry is malformed; it was dropped, its siblings kept."""
    INVALID_CONFIG = "invalid_config"
    """A configuration document has the wrong shape somewhere; that piece was dropped."""
    CONFIG_READ_FAILED = "config_read_failed"
    """A configuration file exists but could not be read or parsed."""
    TIMEOUT_LOOKS_LIKE_MS = "timeout_looks_like_ms"
    """A timeout in seconds is so large that it was probably meant as milliseconds."""
    PROGRAM_NOT_FOUND = "program_not_found"
    """A :class:`~agent_hooks.CommandHook` registered from Python names a program that
    is not there as the registry is built (not on ``PATH``, or no executable file):
    kept, it fails on every call until the program appears."""
    LEGACY_DEPRECATED = "legacy_deprecated"
    """A deprecated configuration shape was migrated."""
    UNTRUSTED = "untrusted"
    """Project hooks were skipped because the workspace is not trusted."""
    HOOKS_DISABLED = "hooks_disabled"
    """Hooks were switched off by configuration (``disableAllHooks`` and similar)."""

    # -- sessions --
    INVALID_CWD = "invalid_cwd"
    """The session's ``cwd`` (or ``project_dir``) is not an existing directory; hooks
    still receive it as the payload's ``cwd``, command hooks run elsewhere."""

    # -- handlers (added later) --
    PAYLOAD_UNENCODABLE = "payload_unencodable"
    """The event's payload could not be written for a hook (a value set from Python that
    is not JSON data); the hook was not called, and its failure policy applies."""
    NOT_STARTED = "not_started"
    """A command hook never started: it waited for a process slot until the dispatch's
    deadline (its own timeout only starts with its process); its failure policy applies."""

    # -- translation between harnesses --
    NOT_EXPRESSIBLE = "not_expressible"
    """Part of an answer cannot be said in the calling harness's wire format (an ``ask``
    where it has none, a rewrite it ignores, context on an event that takes none): it
    was mapped to the nearest behaviour the harness documents, or left out."""

    # -- configuration (added later) --
    ON_FAILURE_IGNORED = "on_failure_ignored"
    """A hook entry's ``onFailure: "block"`` where Claude Code ignores it (an async hook;
    Stop, SubagentStop, TaskCompleted, TeammateIdle; Setup and SessionStart for
    ``mcp_tool``): the hook loads with the default, a failure does not block."""


@attrs.frozen(kw_only=True, repr=False)
class Diagnostic:
    """One thing worth telling about a payload, an output, a handler or a configuration.

    Diagnostics are plain values: emitting one never interrupts work.
    """

    code: DiagnosticCode
    """Stable code; match on this, not on the message."""
    message: str
    """Human-readable explanation of what happened and what was done about it."""
    severity: Severity = Severity.WARNING
    """How serious it is."""
    source: str | None = None
    """Where the handler or configuration came from (a file path, ``python``, a plugin name)."""
    location: str | None = None
    """Where inside the source: ``PreToolUse[0].hooks[1]``, a JSON path, a line number."""
    handler: str | None = None
    """The handler concerned, by its display name, when there is one."""

    def __repr__(self) -> str:
        """The fields that are set, codes by their value: ``Diagnostic(code='timeout',
        severity='error', message='timed out after 5s', handler='./guard.sh')``."""
        code, severity = (getattr(v, "value", v) for v in (self.code, self.severity))
        parts = [f"code={code!r}", f"severity={severity!r}"]
        parts.append(f"message={self.message!r}")
        parts += [
            f"{name}={value!r}"
            for name, value in (
                ("source", self.source),
                ("location", self.location),
                ("handler", self.handler),
            )
            if value is not None
        ]
        return f"Diagnostic({', '.join(parts)})"

    def __str__(self) -> str:
        where = ": ".join(p for p in (self.source, self.location) if p)
        who = f" [{self.handler}]" if self.handler else ""
        prefix = f"{where}: " if where else ""
        return f"{prefix}{self.severity.value} {self.code.value}{who}: {self.message}"

    def at(
        self,
        *,
        source: str | None = None,
        location: str | None = None,
        handler: str | None = None,
    ) -> Diagnostic:
        """Return a copy with the unset ``source``, ``location`` and ``handler`` filled in."""
        return attrs.evolve(
            self,
            source=self.source or source,
            location=self.location or location,
            handler=self.handler or handler,
        )


LOGGED_AS_ERRORS = frozenset(
    {DiagnosticCode.PROGRAM_NOT_FOUND, DiagnosticCode.INVALID_OUTPUT, DiagnosticCode.UNREADABLE_ANSWER}
)
"""Codes of mistakes in a hook that make it fail open on every call (a program that is
not there, an answer that cannot be read: a callback's wrongly shaped dict): their
error diagnostics are logged at ERROR, the others at WARNING."""


def log_errors(diagnostics: Iterable[Diagnostic], what: str) -> None:
    """Log each distinct diagnostic of severity error in ``diagnostics`` once, to the
    :data:`DIAGNOSTICS_LOGGER` logger (so a hook that never runs is visible without an
    observer): at ERROR for the codes of :data:`LOGGED_AS_ERRORS`, else at WARNING.
    ``what`` says where they come from (``registry``, ``PreToolUse dispatch``); the
    record's ``diagnostic`` attribute is the value."""
    log = logging.getLogger(DIAGNOSTICS_LOGGER)
    if not log.isEnabledFor(logging.ERROR):
        return
    seen: set[Diagnostic] = set()
    for d in diagnostics:
        if d.severity is Severity.ERROR and d not in seen:
            seen.add(d)
            level = logging.ERROR if d.code in LOGGED_AS_ERRORS else logging.WARNING
            if log.isEnabledFor(level):
                log.log(level, "agent_hooks %s: %s", what, d, extra={"diagnostic": d})


def one_line(text: str) -> str:
    """``text`` on one line: line breaks written as ``\\n`` (a message for stderr or a log)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
