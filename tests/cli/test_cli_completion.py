"""``agent-hooks completion bash|zsh|fish``: each script completes the commands, the
nested actions, the options of the command typed so far and an option's choices,
written from the parser itself (so a command added to the parser is completed without
touching the scripts). bash always runs; zsh and fish run where they are installed.
``run`` never imports the completion module (a fresh interpreter's modules: a process);
the scripts are printed by the command line in this process."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agent_hooks._bridges._cli import COMMANDS
from tests.cli_inprocess import cli_in_process

PY = sys.executable


@functools.cache  # (the script of a shell is the same for the whole run)
def script(shell: str) -> str:
    done = cli_in_process(["completion", shell], env=dict(os.environ), cwd=os.getcwd())
    assert done.returncode == 0, done.stderr
    return done.stdout


def _shell(shell: str, program: str) -> list[str]:
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    args = [shell, "-f"] if shell == "zsh" else [shell]
    done = subprocess.run(
        [*args, "-c", program], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def bash_complete(tmp_path: Path, words: list[str]) -> set[str]:
    file = tmp_path / "agent-hooks.bash"
    file.write_text(script("bash"))
    quoted = " ".join(f"'{w}'" for w in words)
    (line,) = _shell(
        "bash",
        f"source {file}; COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; "
        'COMPREPLY=(); _agent_hooks; echo "${COMPREPLY[*]}"',
    )
    return set(line.split())


def zsh_complete(tmp_path: Path, words: list[str]) -> set[str]:
    file = tmp_path / "_agent-hooks"
    file.write_text(script("zsh"))
    quoted = " ".join(f"'{w}'" for w in words)
    out = _shell(
        "zsh",
        # compadd, _files and _directories are zsh's completion builtins; outside a
        # completion widget, stand-ins print what they were given (prefix filtered).
        "compdef() { :; }; "
        'compadd() { shift; for w in "$@"; do [[ $w == ${words[CURRENT]}* ]] && echo $w; done; }; '
        "_files() { echo '<files>'; }; _directories() { echo '<dirs>'; }; "
        f"source {file}; words=({quoted}); CURRENT={len(words)}; _agent_hooks; true",
    )
    return set(out)


def fish_complete(tmp_path: Path, words: list[str]) -> set[str]:
    file = tmp_path / "agent-hooks.fish"
    file.write_text(script("fish"))
    line = " ".join(words)
    out = _shell("fish", f"source {file}; complete -C '{line}'")
    return {entry.split("\t")[0] for entry in out}


COMPLETERS = {"bash": bash_complete, "zsh": zsh_complete, "fish": fish_complete}


@pytest.mark.parametrize("shell", sorted(COMPLETERS))
def test_the_script_completes_commands_actions_options_and_choices(
    shell: str, tmp_path: Path
) -> None:
    complete = COMPLETERS[shell]
    assert complete(tmp_path, ["agent-hooks", "d"]) == {"daemon", "doctor"}
    assert complete(tmp_path, ["agent-hooks", ""]) >= set(COMMANDS)
    assert complete(tmp_path, ["agent-hooks", "daemon", "st"]) == {"start", "status", "stop"}
    assert complete(tmp_path, ["agent-hooks", "run", "--no-"]) == {"--no-daemon"}
    assert complete(tmp_path, ["agent-hooks", "-v", "run", "--fail-"]) == {"--fail-closed"}
    assert complete(tmp_path, ["agent-hooks", "install", "--scope", ""]) == {"project", "user"}
    assert complete(tmp_path, ["agent-hooks", "completion", ""]) >= {"bash", "zsh", "fish"}
    # (a hidden option is never offered)
    assert "--key" not in complete(tmp_path, ["agent-hooks", "daemon", "serve", "--"])


def test_bash_leaves_a_path_value_to_file_name_completion(tmp_path: Path) -> None:
    # (an empty answer: `complete -o default` then completes file names)
    assert bash_complete(tmp_path, ["agent-hooks", "run", "--config", ""]) == set()
    assert "--config" in script("bash") and "complete -o default -F _agent_hooks agent-hooks" in (
        script("bash")
    )


def test_an_unknown_shell_is_a_usage_error() -> None:
    done = cli_in_process(["completion", "tcsh"], env=dict(os.environ), cwd=os.getcwd())
    assert done.returncode == 2 and done.stdout == ""
    assert "invalid choice: 'tcsh'" in done.stderr


def test_run_does_not_import_the_completion_module() -> None:
    done = subprocess.run(
        [
            PY,
            "-c",
            "import sys; from agent_hooks._bridges._cli import build_parser; "
            "build_parser('run'); print('agent_hooks._bridges._cli._completion' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout == "False\n", done.stderr
