"""Command hooks: every rule of the command-handler contract, through the public API.

Each test builds a registry with :class:`CommandHook` handlers, opens a session
and dispatches a typed input, then asserts on the :class:`Decision` (output,
blocked, reason, results, diagnostic codes).  Hook programs are inline ``sh``
scripts or ``python -c`` programs (the interpreter running the tests, so that
no ``python3`` shim start-up cost is paid).  Every async test runs on asyncio
and on trio.  Nothing sleeps to wait for concurrency: tests synchronise on
FIFOs, events and pidfds.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import pytest

from agent_hooks import (
    CommandHook,
    Decision,
    DiagnosticCode,
    HandlerResult,
    HookInput,
    HookMatcher,
    HookRegistry,
    NotificationInput,
    Outcome,
    PermissionRequestInput,
    PostToolUseInput,
    PreToolUseInput,
    RegistrationError,
    SessionStartInput,
    Severity,
    Source,
    StopInput,
    UserPromptExpansionInput,
    UserPromptSubmitInput,
    WorktreeCreateInput,
)
from agent_hooks._handlers._command import timeout_diagnostic
from agent_hooks._wire._dialects import CLAUDE, DEEPAGENTS, DOCKER
from tests.process_helpers import read_fifo_line, wait_gone

pytestmark = pytest.mark.anyio

PY = sys.executable
QPY = shlex.quote(PY)


# --------------------------------------------------------------------------- #
# Helpers
# --------------------------------------------------------------------------- #


def bash_call(**tool_input: Any) -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input=tool_input or {"command": "ls"})


def prompt(text: str = "hello") -> UserPromptSubmitInput:
    return UserPromptSubmitInput(prompt=text)


def py(code: str, *args: str) -> str:
    """A shell-form command running ``code`` with the test interpreter."""
    return " ".join([QPY, "-c", shlex.quote(code), *map(shlex.quote, args)])


def registry(
    hooks: Iterable[Any],
    event: Any,
    *,
    matcher: str | None = None,
    dialect: Any = None,
    source_env: Mapping[str, str] | None = None,
    **options: Any,
) -> HookRegistry:
    source = Source(label="test", dialect=dialect or CLAUDE, env=dict(source_env or {}))
    return HookRegistry(
        {event: [HookMatcher(matcher=matcher, hooks=list(hooks))]}, source=source, **options
    )


async def dispatch(
    hooks: CommandHook | Iterable[Any],
    input: HookInput[Any],
    tmp_path: Path,
    *,
    session: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> Decision[Any]:
    """Dispatch ``input`` through a fresh registry holding ``hooks`` in one group."""
    if isinstance(hooks, CommandHook):
        hooks = [hooks]
    reg = registry(hooks, input.event, **kwargs)
    opts = {"project_dir": str(tmp_path), "cwd": str(tmp_path), **(session or {})}
    async with reg.session(**opts) as s:
        return await s.dispatch(input)


def whole_context(d: Decision[Any]) -> str | None:
    """The context as the hooks printed it (a message longer than the claude dialect's
    10,000 characters is shown as a preview; its ``full`` text is the whole of it)."""
    text = d.output.additional_context
    return getattr(text, "full", text)


def codes(obj: Decision[Any] | HandlerResult) -> set[DiagnosticCode]:
    return {d.code for d in obj.diagnostics}


def only(decision: Decision[Any]) -> HandlerResult:
    assert len(decision.results) == 1, decision.results
    return decision.results[0]


def env_dump(path: Path) -> CommandHook:
    """A hook writing its whole environment as JSON into ``path`` (exec form)."""
    code = "import json, os, sys; json.dump(dict(os.environ), open(sys.argv[1], 'w'))"
    return CommandHook(argv=[PY, "-c", code, str(path)])


def real(path: Path) -> str:
    return os.path.realpath(path)


def listing(directory: Path, pattern: str = "*") -> list[str]:
    return sorted(p.name for p in directory.glob(pattern))


def read_env(path: Path) -> dict[str, str]:
    data: dict[str, str] = json.loads(path.read_text())
    return data


# --------------------------------------------------------------------------- #
# Fields and registration
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"command": "true", "argv": ["true"]},
        {"command": ""},
        {"command": "   "},
        {"argv": []},
        {"argv": "true"},
        {"argv": ["true", 1]},
        {"command": "true", "timeout": 0},
        {"command": "true", "timeout": -1},
        {"command": "true", "on_error": "explode"},
    ],
)
def test_invalid_command_hooks_are_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(RegistrationError):
        CommandHook(**kwargs)


def test_fields_and_defaults() -> None:
    hook = CommandHook(command="echo hi")
    assert hook.timeout is None
    assert hook.env == {}
    assert hook.working_dir is None
    assert hook.on_error is None
    assert (hook.async_, hook.async_rewake) == (False, False)
    assert hook.shell is None
    assert hook.output_cap == 100_000
    assert hook.display_name == "echo hi"
    assert CommandHook(argv=["a", "b c"]).display_name == "a b c"
    assert CommandHook(command="x", name="guard").display_name == "guard"


async def test_name_status_message_and_kind_reach_the_result(tmp_path: Path) -> None:
    hook = CommandHook(command="true", name="guard", status_message="Checking...")
    d = await dispatch(hook, bash_call(), tmp_path)
    info = only(d).handler
    assert info is not None
    assert (info.name, info.kind, info.status_message) == ("guard", "command", "Checking...")
    d = await dispatch(CommandHook(command="true"), bash_call(), tmp_path)
    info = only(d).handler
    assert info is not None and info.name == "true"


async def test_exit_zero_without_output_is_no_opinion(tmp_path: Path) -> None:
    d = await dispatch(CommandHook(command="true"), bash_call(), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.OK
    assert r.exit_code == 0
    assert r.output is None
    assert not d.blocked
    assert d.output == type(d.output)()


# --------------------------------------------------------------------------- #
# Spawning: exec form, shell form, fast path, process group, cwd
# --------------------------------------------------------------------------- #


async def test_exec_form_passes_arguments_verbatim_without_a_shell(tmp_path: Path) -> None:
    args = ["$HOME", "a b;c", "`id`", "$(touch PWNED)", "*", "~"]
    code = "import sys; print(repr(sys.argv[1:]))"
    d = await dispatch(CommandHook(argv=[PY, "-c", code, *args]), prompt(), tmp_path)
    assert d.context == repr(args)
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("echo ~", os.path.expanduser("~")),
        ('echo "${GREETING} world"', "hello world"),
        ("true && echo and", "and"),
        ("false || echo or", "or"),
        ("echo $(echo nested)", "nested"),
        ("printf 'b\\na\\nc\\n' | sort | head -n 1", "a"),
        ('x=1\nif [ "$x" = 1 ]; then\n  echo multi\nfi\n', "multi"),
        ("cat <<'EOF'\nhere doc\nEOF", "here doc"),
        ("echo a   b    c", "a b c"),
    ],
)
async def test_shell_form_runs_through_sh(tmp_path: Path, command: str, expected: str) -> None:
    hook = CommandHook(command=command, env={"GREETING": "hello"})
    d = await dispatch(hook, prompt(), tmp_path)
    assert d.context == expected, d.diagnostics


async def test_shell_option_picks_the_shell(tmp_path: Path) -> None:
    hook = CommandHook(command='[[ a == a ]] && echo "$BASH_VERSION"', shell="bash")
    d = await dispatch(hook, prompt(), tmp_path)
    assert d.context and d.context[0].isdigit()


async def test_fast_path_needs_no_shell(tmp_path: Path) -> None:
    # With no shell reachable on PATH, a shell-form command without shell syntax
    # still runs (exec'd directly: one process fewer); one with syntax cannot start.
    no_path = {"PATH": "/nonexistent"}
    fast = CommandHook(command="/bin/echo fast path", env=no_path)
    d = await dispatch(fast, prompt(), tmp_path)
    assert d.context == "fast path"
    assert only(d).outcome is Outcome.OK

    slow = CommandHook(command="/bin/echo fast path && true", env=no_path)
    d = await dispatch(slow, prompt(), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.ERROR
    assert DiagnosticCode.LAUNCH_FAILED in codes(r)
    assert d.context is None


async def test_fast_path_behaves_like_the_shell(tmp_path: Path) -> None:
    no_exec = tmp_path / "no_exec.sh"
    no_exec.write_text("#!/bin/sh\necho never\n")
    no_shebang = tmp_path / "no_shebang"
    no_shebang.write_text("echo from a script without shebang\n")
    no_shebang.chmod(0o755)
    pairs = [
        # (fast-path command, same thing forced through the shell)
        ("/nonexistent/prog --flag", "/nonexistent/prog --flag;"),
        (str(no_exec), f"{no_exec};"),
        (str(no_shebang), f"{no_shebang};"),
        ("exit 3", "exit 3;"),  # builtin first word: always the shell
        ("printf x", "printf x;"),
        ("echo a   b", "echo a   b;"),
    ]
    for fast, shell in pairs:
        a = only(await dispatch(CommandHook(command=fast), prompt(), tmp_path))
        b = only(await dispatch(CommandHook(command=shell), prompt(), tmp_path))
        assert (a.outcome, a.exit_code) == (b.outcome, b.exit_code), (fast, a, b)
        assert a.output == b.output, (fast, a, b)
    r = only(await dispatch(CommandHook(command="/nonexistent/prog --flag"), prompt(), tmp_path))
    assert r.exit_code == 127
    assert r.reason is not None and "not found" in r.reason
    r = only(await dispatch(CommandHook(command=str(no_exec)), prompt(), tmp_path))
    assert r.exit_code == 126
    r = only(await dispatch(CommandHook(command="exit 3"), prompt(), tmp_path))
    assert r.exit_code == 3


async def test_hook_runs_in_its_own_session_and_process_group(tmp_path: Path) -> None:
    code = "import os; print(os.getsid(0) == os.getpid() == os.getpgid(0), os.getppid())"
    d = await dispatch(CommandHook(argv=[PY, "-c", code]), prompt(), tmp_path)
    assert d.context == f"True {os.getpid()}"


async def test_cwd_is_the_payload_cwd(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    hook = CommandHook(command="pwd -P")
    d = await dispatch(hook, UserPromptSubmitInput(prompt="x", cwd=str(sub)), tmp_path)
    assert d.context == real(sub)
    # the session's cwd fills an input that has none
    other = tmp_path / "other"
    other.mkdir()
    d = await dispatch(hook, prompt(), tmp_path, session={"cwd": str(other)})
    assert d.context == real(other)


async def test_working_dir_overrides_the_payload_cwd(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    rel = tmp_path / "rel" / "dir"
    elsewhere = tmp_path / "elsewhere"
    for p in (sub, rel, elsewhere):
        p.mkdir(parents=True)
    payload = UserPromptSubmitInput(prompt="x", cwd=str(sub))
    d = await dispatch(CommandHook(command="pwd -P", working_dir=str(elsewhere)), payload, tmp_path)
    assert d.context == real(elsewhere)
    # relative: against the project dir, not the payload's cwd
    d = await dispatch(CommandHook(command="pwd -P", working_dir="rel/dir"), payload, tmp_path)
    assert d.context == real(rel)


async def test_missing_working_dir_is_a_launch_failure(tmp_path: Path) -> None:
    hook = CommandHook(command="pwd", working_dir="does/not/exist")
    r = only(await dispatch(hook, bash_call(), tmp_path))
    assert r.outcome is Outcome.ERROR
    assert DiagnosticCode.LAUNCH_FAILED in codes(r)


async def test_missing_payload_cwd_falls_back_to_the_project_dir(tmp_path: Path) -> None:
    payload = UserPromptSubmitInput(prompt="x", cwd=str(tmp_path / "gone"))
    d = await dispatch(CommandHook(command="pwd -P"), payload, tmp_path)
    assert d.context == real(tmp_path)


# --------------------------------------------------------------------------- #
# stdin: the payload, then EOF; never on the command line
# --------------------------------------------------------------------------- #


async def test_payload_is_written_to_stdin_then_closed(tmp_path: Path) -> None:
    code = (
        "import json, sys; d = json.load(sys.stdin); rest = sys.stdin.read(); "
        "print(d['hook_event_name'], d['prompt'], d['cwd'], repr(rest))"
    )
    d = await dispatch(CommandHook(argv=[PY, "-c", code]), prompt("hi there"), tmp_path)
    assert d.context == f"UserPromptSubmit hi there {tmp_path} ''"


async def test_payload_is_encoded_for_the_source_dialect(tmp_path: Path) -> None:
    code = "import json, sys; print(json.load(sys.stdin)['hook_event_name'])"
    d = await dispatch(CommandHook(argv=[PY, "-c", code]), prompt(), tmp_path, dialect=DOCKER)
    assert d.context == "user_prompt_submit"


async def test_cat_reaches_eof(tmp_path: Path) -> None:
    # cat copies stdin and exits at EOF: the payload comes back as stdout (a JSON object
    # that is not an answer: unknown keys are reported, nothing is decided)
    d = await dispatch(CommandHook(command="cat"), bash_call(command="ls"), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.OK and r.exit_code == 0
    assert not d.blocked


async def test_a_hook_that_ignores_its_stdin_is_normal(tmp_path: Path) -> None:
    big = bash_call(command="x" * 1_000_000)
    d = await dispatch(CommandHook(command='echo \'{"systemMessage": "ok"}\''), big, tmp_path)
    assert d.system_messages == ("ok",)
    assert only(d).outcome is Outcome.OK


async def test_payload_is_never_interpolated(tmp_path: Path) -> None:
    evil = "$(touch PWNED) `touch PWNED2` ${HOME} ; touch PWNED3 | touch PWNED4 && touch PWNED5"
    hooks = [
        CommandHook(command="cat > /dev/null"),
        CommandHook(command='read -r line; echo "$line" > payload.txt'),
        CommandHook(argv=["sh", "-c", "cat > payload2.txt"]),
    ]
    d = await dispatch(hooks, bash_call(command=evil), tmp_path)
    assert [r.outcome for r in d.results] == [Outcome.OK] * 3
    assert listing(tmp_path) == ["payload.txt", "payload2.txt"]
    for name in ("payload.txt", "payload2.txt"):
        assert json.loads((tmp_path / name).read_text())["tool_input"]["command"] == evil


# --------------------------------------------------------------------------- #
# Environment
# --------------------------------------------------------------------------- #


@pytest.fixture
def secret_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {
        "OPENAI_API_KEY": "sk-test",
        "GITHUB_TOKEN": "ghp-test",
        "db_password": "hunter2",
        "My_Secret_Thing": "s",
        "SOME_APIKEY": "k",
        "VISIBLE_SETTING": "visible",
    }.items():
        monkeypatch.setenv(name, value)
    for name in ("CLAUDE_TOOL_INPUT", "CLAUDE_FILE_PATH", "CLAUDE_ENV_FILE", "CLAUDE_PROJECT_DIR"):
        monkeypatch.delenv(name, raising=False)


SECRETS = ("OPENAI_API_KEY", "GITHUB_TOKEN", "db_password", "My_Secret_Thing", "SOME_APIKEY")


@pytest.mark.usefixtures("secret_env")
async def test_environment_is_the_parent_minus_secrets(tmp_path: Path) -> None:
    out = tmp_path / "env.json"
    await dispatch(env_dump(out), bash_call(), tmp_path)
    env = read_env(out)
    for name in SECRETS:
        assert name not in env
    assert env["VISIBLE_SETTING"] == "visible"
    assert env["PATH"] == os.environ["PATH"]
    # no invented variables
    assert "CLAUDE_TOOL_INPUT" not in env
    assert "CLAUDE_FILE_PATH" not in env
    assert "CLAUDE_ENV_FILE" not in env


@pytest.mark.usefixtures("secret_env")
async def test_environment_changes_are_seen_by_the_next_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "env.json"
    await dispatch(env_dump(out), bash_call(), tmp_path)
    assert "LATE_SETTING" not in read_env(out)
    monkeypatch.setenv("LATE_SETTING", "1")
    monkeypatch.setenv("LATE_TOKEN", "t")
    await dispatch(env_dump(out), bash_call(), tmp_path)
    env = read_env(out)
    assert env["LATE_SETTING"] == "1"
    assert "LATE_TOKEN" not in env
    monkeypatch.setenv("LATE_SETTING", "2")
    monkeypatch.delenv("VISIBLE_SETTING")
    await dispatch(env_dump(out), bash_call(), tmp_path)
    env = read_env(out)
    assert env["LATE_SETTING"] == "2"
    assert "VISIBLE_SETTING" not in env


@pytest.mark.usefixtures("secret_env")
async def test_secret_patterns_are_configurable(tmp_path: Path) -> None:
    out = tmp_path / "env.json"
    await dispatch(env_dump(out), bash_call(), tmp_path, secret_env_patterns=("visible",))
    env = read_env(out)
    assert "VISIBLE_SETTING" not in env
    assert env["GITHUB_TOKEN"] == "ghp-test"


@pytest.mark.usefixtures("secret_env")
async def test_claude_project_dir_is_the_session_project_dir(tmp_path: Path) -> None:
    out = tmp_path / "env.json"
    project = tmp_path / "project"
    project.mkdir()
    session = {"project_dir": str(project), "cwd": str(tmp_path)}
    await dispatch(env_dump(out), bash_call(), tmp_path, session=session)
    assert read_env(out)["CLAUDE_PROJECT_DIR"] == str(project)
    # default: the session's cwd
    await dispatch(env_dump(out), bash_call(), tmp_path, session={"project_dir": None})
    assert read_env(out)["CLAUDE_PROJECT_DIR"] == str(tmp_path)


@pytest.mark.usefixtures("secret_env")
async def test_plugin_variables_come_from_the_source(tmp_path: Path) -> None:
    plugin_out, user_out = tmp_path / "plugin.json", tmp_path / "user.json"
    plugin = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[env_dump(plugin_out)])]},
        source=Source(label="plugin:x", env={"CLAUDE_PLUGIN_ROOT": "/plugins/x"}),
    )
    reg = plugin.add({"PreToolUse": [HookMatcher(hooks=[env_dump(user_out)])]}, source="user")
    async with reg.session(project_dir=str(tmp_path), cwd=str(tmp_path)) as s:
        await s.dispatch(bash_call())
    assert read_env(plugin_out)["CLAUDE_PLUGIN_ROOT"] == "/plugins/x"
    assert "CLAUDE_PLUGIN_ROOT" not in read_env(user_out)


@pytest.mark.usefixtures("secret_env")
async def test_session_env_provides_claude_env_file(tmp_path: Path) -> None:
    out = tmp_path / "env.json"
    env_file = str(tmp_path / "session.env")
    session = {"env": {"CLAUDE_ENV_FILE": env_file}}
    await dispatch(env_dump(out), SessionStartInput(source="startup"), tmp_path, session=session)
    assert read_env(out)["CLAUDE_ENV_FILE"] == env_file


@pytest.mark.usefixtures("secret_env")
async def test_claude_env_file_only_where_the_event_supports_it(tmp_path: Path) -> None:
    out = tmp_path / "env.json"
    session = {"env": {"CLAUDE_ENV_FILE": str(tmp_path / "session.env")}}
    await dispatch(env_dump(out), bash_call(), tmp_path, session=session)
    assert "CLAUDE_ENV_FILE" not in read_env(out)


@pytest.mark.usefixtures("secret_env")
async def test_handler_env_with_env_references(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UPSTREAM_URL", "https://example.test")
    out = tmp_path / "env.json"
    code = "import json, os, sys; json.dump(dict(os.environ), open(sys.argv[1], 'w'))"
    hook = CommandHook(
        argv=[PY, "-c", code, str(out)],
        env={
            "HOOK_MODE": "strict",
            "HOOK_URL": "${env.UPSTREAM_URL}/api",
            "HOOK_MISSING": "[${env.NO_SUCH_VARIABLE_XYZ}]",
            "VISIBLE_SETTING": "overridden",
        },
    )
    session = {"env": {"HOOK_MODE": "session", "FROM_SESSION": "1"}}
    await dispatch(hook, bash_call(), tmp_path, session=session)
    env = read_env(out)
    assert env["HOOK_MODE"] == "strict"  # the handler's own env wins
    assert env["FROM_SESSION"] == "1"
    assert env["HOOK_URL"] == "https://example.test/api"
    assert env["HOOK_MISSING"] == "[]"
    assert env["VISIBLE_SETTING"] == "overridden"
    assert "GITHUB_TOKEN" not in env


# --------------------------------------------------------------------------- #
# Output capture
# --------------------------------------------------------------------------- #


async def test_stdout_is_kept_up_to_100000_bytes(tmp_path: Path) -> None:
    hook = CommandHook(command="head -c 150000 /dev/zero | tr '\\0' x")
    d = await dispatch(hook, prompt(), tmp_path)
    assert whole_context(d) == "x" * 100_000
    assert DiagnosticCode.STDOUT_TRUNCATED in codes(d)


async def test_output_cap_is_configurable(tmp_path: Path) -> None:
    hook = CommandHook(command="printf '%s' 0123456789abcdef", output_cap=10)
    d = await dispatch(hook, prompt(), tmp_path)
    assert d.context == "0123456789"
    assert DiagnosticCode.STDOUT_TRUNCATED in codes(d)
    hook = CommandHook(command="printf '%s' 0123456789", output_cap=10)
    d = await dispatch(hook, prompt(), tmp_path)
    assert d.context == "0123456789"
    assert DiagnosticCode.STDOUT_TRUNCATED not in codes(d)


async def test_stderr_is_capped_too(tmp_path: Path) -> None:
    hook = CommandHook(command="head -c 5000 /dev/zero | tr '\\0' e >&2; exit 1", output_cap=100)
    d = await dispatch(hook, bash_call(), tmp_path)
    r = only(d)
    assert DiagnosticCode.STDERR_TRUNCATED in codes(r)
    assert r.reason == "e" * 100


async def test_stdout_and_stderr_are_read_concurrently(tmp_path: Path) -> None:
    # Alternating large writes to both pipes deadlock a sequential reader.
    code = (
        "import sys\n"
        "for _ in range(50):\n"
        "    sys.stdout.write('o' * 65536); sys.stdout.flush()\n"
        "    sys.stderr.write('e' * 65536); sys.stderr.flush()\n"
    )
    d = await dispatch(CommandHook(argv=[PY, "-c", code], timeout=20), prompt(), tmp_path)
    assert whole_context(d) == "o" * 100_000
    assert {DiagnosticCode.STDOUT_TRUNCATED, DiagnosticCode.STDERR_TRUNCATED} <= codes(d)


# --------------------------------------------------------------------------- #
# Exit 0
# --------------------------------------------------------------------------- #


def echo(text: str, code: int = 0, stderr: str | None = None) -> CommandHook:
    """A hook printing ``text`` on stdout (and ``stderr``), exiting ``code``."""
    script = f"printf '%s' {shlex.quote(text)}"
    if stderr is not None:
        script += f"; printf '%s' {shlex.quote(stderr)} >&2"
    return CommandHook(command=f"{script}; exit {code}")


DENY_JSON = json.dumps(
    {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "json says no",
        }
    }
)
ALLOW_JSON = json.dumps(
    {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
)


async def test_json_stdout_is_the_answer(tmp_path: Path) -> None:
    d = await dispatch(echo(DENY_JSON), bash_call(), tmp_path)
    assert d.blocked
    assert d.output.permission_decision == "deny"
    assert d.reason == "json says no"
    assert only(d).outcome is Outcome.OK


async def test_json_after_leading_whitespace_is_the_answer(tmp_path: Path) -> None:
    d = await dispatch(echo("\n \t " + ALLOW_JSON + "\n\n"), bash_call(), tmp_path)
    assert d.output.permission_decision == "allow"
    assert not d.blocked


@pytest.mark.parametrize("text", ["", "   \n\t\n"])
async def test_empty_stdout_is_no_opinion(tmp_path: Path, text: str) -> None:
    d = await dispatch(echo(text), prompt(), tmp_path)
    assert only(d).output is None
    assert d.context is None
    assert not d.diagnostics


@pytest.mark.parametrize(
    "input",
    [
        SessionStartInput(source="startup"),
        UserPromptSubmitInput(prompt="p"),
        UserPromptExpansionInput(command_name="review"),
    ],
    ids=lambda i: i.event.value,
)
async def test_plain_stdout_is_context_where_the_table_says(
    tmp_path: Path, input: HookInput[Any]
) -> None:
    d = await dispatch(echo("  some context\nline two\n"), input, tmp_path)
    assert d.context == "some context\nline two"
    assert DiagnosticCode.PLAIN_STDOUT_IGNORED not in codes(d)


@pytest.mark.parametrize(
    "input",
    [
        bash_call(),
        PostToolUseInput(tool_name="Bash"),
        StopInput(),
        NotificationInput(message="m"),
    ],
    ids=lambda i: i.event.value,
)
async def test_plain_stdout_elsewhere_is_a_diagnostic(
    tmp_path: Path, input: HookInput[Any]
) -> None:
    d = await dispatch(echo("not context"), input, tmp_path)
    r = only(d)
    assert r.output is None
    assert r.outcome is Outcome.OK
    assert DiagnosticCode.PLAIN_STDOUT_IGNORED in codes(r)
    assert getattr(d.output, "additional_context", None) is None


async def test_plain_stdout_in_the_docker_dialect_follows_its_own_list(tmp_path: Path) -> None:
    post = PostToolUseInput(tool_name="Bash")
    d = await dispatch(echo("docker context"), post, tmp_path, dialect=DOCKER)
    assert d.context == "docker context"
    d = await dispatch(echo("claude context"), post, tmp_path)
    assert d.context is None
    assert DiagnosticCode.PLAIN_STDOUT_IGNORED in codes(d)
    expansion = UserPromptExpansionInput(command_name="x")
    d = await dispatch(echo("docker context"), expansion, tmp_path, dialect=DOCKER)
    assert d.context is None
    assert DiagnosticCode.PLAIN_STDOUT_IGNORED in codes(d)


async def test_plain_stdout_of_worktree_create_is_the_path(tmp_path: Path) -> None:
    d = await dispatch(echo("/tmp/wt\n"), WorktreeCreateInput(name="wt"), tmp_path)
    assert d.output.worktree_path == "/tmp/wt"


async def test_malformed_json_is_plain_text_with_a_diagnostic(tmp_path: Path) -> None:
    """On an event that can block it is also a failure of the hook (``warn`` by default:
    the text still counts, as Claude Code reads it; tests/security/test_fail_closed_unreadable.py)."""
    d = await dispatch(echo('{"additionalContext": '), prompt(), tmp_path)
    assert d.context == '{"additionalContext":'
    assert DiagnosticCode.UNREADABLE_ANSWER in codes(d)


async def test_json_with_unknown_and_wrong_fields_is_read_leniently(tmp_path: Path) -> None:
    answer = {"systemMessage": "kept", "continue": "yes", "bogus": 1}
    d = await dispatch(echo(json.dumps(answer)), bash_call(), tmp_path)
    assert d.system_messages == ("kept",)
    assert d.should_continue
    assert {DiagnosticCode.WRONG_TYPE, DiagnosticCode.UNKNOWN_FIELD} <= codes(d)


# --------------------------------------------------------------------------- #
# Exit 2
# --------------------------------------------------------------------------- #


def _deny(d: Decision[Any]) -> None:
    assert d.blocked
    assert d.output.permission_decision == "deny"


def _permission_deny(d: Decision[Any]) -> None:
    assert d.blocked
    assert d.output.permission_decision.behavior == "deny"
    assert d.output.permission_decision.message == "nope"


def _block(d: Decision[Any]) -> None:
    assert d.blocked
    assert d.output.decision == "block"


def _user(d: Decision[Any]) -> None:
    assert not d.blocked
    assert d.system_messages == ("nope",)
    r = only(d)
    assert r.outcome is Outcome.ERROR
    assert DiagnosticCode.NONZERO_EXIT in codes(r)


def _ignored(d: Decision[Any]) -> None:
    assert not d.blocked
    assert d.output == type(d.output)()


def _permission_unchanged(d: Decision[Any]) -> None:
    assert not d.blocked
    assert d.output == type(d.output)()
    assert DiagnosticCode.NONZERO_EXIT in codes(only(d))


@pytest.mark.parametrize(
    ("input", "check", "blocks"),
    [
        (bash_call(), _deny, True),
        (PermissionRequestInput(tool_name="Bash"), _permission_unchanged, False),
        (UserPromptSubmitInput(prompt="p"), _block, True),
        (StopInput(), _block, True),
        (PostToolUseInput(tool_name="Bash"), _block, True),
        (SessionStartInput(source="startup"), _user, False),
        (NotificationInput(message="m"), _ignored, False),
    ],
    ids=lambda v: getattr(getattr(v, "event", None), "value", ""),
)
async def test_exit_2_has_the_table_meaning(
    tmp_path: Path, input: HookInput[Any], check: Any, blocks: bool
) -> None:
    d = await dispatch(CommandHook(command="echo nope >&2; exit 2"), input, tmp_path)
    check(d)
    r = only(d)
    assert r.exit_code == 2
    if blocks:
        assert r.outcome is Outcome.BLOCKED
        assert d.reason == "nope"


@pytest.mark.parametrize("dialect", [DEEPAGENTS, DOCKER], ids=lambda d: d.name)
async def test_exit_2_denies_permission_request_where_the_dialect_says_so(
    tmp_path: Path, dialect: Any
) -> None:
    hook = CommandHook(command="echo nope >&2; exit 2")
    d = await dispatch(hook, PermissionRequestInput(tool_name="Bash"), tmp_path, dialect=dialect)
    _permission_deny(d)
    assert only(d).outcome is Outcome.BLOCKED


async def test_exit_2_json_cannot_undo_the_block(tmp_path: Path) -> None:
    d = await dispatch(echo(ALLOW_JSON, 2, "stderr reason"), bash_call(), tmp_path)
    _deny(d)
    assert d.reason == "stderr reason"
    answer = json.dumps({"decision": "approve", "continue": True})
    d = await dispatch(echo(answer, 2, "stderr reason"), bash_call(), tmp_path)
    _deny(d)
    d = await dispatch(echo('{"decision": null}', 2, "stop"), prompt(), tmp_path)
    _block(d)
    assert d.reason == "stop"


async def test_exit_2_json_blocking_reason_wins(tmp_path: Path) -> None:
    d = await dispatch(echo(DENY_JSON, 2, "stderr reason"), bash_call(), tmp_path)
    _deny(d)
    assert d.reason == "json says no"
    answer = json.dumps({"decision": "block", "reason": "json block"})
    d = await dispatch(echo(answer, 2, "stderr reason"), prompt(), tmp_path)
    _block(d)
    assert d.reason == "json block"


async def test_exit_2_json_blocking_without_reason_uses_stderr(tmp_path: Path) -> None:
    answer = json.dumps({"decision": "block"})
    d = await dispatch(echo(answer, 2, "stderr reason"), prompt(), tmp_path)
    _block(d)
    assert d.reason == "stderr reason"
    answer = json.dumps(
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}
    )
    d = await dispatch(echo(answer, 2, "stderr reason"), bash_call(), tmp_path)
    _deny(d)
    assert d.reason == "stderr reason"
    answer = json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny"},
            }
        }
    )
    d = await dispatch(echo(answer, 2, "nope"), PermissionRequestInput(tool_name="x"), tmp_path)
    # Claude Code: exit 2 means nothing on PermissionRequest; the decision object denies,
    # and stderr is discarded.
    assert d.blocked
    assert d.output.permission_decision.behavior == "deny"
    assert d.output.permission_decision.message is None


async def test_exit_2_json_other_fields_still_count(tmp_path: Path) -> None:
    answer = json.dumps(
        {
            "systemMessage": "shown to the user",
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "ctx"},
        }
    )
    d = await dispatch(echo(answer, 2, "stderr reason\nmore"), bash_call(), tmp_path)
    _deny(d)
    assert d.reason == "stderr reason\nmore"
    assert d.context == "ctx"
    assert d.system_messages == ("shown to the user",)


async def test_exit_2_with_nothing_printed_has_a_default_reason(tmp_path: Path) -> None:
    d = await dispatch(CommandHook(command="exit 2", name="gate"), bash_call(), tmp_path)
    _deny(d)
    assert d.reason and "gate" in d.reason and "2" in d.reason
    d = await dispatch(echo("{}", 2), prompt(), tmp_path)
    _block(d)
    assert d.reason


@pytest.mark.parametrize("dialect", [DEEPAGENTS, DOCKER], ids=lambda d: d.name)
async def test_exit_2_stdout_is_ignored_by_some_dialects(tmp_path: Path, dialect: Any) -> None:
    answer = json.dumps(
        {
            "systemMessage": "ignored",
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "json says no",
                "additionalContext": "ignored",
            },
        }
    )
    d = await dispatch(echo(answer, 2, "stderr reason"), bash_call(), tmp_path, dialect=dialect)
    _deny(d)
    assert d.reason == "stderr reason"
    assert d.context is None
    assert d.system_messages == ()


async def test_exit_2_json_on_stderr_is_plain_text(tmp_path: Path) -> None:
    text = json.dumps(
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}
    )
    d = await dispatch(echo("", 2, text), bash_call(), tmp_path)
    _deny(d)
    assert d.reason == text


# --------------------------------------------------------------------------- #
# Other exit statuses
# --------------------------------------------------------------------------- #


async def test_nonzero_json_decides_alone_in_claude_dialect(tmp_path: Path) -> None:
    d = await dispatch(echo(DENY_JSON, 1, "boom"), bash_call(), tmp_path)
    _deny(d)
    assert d.reason == "json says no"
    r = only(d)
    assert r.exit_code == 1
    assert r.outcome is not Outcome.ERROR
    d = await dispatch(echo(ALLOW_JSON, 3, "boom"), bash_call(), tmp_path)
    assert d.output.permission_decision == "allow"
    assert DiagnosticCode.NONZERO_EXIT not in codes(d)


@pytest.mark.parametrize("dialect", [DEEPAGENTS, DOCKER], ids=lambda d: d.name)
async def test_nonzero_json_is_ignored_by_some_dialects(tmp_path: Path, dialect: Any) -> None:
    answer = json.dumps({"systemMessage": "ignored"})
    d = await dispatch(echo(answer, 1, "boom"), prompt(), tmp_path, dialect=dialect)
    r = only(d)
    assert r.outcome is Outcome.ERROR
    assert d.system_messages == ()
    assert DiagnosticCode.NONZERO_EXIT in codes(r)


async def test_nonzero_exit_is_a_non_blocking_error_quoting_stderr(tmp_path: Path) -> None:
    hook = CommandHook(command="echo; echo 'first line' >&2; echo 'second' >&2; exit 1")
    d = await dispatch(hook, bash_call(), tmp_path)
    assert not d.blocked
    r = only(d)
    assert (r.outcome, r.exit_code) == (Outcome.ERROR, 1)
    assert r.reason == "first line"
    [diag] = [x for x in r.diagnostics if x.code is DiagnosticCode.NONZERO_EXIT]
    assert "first line" in diag.message and "second" not in diag.message
    assert "1" in diag.message
    assert diag.severity is Severity.WARNING


async def test_missing_command_is_exit_127(tmp_path: Path) -> None:
    d = await dispatch(CommandHook(command="no-such-command-xyz --x"), bash_call(), tmp_path)
    r = only(d)
    assert (r.outcome, r.exit_code) == (Outcome.ERROR, 127)
    assert r.reason is not None and "not found" in r.reason
    assert not d.blocked


async def test_killed_by_a_signal(tmp_path: Path) -> None:
    d = await dispatch(CommandHook(command="kill -KILL $$"), bash_call(), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.ERROR
    assert r.exit_code == -signal.SIGKILL
    assert any("SIGKILL" in x.message for x in r.diagnostics)


async def test_failure_fails_closed_with_on_error_block(tmp_path: Path) -> None:
    hook = CommandHook(command="echo 'db down' >&2; exit 1", on_error="block", name="gate")
    d = await dispatch(hook, bash_call(), tmp_path)
    _deny(d)
    assert d.reason and "db down" in d.reason and "gate" in d.reason
    assert DiagnosticCode.FAILED_CLOSED in codes(d)
    # the group's switch of the Claude Agent SDK
    reg = HookRegistry(
        {
            "UserPromptSubmit": [
                HookMatcher(hooks=[CommandHook(command="exit 1")], on_failure="block")
            ]
        }
    )
    async with reg.session(cwd=str(tmp_path)) as s:
        _block(await s.dispatch(prompt()))
    # a registry-wide policy
    d = await dispatch(CommandHook(command="exit 1"), prompt(), tmp_path, on_error="block")
    _block(d)


async def test_on_error_ignore_quiets_the_diagnostics(tmp_path: Path) -> None:
    hook = CommandHook(command="echo oops >&2; exit 1", on_error="ignore")
    d = await dispatch(hook, bash_call(), tmp_path)
    assert not d.blocked
    assert only(d).outcome is Outcome.ERROR
    assert d.diagnostics and all(x.severity is Severity.INFO for x in d.diagnostics)


async def test_docker_pre_tool_use_fails_closed(tmp_path: Path) -> None:
    d = await dispatch(CommandHook(command="exit 1"), bash_call(), tmp_path, dialect=DOCKER)
    _deny(d)
    d = await dispatch(
        CommandHook(command="exit 1", on_error="ignore"), bash_call(), tmp_path, dialect=DOCKER
    )
    _deny(d)
    d = await dispatch(CommandHook(command="exit 1"), bash_call(), tmp_path)
    assert not d.blocked


@pytest.mark.parametrize(
    "script",
    ["echo partial; exit 1", "echo partial; exit 7", "echo partial; kill -KILL $$"],
)
async def test_partial_output_of_a_failed_hook_is_never_context(
    tmp_path: Path, script: str
) -> None:
    d = await dispatch(CommandHook(command=script), prompt(), tmp_path)
    assert d.context is None
    assert only(d).outcome is Outcome.ERROR


# --------------------------------------------------------------------------- #
# Timeouts, cancellation, concurrency
# --------------------------------------------------------------------------- #


async def test_timeout_kills_the_process_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    hook = CommandHook(command=f"echo partial; sleep 30 & echo $! > {pidfile}; wait", timeout=0.5)
    start = anyio.current_time()
    d = await dispatch(hook, prompt(), tmp_path)
    elapsed = anyio.current_time() - start
    r = only(d)
    assert r.outcome is Outcome.TIMEOUT
    assert DiagnosticCode.TIMEOUT in codes(r)
    assert d.context is None  # output of a timed-out hook is discarded
    assert not d.blocked
    assert 0.5 <= elapsed < 30  # cut off at the timeout, not waited for
    await wait_gone(int(pidfile.read_text()))


async def test_timeout_with_kill_grace_sends_sigterm_first(tmp_path: Path) -> None:
    hook = CommandHook(
        command="trap 'echo got-term >> term.log; exit 0' TERM; sleep 30 & wait",
        timeout=0.5,
        kill_grace=2.0,
    )
    d = await dispatch(hook, bash_call(), tmp_path)
    assert only(d).outcome is Outcome.TIMEOUT
    assert (tmp_path / "term.log").read_text() == "got-term\n"


async def test_timeout_fails_closed_with_on_error_block(tmp_path: Path) -> None:
    hook = CommandHook(command="sleep 30", timeout=0.3, on_error="block")
    d = await dispatch(hook, bash_call(), tmp_path)
    _deny(d)
    assert only(d).outcome is Outcome.TIMEOUT
    assert {DiagnosticCode.TIMEOUT, DiagnosticCode.FAILED_CLOSED} <= codes(d)


async def test_group_timeout_applies_to_hooks_without_one(tmp_path: Path) -> None:
    reg = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CommandHook(command="sleep 30")], timeout=0.3)]}
    )
    async with reg.session(cwd=str(tmp_path)) as s:
        d = await s.dispatch(bash_call())
    assert only(d).outcome is Outcome.TIMEOUT


async def test_cancelling_the_dispatch_kills_the_hook_and_reraises(tmp_path: Path) -> None:
    fifo = tmp_path / "pids"
    os.mkfifo(fifo)
    hook = CommandHook(command=f'sleep 30 & echo "$$ $!" > {fifo}; wait', timeout=30)
    reg = registry([hook], "PreToolUse")
    reraised: list[bool] = []
    decisions: list[Decision[Any]] = []

    async with reg.session(cwd=str(tmp_path)) as s:

        async def run() -> None:
            try:
                decisions.append(await s.dispatch(bash_call()))
            except anyio.get_cancelled_exc_class():
                reraised.append(True)
                raise

        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            with anyio.fail_after(10):
                line = await read_fifo_line(fifo)
            tg.cancel_scope.cancel()

    assert reraised == [True]
    assert decisions == []
    shell_pid, sleep_pid = map(int, line.split())
    with pytest.raises(ProcessLookupError):
        os.kill(shell_pid, 0)  # our child: killed and reaped
    await wait_gone(sleep_pid)  # its child, in the same group: killed


async def test_max_processes_bounds_concurrent_hooks(tmp_path: Path) -> None:
    log = tmp_path / "log"
    code = (
        "import os, sys, time\n"
        "fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT)\n"
        "os.write(fd, b'+'); time.sleep(0.1); os.write(fd, b'-')\n"
    )
    hooks = [CommandHook(argv=[PY, "-c", code, str(log), str(i)]) for i in range(6)]
    for limit in (1, 2):
        log.write_bytes(b"")
        d = await dispatch(hooks, bash_call(), tmp_path, max_processes=limit)
        assert [r.outcome for r in d.results] == [Outcome.OK] * 6
        running = peak = 0
        for ch in log.read_bytes():
            running += 1 if ch == ord("+") else -1
            peak = max(peak, running)
        assert log.read_bytes().count(b"+") == 6
        assert peak <= limit


def _hold_and_wait(fifo: Path, hold: float, wait_timeout: float) -> HookRegistry:
    """max_processes=1: ``Hold`` runs a hook that says it is ready and holds the one
    process slot ``hold`` seconds; ``Wait`` runs ``true`` with ``wait_timeout``."""
    holder = CommandHook(command=f"echo ready > {fifo}; exec sleep {hold}", timeout=60)
    waiter = CommandHook(command="true", timeout=wait_timeout)
    return HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Hold", hooks=[holder]),
                HookMatcher(matcher="Wait", hooks=[waiter]),
            ]
        },
        max_processes=1,
    )


async def test_waiting_for_a_process_slot_does_not_spend_the_timeout(tmp_path: Path) -> None:
    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    reg = _hold_and_wait(fifo, hold=1.2, wait_timeout=0.3)
    async with reg.session(cwd=str(tmp_path)) as s, anyio.create_task_group() as tg:
        tg.start_soon(s.dispatch, PreToolUseInput(tool_name="Hold"))
        with anyio.fail_after(10):
            await read_fifo_line(fifo)
        start = anyio.current_time()
        d = await s.dispatch(PreToolUseInput(tool_name="Wait"))
        elapsed = anyio.current_time() - start
        tg.cancel_scope.cancel()
    r = only(d)
    # It waited about a second for the slot, longer than its 0.3 s timeout, then ran.
    assert r.outcome is Outcome.OK, r
    assert r.exit_code == 0
    assert elapsed >= 0.8  # (and below its deadline, timeout plus 3 s: it ran, OK)


async def test_a_hook_that_never_got_a_slot_is_reported_not_started(tmp_path: Path) -> None:
    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    reg = _hold_and_wait(fifo, hold=30, wait_timeout=0.3)
    async with reg.session(cwd=str(tmp_path)) as s, anyio.create_task_group() as tg:
        tg.start_soon(s.dispatch, PreToolUseInput(tool_name="Hold"))
        with anyio.fail_after(10):
            await read_fifo_line(fifo)
        start = anyio.current_time()
        d = await s.dispatch(PreToolUseInput(tool_name="Wait"))
        elapsed = anyio.current_time() - start
        tg.cancel_scope.cancel()
    r = only(d)
    # The dispatch's deadline for the handler (its timeout plus the command's clean-up
    # slack, 3 s) passed while it waited: an error of its own, not a timeout.
    assert r.outcome is Outcome.ERROR
    assert DiagnosticCode.NOT_STARTED in codes(r)
    assert DiagnosticCode.TIMEOUT not in codes(r)
    assert r.exit_code is None  # never started
    assert r.reason is not None and r.reason.startswith("not started: waited")
    assert "1 process slots" in r.reason
    assert 0.3 + 2.0 <= elapsed < 30  # gave up at its deadline, not waited for the slot


async def test_max_processes_is_per_registry(tmp_path: Path) -> None:
    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    reg = _hold_and_wait(fifo, hold=1.2, wait_timeout=10)
    async with (
        reg.session(cwd=str(tmp_path)) as s1,
        reg.session(cwd=str(tmp_path)) as s2,
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(s1.dispatch, PreToolUseInput(tool_name="Hold"))
        with anyio.fail_after(10):
            await read_fifo_line(fifo)
        start = anyio.current_time()
        d = await s2.dispatch(PreToolUseInput(tool_name="Wait"))
        elapsed = anyio.current_time() - start
        tg.cancel_scope.cancel()
    assert only(d).outcome is Outcome.OK
    assert elapsed >= 0.8  # the other session's hook held the registry's one slot


# --------------------------------------------------------------------------- #
# Fire-and-forget
# --------------------------------------------------------------------------- #


async def _write_fifo(path: Path, data: str) -> None:
    await anyio.to_thread.run_sync(path.write_text, data)


async def test_async_hook_does_not_hold_up_the_decision(tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    os.mkfifo(gate)
    answer = json.dumps(
        {
            "systemMessage": "late message",
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",  # fire-and-forget: decides nothing
                "additionalContext": "late context",
            },
        }
    )
    hook = CommandHook(command=f"read x < {gate}; echo {shlex.quote(answer)}", async_=True)
    finished = anyio.Event()
    delivered: list[HandlerResult] = []

    def on_background_result(r: HandlerResult) -> None:
        delivered.append(r)
        finished.set()

    reg = registry([hook], "PreToolUse", matcher="Bash")
    async with reg.session(cwd=str(tmp_path), on_background_result=on_background_result) as s:
        first = await s.dispatch(bash_call())
        # the hook cannot finish before we open its gate: the dispatch did not wait
        assert first.results == ()
        assert not first.blocked
        await _write_fifo(gate, "go\n")
        with anyio.fail_after(10):
            await finished.wait()
        second = await s.dispatch(PreToolUseInput(tool_name="Read"))
    assert [r.outcome for r in delivered] == [Outcome.OK]
    assert len(second.background) == 1
    assert second.context == "late context"
    assert second.system_messages == ("late message",)
    assert not second.blocked


async def test_async_rewake_wakes_the_agent_on_exit_2(tmp_path: Path) -> None:
    hook = CommandHook(command="echo 'tests failed' >&2; exit 2", async_rewake=True)
    woken = anyio.Event()
    reasons: list[str] = []

    def on_rewake(reason: str) -> None:
        reasons.append(reason)
        woken.set()

    reg = registry([hook], "PostToolUse", matcher="Bash")
    async with reg.session(cwd=str(tmp_path), on_rewake=on_rewake) as s:
        first = await s.dispatch(PostToolUseInput(tool_name="Bash"))
        assert not first.blocked  # fire-and-forget: never blocks the dispatch
        with anyio.fail_after(10):
            await woken.wait()
        second = await s.dispatch(PostToolUseInput(tool_name="Read"))
    assert reasons == ["tests failed"]
    assert second.rewake == ("tests failed",)
    assert not second.blocked


# --------------------------------------------------------------------------- #
# Millisecond-looking timeouts
# --------------------------------------------------------------------------- #


def test_timeout_diagnostic() -> None:
    assert timeout_diagnostic(600) is None
    assert timeout_diagnostic(999.9) is None
    diag = timeout_diagnostic(1000, where="hooks.PreToolUse[0].hooks[0]")
    assert diag is not None
    assert diag.code is DiagnosticCode.TIMEOUT_LOOKS_LIKE_MS
    assert diag.location == "hooks.PreToolUse[0].hooks[0]"
    assert "1" in diag.message  # suggests 1 second
    assert timeout_diagnostic(30000) is not None


def test_config_loader_reports_millisecond_timeouts() -> None:
    from agent_hooks._handlers._kinds import KindContext, build_handler

    ctx = KindContext(location="hooks.PreToolUse[0].hooks[0]")
    node = build_handler({"type": "command", "command": "true", "timeout": 5000}, ctx)
    assert node is not None and node.timeout == 5000
    assert DiagnosticCode.TIMEOUT_LOOKS_LIKE_MS in {d.code for d in ctx.diagnostics}
    ctx = KindContext()
    build_handler({"type": "command", "command": "true", "timeout": 60}, ctx)
    assert DiagnosticCode.TIMEOUT_LOOKS_LIKE_MS not in {d.code for d in ctx.diagnostics}


async def test_session_provides_claude_env_file_and_reads_exports(tmp_path: Path) -> None:
    hook = CommandHook(command='echo "export GREETING=\'hello world\'" >> "$CLAUDE_ENV_FILE"')
    registry = HookRegistry({"SessionStart": [HookMatcher(hooks=[hook])]})
    async with registry.session(cwd=str(tmp_path)) as session:
        assert session.env_file is not None and os.path.exists(session.env_file)
        await session.dispatch(SessionStartInput(source="startup"))
        assert session.exported_env() == {"GREETING": "hello world"}
        path = session.env_file
    assert not os.path.exists(path)
