"""Full scenarios through the session's lifecycle helpers (agent_hooks._dispatch._lifecycle).

Python callbacks and shell hooks (small inline ``sh`` scripts reading the JSON
payload on stdin) are mixed in the same matchers. Every test runs on asyncio and trio.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import pytest

from agent_hooks import (
    CallbackHook,
    CommandHook,
    DiagnosticCode,
    HandlerResult,
    HookMatcher,
    HookRegistry,
    PermissionAnswer,
    PermissionPrompt,
    PermissionRequestDecision,
    PermissionRequestInput,
    PermissionRequestOutput,
    PostToolUseFailureInput,
    PostToolUseInput,
    PostToolUseOutput,
    PreToolUseInput,
    PreToolUseOutput,
    SessionEndInput,
    SessionStartInput,
    SessionStartOutput,
    Severity,
    StopInput,
    StopOutput,
    ToolInputTransformInput,
    ToolInputTransformOutput,
    ToolResponseTransformInput,
    ToolResponseTransformOutput,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
)

pytestmark = pytest.mark.anyio

# -------------------------------------------------------------- shell hooks

BLOCK_RM_RF = """
payload=$(cat)
case "$payload" in
  *'rm -rf'*) echo "rm -rf is not allowed" >&2; exit 2 ;;
esac
exit 0
"""

ASK_FOR_DEPLOY = """
payload=$(cat)
case "$payload" in
  *'deploy'*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"deploys need a human"}}' ;;
esac
"""

PERMISSION_ALLOW = (
    'printf \'%s\' \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest",'
    '"decision":{"behavior":"allow"}}}\''
)

# refuses with the decision object (Claude Code does not honour exit 2 on PermissionRequest)
PERMISSION_DENY = (
    'printf \'%s\' \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest",'
    '"decision":{"behavior":"deny","message":"not on a friday"}}}\''
)

# rewrites the command to a safe variant, and allows
REWRITE_TO_DRY_RUN = (
    'printf \'%s\' \'{"hookSpecificOutput":{"hookEventName":"PreToolUse",'
    '"permissionDecision":"allow","updatedInput":{"command":"make deploy --dry-run"}}}\''
)


class Recorder:
    """Typed callbacks that remember the inputs they saw."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    async def __call__(self, input: Any) -> None:
        self.seen.append(input)

    @property
    def events(self) -> list[str]:
        return [i.hook_event_name for i in self.seen]


class Tool:
    """A fake tool that records the inputs it ran with."""

    def __init__(self, result: Any = "ok", error: Exception | None = None) -> None:
        self.calls: list[dict[str, Any]] = []
        self.result = result
        self.error = error

    async def __call__(self, args: Mapping[str, Any]) -> Any:
        self.calls.append(dict(args))
        if self.error is not None:
            raise self.error
        return self.result


async def protect_env(input: PreToolUseInput) -> PreToolUseOutput | None:
    if str(input.tool_input.get("file_path", "")).endswith(".env"):
        return PreToolUseOutput(
            permission_decision="deny", permission_decision_reason=".env files are off limits"
        )
    return None


def all_tool_events(rec: Recorder) -> dict[str, list[HookMatcher]]:
    return {
        name: [HookMatcher(hooks=[rec])]
        for name in (
            "ToolInputTransform",
            "PermissionRequest",
            "PostToolUse",
            "PostToolUseFailure",
            "ToolResponseTransform",
        )
    }


# ------------------------------------------------------------------ deny


async def test_deny_skips_the_tool_and_post_tool_use_does_not_fire() -> None:
    rec = Recorder()
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    matcher="Bash|Edit", hooks=[protect_env, CommandHook(command=BLOCK_RM_RF)]
                )
            ],
            **all_tool_events(rec),
        }
    )
    tool = Tool()
    async with registry.session(session_id="deny") as session:
        by_shell = await session.call_tool("Bash", {"command": "rm -rf /"}, tool)
        by_python = await session.call_tool("Edit", {"file_path": "app/.env"}, tool)
        fine = await session.call_tool("Bash", {"command": "ls"}, tool)

    assert by_shell.denied and not by_shell.ran
    assert by_shell.reason == "rm -rf is not allowed"
    assert by_shell.model_view == "rm -rf is not allowed"
    assert by_python.denied and by_python.reason == ".env files are off limits"
    assert fine.ran and fine.model_view == "ok"
    assert tool.calls == [{"command": "ls"}]
    # the denied calls only saw ToolInputTransform; the allowed one went all the way
    assert rec.events == [
        "ToolInputTransform",
        "ToolInputTransform",
        "ToolInputTransform",
        "PostToolUse",
        "ToolResponseTransform",
    ]


async def test_deprecated_block_decision_from_a_typed_callback_denies() -> None:
    async def old_style(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(decision="block", reason="old-style block")

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[old_style])]})
    tool = Tool()
    async with registry.session() as session:
        outcome = await session.call_tool("Bash", {"command": "ls"}, tool)
    assert outcome.denied
    assert outcome.reason == "old-style block"
    assert tool.calls == []


# ------------------------------------------------------- ask / permission


async def test_ask_then_permission_request_hook_allows_and_app_is_still_consulted() -> None:
    prompts: list[PermissionPrompt] = []

    def app_permission(prompt: PermissionPrompt) -> bool:
        prompts.append(prompt)
        return True

    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Bash", hooks=[CommandHook(command=ASK_FOR_DEPLOY)])
            ],
            "PermissionRequest": [
                HookMatcher(matcher="Bash", hooks=[CommandHook(command=PERMISSION_ALLOW)])
            ],
        }
    )
    tool = Tool()
    async with registry.session() as session:
        outcome = await session.call_tool(
            "Bash", {"command": "make deploy"}, tool, tool_use_id="t1", permission=app_permission
        )
    assert outcome.ran and not outcome.denied
    assert tool.calls == [{"command": "make deploy"}]
    assert len(prompts) == 1
    assert prompts[0].hook_decision == "allow"
    assert prompts[0].tool_use_id == "t1"
    assert prompts[0].reason == "deploys need a human"


async def test_app_may_refuse_what_a_hook_allowed() -> None:
    registry = HookRegistry(
        {
            "PreToolUse": [HookMatcher(hooks=[CommandHook(command=ASK_FOR_DEPLOY)])],
            "PermissionRequest": [HookMatcher(hooks=[CommandHook(command=PERMISSION_ALLOW)])],
        }
    )

    async def refuse(prompt: PermissionPrompt) -> PermissionAnswer:
        return PermissionAnswer(allow=False, message="the operator said no")

    tool = Tool()
    async with registry.session() as session:
        outcome = await session.call_tool("Bash", {"command": "deploy"}, tool, permission=refuse)
    assert outcome.denied and outcome.reason == "the operator said no"
    assert tool.calls == []


async def test_ask_without_a_permission_callback_is_refused() -> None:
    rec = Recorder()
    registry = HookRegistry(
        {
            "PreToolUse": [HookMatcher(hooks=[CommandHook(command=ASK_FOR_DEPLOY)])],
            "PermissionRequest": [HookMatcher(hooks=[rec])],
        }
    )
    tool = Tool()
    async with registry.session() as session:
        outcome = await session.call_tool("Bash", {"command": "deploy"}, tool)
    assert outcome.denied and not outcome.ran
    assert outcome.reason == "deploys need a human"
    assert rec.events == ["PermissionRequest"]  # the hooks were asked first
    assert tool.calls == []


async def test_defer_goes_to_the_app_with_the_hooks_decision() -> None:
    async def defer(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="defer")

    prompts: list[PermissionPrompt] = []

    async def app(prompt: PermissionPrompt) -> PermissionAnswer:
        prompts.append(prompt)
        return PermissionAnswer(allow=True, updated_input={"command": "ls -l"})

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[defer])]})
    tool = Tool()
    async with registry.session() as session:
        outcome = await session.call_tool("Bash", {"command": "ls"}, tool, permission=app)
    assert [p.hook_decision for p in prompts] == ["defer"]
    assert tool.calls == [{"command": "ls -l"}]  # the app's rewrite is used
    assert outcome.input == {"command": "ls -l"}


async def test_permission_request_hook_denies() -> None:
    rec = Recorder()
    consulted: list[PermissionPrompt] = []
    registry = HookRegistry(
        {
            "PreToolUse": [HookMatcher(hooks=[CommandHook(command=ASK_FOR_DEPLOY)])],
            "PermissionRequest": [HookMatcher(hooks=[CommandHook(command=PERMISSION_DENY)])],
            "PostToolUse": [HookMatcher(hooks=[rec])],
        }
    )
    tool = Tool()
    async with registry.session() as session:
        outcome = await session.call_tool(
            "Bash", {"command": "deploy"}, tool, permission=consulted.append
        )
    assert outcome.denied and outcome.reason == "not on a friday"
    assert consulted == [] and tool.calls == [] and rec.seen == []


async def test_permission_request_deny_with_interrupt_stops_the_agent() -> None:
    async def ask(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="ask")

    async def deny_and_stop(input: PermissionRequestInput) -> PermissionRequestOutput:
        return PermissionRequestOutput(
            permission_decision=PermissionRequestDecision(
                behavior="deny", message="stop everything", interrupt=True
            )
        )

    registry = HookRegistry(
        {
            "PreToolUse": [HookMatcher(hooks=[ask])],
            "PermissionRequest": [HookMatcher(hooks=[deny_and_stop])],
        }
    )
    async with registry.session() as session:
        outcome = await session.call_tool("Bash", {"command": "ls"}, Tool())
    assert outcome.denied and outcome.reason == "stop everything"
    assert outcome.stop and outcome.stop_reason == "stop everything"


async def test_permission_callback_that_raises_counts_as_deny() -> None:
    def broken(prompt: PermissionPrompt) -> bool:
        raise RuntimeError("permission service down")

    tool = Tool()
    async with HookRegistry().session() as session:
        outcome = await session.call_tool("Bash", {"command": "ls"}, tool, permission=broken)
    assert outcome.denied and not outcome.ran
    assert tool.calls == []
    assert any(
        d.code is DiagnosticCode.HANDLER_ERROR and "permission service down" in d.message
        for d in outcome.diagnostics
    )


async def test_no_hooks_and_no_callback_runs_the_tool() -> None:
    tool = Tool(result={"stdout": "hi"})
    async with HookRegistry().session() as session:
        outcome = await session.call_tool("Bash", {"command": "echo hi"}, tool)
    assert (
        outcome.ran
        and outcome.model_view == {"stdout": "hi"}
        and outcome.result == {"stdout": "hi"}
    )
    assert outcome.duration_ms is not None and outcome.duration_ms >= 0


# ------------------------------------------------------------- rewrites


async def test_updated_input_reaches_the_tool() -> None:
    rec = Recorder()
    registry = HookRegistry(
        {
            "PreToolUse": [HookMatcher(hooks=[CommandHook(command=REWRITE_TO_DRY_RUN)])],
            "PostToolUse": [HookMatcher(hooks=[rec])],
        }
    )
    tool = Tool()
    async with registry.session() as session:
        outcome = await session.call_tool("Bash", {"command": "make deploy"}, tool)
    assert tool.calls == [{"command": "make deploy --dry-run"}]
    assert outcome.input == {"command": "make deploy --dry-run"}
    assert rec.seen[0].tool_input == {"command": "make deploy --dry-run"}


async def test_a_rewritten_input_never_skips_a_deny() -> None:
    async def deny_deploys(input: PreToolUseInput) -> PreToolUseOutput | None:
        if "deploy" in str(input.tool_input.get("command")):
            return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no")
        return None

    # parallel (default): the rewrite (and its allow) and the deny are reduced together
    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CommandHook(command=REWRITE_TO_DRY_RUN), deny_deploys])]}
    )
    tool = Tool()
    async with registry.session() as session:
        outcome = await session.call_tool("Bash", {"command": "make deploy"}, tool)
    assert outcome.denied and outcome.reason == "no" and tool.calls == []

    # chained: the denying hook sees the rewrite, and still denies
    chained = registry.evolve(execution={"PreToolUse": "chained"})
    async with chained.session() as session:
        outcome = await session.call_tool("Bash", {"command": "make deploy"}, tool)
    assert outcome.denied and tool.calls == []

    # a transform that rewrites into something dangerous is still seen by PreToolUse
    async def sneaky(input: ToolInputTransformInput) -> ToolInputTransformOutput:
        return ToolInputTransformOutput(updated_input={"command": "rm -rf /"})

    guarded = HookRegistry(
        {
            "ToolInputTransform": [HookMatcher(hooks=[sneaky])],
            "PreToolUse": [HookMatcher(hooks=[CommandHook(command=BLOCK_RM_RF)])],
        }
    )
    async with guarded.session() as session:
        outcome = await session.call_tool("Bash", {"command": "ls"}, tool)
    assert outcome.denied and outcome.input == {"command": "rm -rf /"} and tool.calls == []


async def test_transforms_chain_and_post_tool_use_sees_the_transformed_response() -> None:
    async def add_flag(input: ToolInputTransformInput) -> ToolInputTransformOutput:
        return ToolInputTransformOutput(
            updated_input={**input.tool_input, "flags": [*input.tool_input.get("flags", []), "a"]}
        )

    async def add_other_flag(input: ToolInputTransformInput) -> ToolInputTransformOutput:
        return ToolInputTransformOutput(
            updated_input={**input.tool_input, "flags": [*input.tool_input.get("flags", []), "b"]}
        )

    async def upper(input: ToolResponseTransformInput) -> ToolResponseTransformOutput:
        return ToolResponseTransformOutput(updated_tool_response=str(input.tool_response).upper())

    async def exclaim(input: ToolResponseTransformInput) -> ToolResponseTransformOutput:
        return ToolResponseTransformOutput(updated_tool_response=f"{input.tool_response}!")

    post = Recorder()
    registry = HookRegistry(
        {
            "ToolInputTransform": [HookMatcher(hooks=[add_flag, add_other_flag])],
            "ToolResponseTransform": [HookMatcher(hooks=[upper, exclaim])],
            "PostToolUse": [HookMatcher(hooks=[post])],
        }
    )
    tool = Tool(result="done")
    async with registry.session() as session:
        outcome = await session.call_tool("Bash", {"command": "x"}, tool)
    assert tool.calls == [{"command": "x", "flags": ["a", "b"]}]
    assert outcome.model_view == "DONE!"
    assert outcome.result == "done"
    # issue order: the tool -> PostToolUse (raw result) -> ToolResponseTransform
    assert post.seen[0].tool_response == "done"


# ----------------------------------------------------------- PostToolUse


async def test_post_tool_use_block_replaces_what_the_model_sees() -> None:
    registry = HookRegistry(
        {
            "PostToolUse": [
                HookMatcher(
                    matcher="Write",
                    hooks=[
                        CommandHook(command="echo 'lint failed: missing semicolon' >&2; exit 2")
                    ],
                )
            ]
        }
    )
    tool = Tool(result={"success": True})
    async with registry.session() as session:
        outcome = await session.call_tool("Write", {"file_path": "a.js"}, tool)
    assert outcome.ran and tool.calls  # the tool already ran
    assert outcome.result == {"success": True}
    assert outcome.model_view == "lint failed: missing semicolon"


async def test_post_tool_use_updated_tool_output_and_context() -> None:
    async def scrub(input: PostToolUseInput) -> PostToolUseOutput:
        return PostToolUseOutput(
            updated_tool_output={"stdout": "[scrubbed]"}, additional_context="output was scrubbed"
        )

    async def pre_note(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(additional_context="pre note")

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[pre_note])], "PostToolUse": [HookMatcher(hooks=[scrub])]}
    )
    async with registry.session() as session:
        outcome = await session.call_tool("Bash", {"command": "env"}, Tool({"stdout": "SECRET"}))
    assert outcome.model_view == {"stdout": "[scrubbed]"}
    assert outcome.result == {"stdout": "SECRET"}
    assert outcome.context == "pre note\noutput was scrubbed"


async def test_continue_false_asks_the_agent_to_stop() -> None:
    stop_all = (
        'printf \'%s\' \'{"continue":false,"stopReason":"budget exhausted",'
        '"systemMessage":"stopping now"}\''
    )
    registry = HookRegistry({"PostToolUse": [HookMatcher(hooks=[CommandHook(command=stop_all)])]})
    async with registry.session() as session:
        outcome = await session.call_tool("Bash", {"command": "ls"}, Tool())
    assert outcome.ran and outcome.stop and outcome.stop_reason == "budget exhausted"
    assert outcome.messages == ("stopping now",)


# ------------------------------------------------------------ tool errors


async def test_a_tool_that_raises_fires_post_tool_use_failure() -> None:
    failures: list[PostToolUseFailureInput] = []
    post = Recorder()

    async def on_failure(input: PostToolUseFailureInput) -> None:
        failures.append(input)

    registry = HookRegistry(
        {
            "PostToolUseFailure": [
                HookMatcher(
                    hooks=[
                        on_failure,
                        CommandHook(
                            command='printf \'%s\' \'{"hookSpecificOutput":{"hookEventName":'
                            '"PostToolUseFailure","additionalContext":"try --force"}}\''
                        ),
                    ]
                )
            ],
            "PostToolUse": [HookMatcher(hooks=[post])],
        }
    )
    tool = Tool(error=FileNotFoundError("no such file: x.txt"))
    async with registry.session() as session:
        outcome = await session.call_tool("Read", {"file_path": "x.txt"}, tool, tool_use_id="r1")
        assert outcome.ran and not outcome.denied
        assert isinstance(outcome.error, FileNotFoundError)
        assert outcome.model_view == "Error: FileNotFoundError: no such file: x.txt"
        assert outcome.context == "try --force"
        assert failures[0].error == "FileNotFoundError: no such file: x.txt"
        assert failures[0].tool_use_id == "r1"
        assert post.seen == []

        with pytest.raises(FileNotFoundError):
            await session.call_tool("Read", {"file_path": "x.txt"}, tool, raise_errors=True)
        assert len(failures) == 2  # the failure hooks ran before it was re-raised


async def test_sync_tools_work_too() -> None:
    async with HookRegistry().session() as session:
        outcome = await session.call_tool("Add", {"a": 1, "b": 2}, lambda a: a["a"] + a["b"])
    assert outcome.model_view == 3


# -------------------------------------------------------------------- Stop


async def test_stop_continuation_with_feedback_until_the_condition_holds(tmp_path: Path) -> None:
    marker = tmp_path / "tests-passed"
    seen_active: list[bool | None] = []

    async def until_tests_pass(input: StopInput) -> StopOutput | None:
        seen_active.append(input.stop_hook_active)
        if marker.exists():
            return None
        return StopOutput(decision="block", reason="run the tests before stopping")

    # the same rule in a shell hook, reading stop_hook_active from the payload
    shell_note = """
payload=$(cat)
case "$payload" in
  *'"stop_hook_active":true'*) echo "(already continuing)" >&2 ;;
esac
exit 0
"""
    registry = HookRegistry(
        {"Stop": [HookMatcher(hooks=[until_tests_pass, CommandHook(command=shell_note)])]}
    )
    async with registry.session(session_id="stop") as session:
        first = await session.check_stop("I'm done")
        assert not first.should_stop
        assert first.feedback == "run the tests before stopping"
        second = await session.check_stop("still done")
        assert not second.should_stop and not second.capped
        marker.write_text("ok")
        third = await session.check_stop("tests pass")
        assert third.should_stop and third.feedback is None
        fourth = await session.check_stop("new turn")
        assert fourth.should_stop
    assert seen_active == [False, True, True, False]


async def test_stop_continuation_cap() -> None:
    async def never_done(input: StopInput) -> StopOutput:
        return StopOutput(decision="block", reason="keep going")

    registry = HookRegistry(
        {
            "Stop": [
                HookMatcher(hooks=[CommandHook(command="echo 'not yet' >&2; exit 2"), never_done])
            ]
        },
        stop_continuation_cap=2,
    )
    async with registry.session() as session:
        outcomes = [await session.check_stop() for _ in range(4)]
    assert [o.should_stop for o in outcomes] == [False, False, True, False]
    assert [o.capped for o in outcomes] == [False, False, True, False]
    assert outcomes[0].feedback == "not yet\nkeep going"
    assert outcomes[2].decision is not None
    assert outcomes[2].decision.input.stop_hook_active is True
    assert outcomes[3].decision is not None
    assert outcomes[3].decision.input.stop_hook_active is False  # counting started over


# ------------------------------------------------------------- SessionStart


async def test_session_start_context_persists_including_plain_stdout() -> None:
    async def conventions(input: SessionStartInput) -> SessionStartOutput:
        return SessionStartOutput(additional_context="Use tabs.")

    registry = HookRegistry(
        {
            "SessionStart": [
                HookMatcher(
                    matcher="startup", hooks=[conventions, CommandHook(command="echo hello")]
                )
            ]
        }
    )
    async with registry.session(session_id="ctx") as session:
        outcome = await session.start()
        assert outcome.context == "Use tabs.\nhello"
        assert session.persistent_context == ["Use tabs.\nhello"]
        resumed = await session.start("resume")  # the matcher is for startup only
        assert resumed.context is None
        assert session.persistent_context == ["Use tabs.\nhello"]
        turn = await session.turn_start()
        assert turn.context is None  # persistent context is the application's to keep


# ---------------------------------------------------------- UserPromptSubmit


async def test_user_prompt_submit_block_context_and_suppress() -> None:
    async def no_passwords(input: UserPromptSubmitInput) -> UserPromptSubmitOutput | None:
        if "password" in (input.prompt or ""):
            return UserPromptSubmitOutput(
                decision="block",
                reason="prompts must not contain passwords",
                suppress_original_prompt=True,
            )
        return None

    block_drop = """
payload=$(cat)
case "$payload" in
  *'drop table'*) echo "no destructive SQL" >&2; exit 2 ;;
esac
echo "Ticket context: JIRA-42"
"""
    registry = HookRegistry(
        {"UserPromptSubmit": [HookMatcher(hooks=[no_passwords, CommandHook(command=block_drop)])]}
    )
    async with registry.session() as session:
        ok = await session.submit_prompt("fix the bug")
        assert not ok.blocked and ok.context == "Ticket context: JIRA-42"
        shell_block = await session.submit_prompt("please drop table users")
        assert shell_block.blocked and shell_block.reason == "no destructive SQL"
        assert not shell_block.suppress_original
        py_block = await session.submit_prompt("my password is hunter2")
        assert py_block.blocked and py_block.suppress_original
        assert py_block.reason == "prompts must not contain passwords"


# ------------------------------------------------------------ BeforeLLMCall


async def test_before_llm_call_block_and_rewrite() -> None:
    script = """
payload=$(cat)
case "$payload" in
  *'"iteration":3'*) echo "budget of 2 calls exceeded" >&2; exit 2 ;;
esac
"""

    async def drop_system(input: Any) -> Any:
        from agent_hooks import BeforeLLMCallOutput

        msgs = [m for m in (input.messages or []) if m.get("role") != "system"]
        return BeforeLLMCallOutput(messages=msgs)

    registry = HookRegistry(
        {"BeforeLLMCall": [HookMatcher(hooks=[CommandHook(command=script), drop_system])]}
    )
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
    async with registry.session() as session:
        first = await session.before_llm_call(messages, iteration=1)
        assert not first.blocked
        assert first.rewritten == [{"role": "user", "content": "u"}]
        third = await session.before_llm_call(messages, iteration=3)
        assert third.blocked and third.reason == "budget of 2 calls exceeded"


async def test_turn_start_turn_end_and_after_llm_call() -> None:
    rec = Recorder()
    registry = HookRegistry(
        {name: [HookMatcher(hooks=[rec])] for name in ("TurnStart", "TurnEnd", "AfterLLMCall")}
    )
    async with registry.session(session_id="t") as session:
        await session.turn_start()
        await session.after_llm_call(stop_response="hi", cost=0.01)
        await session.turn_end("normal")
    assert rec.events == ["TurnStart", "AfterLLMCall", "TurnEnd"]
    assert rec.seen[1].cost == 0.01
    assert rec.seen[2].reason == "normal"
    assert all(i.session_id == "t" for i in rec.seen)


# --------------------------------------------------------------- background


async def test_background_context_is_delivered_with_the_next_tool_call() -> None:
    finished = anyio.Event()
    release = anyio.Event()

    async def slow_review(input: PostToolUseInput) -> PostToolUseOutput:
        await release.wait()  # (still running when the first call_tool returns)
        return PostToolUseOutput(additional_context=f"review of {input.tool_input['command']}: ok")

    def on_result(result: HandlerResult) -> None:
        finished.set()

    registry = HookRegistry(
        {"PostToolUse": [HookMatcher(hooks=[CallbackHook(callback=slow_review, background=True)])]}
    )
    async with registry.session(on_background_result=on_result) as session:
        first = await session.call_tool("Bash", {"command": "ls"}, Tool())
        assert first.context is None  # fire-and-forget: not waited for
        release.set()
        with anyio.fail_after(5):
            await finished.wait()
        second = await session.call_tool("Bash", {"command": "pwd"}, Tool())
    assert second.context is not None
    assert "review of ls: ok" in second.context


# --------------------------------------------------------------- SessionEnd


async def test_session_end_runs_while_the_task_is_being_cancelled(tmp_path: Path) -> None:
    ended: list[SessionEndInput] = []
    log = tmp_path / "end.log"

    async def on_end(input: SessionEndInput) -> None:
        await anyio.sleep(0.01)  # a checkpoint: it would be cancelled without the shield
        ended.append(input)

    registry = HookRegistry(
        {
            "SessionEnd": [
                HookMatcher(hooks=[on_end, CommandHook(command=f"cat > {json.dumps(str(log))}")])
            ]
        }
    )
    async with registry.session(session_id="bye") as session:
        with anyio.CancelScope() as scope:
            try:
                scope.cancel()
                await anyio.sleep(10)  # cancelled here
            finally:
                outcome = await session.end("prompt_input_exit")
        assert scope.cancelled_caught
    assert [e.reason for e in ended] == ["prompt_input_exit"]
    payload = json.loads(log.read_text())
    assert payload["hook_event_name"] == "SessionEnd"
    assert payload["session_id"] == "bye"
    assert not outcome.blocked


async def test_continue_false_on_pre_tool_use_skips_the_tool() -> None:
    async def stop_everything(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(
            continue_=False, stop_reason="build broken", permission_decision="allow"
        )

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[stop_everything])]})
    tool = Tool()
    async with registry.session() as session:
        outcome = await session.call_tool("Bash", {"command": "ls"}, tool)
    assert not outcome.ran and tool.calls == []
    assert outcome.stop and outcome.stop_reason == "build broken"


# ------------------------------------------------- the session's cwd (issue 14)

PRINT_PWD = "pwd; exit 0"  # plain stdout: context on UserPromptSubmit


async def test_a_cwd_that_does_not_exist_is_an_error_on_the_first_decision(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="agent_hooks")
    missing = str(tmp_path / "no" / "such" / "dir")
    registry = HookRegistry(
        {"UserPromptSubmit": [HookMatcher(hooks=[CommandHook(command=PRINT_PWD)])]}
    )
    # The session still opens and works: the path is only the payload's cwd.
    async with registry.session(session_id="s", cwd=missing, project_dir=str(tmp_path)) as s:
        first = await s.dispatch(UserPromptSubmitInput(prompt="hi"))
        second = await s.dispatch(UserPromptSubmitInput(prompt="again"))
    (diag,) = [d for d in first.diagnostics if d.code is DiagnosticCode.INVALID_CWD]
    assert diag.severity is Severity.ERROR
    assert repr(missing) in diag.message and "is not an existing directory" in diag.message
    assert f"command hooks run in the project_dir {str(tmp_path)!r}" in diag.message
    assert first.input.cwd == missing  # hooks are told what they were told
    assert first.context == str(tmp_path)  # ... and the command ran where it says
    assert not [d for d in second.diagnostics if d.code is DiagnosticCode.INVALID_CWD]
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in logged] == [f"agent_hooks UserPromptSubmit dispatch: {diag}"]


async def test_a_project_dir_that_does_not_exist_is_an_error_too(tmp_path: Path) -> None:
    registry = HookRegistry({"Stop": [HookMatcher(hooks=[CommandHook(command="true")])]})
    missing = str(tmp_path / "gone")
    async with registry.session(cwd=missing, project_dir=missing + "2") as session:
        decision = await session.dispatch(StopInput())
    messages = [d.message for d in decision.diagnostics if d.code is DiagnosticCode.INVALID_CWD]
    assert len(messages) == 2
    assert "this process's working directory" in messages[0]
    assert "project_dir" in messages[1] and "CLAUDE_PROJECT_DIR" in messages[1]


async def test_a_cwd_that_exists_or_no_command_hook_says_nothing(tmp_path: Path) -> None:
    async def note(input: StopInput) -> None:
        return None

    python_only = HookRegistry({"Stop": [HookMatcher(hooks=[note])]})
    with_command = HookRegistry({"Stop": [HookMatcher(hooks=[CommandHook(command="true")])]})
    for registry, cwd in [
        (python_only, "/no/such/dir/at/all"),  # nothing runs in it: nothing falls back
        (with_command, str(tmp_path)),
    ]:
        async with registry.session(cwd=cwd) as session:
            decision = await session.dispatch(StopInput())
        assert decision.diagnostics == ()


async def test_check_stop_lets_the_agent_stop_on_continue_false_whatever_else() -> None:
    """README: a hook's ``continue: false`` makes ``should_stop`` true, even with a block."""

    async def block_and_halt(input: StopInput) -> StopOutput:
        return StopOutput(decision="block", reason="keep going", continue_=False)

    registry = HookRegistry({"Stop": [HookMatcher(hooks=[block_and_halt])]})
    async with registry.session() as session:
        outcome = await session.check_stop("done")
    assert outcome.should_stop and outcome.feedback is None and not outcome.capped
    assert outcome.decision is not None and not outcome.decision.should_continue
