"""Copilot CLI sends PermissionRequest in its camelCase shape even to a PascalCase entry
(observed 1.0.102): such an entry's command gets that payload, its matcher still selects
by Claude's tool names, and either answer shape Copilot reads there counts."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.dialect_helpers import agent_hooks_cli

REQUEST = {
    "hookName": "permissionRequest",
    "sessionId": "s1",
    "timestamp": 1733000000000,
    "toolName": "bash",
    "toolInput": {"command": "rm -rf /"},
    "permissionSuggestions": [],
}

WRAPPED = {
    "hookSpecificOutput": {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "deny", "message": "not here"},
    }
}
FLAT = {"behavior": "deny", "message": "not here"}


def project(tmp_path: Path, key: str, matcher: str, answer: dict[str, Any]) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    seen = tmp_path / "seen.json"
    command = f"cat > {seen}; echo '{json.dumps(answer)}'"
    doc = {"version": 1, "hooks": {key: [{"matcher": matcher, "command": command}]}}
    path = root / ".github" / "hooks" / "guard.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(doc))
    return root


def run(root: Path) -> subprocess.CompletedProcess[str]:
    return agent_hooks_cli(
        "run",
        "--dialect",
        "copilot",
        "--event",
        "PermissionRequest",
        "--config",
        str(root / ".github" / "hooks" / "guard.json"),
        "--trust-project-hooks",
        cwd=root,
        home=root.parent / "home",
        state=root.parent / "state",
        hide=("COPILOT_",),
        payload={**REQUEST, "cwd": str(root)},
    )


@pytest.mark.parametrize("answer", [WRAPPED, FLAT], ids=["wrapped", "flat"])
@pytest.mark.parametrize(
    ("key", "matcher"), [("PermissionRequest", "Bash"), ("permissionRequest", "bash")]
)
def test_a_permission_request_entry_gets_copilot_s_camel_case_payload(
    tmp_path: Path, key: str, matcher: str, answer: dict[str, Any]
) -> None:
    root = project(tmp_path, key, matcher, answer)
    proc = run(root)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"behavior": "deny", "message": "not here"}
    seen = json.loads((tmp_path / "seen.json").read_text())
    assert seen == {**REQUEST, "cwd": str(root)}
