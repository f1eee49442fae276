"""The one handler node type every handler kind becomes, and the one result shape.

A Python callback, a shell command, an HTTP endpoint or an application's own
kind is turned into a :class:`HandlerNode` at registration. The dispatch loop
and the reducer only ever see nodes and :class:`HandlerResult` values; they
never ask which kind a node is.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable, Hashable, Mapping
from typing import Any, Literal, Protocol, runtime_checkable

import anyio
import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._events._capabilities import EventSpec
from .._events._model import HookInput, HookOutput
from .._wire._codec import encode_input, payload_bytes
from .._wire._dialects import CLAUDE, Dialect, WireFormat
from .._wire._outputs import is_blocking
from ._limits import DEFAULT_SECRET_PATTERNS

__all__ = [
    "Handler",
    "HandlerInfo",
    "HandlerNode",
    "HandlerResult",
    "HookCall",
    "OnError",
    "Outcome",
    "STRICT_OUTPUT_CODES",
    "enforce_strict_output",
]

OnError = Literal["warn", "ignore", "block"]
"""Failure policy of a handler: ``warn`` (fail open with a diagnostic, the default),
``ignore`` (fail open quietly), ``block`` (fail closed: a failure blocks like exit 2)."""


class Outcome(str, enum.Enum):
    """How a handler run ended."""

    OK = "ok"
    """It answered (possibly with no opinion)."""
    BLOCKED = "blocked"
    """It blocked (exit code 2, or a failure under ``on_error="block"``)."""
    ERROR = "error"
    """It failed (raised, non-blocking exit status, could not start, bad answer)."""
    TIMEOUT = "timeout"
    """It ran past its timeout and was stopped."""
    CANCELLED = "cancelled"
    """It was cancelled (its session closed while it ran in the background)."""
    SKIPPED = "skipped"
    """It did not run (its ``if`` rule did not match, or it is disabled)."""


@attrs.frozen(kw_only=True)
class HandlerInfo:
    """Who a result is from: enough to name a handler in a report or a diagnostic."""

    name: str
    """Display name: the configured name, else the command, argv or callable name."""
    kind: str
    """Handler kind: ``python``, ``command``, ``http``, ..."""
    source: str = "python"
    """Source label (``python``, a settings file path, a plugin)."""
    matcher: str | None = None
    """The group's matcher as written."""
    location: str | None = None
    """Where in the source: ``PreToolUse[0].hooks[1]``."""
    status_message: str | None = None
    """What the host may show while the handler runs."""
    shadow: bool = False
    """Runs in shadow mode: its answer is recorded, never enforced (see ``HookRegistry``)."""


@attrs.frozen(kw_only=True)
class HookCall:
    """Everything a node needs for one run. Built by the session for each dispatch."""

    input: HookInput[Any]
    """The event input (rewritten by earlier handlers in a chain)."""
    spec: EventSpec
    """The event's capability row."""
    timeout: float
    """The handler's effective timeout in seconds."""
    dialect: Dialect = CLAUDE
    """The dialect of the handler's source."""
    project_dir: str | None = None
    """The project root (``CLAUDE_PROJECT_DIR``)."""
    env: Mapping[str, str] = attrs.field(factory=dict)
    """Extra environment variables for the handler (plugin roots, ``CLAUDE_ENV_FILE``)."""
    process_limiter: anyio.CapacityLimiter | None = None
    """Bounds how many hook processes run at once."""
    secret_env_patterns: tuple[str, ...] = DEFAULT_SECRET_PATTERNS
    """Environment variables whose name has a word ending with one of these, or whose
    value holds a URL with a password or a private key, are withheld (see
    ``scrub_env``)."""
    strict_output: bool = False
    """The handler's answer must keep the output contract exactly (Docker Agent's
    ``strict_output``): see :func:`enforce_strict_output`."""
    started: Callable[[], None] | None = attrs.field(default=None, eq=False)
    """For a node whose work begins after a wait for a shared resource (a command hook:
    called once its process is spawned, after the wait for a process slot): the session
    counts the handler's timeout from this call, so the wait does not spend it."""

    base_env: Mapping[str, str] | None = attrs.field(default=None, eq=False, repr=False)
    """The environment a process starts from, before credential stripping, ``env`` and
    the hook's own variables; ``None``: this process's ``os.environ``. Set by a bridge
    that serves another process (the resident server of ``agent-hooks run``)."""

    def payload(self, wire: WireFormat = "claude") -> dict[str, Any]:
        """The input as the wire dict a hook of ``wire`` receives: a fresh encoding for
        each caller, so that a callback editing its dict cannot change what another
        handler sees."""
        return encode_input(self.input, wire)

    def payload_bytes(self, wire: WireFormat | Dialect = "claude") -> bytes:
        """The input as compact UTF-8 JSON for a hook's stdin or a request body: always
        valid UTF-8 for an input that came from JSON (a lone surrogate as its ``\\uXXXX``
        escape, any depth). A node that cannot get it (``TypeError``/``ValueError``: a
        value set from Python that is not JSON data) has failed, never "no opinion"."""
        return payload_bytes(self.input, wire)


@attrs.frozen(kw_only=True)
class HandlerResult:
    """What one handler run produced, in one shape for every kind.

    ``output`` is the decoded answer (``None``: no opinion or unusable);
    ``diagnostics`` say what went wrong or was ignored; ``duration`` is wall
    time in seconds.
    """

    outcome: Outcome = Outcome.OK
    output: HookOutput | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    duration: float = 0.0
    exit_code: int | None = None
    """Exit status, for kinds that have one."""
    reason: str | None = None
    """For BLOCKED/ERROR/TIMEOUT: the message (stderr's text, the exception)."""
    is_async: bool = False
    """The handler answered "async" (Claude Agent SDK): it holds no decision."""
    handler: HandlerInfo | None = None
    """Filled in by the session."""

    @classmethod
    def failure(
        cls,
        code: DiagnosticCode,
        reason: str,
        *,
        outcome: Outcome = Outcome.ERROR,
        message: str | None = None,
        severity: Severity = Severity.ERROR,
        earlier: tuple[Diagnostic, ...] | list[Diagnostic] = (),
        exit_code: int | None = None,
        output: HookOutput | None = None,
    ) -> HandlerResult:
        """A run that failed (``outcome``: ``error``, or ``timeout``) for ``reason``:
        its diagnostics are ``earlier`` and then one of ``code`` and ``severity`` saying
        ``message`` (``reason`` when not given)."""
        note = Diagnostic(
            code=code, message=reason if message is None else message, severity=severity
        )
        return cls(
            outcome=outcome,
            output=output,
            diagnostics=(*earlier, note),
            exit_code=exit_code,
            reason=reason,
        )


NodeCall = Callable[[HookCall], Awaitable[HandlerResult]]
"""A node's run: one call with one :class:`HookCall`, answering with a :class:`HandlerResult`."""


@attrs.frozen(kw_only=True)
class HandlerNode:
    """A handler of any kind, normalised.

    ``call`` runs it once and returns a :class:`HandlerResult`; it may raise, and
    it may be cancelled: the session contains both (a raise becomes an ERROR
    result, a timeout a TIMEOUT result). Nodes that own resources (processes)
    release them on cancellation before re-raising.
    """

    name: str
    kind: str
    call: NodeCall = attrs.field(eq=False)
    timeout: float | None = None
    """The handler's own timeout in seconds (else the group's, else the event default)."""
    on_error: OnError | None = None
    """The handler's own failure policy (else the registry's, else the table's default)."""
    background: bool = False
    """Fire-and-forget: runs in the session's background, never holds up a decision."""
    async_rewake: bool = False
    """For background handlers: a block (exit 2) wakes the agent with its reason."""
    if_rule: str | None = None
    """Claude Code permission-rule filter (``Bash(git *)``), tool events only."""
    status_message: str | None = None
    dedupe_key: Hashable | None = None
    """Identical keys across sources run once per dispatch (command handlers)."""
    timeout_slack: float = 0.0
    """Extra time the session allows past ``timeout`` for the node's own clean-up
    (a process kill and drain) before cancelling it from outside."""
    disabled: str | None = None
    """When set, the node never runs; the text says why (an unsupported kind)."""
    timeout_blocks: bool = False
    """A timeout blocks on the events whose table row says so (``callback_timeout_blocks``):
    the Claude Agent SDK's rule for Python callbacks."""
    on_session_close: Callable[[str | None], Awaitable[None] | None] | None = attrs.field(
        default=None, eq=False
    )
    """Called with the session id when a session of the registry closes (after its
    background work), so a handler can release what it kept for the session."""
    strict_output: bool = False
    """Docker Agent's ``strict_output``: an answer that breaks the output contract is a
    failure of the handler, under its failure policy (:func:`enforce_strict_output`)."""
    shadow: bool = False
    """Shadow mode: the handler runs and its would-be decision is recorded (the
    decision's ``would_be``, the report, the decision log), but it enforces nothing."""


@runtime_checkable
class Handler(Protocol):
    """Anything that can be put in ``HookMatcher.hooks`` besides a plain callable.

    ``to_node`` is called once, at registration.
    """

    def to_node(self) -> HandlerNode: ...


STRICT_OUTPUT_CODES = frozenset(
    {
        DiagnosticCode.MALFORMED_JSON,
        DiagnosticCode.NOT_OBJECT,
        DiagnosticCode.WRONG_TYPE,
        DiagnosticCode.INVALID_VALUE,
        DiagnosticCode.UNKNOWN_FIELD,
        DiagnosticCode.UNSUPPORTED_FIELD,
        DiagnosticCode.MISMATCHED_OUTPUT,
        DiagnosticCode.DEPRECATED_FIELD,
        DiagnosticCode.INVALID_OUTPUT,
        DiagnosticCode.PLAIN_STDOUT_IGNORED,
    }
)
"""Diagnostics of an answer that a lenient reading forgives and ``strict_output`` does not."""


def enforce_strict_output(spec: EventSpec, result: HandlerResult) -> HandlerResult:
    """Docker Agent's ``strict_output``: a handler that answered (exit 0) with anything
    but empty output or one JSON object keeping the event's output contract failed.

    Refused: plain text, malformed JSON, unknown keys, fields of another event or of
    the wrong type, a ``hookEventName`` of another event, ``suppress_output`` (use
    stderr), and a block or ``continue: false`` on an event that cannot block. The
    failure goes through the handler's failure policy like any other (``pre_tool_use``
    fails closed); blocks (exit 2) and failures are left as they are.
    """
    if result.outcome is not Outcome.OK or result.is_async or result.exit_code not in (0, None):
        return result
    problems = [d.message for d in result.diagnostics if d.code in STRICT_OUTPUT_CODES]
    out = result.output
    if out is not None:
        if out.suppress_output:
            problems.append("suppress_output is not supported; use stderr for diagnostics")
        if not spec.can_block and (out.continue_ is False or is_blocking(out)):
            problems.append(f"{spec.event.value} does not support blocking output")
    if not problems:
        return result
    message = "strict_output: " + "; ".join(problems)
    return attrs.evolve(
        result,
        outcome=Outcome.ERROR,
        output=None,
        reason=message,
        diagnostics=(
            *result.diagnostics,
            Diagnostic(
                code=DiagnosticCode.INVALID_OUTPUT, message=message, severity=Severity.ERROR
            ),
        ),
    )
