"""The harness of seed 001: {project}/.hel/hooks.json, trusted by the real project path
plus the SHA-256 of the exact bytes (the agent_hooks store or hel's own trust file)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from agent_hooks import (
    DiagnosticCode,
    HookEvent,
    PostToolUseInput,
    PreToolUseInput,
    Severity,
    TrustPolicy,
)
from agent_hooks._config._discover import discover
from agent_hooks._config._hel import load_hel
from agent_hooks._config._load import load
from agent_hooks._config._trust import TrustStore
from agent_hooks._wire._dialects import HEL

pytestmark = pytest.mark.anyio
PY = sys.executable

# The seed's example, with the read guard written out as a small script.
HEL_HOOKS = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "^(search_replace|write_file)$",
                "hooks": [
                    {"type": "command", "command": f"{PY} hooks/read_guard.py", "timeout": 10}
                ],
            }
        ],
        "PostToolUse": [
            {
                "matcher": "^read_file$",
                "hooks": [
                    {"type": "command", "command": f"{PY} hooks/read_guard.py", "timeout": 10}
                ],
            }
        ],
    }
}

READ_GUARD = """\
import json, os, sys
event = json.load(sys.stdin)
state = os.path.join(".hel", "read.log")
path = event["tool_input"].get("path", "")
if event["hook_event_name"] == "PostToolUse":
    with open(state, "a") as f:
        f.write(path + "\\n")
    sys.exit(0)
seen = open(state).read().split() if os.path.exists(state) else []
if path not in seen:
    print(f"{path}를 먼저 read_file로 읽은 뒤 편집을 다시 요청해 주세요.", file=sys.stderr)
    sys.exit(2)
"""


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "project"
    (p / ".hel").mkdir(parents=True)
    (p / "hooks").mkdir()
    (p / "hooks" / "read_guard.py").write_text(READ_GUARD)
    (p / ".hel" / "hooks.json").write_text(json.dumps(HEL_HOOKS, indent=2))
    return p


async def test_read_before_edit_guard(project: Path) -> None:
    store = TrustStore()
    data = (project / ".hel" / "hooks.json").read_bytes()
    store.grant(project, {".hel/hooks.json": store.digest(data)})
    config = discover(project, ecosystems=("hel",))
    assert config.diagnostics == ()
    assert config.files[0].format == "hel" and config.sources[0].source.dialect is HEL
    registry = config.registry(execution={"PreToolUse": "chained"}, stop_on_block=True)
    edit = PreToolUseInput(tool_name="search_replace", tool_input={"path": "a.txt"})
    async with registry.session(cwd=str(project)) as session:
        first = await session.dispatch(edit)
        await session.dispatch(
            PostToolUseInput(
                tool_name="read_file", tool_input={"path": "a.txt"}, tool_response="old\n"
            )
        )
        second = await session.dispatch(edit)
    assert first.blocked and first.reason is not None and "a.txt" in first.reason
    assert not second.blocked


def test_untrusted_then_editing_revokes(project: Path) -> None:
    config = load_hel(project)
    assert config.files[0].status == "untrusted"
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.UNTRUSTED and f"--project-dir {project}" in diag.message
    store = TrustStore()
    path = project / ".hel" / "hooks.json"
    store.grant(project, {".hel/hooks.json": store.digest(path.read_bytes())})
    assert load_hel(project).files[0].status == "loaded"
    path.write_text(path.read_text().replace('"timeout": 10', '"timeout": 11'))
    assert load_hel(project).files[0].status == "untrusted"


def test_hels_own_trust_file_grants_nothing_by_default(project: Path) -> None:
    """The file lives in the repository: a repository could ship one trusting itself for a
    guessable checkout path. It counts only when the caller opts in."""
    path = project / ".hel" / "hooks.json"
    sha = TrustStore.digest(path.read_bytes())
    trust_file = project / ".hel" / "hooks-trust.json"
    trust_file.write_text(json.dumps({"project": os.path.realpath(project), "sha256": sha}))
    for config in (
        load_hel(project),
        discover(project, ecosystems=("hel",)),
        load(path),
        load_hel(project, trust=TrustPolicy()),
    ):
        (file,) = config.files
        assert file.status == "untrusted" and file.trust == "untrusted"
        assert config.sources[0].groups == ()
        codes = [(d.code, d.severity) for d in config.diagnostics]
        assert (DiagnosticCode.UNTRUSTED, Severity.WARNING) in codes
        # and it says why the trust file did not count, and how to opt in
        hint = [d for d in config.diagnostics if "hooks-trust.json" in d.message]
        assert hint and "honor_hel_trust_file" in hint[0].message


def test_hels_own_trust_file_is_an_explicit_opt_in(project: Path) -> None:
    path = project / ".hel" / "hooks.json"
    sha = TrustStore.digest(path.read_bytes())
    trust_file = project / ".hel" / "hooks-trust.json"
    trust_file.write_text(json.dumps({"project": os.path.realpath(project), "sha256": sha}))
    policy = TrustPolicy(honor_hel_trust_file=True)
    for config in (
        load_hel(project, trust=policy),
        discover(project, ecosystems=("hel",), trust=policy),
        load(path, trust=policy),
        load_hel(project, honor_hel_trust_file=True),
    ):
        (file,) = config.files
        assert file.status == "loaded" and file.trust == "hel-trust-file"
    # an opt-in policy can still be overridden per call
    assert load_hel(project, trust=policy, honor_hel_trust_file=False).files[0].status == (
        "untrusted"
    )
    # only this checkout's real path counts
    trust_file.write_text(json.dumps({"project": "/elsewhere", "sha256": sha}))
    assert load_hel(project, trust=policy).files[0].status == "untrusted"
    # and only this content
    trust_file.write_text(json.dumps({"project": os.path.realpath(project), "sha256": "0" * 64}))
    assert load_hel(project, trust=policy).files[0].status == "untrusted"


def test_load_detects_hel(project: Path) -> None:
    config = load(project / ".hel" / "hooks.json", trust=True)
    assert config.files[0].format == "hel"
    assert config.files[0].project_dir == str(project)
    events = [g.event for g in config.sources[0].groups]
    assert events == [HookEvent.PRE_TOOL_USE, HookEvent.POST_TOOL_USE]
