"""The JSON Schemas of the harness-native payloads and answers (``typings/dialects/``):
generated, current, and true of every payload example of the digests and of every answer
``agent-hooks run`` writes back in those harnesses' shapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agent_hooks import PreToolUseOutput, StopOutput, UserPromptSubmitOutput
from agent_hooks._wire._native_schema import native_schemas
from tests.dialect_examples import COPILOT, CURSOR, GEMINI
from tests.dialect_helpers import answer

pytestmark = pytest.mark.anyio

TYPINGS = Path(__file__).resolve().parents[2] / "typings"
SCHEMAS = native_schemas()
EXAMPLES = (
    [("gemini", *e) for e in GEMINI]
    + [("cursor", *e) for e in CURSOR]
    + [("copilot", *e) for e in COPILOT]
)


def test_every_schema_is_written_and_current() -> None:
    for name, schema in SCHEMAS.items():
        path = TYPINGS / name
        assert path.is_file(), f"missing {name}: run python typings/generate.py"
        assert json.loads(path.read_text()) == schema, f"stale {name}"
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize(
    "example", EXAMPLES, ids=[f"{e[0]}-{e[1]}-{i}" for i, e in enumerate(EXAMPLES)]
)
def test_every_example_payload_fits_its_schema(example: tuple[Any, ...]) -> None:
    harness, native, _, payload, *_ = example
    jsonschema.validate(payload, SCHEMAS[f"dialects/{harness}.{native}.input.schema.json"])


@pytest.mark.parametrize(
    ("harness", "native", "event", "output"),
    [
        (
            "gemini",
            "BeforeTool",
            None,
            PreToolUseOutput(permission_decision="deny", permission_decision_reason="x"),
        ),
        ("gemini", "AfterAgent", None, StopOutput(decision="block", reason="x")),
        ("cursor", "beforeShellExecution", None, PreToolUseOutput(permission_decision="ask")),
        ("cursor", "stop", None, StopOutput(decision="block", reason="x")),
        (
            "cursor",
            "beforeSubmitPrompt",
            None,
            UserPromptSubmitOutput(decision="block", reason="x"),
        ),
        (
            "copilot",
            "preToolUse",
            "preToolUse",
            PreToolUseOutput(permission_decision="deny", permission_decision_reason="x"),
        ),
        ("copilot", "agentStop", "agentStop", StopOutput(decision="block", reason="x")),
    ],
)
async def test_answers_fit_their_schema(
    harness: str, native: str, event: str | None, output: Any
) -> None:
    source = {"gemini": GEMINI, "cursor": CURSOR, "copilot": COPILOT}[harness]
    payload = next(e[2] for e in source if e[0] == native)
    result = await answer(payload, output, dialect=harness, event=event)
    assert result.answer
    schema = SCHEMAS[f"dialects/{harness}.{native}.output.schema.json"]
    jsonschema.validate(result.answer, schema)
    assert set(result.answer) <= set(schema["properties"])
