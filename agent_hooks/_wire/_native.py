"""Row types of the harness-native wire formats (GitHub Copilot, Cursor, Gemini CLI).

These harnesses speak their own JSON: other event names (``BeforeTool``,
``beforeShellExecution``, ``agentStop``), other payload keys (``toolArgs``,
``conversation_id``), other tool names (``run_shell_command``, ``Shell``, ``bash``) and
other answer keys (``permission``, ``followup_message``, ``modifiedArgs``). A
:class:`NativeWire` row says all of that as data; :mod:`._translate` reads it to turn a
native payload into the canonical (Claude-shaped) one and a canonical answer into the
native one, both ways. Nothing here tests a harness's name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

__all__ = ["AnswerKeys", "NativeEvent", "NativeWire"]

_IDENTIFIER = re.compile(r"[a-z][A-Za-z0-9]{0,63}")
"""A name an open wire's unknown event may have (Cursor's camelCase: ``afterTabAccept``)."""


@attrs.frozen(kw_only=True)
class AnswerKeys:
    """How one kind of answer is spelled by a harness. A key that is ``None`` cannot be
    expressed: a canonical answer that sets it is mapped to the nearest documented
    behaviour (or left out) with a ``not_expressible`` diagnostic."""

    decision: str | None = None
    """Key of the verdict (``permission``, ``decision``, ``permissionDecision``,
    ``behavior``); ``None``: the event takes none."""
    decision_values: Mapping[str, str | None] = attrs.field(factory=dict)
    """Canonical verdict (``allow``, ``deny``, ``ask``, ``defer``, ``block``) -> the native
    value; a verdict that is missing or ``None`` here is not expressible."""
    nearest: Mapping[str, str] = attrs.field(factory=dict)
    """Canonical verdicts the harness cannot express -> the nearest native value it
    documents (Cursor's ``preToolUse`` does not enforce ``ask``: ``deny``), written with
    a ``not_expressible`` diagnostic."""
    reasons: tuple[str, ...] = ()
    """Keys that carry the reason (Cursor: ``user_message`` and ``agent_message``)."""
    updated_input: str | None = None
    """Key of a rewritten tool input (``updated_input``, ``modifiedArgs``,
    ``hookSpecificOutput.tool_input``); dotted: inside that object."""
    updated_output: str | None = None
    """Key of a replaced tool result (``updated_tool_output`` or
    ``updated_mcp_tool_output``); dotted: inside that object (Copilot:
    ``modifiedResult.textResultForLlm``)."""
    updated_output_with: Mapping[str, Any] = attrs.field(factory=dict)
    """Fixed (dotted) keys written with a replaced result (Copilot:
    ``modifiedResult.resultType: "success"``)."""
    context: str | None = None
    """Key of added context (``additional_context``, ``hookSpecificOutput.additionalContext``)."""
    continue_key: str | None = None
    """Key of ``continue`` (``false`` stops the agent), where the harness reads one."""
    stop_reason: str | None = None
    """Key of ``stopReason``."""
    system_message: str | None = None
    """Key of a message for the user (``systemMessage``)."""
    followup: str | None = None
    """Key a block's reason goes to as the next instruction (Cursor's ``followup_message``)."""
    interrupt: str | None = None
    """Key of a deny's ``interrupt`` flag (Copilot's ``permissionRequest``)."""
    context_keeps_going: bool = False
    """Added context without a block keeps the agent going with it as the reason (Claude
    Code's Stop ``additionalContext``), on continue-loop events that take no context."""
    block_as_continue_false: bool = False
    """A block is written ``continue: false`` plus the reason (Cursor's beforeSubmitPrompt)."""
    block_as_context: bool = False
    """A block's reason is written as added context (no native block; the nearest)."""
    reason_required: bool = False
    """A deny must carry a reason (the harness takes a deny without one for a failed
    hook, and lets the action through): one is written when the answer has none."""
    halt_flag: str | None = None
    """Key of a flag that, ``true``, ends the agent's turn: ``continue: false`` the other
    way round (``halt: true``); written for ``continue: false``, with the reasons."""
    block_flag: str | None = None
    """Key of a flag a block is written as, ``true``, with the reasons (Cline's
    ``cancel``); a verdict :attr:`nearest` maps to ``block`` is written so too."""
    default_decision: str | None = None
    """The native value :attr:`decision` is written with when no hook decided, where the
    harness requires one (a missing decision is a schema failure it blocks on)."""
    fields: Mapping[str, str] = attrs.field(factory=dict)
    """The event's own answer fields the harness takes as they are: output field (Python
    name) -> the harness's (dotted) key (Gemini's ``BeforeModel``: ``llm_request`` ->
    ``hookSpecificOutput.llm_request``; Copilot's ``userPromptTransformed``:
    ``modified_transformed_prompt`` -> ``modifiedTransformedPrompt``)."""


@attrs.frozen(kw_only=True)
class NativeEvent:
    """One event as a harness names and shapes it, and the canonical event it is."""

    name: str
    """The harness's spelling (``beforeShellExecution``)."""
    event: str
    """The canonical event (``PreToolUse``), or the native name itself when no typed
    event is the same moment (the event is then carried untyped, as the harness
    documents it, without an ``untyped_event`` warning)."""
    tool: str | None = None
    """The canonical tool this event is about when its payload names none
    (``beforeShellExecution``: ``Bash``)."""
    lift: tuple[str, ...] = ()
    """Payload keys that are the tool's input (moved into ``tool_input`` and back)."""
    renames: Mapping[str, str] = attrs.field(factory=dict)
    """Payload keys of this event only -> their canonical key (``output`` -> ``tool_response``)."""
    answer: str = "none"
    """Which :class:`AnswerKeys` of the harness this event's answer uses (a key of
    :attr:`NativeWire.answers`)."""
    matcher_value: str | None = None
    """The fixed name the harness compares a configured ``matcher`` with on this event
    (Cursor: ``Read`` for ``beforeReadFile``, ``Stop`` for ``stop``): a matcher that does
    not match it means the hook never runs."""
    payload_name: str | None = None
    """For a harness whose payloads do not name their event: the ``hook_event_name`` this
    one carries all the same (Copilot's ``notification``: ``Notification``)."""
    matcher_field: str | None = None
    """What the harness compares a configured ``matcher`` with when it is not the tool
    name (Cursor's ``beforeShellExecution``: ``command``); ``None``: as the canonical event."""
    nested_keys: tuple[str, ...] = ()
    """The harness's keys of this event that live in the wire's :attr:`NativeWire.nested`
    object (Windsurf's ``tool_info``): written back into it for the harness's hooks."""
    nested: str | None = None
    """This event's own object of fields, when it is named per event (Cline's
    ``preToolUse``); ``None``: the wire's :attr:`NativeWire.nested`."""
    mcp_keys: tuple[str, str] | None = None
    """(server key, tool key) of an MCP call whose payload names no tool (Windsurf's
    ``mcp_server_name``, ``mcp_tool_name``): the tool is ``mcp__<server>__<tool>``."""
    tool_names: Mapping[str, str] = attrs.field(factory=dict)
    """This event's own native tool names -> canonical names, read and written before
    the wire's (Cline 3.x's SDK events name tools as its SDK does: ``run_commands``)."""
    form_of: str | None = None
    """The event (of the same wire) whose configured hooks this payload form is sent to,
    when it is another form of that event rather than an event of its own (Cline 3.x
    sends ``hookName: "tool_call"`` to its ``PreToolUse`` hook files): decoded and
    answered, never a name a hook is configured under."""


@attrs.frozen(kw_only=True)
class NativeWire:
    """A harness's own wire format: every place its JSON differs from the canonical one."""

    events: tuple[NativeEvent, ...]
    """Every event the harness documents."""
    open_events: bool = False
    """The harness has more events than :attr:`events` (Cursor: "over twenty across
    agent, Tab, and application lifecycle"): a configuration key or payload naming
    another event is that event, carried untyped with the payload as it came, instead
    of unknown (:meth:`event_named`)."""
    event_key: str | None = "hook_event_name"
    """Payload key that names the event; ``None``: the payload does not (Copilot's
    camelCase form: the event is named by the configuration entry, ``--event``)."""
    alt_event_keys: tuple[str, ...] = ()
    """Other keys that name the event on some events (Copilot's ``hookName``)."""
    markers: frozenset[str] = frozenset()
    """Payload keys only this harness sends (detection)."""
    payload_keys: Mapping[str, str] = attrs.field(factory=dict)
    """Native payload key -> canonical key, every event (``sessionId`` -> ``session_id``)."""
    fallbacks: Mapping[str, str] = attrs.field(factory=dict)
    """Canonical key -> a native key to take its value from when the payload lacks it
    (Cursor: ``session_id`` from ``conversation_id``)."""
    json_string_keys: frozenset[str] = frozenset()
    """Canonical keys whose value may arrive as a JSON string of an object (Copilot's
    ``toolArgs``, Cursor's MCP ``tool_input``): parsed when it is one."""
    tool_names: Mapping[str, str] = attrs.field(factory=dict)
    """Native tool name -> canonical name (``run_shell_command`` -> ``Bash``); the first
    native name of a canonical one is what that name is written back as."""
    tool_input_keys: Mapping[str, Mapping[str, str]] = attrs.field(factory=dict)
    """Native tool -> its input keys -> canonical keys (Copilot ``edit``: ``path`` ->
    ``file_path``)."""
    list_inputs: Mapping[str, tuple[str, str]] = attrs.field(factory=dict)
    """Native tool -> (its input key holding a list of strings, the canonical key of one
    string): Cline 3.x's ``run_commands`` takes ``commands: [...]`` where Bash takes one
    ``command``. Read as the strings joined by line breaks (one script that runs each in
    turn; the tool also takes the list as the whole input, or one string), written back
    as a list of that one string."""
    answers: Mapping[str, AnswerKeys] = attrs.field(factory=dict)
    """Answer kinds (``permission``, ``continue``, ``prompt``, ``post``, ``context``,
    ``none``) -> how this harness spells them."""
    specific_key: str | None = None
    """The wrapper object of event-specific answer keys (Gemini: ``hookSpecificOutput``);
    ``None``: answers are flat."""
    loop_count_key: str | None = None
    """Payload key counting the automatic continuations so far (Cursor ``loop_count``)."""
    env: Mapping[str, str] = attrs.field(factory=dict)
    """Environment variables the harness sets for its hooks -> what they hold
    (``project_dir``, ``cwd`` or ``session_id``): set for its hooks whoever called, so a
    command written as ``$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh`` finds its script."""
    nonblocking_exit: int = 1
    """The exit status that tells this harness "the hook failed, go on" (Copilot fails a
    preToolUse closed on 1: it is told 0, with nothing on stdout)."""
    nested: str | None = None
    """A key whose object holds each event's own fields (Windsurf's ``tool_info``): read
    as if they were at the top level (where the top level has no such key)."""
    reads_exit_status: bool = True
    """``False``: the harness reads no exit status at all, only the JSON on stdout (Cline
    runs the tool whatever a hook exits with): a guard that fails closed says so with
    the event's block answer (:func:`~agent_hooks._wire._detect.failure_answer`)."""
    exit_status_only: bool = False
    """The harness reads no JSON answer (Windsurf, Kiro CLI): a verdict the answer row
    writes as ``decision: "block"`` is exit status 2 with the ``reason`` on stderr, and
    ``agent-hooks run`` prints on stdout only what the row writes as ``context`` (Kiro
    adds plain stdout to the agent's context on some events): nothing else."""

    def by_name(self, name: str) -> NativeEvent | None:
        """The event the harness spells ``name``, or ``None``."""
        for e in self.events:
            if e.name == name:
                return e
        return None

    def event_named(self, name: str) -> NativeEvent | None:
        """:meth:`by_name`; else, for a wire with :attr:`open_events`, an event of that
        name carried untyped, as itself (no answer keys); else ``None``."""
        found = self.by_name(name)
        if found is None and self.open_events and _IDENTIFIER.fullmatch(name):
            return NativeEvent(name=name, event=name)
        return found

    def for_event(self, event: str, tool: str | None = None) -> NativeEvent | None:
        """The native event a canonical ``event`` is written as when nothing says which:
        the first one that implies no tool; else (Windsurf: one event per kind of tool)
        the first one for ``tool``, when given; else the first one; ``None`` when the
        harness has no such event."""
        found = [e for e in self.events if e.event == event]
        for e in found:
            if e.tool is None and e.mcp_keys is None:
                return e
        if tool is not None:
            for e in found:
                if e.tool == tool or (e.mcp_keys is not None and tool.startswith("mcp__")):
                    return e
        return found[0] if found else None
