"""The one answer path of ``agent-hooks run``: what it prints and how it exits.

Every way a call ends (the hooks decided; the payload could not be read; the hooks could
not be loaded or run as configured; hook code exited; an internal error) is turned into
one :class:`Reply` (stdout, stderr, exit status) by :func:`reply`, in-process and in
the resident server's worker alike. What differs from harness to harness is read from
its dialect row (:class:`~agent_hooks._wire._native.NativeWire`): the status that says
"failed, go on" (``nonblocking_exit``: Copilot's 0), and for a harness that reads no exit
status (Cline) the event's block answer printed when a call fails closed
(:func:`~agent_hooks._wire._detect.failure_answer`). How a decision is written (its JSON,
plain text, or exit 2 with the reason for a block the event or the harness can only take
that way) is the :class:`~agent_hooks._bridges._payload.BridgeResult` of the decision.

The rules, in order:

* a decision whose block is exit 2 (``BridgeResult.exit_code == 2``): stdout is the
  answer (``--report``: empty); stderr the reason, then the report; status 2;
* any other decision: stdout is the answer (plain text where the event or harness
  answers in plain text), or the report; stderr one line per diagnostic worth one;
  status 0;
* a failure: stderr ``agent-hooks: <why>``; stdout the report of a call that was
  dispatched (``--report``), else, failing closed, the harness's block answer where it
  reads no exit status; status 2 failing closed, else 1, which is the harness's own
  "failed, go on" status for a payload that could not be answered (:attr:`Failure.soft`).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

import attrs

from ._payload import BridgeResult, diagnostic_lines, dumps, one_line, report_json

if TYPE_CHECKING:
    from .._wire._dialects import Dialect

__all__ = ["Failure", "Options", "Reply", "answer_bytes", "reply"]


@attrs.frozen(kw_only=True)
class Options:
    """What of ``run``'s command line shapes the answer."""

    fail_closed: bool = False
    report: bool = False
    dialect: str | None = None
    """``--dialect`` as given (the harness when the payload cannot tell it)."""
    event: str | None = None
    """``--event`` as given."""
    resident: bool = False
    """Whether the resident server answers (said in the report)."""

    @classmethod
    def of(cls, args: argparse.Namespace, resident: bool = False) -> Options:
        """The options of ``run``'s parsed command line."""
        return cls(
            fail_closed=bool(args.fail_closed),
            report=bool(getattr(args, "report", False)),
            dialect=getattr(args, "dialect", None),
            event=getattr(args, "event", None),
            resident=resident,
        )


@attrs.frozen
class Failure:
    """A call that could not be dispatched, and why (one line on stderr)."""

    message: str
    soft: bool = False
    """A payload that cannot be answered: status 1 is written as the harness's own
    "failed, go on" status (the call has no event the harness should hold up)."""


@attrs.frozen
class Reply:
    """What ``run`` prints and how it exits."""

    stdout: bytes = b""
    stderr: str = ""
    status: int = 0


def answer_bytes(result: BridgeResult) -> bytes:
    """The decision's answer as stdout carries it: one JSON object, UTF-8 (JSON's encoding,
    whatever the locale), or the plain text of an event or harness that answers in plain
    text (a lone surrogate from a JSON answer becomes ``?``: plain text has no escapes)."""
    if result.plain is not None:
        text = result.plain.encode("utf-8", errors="replace")
        return text + (b"\n" if text else b"")
    return _line(result.answer)


def reply(
    outcome: BridgeResult | Failure,
    payload: bytes,
    options: Options,
    dialect: Dialect | None = None,
) -> Reply:
    """The :class:`Reply` of a call that ended in ``outcome`` (see the module docs);
    ``payload`` is the call's stdin as it came, ``dialect`` the harness it was decoded as
    (else ``--dialect`` names it)."""
    if isinstance(outcome, BridgeResult) and outcome.decision is not None:
        report = {**report_json(outcome), "resident": options.resident} if options.report else None
        if outcome.exit_code == 2:  # a block the event or harness can only take as exit 2
            stderr = (outcome.error or "") + "\n" + (dumps(report) + "\n" if report else "")
            return Reply(b"" if report else answer_bytes(outcome), stderr, 2)
        stdout = _line(report) if report else answer_bytes(outcome)
        return Reply(stdout, _lines(diagnostic_lines(outcome)), outcome.exit_code)
    stdout = b""
    if isinstance(outcome, Failure):
        stderr, soft = _lines([f"agent-hooks: {one_line(outcome.message)}"]), outcome.soft
        why = outcome.message
    else:  # dispatched, and dispatching failed (an internal error)
        stderr, soft, why = _lines(diagnostic_lines(outcome)), True, outcome.error or ""
        if options.report:
            stdout = _line({**report_json(outcome), "resident": options.resident})
    if options.fail_closed and not stdout:
        from .._wire._detect import failure_answer

        closed = failure_answer(
            payload,
            f"agent-hooks failed closed: {one_line(why)}",
            dialect=options.dialect,
            event=options.event,
        )
        stdout = _line(closed) if closed is not None else b""
    status = 2 if options.fail_closed else 1
    return Reply(stdout, stderr, _nonblocking(options, dialect) if soft and status == 1 else status)


def _nonblocking(options: Options, dialect: Dialect | None) -> int:
    """The status that says "failed, go on" to the calling harness (Copilot fails a
    preToolUse closed on any status but 0 and 2: it is told 0)."""
    if dialect is None and options.dialect:
        from .._wire._dialects import get_dialect

        try:
            dialect = get_dialect(options.dialect)
        except ValueError:
            return 1
    native = dialect.native if dialect is not None else None
    return int(native.nonblocking_exit) if native is not None else 1


def _line(obj: Any) -> bytes:
    return dumps(obj).encode("utf-8") + b"\n"


def _lines(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)
