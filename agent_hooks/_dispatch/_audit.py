"""The decision log: one JSON Lines record per dispatch, for audits and SIEMs.

A :class:`DecisionLogObserver` turns each finished dispatch into a record
(:func:`decision_record`; its JSON Schema is ``typings/audit/decision-log.schema.json``) and
hands it to a sink: :class:`DecisionLog` (a file) or any object with ``write(record)``.

The file is append-only and safe with concurrent writers, in one process or many (the
resident server, several ``agent-hooks run`` processes, ``serve``): each record is one
``write()`` of a whole line on a descriptor opened with ``O_APPEND``, under an exclusive
``flock`` of the file that also orders the hash chain and rotation. With ``chain`` (the
default) each record carries ``prev``, the ``hash`` of the record before it, and its own
``hash`` (SHA-256 of the record without it, as canonical JSON): ``agent-hooks log verify
FILE`` (:func:`verify_log`) finds an edited, inserted or deleted line. Past ``max_bytes``
the file is renamed ``FILE.1`` (``FILE.1`` to ``FILE.2``, ... up to ``backups``) and a new
one begun, whose first record's ``prev`` is the last hash of the one before.

What a record holds of the payload is bounded and redacted: the tool's input (or the
input's own fields for other events) as JSON of at most :data:`INPUT_BOUND` characters
(longer: a truncated preview, marked), every value under a key that the environment
filter's secret-name rule (``scrub_env``) would withhold replaced by ``[REDACTED]``, and
credentials found in values (URLs with a password, private keys, well-known token
shapes) cut out. Handler reasons are redacted and bounded the same way.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime
import hashlib
import json
import os
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

import attrs

from .._base._version import VERSION
from .._events._model import HookInput
from .._events._untyped import input_value
from .._handlers._limits import DEFAULT_SECRET_PATTERNS
from .._handlers._nodes import HandlerResult
from ._decision import Decision
from ._observe import DispatchInfo, Observer
from ._verdict import handler_verdict, output_verdict

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows: one process at a time
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "DECISION_LOG_ENV",
    "INPUT_BOUND",
    "SCHEMA_VERSION",
    "DecisionLog",
    "DecisionLogObserver",
    "DecisionSink",
    "audit_context",
    "decision_log_observer",
    "decision_record",
    "redact",
    "verify_log",
]

SCHEMA_VERSION = 1
"""The record schema's version (``v`` of every record); raised only by a change that
drops or changes the meaning of a field."""

DECISION_LOG_ENV = "AGENT_HOOKS_DECISION_LOG"
"""The environment variable naming the decision log file of ``agent-hooks run``/``serve``."""

INPUT_BOUND = 2048
"""Characters of the payload view's JSON a record keeps."""

REASON_BOUND = 512
"""Characters of a handler's or the decision's reason a record keeps."""

REDACTED = "[REDACTED]"

_VALUE_SECRETS = re.compile(
    # (a URL with a password; the scheme is bounded, else a long run of letters costs
    # time quadratic in its length)
    r"[a-z][a-z0-9+.-]{0,31}://[^/\s:@]*:[^/\s@]+@"
    r"|-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)"
    r"|\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}"  # OpenAI/Anthropic/Stripe-style keys
    r"|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}"
    r"|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"
    r"|\bxox[abeoprs]-[A-Za-z0-9-]{10,}"
    r"|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"  # a JWT
    r"|(?i:\bbearer\s+)[A-Za-z0-9._~+/=-]{12,}"
    r"|(?i:\b(?:password|passwd|pwd|secret|token|api[_-]?key)\s*[=:]\s*)[^\s&;'\"]{4,}"
)
"""Credentials found in values whatever their key: what the environment filter finds in
values (URLs with a password, private keys), well-known token shapes, ``token=...``."""


def _redact_text(text: str) -> str:
    return _VALUE_SECRETS.sub(REDACTED, text) if text else text


class _Redactor:
    """The redaction of one secret-name rule (patterns as ``scrub_env`` takes them)."""

    def __init__(self, patterns: Sequence[str]) -> None:
        # (imported here: a `run` that writes no log never loads the process module)
        from .._handlers._process import _secret_names

        self.secret_name = _secret_names(tuple(p.upper() for p in patterns if p))

    def __call__(self, value: Any, depth: int = 0) -> Any:
        if isinstance(value, str):
            return _redact_text(value)
        if depth > 32:
            return "[...]"
        if isinstance(value, Mapping):
            return {
                str(k): REDACTED if self.secret_name(str(k)) else self(v, depth + 1)
                for k, v in value.items()
            }
        if isinstance(value, (list, tuple)):
            return [self(v, depth + 1) for v in value]
        if value is None or isinstance(value, (bool, int, float)):
            return value
        return _redact_text(str(value))


def redact(value: Any, patterns: Sequence[str] = DEFAULT_SECRET_PATTERNS) -> Any:
    """``value`` (JSON-like) with secrets removed: the value of every key the environment
    filter's secret-name rule withholds (``scrub_env`` with ``patterns``) is
    ``[REDACTED]``, and credentials in strings are cut out."""
    return _Redactor(patterns)(value)


def _bounded(text: str | None, bound: int) -> str | None:
    if text is None or len(text) <= bound:
        return text
    return f"{text[:bound]}...[truncated {len(text) - bound} chars]"


# ------------------------------------------------------------------ the record

_AUDIT_CONTEXT: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar(
    "agent_hooks_audit_context", default=MappingProxyType({})
)


@contextlib.contextmanager
def audit_context(**fields: Any) -> Iterator[None]:
    """Fields the records of dispatches made inside the block carry (a bridge names the
    harness and dialect it answers): ``harness``, ``dialect``, ``native_event``."""
    token = _AUDIT_CONTEXT.set({**_AUDIT_CONTEXT.get(), **fields})
    try:
        yield
    finally:
        _AUDIT_CONTEXT.reset(token)


_ENVELOPE = frozenset(
    {"hook_event_name", "session_id", "transcript_path", "cwd", "permission_mode", "extra"}
)


def _input_view(input: HookInput[Any]) -> Any:
    """What of the input a record shows: the tool's input for a tool event, else the
    input's own fields (the envelope left out: it has fields of its own)."""
    tool_input = input_value(input, "tool_input")
    if isinstance(tool_input, Mapping):
        return dict(tool_input)
    view = {
        a.name: getattr(input, a.name)
        for a in attrs.fields(type(input))
        if a.name not in _ENVELOPE and getattr(input, a.name) is not None
    }
    view.update({k: v for k, v in input.extra.items() if k not in view})
    return view


def _jsonable(value: Any) -> Any:
    if attrs.has(type(value)):
        return {k: _jsonable(v) for k, v in attrs.asdict(value, recurse=False).items()}
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(getattr(value, "value", value))


@attrs.frozen
class _Files:
    """SHA-256 of the configuration files a registry's sources were loaded from, read
    once when the log's observer is made (what was loaded, not what is there later)."""

    sha256: Mapping[str, str]

    @classmethod
    def of(cls, labels: Sequence[str]) -> _Files:
        found: dict[str, str] = {}
        for label in labels:
            if label in found or not os.path.isfile(label):
                continue
            try:
                with open(label, "rb") as f:
                    found[label] = hashlib.sha256(f.read()).hexdigest()
            except OSError:
                continue
        return cls(found)


def _handler_entry(r: HandlerResult, files: _Files, redactor: _Redactor) -> dict[str, Any]:
    info = r.handler
    verdict, reason = handler_verdict(r)
    source = info.source if info else None
    return {
        "name": _redact_text(info.name) if info else None,
        "kind": info.kind if info else None,
        "source": source,
        "source_sha256": files.sha256.get(source) if source else None,
        "location": info.location if info else None,
        "matcher": info.matcher if info else None,
        "outcome": r.outcome.value,
        "decision": verdict,
        "reason": _bounded(redactor(reason), REASON_BOUND),
        "duration_ms": round(r.duration * 1000, 3),
        "shadow": bool(info and info.shadow),
    }


def _verdict_entry(decision: Decision[Any], output: Any, redactor: _Redactor) -> dict[str, Any]:
    verdict, reason = output_verdict(output)
    return {
        "decision": verdict,
        "reason": _bounded(redactor(reason), REASON_BOUND),
        "blocked": decision.blocked if output is decision.output else decision.would_block,
        "continue": getattr(output, "continue_", None) is not False,
    }


def decision_record(
    decision: Decision[Any],
    *,
    files: Mapping[str, str] | None = None,
    secret_patterns: Sequence[str] = DEFAULT_SECRET_PATTERNS,
    context: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The decision log's record of one decision (``typings/audit/decision-log.schema.json``):
    no ``prev``/``hash`` (the file adds them). ``files``: configuration file path ->
    SHA-256; ``context``: ``harness``, ``dialect``, ``native_event`` (else those of
    :func:`audit_context`)."""
    redactor = _Redactor(secret_patterns)
    known = _Files(dict(files or {}))
    ctx = {**_AUDIT_CONTEXT.get(), **(context or {})}
    input = decision.input
    view = json.dumps(redactor(_jsonable(_input_view(input))), ensure_ascii=False, sort_keys=True)
    truncated = len(view) > INPUT_BOUND
    tool = input_value(input, "tool_name")
    now = datetime.datetime.now(datetime.timezone.utc)
    record: dict[str, Any] = {
        "v": SCHEMA_VERSION,
        "time": now.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "agent_hooks": VERSION,
        "harness": ctx.get("harness"),
        "dialect": ctx.get("dialect"),
        "native_event": ctx.get("native_event"),
        "session_id": input.session_id,
        "event": decision.event.value,
        "tool_name": tool if isinstance(tool, str) else None,
        "input": _bounded(view, INPUT_BOUND) if truncated else json.loads(view),
        "input_truncated": truncated,
        "handlers": [
            _handler_entry(r, known, redactor) for r in (*decision.results, *decision.shadow)
        ],
        "decision": _verdict_entry(decision, decision.output, redactor),
        "would_be": (
            _verdict_entry(decision, decision.would_be, redactor)
            if decision.would_be is not None
            else None
        ),
        "config": [{"path": p, "sha256": h} for p, h in sorted(known.sha256.items())],
    }
    return record


# ------------------------------------------------------------------ sinks


@runtime_checkable
class DecisionSink(Protocol):
    """Where decision records go: ``write`` is called once per dispatch, with the
    record (a JSON-able dict), in the dispatching task; it should be quick."""

    def write(self, record: Mapping[str, Any]) -> None: ...


def _canonical(record: Mapping[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode(
        "utf-8", "backslashreplace"
    )


def record_hash(record: Mapping[str, Any]) -> str:
    """The chain hash of a record: SHA-256 of its canonical JSON without ``hash``."""
    return hashlib.sha256(_canonical({k: v for k, v in record.items() if k != "hash"})).hexdigest()


_TAIL = 1 << 16


def _last_hash(fd: int) -> str | None:
    """The ``hash`` of the last record of the file open at ``fd`` (``None``: empty, or
    its last line is no record with a hash)."""
    size = os.fstat(fd).st_size
    if size == 0:
        return None
    start = max(0, size - _TAIL)
    data = os.pread(fd, size - start, start)
    lines = data.rstrip(b"\n").rsplit(b"\n", 1)
    try:
        last = json.loads(lines[-1])
    except ValueError:
        return None
    value = last.get("hash") if isinstance(last, dict) else None
    return value if isinstance(value, str) else None


class DecisionLog:
    """A decision log file: JSON Lines, append-only, safe with concurrent writers in
    any number of processes, rotated past ``max_bytes`` (``backups`` older files kept:
    ``FILE.1`` the newest, at least one: the new file's chain starts from it), each
    record chained to the one before (``chain``). The file is created with mode 0600.
    Made from a path by the registry's ``decision_log`` option; a record that cannot be
    written is reported through the ``agent_hooks`` logger, never raised into a
    dispatch."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_bytes: int = 16 * 1024 * 1024,
        backups: int = 5,
        chain: bool = True,
    ) -> None:
        if max_bytes < 1024:
            raise ValueError("max_bytes must be at least 1024")
        if backups < 1:
            raise ValueError("backups must be 1 or more")
        self.path: str = os.fspath(path)
        self.max_bytes = max_bytes
        self.backups = backups
        self.chain = chain
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"DecisionLog({self.path!r})"

    def write(self, record: Mapping[str, Any]) -> None:
        """Append ``record`` as one line (with ``prev`` and ``hash`` when chained).

        Raises:
            OSError: the file cannot be opened or written.
        """
        with self._lock:
            fd = self._open_locked()
            try:
                line = self._line(record, fd)
                size = os.fstat(fd).st_size
                if size and size + len(line) > self.max_bytes:
                    self._rotate()
                    # (the new file's lock is taken before the old one's is let go: a
                    # writer that got in first is chained to, not beside)
                    new = self._open_locked()
                    os.close(fd)
                    fd = new
                    line = self._line(record, fd)
                view = memoryview(line)
                while view:  # (one write() on a regular file; a short write goes on)
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)

    def _line(self, record: Mapping[str, Any], fd: int) -> bytes:
        """The line of ``record`` in the file open at ``fd`` (locked): chained to the
        file's last record, or for a new file to the last of ``FILE.1``."""
        if not self.chain:
            return _canonical(record) + b"\n"
        linked = {k: v for k, v in record.items() if k != "hash"}
        prev = _last_hash(fd)
        if prev is None and os.fstat(fd).st_size == 0:
            prev = _last_hash_path(f"{self.path}.1")
        linked["prev"] = prev
        linked["hash"] = record_hash(linked)
        return _canonical(linked) + b"\n"

    def _open_locked(self) -> int:
        """A descriptor of the current file, locked exclusively; reopened when another
        writer rotated the file while this one waited for the lock."""
        while True:
            fd = os.open(
                self.path,
                os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0),
                0o600,
            )
            if fcntl is None:  # pragma: no cover - Windows
                return fd
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except OSError:
                same = False
            if same:
                return fd
            os.close(fd)

    def _rotate(self) -> None:
        """Shift the backups (the oldest dropped) and rename the file to ``FILE.1``,
        the lock held."""
        for i in range(self.backups - 1, 0, -1):
            older = f"{self.path}.{i}"
            if os.path.exists(older):
                os.replace(older, f"{self.path}.{i + 1}")
        os.replace(self.path, f"{self.path}.1")


def _last_hash_path(path: str) -> str | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        return _last_hash(fd)
    finally:
        os.close(fd)


@attrs.frozen
class LogProblem:
    """Where a log stopped verifying: the 1-based line and what is wrong."""

    line: int
    message: str


def verify_log(path: str | os.PathLike[str]) -> tuple[int, LogProblem | None]:
    """Check a chained decision log: every line a JSON object whose ``hash`` is its own
    and whose ``prev`` is the ``hash`` of the line before (the first line's ``prev`` is
    taken as it is: it links to the rotated file before). Returns the number of records
    checked and the first problem, ``None`` when the chain holds.

    Raises:
        OSError: the file cannot be read.
    """
    prev: str | None = None
    count = 0
    with open(path, "rb") as f:
        for number, raw in enumerate(f, start=1):
            if not raw.endswith(b"\n"):
                return count, LogProblem(number, "the last line is incomplete (no line end)")
            try:
                record = json.loads(raw)
            except ValueError as exc:
                return count, LogProblem(number, f"not JSON ({exc})")
            if not isinstance(record, dict):
                return count, LogProblem(number, "not a JSON object")
            stated = record.get("hash")
            if not isinstance(stated, str):
                return count, LogProblem(number, "no 'hash' (the log is not chained)")
            if record_hash(record) != stated:
                return count, LogProblem(number, "the record does not match its hash (edited)")
            if number > 1 and record.get("prev") != prev:
                return count, LogProblem(
                    number,
                    "'prev' is not the hash of the line before (a record removed or inserted)",
                )
            prev = stated
            count += 1
    return count, None


# ------------------------------------------------------------------ the observer


class DecisionLogObserver(Observer):
    """Writes a :func:`decision_record` of every dispatch to ``sink``. A sink that
    fails is logged (logger ``agent_hooks``) and the dispatch goes on."""

    def __init__(
        self,
        sink: DecisionSink,
        *,
        files: Mapping[str, str] | None = None,
        secret_patterns: Sequence[str] = DEFAULT_SECRET_PATTERNS,
    ) -> None:
        self.sink = sink
        self.files: dict[str, str] = dict(files or {})
        self.secret_patterns: tuple[str, ...] = tuple(secret_patterns)

    def dispatch_finished(self, dispatch: DispatchInfo, decision: Decision[Any]) -> None:
        self.sink.write(
            decision_record(decision, files=self.files, secret_patterns=self.secret_patterns)
        )


class _Options(Protocol):
    @property
    def secret_env_patterns(self) -> tuple[str, ...]: ...
    @property
    def sources(self) -> Sequence[Any]: ...


def decision_log_observer(value: Any, registry: _Options) -> DecisionLogObserver:
    """The observer of a registry's ``decision_log`` option: a path (a
    :class:`DecisionLog` of it) or a sink.

    Raises:
        TypeError: ``value`` is neither.
    """
    if isinstance(value, (str, os.PathLike)):
        sink: DecisionSink = DecisionLog(value)
    elif isinstance(value, DecisionSink):
        sink = value
    else:
        raise TypeError(
            f"decision_log must be a path or an object with write(record), got {type(value).__name__}"
        )
    files = _Files.of([sg.source.label for sg in registry.sources])
    return DecisionLogObserver(
        sink, files=files.sha256, secret_patterns=registry.secret_env_patterns
    )
