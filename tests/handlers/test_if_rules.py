"""``if`` rules on shell commands and file paths, as the Claude Code hooks reference
defines them ("Bash `if` matching", and ``Edit(src/**)`` anchored at the working
directory since v2.1.214).

A ``Bash(...)`` rule is checked against every simple command of the line (lists,
pipelines, subshells, groups, control structures, ``$(...)``, backticks, ``<(...)``),
leading ``VAR=value`` assignments stripped; a pattern that says more than the command
name runs on ``$()``, backticks or ``$VAR``; and the filter fails open: a line its
reader cannot read runs the hook. Every behaviour is checked with both readers: the
tree-sitter parser (the ``shell`` extra) and the stdlib shlex fallback, chosen by the
module's own switch ``_shell.BACKEND``.
"""

from __future__ import annotations

import fnmatch
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_hooks import (
    CallbackHook,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
    load,
)
from agent_hooks._dispatch import _shell
from agent_hooks._dispatch._matching import parse_if_rule

pytestmark = pytest.mark.anyio

PARSER = "tree-sitter"
FALLBACK = "shlex"
HAS_PARSER = _shell.tree_sitter_available()
needs_parser = pytest.mark.skipif(not HAS_PARSER, reason="the 'shell' extra is not installed")
BACKENDS = [pytest.param(PARSER, marks=needs_parser), FALLBACK]
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@contextmanager
def reader(backend: str) -> Iterator[None]:
    """Select the reader through the module's switch (restored afterwards, also
    inside hypothesis examples, where a function-scoped monkeypatch cannot go)."""
    saved = _shell.BACKEND
    _shell.BACKEND = backend  # type: ignore[assignment]
    try:
        yield
    finally:
        _shell.BACKEND = saved


def runs(rule: str, command: str, backend: str, tool: str = "Bash") -> bool:
    with reader(backend):
        return parse_if_rule(rule).matches(tool, {"command": command}, "/repo")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(_shell, "BACKEND", request.param)
    return str(request.param)


# ------------------------------------------------------- the reference's table

# (rule, command, with the parser, with the shlex fallback): the fallback cannot
# read $(...) and runs the hook instead.
REFERENCE_TABLE = [
    ("Bash(git *)", "FOO=bar git push", True, True),
    ("Bash(git *)", "npm test && git push", True, True),
    ("Bash(rm *)", "echo $(rm -rf /)", True, True),
    ("Bash(rm *)", "echo $(date)", False, True),
    ("Bash(git push *)", "echo $(date)", True, True),
]


@pytest.mark.parametrize(("rule", "command", "parser", "fallback"), REFERENCE_TABLE)
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_row_of_the_reference_table(
    rule: str, command: str, parser: bool, fallback: bool, backend: str
) -> None:
    assert runs(rule, command, backend) is (parser if backend == PARSER else fallback)


@pytest.mark.parametrize(
    "command",
    ["cd /tmp && rm -rf build", "X=1 rm -rf build", "echo $(rm -rf /)", "ls; rm -rf build"],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_the_issue_examples_run_the_rm_guard(command: str, backend: str) -> None:
    assert runs("Bash(rm *)", command, backend)
    assert not runs("Bash(rm *)", "ls -la", backend)


# ---------------------------------------------------------- compound commands


@pytest.mark.parametrize(
    "command",
    [
        "true || rm -rf x",
        "true; rm -rf x",
        "cat list | rm -rf x",
        "cat list |& rm -rf x",
        "true\nrm -rf x",
        "sleep 1 & rm -rf x",
        "(rm -rf x)",
        "{ rm -rf x; }",
        "ls && (cd x && { rm -rf y; })",
        "if true; then rm -rf x; fi",
        "if rm -rf x; then :; fi",
        "while false; do rm -rf x; done",
        "for f in a b; do rm -rf $f; done",
        "! rm -rf x",
        "time rm -rf x",
        "time -p rm -rf x",
        "echo hi >&2; rm -rf x",
        "f() { rm -rf x; }; f",
        "[[ -d x ]] && rm -rf x",
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_subcommand_of_a_compound_command_is_checked(command: str, backend: str) -> None:
    assert runs("Bash(rm *)", command, backend)
    assert not runs("Bash(zzz *)", command, backend)


@pytest.mark.parametrize(
    "command",
    [
        "echo `rm -rf /`",
        "echo $(echo $(rm -rf /))",
        "echo `echo \\`rm -rf /\\``",  # nested backticks
        'echo "$(rm -rf /)"',
        "diff <(rm -rf x) y",
        "x=$(rm -rf /)",
        "export A=$(rm -rf /) B=2",
        "echo ${x:-$(rm -rf y)}",
        "echo $((1 + $(rm -rf z)))",
        "cat <<EOF\n$(rm -rf /)\nEOF",
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_commands_inside_substitutions_are_checked(command: str, backend: str) -> None:
    assert runs("Bash(rm *)", command, backend)


@pytest.mark.parametrize(
    ("command", "fallback"),
    [
        ("echo '$(rm -rf /)'", True),  # single quotes: never run; shlex cannot tell
        ("cat <<'EOF'\n$(rm -rf /)\nEOF", True),  # a quoted heredoc is data
        ("cat <<EOF\nrm -rf /\nEOF", True),  # a heredoc body is data, not commands
        ("cat <<-EOF\n\trm -rf /\n\tEOF", True),
        ("echo 'a && rm -rf /'", False),  # quotes containing &&
        ('echo "a; rm -rf /"', False),
        ("git commit -m 'fix; rm -rf build'", False),
        ("echo a\\&\\& rm -rf /", False),  # escaped operators are text
        ("echo rm -rf /", False),  # rm as an argument is not a command
        ("rmdir build", False),  # `rm *` has a word boundary
        ("ls # && rm -rf /", True),  # a comment (shlex reads it as words: runs)
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_text_that_is_not_a_command_is_not_checked_by_the_parser(
    command: str, fallback: bool, backend: str
) -> None:
    assert runs("Bash(rm *)", command, backend) is (False if backend == PARSER else fallback)


@pytest.mark.parametrize("backend", BACKENDS)
def test_commands_after_a_heredoc_are_checked(backend: str) -> None:
    command = "cat <<EOF > notes.txt\nhello && bye\nEOF\nrm -rf build"
    assert runs("Bash(rm *)", command, backend)
    assert runs("Bash(cat *)", command, backend)


@pytest.mark.parametrize(
    ("rule", "command"),
    [
        ("Bash(rm -rf *)", "rm \\\n  -rf build"),
        ("Bash(git push *)", "git \\\n  push origin main"),
        ("Bash(rm *)", "r\\\nm -rf /"),  # bash joins the lines: this is rm
        ("Bash(rm *)", "echo a # no continuation in a comment\\\nrm -rf /"),
        ("Bash(rm *)", "ls && \\\nrm -rf build"),
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_escaped_newlines_join_lines(rule: str, command: str, backend: str) -> None:
    assert runs(rule, command, backend)


# ------------------------------------------------ assignments and wrappers


@pytest.mark.parametrize(
    "command",
    ["X=1 rm -rf build", "A=1 B='x y' rm -rf build", "X=$(date) rm -rf build", "X+=1 rm -rf b"],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_leading_assignments_are_stripped(command: str, backend: str) -> None:
    assert runs("Bash(rm *)", command, backend)
    assert runs("Bash(rm -rf *)", command, backend)


@pytest.mark.parametrize(
    "command",
    [
        "sudo rm -rf /",
        "env rm -rf /",
        "env X=1 rm -rf /",
        "nohup rm -rf /",
        "exec rm -rf /",
        "command rm -rf /",
        "xargs rm -rf < list",
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_wrapper_programs_are_not_stripped(command: str, backend: str) -> None:
    # The reference strips leading VAR=value assignments and nothing else: a program
    # that runs another (sudo, env, ...) is the command, as in Claude Code. Write a
    # second handler with `Bash(sudo *)` to guard those.
    assert not runs("Bash(rm *)", command, backend)
    first = command.split()[0]
    assert runs(f"Bash({first} *)", command, backend)


# ----------------------------------------- expansions a pattern cannot see through


@pytest.mark.parametrize(
    ("rule", "command", "expected"),
    [
        ("Bash(git push *)", "git $SUB origin", True),  # says more than the name: runs
        ("Bash(git push *)", "echo $HOME && git status", True),
        ("Bash(git push *)", "git status", False),
        ("Bash(git push *)", "git push origin", True),
        ("Bash(git *)", "echo $HOME", False),  # only the name: the names are visible
        ("Bash(git *)", "echo ${HOME}/x", False),
        ("Bash(rm *)", "$CMD -rf /", True),  # the name itself is unknown
        ("Bash(rm *)", '"$RM" -rf /', True),
        ("Bash(rm *)", "${RM:-rm} -rf /", True),
        ("Bash(rm *)", "r* -rf /", True),  # a glob as the name
        ("Bash(rm *)", "echo x; {rm,-rf,/}", True),  # a brace expansion as the name
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_expansions_run_rules_that_cannot_see_through_them(
    rule: str, command: str, expected: bool, backend: str
) -> None:
    assert runs(rule, command, backend) is expected


@pytest.mark.parametrize(
    "command", ['"rm" -rf /', "'rm' -rf /", "\\rm -rf /", 'r"m" -rf /', ">log rm -rf x"]
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_quoted_and_escaped_command_names_are_read_as_bash_reads_them(
    command: str, backend: str
) -> None:
    assert runs("Bash(rm *)", command, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_words_after_a_redirection_are_arguments(backend: str) -> None:
    assert runs("Bash(git push *)", "git 2>/dev/null push origin", backend)
    assert runs("Bash(git push --force*)", "git push >log --force", backend)
    assert runs("Bash(make)", "make 2>&1", backend)
    assert runs("Bash(rm *)", "rm -rf x 2>&1 | tee log", backend)


# --------------------------------------------------------------- pattern forms


@pytest.mark.parametrize(
    ("rule", "command", "expected"),
    [
        ("Bash(ls *)", "ls -la", True),
        ("Bash(ls *)", "ls", True),  # a trailing ` *` also matches the bare command
        ("Bash(ls *)", "lsof", False),  # the space is a word boundary
        ("Bash(ls*)", "lsof", True),
        ("Bash(npm run test:*)", "npm run test -- -k x", True),  # legacy prefix form
        ("Bash(npm run test:*)", "npm run build && npm run test", True),
        ("Bash(npm run test:*)", "npm run build", False),
        ("Bash(git status)", "git status", True),
        ("Bash(git status)", "git status && ls", True),
        ("Bash(git status)", "git status --short", False),
        ("Bash(* && *)", "a && b", True),  # a pattern over the whole line still matches it
        ("Bash", "anything at all", True),
        ("Bash(*)", "echo $(", True),
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_pattern_forms(rule: str, command: str, expected: bool, backend: str) -> None:
    assert runs(rule, command, backend) is expected


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_rule_still_filters_the_tool_name(backend: str) -> None:
    assert not runs("Bash(rm *)", "cd /tmp && rm -rf build", backend, tool="Read")
    assert runs("*(rm *)", "cd /tmp && rm -rf build", backend, tool="Shell")
    rule = parse_if_rule("Bash(rm *)")
    assert not rule.matches("Bash", {}, "/repo")  # no command string: nothing to match
    # a command that is not a string (an argv list from another harness): fail open
    assert rule.matches("Bash", {"command": ["bash", "-lc", "cd x && rm -rf y"]}, "/repo")


# ------------------------------------------------------------------ fail open


@pytest.mark.parametrize(
    ("command", "unreadable_by"),
    [
        ('echo "unterminated && ls', {PARSER, FALLBACK}),
        ("echo 'unterminated", {PARSER, FALLBACK}),
        ("echo $(", {PARSER, FALLBACK}),
        ("if true; then", {PARSER}),
        ("ls )", {PARSER}),
        ("&& ls", {PARSER}),
        ("cat <<EOF\nno end", {PARSER, FALLBACK}),
        ("echo `date`", {FALLBACK}),
        ("echo x\x00y", {PARSER, FALLBACK}),
        ("rm \ud800", {PARSER}),  # not UTF-8
        ("ls # it's", {FALLBACK}),
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_line_the_reader_cannot_read_runs_the_hook(
    command: str, unreadable_by: set[str], backend: str
) -> None:
    view = _shell.split_command(command, backend)  # type: ignore[arg-type]
    assert view.parsed is (backend not in unreadable_by)
    if not view.parsed:
        for rule in ("Bash(zzz *)", "Bash(zzz)", "Bash(git push *)"):
            assert runs(rule, command, backend), rule


def test_auto_falls_back_to_shlex_without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    # The module remembers a grammar that failed to load as False: as if not installed.
    monkeypatch.setattr(_shell, "_language", False)
    assert not _shell.tree_sitter_available()
    assert _shell.split_command("cd /tmp && rm -rf build").backend == FALLBACK
    assert runs("Bash(rm *)", "cd /tmp && rm -rf build", "auto")
    with pytest.raises(RuntimeError, match="'shell' extra"):
        _shell.split_command("ls", "tree-sitter")
    # forcing the missing parser through the switch fails open, never raises
    assert runs("Bash(zzz *)", "ls", PARSER)


@needs_parser
def test_the_parser_is_loaded_when_the_rule_is_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_shell, "_language", None)
    parse_if_rule("Edit(src/**)")  # file rules never read commands
    assert _shell._language is None
    parse_if_rule("Bash(rm *)")
    assert _shell._language


# ------------------------------------------------------------------ fuzzing

SHELL_PIECES = [
    *["rm", "git", "push", "-rf", "/", "x", "ls", "cat", "echo", "sudo", "env"],
    *[" ", " ", " ", "\t", "\n", "\\\n", "\\"],
    *["&&", "||", ";", "|", "&", "|&", "(", ")", "{ ", " }", "!", "#"],
    *["$(", "`", "<(", '"', "'", "$X", "${X}", "$((1))", "X=1 ", "*", "{a,b}"],
    *["<<EOF\n", "<<'EOF'\n", "EOF", "<<<", ">", ">>", "2>&1", "<", "=", "\x00"],
    *["if ", "then ", "fi", "do ", "done", "time ", "case ", "esac", ";;"],
]
shell_lines = st.one_of(
    st.lists(st.sampled_from(SHELL_PIECES), max_size=16).map("".join),
    st.text(max_size=40),
)
FUZZ_RULES = ["Bash(rm *)", "Bash(git push *)", "Bash(zzz *)", "Bash(x)", "Bash(* && *)"]


@pytest.mark.parametrize("backend", BACKENDS)
@FUZZ
@given(command=shell_lines)
def test_fuzz_never_raises_and_never_skips_a_line_it_could_not_read(
    backend: str, command: str
) -> None:
    view = _shell.split_command(command, backend)  # type: ignore[arg-type]
    for text in FUZZ_RULES:
        matched = runs(text, command, backend)
        if not view.parsed:
            assert matched, (text, command)


@pytest.mark.parametrize("backend", BACKENDS)
@FUZZ
@given(command=shell_lines)
def test_fuzz_runs_whenever_the_whole_line_glob_did(backend: str, command: str) -> None:
    # What the single fnmatch over the whole line matched still runs the hook.
    for text in FUZZ_RULES:
        content = text[len("Bash(") : -1]
        if fnmatch.fnmatchcase(command.strip(), content):
            assert runs(text, command, backend), (text, command)


WORDS = st.sampled_from(["a", "b.txt", "-v", "--force", "'q u o t e d'", '"dq"', "x=1", "/tmp"])
NAMES = st.sampled_from(["ls", "echo", "git", "npm", "cat", "make", "grep"])


@st.composite
def simple_command(draw: st.DrawFn, name: st.SearchStrategy[str]) -> str:
    assignments = draw(st.lists(st.sampled_from(["X=1", "FOO='a b'", "Y="]), max_size=2))
    words = draw(st.lists(WORDS, max_size=3))
    return " ".join([*assignments, draw(name), *words])


@st.composite
def compound_with(draw: st.DrawFn, planted: str | None) -> str:
    """A compound line of harmless commands, with ``planted`` somewhere in it."""
    commands = draw(st.lists(simple_command(NAMES), min_size=0, max_size=4))
    if planted is not None:
        commands.insert(draw(st.integers(0, len(commands))), planted)
    if not commands:
        commands = ["true"]
    line = commands[0]
    for command in commands[1:]:
        shape = draw(st.sampled_from(["&&", "||", ";", "|", "\n", "&", "(", "{", "$(", "`"]))
        if shape == "(":
            line = f"{line} && ({command})"
        elif shape == "{":
            line = f"{line}; {{ {command}; }}"
        elif shape == "$(":
            line = f"{line}; echo $({command})"
        elif shape == "`":
            line = f"echo `{command}`; {line}"
        else:
            line = f"{line} {shape} {command}"
    if draw(st.booleans()):
        line = f"if true; then {line}; fi"
    return line


@pytest.mark.parametrize("backend", BACKENDS)
@FUZZ
@given(data=st.data())
def test_fuzz_a_matching_subcommand_anywhere_runs_the_hook(
    backend: str, data: st.DataObject
) -> None:
    planted = data.draw(simple_command(st.just("rm")))
    line = data.draw(compound_with(planted))
    assert runs("Bash(rm *)", line, backend), line


@needs_parser
@FUZZ
@given(line=compound_with(None))
def test_fuzz_the_parser_skips_lines_without_a_matching_subcommand(line: str) -> None:
    assert not runs("Bash(rm *)", line, PARSER), line


# -------------------------------------------------------------- file patterns


@pytest.mark.parametrize(
    ("rule", "path", "expected"),
    [
        # a single-segment directory pattern is the directory in the working directory
        ("Edit(src/**)", "/repo/src/app.ts", True),
        ("Edit(src/**)", "/repo/src/deep/app.ts", True),
        ("Edit(src/**)", "/repo/lib/src/app.ts", False),  # any depth before v2.1.214
        ("Edit(src/**)", "/other/src/app.ts", False),
        ("Edit(src/**)", "/repo/srcs/app.ts", False),
        ("Edit(src/**)", "/repo/src/../secrets/key", False),
        ("Edit(src/**)", "src/app.ts", True),  # relative to the working directory
        ("Edit(./src/**)", "/repo/src/app.ts", True),
        ("Edit(/src/**)", "/repo/src/app.ts", True),
        # `**/` is any number of directories, none included
        ("Edit(**/src/**)", "/repo/src/app.ts", True),
        ("Edit(**/src/**)", "/repo/lib/src/app.ts", True),
        ("Edit(**/src/**)", "/repo/a/b/src/c/d.ts", True),
        ("Edit(**/src/**)", "/repo/lib/app.ts", False),
        ("Edit(lib/**/test_*.py)", "/repo/lib/test_a.py", True),
        ("Edit(lib/**/test_*.py)", "/repo/lib/x/y/test_a.py", True),
        # without `/`: the file name at any depth
        ("Edit(*.ts)", "/repo/a/b/app.ts", True),
        ("Edit(*.ts)", "/repo/a/b/app.py", False),
        ("Edit(.env*)", "/repo/config/.env.local", True),
        ("Edit([!.]*.py)", "/repo/a.py", True),
        ("Edit([!.]*.py)", "/repo/.a.py", False),
        # absolute
        ("Edit(//etc/**)", "/etc/passwd", True),
        ("Edit(//etc/**)", "/repo/etc/passwd", False),
        ("Write(src/**)", "/repo/src/new.ts", True),
        ("Edit", "/anywhere", True),
        ("Edit(src/**)", "C:\\repo\\src\\app.ts", False),  # another cwd's drive
    ],
)
def test_file_patterns(rule: str, path: str, expected: bool) -> None:
    assert parse_if_rule(rule).matches(rule.split("(")[0], {"file_path": path}, "/repo") is expected


def test_file_patterns_on_windows_paths() -> None:
    rule = parse_if_rule("Edit(src/**)")
    assert rule.matches("Edit", {"file_path": "C:\\repo\\src\\app.ts"}, "C:\\repo")
    assert not rule.matches("Edit", {"file_path": "C:\\repo\\lib\\src\\app.ts"}, "C:\\repo")


def test_home_patterns_and_notebooks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    rule = parse_if_rule("Read(~/.ssh/**)")
    assert rule.matches("Read", {"file_path": f"{tmp_path}/.ssh/id_ed25519"}, "/repo")
    assert not rule.matches("Read", {"file_path": "/repo/.ssh/id_ed25519"}, "/repo")
    notebook = parse_if_rule("NotebookEdit(notebooks/**)")
    assert notebook.matches("NotebookEdit", {"notebook_path": "/repo/notebooks/a.ipynb"}, "/repo")


def test_without_a_working_directory_a_path_matches_at_any_depth() -> None:
    # Nothing to anchor at: the rule runs rather than skipping the hook.
    rule = parse_if_rule("Edit(src/**)")
    assert rule.matches("Edit", {"file_path": "/any/where/src/app.ts"}, None)
    assert rule.matches("Edit", {"file_path": "src/app.ts"}, None)
    assert not rule.matches("Edit", {"file_path": "/any/where/lib/app.ts"}, None)


def test_an_unreadable_url_runs_a_domain_rule() -> None:
    rule = parse_if_rule("WebFetch(domain:example.com)")
    assert rule.matches("WebFetch", {"url": "https://example.com/x"}, None)
    assert not rule.matches("WebFetch", {"url": "https://other.org/x"}, None)
    assert rule.matches("WebFetch", {"url": "http://[example.com/x"}, None)


# ----------------------------------------------------- end to end, public API


def guard(calls: list[str]) -> CallbackHook:
    async def deny_rm(input: PreToolUseInput) -> PreToolUseOutput:
        calls.append(input.tool_input["command"])
        return PreToolUseOutput(
            permission_decision="deny", permission_decision_reason="no rm, please"
        )

    return CallbackHook(deny_rm, if_rule="Bash(rm *)")


async def test_a_python_guard_runs_for_every_rm_subcommand(backend: str) -> None:
    calls: list[str] = []
    registry = HookRegistry({"PreToolUse": [HookMatcher(matcher="Bash", hooks=[guard(calls)])]})
    async with registry.session(cwd="/tmp") as session:
        for command in ["cd /tmp && rm -rf build", "X=1 rm -rf build", "echo $(rm -rf /)"]:
            decision = await session.dispatch(
                PreToolUseInput(tool_name="Bash", tool_input={"command": command})
            )
            assert decision.blocked, command
            assert decision.reason == "no rm, please"
        allowed = await session.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": "ls -la && git status"})
        )
    assert not allowed.blocked and allowed.results == ()
    assert calls == ["cd /tmp && rm -rf build", "X=1 rm -rf build", "echo $(rm -rf /)"]


async def test_a_claude_settings_guard_runs_for_a_chained_rm(tmp_path: Path, backend: str) -> None:
    ran = tmp_path / "ran.log"
    script = tmp_path / "block_rm.py"
    script.write_text(
        "import sys\n"
        f"open({str(ran)!r}, 'a').write('ran\\n')\n"
        "print('Blocked: rm is not allowed', file=sys.stderr)\n"
        "sys.exit(2)\n"
    )
    handler: dict[str, Any] = {
        "type": "command",
        "command": f'"{sys.executable}" "{script}"',
        "if": "Bash(rm *)",
    }
    settings_file = tmp_path / "settings.json"
    settings_file.write_text(
        json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}})
    )
    config = load(settings_file, format="claude", trust=True)
    assert config.diagnostics == ()
    async with config.registry().session(cwd=str(tmp_path)) as session:
        denied = await session.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": "cd /tmp && rm -rf build"})
        )
        allowed = await session.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": "cd /tmp && ls"})
        )
    assert denied.blocked
    assert denied.reason == "Blocked: rm is not allowed"
    assert not allowed.blocked and allowed.results == ()
    assert ran.read_text() == "ran\n"  # the filter saved the second spawn
