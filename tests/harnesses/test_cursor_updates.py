"""Cursor (December 2026): more events than its rows list ("over twenty", such as
``postToolUseFailure``), ``type: "prompt"`` hooks on agent_hooks' model kind,
``failClosed`` blocking on an empty answer (and for an entry that cannot run here),
and plugin ``hooks/hooks.json`` files without ``version``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import DiagnosticCode, HookEvent, Severity, TrustPolicy, model_kinds
from tests.dialect_helpers import agent_hooks_cli

pytestmark = pytest.mark.anyio
ALL = TrustPolicy(store=None, trust_all=True)


def cursor_file(project: Path, hooks: dict[str, Any], **root: Any) -> Path:
    path = project / ".cursor" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": 1, **root, "hooks": hooks}))
    return path


def base(project: Path, event: str) -> dict[str, Any]:
    return {
        "hook_event_name": event,
        "conversation_id": "c1",
        "generation_id": "g1",
        "cursor_version": "3.9.16",
        "workspace_roots": [str(project)],
        "model": "claude-4.5-sonnet",
        "user_email": "dev@example.com",
        "transcript_path": None,
    }


def pre_tool(project: Path, command: str) -> dict[str, Any]:
    return {
        **base(project, "preToolUse"),
        "tool_name": "Shell",
        "tool_input": {"command": command},
        "tool_use_id": "t1",
        "cwd": str(project),
    }


def failure(project: Path) -> dict[str, Any]:
    return {
        **base(project, "postToolUseFailure"),
        "tool_name": "Shell",
        "tool_input": {"command": "false"},
        "tool_use_id": "t1",
        "cwd": str(project),
        "error_message": "exit status 1",
        "failure_type": "error",
        "duration": 12,
        "is_interrupt": False,
    }


def run(project: Path, payload: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return agent_hooks_cli(
        "run",
        "--config",
        str(project / ".cursor" / "hooks.json"),
        "--trust-project-hooks",
        cwd=project,
        home=project.parent / "home",
        state=project.parent / "state",
        hide=("CURSOR_",),
        payload=payload,
    )


def answer(proc: subprocess.CompletedProcess[str]) -> Any:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


# ------------------------------------------------------------------------ events


def test_post_tool_use_failure_decodes_and_its_hooks_get_cursor_s_payload(
    tmp_path: Path,
) -> None:
    project, seen = tmp_path / "proj", tmp_path / "seen.json"
    decoded = agent_hooks.decode_payload(failure(project), dialect="cursor")
    assert decoded.diagnostics == ()
    assert isinstance(decoded.input, agent_hooks.PostToolUseFailureInput)
    assert decoded.input.tool_name == "Bash" and decoded.input.error == "exit status 1"
    cursor_file(project, {"postToolUseFailure": [{"command": f"cat > {seen}"}]})
    assert answer(run(project, failure(project))) == {}
    got = json.loads(seen.read_text())
    assert got["hook_event_name"] == "postToolUseFailure" and got["tool_name"] == "Shell"
    assert (got["error_message"], got["failure_type"], got["is_interrupt"]) == (
        "exit status 1",
        "error",
        False,
    )


def test_an_event_cursor_has_but_the_rows_do_not_list_is_carried_untyped(
    tmp_path: Path,
) -> None:
    project, seen = tmp_path / "proj", tmp_path / "seen.json"
    path = cursor_file(
        project,
        {
            "afterTabAccept": [{"command": f"cat > {seen}"}],
            "PreToolUse": [{"command": "echo never"}],  # Claude's spelling: not Cursor's
        },
    )
    config = agent_hooks.load(path, harness="cursor", trust=ALL)
    assert [g.event for g in config.sources[0].groups] == ["afterTabAccept"]
    codes = {d.location: d.code for d in config.diagnostics}
    assert codes == {
        "hooks.afterTabAccept[0]": DiagnosticCode.UNTYPED_EVENT,
        "hooks.PreToolUse": DiagnosticCode.INVALID_CONFIG,
    }
    payload = {**base(project, "afterTabAccept"), "file_path": "src/a.py"}
    assert answer(run(project, payload)) == {}
    got = json.loads(seen.read_text())
    assert got["hook_event_name"] == "afterTabAccept" and got["file_path"] == "src/a.py"


# ------------------------------------------------------------------ prompt hooks


class Judge:
    def __init__(self, verdict: dict[str, Any]) -> None:
        self.verdict = verdict
        self.prompts: list[str] = []

    async def __call__(self, prompt: str, *, model: str | None, schema: str | None) -> Any:
        self.prompts.append(prompt)
        return self.verdict


@pytest.mark.parametrize(
    ("verdict", "expected"),
    [
        ({"ok": False, "reason": "rm -rf is not safe"}, "deny"),
        ({"ok": True}, None),
    ],
)
async def test_a_prompt_hook_asks_the_model_and_answers_in_cursor_s_shape(
    tmp_path: Path, verdict: dict[str, Any], expected: str | None
) -> None:
    project = tmp_path / "proj"
    entry = {"type": "prompt", "prompt": "Does this command look safe? $ARGUMENTS", "timeout": 10}
    path = cursor_file(project, {"preToolUse": [{**entry, "matcher": "Shell"}]})
    judge = Judge(verdict)
    config = agent_hooks.load(path, harness="cursor", trust=ALL, kinds=model_kinds(judge))
    assert config.diagnostics == ()
    (node,) = config.sources[0].groups[0].nodes
    assert node.kind == "prompt" and node.timeout == 10
    decoded = agent_hooks.decode_payload(pre_tool(project, "rm -rf /"), dialect="cursor")
    result = await agent_hooks.dispatch_payload(decoded, config.registry())
    assert result.answer.get("permission") == expected
    if expected == "deny":
        assert result.answer["user_message"] == "rm -rf is not safe"
    (prompt,) = judge.prompts
    asked = json.loads(prompt.removeprefix("Does this command look safe? "))
    assert asked["hook_event_name"] == "preToolUse" and asked["tool_name"] == "Shell"
    assert asked["conversation_id"] == "c1"


def test_without_a_model_client_a_prompt_hook_is_disabled_unless_fail_closed(
    tmp_path: Path,
) -> None:
    project = tmp_path / "proj"
    entry = {"type": "prompt", "prompt": "Does this command look safe?", "timeout": 10}
    path = cursor_file(project, {"preToolUse": [entry]})
    config = agent_hooks.load(path, harness="cursor", trust=ALL)
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.HANDLER_DISABLED and diag.severity is Severity.WARNING
    assert answer(run(project, pre_tool(project, "ls"))) == {}
    cursor_file(project, {"preToolUse": [{**entry, "failClosed": True}]})
    proc = run(project, pre_tool(project, "ls"))
    assert answer(proc)["permission"] == "deny"
    assert "blocks every call it matches" in proc.stderr


# -------------------------------------------------------------------- failClosed


@pytest.mark.parametrize(("fail_closed", "expected"), [(True, "deny"), (False, None)])
def test_fail_closed_blocks_an_empty_answer_on_pre_tool_use(
    tmp_path: Path, fail_closed: bool, expected: str | None
) -> None:
    project = tmp_path / "proj"
    cursor_file(project, {"preToolUse": [{"command": "true", "failClosed": fail_closed}]})
    assert answer(run(project, pre_tool(project, "ls"))).get("permission") == expected


# ------------------------------------------------------------------------ version


def test_plugin_hooks_may_omit_version_project_hooks_may_not(tmp_path: Path) -> None:
    doc = {"hooks": {"stop": [{"command": "echo plugin"}]}}
    plugin = tmp_path / "plugins" / "ralph" / "hooks" / "hooks.json"
    plugin.parent.mkdir(parents=True)
    plugin.write_text(json.dumps(doc))
    config = agent_hooks.load(plugin, harness="cursor", trust=ALL)
    assert config.diagnostics == ()
    assert [g.event for g in config.sources[0].groups] == [HookEvent.STOP]
    project = tmp_path / "proj" / ".cursor" / "hooks.json"
    project.parent.mkdir(parents=True)
    project.write_text(json.dumps(doc))
    (diag,) = agent_hooks.load(project, harness="cursor", trust=ALL).diagnostics
    assert diag.severity is Severity.WARNING and "version" in diag.message
