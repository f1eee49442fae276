"""Dialects: the harness flavour a handler or configuration was written for.

A dialect fixes the wire format (``claude``: PascalCase event names, camelCase
output keys; ``docker``: snake_case for both) and the handful of places where
the harnesses behave differently. Every such difference is a field here, so
code elsewhere asks the dialect instead of testing its name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import attrs

from .._events._names import HookEvent
from ._cline import CLINE_WIRE
from ._family import AUGMENT_WIRE, FACTORY_WIRE, GOOSE_WIRE, QWEN_WIRE, claude_family_wire
from ._kiro import KIRO_WIRE
from ._native import AnswerKeys, NativeEvent, NativeWire
from ._windsurf import WINDSURF_WIRE

__all__ = [
    "AUGMENT",
    "CLAUDE",
    "CLINE",
    "CODEBUDDY",
    "CODEX",
    "COPILOT",
    "COPILOT_CLAUDE_FORM",
    "CRUSH",
    "CURSOR",
    "ANTIGRAVITY",
    "DEEPAGENTS",
    "DEVIN",
    "DIALECTS",
    "DOCKER",
    "FACTORY",
    "GEMINI",
    "GOOSE",
    "HEL",
    "HERMES",
    "KIMI",
    "KIRO",
    "OPENHANDS",
    "QODER",
    "QWEN",
    "TRAE",
    "VIBE",
    "WINDSURF",
    "TOOL_MATCHER_ALIASES",
    "Dialect",
    "WireFormat",
    "get_dialect",
]

WireFormat = Literal["claude", "docker"]


@attrs.frozen(kw_only=True)
class Dialect:
    """How one harness reads hooks. Compare dialects by identity or ``name``."""

    name: str
    """The harness's name (``claude``, ``codex``, ``cursor`` ...): its key in
    :data:`DIALECTS`, the one table of every dialect, and what :func:`get_dialect`
    accepts."""
    wire: WireFormat
    """Wire format of payloads and answers."""
    anchored_matchers: bool = False
    """Regex matchers match the whole name (``^(?:m)$``, Docker Agent) instead of searching."""
    reject_matcher_without_field: bool = False
    """A matcher on an event that has no matcher field drops its group (Deep Agents Code)
    instead of being ignored (Claude Code)."""
    exit2_reads_stdout: bool = True
    """On exit 2, valid JSON on stdout still counts (current Claude Code); otherwise only
    stderr is read (Deep Agents Code, Docker Agent)."""
    nonzero_json_decides: bool = True
    """On an exit status other than 0 and 2, a valid JSON object on stdout decides alone
    (current Claude Code)."""
    nonzero_json_blocks_only: bool = False
    """With :attr:`nonzero_json_decides`: on such a status only a JSON answer that blocks
    counts; any other is no decision and the exit status is a failure (Goose: a printed
    ``{"decision": "allow"}`` with a non-zero exit decides nothing, a printed block
    still blocks)."""
    default_timeout: float | None = None
    """The dialect's own default timeout in seconds; ``None`` uses the capability table."""
    min_timeout: float = 0.0
    """Smallest timeout a configuration may ask for (Codex: 1 s)."""
    exit2_ignored: frozenset[HookEvent] = frozenset()
    """Events on which exit code 2 is not honoured (Claude Code: PermissionRequest, where
    only the ``decision`` object grants or denies): the hook's JSON still counts, its stderr
    is discarded, and a diagnostic says so. Elsewhere exit 2 has the table's meaning."""
    failure_blocks: frozenset[HookEvent] = frozenset()
    """Events on which any handler failure blocks, whatever its JSON or failure policy says
    (Claude Code: a WorktreeCreate hook that exits non-zero, times out or cannot start
    fails the creation)."""
    output_cap: int | None = None
    """Longest message string (``additionalContext``, ``systemMessage``, reasons, plain
    stdout used as context) a handler's answer may carry, in characters; a longer one is
    saved to a file of the session and replaced by a preview and the file's path
    (Claude Code: 10,000). ``None``: no limit."""
    tool_matcher_aliases: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict, eq=False)
    """Tool names this harness sends that matchers may also select by other names; the
    payload keeps the real name (Codex: ``apply_patch`` is matched by ``Write`` and
    ``Edit`` matchers). Every source's matchers see the aliases of every dialect
    (:data:`TOOL_MATCHER_ALIASES`), so that one Claude-style file guards both harnesses."""
    aliases: tuple[str, ...] = ()
    """Other names :func:`get_dialect` accepts (``github-copilot``, ``gemini-cli``)."""
    native: NativeWire | None = None
    """The harness's own wire format, when it is not the canonical one
    (:mod:`._translate` reads it); its tool names are matcher aliases both ways."""
    native_event: str | None = None
    """For a handler configured under one native event (Cursor's
    ``beforeShellExecution``): the event its payload is written as. ``None``: the
    native row's default for the canonical event."""
    timeout_unit: float = 1.0
    """Seconds per unit of a configured ``timeout`` (Gemini CLI: milliseconds, 0.001)."""
    nonzero_exit_blocks: frozenset[HookEvent] = frozenset()
    """Events on which a command hook's exit status other than 0 and 2 (a crash) blocks,
    though a timeout still fails open (Copilot: ``preToolUse``, "hook errored")."""
    text_exit_blocks_from: int | None = None
    """An exit status at or above this with non-JSON text on stdout or stderr blocks,
    the text as the reason (Gemini CLI 0.61: 3, observed; its docs say it warns)."""
    loop_cap: int | None = None
    """Automatic continuations the harness allows in a row (Copilot's 8 ``agentStop``
    blocks; Cursor's default ``loop_limit``, 5); ``None``: not the harness's concern."""
    max_timeouts: Mapping[HookEvent, float] = attrs.field(factory=dict, eq=False)
    """Events whose hooks the harness gives at most this many seconds, whatever their
    ``timeout`` says (Codex 0.171: SessionEnd and Interrupt, 3 s): a longer configured
    timeout is clamped with a warning, the default is clamped silently."""
    skipped_kinds: Mapping[str, str] = attrs.field(factory=dict, eq=False)
    """Handler types the harness parses but never runs, with why (Codex: ``prompt`` and
    ``agent``): such an entry is a disabled node with a warning, whatever kind table the
    application passes."""
    kinds_skipped_on: Mapping[str, frozenset[HookEvent]] = attrs.field(factory=dict, eq=False)
    """Handler types the harness skips, with a warning, on some events (Codex:
    ``mcp_tool`` on SessionEnd)."""
    exit2_text_first: bool = False
    """On exit 2, plain text on stdout (not a JSON answer) is the reason, stderr only when
    stdout is empty (CodeBuddy Code)."""
    halt_exit: int | None = None
    """An exit status that ends the agent's turn, stronger than a block (Crush: 49): read
    as a block with ``continue: false``, stderr the reason."""
    on_failure: bool = False
    """Hook entries may carry Claude Code's ``onFailure`` (2.1.295 and later): ``block``
    makes a failure of the ``command``, ``http`` or ``mcp_tool`` hook block, as exit 2
    would (Claude Code and the harnesses that read its file format); elsewhere the key
    is unknown."""


CLAUDE = Dialect(
    name="claude",
    wire="claude",
    exit2_ignored=frozenset({HookEvent.PERMISSION_REQUEST}),
    failure_blocks=frozenset({HookEvent.WORKTREE_CREATE}),
    output_cap=10_000,
    on_failure=True,
)
"""Claude Code and the Claude Agent SDK (the default)."""
DEEPAGENTS = Dialect(
    name="deepagents",
    wire="claude",
    reject_matcher_without_field=True,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
)
"""Deep Agents Code (``dcode``)."""
CODEX = Dialect(
    name="codex",
    wire="claude",
    min_timeout=1.0,
    tool_matcher_aliases={"apply_patch": ("Write", "Edit")},
    max_timeouts={HookEvent.SESSION_END: 3.0, HookEvent.INTERRUPT: 3.0},
    skipped_kinds={
        "prompt": "Codex parses prompt hooks but does not run them (0.171.0: \"prompt hooks "
        'are not supported yet")',
        "agent": "Codex parses agent hooks but does not run them (0.171.0: \"agent hooks "
        'are not supported yet")',
    },
    kinds_skipped_on={"mcp_tool": frozenset({HookEvent.SESSION_END})},
)
"""OpenAI Codex (0.171.0: SessionEnd and Interrupt hooks get at most 3 s; ``prompt`` and
``agent`` handlers are parsed and skipped; ``mcp_tool`` is skipped on SessionEnd)."""
DOCKER = Dialect(
    name="docker",
    wire="docker",
    anchored_matchers=True,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
    default_timeout=60.0,
)
"""Docker Agent (formerly cagent)."""
HEL = Dialect(name="hel", wire="claude", exit2_reads_stdout=False, nonzero_json_decides=False)
"""The small coding harness of seed 001 (``.hel/hooks.json``)."""


def _as_aliases(wire: NativeWire) -> Mapping[str, tuple[str, ...]]:
    """A native wire's tool names as matcher aliases both ways: the native name is also
    its canonical name (``run_shell_command`` -> ``Bash``), and the canonical name is
    also every native name of it (``Bash`` -> ``run_shell_command``), so a harness's own
    matchers keep matching its own names when a payload carries the canonical one."""
    aliases: dict[str, dict[str, None]] = {}
    for native, canonical in wire.tool_names.items():
        if native != canonical:
            aliases.setdefault(native, {})[canonical] = None
            aliases.setdefault(canonical, {})[native] = None
    return {name: tuple(names) for name, names in aliases.items()}


# ------------------------------------------------------------------ harness-native wires

_EVERY_VERDICT = {"allow": "allow", "deny": "deny", "ask": "ask", "block": "deny"}
"""Every canonical verdict written as itself, ``block`` as ``deny``."""

_GEMINI_ANSWER = AnswerKeys(
    decision="decision",
    decision_values={"block": "deny"},
    reasons=("reason",),
    continue_key="continue",
    stop_reason="stopReason",
    system_message="systemMessage",
)
"""The keys most Gemini CLI answers share (its rows below state what differs)."""
_GEMINI_CONTEXT = attrs.evolve(_GEMINI_ANSWER, context="hookSpecificOutput.additionalContext")


_GEMINI_WIRE = NativeWire(
    events=(
        NativeEvent(name="SessionStart", event="SessionStart", answer="context"),
        NativeEvent(name="SessionEnd", event="SessionEnd"),
        NativeEvent(name="BeforeAgent", event="UserPromptSubmit", answer="prompt"),
        NativeEvent(
            name="AfterAgent",
            event="Stop",
            renames={"prompt_response": "last_assistant_message"},
            answer="continue",
        ),
        NativeEvent(name="BeforeModel", event="BeforeLLMCall", answer="model"),
        NativeEvent(name="AfterModel", event="AfterModelChunk", answer="model"),
        NativeEvent(name="BeforeToolSelection", event="BeforeToolSelection", answer="tools"),
        NativeEvent(name="BeforeTool", event="PreToolUse", answer="permission"),
        NativeEvent(name="AfterTool", event="PostToolUse", answer="post"),
        NativeEvent(name="PreCompress", event="PreCompact"),
        NativeEvent(name="Notification", event="Notification"),
    ),
    tool_names={
        "run_shell_command": "Bash",
        "write_file": "Write",
        "replace": "Edit",
        "read_file": "Read",
        "read_many_files": "Read",
        "glob": "Glob",
        "grep": "Grep",
        "search_file_content": "Grep",
        "list_directory": "LS",
        "ls": "LS",
        "web_fetch": "WebFetch",
        "google_web_search": "WebSearch",
        "write_todos": "TodoWrite",
    },
    tool_input_keys={"read_file": {"absolute_path": "file_path"}},
    env={
        "GEMINI_PROJECT_DIR": "project_dir",
        "GEMINI_CWD": "cwd",
        "GEMINI_SESSION_ID": "session_id",
    },
    specific_key="hookSpecificOutput",
    answers={
        "permission": attrs.evolve(
            _GEMINI_ANSWER,
            decision_values=_EVERY_VERDICT,
            nearest={"defer": "ask"},
            updated_input="hookSpecificOutput.tool_input",
        ),
        "continue": attrs.evolve(_GEMINI_ANSWER, context_keeps_going=True),
        "prompt": _GEMINI_CONTEXT,
        "post": _GEMINI_CONTEXT,
        "model": attrs.evolve(
            _GEMINI_ANSWER,
            fields={
                "llm_request": "hookSpecificOutput.llm_request",
                "llm_response": "hookSpecificOutput.llm_response",
            },
        ),
        "tools": AnswerKeys(fields={"tool_config": "hookSpecificOutput.toolConfig"}),
        "context": AnswerKeys(
            context="hookSpecificOutput.additionalContext", system_message="systemMessage"
        ),
        "none": AnswerKeys(system_message="systemMessage"),
    },
)

_CURSOR_VERDICT = AnswerKeys(
    decision="permission",
    decision_values={"allow": "allow", "deny": "deny", "block": "deny"},
    nearest={"ask": "deny", "defer": "deny"},
    reasons=("user_message", "agent_message"),
)
"""Cursor's ``permission`` answers (it does not enforce ``ask``; rows below state what
differs)."""

_CURSOR_WIRE = NativeWire(
    open_events=True,  # "over twenty" events, more than listed; unknown keys ignored silently
    events=(
        NativeEvent(name="sessionStart", event="SessionStart", answer="context"),
        NativeEvent(name="sessionEnd", event="SessionEnd"),
        NativeEvent(name="preToolUse", event="PreToolUse", answer="permission"),
        NativeEvent(
            name="postToolUse",
            event="PostToolUse",
            renames={"tool_output": "tool_response"},
            answer="post",
        ),
        NativeEvent(
            name="postToolUseFailure",
            event="PostToolUseFailure",
            renames={"error_message": "error"},
        ),
        NativeEvent(
            name="subagentStart",
            event="SubagentStart",
            renames={"subagent_type": "agent_type", "subagent_id": "agent_id"},
            matcher_field="agent_type",
        ),
        NativeEvent(
            name="subagentStop",
            event="SubagentStop",
            renames={"subagent_type": "agent_type", "subagent_id": "agent_id"},
            answer="continue",
        ),
        NativeEvent(
            name="beforeShellExecution",
            event="PreToolUse",
            tool="Bash",
            lift=("command",),
            answer="shell",
            matcher_field="command",
        ),
        NativeEvent(
            name="afterShellExecution",
            event="PostToolUse",
            tool="Bash",
            lift=("command",),
            renames={"output": "tool_response"},
            matcher_field="command",
        ),
        NativeEvent(name="beforeMCPExecution", event="PreToolUse", answer="shell"),
        NativeEvent(
            name="afterMCPExecution", event="PostToolUse", renames={"result_json": "tool_response"}
        ),
        NativeEvent(
            name="beforeReadFile",
            matcher_value="Read",
            event="PreToolUse",
            tool="Read",
            lift=("file_path", "content", "attachments"),
            answer="read",
        ),
        NativeEvent(
            name="afterFileEdit",
            matcher_value="Write",
            event="PostToolUse",
            tool="Edit",
            lift=("file_path", "edits"),
        ),
        NativeEvent(
            name="beforeSubmitPrompt",
            matcher_value="UserPromptSubmit",
            event="UserPromptSubmit",
            answer="prompt",
        ),
        NativeEvent(name="preCompact", event="PreCompact"),
        NativeEvent(name="stop", matcher_value="Stop", event="Stop", answer="continue"),
        NativeEvent(
            name="afterAgentResponse",
            matcher_value="AgentResponse",
            event="AfterLLMCall",
            renames={"text": "stop_response"},
        ),
        NativeEvent(
            name="afterAgentThought", matcher_value="AgentThought", event="AfterAgentThought"
        ),
        NativeEvent(
            name="beforeTabFileRead",
            matcher_value="TabRead",
            event="PreToolUse",
            tool="TabRead",
            lift=("file_path", "content"),
            answer="read",
        ),
        NativeEvent(
            name="afterTabFileEdit",
            matcher_value="TabWrite",
            event="PostToolUse",
            tool="TabWrite",
            lift=("file_path", "edits"),
        ),
        NativeEvent(name="workspaceOpen", event="WorkspaceOpen", answer="workspace"),
    ),
    markers=frozenset({"conversation_id", "generation_id", "cursor_version", "workspace_roots"}),
    fallbacks={"session_id": "conversation_id", "cwd": "workspace_roots"},
    json_string_keys=frozenset({"tool_input"}),
    tool_names={"Shell": "Bash"},
    env={"CURSOR_PROJECT_DIR": "project_dir"},
    loop_count_key="loop_count",
    answers={
        "permission": attrs.evolve(_CURSOR_VERDICT, updated_input="updated_input"),
        "shell": attrs.evolve(
            _CURSOR_VERDICT, decision_values=_EVERY_VERDICT, nearest={"defer": "ask"}
        ),
        "read": attrs.evolve(_CURSOR_VERDICT, reasons=("user_message",)),
        "continue": AnswerKeys(followup="followup_message", context_keeps_going=True),
        "prompt": AnswerKeys(
            block_as_continue_false=True, reasons=("user_message",), continue_key="continue"
        ),
        "post": AnswerKeys(
            context="additional_context",
            block_as_context=True,
            updated_output="updated_mcp_tool_output",
        ),
        "context": AnswerKeys(context="additional_context"),
        "workspace": AnswerKeys(fields={"plugin_paths": "pluginPaths"}),
        "none": AnswerKeys(),
    },
)

_COPILOT_TOOL_INPUT = {
    "path": "file_path",
    "file_text": "content",
    "old_str": "old_string",
    "new_str": "new_string",
}

_COPILOT_PERMISSION = AnswerKeys(
    decision="permissionDecision",
    decision_values=_EVERY_VERDICT,
    reasons=("permissionDecisionReason",),
    updated_input="modifiedArgs",
)
"""Copilot's ``preToolUse`` answer (as its Claude-compatible form reads it)."""
_COPILOT_CONTINUE = AnswerKeys(
    decision="decision", decision_values={"block": "block"}, reasons=("reason",)
)
"""Copilot's ``agentStop`` / ``subagentStop`` answer (as its Claude-compatible form reads it)."""

_COPILOT_WIRE = NativeWire(
    events=(
        NativeEvent(name="sessionStart", event="SessionStart", answer="context"),
        NativeEvent(name="sessionEnd", event="SessionEnd"),
        NativeEvent(name="userPromptSubmitted", event="UserPromptSubmit", answer="prompt"),
        NativeEvent(
            name="userPromptTransformed", event="UserPromptTransformed", answer="transform"
        ),
        NativeEvent(name="preToolUse", event="PreToolUse", answer="permission"),
        NativeEvent(
            name="permissionRequest",
            event="PermissionRequest",
            renames={"toolInput": "tool_input"},
            answer="request",
        ),
        NativeEvent(name="postToolUse", event="PostToolUse", answer="post"),
        NativeEvent(name="postToolUseFailure", event="PostToolUseFailure", answer="post"),
        NativeEvent(name="agentStop", event="Stop", answer="continue"),
        NativeEvent(
            name="subagentStart",
            event="SubagentStart",
            renames={"agentName": "agent_type"},
            answer="context",
        ),
        NativeEvent(
            name="subagentStop",
            event="SubagentStop",
            renames={"response": "last_assistant_message"},
            answer="continue",
        ),
        NativeEvent(name="preCompact", event="PreCompact"),
        NativeEvent(name="errorOccurred", event="OnError"),
        NativeEvent(
            name="notification",
            event="Notification",
            payload_name="Notification",
            answer="context",
        ),
    ),
    event_key=None,
    alt_event_keys=("hookName",),
    markers=frozenset({"sessionId", "toolName", "toolArgs", "hookName", "transcriptPath"}),
    payload_keys={
        "sessionId": "session_id",
        "transcriptPath": "transcript_path",
        "toolName": "tool_name",
        "toolArgs": "tool_input",
        "toolResult": "tool_response",
        "stopReason": "stop_reason",
        "initialPrompt": "initial_prompt",
        "permissionSuggestions": "permission_suggestions",
        "agentId": "agent_id",
        "agentType": "agent_type",
        "agentDisplayName": "agent_display_name",
        "agentDescription": "agent_description",
        "customInstructions": "custom_instructions",
        "errorContext": "error_context",
        "transformedPrompt": "transformed_prompt",
        "hookName": "hook_name",
    },
    json_string_keys=frozenset({"tool_input"}),
    tool_names={
        "bash": "Bash",
        "powershell": "PowerShell",
        "view": "Read",
        "create": "Write",
        "edit": "Edit",
        "str_replace_editor": "Edit",
        "glob": "Glob",
        "grep": "Grep",
        "rg": "Grep",
        "task": "Task",
        "web_fetch": "WebFetch",
        "web_search": "WebSearch",
        "update_todo": "TodoWrite",
    },
    tool_input_keys={
        "view": _COPILOT_TOOL_INPUT,
        "create": _COPILOT_TOOL_INPUT,
        "edit": _COPILOT_TOOL_INPUT,
        "str_replace_editor": _COPILOT_TOOL_INPUT,
    },
    env={"COPILOT_PROJECT_DIR": "project_dir"},
    nonblocking_exit=0,
    answers={
        "permission": attrs.evolve(_COPILOT_PERMISSION, nearest={"defer": "ask"}),
        "request": AnswerKeys(
            decision="behavior",
            decision_values={"allow": "allow", "deny": "deny", "block": "deny"},
            reasons=("message",),
            interrupt="interrupt",
        ),
        "continue": attrs.evolve(_COPILOT_CONTINUE, context_keeps_going=True),
        "prompt": AnswerKeys(),
        "transform": AnswerKeys(
            fields={"modified_transformed_prompt": "modifiedTransformedPrompt"}
        ),
        "post": AnswerKeys(
            context="additionalContext",
            block_as_context=True,
            updated_output="modifiedResult.textResultForLlm",
            updated_output_with={"modifiedResult.resultType": "success"},
        ),
        "context": AnswerKeys(context="additionalContext"),
        "none": AnswerKeys(),
    },
)

GEMINI = Dialect(
    name="gemini",
    wire="claude",
    aliases=("gemini-cli",),
    native=_GEMINI_WIRE,
    default_timeout=60.0,
    timeout_unit=0.001,
    text_exit_blocks_from=3,
    tool_matcher_aliases=_as_aliases(_GEMINI_WIRE),
)
"""Gemini CLI (``settings.json`` ``hooks``; ``BeforeTool``, milliseconds, exit 3+ with
text blocks as observed in 0.61.0)."""
CURSOR = Dialect(
    name="cursor",
    wire="claude",
    native=_CURSOR_WIRE,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
    default_timeout=30.0,
    loop_cap=5,
    tool_matcher_aliases=_as_aliases(_CURSOR_WIRE),
)
"""Cursor (``.cursor/hooks.json``, ``version: 1``, flat snake_case answers)."""
COPILOT = Dialect(
    name="copilot",
    wire="claude",
    aliases=("github-copilot", "copilot-cli"),
    native=_COPILOT_WIRE,
    anchored_matchers=True,
    nonzero_json_decides=False,
    default_timeout=30.0,
    exit2_ignored=frozenset(HookEvent)
    - {HookEvent.PRE_TOOL_USE, HookEvent.PERMISSION_REQUEST, HookEvent.POST_TOOL_USE_FAILURE},
    nonzero_exit_blocks=frozenset({HookEvent.PRE_TOOL_USE}),
    loop_cap=8,
    tool_matcher_aliases=_as_aliases(_COPILOT_WIRE),
)
"""GitHub Copilot CLI and cloud agent (``.github/hooks/*.json``, camelCase events and
payloads; its PascalCase, Claude-compatible form is read as the claude dialect)."""

_COPILOT_CLAUDE_WIRE = NativeWire(
    events=(
        NativeEvent(name="PreToolUse", event="PreToolUse", answer="permission"),
        NativeEvent(name="Stop", event="Stop", answer="continue"),
        NativeEvent(name="SubagentStop", event="SubagentStop", answer="continue"),
    ),
    specific_key="hookSpecificOutput",
    answers={"permission": _COPILOT_PERMISSION, "continue": _COPILOT_CONTINUE},
)

COPILOT_CLAUDE_FORM = attrs.evolve(
    COPILOT, native=_COPILOT_CLAUDE_WIRE, tool_matcher_aliases=_as_aliases(_COPILOT_WIRE)
)
"""Copilot's PascalCase entries: Claude-shaped payloads (the canonical ones), and answers
read in either shape Copilot accepts there: Claude's ``hookSpecificOutput`` or its own
flat ``permissionDecision`` / ``modifiedArgs``."""

# ------------------------------------------------------- the Claude-compatible family
# (rows of data: wires in :mod:`._family`; see docs/bridges.md for what each supports)

FACTORY = Dialect(
    name="factory",
    wire="claude",
    aliases=("factory-droid", "droid"),
    native=FACTORY_WIRE,
    default_timeout=60.0,
    tool_matcher_aliases={**_as_aliases(FACTORY_WIRE), "ApplyPatch": ("Write", "Edit")},
    on_failure=True,
)
"""Factory Droid (``.factory/hooks.json``; Claude Code's protocol, ``Execute``/``Create``)."""
QWEN = Dialect(
    name="qwen",
    wire="claude",
    aliases=("qwen-code", "iflow"),
    native=QWEN_WIRE,
    exit2_reads_stdout=False,
    default_timeout=60.0,
    timeout_unit=0.001,
    tool_matcher_aliases=_as_aliases(QWEN_WIRE),
    on_failure=True,
)
"""Qwen Code (``.qwen/settings.json``; Claude Code's events, Qwen tool ids, milliseconds)."""
AUGMENT = Dialect(
    name="augment",
    wire="claude",
    aliases=("auggie", "augment-code"),
    native=AUGMENT_WIRE,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
    default_timeout=60.0,
    timeout_unit=0.001,
    tool_matcher_aliases=_as_aliases(AUGMENT_WIRE),
    on_failure=True,
)
"""Augment Code / Auggie (``.augment/settings.json``; milliseconds, kebab-case tools)."""
GOOSE = Dialect(
    name="goose",
    wire="claude",
    native=GOOSE_WIRE,
    default_timeout=30.0,
    tool_matcher_aliases=_as_aliases(GOOSE_WIRE),
    on_failure=True,
    nonzero_json_blocks_only=True,
)
"""Goose (plugin ``hooks/hooks.json``; ``event`` key, ``{"decision": "block"}``; with a
non-zero exit only a printed block counts)."""
OPENHANDS = Dialect(name="openhands", wire="claude", on_failure=True)
"""OpenHands (``.openhands/hooks.json``; Claude Code's protocol unchanged)."""
TRAE = Dialect(name="trae", wire="claude", default_timeout=30.0, on_failure=True)
"""Trae (``.trae/hooks.json``; Claude Code's protocol, ``version``, ``loop_limit``)."""
QODER = Dialect(name="qoder", wire="claude", on_failure=True)
"""Qoder (``.qoder/settings.json``; Claude Code's protocol unchanged)."""

# ------------------------------------------------------------------ CodeBuddy Code

_CODEBUDDY_COMMON = AnswerKeys(
    continue_key="continue", stop_reason="stopReason", system_message="systemMessage"
)
_CODEBUDDY_WIRE = claude_family_wire(
    (
        *("PreToolUse", "PostToolUse", "Notification", "UserPromptSubmit", "Stop"),
        *("SubagentStop", "PreCompact", "SessionStart", "SessionEnd", "WorktreeCreate"),
        *("WorktreeRemove", "PostToolUseFailure", "SubagentStart", "StopFailure"),
        *("PostCompact", "ConfigChange", "InstructionsLoaded", "PermissionRequest"),
        *("PermissionDenied", "Elicitation", "ElicitationResult", "TaskCreated"),
        *("TaskCompleted", "TeammateIdle", "Setup", "FileChanged", "CwdChanged", "FinalStop"),
    ),
    env={"CODEBUDDY_PROJECT_DIR": "project_dir"},
    answers={
        "permission": attrs.evolve(
            _CODEBUDDY_COMMON,
            decision="hookSpecificOutput.permissionDecision",
            decision_values=_EVERY_VERDICT,
            nearest={"defer": "ask"},
            reasons=("hookSpecificOutput.permissionDecisionReason",),
            updated_input="hookSpecificOutput.modifiedInput",
            context="hookSpecificOutput.additionalContext",
        ),
        "prompt": attrs.evolve(
            _CODEBUDDY_COMMON,
            decision="decision",
            decision_values={"block": "block"},
            reasons=("reason",),
            block_as_continue_false=True,
            context="hookSpecificOutput.additionalContext",
        ),
        "continue": attrs.evolve(
            _CODEBUDDY_COMMON,
            decision="decision",
            decision_values={"block": "block"},
            reasons=("reason",),
            block_as_continue_false=True,
            context_keeps_going=True,
        ),
    },
    answer_of={
        "PreToolUse": "permission",
        "UserPromptSubmit": "prompt",
        "Stop": "continue",
        "SubagentStop": "continue",
    },
    specific_key="hookSpecificOutput",
)
CODEBUDDY = Dialect(
    name="codebuddy",
    wire="claude",
    aliases=("codebuddy-code",),
    native=_CODEBUDDY_WIRE,
    default_timeout=60.0,
    exit2_text_first=True,
)
"""CodeBuddy Code (``.codebuddy/settings.json``; Claude Code's protocol, except: a
PreToolUse rewrite is ``modifiedInput`` (CodeBuddy merges it into the input; a full
replacement written there keeps the keys it leaves out), a UserPromptSubmit block is
``continue: false`` with a ``reason``, and on Stop and SubagentStop ``continue: false``
with a ``reason`` keeps the agent going (the inverse of Claude Code's): a block is
written so, and a canonical ``continue: false`` there is left out (the agent is stopping
anyway); a hook's ``continue: false`` there is read as the block it means. On exit 2
CodeBuddy reads the message from stdout first, so a hook's text there is its reason;
``run`` itself writes its JSON answer with exit status 0)."""

# ------------------------------------------------------------------ Kimi Code

_KIMI_DENY = AnswerKeys(
    decision="hookSpecificOutput.permissionDecision",
    decision_values={"deny": "deny", "block": "deny", "allow": "allow"},
    nearest={"ask": "deny"},
    reasons=("hookSpecificOutput.permissionDecisionReason",),
)
"""Kimi Code reads only ``permissionDecision: "deny"`` (and its reason), on its three
blocking events; ``ask`` is answered ``deny`` (it has none, and a guard must not fail
open), ``allow`` is written and ignored by Kimi."""


def _kimi(
    name: str,
    event: str = "",
    field: str | None = None,
    *,
    answer: str = "none",
    renames: Mapping[str, str] | None = None,
) -> NativeEvent:
    """A Kimi Code event: its canonical ``event`` (default: the same name; an unknown
    name is carried untyped) and the payload ``field`` its ``matcher`` is tested against
    (``None``: the empty string, as Kimi tests it)."""
    return NativeEvent(
        name=name,
        event=event or name,
        matcher_field=field,
        matcher_value=None if field else "",
        answer=answer,
        renames=dict(renames or {}),
    )


_KIMI_WIRE = NativeWire(
    events=(
        _kimi("PreToolUse", field="tool_name", answer="permission"),
        _kimi("PostToolUse", field="tool_name", renames={"tool_output": "tool_response"}),
        _kimi("PostToolUseFailure", field="tool_name"),
        _kimi("PermissionRequest", field="tool_name"),
        _kimi("PermissionResult", field="tool_name"),
        _kimi("UserPromptSubmit", field="prompt", answer="prompt"),
        _kimi("UserPromptQueued", field="prompt"),
        _kimi("TurnStarted", "TurnStart", field="origin_kind"),
        _kimi("Stop", answer="continue"),
        _kimi("StopFailure", field="error_type"),
        _kimi("Interrupt"),
        _kimi("SessionStart", field="source"),
        _kimi("SessionEnd", field="reason"),
        _kimi("SessionHeartbeat"),
        _kimi("SubagentStart", field="agent_type", renames={"agent_name": "agent_type"}),
        _kimi(
            "SubagentStop",
            field="agent_type",
            renames={"agent_name": "agent_type", "response": "last_assistant_message"},
        ),
        _kimi("TaskStarted", field="kind"),
        _kimi("PreCompact", field="trigger"),
        _kimi("PostCompact", field="trigger"),
        _kimi("Notification", field="type"),
    ),
    markers=frozenset({"client_type", "session_title"}),
    payload_keys={"tool_call_id": "tool_use_id"},
    specific_key="hookSpecificOutput",
    answers={
        "permission": _KIMI_DENY,
        "prompt": attrs.evolve(_KIMI_DENY, context="message"),
        "continue": attrs.evolve(_KIMI_DENY, context_keeps_going=True),
        "none": AnswerKeys(),
    },
)
KIMI = Dialect(
    name="kimi",
    wire="claude",
    aliases=("kimi-code", "kimi-cli"),
    native=_KIMI_WIRE,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
    default_timeout=30.0,
    exit2_ignored=frozenset(HookEvent)
    - {HookEvent.PRE_TOOL_USE, HookEvent.USER_PROMPT_SUBMIT, HookEvent.STOP},
)
"""Kimi Code 0.38 (``[[hooks]]`` in ``~/.kimi-code/config.toml``; Claude Code's event
names and payloads with ``tool_call_id``, ``tool_output``, ``session_title``,
``client_type``; a block is exit 2 with stderr, or ``hookSpecificOutput.permissionDecision:
"deny"``, on PreToolUse, UserPromptSubmit and Stop only; no rewrite, no ``ask``; a
``message`` is added context on UserPromptSubmit; everything else fails open)."""

# ------------------------------------------------------------------ Crush

_CRUSH_WIRE = NativeWire(
    events=(NativeEvent(name="PreToolUse", event="PreToolUse", answer="permission"),),
    event_key="event",
    tool_names={
        "bash": "Bash",
        "edit": "Edit",
        "multiedit": "MultiEdit",
        "write": "Write",
        "view": "Read",
        "ls": "LS",
        "grep": "Grep",
        "glob": "Glob",
        "fetch": "WebFetch",
        "agent": "Task",
    },
    env={
        "CRUSH_PROJECT_DIR": "project_dir",
        "CRUSH_CWD": "cwd",
        "CRUSH_SESSION_ID": "session_id",
    },
    answers={
        "permission": AnswerKeys(
            decision="decision",
            decision_values={"allow": "allow", "deny": "deny", "block": "deny"},
            nearest={"ask": "deny"},
            reasons=("reason",),
            updated_input="updated_input",
            context="context",
            halt_flag="halt",
        ),
    },
)
CRUSH = Dialect(
    name="crush",
    wire="claude",
    aliases=("charm-crush",),
    native=_CRUSH_WIRE,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
    default_timeout=30.0,
    halt_exit=49,
    tool_matcher_aliases=_as_aliases(_CRUSH_WIRE),
)
"""Crush 0.90 (``hooks`` in ``crush.json``; PreToolUse only, its payload's event under
``event``, lowercase tool names; its own envelope ``{decision, halt, reason, context,
updated_input}``, Claude's ``hookSpecificOutput`` read too; exit 2 blocks with stderr,
exit 49 ends the turn, anything else fails open). An ``ask`` is answered ``deny``
(silence would fall through to Crush's own permission flow, which ``--yolo`` skips)."""

# ------------------------------------------------------------------ Mistral Vibe

_VIBE_DENY = AnswerKeys(
    decision="decision",
    decision_values={"deny": "deny", "block": "deny"},
    reasons=("reason",),
    reason_required=True,
    system_message="system_message",
)
_VIBE_FILE = {"path": "file_path"}
_VIBE_WIRE = NativeWire(
    events=(
        NativeEvent(name="pre_tool", event="PreToolUse", answer="permission"),
        NativeEvent(
            name="post_tool",
            event="PostToolUse",
            renames={"tool_output": "tool_response"},
            answer="post",
        ),
        NativeEvent(name="post_agent", event="Stop", answer="continue", matcher_field="agent_name"),
    ),
    markers=frozenset({"parent_session_id"}),
    payload_keys={"tool_call_id": "tool_use_id"},
    tool_names={
        "bash": "Bash",
        "read_file": "Read",
        "write_file": "Write",
        "search_replace": "Edit",
        "grep": "Grep",
        "task": "Task",
    },
    tool_input_keys={"read_file": _VIBE_FILE, "write_file": _VIBE_FILE},
    specific_key="hook_specific_output",
    answers={
        "permission": attrs.evolve(
            _VIBE_DENY,
            decision_values={"allow": "allow", "deny": "deny", "block": "deny"},
            nearest={"ask": "deny"},
            updated_input="hook_specific_output.tool_input",
        ),
        "post": attrs.evolve(_VIBE_DENY, context="hook_specific_output.additional_context"),
        "continue": attrs.evolve(_VIBE_DENY, context_keeps_going=True),
    },
)
VIBE = Dialect(
    name="vibe",
    wire="claude",
    aliases=("mistral-vibe",),
    native=_VIBE_WIRE,
    anchored_matchers=True,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
    default_timeout=60.0,
    tool_matcher_aliases=_as_aliases(_VIBE_WIRE),
)
"""Mistral Vibe 3.0 (``[[hooks]]`` in ``.vibe/hooks.toml``; ``pre_tool``, ``post_tool``,
``post_agent``; ``{"decision": "deny", "reason": ...}`` (a reason always: a deny without
one is a failed hook to Vibe), ``hook_specific_output.tool_input`` (a full replacement),
``additional_context``, ``system_message``; any other exit status than 0, and text that
is not a JSON object, is a failure, which Vibe lets through unless the hook is
``strict``). An ``ask`` is answered ``deny``."""

WINDSURF = Dialect(
    name="windsurf",
    wire="claude",
    aliases=("cascade", "devin-desktop"),
    native=WINDSURF_WIRE,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
    default_timeout=60.0,
)
"""Windsurf Cascade hooks (``.windsurf/hooks.json``; exit status only)."""
CLINE = Dialect(
    name="cline",
    wire="claude",
    native=CLINE_WIRE,
    default_timeout=30.0,
    exit2_ignored=frozenset(HookEvent),
    tool_matcher_aliases=_as_aliases(CLINE_WIRE),
)
"""Cline (``.clinerules/hooks/<Event>`` executables; ``{"cancel": true}``; exit codes
never block: a hook's JSON decides whatever its exit status)."""
KIRO = Dialect(
    name="kiro",
    wire="claude",
    aliases=("kiro-cli", "amazon-q"),
    native=KIRO_WIRE,
    anchored_matchers=True,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
    default_timeout=30.0,
    timeout_unit=0.001,
    exit2_ignored=frozenset(HookEvent) - {HookEvent.PRE_TOOL_USE},
    tool_matcher_aliases=_as_aliases(KIRO_WIRE),
)
"""Kiro CLI 2.x (agent configuration ``hooks``; ``timeout_ms``; exit status only)."""

# ------------------------------------------------------------------------ Devin CLI
# (digest devin-cli.md, medium-low confidence). Claude Code's events and answer keys,
# Devin's lowercase tool names; PostCompaction is Claude's PostCompact (its `summary`
# the compaction summary). Unconfirmed, chosen: a PreToolUse / PermissionRequest verdict
# is written as the documented `{"decision": "block" | "approve", "reason"}` (its docs
# name exit 2 or `decision: block` as what blocks; whether `permissionDecision` is read
# is unconfirmed, so a deny is never written only there); `ask` is answered `block`, the
# nearest that cannot fail open; a rewritten input and added context go in Claude's
# `hookSpecificOutput` (claude-mem: "the same envelope Claude Code uses").

_DEVIN_VERDICT = AnswerKeys(
    decision="decision",
    decision_values={"allow": "approve", "deny": "block", "block": "block"},
    nearest={"ask": "block"},
    reasons=("reason",),
    updated_input="hookSpecificOutput.updatedInput",
    context="hookSpecificOutput.additionalContext",
    continue_key="continue",
    stop_reason="stopReason",
    system_message="systemMessage",
)
_DEVIN_FAMILY = claude_family_wire(
    (
        "PreToolUse",
        "PostToolUse",
        "PermissionRequest",
        "UserPromptSubmit",
        "Stop",
        "SessionStart",
        "SessionEnd",
    ),
    tool_names={
        "exec": "Bash",
        "read": "Read",
        "edit": "Edit",
        "grep": "Grep",
        "glob": "Glob",
    },
    env={"DEVIN_PROJECT_DIR": "project_dir"},
    answers={"permission": _DEVIN_VERDICT},
    answer_of={"PreToolUse": "permission", "PermissionRequest": "permission"},
    specific_key="hookSpecificOutput",
)
DEVIN_WIRE = attrs.evolve(
    _DEVIN_FAMILY,
    events=(
        *_DEVIN_FAMILY.events,
        NativeEvent(
            name="PostCompaction",
            event="PostCompact",
            renames={"summary": "compact_summary"},
            answer="passthrough",
        ),
    ),
)
DEVIN = Dialect(
    name="devin",
    wire="claude",
    aliases=("devin-cli",),
    native=DEVIN_WIRE,
    tool_matcher_aliases=_as_aliases(DEVIN_WIRE),
)
"""Devin CLI (``.devin/hooks.v1.json``, ``hooks`` in ``.devin/config(.local).json`` and
``~/.config/devin/config.json``; Claude Code's protocol, lowercase tools ``exec``,
``read``, ``edit``; exit 2 or ``decision: block`` blocks, other exits fail open)."""

# ------------------------------------------------------------------ Antigravity CLI
# (digest antigravity-cli.md, low confidence; the choices are in docs/harnesses.md).
# camelCase payloads without an event name (the entry names it: --event), the tool call
# in `toolCall{name, args}` with PascalCase arguments; answers are protobuf-checked, so
# only the documented keys are written: PreToolUse `decision` (mandatory: a missing one
# fails closed, so "no verdict" is written `allow`, which does not skip agy's own
# review), `reason`, `overwrite`; Stop `{"decision": "continue"}` keeps the loop going.
# PreInvocation (before every model call) is BeforeLLMCall; PostInvocation (after a
# tool-calling round) has no typed event and is carried as itself.

_ANTIGRAVITY_TOOL_EVENT = {"name": "tool_name", "args": "tool_input"}
ANTIGRAVITY_WIRE = NativeWire(
    events=(
        NativeEvent(
            name="PreToolUse",
            event="PreToolUse",
            renames=_ANTIGRAVITY_TOOL_EVENT,
            nested_keys=("name", "args"),
            answer="permission",
        ),
        NativeEvent(
            name="PostToolUse",
            event="PostToolUse",
            renames=_ANTIGRAVITY_TOOL_EVENT,
            nested_keys=("name", "args"),
        ),
        NativeEvent(name="PreInvocation", event="BeforeLLMCall"),
        NativeEvent(name="PostInvocation", event="PostInvocation"),
        NativeEvent(name="Stop", event="Stop", answer="continue"),
    ),
    event_key=None,
    markers=frozenset({"conversationId", "workspacePaths", "artifactDirectoryPath", "toolCall"}),
    payload_keys={"conversationId": "session_id", "transcriptPath": "transcript_path"},
    fallbacks={"cwd": "workspacePaths"},
    nested="toolCall",
    tool_names={
        "run_command": "Bash",
        "view_file": "Read",
        "write_to_file": "Write",
        "replace_file_content": "Edit",
        "multi_replace_file_content": "MultiEdit",
        "list_dir": "LS",
        "find_by_name": "Glob",
        "grep_search": "Grep",
    },
    tool_input_keys={"run_command": {"CommandLine": "command"}},
    answers={
        "permission": AnswerKeys(
            decision="decision",
            decision_values=_EVERY_VERDICT,
            nearest={"defer": "ask"},
            reasons=("reason",),
            updated_input="overwrite",
            default_decision="allow",
        ),
        "continue": AnswerKeys(
            decision="decision",
            decision_values={"block": "continue", "deny": "continue"},
            reasons=("reason",),
            context_keeps_going=True,
        ),
        "none": AnswerKeys(),
    },
)
ANTIGRAVITY = Dialect(
    name="antigravity",
    wire="claude",
    aliases=("agy", "antigravity-cli"),
    native=ANTIGRAVITY_WIRE,
    default_timeout=30.0,
    tool_matcher_aliases=_as_aliases(ANTIGRAVITY_WIRE),
)
"""Antigravity CLI (``agy``; ``hooks.json`` keyed by hook name; ``{"decision":
"allow" | "deny" | "ask" | "force_ask"}``, failing closed without one)."""

# -------------------------------------------------------------------- Hermes Agent
# (digest hermes-agent.md, medium-high confidence for shell hooks). Snake_case plugin
# events; only pre_tool_call can block: exit 2, or `{"action": "block", "message"}`
# (Hermes' own spelling; `approve` there escalates to the human approval gate, which is
# the canonical `ask`). Claude's `decision: approve` is not read by Hermes, so an allow
# is not written (the call goes ahead anyway). Chosen: pre_llm_call (once per turn,
# before the loop, adds context) is UserPromptSubmit; a rewrite (`action: modify`) is
# not written: its action and args would need two keys the answer row cannot pair.

_HERMES_EVENTS = (
    ("pre_tool_call", "PreToolUse", "permission"),
    ("post_tool_call", "PostToolUse", "none"),
    ("pre_llm_call", "UserPromptSubmit", "context"),
    ("on_session_start", "SessionStart", "none"),
    ("on_session_end", "SessionEnd", "none"),
    ("subagent_start", "SubagentStart", "none"),
    ("subagent_stop", "SubagentStop", "none"),
    *(
        (name, name, "none")
        for name in (
            "post_llm_call",
            "pre_verify",
            "on_session_finalize",
            "on_session_reset",
            "pre_approval_request",
            "post_approval_response",
            "transform_tool_result",
            "transform_terminal_output",
            "transform_llm_output",
            "pre_api_request",
            "post_api_request",
            "api_request_error",
            "pre_auxiliary_call",
            "post_auxiliary_call",
            "pre_gateway_dispatch",
        )
    ),
)
HERMES_WIRE = NativeWire(
    events=tuple(NativeEvent(name=n, event=e, answer=a) for n, e, a in _HERMES_EVENTS),
    tool_names={
        "terminal": "Bash",
        "write_file": "Write",
        "patch": "Edit",
        "read_file": "Read",
        "delegate_task": "Task",
    },
    answers={
        "permission": AnswerKeys(
            decision="action",
            decision_values={"deny": "block", "block": "block", "ask": "approve"},
            reasons=("message",),
        ),
        "context": AnswerKeys(context="context"),
        "none": AnswerKeys(),
    },
)
HERMES = Dialect(
    name="hermes",
    wire="claude",
    aliases=("hermes-agent",),
    native=HERMES_WIRE,
    default_timeout=60.0,
    exit2_ignored=frozenset(HookEvent) - {HookEvent.PRE_TOOL_USE},
    tool_matcher_aliases=_as_aliases(HERMES_WIRE),
)
"""Hermes Agent (``hooks:`` in ``~/.hermes/config.yaml``; ``pre_tool_call`` blocks on
exit 2 or ``{"action": "block"}``; ``fail_closed`` per entry)."""

DIALECTS = {
    d.name: d
    for d in (
        CLAUDE,
        DEEPAGENTS,
        CODEX,
        DOCKER,
        HEL,
        GEMINI,
        CURSOR,
        COPILOT,
        FACTORY,
        QWEN,
        AUGMENT,
        GOOSE,
        OPENHANDS,
        TRAE,
        QODER,
        CODEBUDDY,
        KIMI,
        CRUSH,
        VIBE,
        WINDSURF,
        CLINE,
        KIRO,
        DEVIN,
        ANTIGRAVITY,
        HERMES,
    )
}


def _matcher_aliases() -> Mapping[str, tuple[str, ...]]:
    merged: dict[str, dict[str, None]] = {}
    for d in DIALECTS.values():
        for tool, names in d.tool_matcher_aliases.items():
            merged.setdefault(tool, {}).update(dict.fromkeys(names))
    return {tool: tuple(names) for tool, names in merged.items()}


TOOL_MATCHER_ALIASES: Mapping[str, tuple[str, ...]] = _matcher_aliases()
"""Tool name -> the other names a matcher may select it by: every dialect's
``tool_matcher_aliases``, merged (a payload does not say which harness sent it)."""


_BY_ALIAS = {alias: d for d in DIALECTS.values() for alias in d.aliases}


def get_dialect(dialect: Dialect | str) -> Dialect:
    """Return a :class:`Dialect` by value or name (``"claude"``, ``"docker"``, ...).

    Raises:
        ValueError: the name is not a known dialect.
    """
    if isinstance(dialect, Dialect):
        return dialect
    try:
        return DIALECTS[dialect] if dialect in DIALECTS else _BY_ALIAS[dialect]
    except KeyError:
        known = ", ".join(sorted(DIALECTS))
        raise ValueError(f"unknown dialect {dialect!r}; known dialects: {known}") from None
