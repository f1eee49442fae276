"""Model, prompt and agent hooks against a scripted fake client: the answer shapes
(``pre_tool_use_decision`` strict and inside text, Claude Code's ``{ok, reason}``,
free text), the fail-closed rules for PreToolUse/ToolGuard, prompt templates, the
agent runner variant, and both configuration routes end to end (Docker Agent YAML
``type: model`` and a Claude Code settings file ``type: prompt``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import attrs
import pytest

from agent_hooks import (
    Decision,
    DiagnosticCode,
    HookEvent,
    HookInput,
    HookMatcher,
    HookRegistry,
    ModelHook,
    Outcome,
    PostToolUseInput,
    PreToolUseInput,
    RegistrationError,
    SessionEndInput,
    StopInput,
    ToolGuardInput,
    UserPromptSubmitInput,
    default_kinds,
)
from agent_hooks._config._load import load
from agent_hooks._config._trust import TrustPolicy
from agent_hooks._handlers._kinds import model_kinds

pytestmark = pytest.mark.anyio

SHORT = 0.05
"""A model hook's timeout when the fake client never answers."""
SOURCE = "tests/model-hooks"

HANG = object()
"""A script step: the client never answers (until cancelled)."""


@attrs.frozen
class Asked:
    prompt: str
    model: str | None = None
    schema: str | None = None
    input: Mapping[str, Any] | None = None


class ScriptedClient:
    """A :class:`~agent_hooks.ModelClient` that answers from a script, in order.

    A step is the answer (text or a mapping), an exception to raise, or ``HANG``.
    """

    def __init__(self, *script: object) -> None:
        self.script = list(script)
        self.asked: list[Asked] = []

    async def _step(self) -> Any:
        step = self.script.pop(0)
        if step is HANG:
            await anyio.sleep_forever()
        if isinstance(step, BaseException):
            raise step
        return step

    async def __call__(
        self, prompt: str, *, model: str | None, schema: str | None
    ) -> str | Mapping[str, Any]:
        self.asked.append(Asked(prompt, model, schema))
        answer: str | Mapping[str, Any] = await self._step()
        return answer


class ScriptedAgent(ScriptedClient):
    """An :class:`~agent_hooks.AgentRunner` with the same script."""

    async def __call__(  # type: ignore[override]
        self, prompt: str, *, input: Mapping[str, Any], model: str | None
    ) -> str | Mapping[str, Any]:
        self.asked.append(Asked(prompt, model, None, input))
        answer: str | Mapping[str, Any] = await self._step()
        return answer


def bash(command: str = "rm -rf /tmp/x") -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": command}, tool_use_id="tu_1")


async def run(
    hook: ModelHook, input: HookInput[Any], *, also: list[Any] | None = None
) -> Decision[Any]:
    """Dispatch ``input`` through a registry holding ``hook`` (then ``also``)."""
    registry = HookRegistry(
        {input.event: [HookMatcher(hooks=[hook, *(also or [])])]}, source=SOURCE
    )
    async with registry.session(session_id="s1", cwd="/proj") as session:
        return await session.dispatch(input)


def judge(client: ScriptedClient, **kw: Any) -> ModelHook:
    kw.setdefault("prompt", "Is this safe? $ARGUMENTS")
    return ModelHook(client=client, timeout=kw.pop("timeout", 5.0), **kw)


def codes(decision: Decision[Any]) -> list[DiagnosticCode]:
    return [d.code for d in decision.diagnostics]


def assert_located(decision: Decision[Any], event: str) -> None:
    """Every diagnostic names the handler's source and its index."""
    assert decision.diagnostics
    for d in decision.diagnostics:
        assert d.source == SOURCE
        assert d.location == f"{event}[0].hooks[0]"
        assert d.handler is not None


# ------------------------------------------------------ pre_tool_use_decision


@pytest.mark.parametrize(
    ("answer", "decision", "blocked"),
    [
        ('{"decision": "deny", "reason": "destructive"}', "deny", True),
        ('{"decision": "allow", "reason": "read-only"}', "allow", False),
        ('{"decision": "ask", "reason": "unsure"}', "ask", False),
        ({"decision": "deny", "reason": "destructive"}, "deny", True),
    ],
)
async def test_decision_schema_strict_json(
    answer: str | dict[str, str], decision: str, blocked: bool
) -> None:
    client = ScriptedClient(answer)
    d = await run(judge(client, schema="pre_tool_use_decision"), bash())
    assert d.output.permission_decision == decision
    assert d.output.permission_decision_reason in ("destructive", "read-only", "unsure")
    assert d.blocked is blocked
    (result,) = d.results
    assert result.outcome is (Outcome.BLOCKED if blocked else Outcome.OK)
    assert d.diagnostics == ()
    assert client.asked[0].schema == "pre_tool_use_decision"


@pytest.mark.parametrize(
    "answer",
    [
        'Looking at the command... {"decision": "deny", "reason": "wipes files"} Done.',
        'Verdict:\n```json\n{"decision": "deny", "reason": "wipes files"}\n```\n',
        'It has {braces} first, then {"decision": "deny", "reason": "wipes files"}',
    ],
)
async def test_decision_schema_tolerates_json_inside_text(answer: str) -> None:
    d = await run(judge(ScriptedClient(answer), schema="pre_tool_use_decision"), bash())
    assert d.blocked
    assert d.reason == "wipes files"
    assert d.diagnostics == ()


@pytest.mark.parametrize(
    "answer",
    [
        "I think it is fine.",
        '{"decision": "maybe", "reason": "?"}',
        '{"decision": "allow", "reason": 42}',
        '{"ok": true}',
        "",
        {"verdict": "allow"},
    ],
)
@pytest.mark.parametrize(
    "input",
    [bash(), ToolGuardInput(tool_name="shell", tool_input={"cmd": "ls"})],
    ids=["PreToolUse", "ToolGuard"],
)
async def test_decision_schema_unusable_answer_fails_closed(
    answer: str | dict[str, str], input: HookInput[Any]
) -> None:
    d = await run(judge(ScriptedClient(answer), schema="pre_tool_use_decision"), input)
    assert d.blocked
    assert d.reason is not None and d.reason.startswith("model hook failed:")
    assert d.results[0].outcome is Outcome.ERROR
    assert codes(d) == [DiagnosticCode.INVALID_OUTPUT, DiagnosticCode.FAILED_CLOSED]
    assert_located(d, input.event.value)


async def test_decision_schema_elsewhere_unusable_is_a_non_blocking_error() -> None:
    d = await run(
        judge(ScriptedClient("no idea"), schema="pre_tool_use_decision"),
        UserPromptSubmitInput(prompt="hi"),
    )
    assert not d.blocked
    assert d.results[0].outcome is Outcome.ERROR
    assert codes(d) == [DiagnosticCode.INVALID_OUTPUT]
    assert_located(d, "UserPromptSubmit")


# -------------------------------------------------------------- {ok, reason}


@pytest.mark.parametrize(
    ("input", "check"),
    [
        # Stop: a block keeps the agent going, with the reason as its next instruction
        (StopInput(), lambda o: (o.decision, o.reason) == ("block", "tests fail")),
        (
            UserPromptSubmitInput(prompt="deploy"),
            lambda o: (o.decision, o.reason) == ("block", "tests fail"),
        ),
        (
            bash(),
            lambda o: (
                (o.permission_decision, o.permission_decision_reason) == ("deny", "tests fail")
            ),
        ),
        (
            PostToolUseInput(tool_name="Write", tool_input={}, tool_response={}),
            lambda o: (o.decision, o.reason) == ("block", "tests fail"),
        ),
    ],
    ids=["Stop", "UserPromptSubmit", "PreToolUse", "PostToolUse"],
)
async def test_ok_false_blocks_as_the_event_blocks(input: HookInput[Any], check: Any) -> None:
    d = await run(judge(ScriptedClient('{"ok": false, "reason": "tests fail"}')), input)
    assert d.blocked
    assert check(d.output)
    assert d.reason == "tests fail"
    assert d.results[0].outcome is Outcome.BLOCKED
    assert d.diagnostics == ()


async def test_stop_ok_false_keeps_the_agent_going() -> None:
    d = await run(judge(ScriptedClient({"ok": False, "reason": "run the tests"})), StopInput())
    assert d.blocked and d.should_continue
    assert d.reason == "run the tests"


async def test_ok_true_says_nothing_and_ok_false_without_reason_still_blocks() -> None:
    d = await run(judge(ScriptedClient('{"ok": true, "reason": "fine"}')), bash())
    assert not d.blocked
    assert d.output.permission_decision is None and d.context is None
    assert d.results[0].outcome is Outcome.OK
    d = await run(judge(ScriptedClient('{"ok": false}')), UserPromptSubmitInput(prompt="x"))
    assert d.blocked and d.reason == "the model said no"


async def test_ok_json_inside_text_is_read() -> None:
    d = await run(
        judge(ScriptedClient('Sure. {"ok": false, "reason": "missing tests"}')), StopInput()
    )
    assert d.blocked and d.reason == "missing tests"


# ------------------------------------------------------------------ free text


async def test_free_text_is_additional_context() -> None:
    d = await run(
        judge(ScriptedClient("  Remember the style guide.\n")), UserPromptSubmitInput(prompt="x")
    )
    assert d.context == "Remember the style guide."
    assert not d.blocked
    assert d.diagnostics == ()


async def test_a_json_object_without_verdict_is_context_as_json() -> None:
    d = await run(
        judge(ScriptedClient({"note": "uses sudo"})),
        PostToolUseInput(tool_name="Bash", tool_input={}, tool_response={}),
    )
    assert d.output.additional_context is not None
    assert json.loads(d.output.additional_context) == {"note": "uses sudo"}


async def test_free_text_where_the_event_takes_no_context_is_a_system_message() -> None:
    d = await run(judge(ScriptedClient("heads up")), SessionEndInput(reason="other"))
    assert d.system_messages == ("heads up",)


async def test_free_text_on_pre_tool_use_without_schema_does_not_decide() -> None:
    d = await run(judge(ScriptedClient("Looks fine to me")), bash())
    assert not d.blocked
    assert d.output.permission_decision is None
    assert d.context == "Looks fine to me"


# ---------------------------------------------- failures: closed or non-blocking


class Boom(RuntimeError):
    pass


FAILURES = [
    pytest.param(Boom("rate limited"), DiagnosticCode.INVALID_OUTPUT, Outcome.ERROR, id="raises"),
    pytest.param(HANG, DiagnosticCode.TIMEOUT, Outcome.TIMEOUT, id="times-out"),
    pytest.param("", DiagnosticCode.INVALID_OUTPUT, Outcome.ERROR, id="empty"),
    pytest.param(42, DiagnosticCode.INVALID_OUTPUT, Outcome.ERROR, id="not-text"),
]


@pytest.mark.parametrize(("step", "code", "outcome"), FAILURES)
@pytest.mark.parametrize("schema", [None, "pre_tool_use_decision"])
async def test_failures_deny_on_pre_tool_use(
    step: object, code: DiagnosticCode, outcome: Outcome, schema: str | None
) -> None:
    hook = judge(ScriptedClient(step), schema=schema, timeout=SHORT)
    d = await run(hook, bash())
    assert d.blocked
    assert d.output.permission_decision == "deny"
    assert d.reason is not None and "model hook failed" in d.reason
    assert d.results[0].outcome is outcome
    assert codes(d) == [code, DiagnosticCode.FAILED_CLOSED]
    assert_located(d, "PreToolUse")


@pytest.mark.parametrize(("step", "code", "outcome"), FAILURES)
@pytest.mark.parametrize(
    "input",
    [UserPromptSubmitInput(prompt="x"), StopInput()],
    ids=["UserPromptSubmit", "Stop"],
)
async def test_failures_elsewhere_are_non_blocking_and_the_dispatch_goes_on(
    step: object, code: DiagnosticCode, outcome: Outcome, input: HookInput[Any]
) -> None:
    other = judge(ScriptedClient("from the second hook"))
    d = await run(judge(ScriptedClient(step), timeout=SHORT), input, also=[other])
    assert not d.blocked
    assert d.context == "from the second hook"
    first, second = d.results
    assert first.outcome is outcome and second.outcome is Outcome.OK
    (diag,) = d.diagnostics
    assert diag.code is code
    assert (diag.source, diag.location) == (SOURCE, f"{input.event.value}[0].hooks[0]")


async def test_client_error_message_names_the_exception() -> None:
    d = await run(judge(ScriptedClient(Boom("rate limited"))), UserPromptSubmitInput(prompt="x"))
    (diag,) = d.diagnostics
    assert "Boom" in diag.message and "rate limited" in diag.message


async def test_timeout_message_names_the_timeout() -> None:
    d = await run(judge(ScriptedClient(HANG), timeout=SHORT), bash())
    assert d.reason == f"model hook failed: model did not answer within {SHORT:g}s"


async def test_on_error_block_fails_closed_elsewhere_too() -> None:
    hook = judge(ScriptedClient(Boom("down")), on_error="block")
    d = await run(hook, UserPromptSubmitInput(prompt="x"))
    assert d.blocked
    assert DiagnosticCode.FAILED_CLOSED in codes(d)


# ------------------------------------------------------------------ templates


def arguments_in(prompt: str, before: str, after: str = "") -> Any:
    """The JSON that ``$ARGUMENTS`` became, between ``before`` and ``after``."""
    assert prompt.startswith(before) and prompt.endswith(after)
    return json.loads(prompt[len(before) : len(prompt) - len(after)])


async def test_arguments_placeholder_is_the_claude_input_json() -> None:
    client = ScriptedClient("ok")
    await run(judge(client, prompt="Judge: $ARGUMENTS!"), bash("ls -la"))
    payload = arguments_in(client.asked[0].prompt, "Judge: ", "!")
    assert payload["hook_event_name"] == "PreToolUse"
    assert payload["tool_name"] == "Bash"
    assert payload["tool_input"] == {"command": "ls -la"}
    assert payload["session_id"] == "s1" and payload["cwd"] == "/proj"


async def test_escaped_dollar_is_literal() -> None:
    client = ScriptedClient("ok")
    await run(
        judge(client, prompt=r"Budget \$1.00; literal \$ARGUMENTS; input $ARGUMENTS"),
        UserPromptSubmitInput(prompt="hi"),
    )
    prompt = client.asked[0].prompt
    before = "Budget $1.00; literal $ARGUMENTS; input "
    assert arguments_in(prompt, before)["prompt"] == "hi"


async def test_go_template_fields_and_helpers() -> None:
    client = ScriptedClient("ok")
    template = (
        "tool={{ .ToolName }} "
        "input={{ .ToolInput | toJSON }} "
        "cut={{ .ToolInput | toJSON | truncate 8 }} "
        "head={{ truncate 2 .ToolName }} "
        "cmd={{ .ToolInput.command }} "
        "raw={{ .tool_name }} "
        "missing=[{{ .NoSuchField }}]"
    )
    await run(judge(client, prompt=template), bash("ls -la"))
    assert client.asked[0].prompt == (
        'tool=Bash input={"command":"ls -la"} cut={"comman… head=Ba… cmd=ls -la raw=Bash missing=[]'
    )


async def test_substituted_input_is_never_read_as_template_syntax() -> None:
    """A tool input holding ``{{ ... }}`` or ``\\$`` reaches the model as it is: it can
    neither inject template actions nor break the JSON (nor force a fail-closed deny)."""
    client = ScriptedClient('{"ok": true}')
    command = r"echo '{{ .ToolName }} {{ evil }}' \$HOME $ARGUMENTS"
    d = await run(judge(client, prompt="Judge $ARGUMENTS"), bash(command))
    assert not d.blocked and d.diagnostics == ()
    assert arguments_in(client.asked[0].prompt, "Judge ")["tool_input"]["command"] == command


async def test_template_action_output_is_not_rescanned() -> None:
    client = ScriptedClient("ok")
    await run(judge(client, prompt="{{ .ToolInput.command }}"), bash("say $ARGUMENTS"))
    assert client.asked[0].prompt == "say $ARGUMENTS"


async def test_prompt_hooks_without_placeholder_get_the_input_appended() -> None:
    client = ScriptedClient("ok", "ok")
    await run(judge(client, prompt="Is it safe?", kind="prompt"), bash())
    text = client.asked[0].prompt
    assert text.startswith("Is it safe?\n\n")
    assert json.loads(text.split("\n\n", 1)[1])["tool_name"] == "Bash"
    # Docker Agent model hooks use their template as it is
    await run(judge(client, prompt="Is {{ .ToolName }} safe?", kind="model"), bash())
    assert client.asked[1].prompt == "Is Bash safe?"


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{{ shout .ToolName }}", "unknown template function 'shout'"),
        ("{{ .ToolName | truncate }}", "truncate needs a length"),
    ],
)
async def test_template_errors_fail_closed_on_pre_tool_use_only(
    template: str, message: str
) -> None:
    d = await run(judge(ScriptedClient(), prompt=template), bash())
    assert d.blocked
    assert any(message in diag.message for diag in d.diagnostics)
    d = await run(judge(ScriptedClient(), prompt=template), UserPromptSubmitInput(prompt="x"))
    assert not d.blocked and d.results[0].outcome is Outcome.ERROR
    (diag,) = d.diagnostics
    assert "prompt template error" in diag.message and message in diag.message


async def test_model_and_schema_reach_the_client() -> None:
    client = ScriptedClient('{"decision": "allow", "reason": "ok"}')
    await run(judge(client, model="fast-judge", schema="pre_tool_use_decision"), bash())
    assert (client.asked[0].model, client.asked[0].schema) == (
        "fast-judge",
        "pre_tool_use_decision",
    )


# --------------------------------------------------------------- agent runner


async def test_agent_runner_gets_prompt_input_and_model() -> None:
    agent = ScriptedAgent('{"ok": false, "reason": "2 tests fail"}')
    hook = ModelHook(
        prompt="Verify the tests pass. $ARGUMENTS", agent=agent, model="small", kind="agent"
    )
    d = await run(hook, StopInput())
    assert d.blocked and d.reason == "2 tests fail"
    (asked,) = agent.asked
    assert asked.model == "small"
    assert asked.input is not None and asked.input["hook_event_name"] == "Stop"
    assert arguments_in(asked.prompt, "Verify the tests pass. ") == dict(asked.input)
    assert d.results[0].handler is not None and d.results[0].handler.kind == "agent"


async def test_agent_runner_free_text_and_failures() -> None:
    d = await run(
        ModelHook(prompt="Summarise", agent=ScriptedAgent("All good."), kind="agent"),
        UserPromptSubmitInput(prompt="x"),
    )
    assert d.context == "All good."
    d = await run(
        ModelHook(prompt="Check", agent=ScriptedAgent(Boom("crashed")), kind="agent"), bash()
    )
    assert d.blocked and codes(d) == [DiagnosticCode.INVALID_OUTPUT, DiagnosticCode.FAILED_CLOSED]
    d = await run(
        ModelHook(prompt="Check", agent=ScriptedAgent(HANG), kind="agent", timeout=SHORT),
        StopInput(),
    )
    assert not d.blocked and d.results[0].outcome is Outcome.TIMEOUT


def test_construction_errors() -> None:
    client = ScriptedClient()
    with pytest.raises(RegistrationError, match="prompt"):
        ModelHook(prompt="  ", client=client)
    with pytest.raises(RegistrationError, match="exactly one"):
        ModelHook(prompt="x")
    with pytest.raises(RegistrationError, match="exactly one"):
        ModelHook(prompt="x", client=client, agent=ScriptedAgent())
    with pytest.raises(RegistrationError, match="schema"):
        ModelHook(prompt="x", client=client, schema="yes_no")


def test_node_name_kind_and_status() -> None:
    node = ModelHook(
        prompt="Judge the call\nmore lines", client=ScriptedClient(), kind="prompt"
    ).to_node()
    assert (node.name, node.kind, node.status_message) == ("prompt: Judge the call", "prompt", None)
    node = ModelHook(
        prompt="x", client=ScriptedClient(), name="judge", status_message="Judging"
    ).to_node()
    assert (node.name, node.kind, node.status_message) == ("judge", "model", "Judging")


# ------------------------------------------------------------- end to end


DOCKER_AGENT = """\
agents:
  root:
    model: openai/gpt-4o
    hooks:
      pre_tool_use:
      - matcher: "shell|edit_file"
        hooks:
        - type: model
          model: openai/gpt-4o-mini
          timeout: 15
          schema: pre_tool_use_decision
          prompt: |
            You are a security judge. Tool {{ .ToolName }} with
            {{ .ToolInput | toJSON | truncate 40 }}.
            Answer {"decision": "allow|deny|ask", "reason": "..."}.
      user_prompt_submit:
      - type: model
        model: openai/gpt-4o-mini
        prompt: "Context for: {{ .Prompt }}"
"""


async def test_docker_yaml_model_hook_end_to_end(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    path = tmp_path / "agent.yaml"
    path.write_text(DOCKER_AGENT)
    client = ScriptedClient(
        'Verdict: {"decision": "deny", "reason": "deletes the home directory"}',
        "The user prefers short answers.",
        Boom("model unavailable"),
    )
    config = load(path, kinds={**default_kinds(), **model_kinds(client)})
    assert config.diagnostics == ()
    compiled = config.registry().compile()
    (node,) = compiled.nodes[HookEvent.PRE_TOOL_USE]
    assert (node.node.kind, node.timeout) == ("model", 15.0)
    async with config.registry().session(session_id="s", cwd=str(tmp_path)) as session:
        d = await session.dispatch(
            PreToolUseInput(tool_name="shell", tool_input={"cmd": "rm -rf ~"})
        )
        assert d.blocked
        assert d.output.permission_decision == "deny"
        assert d.reason == "deletes the home directory"
        asked = client.asked[0]
        assert (asked.model, asked.schema) == ("openai/gpt-4o-mini", "pre_tool_use_decision")
        assert asked.prompt.startswith(
            'You are a security judge. Tool shell with\n{"cmd":"rm -rf ~"}.'
        )
        # a tool the matcher does not name: the judge is not asked
        d = await session.dispatch(PreToolUseInput(tool_name="read_file", tool_input={}))
        assert not d.blocked and len(client.asked) == 1
        up = await session.dispatch(UserPromptSubmitInput(prompt="write a poem"))
        assert client.asked[1].prompt == "Context for: write a poem"
        assert up.context == "The user prefers short answers."
        # the judge failing on a tool call: Docker Agent fails closed
        d = await session.dispatch(PreToolUseInput(tool_name="edit_file", tool_input={}))
        assert d.blocked
        assert DiagnosticCode.FAILED_CLOSED in codes(d)
        assert all(x.source == str(path) for x in d.diagnostics)
        assert {x.location for x in d.diagnostics} == {"agents.root.hooks.pre_tool_use[0].hooks[0]"}


CLAUDE_SETTINGS = {
    "hooks": {
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "prompt",
                        "prompt": "Evaluate if Claude should stop: $ARGUMENTS. Check the tasks.",
                        "statusMessage": "Checking the tasks",
                    }
                ]
            }
        ],
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "prompt",
                        "prompt": "Is this command safe?",
                        "model": "claude-haiku",
                        "timeout": 10,
                    }
                ],
            }
        ],
    }
}


async def test_claude_settings_prompt_hook_end_to_end(tmp_path: Path) -> None:
    project = tmp_path / "project"
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps(CLAUDE_SETTINGS))
    client = ScriptedClient(
        '{"ok": false, "reason": "the README is not updated"}',
        '{"ok": true}',
    )
    config = load(
        settings,
        kinds={**default_kinds(), **model_kinds(client)},
        trust=TrustPolicy(store=None, trust_all=True),
        home=tmp_path / "home",
    )
    assert config.diagnostics == ()
    compiled = config.registry().compile()
    (stop,) = compiled.nodes[HookEvent.STOP]
    assert (stop.node.kind, stop.timeout, stop.info.status_message) == (
        "prompt",
        30.0,
        "Checking the tasks",
    )
    (pre,) = compiled.nodes[HookEvent.PRE_TOOL_USE]
    assert pre.timeout == 10.0
    async with config.registry().session(session_id="s9", cwd=str(project)) as session:
        d = await session.dispatch(StopInput())
        assert d.blocked and d.should_continue
        assert d.reason == "the README is not updated"
        payload = arguments_in(
            client.asked[0].prompt, "Evaluate if Claude should stop: ", ". Check the tasks."
        )
        assert payload["hook_event_name"] == "Stop" and payload["session_id"] == "s9"
        tool = await session.dispatch(bash("ls"))
        assert not tool.blocked
        asked = client.asked[1]
        assert asked.model == "claude-haiku"
        assert asked.prompt.startswith("Is this command safe?\n\n")


async def test_claude_settings_prompt_hook_that_never_answers_denies(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    entry = {"type": "prompt", "prompt": "Safe? $ARGUMENTS", "timeout": SHORT}
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [entry]}]}}))
    config = load(settings, kinds={**default_kinds(), **model_kinds(ScriptedClient(HANG))})
    assert config.diagnostics == ()
    async with config.registry().session(cwd=str(tmp_path)) as session:
        d = await session.dispatch(bash("ls"))
    assert d.blocked
    assert codes(d) == [DiagnosticCode.TIMEOUT, DiagnosticCode.FAILED_CLOSED]
    assert {x.location for x in d.diagnostics} == {"hooks.PreToolUse[0].hooks[0]"}
    assert {x.source for x in d.diagnostics} == {str(settings)}


async def test_claude_settings_agent_hook_end_to_end(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(
        json.dumps(
            {
                "hooks": {
                    "Stop": [
                        {
                            "hooks": [
                                {
                                    "type": "agent",
                                    "prompt": "Verify that all unit tests pass. $ARGUMENTS",
                                    "timeout": 120,
                                }
                            ]
                        }
                    ]
                }
            }
        )
    )
    agent = ScriptedAgent({"ok": False, "reason": "test_x fails"})
    config = load(settings, kinds={**default_kinds(), **model_kinds(agent=agent)})
    assert config.diagnostics == ()
    async with config.registry().session(cwd=str(tmp_path)) as session:
        d = await session.dispatch(StopInput())
    assert d.blocked and d.reason == "test_x fails"
    assert agent.asked[0].input is not None
    assert agent.asked[0].input["hook_event_name"] == "Stop"
