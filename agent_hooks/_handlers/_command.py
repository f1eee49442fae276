"""Command handlers: shell hooks run exactly as the harnesses run them.

:class:`CommandHook` is configured in Python or built by the config loaders; at
registration it becomes a :class:`~agent_hooks.HandlerNode` whose call writes the
payload (encoded for the source's dialect) to a fresh process and interprets
what it did with :func:`interpret_process`. The process itself is run by
:mod:`agent_hooks._handlers._process` (own process group, bounded output, killed and
reaped on timeout or cancellation).

Interpretation (driven by the capability table and the dialect):

* exit 0: stdout starting with ``{`` that parses is the answer (lenient
  decoder); empty stdout is no opinion; other text becomes the field the table
  names for plain stdout (context) or is ignored with a diagnostic;
* exit 2: a block with the event's exit-2 meaning; the reason is stderr. In the
  claude dialect valid JSON on stdout still counts: its own blocking reason wins
  and its other fields stay, but nothing in it can undo the block. Where the
  dialect does not honour exit 2 (Claude Code's PermissionRequest) the JSON alone
  decides, stderr is discarded and a diagnostic says so;
* any other status: in the claude dialect a valid JSON object on stdout decides
  alone (not where the dialect makes every failure block: WorktreeCreate);
  otherwise a non-blocking error quoting stderr's first line. Partial plain output
  of a failed hook never becomes context;
* stdout cut at the output cap in the middle of a JSON object (exit 0): the answer
  cannot be read; on an event that can block the hook failed (its ``on_error`` policy
  applies, a ``stdout_truncated`` error says so), elsewhere the answer is ignored;
* never started (no process slot before the dispatch's deadline: ``not_started``) or
  could not be started (``launch_failed``): a failure, under the hook's policy.

With ``strict_output`` (Docker Agent) stdout on exit 0 must be empty or one JSON
object keeping the event's output contract; anything else is a failure of the hook.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import shutil
import signal
from collections.abc import Mapping, Sequence
from typing import Any

import anyio
import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._base._errors import RegistrationError
from .._events._capabilities import EventSpec, Exit2
from .._events._model import HookOutput, Merge
from .._wire._codec import DecodedOutput, decode_output, foreign_keys
from .._wire._dialects import Dialect
from .._wire._fields import field_codecs
from .._wire._outputs import blocking_output, is_blocking, rank_key
from ._nodes import (
    HandlerNode,
    HandlerResult,
    HookCall,
    OnError,
    Outcome,
    enforce_strict_output,
)
from ._on_failure import invalid_answer_fails
from ._process import ProcessResult, ProcessSpec, fast_path_argv, run_process, scrub_env, shell_argv
from ._process_contract import OUT_OF_RESOURCES

__all__ = ["CommandHook", "interpret_process", "timeout_diagnostic"]

DEFAULT_OUTPUT_CAP = 100_000
DRAIN_TIMEOUT = 2.0
START_MARGIN = 0.25
"""A hook still waiting to start (for a process slot, for descriptors) this many seconds
before the dispatch's deadline gives up and reports that it never started, rather than
being cancelled by that deadline without a word."""
_ENV_REF = re.compile(r"\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}")


def timeout_diagnostic(value: float, *, where: str | None = None) -> Diagnostic | None:
    """A diagnostic for a timeout (seconds) that is obviously milliseconds (>= 1000)."""
    if value >= 1000:
        return Diagnostic(
            code=DiagnosticCode.TIMEOUT_LOOKS_LIKE_MS,
            message=(
                f"timeout {value:g} is in seconds ({value / 60:.0f} minutes); "
                f"if you meant milliseconds, write {value / 1000:g}"
            ),
            severity=Severity.WARNING,
            location=where,
        )
    return None


def _expand_env_refs(value: str) -> str:
    """Docker Agent's ``${env.NAME}`` in handler ``env`` values."""
    return _ENV_REF.sub(lambda m: os.environ.get(m.group(1), ""), value)


@attrs.frozen(kw_only=True)
class CommandHook:
    """A shell-command hook, as the harnesses define it.

    Give ``command`` (shell form: run through ``sh -c``, or ``shell``) or
    ``argv`` (exec form, no shell). A shell-form command without any shell
    syntax is run directly with the argv the shell would have built (one
    process fewer, same behaviour).

    Fields:
        timeout: seconds the process may run, from its start (else the group's, else the
            event/dialect default); waiting for a process slot before it does not count.
        status_message: what the host may show while it runs.
        env: extra environment variables (``${env.NAME}`` expands from the parent).
        working_dir: the process's directory (relative to the project dir);
            default: the payload's ``cwd``.
        on_error: ``warn`` | ``ignore`` | ``block`` (fail closed).
        async_: fire-and-forget (``"async": true`` in configs).
        async_rewake: fire-and-forget; exit 2 wakes the agent with stderr.
        shell: the shell for shell form (default ``sh``).
        name: display name (default: the command).
        if_rule: Claude Code permission rule filtering tool calls (``"if"``).
        output_cap: bytes of stdout and of stderr kept (the rest is discarded).
        kill_grace: seconds between SIGTERM and SIGKILL on timeout (0: SIGKILL at once).
        strict_output: Docker Agent's ``strict_output``: stdout on exit 0 must be empty
            or one JSON object keeping the event's output contract (no plain text, no
            unknown or foreign fields, no ``suppress_output``, no block where the event
            cannot block); anything else is a failure, under ``on_error``.
        answer_must_be_valid: Claude Code's ``onFailure: "block"``: JSON on stdout that
            is invalid or fails validation is a failure, under ``on_error``
            (:func:`~agent_hooks._handlers._on_failure.invalid_answer_fails`).
        shadow: shadow mode: it runs and its would-be decision is recorded, never
            enforced.

    Raises:
        RegistrationError: neither or both of ``command``/``argv``, an empty one,
            or a non-positive timeout.
    """

    command: str | None = None
    argv: Sequence[str] | None = None
    timeout: float | None = None
    status_message: str | None = None
    env: Mapping[str, str] = attrs.field(factory=dict)
    working_dir: str | None = None
    on_error: OnError | None = None
    async_: bool = False
    async_rewake: bool = False
    shell: str | None = None
    name: str | None = None
    if_rule: str | None = None
    output_cap: int = DEFAULT_OUTPUT_CAP
    kill_grace: float = 0.0
    strict_output: bool = False
    answer_must_be_valid: bool = False
    shadow: bool = False

    def __attrs_post_init__(self) -> None:
        if (self.command is None) == (self.argv is None):
            raise RegistrationError("a command hook needs exactly one of 'command' or 'argv'")
        if self.command is not None and (
            not isinstance(self.command, str) or not self.command.strip()
        ):
            raise RegistrationError(
                f"command hook 'command' must be a non-empty string, got {self.command!r}"
            )
        if self.argv is not None and (
            isinstance(self.argv, str)
            or not self.argv
            or not all(isinstance(a, str) for a in self.argv)
        ):
            raise RegistrationError(
                f"command hook 'argv' must be a non-empty list of strings, got {self.argv!r}"
            )
        if self.timeout is not None and not self.timeout > 0:
            raise RegistrationError(
                f"command hook timeout must be a positive number of seconds, got {self.timeout!r}"
            )
        if self.on_error not in (None, "warn", "ignore", "block"):
            raise RegistrationError(
                f"on_error must be warn, ignore or block, got {self.on_error!r}"
            )

    @property
    def display_name(self) -> str:
        """The configured name, else the command, else the argv."""
        if self.name:
            return self.name
        if self.command is not None:
            return self.command
        return " ".join(self.argv or ())

    def registration_notes(self, location: str) -> tuple[Diagnostic, ...]:
        """What can be told wrong with this hook before it runs, as error diagnostics
        at ``location``: today, a program that is not there (``program_not_found``)."""
        return _program_notes(self, location)

    def to_node(self) -> HandlerNode:
        """Build the handler node; the command line is worked out here, once."""
        if self.argv is not None:
            argv: tuple[str, ...] = tuple(self.argv)
            fallback: tuple[str, ...] | None = None
        else:
            assert self.command is not None
            shell = self.shell or "sh"
            shell_form = shell_argv(self.command, shell)
            direct = fast_path_argv(self.command) if shell in ("sh", "bash") else None
            argv, fallback = (direct, shell_form) if direct else (shell_form, None)
        extra_env = {k: _expand_env_refs(v) for k, v in self.env.items()}
        name = self.display_name
        hook = self

        async def call(c: HookCall) -> HandlerResult:
            return await _run_command(hook, name, argv, fallback, extra_env, c)

        return HandlerNode(
            name=name,
            kind="command",
            call=call,
            timeout=self.timeout,
            on_error=self.on_error,
            background=self.async_ or self.async_rewake,
            async_rewake=self.async_rewake,
            if_rule=self.if_rule,
            status_message=self.status_message,
            # Identical handlers run once; a copy with another filter or another way of
            # running (background, rewake, timeout, policy) is a different handler.
            dedupe_key=(
                "command",
                self.command,
                tuple(self.argv or ()),
                self.shell,
                self.if_rule,
                self.async_,
                self.async_rewake,
                self.on_error,
                self.working_dir,
                tuple(sorted(self.env.items())),
                self.strict_output,
                self.answer_must_be_valid,
            ),
            timeout_slack=self.kill_grace + DRAIN_TIMEOUT + 1.0,
            strict_output=self.strict_output,
            shadow=self.shadow,
        )


def _missing_program(hook: CommandHook) -> str | None:
    """Why ``hook`` cannot start, as far as can be told before it runs: the program of
    its command line (its ``argv[0]``; a shell-form command's first word when the
    command is a plain list of words; its ``shell``) is not on ``PATH`` (the hook's
    ``env`` one, else this process's), or is an absolute path that is no executable
    file. ``None`` when it looks runnable or cannot be told (a relative path, a
    variable, shell syntax)."""
    programs: list[str] = []
    if hook.argv is not None:
        programs.append(hook.argv[0])
    else:
        if hook.shell is not None:
            programs.append(hook.shell)
        if hook.shell in (None, "sh", "bash"):
            words = fast_path_argv(hook.command or "")
            if words:
                programs.append(words[0])
    path = hook.env.get("PATH") or os.environ.get("PATH", os.defpath)
    for program in programs:
        if os.path.isabs(program):
            if not os.path.isfile(program):
                return f"program {program!r} does not exist"
            if not os.access(program, os.X_OK):
                return f"program {program!r} is not executable"
        elif "/" in program or os.sep in program or "$" in program:
            continue  # (a relative path is relative to the payload's cwd, not known yet)
        elif shutil.which(program, path=path) is None:
            return f"program {program!r} is not on PATH"
    return None


def _program_notes(hook: CommandHook, location: str) -> tuple[Diagnostic, ...]:
    problem = _missing_program(hook)
    if problem is None:
        return ()
    note = Diagnostic(
        code=DiagnosticCode.PROGRAM_NOT_FOUND,
        message=f"{problem}: the hook fails on every call, under its failure policy "
        "(the default lets the event through)",
        severity=Severity.ERROR,
        location=location,
        handler=hook.display_name,
    )
    return (note,)


def _cwd(hook: CommandHook, c: HookCall) -> str | None:
    base = c.project_dir or c.input.cwd
    if hook.working_dir:
        wd = os.path.expanduser(hook.working_dir)
        if not os.path.isabs(wd) and base:
            wd = os.path.join(base, wd)
        return wd
    cwd = c.input.cwd
    if cwd and os.path.isdir(cwd):
        return cwd
    return base if base and os.path.isdir(base) else None


def _environment(hook_env: Mapping[str, str], c: HookCall) -> dict[str, str]:
    base = os.environ if c.base_env is None else c.base_env
    env = scrub_env(base, tuple(c.secret_env_patterns))
    if c.project_dir:
        env["CLAUDE_PROJECT_DIR"] = c.project_dir
    env.update(c.env)
    if not c.spec.env_file:
        env.pop("CLAUDE_ENV_FILE", None)  # only where the event supports it
    env.update(hook_env)
    return env


async def _run_command(
    hook: CommandHook,
    name: str,
    argv: tuple[str, ...],
    fallback: tuple[str, ...] | None,
    extra_env: Mapping[str, str],
    c: HookCall,
) -> HandlerResult:
    # The hook's timeout starts with its process; the wait for a process slot before it
    # is bounded by the dispatch's own deadline (the cancel scope the session runs the
    # handler in, or the caller's), which it leaves in time to say it never started.
    try:
        payload = c.payload_bytes(c.dialect)  # (a harness's own wire format, when it has one)
    except (TypeError, ValueError) as exc:  # (a value set from Python that is not JSON data)
        message = f"not started: the payload is not JSON data ({exc})"
        return HandlerResult.failure(DiagnosticCode.PAYLOAD_UNENCODABLE, message)
    deadline = anyio.current_effective_deadline()
    spec = ProcessSpec(
        argv=argv,
        env=_environment(extra_env, c),
        cwd=_cwd(hook, c),
        stdin=payload,
        timeout=c.timeout,
        kill_grace=hook.kill_grace,
        stdout_cap=hook.output_cap,
        stderr_cap=hook.output_cap,
        drain_timeout=DRAIN_TIMEOUT,
        start_deadline=None if deadline == math.inf else deadline - START_MARGIN,
    )
    proc = await run_process(spec, limiter=c.process_limiter, on_start=c.started)
    if (
        proc.launch_error is not None
        and fallback is not None
        and proc.launch_errno not in OUT_OF_RESOURCES
    ):
        # The direct run could not start the program: let the shell say why, exactly
        # as it would have (exit 127 "not found", 126 "permission denied").
        proc = await run_process(
            attrs.evolve(spec, argv=fallback), limiter=c.process_limiter, on_start=c.started
        )
    limit = c.process_limiter.total_tokens if c.process_limiter is not None else None
    result = interpret_process(
        c.spec,
        c.dialect,
        proc,
        name=name,
        strict=c.strict_output,
        process_limit=int(limit) if isinstance(limit, int) else None,
    )
    return invalid_answer_fails(result) if hook.answer_must_be_valid else result


_LAUNCH_HINTS = {
    errno.EMFILE: (
        " (this process's file descriptor limit, ulimit -n, is too low for the hooks"
        " running at once: raise it, or lower max_processes)"
    ),
    errno.ENFILE: " (the system ran out of file descriptors)",
    errno.EAGAIN: " (this user's process limit, ulimit -u, is reached)",
}


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _json_answer(
    spec: EventSpec, dialect: Dialect, stdout: str
) -> DecodedOutput[HookOutput] | None:
    """The decoded answer when stdout is a JSON object (first non-space ``{``), else None."""
    stripped = stdout.strip()
    if not stripped.startswith("{"):
        return None
    try:
        obj = json.loads(stripped)
    except (ValueError, RecursionError):  # (nested deeper than the parser goes)
        return None
    if not isinstance(obj, dict):
        return None
    return decode_output(spec.event, obj, dialect=dialect)


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:500]
    return ""


def interpret_process(
    spec: EventSpec,
    dialect: Dialect,
    proc: ProcessResult,
    *,
    name: str = "command",
    strict: bool = False,
    process_limit: int | None = None,
) -> HandlerResult:
    """Turn what a hook process did into a :class:`HandlerResult` (see the module doc).
    ``strict``: Docker Agent's ``strict_output`` (:func:`enforce_strict_output`).
    ``process_limit``: how many hook processes may run at once, for the message of a
    hook that never got to start."""
    if proc.not_started:
        slots = f" (all {process_limit} process slots were busy)" if process_limit else ""
        message = (
            f"not started: waited {proc.waited:.3g}s for a process slot{slots} and the "
            "dispatch's deadline came first; its timeout never began"
        )
        return HandlerResult.failure(DiagnosticCode.NOT_STARTED, message)
    diags: list[Diagnostic] = []
    code = proc.returncode
    stdout = _text(proc.stdout)
    unreadable = (
        proc.stdout_truncated
        and code == 0
        and proc.launch_error is None
        and not proc.timed_out
        and stdout.lstrip().startswith("{")
        and _json_answer(spec, dialect, stdout) is None
    )
    failed = unreadable and (spec.can_block or strict)
    if unreadable:
        # The answer was cut at the cap: whatever it decided is lost. On an event that
        # can block (or under strict_output), that is a failure of the hook (its on_error
        # policy applies), not "no opinion"; elsewhere the answer is dropped (never read
        # as plain text).
        consequence = (
            "the hook counts as failed and its on_error policy applies"
            if failed
            else "its answer is ignored"
        )
        message = (
            f"stdout exceeded the {len(proc.stdout)}-byte cap and the JSON answer in it was "
            f"cut: output too large to read the decision; {consequence}"
        )
        severity = Severity.ERROR if failed else Severity.WARNING
        diags.append(
            Diagnostic(code=DiagnosticCode.STDOUT_TRUNCATED, message=message, severity=severity)
        )
    elif proc.stdout_truncated:
        diags.append(
            Diagnostic(
                code=DiagnosticCode.STDOUT_TRUNCATED,
                message=f"stdout exceeded {len(proc.stdout)} bytes; the rest was discarded",
            )
        )
    if proc.stderr_truncated:
        diags.append(
            Diagnostic(
                code=DiagnosticCode.STDERR_TRUNCATED,
                message=f"stderr exceeded {len(proc.stderr)} bytes; the rest was discarded",
            )
        )
    if proc.launch_error is not None:
        message = f"could not start: {proc.launch_error}" + _LAUNCH_HINTS.get(
            proc.launch_errno or 0, ""
        )
        return HandlerResult.failure(DiagnosticCode.LAUNCH_FAILED, message, earlier=diags)
    if proc.timed_out:
        ran = proc.duration - proc.waited
        message = f"timed out after {ran:.3g}s; process group killed, output discarded"
        if proc.waited >= 0.01:
            message += f" (it first waited {proc.waited:.3g}s for a process slot, not counted)"
        return HandlerResult.failure(
            DiagnosticCode.TIMEOUT,
            message,
            outcome=Outcome.TIMEOUT,
            earlier=diags,
            exit_code=proc.returncode,
        )
    if failed:
        return HandlerResult(
            outcome=Outcome.ERROR, exit_code=0, diagnostics=tuple(diags), reason=diags[0].message
        )
    if unreadable:
        return HandlerResult(exit_code=0, diagnostics=tuple(diags))
    stderr = _text(proc.stderr).strip()
    if code == 0:
        if strict:
            return enforce_strict_output(spec, _exit_zero_strict(spec, dialect, stdout, diags))
        return _exit_zero(spec, dialect, stdout, diags)
    if code == 2:
        return _exit_two(spec, dialect, stdout, stderr, diags, name)
    return _exit_other(spec, dialect, proc, stdout, stderr, diags)


def _unreadable_text(stdout: str) -> str | None:
    """Why exit-0 stdout that is meant as a JSON answer cannot be read as one (``None``:
    it is one JSON object, or plain text): text starting with ``{`` (after a byte order
    mark) that is not exactly one JSON object, or a JSON array."""
    stripped = stdout.strip()
    bom = stripped.startswith("\ufeff")
    if bom:
        stripped = stripped[1:].lstrip()
    if stripped.startswith("["):
        try:
            json.loads(stripped)
        except (ValueError, RecursionError):
            return None  # plain text that happens to start with "["
        return "stdout is a JSON array, not an object"
    if not stripped.startswith("{"):
        return None
    if bom:
        return "stdout starts with a byte order mark before its JSON"
    try:
        json.loads(stripped)
    except RecursionError:
        return "stdout is JSON nested too deeply to read"
    except ValueError as exc:
        return f"stdout starts with '{{' but is not one JSON object ({exc})"
    return None


def _unreadable_answer(
    why: str, output: HookOutput | None, diags: list[Diagnostic]
) -> HandlerResult:
    """Exit 0 with an answer that cannot be read whole on an event that can block: a
    failure of the hook (its failure policy decides), whose ``output`` is what a lenient
    reading made of it (what the harness itself reads), kept when the policy lets the
    failure through."""
    message = f"its answer could not be read: {why}"
    return HandlerResult.failure(
        DiagnosticCode.UNREADABLE_ANSWER, message, earlier=diags, exit_code=0, output=output
    )


def _exit_zero(
    spec: EventSpec,
    dialect: Dialect,
    stdout: str,
    diags: list[Diagnostic],
    *,
    check_readable: bool = True,
) -> HandlerResult:
    """Exit 0: the answer on stdout. ``check_readable``: on an event that can block, an
    answer that cannot be read whole is a failure (``strict_output`` reports it itself)."""
    if not stdout.strip():
        return HandlerResult(exit_code=0, diagnostics=tuple(diags))
    decoded = _json_answer(spec, dialect, stdout)
    if decoded is not None:
        diags.extend(decoded.diagnostics)
        if decoded.unreadable is not None and spec.can_block and check_readable:
            return _unreadable_answer(decoded.unreadable, decoded.output, diags)
        return HandlerResult(exit_code=0, output=decoded.output, diagnostics=tuple(diags))
    why = _unreadable_text(stdout) if spec.can_block and check_readable else None
    if why is None and stdout.lstrip().startswith("{"):
        diags.append(
            Diagnostic(
                code=DiagnosticCode.MALFORMED_JSON,
                message="stdout starts with '{' but is not one JSON object; read as plain text",
                severity=Severity.INFO,
            )
        )
    target = spec.docker_plain_stdout if dialect.wire == "docker" else spec.plain_stdout
    text = stdout.strip()
    if target is not None:
        plain = _plain_output(spec, target, text)
        if why is not None:
            return _unreadable_answer(why, plain, diags)
        return HandlerResult(exit_code=0, output=plain, diagnostics=tuple(diags))
    if why is not None:
        return _unreadable_answer(why, None, diags)
    diags.append(
        Diagnostic(
            code=DiagnosticCode.PLAIN_STDOUT_IGNORED,
            message=f"plain stdout is not context for {spec.event.value}; ignored ({_first_line(text)[:80]!r})",
            severity=Severity.INFO,
        )
    )
    return HandlerResult(exit_code=0, diagnostics=tuple(diags))


def _exit_zero_strict(
    spec: EventSpec, dialect: Dialect, stdout: str, diags: list[Diagnostic]
) -> HandlerResult:
    """Exit 0 under ``strict_output``: empty stdout, or one JSON object whose keys are
    spelled as the dialect's wire format spells them; nothing else."""
    problem: str | None = None
    if stdout.strip():
        if _json_answer(spec, dialect, stdout) is None:
            problem = "stdout must be empty or one JSON object"
        else:
            foreign = foreign_keys(spec.event, json.loads(stdout), dialect)
            if foreign:
                problem = f"keys not spelled as the {dialect.wire} format spells them: " + (
                    ", ".join(foreign)
                )
    if problem is None:
        return _exit_zero(spec, dialect, stdout, diags, check_readable=False)
    message = f"strict_output: {problem}"
    return HandlerResult.failure(DiagnosticCode.INVALID_OUTPUT, message, earlier=diags, exit_code=0)


_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def _plain_output(spec: EventSpec, field: str, text: str) -> HookOutput:
    """Plain stdout as the field the table names: context takes the whole text; a value
    field (WorktreeCreate's path) takes the last non-empty line, terminal escapes removed,
    as Claude Code reads it."""
    value = text
    if field != "additional_context":
        lines = [ln.strip() for ln in _ANSI.sub("", text).splitlines() if ln.strip()]
        value = lines[-1] if lines else ""
    kwargs: dict[str, object] = {field: value}
    return spec.output_type(**kwargs)  # type: ignore[arg-type]


def _exit_two(
    spec: EventSpec, dialect: Dialect, stdout: str, stderr: str, diags: list[Diagnostic], name: str
) -> HandlerResult:
    decoded = _json_answer(spec, dialect, stdout) if dialect.exit2_reads_stdout else None
    answer = decoded.output if decoded is not None else None
    if decoded is not None:
        diags.extend(decoded.diagnostics)
    if spec.exit2 is Exit2.IGNORED:
        return HandlerResult(exit_code=2, output=answer, diagnostics=tuple(diags))
    if spec.event in dialect.exit2_ignored:
        diags.append(
            Diagnostic(
                code=DiagnosticCode.NONZERO_EXIT,
                message=(
                    f"exit status 2 is not honoured on {spec.event.value} ({dialect.name} "
                    "dialect): nothing was blocked and stderr was discarded; only the "
                    "answer's JSON decides"
                ),
                severity=Severity.WARNING,
            )
        )
        return HandlerResult(exit_code=2, output=answer, diagnostics=tuple(diags))
    text = stdout.strip() if dialect.exit2_text_first and decoded is None else ""
    reason = text or stderr or f"blocked by hook {name} (exit status 2)"
    if spec.exit2 is Exit2.USER:
        diags.append(
            Diagnostic(
                code=DiagnosticCode.NONZERO_EXIT,
                message=f"exit status 2 (shown to the user only): {_first_line(stderr)}",
                severity=Severity.WARNING,
            )
        )
        shown = spec.output_type(system_message=stderr) if stderr else None
        return HandlerResult(
            outcome=Outcome.ERROR,
            exit_code=2,
            output=_overlay(answer, shown),
            diagnostics=tuple(diags),
            reason=reason,
        )
    if answer is not None and is_blocking(answer):
        # Its own blocking reason is the message; without one, stderr (or the default) is.
        output: HookOutput | None = _with_block_reason(answer, reason)
    else:
        output = _overlay(answer, blocking_output(spec, reason))
    return HandlerResult(
        outcome=Outcome.BLOCKED, exit_code=2, output=output, diagnostics=tuple(diags), reason=reason
    )


def _with_block_reason(output: HookOutput, reason: str) -> HookOutput:
    """A blocking answer whose blocking decision has no message, given ``reason`` as one."""
    for fc in field_codecs(type(output), True):
        if fc.info.merge is not Merge.RANK:
            continue
        value = getattr(output, fc.name)
        if value is None or rank_key(fc, value) != fc.info.rank[0]:
            continue
        companion = fc.info.companion
        if companion is None:
            return output
        if fc.info.rank_by:  # the message lives inside the decision object
            if getattr(value, companion, None):
                return output
            inner: dict[str, Any] = {companion: reason}
            changes: dict[str, Any] = {fc.name: attrs.evolve(value, **inner)}
        else:
            if getattr(output, companion, None):
                return output
            changes = {companion: reason}
        return attrs.evolve(output, **changes)
    return output


def _overlay(base: HookOutput | None, top: HookOutput | None) -> HookOutput | None:
    """``base`` with every field ``top`` sets replaced by ``top``'s value."""
    if base is None or top is None:
        return top if base is None else base
    changes = {
        a.name: getattr(top, a.name)
        for a in attrs.fields(type(top))
        if getattr(top, a.name) is not None
    }
    return attrs.evolve(base, **changes)


def _exit_other(
    spec: EventSpec,
    dialect: Dialect,
    proc: ProcessResult,
    stdout: str,
    stderr: str,
    diags: list[Diagnostic],
) -> HandlerResult:
    code = proc.returncode
    if dialect.nonzero_json_decides and spec.event not in dialect.failure_blocks:
        decoded = _json_answer(spec, dialect, stdout)
        if (
            decoded is not None
            and decoded.output is not None
            and not (decoded.unreadable is not None and spec.can_block)
            and not (dialect.nonzero_json_blocks_only and not is_blocking(decoded.output))
        ):
            diags.extend(decoded.diagnostics)
            return HandlerResult(exit_code=code, output=decoded.output, diagnostics=tuple(diags))
    if dialect.halt_exit is not None and code == dialect.halt_exit:
        reason = stderr or f"the hook ended the turn (exit status {code})"
        base = blocking_output(spec, reason) or spec.output_type()
        halted = attrs.evolve(base, continue_=False, stop_reason=reason)
        return HandlerResult(
            outcome=Outcome.BLOCKED,
            exit_code=code,
            output=halted,
            diagnostics=tuple(diags),
            reason=reason,
        )
    blocked = _dialect_block(spec, dialect, code, stdout, stderr)
    if blocked is not None:
        diags.append(
            Diagnostic(code=DiagnosticCode.NONZERO_EXIT, message=blocked, severity=Severity.INFO)
        )
        return HandlerResult(
            outcome=Outcome.BLOCKED,
            exit_code=code,
            output=blocking_output(spec, blocked),
            diagnostics=tuple(diags),
            reason=blocked,
        )
    if proc.signal is not None:
        try:
            signame = signal.Signals(proc.signal).name
        except ValueError:
            signame = str(proc.signal)
        status = f"killed by signal {signame}"
    else:
        status = f"exit status {code}"
    first = _first_line(stderr)
    message = f"Failed with non-blocking status code: {status}" + (f": {first}" if first else "")
    return HandlerResult.failure(
        DiagnosticCode.NONZERO_EXIT,
        first or status,
        message=message,
        severity=Severity.WARNING,
        earlier=diags,
        exit_code=code,
    )


def _dialect_block(
    spec: EventSpec, dialect: Dialect, code: int | None, stdout: str, stderr: str
) -> str | None:
    """The reason when the dialect makes this failure status block (else ``None``): a
    crash of a command on an event the harness fails closed on (Copilot's preToolUse:
    "hook errored"), or an exit status at or above the dialect's threshold with text
    (Gemini CLI: stdout, else stderr, is the reason). Only on events that can block."""
    if not spec.can_block or code is None or code < 0:
        return None
    if spec.event in dialect.nonzero_exit_blocks:
        first = _first_line(stderr)
        return f"hook errored (exit status {code})" + (f": {first}" if first else "")
    threshold = dialect.text_exit_blocks_from
    if threshold is not None and code >= threshold:
        text = stdout.strip() or stderr.strip()
        if text:
            return text
    return None
