"""The moments only Gemini CLI, Cursor and GitHub Copilot name are typed events (issue 17,
item 2): each digest example decodes without diagnostics into its typed input, each
documented answer comes back byte for byte in the harness's shape, payloads and answers
fit the JSON Schemas of ``typings/``, ``check`` lists them as typed, and what a harness
cannot take is reported as ``not_expressible``.

Gemini ``BeforeModel`` is BeforeLLMCall and Cursor ``afterAgentResponse`` is AfterLLMCall
(the same moments as Docker Agent's); Gemini ``AfterModel`` is AfterModelChunk, Gemini
``BeforeToolSelection`` is BeforeToolSelection, Cursor ``afterAgentThought`` is
AfterAgentThought and ``workspaceOpen`` WorkspaceOpen, Copilot ``userPromptTransformed``
is UserPromptTransformed (and ``errorOccurred`` OnError)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest

from agent_hooks import (
    AfterAgentThoughtInput,
    AfterAgentThoughtOutput,
    AfterLLMCallInput,
    AfterModelChunkInput,
    AfterModelChunkOutput,
    BeforeLLMCallInput,
    BeforeLLMCallOutput,
    BeforeToolSelectionInput,
    BeforeToolSelectionOutput,
    HookEvent,
    HookInput,
    HookMatcher,
    HookRegistry,
    OnErrorInput,
    ToolConfig,
    UserPromptTransformedInput,
    UserPromptTransformedOutput,
    WorkspaceOpenInput,
    WorkspaceOpenOutput,
)
from agent_hooks._bridges._payload import dispatch_payload
from agent_hooks._events._capabilities import spec_for
from agent_hooks._events._untyped import UntypedInput
from agent_hooks._wire._codec import decode_output, encode_input
from agent_hooks._wire._detect import decode_payload
from agent_hooks._wire._dialects import get_dialect
from agent_hooks._wire._native_schema import native_schemas
from agent_hooks._wire._schema import input_schema
from tests.config_helpers import check_json, cli, script, write
from tests.dialect_examples import COPILOT, CURSOR, GEMINI, Example
from tests.dialect_helpers import answer, codes, text

pytestmark = pytest.mark.anyio

TYPINGS = Path(__file__).resolve().parents[2] / "typings"
SCHEMAS = native_schemas()

TYPED: dict[tuple[str, str], type[HookInput[Any]]] = {
    ("gemini", "BeforeModel"): BeforeLLMCallInput,
    ("gemini", "AfterModel"): AfterModelChunkInput,
    ("gemini", "BeforeToolSelection"): BeforeToolSelectionInput,
    ("cursor", "afterAgentResponse"): AfterLLMCallInput,
    ("cursor", "afterAgentThought"): AfterAgentThoughtInput,
    ("cursor", "workspaceOpen"): WorkspaceOpenInput,
    ("copilot", "userPromptTransformed"): UserPromptTransformedInput,
    ("copilot", "errorOccurred"): OnErrorInput,
}
"""(harness, its event) -> the typed input it decodes into."""


def _examples() -> list[tuple[str, Example]]:
    found = [
        (harness, e)
        for harness, examples in (("gemini", GEMINI), ("cursor", CURSOR), ("copilot", COPILOT))
        for e in examples
        if (harness, e[0]) in TYPED
    ]
    assert {(h, e[0]) for h, e in found} == set(TYPED)
    return found


EXAMPLES = _examples()


def _payload(harness: str, native: str) -> tuple[dict[str, Any], str | None]:
    for h, (name, event, payload, *_) in EXAMPLES:
        if (h, name) == (harness, native):
            return payload, event
    raise AssertionError(native)


@pytest.mark.parametrize(("harness", "example"), EXAMPLES, ids=[f"{h}-{e[0]}" for h, e in EXAMPLES])
def test_each_example_decodes_into_its_typed_input(harness: str, example: Example) -> None:
    native, event, payload, canonical, _ = example
    decoded = decode_payload(json.dumps(payload), dialect=harness, event=event)
    assert decoded.diagnostics == ()
    cls = TYPED[(harness, native)]
    assert type(decoded.input) is cls and not isinstance(decoded.input, UntypedInput)
    assert decoded.input.event == canonical and isinstance(decoded.input.event, HookEvent)
    assert spec_for(native if native == canonical else canonical).typed
    row = get_dialect(harness).native
    assert row is not None
    found = row.by_name(native)
    assert found is not None and isinstance(spec_for(found.event).event, HookEvent)
    # a hook of that harness gets the payload back as the harness sent it
    again = encode_input(decoded.input, attrs.evolve(get_dialect(harness), native_event=native))
    assert {k: again[k] for k in payload} == payload
    # and it fits the schemas: the harness's own, and the typed event's canonical one
    jsonschema.validate(payload, SCHEMAS[f"dialects/{harness}.{native}.input.schema.json"])
    canonical_payload = encode_input(decoded.input, "claude")
    jsonschema.validate(canonical_payload, input_schema(canonical))
    on_disk = json.loads((TYPINGS / f"{canonical}.input.schema.json").read_text())
    assert on_disk == input_schema(canonical)


def test_the_harness_fields_are_typed() -> None:
    def decoded(harness: str, native: str) -> Any:
        payload, event = _payload(harness, native)
        return decode_payload(json.dumps(payload), dialect=harness, event=event).input

    before = decoded("gemini", "BeforeModel")
    assert before.llm_request["model"] == "gemini-2.5-flash"
    chunk = decoded("gemini", "AfterModel")
    assert chunk.llm_response["candidates"][0]["finishReason"] == "STOP"
    assert decoded("gemini", "BeforeToolSelection").llm_request == {"model": "m", "messages": []}
    assert decoded("cursor", "afterAgentResponse").stop_response == "Done."
    thought = decoded("cursor", "afterAgentThought")
    assert (thought.text, thought.duration_ms) == ("hmm", 800)
    assert decoded("cursor", "workspaceOpen").session_id == "conv-1"
    transformed = decoded("copilot", "userPromptTransformed")
    assert transformed.prompt == "p"
    assert transformed.transformed_prompt == "<current_datetime>x</current_datetime>p"


ANSWERS: list[tuple[str, str, str]] = [
    ("gemini", "BeforeModel", '{"decision":"deny","reason":"no model calls today"}'),
    (
        "gemini",
        "BeforeModel",
        '{"hookSpecificOutput":{"hookEventName":"BeforeModel",'
        '"llm_request":{"config":{"temperature":0}}}}',
    ),
    (
        "gemini",
        "BeforeModel",
        '{"hookSpecificOutput":{"hookEventName":"BeforeModel","llm_response":{"candidates":'
        '[{"content":{"role":"model","parts":["cached answer"]},"finishReason":"STOP"}]}}}',
    ),
    ("gemini", "BeforeModel", '{"continue":false,"stopReason":"budget spent"}'),
    (
        "gemini",
        "AfterModel",
        '{"hookSpecificOutput":{"hookEventName":"AfterModel","llm_response":{"candidates":'
        '[{"content":{"role":"model","parts":["[redacted]"]}}]}}}',
    ),
    ("gemini", "AfterModel", '{"decision":"deny","reason":"leaked a key"}'),
    ("gemini", "AfterModel", '{"continue":false,"stopReason":"enough"}'),
    (
        "gemini",
        "BeforeToolSelection",
        '{"hookSpecificOutput":{"hookEventName":"BeforeToolSelection","toolConfig":'
        '{"mode":"ANY","allowedFunctionNames":["read_file","glob"]}}}',
    ),
    (
        "gemini",
        "BeforeToolSelection",
        '{"hookSpecificOutput":{"hookEventName":"BeforeToolSelection","toolConfig":'
        '{"mode":"NONE"}}}',
    ),
    ("cursor", "afterAgentResponse", "{}"),
    ("cursor", "afterAgentThought", "{}"),
    ("cursor", "workspaceOpen", '{"pluginPaths":["/opt/cursor-plugins/lint"]}'),
    ("copilot", "userPromptTransformed", '{"modifiedTransformedPrompt":"be brief. p"}'),
    ("copilot", "errorOccurred", "{}"),
]


@pytest.mark.parametrize(
    ("harness", "native", "printed"),
    ANSWERS,
    ids=[f"{a[0]}-{a[1]}-{i}" for i, a in enumerate(ANSWERS)],
)
async def test_each_documented_answer_round_trips_byte_for_byte(
    harness: str, native: str, printed: str
) -> None:
    payload, event = _payload(harness, native)
    decoded = decode_payload(json.dumps(payload), dialect=harness, event=event)
    read = decode_output(
        str(decoded.input.event),
        printed,
        dialect=attrs.evolve(get_dialect(harness), native_event=native),
    )
    assert read.diagnostics == ()
    assert read.output is not None and read.output.extra == {} == read.output.extra_specific
    result = await answer(payload, read.output, dialect=harness, event=event)
    assert text(result) == printed
    assert codes(result) == []
    schema = SCHEMAS[f"dialects/{harness}.{native}.output.schema.json"]
    jsonschema.validate(result.answer, schema)
    assert set(result.answer) <= set(schema["properties"])


@pytest.mark.parametrize(
    ("harness", "native", "output", "printed"),
    [
        (
            "gemini",
            "BeforeModel",
            BeforeLLMCallOutput(messages=[{"role": "user", "content": "x"}]),
            "{}",
        ),
        (
            "gemini",
            "BeforeToolSelection",
            BeforeToolSelectionOutput(
                tool_config=ToolConfig(mode="AUTO"), system_message="tools trimmed"
            ),
            '{"hookSpecificOutput":{"hookEventName":"BeforeToolSelection",'
            '"toolConfig":{"mode":"AUTO"}}}',
        ),
        ("cursor", "afterAgentThought", AfterAgentThoughtOutput(system_message="seen"), "{}"),
        (
            "cursor",
            "workspaceOpen",
            WorkspaceOpenOutput(continue_=False, plugin_paths=["/p"]),
            '{"pluginPaths":["/p"]}',
        ),
        (
            "copilot",
            "userPromptTransformed",
            UserPromptTransformedOutput(modified_transformed_prompt="q", system_message="hi"),
            '{"modifiedTransformedPrompt":"q"}',
        ),
    ],
)
async def test_what_the_harness_cannot_take_is_reported(
    harness: str, native: str, output: Any, printed: str
) -> None:
    payload, event = _payload(harness, native)
    result = await answer(payload, output, dialect=harness, event=event)
    assert text(result) == printed
    assert "not_expressible" in codes(result)


async def test_tool_selections_unite_and_the_strictest_mode_wins() -> None:
    payload, _ = _payload("gemini", "BeforeToolSelection")
    decoded = decode_payload(json.dumps(payload), dialect="gemini")

    async def reads(input: BeforeToolSelectionInput) -> BeforeToolSelectionOutput:
        return BeforeToolSelectionOutput(
            tool_config=ToolConfig(mode="AUTO", allowed_function_names=["read_file"])
        )

    async def greps(input: BeforeToolSelectionInput) -> BeforeToolSelectionOutput:
        return BeforeToolSelectionOutput(
            tool_config=ToolConfig(mode="ANY", allowed_function_names=["grep", "read_file"])
        )

    registry = HookRegistry({"BeforeToolSelection": [HookMatcher(hooks=[reads, greps])]})
    result = await dispatch_payload(decoded, registry)
    assert text(result) == (
        '{"hookSpecificOutput":{"hookEventName":"BeforeToolSelection","toolConfig":'
        '{"mode":"ANY","allowedFunctionNames":["read_file","grep"]}}}'
    )


async def test_request_overrides_merge_key_by_key_and_a_chunk_rewrite_is_the_last() -> None:
    payload, _ = _payload("gemini", "BeforeModel")
    decoded = decode_payload(json.dumps(payload), dialect="gemini")

    async def cool(input: BeforeLLMCallInput) -> BeforeLLMCallOutput:
        return BeforeLLMCallOutput(llm_request={"config": {"temperature": 0}})

    async def model(input: BeforeLLMCallInput) -> BeforeLLMCallOutput:
        return BeforeLLMCallOutput(llm_request={"model": "gemini-2.5-pro"})

    registry = HookRegistry({"BeforeLLMCall": [HookMatcher(hooks=[cool, model])]})
    result = await dispatch_payload(decoded, registry)
    assert text(result) == (
        '{"hookSpecificOutput":{"hookEventName":"BeforeModel","llm_request":'
        '{"config":{"temperature":0},"model":"gemini-2.5-pro"}}}'
    )

    payload, _ = _payload("gemini", "AfterModel")
    decoded = decode_payload(json.dumps(payload), dialect="gemini")

    async def first(input: AfterModelChunkInput) -> AfterModelChunkOutput:
        return AfterModelChunkOutput(llm_response={"text": "a"})

    async def second(input: AfterModelChunkInput) -> AfterModelChunkOutput:
        return AfterModelChunkOutput(llm_response={"text": "b"})

    registry = HookRegistry({"AfterModelChunk": [HookMatcher(hooks=[first, second])]})
    result = await dispatch_payload(decoded, registry)
    assert json.loads(text(result))["hookSpecificOutput"]["llm_response"] == {"text": "b"}


def test_check_lists_them_as_typed(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    hook = {"type": "command", "command": "echo ok"}
    write(
        project / ".gemini" / "settings.json",
        {
            "hooks": {
                name: [{"hooks": [hook]}]
                for name in ("BeforeModel", "AfterModel", "BeforeToolSelection")
            }
        },
    )
    write(
        project / ".cursor" / "hooks.json",
        {
            "version": 1,
            "hooks": {
                name: [{"command": "echo ok"}]
                for name in ("afterAgentResponse", "afterAgentThought", "workspaceOpen")
            },
        },
    )
    write(
        project / ".github" / "hooks" / "h.json",
        {"version": 1, "hooks": {"userPromptTransformed": [{"bash": "echo ok"}]}},
    )
    report = check_json(tmp_path, "--project-dir", str(project), "--trust-project-hooks")
    events = report["events"]
    for name in (
        "BeforeLLMCall",
        "AfterModelChunk",
        "BeforeToolSelection",
        "AfterLLMCall",
        "AfterAgentThought",
        "WorkspaceOpen",
        "UserPromptTransformed",
    ):
        assert events[name] and all(e["typed"] for e in events[name]), name
    human = cli(tmp_path, "check", "--project-dir", str(project), "--trust-project-hooks")
    assert "not typed by this version" not in human.stdout


async def test_prompt_rewrites_chain() -> None:
    seen: list[str | None] = []

    def rewrite(tag: str) -> Any:
        async def hook(input: UserPromptTransformedInput) -> UserPromptTransformedOutput:
            seen.append(input.transformed_prompt)
            return UserPromptTransformedOutput(
                modified_transformed_prompt=f"{input.transformed_prompt} {tag}"
            )

        return hook

    registry = HookRegistry(
        {"UserPromptTransformed": [HookMatcher(hooks=[rewrite("A"), rewrite("B")])]}
    )
    async with registry.session() as s:
        d = await s.dispatch(UserPromptTransformedInput(prompt="p", transformed_prompt="t"))
    assert seen == ["t", "t A"]
    assert isinstance(d.output, UserPromptTransformedOutput)
    assert d.output.modified_transformed_prompt == "t A B"


def test_a_gemini_model_hook_answers_through_run(tmp_path: Path) -> None:
    """``agent-hooks run`` as Gemini CLI calls it: a BeforeModel hook of a Gemini file gets
    Gemini's payload, and its answer goes back in Gemini's shape."""
    project = tmp_path / "proj"
    seen = tmp_path / "seen.json"
    printed = (
        '{"hookSpecificOutput":{"hookEventName":"BeforeModel",'
        '"llm_request":{"config":{"temperature":0}}}}'
    )
    hook = script(
        project / ".gemini" / "hooks" / "cool.py",
        f"open({str(seen)!r}, 'w').write(sys.stdin.read())\nprint({printed!r})",
    )
    write(
        project / ".gemini" / "settings.json",
        {"hooks": {"BeforeModel": [{"hooks": [{"type": "command", "command": str(hook)}]}]}},
    )
    payload, _ = _payload("gemini", "BeforeModel")
    payload = {**payload, "cwd": str(project)}
    proc = cli(tmp_path, "run", "--discover", "--trust-project-hooks", stdin=payload)
    assert proc.stdout.strip() == printed, proc.stderr
    got = json.loads(seen.read_text())
    assert got["hook_event_name"] == "BeforeModel"
    assert got["llm_request"] == payload["llm_request"]
