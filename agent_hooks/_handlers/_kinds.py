"""Handler kinds: the table that turns one configured handler entry into a node.

Every loader hands each entry of a matcher group's ``hooks`` list to
:func:`build_handler`, which looks its ``type`` up in a :data:`HandlerKinds`
mapping (``type`` name -> factory). A factory reads the entry (a mapping, as
parsed from JSON, YAML or TOML) and returns a
:class:`~agent_hooks.HandlerNode`, or ``None`` after reporting why the entry
was dropped. Factories never raise on bad content: they report diagnostics
through :class:`KindContext` and keep what is usable.

Built in: ``command``, ``python`` (a callable by import path), ``http`` and Docker
Agent's ``builtin``; :func:`model_kinds` adds ``model``, ``prompt``, ``agent`` and
``mcp_tool`` backed by the application's model client, agent runner and MCP
caller. A ``type`` nobody registered becomes a
*disabled* node with a ``handler_disabled`` diagnostic: it is listed (by
``agent-hooks check``, in ``CompiledRegistry.disabled``) but never runs. Pass
your own table to any loader (``kinds={**default_kinds(), "http": my_factory}``)
to make more kinds runnable.

Each factory imports its kind's implementation when it builds an entry, so that a
graph without command hooks never imports the process runner (nor one without
HTTP hooks the HTTP client): ``agent-hooks run`` pays for the kinds it uses.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._events._untyped import AnyEvent
from .._wire._dialects import CLAUDE, DEEPAGENTS, Dialect
from .._wire._fields import json_type_name
from ._nodes import HandlerNode, HandlerResult, HookCall, OnError

__all__ = [
    "HandlerKinds",
    "KindContext",
    "KindFactory",
    "build_handler",
    "builtin_kind",
    "command_kind",
    "default_kinds",
    "http_kind",
    "model_kinds",
    "python_kind",
    "disabled_node",
]


@attrs.frozen(kw_only=True)
class KindContext:
    """What a kind factory may need besides the entry itself.

    ``diagnostics`` is the loader's sink: factories append to it (use
    :meth:`report`), they never raise on bad configuration.
    """

    dialect: Dialect = CLAUDE
    """The dialect of the configuration file (decides defaults and accepted fields)."""
    source: str = "python"
    """The source label: the configuration file's path."""
    location: str | None = None
    """Where the entry is in its file: ``hooks.PreToolUse[0].hooks[1]``."""
    event: AnyEvent | None = None
    """The event the entry is configured under."""
    config_dir: str | None = None
    """The directory of the configuration file."""
    project_dir: str | None = None
    """The project root, when known (``${CLAUDE_PROJECT_DIR}``)."""
    plugin_root: str | None = None
    """The plugin's installation directory (``${CLAUDE_PLUGIN_ROOT}``), for plugin hooks."""
    plugin_data: str | None = None
    """The plugin's data directory (``${CLAUDE_PLUGIN_DATA}``), for plugin hooks."""
    diagnostics: list[Diagnostic] = attrs.field(factory=list, eq=False, repr=False)
    """The sink for what the factory has to say."""
    trusts_directory: Callable[[str], bool] | None = attrs.field(default=None, eq=False, repr=False)
    """Whether Python code under a project directory may be imported for this file's
    ``python`` entries (the loaders answer with the trust policy: the file itself was
    trusted as that project's file, or :meth:`~agent_hooks.TrustPolicy.trusts_directory`).
    ``None``: no project directory is trusted; only the file's own directory (and a
    plugin's root) are searched."""

    def report(
        self,
        code: DiagnosticCode,
        message: str,
        *,
        severity: Severity = Severity.WARNING,
        location: str | None = None,
        handler: str | None = None,
    ) -> None:
        """Append a diagnostic naming this entry's file and location."""
        self.diagnostics.append(
            Diagnostic(
                code=code,
                message=message,
                severity=severity,
                source=self.source,
                location=location or self.location,
                handler=handler,
            )
        )

    @property
    def placeholders(self) -> dict[str, str]:
        """The path placeholders known here, by variable name."""
        values: dict[str, str] = {}
        if self.project_dir:
            values["CLAUDE_PROJECT_DIR"] = self.project_dir
        if self.plugin_root:
            values["CLAUDE_PLUGIN_ROOT"] = values["PLUGIN_ROOT"] = self.plugin_root
        if self.plugin_data:
            values["CLAUDE_PLUGIN_DATA"] = values["PLUGIN_DATA"] = self.plugin_data
        return values

    def substitute(self, text: str) -> str:
        """Replace ``${CLAUDE_PLUGIN_ROOT}``-style placeholders whose value is known."""
        values = self.placeholders
        return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


KindFactory = Callable[[Mapping[str, Any], KindContext], "HandlerNode | None"]
"""Builds a node from one handler entry; returns ``None`` (after reporting) to drop it."""

HandlerKinds = Mapping[str, KindFactory]
"""A handler ``type`` name -> the factory that builds it."""

_PLACEHOLDER = re.compile(
    r"\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|PLUGIN_DATA)\}"
)

_UNAVAILABLE: dict[str, str] = {
    "prompt": "prompt hooks need a model client from the application (model_kinds(client))",
    "agent": "agent hooks need an agent runner from the application (model_kinds(agent=...))",
    "mcp_tool": "MCP tool hooks need an MCP caller from the application (model_kinds(mcp=...))",
    "model": "Docker Agent model hooks need a model client from the application (model_kinds(client))",
}
"""Handler types some harness defines, that the default table cannot run."""


def default_kinds() -> dict[str, KindFactory]:
    """A fresh copy of the built-in table (``command``, ``python``, ``http``, ``builtin``);
    add your own factories to it, or :func:`model_kinds` for model, prompt, agent and
    MCP tool hooks backed by your application."""
    return {
        "command": command_kind,
        "python": python_kind,
        "http": http_kind,
        "builtin": builtin_kind,
    }


async def _never_runs(call: HookCall) -> HandlerResult:
    return HandlerResult()


def _entry_name(kind: str, entry: Mapping[str, Any]) -> str:
    name = entry.get("name")
    if isinstance(name, str) and name:
        return name
    for key, fmt in (
        ("command", "{}"),
        ("url", "{}"),
        ("model", "model:{}"),
        ("prompt", "{}"),
    ):
        value = entry.get(key)
        if isinstance(value, str) and value.strip():
            text = fmt.format(value.strip())
            if kind == "builtin" and key == "command":
                text = f"builtin:{text}"
            return text if len(text) <= 80 else text[:77] + "..."
    server, tool = entry.get("server"), entry.get("tool")
    if isinstance(server, str) and isinstance(tool, str):
        return f"{server}/{tool}"
    return kind


def disabled_node(
    kind: str,
    entry: Mapping[str, Any],
    ctx: KindContext,
    *,
    why: str | None = None,
    severity: Severity | None = None,
) -> HandlerNode:
    """A node that is listed but never runs, with a ``handler_disabled`` diagnostic.

    ``why`` defaults to "handler type '<kind>' is not available: ...".
    """
    name = _entry_name(kind, entry)
    if why is None:
        detail = _UNAVAILABLE.get(kind, "no handler factory is registered for this type")
        why = f"handler type {kind!r} is not available: {detail}"
    if severity is None:
        severity = Severity.WARNING if kind in _UNAVAILABLE else Severity.ERROR
    ctx.report(
        DiagnosticCode.HANDLER_DISABLED,
        f"{why}; kept as a disabled entry that never runs",
        severity=severity,
        handler=name,
    )
    status = entry.get("statusMessage", entry.get("status_message"))
    return HandlerNode(
        name=name,
        kind=kind,
        call=_never_runs,
        status_message=status if isinstance(status, str) else None,
        disabled=why,
    )


def build_handler(
    entry: object, ctx: KindContext, kinds: HandlerKinds | None = None
) -> HandlerNode | None:
    """Build one configured handler through the kind table; ``None`` when it was dropped.

    Never raises: a malformed entry, an unknown ``type`` or a failing factory
    becomes a diagnostic in ``ctx.diagnostics``.
    """
    table = default_kinds() if kinds is None else kinds
    if not isinstance(entry, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            f"a handler must be an object, got {json_type_name(entry)}; dropped",
            severity=Severity.ERROR,
        )
        return None
    kind = entry.get("type")
    if kind is None:
        if "command" in entry:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                "handler has no 'type'; read as a command handler",
            )
            kind = "command"
        else:
            ctx.report(
                DiagnosticCode.INVALID_HANDLER,
                "handler has no 'type' (and no 'command'); dropped",
                severity=Severity.ERROR,
            )
            return None
    if not isinstance(kind, str) or not kind.strip():
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            f"handler 'type' must be a non-empty string, got {json_type_name(kind)}; dropped",
            severity=Severity.ERROR,
        )
        return None
    skipped = _skipped_by_dialect(kind, ctx)
    if skipped is not None:
        return disabled_node(kind, entry, ctx, why=skipped, severity=Severity.WARNING)
    factory = table.get(kind)
    if factory is None:
        return disabled_node(kind, entry, ctx)
    try:
        return factory(entry, ctx)
    except Exception as exc:  # a factory's bug must not stop the rest from loading
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            f"handler of type {kind!r} could not be built ({exc}); dropped",
            severity=Severity.ERROR,
        )
        return None


def _skipped_by_dialect(kind: str, ctx: KindContext) -> str | None:
    """Why the harness of ``ctx.dialect`` never runs an entry of ``kind`` here, or None."""
    why = ctx.dialect.skipped_kinds.get(kind)
    if why is not None:
        return why
    event = ctx.event
    if event is not None and event in ctx.dialect.kinds_skipped_on.get(kind, ()):
        return f"{ctx.dialect.name} does not run {kind} hooks on {event}"
    return None


# ----------------------------------------------------------------- command

_COMMAND_KEYS = frozenset(
    {
        "type",
        "command",
        "args",
        "argv",
        "timeout",
        "statusMessage",
        "status_message",
        "async",
        "asyncRewake",
        "if",
        "shell",
        "name",
        "env",
        "working_dir",
        "on_error",
        "once",
        "commandWindows",
        "command_windows",
        "strict_output",
        "rewakeMessage",
        "rewakeSummary",
    }
)
"""Every field some harness defines for command handlers (Claude Code, Deep Agents
Code, Codex, Docker Agent, hel)."""

_VAR_REF = re.compile(r"\$\{(?:env\.)?([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _timeout(entry: Mapping[str, Any], ctx: KindContext, name: str) -> float | None:
    value = entry.get("timeout")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'timeout' must be a number of seconds, got {json_type_name(value)}; the default is used",
            handler=name,
        )
        return None
    seconds = float(value)
    if math.isnan(seconds):
        seconds = 0.0
    minimum = ctx.dialect.min_timeout
    if minimum and seconds < minimum:
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"timeout {seconds:g} is below the minimum of {minimum:g}s for {ctx.dialect.name}; raised to {minimum:g}",
            severity=Severity.INFO,
            handler=name,
        )
        seconds = minimum
    cap = next((c for e, c in ctx.dialect.max_timeouts.items() if e == ctx.event), None)
    if cap is not None and seconds > cap:
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"timeout {seconds:g} is above the {cap:g}s {ctx.dialect.name} gives {ctx.event} "
            f"hooks; clamped to {cap:g}",
            handler=name,
        )
        seconds = cap
    if not seconds > 0:
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'timeout' must be a positive number of seconds, got {value!r}; the default is used",
            handler=name,
        )
        return None
    if math.isinf(seconds):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            "'timeout' is infinite; the default is used",
            handler=name,
        )
        return None
    if seconds >= 1000:  # timeout_diagnostic's "obviously milliseconds"; below, it says nothing
        # imported here: the command runner is not loaded for a graph without command hooks
        from ._command import timeout_diagnostic

        diag = timeout_diagnostic(seconds, where=ctx.location)
        if diag is not None:
            ctx.diagnostics.append(diag.at(source=ctx.source, handler=name))
    return seconds


def _flag(entry: Mapping[str, Any], key: str, ctx: KindContext, name: str) -> bool:
    value = entry.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"{key!r} must be true or false, got {json_type_name(value)}; read as false",
            handler=name,
        )
        return False
    return value


def _string(entry: Mapping[str, Any], key: str, ctx: KindContext, name: str) -> str | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"{key!r} must be a string, got {json_type_name(value)}; ignored",
            handler=name,
        )
        return None
    return value


def _env(entry: Mapping[str, Any], ctx: KindContext, name: str) -> dict[str, str]:
    value = entry.get("env")
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'env' must be an object of names to values, got {json_type_name(value)}; ignored",
            handler=name,
        )
        return {}
    env: dict[str, str] = {}
    for key, item in value.items():
        if isinstance(item, bool):
            env[str(key)] = "true" if item else "false"
        elif isinstance(item, (str, int, float)):
            env[str(key)] = str(item)
        else:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"env value of {key!r} must be a string, got {json_type_name(item)}; ignored",
                handler=name,
            )
    return env


def _working_dir(entry: Mapping[str, Any], ctx: KindContext, name: str) -> str | None:
    raw = _string(entry, "working_dir", ctx, name)
    if raw is None:
        return None
    # Docker Agent: ~, $VAR, ${VAR} and ${env.VAR}, expanded now from this process's
    # environment (an unset variable expands to nothing).
    expanded = _VAR_REF.sub(lambda m: os.environ.get(m.group(1) or m.group(2) or "", ""), raw)
    if not expanded.strip():
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"working_dir {raw!r} expands to nothing; the default directory is used",
            handler=name,
        )
        return None
    return expanded


def _on_error(entry: Mapping[str, Any], ctx: KindContext, name: str) -> OnError | None:
    value = entry.get("on_error")
    if value is None:
        return None
    if value in ("warn", "ignore", "block"):
        return value  # type: ignore[no-any-return]
    ctx.report(
        DiagnosticCode.INVALID_CONFIG,
        f"'on_error' must be warn, ignore or block, got {value!r}; ignored",
        handler=name,
    )
    return None


_ON_FAILURE_IGNORED_ON = frozenset({"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"})
"""Events on which Claude Code ignores ``onFailure`` (their failures never block)."""
_MCP_ON_FAILURE_IGNORED_ON = _ON_FAILURE_IGNORED_ON | {"Setup", "SessionStart"}


def _on_failure(
    entry: Mapping[str, Any], ctx: KindContext, name: str, kind: str, background: bool
) -> bool:
    """Whether the entry's ``onFailure`` (Claude Code 2.1.295+, in the dialects that read
    it) makes the hook's failures block: ``block``, except where Claude Code ignores it
    (async hooks; Stop, SubagentStop, TaskCompleted, TeammateIdle; Setup and SessionStart
    for ``mcp_tool``), which an ``on_failure_ignored`` warning says. A value that is not
    ``continue`` or ``block`` is an ``invalid_config`` warning and the default,
    ``continue``, stays; for ``mcp_tool`` Claude Code reads any value but ``continue`` as
    ``block``, and so does this (with the same warning)."""
    if "onFailure" not in entry or not ctx.dialect.on_failure:
        return False
    value = entry["onFailure"]
    if value not in ("continue", "block"):
        shown = json_type_name(value) if not isinstance(value, str) else repr(value)
        if kind == "mcp_tool":
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"'onFailure' must be continue or block, got {shown}; read as block (as "
                "Claude Code reads any value but continue for mcp_tool hooks)",
                handler=name,
            )
            value = "block"
        else:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"'onFailure' must be continue or block, got {shown}; the default, "
                "continue, is used",
                handler=name,
            )
            return False
    if value != "block":
        return False
    event = getattr(ctx.event, "value", None)
    ignored = _MCP_ON_FAILURE_IGNORED_ON if kind == "mcp_tool" else _ON_FAILURE_IGNORED_ON
    why = "for async hooks" if background else f"on {event}" if event in ignored else None
    if why is None:
        return True
    ctx.report(
        DiagnosticCode.ON_FAILURE_IGNORED,
        f"'onFailure: block' is ignored {why} (as in Claude Code); a failure of this hook "
        "does not block",
        handler=name,
    )
    return False


def _argv(
    entry: Mapping[str, Any], command: str, ctx: KindContext, name: str
) -> tuple[list[str] | None, bool]:
    """The exec-form argv (``args``: Claude Code/Docker Agent, ``argv``: Deep Agents
    Code), or None for shell form; the flag is False when the entry must be dropped."""
    if "argv" in entry and entry["argv"] is not None:
        value = entry["argv"]
        if (
            not isinstance(value, (list, tuple))
            or not value
            or not all(isinstance(a, str) for a in value)
        ):
            ctx.report(
                DiagnosticCode.INVALID_HANDLER,
                f"'argv' must be a non-empty list of strings, got {json_type_name(value)}; handler dropped",
                severity=Severity.ERROR,
                handler=name,
            )
            return None, False
        if "args" in entry:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                "both 'argv' and 'args' are set; 'argv' is used",
                handler=name,
            )
        return [str(a) for a in value], True
    if "args" in entry and entry["args"] is not None:
        value = entry["args"]
        if not isinstance(value, (list, tuple)) or not all(isinstance(a, str) for a in value):
            ctx.report(
                DiagnosticCode.INVALID_HANDLER,
                f"'args' must be a list of strings, got {json_type_name(value)}; handler dropped",
                severity=Severity.ERROR,
                handler=name,
            )
            return None, False
        if "/" not in command and "\\" not in command and any(c.isspace() for c in command):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"with 'args', 'command' is the executable only; there is no program named {command!r} "
                "(move the extra words into 'args')",
                handler=name,
            )
        return [command, *(str(a) for a in value)], True
    return None, True


def command_kind(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
    """The ``command`` kind: a :class:`~agent_hooks.CommandHook` from a config entry.

    Fields: ``command`` (required), ``args`` (Claude Code: exec form, ``command``
    is the executable) or ``argv`` (Deep Agents Code: the argv to run, ``command``
    is for display), ``shell``, ``timeout`` (seconds; below the dialect's minimum
    it is raised), ``statusMessage``/``status_message``, ``async``, ``asyncRewake``,
    ``if``, ``name``, ``env``, ``working_dir``, ``on_error``; ``commandWindows``
    (Codex also spells it ``command_windows``) replaces ``command`` on Windows only.
    Path placeholders are substituted in the
    exec form; the shell form reads them from the environment.
    """
    from ._command import CommandHook

    command = entry.get("command")
    windows = entry.get("commandWindows", entry.get("command_windows"))
    if os.name == "nt" and isinstance(windows, str):  # pragma: no cover
        command = windows
    label = _entry_name("command", entry)
    if not isinstance(command, str) or not command.strip():
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            f"command handler needs 'command' as a non-empty string, got {json_type_name(command)}; dropped",
            severity=Severity.ERROR,
            handler=label if label != "command" else None,
        )
        return None
    for key in entry:
        if key not in _COMMAND_KEYS and not (key == "onFailure" and ctx.dialect.on_failure):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"unknown field {key!r} in a command handler; ignored",
                handler=label,
            )
    argv, ok = _argv(entry, command, ctx, label)
    if not ok:
        return None
    if argv is not None:
        argv = [ctx.substitute(a) for a in argv]
        leftover = {m.group(1) for a in argv for m in _PLACEHOLDER.finditer(a)}
        if leftover:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                "exec form refers to "
                + ", ".join(f"${{{v}}}" for v in sorted(leftover))
                + " but its value is not known here; passed through unchanged",
                handler=label,
            )
    async_ = _flag(entry, "async", ctx, label)
    rewake = _flag(entry, "asyncRewake", ctx, label)
    if ctx.dialect is DEEPAGENTS and (async_ or rewake):
        key = "async" if async_ else "asyncRewake"
        return disabled_node(
            "command",
            entry,
            ctx,
            why=f'"{key}": true is not supported by Deep Agents Code',
            severity=Severity.ERROR,
        )
    for key in ("rewakeMessage", "rewakeSummary"):
        if key in entry:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"{key!r} is not supported; ignored",
                severity=Severity.INFO,
                handler=label,
            )
    if entry.get("once") is True:
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            "'once' is only honoured for hooks in skill frontmatter; ignored here",
            severity=Severity.INFO,
            handler=label,
        )
    strict = entry.get("strict_output", False)
    if not isinstance(strict, bool):
        # (a safety option that cannot be read is never taken as "off")
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'strict_output' must be true or false, got {json_type_name(strict)}; handler dropped",
            severity=Severity.ERROR,
            handler=label,
        )
        return None
    name = _string(entry, "name", ctx, label)
    if name is None and argv is not None and "argv" in entry:
        name = command  # Deep Agents Code: 'command' is what the user reads
    shell = _string(entry, "shell", ctx, label)
    on_error = _on_error(entry, ctx, label)
    must_answer = _on_failure(entry, ctx, label, "command", async_ or rewake)
    hook = CommandHook(
        command=None if argv is not None else command,
        argv=argv,
        timeout=_timeout(entry, ctx, label),
        status_message=_string(entry, "statusMessage", ctx, label)
        or _string(entry, "status_message", ctx, label),
        env=_env(entry, ctx, label),
        working_dir=_working_dir(entry, ctx, label),
        on_error="block" if must_answer else on_error,
        async_=async_,
        async_rewake=rewake,
        shell=shell if argv is None else None,
        name=name,
        if_rule=_string(entry, "if", ctx, label),
        strict_output=strict,
        answer_must_be_valid=must_answer,
    )
    return hook.to_node()


# ------------------------------------------------------------ more kinds


def _common(entry: Mapping[str, Any], ctx: KindContext, label: str) -> dict[str, Any]:
    """The fields every kind shares: name, timeout, statusMessage, on_error, if."""
    return {
        "name": _string(entry, "name", ctx, label),
        "timeout": _timeout(entry, ctx, label),
        "status_message": _string(entry, "statusMessage", ctx, label)
        or _string(entry, "status_message", ctx, label),
        "on_error": _on_error(entry, ctx, label),
        "if_rule": _string(entry, "if", ctx, label),
    }


def _build(
    kind: str, entry: Mapping[str, Any], ctx: KindContext, make: Callable[[], Any]
) -> HandlerNode | None:
    """Run a handler constructor; a :class:`RegistrationError` drops the entry with a diagnostic."""
    from .._base._errors import RegistrationError

    try:
        node: HandlerNode = make().to_node()
    except RegistrationError as exc:
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            f"{kind} handler dropped: {exc}",
            severity=Severity.ERROR,
            handler=_entry_name(kind, entry),
        )
        return None
    return node


def python_kind(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
    """``{"type": "python", "callable": "package.module:function"}``: imported once, with the
    config file's directory and (when trusted) the project directory searched first.
    Loaders only reach this for sources that passed the trust gate, and the project
    directory is searched only when it is trusted too (importing project code runs it):
    see :func:`_module_search`."""
    from ._pyref import PythonRefHook

    label = _entry_name("python", entry)
    ref = entry.get("callable")
    if not isinstance(ref, str) or not ref.strip():
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            "python handler needs 'callable': 'package.module:function'; dropped",
            severity=Severity.ERROR,
        )
        return None
    paths, fallback, refused = _module_search(ctx)
    common = _common(entry, ctx, ref)
    return _build(
        "python",
        entry,
        ctx,
        lambda: PythonRefHook(
            callable=ref,
            search_paths=paths,
            fallback_paths=fallback,
            untrusted_dirs=refused,
            async_=_flag(entry, "async", ctx, label),
            **common,
        ),
    )


def _module_search(ctx: KindContext) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Where a ``python`` entry's module is looked for: before ``sys.path``, after it,
    and the directories it must never come from.

    The config file's own directory (and a plugin's root) come first. The project
    directory follows the trust of the project: searched first for a file inside it
    (which passed the project's trust gate), after ``sys.path`` for a file outside it
    when the project is trusted (so a repository cannot shadow an installed module a
    user-level config names), and never when it is not trusted: then no module may be
    imported from under it at all, whichever ``sys.path`` entry leads there (the
    working directory that ``python -m`` puts first, ``PYTHONPATH=.``).
    """
    first = tuple(p for p in (ctx.config_dir, ctx.plugin_root) if p)
    project = ctx.project_dir
    if not project:
        return first, (), ()
    if ctx.trusts_directory is None or not ctx.trusts_directory(project):
        return first, (), (project,)
    if ctx.config_dir and _is_within(ctx.config_dir, project):
        return (*first, project), (), ()
    return first, (project,), ()


def _is_within(path: str, directory: str) -> bool:
    real, root = os.path.realpath(path), os.path.realpath(directory)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def http_kind(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
    """Claude Code's ``{"type": "http", "url": ..., "headers": {...}, "allowedEnvVars": [...]}``."""
    from ._http import HttpHook

    try:
        import h11  # noqa: F401
    except ImportError:
        return disabled_node(
            "http",
            entry,
            ctx,
            why="HTTP hooks need the 'http' extra: pip install 'py-agent-hooks[http]'",
        )
    label = _entry_name("http", entry)
    url = entry.get("url")
    headers = entry.get("headers", {})
    allowed = entry.get("allowedEnvVars", entry.get("allowed_env_vars", []))
    if not isinstance(url, str):
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            "http handler needs 'url'; dropped",
            severity=Severity.ERROR,
        )
        return None
    if not isinstance(headers, Mapping) or not all(isinstance(v, str) for v in headers.values()):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            "'headers' must map names to strings; ignored",
            handler=label,
        )
        headers = {}
    if not isinstance(allowed, list) or not all(isinstance(v, str) for v in allowed):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            "'allowedEnvVars' must be a list of names; ignored",
            handler=label,
        )
        allowed = []
    common = _common(entry, ctx, label)
    async_ = _flag(entry, "async", ctx, label)
    must_answer = _on_failure(entry, ctx, label, "http", async_)
    if must_answer:
        common["on_error"] = "block"
    return _build(
        "http",
        entry,
        ctx,
        lambda: HttpHook(
            url=url,
            headers=dict(headers),
            allowed_env_vars=tuple(allowed),
            async_=async_,
            answer_must_be_valid=must_answer,
            **common,
        ),
    )


def builtin_kind(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
    """Docker Agent's ``{type: builtin, command: add_date, args: [...]}``."""
    from ._builtins import builtin
    from ._callbacks import callback_node

    name = entry.get("command", entry.get("name"))
    args = entry.get("args", [])
    if not isinstance(name, str) or not name:
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            "builtin handler needs 'command': the built-in's name; dropped",
            severity=Severity.ERROR,
        )
        return None
    if not isinstance(args, (list, Mapping)):
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            f"builtin {name!r}: 'args' must be a list; dropped",
            severity=Severity.ERROR,
        )
        return None
    try:
        callback = builtin(name, args)
    except (ValueError, TypeError) as exc:
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            f"builtin {name!r}: {exc}; dropped",
            severity=Severity.ERROR,
        )
        return None
    if hasattr(callback, "to_node"):
        node: HandlerNode = callback.to_node()
        return attrs.evolve(node, name=f"builtin:{name}")
    common = _common(entry, ctx, name)
    return callback_node(
        callback,
        name=common["name"] or f"builtin:{name}",
        timeout=common["timeout"],
        on_error=common["on_error"],
    )


def model_kinds(
    client: Any | None = None, *, agent: Any | None = None, mcp: Any | None = None
) -> dict[str, KindFactory]:
    """Factories for the kinds that need the application's capabilities:

    * ``client`` (a :class:`~agent_hooks.ModelClient`): Docker Agent ``model`` and
      Claude Code ``prompt`` hooks;
    * ``agent`` (an :class:`~agent_hooks.AgentRunner`): Claude Code ``agent`` hooks;
    * ``mcp`` (an :class:`~agent_hooks.McpCaller`): Claude Code ``mcp_tool`` hooks.

    The table returned also holds every kind of :func:`default_kinds`, so it can be
    passed as it is: ``load(path, kinds=model_kinds(client, mcp=caller))``.
    """
    table: dict[str, KindFactory] = default_kinds()
    if client is not None:
        table["model"] = _llm_factory("model", client=client)
        table["prompt"] = _llm_factory("prompt", client=client)
    if agent is not None:
        table["agent"] = _llm_factory("agent", agent=agent)
    if mcp is not None:
        table["mcp_tool"] = _mcp_factory(mcp)
    return table


_LLM_DEFAULT_TIMEOUT = {"prompt": 30.0, "agent": 60.0, "model": 60.0}


def _llm_factory(kind: str, *, client: Any = None, agent: Any = None) -> KindFactory:
    def factory(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
        from ._llm import ModelHook

        label = _entry_name(kind, entry)
        prompt = entry.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            ctx.report(
                DiagnosticCode.INVALID_HANDLER,
                f"{kind} handler needs 'prompt'; dropped",
                severity=Severity.ERROR,
            )
            return None
        schema = entry.get("schema")
        common = _common(entry, ctx, label)
        if common["timeout"] is None:
            common["timeout"] = _LLM_DEFAULT_TIMEOUT[kind]
        model = entry.get("model")
        return _build(
            kind,
            entry,
            ctx,
            lambda: ModelHook(
                prompt=prompt,
                client=client,
                agent=agent,
                model=model if isinstance(model, str) else None,
                schema=schema if isinstance(schema, str) else None,
                kind=kind,
                **common,
            ),
        )

    return factory


def _mcp_factory(caller: Any) -> KindFactory:
    def factory(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
        from ._mcp import McpToolHook

        label = _entry_name("mcp_tool", entry)
        server, tool, args = entry.get("server"), entry.get("tool"), entry.get("input", {})
        if not isinstance(server, str) or not isinstance(tool, str):
            ctx.report(
                DiagnosticCode.INVALID_HANDLER,
                "mcp_tool handler needs 'server' and 'tool'; dropped",
                severity=Severity.ERROR,
            )
            return None
        if not isinstance(args, Mapping):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG, "'input' must be an object; ignored", handler=label
            )
            args = {}
        common = _common(entry, ctx, label)
        must_answer = _on_failure(entry, ctx, label, "mcp_tool", False)
        if must_answer:
            common["on_error"] = "block"
        return _build(
            "mcp_tool",
            entry,
            ctx,
            lambda: McpToolHook(
                server=server,
                tool=tool,
                caller=caller,
                input=dict(args),
                answer_must_be_valid=must_answer,
                **common,
            ),
        )

    return factory
