"""Every example runs with one command, exits 0 and prints what it is about.

Each example is run as a subprocess with this interpreter, from a scratch
directory (examples must not depend on the working directory or write to the
repository).
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# example -> lines (regular expressions) its output must contain
EXPECTED: dict[str, list[str]] = {
    "guarded_agent.py": [
        r"^\[SessionStart\] context kept for the session: Project: calc\.",
        r"^\[model 1\] Bash \{\"command\": \"ls\"\}$",
        r"^   hooks: allowed -> the model sees: \.env  calc\.py  test_calc\.py$",
        r"^   hooks: DENIED -> the model sees: \.env holds secrets",
        r"^   hooks: DENIED -> the model sees: Blocked by block_rm_rf\.sh",
        r"^   hooks: allowed -> the model sees: edited calc\.py$",
        r"^   Stop hook: KEEP GOING -> the model sees: The tests have not passed yet",
        r"^   hooks: allowed -> the model sees: .*1 passed$",
        r"^   Stop hook: may stop$",
        r"^\[audit log\] 3 tool calls that ran, recorded by the async hook:$",
        r"^calc\.py now: return a \+ b$",
    ],
    "quickstart.py": [
        r"^Bash \{'command': 'ls'\} -> allowed$",
        r"^Bash \{'command': 'rm -rf /'\} -> denied: rm -rf is not allowed here$",
        r"^Edit \{'file_path': '\.env'\} -> denied: \.env holds secrets$",
    ],
    "block_dangerous_commands.py": [
        r"^'ls -la' +-> ran$",
        r"^'rm -rf /' +-> DENIED: Blocked by block_rm_rf\.sh",
        r"^'git push --force origin main' +-> DENIED: Blocked: force-pushing",
        r"^'curl .*\| sh' +-> DENIED: Blocked: piping a download into a shell\.$",
        r"^commands that actually ran: \['ls -la', 'git push origin feature'\]$",
    ],
    "protect_files.py": [
        r"^Read +src/app\.py +-> allowed$",
        r"^Read +\.env +-> DENIED: \.env is protected",
        r"^Write +certs/server\.pem +-> DENIED",
        r"^Edit +repo/\.git/config +-> DENIED",
        r"^Bash +\.env +-> allowed$",
    ],
    "auto_approve_read_only.py": [
        r"^   app: auto-approved \(read-only\)$",
        r"^   app: asks the user about Write -> the user says no$",
        r"^   -> refused: permission denied$",
    ],
    "git_context_at_start.py": [
        r"^== context kept for the whole session \(SessionStart\):$",
        r"^[0-9a-f]{7,} Fix off-by-one in parser$",
        r"^Current branch: main$",
        r"^Today's date: \d{4}-\d{2}-\d{2}$",
        r"^ M parser\.py$",
    ],
    "rewrite_command.py": [
        r"^model asked 'npm install' +-> tool got 'npm ci'$",
        r"^model asked 'pytest tests/unit' +-> tool got 'pytest -q tests/unit'$",
        r"^model asked 'sudo npm install' +-> DENIED: no sudo$",
    ],
    "stop_until_tests_pass.py": [
        r"^turn 1: .*\(stop_hook_active=False\)$",
        r"^        -> keep going; the model is told: Tests have not passed yet: run the tests",
        r"^turn 2: .*\(stop_hook_active=True\)$",
        r"Tests have not passed yet \(again\)",
        r"^        -> the agent may stop$",
    ],
    "audit_log_async.py": [
        r"^tool call 'ls' +returned after +\d+ ms \(hook still running\)$",
        r"^background hooks finished after closing: +3$",
        r"^audit: PostToolUse Bash \{'command': 'make test'\}$",
    ],
    "port_claude_agent_sdk.py": [
        r"^UserPromptSubmit -> context: Ticket: PROJ-7$",
        r"^Bash '\./foo\.sh --deploy' +-> DENIED: Command contains invalid pattern: foo\.sh$",
        r"^Bash 'make' +-> ran: ok$",
        r"^Bash 'make test' +-> ran; the agent must stop: A tool failed",
    ],
}


def run_example(name: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    return proc, time.monotonic() - start


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_runs_and_prints_what_happened(name: str, tmp_path: Path) -> None:
    if name == "git_context_at_start.py" and shutil.which("git") is None:
        pytest.skip("git is not installed")
    proc, _ = run_example(name, tmp_path)
    assert proc.returncode == 0, f"{name} failed:\n{proc.stdout}\n{proc.stderr}"
    for pattern in EXPECTED[name]:
        assert re.search(pattern, proc.stdout, re.MULTILINE), (
            f"{name}: no line matches {pattern!r} in:\n{proc.stdout}"
        )
    assert list(tmp_path.iterdir()) == []  # nothing left behind in the working directory


def test_guarded_agent_is_quick(tmp_path: Path) -> None:
    """The README's main command: it must run in a second or two."""
    proc, took = run_example("guarded_agent.py", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert took < 10  # generous for slow CI; locally well under a second


def _readme_quick_start() -> tuple[str, str]:
    """The README's quick-start code block and the output block after it."""
    text = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```(\w*)\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    (code,) = [body for lang, body in blocks if lang == "python"]
    (output,) = [body for lang, body in blocks if lang == ""]
    return code, output


def test_the_readme_quick_start_is_the_example_file_and_prints_what_it_says(
    tmp_path: Path,
) -> None:
    code, output = _readme_quick_start()
    assert (EXAMPLES / "quickstart.py").read_text(encoding="utf-8") == code
    proc, _ = run_example("quickstart.py", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == output
    assert proc.stderr == ""
    assert list(tmp_path.iterdir()) == []


def test_every_example_is_tested_and_listed_in_the_readme() -> None:
    scripts = {p.name for p in EXAMPLES.glob("*.py")}
    assert scripts == set(EXPECTED), "add new examples to EXPECTED"
    readme = (EXAMPLES / "README.md").read_text()
    for name in scripts:
        assert f"python examples/{name}" in readme, f"{name} is not in examples/README.md"


def test_block_rm_rf_hook_script_is_executable_and_needs_no_jq() -> None:
    script = EXAMPLES / "hooks" / "block_rm_rf.sh"
    assert script.stat().st_mode & stat.S_IXUSR
    text = script.read_text()
    assert text.startswith("#!/bin/sh\n")
    assert "jq" not in re.sub(r"#.*", "", text)  # comments may mention it


@pytest.mark.parametrize(
    ("command", "blocked"),
    [
        ("rm -rf build/", True),
        ("rm -fr build/", True),
        ("sudo rm -Rf /", True),
        ("rm -r -f dir", True),
        ("rm -f -r dir", True),
        ("rm --recursive --force dir", True),
        ("cd x && rm -rf .", True),
        ("rm -f file.txt", False),
        ("rm -r dir", False),
        ("ls -rf", False),
        ("echo farm -rf", False),
    ],
)
def test_block_rm_rf_hook_script(command: str, blocked: bool) -> None:
    payload = (
        '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash",'
        f'"tool_input":{{"command":"{command}"}}}}'
    )
    proc = subprocess.run(
        [str(EXAMPLES / "hooks" / "block_rm_rf.sh")],
        input=payload,
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert proc.returncode == (2 if blocked else 0), proc.stderr
    assert bool(proc.stderr.strip()) == blocked
