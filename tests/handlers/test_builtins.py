"""Tests of the built-in hooks (agent_hooks._handlers._builtins), on asyncio and trio.

Git repositories are made in temporary directories with GIT_CEILING_DIRECTORIES
set, so "not a repository" really means it; "git missing" replaces PATH.
"""

from __future__ import annotations

import datetime
import os
import platform
import re
import socket
import stat
import subprocess
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

import agent_hooks._handlers._builtins as builtins_mod
from agent_hooks import (
    BeforeLLMCallInput,
    BeforeLLMCallOutput,
    BuiltinArgumentError,
    HookInput,
    HookMatcher,
    HookRegistry,
    PostToolUseInput,
    PostToolUseOutput,
    PreToolUseInput,
    PreToolUseOutput,
    RegistrationError,
    SessionEndInput,
    SessionStartInput,
    SessionStartOutput,
    ToolInputTransformInput,
    ToolInputTransformOutput,
    ToolResponseTransformInput,
    ToolResponseTransformOutput,
    TurnStartInput,
    TurnStartOutput,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
    add_date,
    add_directory_listing,
    add_environment_info,
    add_git_diff,
    add_git_status,
    add_prompt_files,
    add_recent_commits,
    add_user_info,
    builtin,
    limit_large_tool_results,
    max_iterations,
    redact_secrets,
    redact_text,
)
from agent_hooks._handlers._builtins import BUILTINS

pytestmark = pytest.mark.anyio

GIT_ID = ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"]


# ------------------------------------------------------------------ fixtures


@pytest.fixture(autouse=True)
def _isolated_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No repository above tmp_path, no user git configuration."""
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *GIT_ID, *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with three commits and a clean tree."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    for i in range(3):
        (path / f"file{i}.txt").write_text(f"content {i}\n")
        git(path, "add", ".")
        git(path, "commit", "-q", "-m", f"commit number {i}")
    return path


@pytest.fixture
def no_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PATH without git."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


def turn(cwd: Path | str, **kw: Any) -> TurnStartInput:
    return TurnStartInput(cwd=str(cwd), session_id="s1", **kw)


def context_of(output: Any) -> str:
    assert output is not None
    text = output.additional_context
    assert isinstance(text, str)
    return text


# ------------------------------------------------------ output class per event


@pytest.mark.parametrize(
    ("input", "output_type"),
    [
        (TurnStartInput(), TurnStartOutput),
        (SessionStartInput(source="startup"), SessionStartOutput),
        (UserPromptSubmitInput(prompt="hi"), UserPromptSubmitOutput),
        (PostToolUseInput(tool_name="Bash"), PostToolUseOutput),
    ],
)
async def test_context_builtins_answer_in_the_events_output_class(
    input: HookInput[Any], output_type: type[Any]
) -> None:
    for factory in (add_date, add_environment_info, add_user_info):
        out = await factory()(input)
        assert type(out) is output_type
        assert context_of(out)


@pytest.mark.parametrize("input", [SessionEndInput(reason="other"), BeforeLLMCallInput()])
async def test_context_builtins_are_silent_on_events_without_context(
    input: HookInput[Any],
) -> None:
    for factory in (add_date, add_user_info, add_environment_info):
        assert await factory()(input) is None


async def test_builtin_callbacks_have_readable_names() -> None:
    assert add_date().__name__ == "add_date"
    assert max_iterations(3).__qualname__ == "max_iterations"
    registry = HookRegistry({"TurnStart": [HookMatcher(hooks=[add_git_status()])]})
    (node,) = registry.compile().nodes[TurnStartInput.event]
    assert node.info.name.endswith("add_git_status")


# ------------------------------------------------------------------ add_date


async def test_add_date_through_a_session(tmp_path: Path) -> None:
    registry = HookRegistry({"TurnStart": [HookMatcher(hooks=[add_date()])]})
    before = datetime.date.today().isoformat()
    async with registry.session(session_id="s", cwd=str(tmp_path)) as session:
        outcome = await session.turn_start()
    after = datetime.date.today().isoformat()
    assert outcome.context in (f"Today's date: {before}", f"Today's date: {after}")
    assert re.fullmatch(r"Today's date: \d{4}-\d{2}-\d{2}", outcome.context or "")


# ------------------------------------------------------- add_environment_info


async def test_add_environment_info_in_a_repository(repo: Path) -> None:
    text = context_of(await add_environment_info()(SessionStartInput(cwd=str(repo))))
    assert f"Working directory: {repo}" in text
    assert "Is directory a git repo: yes" in text
    assert platform.system() in text
    assert platform.machine() in text


async def test_add_environment_info_outside_a_repository(tmp_path: Path) -> None:
    text = context_of(await add_environment_info()(SessionStartInput(cwd=str(tmp_path))))
    assert "Is directory a git repo: no" in text


async def test_add_environment_info_without_git(repo: Path, no_git: None) -> None:
    text = context_of(await add_environment_info()(SessionStartInput(cwd=str(repo))))
    assert "Is directory a git repo: no" in text


# ----------------------------------------------------------- add_prompt_files


async def test_add_prompt_files_walks_up_and_reads_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    project = tmp_path / "project"
    deep = project / "a" / "b"
    deep.mkdir(parents=True)
    (home / "GUIDE.md").write_text("home guide")
    (project / "GUIDE.md").write_text("project guide")
    (deep / "GUIDE.md").write_text("deep guide")
    (project / "RULES.md").write_text("the rules")

    text = context_of(await add_prompt_files(["GUIDE.md", "RULES.md"])(turn(deep)))
    # most general first, the nearest last; every file named with its path
    order = [text.index(s) for s in ("home guide", "project guide", "deep guide", "the rules")]
    assert order == sorted(order)
    assert f"Contents of {deep / 'GUIDE.md'}:" in text


async def test_add_prompt_files_missing_files_add_nothing(tmp_path: Path) -> None:
    assert await add_prompt_files(["NOPE.md"])(turn(tmp_path)) is None


async def test_add_prompt_files_accepts_a_single_name_and_absolute_paths(tmp_path: Path) -> None:
    (tmp_path / "ONE.md").write_text("one")
    other = tmp_path / "elsewhere.md"
    other.write_text("absolute")
    assert "one" in context_of(await add_prompt_files("ONE.md")(turn(tmp_path)))
    text = context_of(await add_prompt_files([str(other)])(turn(tmp_path / "missing-cwd")))
    assert "absolute" in text


async def test_add_prompt_files_caps_huge_files(tmp_path: Path) -> None:
    (tmp_path / "BIG.md").write_text("x" * (builtins_mod.PROMPT_FILE_CAP * 3))
    text = context_of(await add_prompt_files(["BIG.md"])(turn(tmp_path)))
    assert len(text) < builtins_mod.PROMPT_FILE_CAP + 500
    assert "truncated" in text


@pytest.mark.parametrize("bad", [[], [""], ["ok.md", 3], None, 42, ["  "]])
def test_add_prompt_files_rejects_bad_arguments(bad: Any) -> None:
    with pytest.raises(BuiltinArgumentError, match="add_prompt_files"):
        add_prompt_files(bad)


# ------------------------------------------------------------ add_git_status


async def test_add_git_status_shows_branch_and_changes(repo: Path) -> None:
    (repo / "file0.txt").write_text("changed\n")
    (repo / "new.txt").write_text("new\n")
    text = context_of(await add_git_status()(turn(repo)))
    assert "## main" in text
    assert " M file0.txt" in text
    assert "?? new.txt" in text


async def test_add_git_status_clean_tree_still_shows_branch(repo: Path) -> None:
    assert "## main" in context_of(await add_git_status()(turn(repo)))


async def test_git_builtins_are_noops_outside_a_repository(tmp_path: Path) -> None:
    for hook in (add_git_status(), add_git_diff(), add_git_diff(full=True), add_recent_commits()):
        assert await hook(turn(tmp_path)) is None


async def test_git_builtins_are_noops_without_git(repo: Path, no_git: None) -> None:
    (repo / "file0.txt").write_text("changed\n")
    for hook in (add_git_status(), add_git_diff(), add_git_diff(full=True), add_recent_commits()):
        assert await hook(turn(repo)) is None


async def test_git_builtins_are_noops_when_cwd_does_not_exist(tmp_path: Path) -> None:
    assert await add_git_status()(turn(tmp_path / "gone")) is None


async def test_git_builtins_give_up_after_the_timeout(
    tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "slow-bin"
    bin_dir.mkdir()
    fake = bin_dir / "git"
    fake.write_text("#!/bin/sh\nexec sleep 30\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setattr(builtins_mod, "GIT_TIMEOUT", 0.3)
    start = time.monotonic()
    assert await add_git_status()(turn(repo)) is None
    assert time.monotonic() - start < 30  # git cut off at its timeout, not waited for


async def test_git_builtins_run_through_a_session_in_its_cwd(repo: Path) -> None:
    (repo / "file1.txt").write_text("edited\n")
    registry = HookRegistry(
        {
            "TurnStart": [HookMatcher(hooks=[add_git_status(), add_git_diff()])],
            "SessionStart": [HookMatcher(hooks=[add_recent_commits(2)])],
        }
    )
    async with registry.session(session_id="s", cwd=str(repo)) as session:
        start = await session.start()
        turn_outcome = await session.turn_start()
    assert "commit number 2" in (start.context or "")
    assert session.persistent_context == [start.context]
    assert " M file1.txt" in (turn_outcome.context or "")
    assert "file1.txt | " in (turn_outcome.context or "")


# -------------------------------------------------------------- add_git_diff


async def test_add_git_diff_stat_and_full(repo: Path) -> None:
    assert await add_git_diff()(turn(repo)) is None  # clean tree: nothing to add
    (repo / "file2.txt").write_text("content 2\nmore\n")
    stat_text = context_of(await add_git_diff()(turn(repo)))
    assert "git diff --stat" in stat_text
    assert "file2.txt | 1 +" in stat_text
    assert "@@" not in stat_text
    full_text = context_of(await add_git_diff(full=True)(turn(repo)))
    assert "@@" in full_text
    assert "+more" in full_text


async def test_add_git_diff_is_capped_at_4_kb(repo: Path) -> None:
    (repo / "file0.txt").write_text("".join(f"line {i} {'y' * 60}\n" for i in range(2000)))
    text = context_of(await add_git_diff(full=True)(turn(repo)))
    body = text.split("\n", 1)[1]
    assert len(body.encode()) <= builtins_mod.GIT_DIFF_CAP + 100
    assert body.rstrip().endswith(f"{builtins_mod.GIT_DIFF_CAP} shown)")


@pytest.mark.parametrize("bad", ["full", 1, None])
def test_add_git_diff_rejects_non_bool(bad: Any) -> None:
    with pytest.raises(BuiltinArgumentError, match="add_git_diff"):
        add_git_diff(bad)


# -------------------------------------------------------- add_recent_commits


async def test_add_recent_commits(repo: Path) -> None:
    text = context_of(await add_recent_commits(2)(turn(repo)))
    lines = text.splitlines()[1:]
    assert len(lines) == 2
    assert "commit number 2" in lines[0]
    assert "commit number 1" in lines[1]
    default = context_of(await add_recent_commits()(turn(repo)))
    assert len(default.splitlines()) == 4  # header + all 3 commits (default n=10)
    assert "commit number 0" in context_of(await add_recent_commits("3")(turn(repo)))


async def test_add_recent_commits_in_a_repository_without_commits(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    assert await add_recent_commits()(turn(tmp_path)) is None


@pytest.mark.parametrize("bad", [0, -1, "x", "", 1.5, True, None, "2.0"])
def test_add_recent_commits_rejects_bad_counts(bad: Any) -> None:
    with pytest.raises(BuiltinArgumentError, match="positive integer"):
        add_recent_commits(bad)


# ----------------------------------------------------- add_directory_listing


async def test_add_directory_listing_caps_and_skips_dot_files(tmp_path: Path) -> None:
    for i in range(105):
        (tmp_path / f"f{i:03d}.txt").write_text("")
    (tmp_path / ".hidden").write_text("")
    (tmp_path / "Adir").mkdir()
    text = context_of(await add_directory_listing()(SessionStartInput(cwd=str(tmp_path))))
    lines = text.splitlines()
    assert lines[0] == f"Files in {tmp_path}:"
    entries = lines[1:-1]
    assert len(entries) == 100
    assert entries[0] == "Adir/"
    assert entries == sorted(entries, key=str.lower)
    assert lines[-1] == "... and 6 more"
    assert ".hidden" not in text


async def test_add_directory_listing_small_and_empty(tmp_path: Path) -> None:
    assert await add_directory_listing()(SessionStartInput(cwd=str(tmp_path))) is None
    (tmp_path / "b.txt").write_text("")
    (tmp_path / "a.txt").write_text("")
    text = context_of(await add_directory_listing()(SessionStartInput(cwd=str(tmp_path))))
    assert text.splitlines()[1:] == ["a.txt", "b.txt"]


# -------------------------------------------------------------- add_user_info


async def test_add_user_info() -> None:
    text = context_of(await add_user_info()(SessionStartInput()))
    assert text.startswith("User: ")
    assert f"Hostname: {socket.gethostname()}" in text


# -------------------------------------------------------------- max_iterations


async def test_max_iterations_blocks_after_n_calls_per_session() -> None:
    registry = HookRegistry({"BeforeLLMCall": [HookMatcher(hooks=[max_iterations(2)])]})
    async with registry.session(session_id="a") as a, registry.session(session_id="b") as b:
        assert not (await a.before_llm_call()).blocked
        assert not (await a.before_llm_call()).blocked
        assert not (await b.before_llm_call()).blocked  # its own count
        third = await a.before_llm_call()
        assert third.blocked
        assert third.reason is not None
        assert "limit of 2" in third.reason
        assert (await a.before_llm_call()).blocked  # stays blocked
        assert not (await b.before_llm_call()).blocked


async def test_max_iterations_uses_the_hosts_iteration_counter() -> None:
    hook = max_iterations(5)
    assert await hook(BeforeLLMCallInput(session_id="x", iteration=5)) is None
    out = await hook(BeforeLLMCallInput(session_id="x", iteration=6))
    assert isinstance(out, BeforeLLMCallOutput)
    assert out.decision == "block"


async def test_max_iterations_forgets_a_session_at_its_end() -> None:
    hook = max_iterations(1)
    assert await hook(BeforeLLMCallInput(session_id="x")) is None
    assert await hook(BeforeLLMCallInput(session_id="x")) is not None
    assert await hook(SessionEndInput(session_id="x", reason="other")) is None
    assert await hook(BeforeLLMCallInput(session_id="x")) is None
    assert await hook(TurnStartInput(session_id="x")) is None  # other events: nothing


@pytest.mark.parametrize("bad", [0, -3, "abc", None, True, 2.5, ""])
def test_max_iterations_rejects_bad_limits(bad: Any) -> None:
    with pytest.raises(BuiltinArgumentError, match=r"max_iterations: n must be a positive"):
        max_iterations(bad)


def test_argument_errors_are_registration_and_value_errors() -> None:
    with pytest.raises(RegistrationError):
        max_iterations(0)
    with pytest.raises(ValueError):
        max_iterations(0)
    assert max_iterations("7") is not None


# -------------------------------------------------------------- redact_secrets

SECRETS = [
    "sk-ant-api03-" + "A1b2C3d4E5f6G7h8I9j0" * 3,
    "sk-proj-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2",
    "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
    "glpat-" + "x1Y2z3A4b5C6d7E8f9G0",
    "AKIAIOSFODNN7EXAMPLE",
    "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp",
    "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAA\n"
    "-----END OPENSSH PRIVATE KEY-----",
]

LABELLED = [
    ("API_KEY=abc123def456ghi789", "API_KEY=[REDACTED]"),
    ('{"password": "hunter2"}', '{"password": "[REDACTED]"}'),
    ("DB_PASSWORD='c0rrect-h0rse'", "DB_PASSWORD='[REDACTED]'"),
    ("client_secret: 9f8e7d6c5b4a", "client_secret: [REDACTED]"),
    ("curl --token a1b2c3d4e5f6g7 x", "curl --token [REDACTED] x"),
    ("Authorization: Bearer abcDEF123456ghiJKL789", "Authorization: Bearer [REDACTED]"),
    ("postgres://app:pa55word@db:5432/x", "postgres://app:[REDACTED]@db:5432/x"),
    ("GITHUB_TOKEN=3f786850e387550fdab836ed7e6dc881de23001b", "GITHUB_TOKEN=[REDACTED]"),
]

NOT_SECRETS = [
    "commit 3f786850e387550fdab836ed7e6dc881de23001b\nAuthor: A <a@b.c>",
    "3f78685 Fix the parser (#42)\n9a1b2c3 Merge branch 'main'",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  dist/pkg.tar.gz",
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "sha512-" + "Zm9vYmFyYmF6cXV4MTIz" * 4 + "==",
    "d41d8cd98f00b204e9800998ecf8427e",
    "550e8400-e29b-41d4-a716-446655440000",
    "max_tokens = 100000000",
    "token = get_token()",
    "password: ${DB_PASSWORD}",
    "secret_key = os.environ['SECRET_KEY']",
    "password: string;",
    "The token usage was high; secrets are stored in the vault.",
    "PWD=/home/user/project\nOLDPWD=/tmp",
    "git clone git@github.com:org/repo.git",
    "https://example.com/path?q=1",
    "Task-management system, key: value",
    "",
]


@pytest.mark.parametrize("secret", SECRETS)
def test_redact_text_removes_known_secret_shapes(secret: str) -> None:
    text = f"before {secret} after"
    red = redact_text(text)
    assert secret not in red
    assert "[REDACTED]" in red
    assert red.startswith("before ")


@pytest.mark.parametrize(("text", "expected"), LABELLED)
def test_redact_text_redacts_values_of_secret_named_keys(text: str, expected: str) -> None:
    assert redact_text(text) == expected


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_redact_text_leaves_hashes_and_ordinary_text_alone(text: str) -> None:
    assert redact_text(text) == text


def test_redact_text_is_idempotent() -> None:
    once = redact_text("API_KEY=abc123def456ghi789 and ghp_" + "a" * 36)
    assert redact_text(once) == once


async def test_redact_secrets_on_each_event() -> None:
    hook = redact_secrets()
    key = "sk-proj-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2"
    tool_input = {"command": f"curl -H 'x-api-key: {key}' x", "opts": [key, 3], "n": 1}
    pre = await hook(PreToolUseInput(tool_name="Bash", tool_input=tool_input))
    assert isinstance(pre, PreToolUseOutput)
    assert pre.updated_input is not None
    assert key not in repr(pre.updated_input)
    assert pre.updated_input["n"] == 1
    assert pre.updated_input["opts"][1] == 3
    assert pre.permission_decision is None  # it rewrites, it does not decide

    tit = await hook(ToolInputTransformInput(tool_name="Bash", tool_input=tool_input))
    assert isinstance(tit, ToolInputTransformOutput)
    assert key not in repr(tit.updated_input)

    messages = [
        {"role": "system", "content": "be nice"},
        {"role": "user", "content": [{"type": "text", "text": f"my key is {key}"}]},
    ]
    llm = await hook(BeforeLLMCallInput(messages=messages))
    assert isinstance(llm, BeforeLLMCallOutput)
    assert llm.messages is not None
    assert llm.messages[0] == messages[0]
    assert llm.messages[1]["content"][0]["text"] == "my key is [REDACTED]"

    post = await hook(PostToolUseInput(tool_name="Bash", tool_response={"stdout": key}))
    assert isinstance(post, PostToolUseOutput)
    assert post.updated_tool_output == {"stdout": "[REDACTED]"}

    trt = await hook(ToolResponseTransformInput(tool_name="Bash", tool_response=f"out {key}"))
    assert isinstance(trt, ToolResponseTransformOutput)
    assert trt.updated_tool_response == "out [REDACTED]"


async def test_redact_secrets_says_nothing_when_nothing_is_secret() -> None:
    hook = redact_secrets()
    log = "\n".join(NOT_SECRETS)
    assert await hook(PreToolUseInput(tool_name="Bash", tool_input={"command": log})) is None
    assert await hook(BeforeLLMCallInput(messages=[{"role": "user", "content": log}])) is None
    assert await hook(BeforeLLMCallInput()) is None
    assert await hook(PostToolUseInput(tool_name="Bash", tool_response=log)) is None
    assert await hook(ToolResponseTransformInput(tool_name="Bash", tool_response=log)) is None
    assert await hook(TurnStartInput()) is None


async def test_redact_secrets_through_the_lifecycle() -> None:
    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    hook = redact_secrets()
    registry = HookRegistry(
        {
            "PreToolUse": [HookMatcher(hooks=[hook])],
            "ToolResponseTransform": [HookMatcher(hooks=[hook])],
            "BeforeLLMCall": [HookMatcher(hooks=[hook])],
        }
    )
    seen: list[Any] = []

    def tool(args: Any) -> str:
        seen.append(dict(args))
        return f"echoed {key}"

    async with registry.session(session_id="r") as session:
        outcome = await session.call_tool("Bash", {"command": f"echo {key}"}, tool)
        llm = await session.before_llm_call([{"role": "user", "content": f"use {key}"}])
    assert seen == [{"command": "echo [REDACTED]"}]
    assert outcome.model_view == "echoed [REDACTED]"
    assert outcome.result == f"echoed {key}"  # the raw result is the application's
    assert llm.rewritten == [{"role": "user", "content": "use [REDACTED]"}]


# --------------------------------------------------- limit_large_tool_results


def _files_in(directory: str) -> list[str]:
    """The files in a directory ([] when it does not exist)."""
    return os.listdir(directory) if os.path.isdir(directory) else []


def _saved_path(notice: str) -> Path:
    m = re.search(r"saved to (\S+?);", notice)
    assert m, notice
    return Path(m.group(1))


async def test_limit_large_tool_results_leaves_small_results_alone() -> None:
    hook = limit_large_tool_results(max_lines=10, max_bytes=1000)
    small = "\n".join(["line"] * 10)
    assert await hook(ToolResponseTransformInput(tool_name="Bash", tool_response=small)) is None
    assert await hook(ToolResponseTransformInput(tool_name="Bash", tool_response=None)) is None
    assert await hook(TurnStartInput()) is None


async def test_limit_large_tool_results_by_lines_keeps_the_tail(tmp_path: Path) -> None:
    hook = limit_large_tool_results(max_lines=10)
    text = "".join(f"line {i}\n" for i in range(100))
    out = await hook(
        ToolResponseTransformInput(
            session_id="big-lines", tool_name="Bash", tool_use_id="t1", tool_response=text
        )
    )
    assert isinstance(out, ToolResponseTransformOutput)
    view = out.updated_tool_response
    assert isinstance(view, str)
    assert view.startswith("[Output too large: 100 lines")
    assert view.endswith("line 99\n")
    assert "line 95" in view
    assert "line 89" not in view
    assert len(view.splitlines()) <= 10  # notice and excerpt within the limit
    path = _saved_path(view)
    assert path.read_text() == text
    await hook.cleanup("big-lines")
    assert not path.exists()
    assert not path.parent.exists()


async def test_limit_large_tool_results_head_for_file_readers() -> None:
    hook = limit_large_tool_results(max_lines=5)
    text = "".join(f"row {i}\n" for i in range(50))
    out = await hook(PostToolUseInput(session_id="head", tool_name="Read", tool_response=text))
    assert isinstance(out, PostToolUseOutput)
    view = out.updated_tool_output
    assert view.splitlines()[1] == "row 0"
    assert "row 5\n" not in view
    assert len(view.splitlines()) <= 5
    assert "offset/limit" in view
    await hook.cleanup("head")


async def test_limit_large_tool_results_by_bytes_and_structured_results() -> None:
    hook = limit_large_tool_results(max_lines=10_000, max_bytes=1024)
    one_line = "é" * 5000  # multi-byte characters, one line
    out = await hook(
        ToolResponseTransformInput(session_id="bytes", tool_name="x", tool_response=one_line)
    )
    assert isinstance(out, ToolResponseTransformOutput)
    view = out.updated_tool_response
    assert isinstance(view, str)
    excerpt = view.split("\n...\n", 1)[1]
    assert 0 < len(excerpt.encode()) <= 1024
    assert len(view.encode()) <= 1024  # notice and excerpt within the limit
    assert _saved_path(view).read_text() == one_line
    structured = {"items": list(range(2000))}
    out2 = await hook(
        PostToolUseInput(session_id="bytes", tool_name="mcp__x__list", tool_response=structured)
    )
    assert isinstance(out2, PostToolUseOutput)
    assert '"items"' in _saved_path(out2.updated_tool_output).read_text()
    await hook.cleanup("bytes")


async def test_limit_large_tool_results_files_removed_at_session_end() -> None:
    hook = limit_large_tool_results(max_lines=3)
    registry = HookRegistry(
        {
            "ToolResponseTransform": [HookMatcher(hooks=[hook])],
            "SessionEnd": [HookMatcher(hooks=[hook])],
        }
    )
    big = "\n".join(str(i) for i in range(50))
    async with registry.session(session_id="cleanup-test") as session:
        outcome = await session.call_tool("Bash", {"command": "seq 50"}, lambda _: big)
        path = _saved_path(outcome.model_view)
        assert path.read_text() == big
        assert outcome.result == big
        directory = hook.directory("cleanup-test")
        assert directory is not None
        assert path.parent == Path(directory)
        await session.end()
    assert not path.exists()
    assert hook.directory("cleanup-test") is None


async def test_limit_large_tool_results_on_transform_and_post_tool_use_saves_once() -> None:
    hook = limit_large_tool_results(max_lines=20, max_bytes=2048)
    registry = HookRegistry(
        {
            "ToolResponseTransform": [HookMatcher(hooks=[hook])],
            "PostToolUse": [HookMatcher(hooks=[hook])],
            "SessionEnd": [HookMatcher(hooks=[hook])],
        }
    )
    big = "".join(f"{i:05d} {'z' * 70}\n" for i in range(500))
    async with registry.session(session_id="once") as session:
        outcome = await session.call_tool("Bash", {"command": "x"}, lambda _: big)
        directory = hook.directory("once")
        assert directory is not None
        assert len(_files_in(directory)) == 1  # PostToolUse saw the limited text
        view = outcome.model_view
        assert len(view.splitlines()) <= 20
        assert len(view.encode()) <= 2048
        assert view.endswith(f"00499 {'z' * 70}\n")
        await session.end()
    assert not _files_in(directory)


async def test_limit_large_tool_results_cleanup_from_another_instance() -> None:
    """A configuration file registers the built-in once per event: two instances."""
    transform = builtin("limit_large_tool_results", {"max_lines": 2})
    end = builtin("limit_large_tool_results")
    out = await transform(
        ToolResponseTransformInput(session_id="two", tool_name="x", tool_response="a\nb\nc\nd")
    )
    assert isinstance(out, ToolResponseTransformOutput)
    path = _saved_path(str(out.updated_tool_response))
    assert path.exists()
    await end(SessionEndInput(session_id="two", reason="other"))
    assert not path.exists()


async def test_limit_large_tool_results_survives_a_removed_directory() -> None:
    hook = limit_large_tool_results(max_lines=1)
    first = await hook(
        ToolResponseTransformInput(session_id="gone", tool_name="x", tool_response="a\nb")
    )
    assert isinstance(first, ToolResponseTransformOutput)
    path = _saved_path(str(first.updated_tool_response))
    await anyio.to_thread.run_sync(lambda: [p.unlink() for p in path.parent.iterdir()])
    path.parent.rmdir()
    second = await hook(
        ToolResponseTransformInput(session_id="gone", tool_name="x", tool_response="c\nd")
    )
    assert isinstance(second, ToolResponseTransformOutput)
    assert _saved_path(str(second.updated_tool_response)).read_text() == "c\nd"
    await hook.cleanup("gone")


@pytest.mark.parametrize(("kw"), [{"max_lines": 0}, {"max_bytes": -1}, {"max_lines": "many"}])
def test_limit_large_tool_results_rejects_bad_limits(kw: dict[str, Any]) -> None:
    with pytest.raises(BuiltinArgumentError, match="limit_large_tool_results"):
        limit_large_tool_results(**kw)


# ----------------------------------------------------------- builtin() by name


def test_builtins_table_lists_every_builtin() -> None:
    assert set(BUILTINS) == {
        "add_date",
        "add_environment_info",
        "add_prompt_files",
        "add_git_status",
        "add_git_diff",
        "add_recent_commits",
        "add_directory_listing",
        "add_user_info",
        "max_iterations",
        "redact_secrets",
        "limit_large_tool_results",
    }


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("add_date", ()),
        ("add_environment_info", []),
        ("add_prompt_files", ["GUIDELINES.md", "PROJECT.md"]),
        ("add_git_status", ()),
        ("add_git_diff", ()),
        ("add_git_diff", ["full"]),
        ("add_git_diff", {"full": True}),
        ("add_recent_commits", ["5"]),
        ("add_recent_commits", {"n": 3}),
        ("add_directory_listing", ()),
        ("add_user_info", ()),
        ("max_iterations", ["50"]),
        ("max_iterations", {"n": 50}),
        ("redact_secrets", ()),
        ("limit_large_tool_results", ()),
        ("limit_large_tool_results", ["100", "4096"]),
    ],
)
def test_builtin_by_name_registers(name: str, args: Any) -> None:
    hook = builtin(name, args)
    assert callable(hook)
    registry = HookRegistry({"TurnStart": [HookMatcher(hooks=[hook])]})
    assert registry.compile().nodes


async def test_builtin_git_diff_full_from_config_args(repo: Path) -> None:
    (repo / "file0.txt").write_text("other\n")
    text = context_of(await builtin("add_git_diff", ["full"])(turn(repo)))
    assert "@@" in text


def test_builtin_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown built-in hook 'add_weather'") as info:
        builtin("add_weather")
    for name in BUILTINS:
        assert name in str(info.value)


@pytest.mark.parametrize(
    ("name", "args", "match"),
    [
        ("max_iterations", (), "max_iterations"),
        ("max_iterations", ["0"], "positive integer"),
        ("max_iterations", ["5", "6"], "bad arguments"),
        ("add_git_diff", ["fancy"], "add_git_diff"),
        ("add_date", ["x"], "bad arguments"),
        ("add_recent_commits", {"count": 3}, "bad arguments"),
        ("add_prompt_files", [], "non-empty"),
        ("add_date", "x", "list or a mapping"),
    ],
)
def test_builtin_bad_arguments(name: str, args: Any, match: str) -> None:
    with pytest.raises(BuiltinArgumentError, match=match):
        builtin(name, args)


async def test_large_result_files_go_when_the_session_closes_without_session_end(
    tmp_path: Path,
) -> None:
    limiter = limit_large_tool_results(max_lines=5, max_bytes=10_000)
    registry = HookRegistry({"ToolResponseTransform": [HookMatcher(hooks=[limiter])]})
    async with registry.session(session_id="no-end", cwd=str(tmp_path)) as session:
        outcome = await session.call_tool("Bash", {"command": "seq 100"}, lambda _: "x\n" * 100)
        assert "saved" in str(outcome.model_view)
        directory = type(limiter).directory(session.session_id)  # type: ignore[attr-defined]
        assert directory is not None and os.path.isdir(directory)
    assert not os.path.exists(directory)
