"""``{"type": "python", "callable": "package.module:function"}`` in config files: imported
from beside the config file or the project, run in-process with either signature,
import problems as diagnostics, and never imported from an untrusted project file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import DiagnosticCode, HookEvent, PreToolUseInput, Severity
from agent_hooks._config._load import load
from agent_hooks._config._trust import TrustPolicy, TrustStore

pytestmark = pytest.mark.anyio


@pytest.fixture
def modname() -> Iterator[str]:
    """A module name no other test uses (imported modules stay in ``sys.modules``)."""
    name = f"refhooks_{uuid.uuid4().hex[:12]}"
    yield name
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[key]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def config_file(path: Path, entries: list[dict[str, Any]], event: str = "PreToolUse") -> Path:
    return write(path, json.dumps({"hooks": {event: [{"matcher": "Bash", "hooks": entries}]}}))


def py(ref: str, **more: Any) -> dict[str, Any]:
    return {"type": "python", "callable": ref, **more}


HOOKS = """\
from agent_hooks import PreToolUseInput, PreToolUseOutput

CALLS = []


def typed(input: PreToolUseInput) -> PreToolUseOutput:
    CALLS.append(("typed", input.tool_name))
    return PreToolUseOutput(additional_context="typed " + input.tool_input["command"])


async def typed_async(input):
    CALLS.append(("typed_async", input.tool_name))
    return PreToolUseOutput(additional_context="typed async")


def sdk(input_data, tool_use_id, context):
    CALLS.append(("sdk", input_data["hook_event_name"], tool_use_id))
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "sdk says no to " + input_data["tool_input"]["command"],
        }
    }


async def sdk_async(input_data, tool_use_id, context):
    CALLS.append(("sdk_async", context))
    return {"systemMessage": "from sdk_async"}


class Holder:
    @staticmethod
    def nested(input):
        return PreToolUseOutput(additional_context="nested")


NOT_CALLABLE = 42


def bad_signature(a, b):
    return None
"""


def pre(command: str = "ls") -> PreToolUseInput:
    return PreToolUseInput(
        tool_name="Bash", tool_input={"command": command}, tool_use_id="tu-1", session_id="s"
    )


async def dispatch(config: Any, input: PreToolUseInput | None = None) -> Any:
    async with config.registry().session(session_id="s") as session:
        return await session.dispatch(input or pre())


# ---------------------------------------------------------------- signatures


async def test_both_signatures_sync_and_async(tmp_path: Path, modname: str) -> None:
    write(tmp_path / "conf" / f"{modname}.py", HOOKS)
    path = config_file(
        tmp_path / "conf" / "hooks.json",
        [
            py(f"{modname}:typed"),
            py(f"{modname}:typed_async"),
            py(f"{modname}:sdk"),
            py(f"{modname}:sdk_async"),
            py(f"{modname}:Holder.nested", name="nested one"),
        ],
    )
    config = load(path, project_dir=tmp_path / "project")
    assert not config.errors
    decision = await dispatch(config)
    out = decision.output
    assert out.permission_decision == "deny"
    assert out.permission_decision_reason == "sdk says no to ls"
    assert out.additional_context == "typed ls\ntyped async\nnested"
    assert out.system_message == "from sdk_async"
    names = [r.handler.name for r in decision.results]
    assert names == [
        f"{modname}:typed",
        f"{modname}:typed_async",
        f"{modname}:sdk",
        f"{modname}:sdk_async",
        "nested one",
    ]
    assert {r.handler.kind for r in decision.results} == {"python"}
    module = sys.modules[modname]
    # handlers run concurrently: calls in any order, results in configuration order
    assert sorted(map(repr, module.CALLS)) == sorted(
        map(
            repr,
            [
                ("typed", "Bash"),
                ("typed_async", "Bash"),
                ("sdk", "PreToolUse", "tu-1"),
                ("sdk_async", {"signal": None}),
            ],
        )
    )


async def test_imported_once_and_run_in_process(tmp_path: Path, modname: str) -> None:
    write(tmp_path / f"{modname}.py", HOOKS)
    path = config_file(tmp_path / "hooks.json", [py(f"{modname}:typed")])
    config = load(path, project_dir=tmp_path / "elsewhere")
    registry = config.registry()
    async with registry.session() as session:
        for _ in range(3):
            await session.dispatch(pre())
    assert sys.modules[modname].CALLS == [("typed", "Bash")] * 3
    assert str(tmp_path) not in sys.path  # the search path is not left behind


async def test_module_found_in_a_trusted_project_dir(tmp_path: Path, modname: str) -> None:
    """A config outside the project may name a module only the project provides, once the
    project is trusted (here: for this run; see the trust tests below for grants)."""
    project = tmp_path / "project"
    write(project / "tools" / f"{modname}.py", HOOKS)
    write(project / "tools" / "__init__.py", "")
    path = config_file(tmp_path / "conf" / "hooks.json", [py(f"tools.{modname}:typed")])
    try:
        config = load(path, project_dir=project, trust=True)
        assert not config.errors
        decision = await dispatch(config)
        assert decision.output.additional_context == "typed ls"
    finally:
        for key in [k for k in sys.modules if k == "tools" or k.startswith("tools.")]:
            del sys.modules[key]


# ---------------------------------------------------------- problems found


@pytest.mark.parametrize(
    ("ref", "fragment"),
    [
        ("{mod}_missing:fn", "cannot import"),
        ("{mod}:no_such_function", "has no attribute"),
        ("{mod}:NOT_CALLABLE", "not callable"),
        ("{mod}:bad_signature", "signature"),
        ("no colon here", "package.module:function"),
    ],
)
async def test_bad_reference_is_a_diagnostic_and_the_rest_runs(
    tmp_path: Path, modname: str, ref: str, fragment: str
) -> None:
    write(tmp_path / f"{modname}.py", HOOKS)
    path = config_file(
        tmp_path / "hooks.json", [py(ref.format(mod=modname)), py(f"{modname}:typed")]
    )
    config = load(path, project_dir=tmp_path / "elsewhere")
    errors = [d for d in config.diagnostics if d.severity is Severity.ERROR]
    assert len(errors) == 1, config.diagnostics
    assert errors[0].code is DiagnosticCode.INVALID_HANDLER
    assert fragment in errors[0].message
    assert errors[0].source == str(path)
    decision = await dispatch(config)
    assert decision.output.additional_context == "typed ls"  # the other handler still runs
    assert len(decision.results) == 1


async def test_module_raising_at_import_is_a_diagnostic(tmp_path: Path, modname: str) -> None:
    write(tmp_path / f"{modname}.py", "raise RuntimeError('broken module')\n")
    path = config_file(tmp_path / "hooks.json", [py(f"{modname}:fn")])
    config = load(path, project_dir=tmp_path / "elsewhere")
    (error,) = config.errors
    assert "RuntimeError" in error.message and "broken module" in error.message
    decision = await dispatch(config)
    assert decision.results == ()
    assert any(d.code is DiagnosticCode.INVALID_HANDLER for d in config.registry().diagnostics)


async def test_missing_callable_key(tmp_path: Path) -> None:
    path = config_file(tmp_path / "hooks.json", [{"type": "python"}])
    config = load(path, project_dir=tmp_path / "elsewhere")
    (error,) = config.errors
    assert "callable" in error.message


async def test_raising_callback_fails_open(tmp_path: Path, modname: str) -> None:
    write(
        tmp_path / f"{modname}.py",
        """\
        def boom(input):
            raise ValueError("callback failed")
        """,
    )
    path = config_file(tmp_path / "hooks.json", [py(f"{modname}:boom")])
    decision = await dispatch(load(path, project_dir=tmp_path / "elsewhere"))
    assert not decision.blocked
    (result,) = decision.results
    assert result.outcome.value == "error"
    assert any("callback failed" in d.message for d in decision.diagnostics)


# ---------------------------------------------------------------- trust


MARKER_MODULE = """\
import pathlib

pathlib.Path({marker!r}).write_text("imported")


def hook(input):
    from agent_hooks import PreToolUseOutput

    return PreToolUseOutput(additional_context="project module ran")
"""


def _project_with_marker(tmp_path: Path, modname: str) -> tuple[Path, Path, Path]:
    project = tmp_path / "project"
    marker = tmp_path / "imported.txt"
    write(project / ".claude" / f"{modname}.py", MARKER_MODULE.format(marker=str(marker)))
    path = config_file(project / ".claude" / "agent-hooks.json", [py(f"{modname}:hook")])
    return project, path, marker


async def test_untrusted_project_config_never_imports_the_module(
    tmp_path: Path, modname: str
) -> None:
    project, path, marker = _project_with_marker(tmp_path, modname)
    store = TrustStore(tmp_path / "state" / "trust.json")
    config = load(path, project_dir=project, trust=TrustPolicy(store=store))
    assert not marker.exists()
    assert modname not in sys.modules
    assert [f.status for f in config.files] == ["untrusted"]
    assert any(d.code is DiagnosticCode.UNTRUSTED for d in config.diagnostics)
    decision = await dispatch(config)
    assert decision.results == () and not marker.exists()

    for untrusted in (False, None):  # trust nothing; the (empty) default store
        if untrusted is None:
            untrusted_policy: Any = TrustPolicy(store=store)
        else:
            untrusted_policy = untrusted
        load(path, project_dir=project, trust=untrusted_policy)
        assert not marker.exists()

    # trusting exactly this content imports and runs it
    policy = TrustPolicy(store=store)
    policy.grant(project, {".claude/agent-hooks.json": TrustStore.digest(path.read_bytes())})
    config = load(path, project_dir=project, trust=policy)
    assert marker.exists()
    decision = await dispatch(config)
    assert decision.output.additional_context == "project module ran"


async def test_editing_a_trusted_file_revokes_trust(tmp_path: Path, modname: str) -> None:
    project, path, marker = _project_with_marker(tmp_path, modname)
    policy = TrustPolicy(store=TrustStore(tmp_path / "trust.json"))
    policy.grant(project, {".claude/agent-hooks.json": TrustStore.digest(path.read_bytes())})
    config_file(path, [py(f"{modname}:hook", name="edited")])
    config = load(path, project_dir=project, trust=policy)
    assert [f.status for f in config.files] == ["untrusted"]
    assert not marker.exists()


def test_untrusted_project_config_via_run_never_imports(tmp_path: Path, modname: str) -> None:
    project, path, marker = _project_with_marker(tmp_path, modname)
    payload = json.dumps(
        {
            "hook_event_name": "PreToolUse",
            "session_id": "s",
            "cwd": str(project),
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
        }
    ).encode()
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        # (kept in-process, as tests/conftest.py asks: no resident server outlives the test)
        **{k: v for k, v in os.environ.items() if k == "AGENT_HOOKS_NO_DAEMON"},
    }

    def run(*extra: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "agent_hooks", "run", "--config", str(path), *extra],
            input=payload,
            capture_output=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
            check=False,
        )

    proc = run()
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {}
    assert b"untrusted" in proc.stderr
    assert not marker.exists()
    proc = run("--trust-project-hooks")
    assert json.loads(proc.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "additionalContext": "project module ran",
        }
    }
    assert marker.exists()


# ------------------------------------ a project's modules follow the project's trust


def _user_config_naming_a_project_module(
    tmp_path: Path, modname: str, package: bool = False
) -> tuple[Path, Path, Path]:
    """A config outside the project (the user's) naming a module that only the project
    provides; importing it writes ``marker``."""
    project = tmp_path / "project"
    marker = tmp_path / "imported.txt"
    code = MARKER_MODULE.format(marker=str(marker))
    if package:  # the package's __init__ is what runs first
        write(project / modname / "__init__.py", code)
        write(project / modname / "hooks.py", "from . import hook\n")
        ref = f"{modname}.hooks:hook"
    else:
        write(project / f"{modname}.py", code)
        ref = f"{modname}:hook"
    path = config_file(tmp_path / "user" / "agent-hooks.json", [py(ref)])
    return project, path, marker


@pytest.mark.parametrize("package", [False, True])
async def test_a_user_config_never_imports_from_an_untrusted_project(
    tmp_path: Path, modname: str, package: bool
) -> None:
    project, path, marker = _user_config_naming_a_project_module(tmp_path, modname, package)
    store = TrustStore(tmp_path / "state" / "trust.json")
    for trust in (TrustPolicy(store=store), False):
        config = load(path, project_dir=project, trust=trust)
        assert not marker.exists() and modname not in sys.modules
        (error,) = config.errors
        assert error.code is DiagnosticCode.INVALID_HANDLER and error.source == str(path)
        decision = await dispatch(config)
        assert decision.results == ()

    # Trusting a hook file of the project (for its current content) trusts the code its
    # hooks run: the module is then found, after sys.path.
    settings = write(project / ".claude" / "settings.json", '{"hooks": {}}')
    policy = TrustPolicy(store=store)
    policy.grant(project, {".claude/settings.json": TrustStore.digest(settings.read_bytes())})
    config = load(path, project_dir=project, trust=policy)
    assert not config.errors, config.diagnostics
    assert marker.exists()
    decision = await dispatch(config)
    assert decision.output.additional_context == "project module ran"


async def test_editing_the_trusted_file_withdraws_the_projects_modules(
    tmp_path: Path, modname: str
) -> None:
    project, path, marker = _user_config_naming_a_project_module(tmp_path, modname)
    settings = write(project / ".claude" / "settings.json", '{"hooks": {}}')
    policy = TrustPolicy(store=TrustStore(tmp_path / "state" / "trust.json"))
    policy.grant(project, {".claude/settings.json": TrustStore.digest(settings.read_bytes())})
    assert policy.trusts_directory(project)
    write(settings, '{"hooks": {"Stop": []}}')  # edited: its grant is no longer in force
    assert not policy.trusts_directory(project)
    config = load(path, project_dir=project, trust=policy)
    assert config.errors and not marker.exists() and modname not in sys.modules


@pytest.mark.parametrize("package", [False, True])
async def test_an_untrusted_project_on_sys_path_is_refused(
    tmp_path: Path, modname: str, package: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m agent_hooks`` run in the project puts it first on sys.path: a module
    that would come from under the untrusted project is refused all the same, before any
    of its code (a package's ``__init__`` included) runs."""
    project, path, marker = _user_config_naming_a_project_module(tmp_path, modname, package)
    monkeypatch.syspath_prepend(str(project))
    config = load(path, project_dir=project, trust=TrustPolicy(store=None))
    assert not marker.exists() and modname not in sys.modules
    (error,) = config.errors
    assert "not trusted" in error.message and str(project) in error.message
    assert "agent-hooks trust --project-dir" in error.message
    # trusted for this run: the same sys.path imports it
    config = load(path, project_dir=project, trust=True)
    assert not config.errors and marker.exists()


def test_run_in_an_untrusted_project_never_imports_its_modules(
    tmp_path: Path, modname: str
) -> None:
    """The harness runs ``python -m agent_hooks run --config <user file>`` in the project
    (its working directory, first on sys.path): the project's module is not imported."""
    project, path, marker = _user_config_naming_a_project_module(tmp_path, modname)
    payload = json.dumps(
        {
            "hook_event_name": "PreToolUse",
            "session_id": "s",
            "cwd": str(project),
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
        }
    ).encode()
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        # (AGENT_HOOKS_NO_DAEMON: kept in-process, as tests/conftest.py asks)
        **{k: v for k, v in os.environ.items() if k in ("PYTHONPATH", "AGENT_HOOKS_NO_DAEMON")},
    }

    def run(*extra: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "agent_hooks", "run", "--config", str(path), *extra],
            input=payload,
            capture_output=True,
            env=env,
            cwd=project,
            timeout=60,
            check=False,
        )

    proc = run()
    assert json.loads(proc.stdout) == {}
    assert b"not imported" in proc.stderr or b"cannot import" in proc.stderr
    assert not marker.exists()
    assert run("--fail-closed").returncode == 2 and not marker.exists()
    proc = run("--trust-project-hooks")
    assert json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"] == (
        "project module ran"
    )
    assert marker.exists()


# -------------------------------------------------------------- other formats


async def test_yaml_and_toml_configs(tmp_path: Path, modname: str) -> None:
    pytest.importorskip("yaml")
    write(tmp_path / f"{modname}.py", HOOKS)
    yaml_path = write(
        tmp_path / "dropin.yaml",
        f"""\
        pre_tool_use:
        - matcher: "Bash"
          hooks:
          - type: python
            callable: "{modname}:typed"
        """,
    )
    toml_path = write(
        tmp_path / "hooks.toml",
        f"""\
        [[hooks.PreToolUse]]
        matcher = "Bash"

        [[hooks.PreToolUse.hooks]]
        type = "python"
        callable = "{modname}:sdk"
        """,
    )
    for path, expected in ((yaml_path, "typed ls"), (toml_path, None)):
        config = load(path, project_dir=tmp_path / "elsewhere")
        assert not config.errors, config.diagnostics
        assert [g.event for sg in config.sources for g in sg.groups] == [HookEvent.PRE_TOOL_USE]
        decision = await dispatch(config)
        if expected is None:
            assert decision.output.permission_decision == "deny"
        else:
            assert decision.output.additional_context == expected


async def test_a_user_config_cannot_be_shadowed_by_a_project_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module the user's (outside-the-project) config names resolves on sys.path before
    the project directory: a repository cannot plant a module of the same name."""
    site = tmp_path / "site"
    modname = "shadowtarget_" + tmp_path.name.replace("-", "_")
    write(site / f"{modname}.py", HOOKS)
    project = tmp_path / "project"
    write(project / f"{modname}.py", "raise SystemExit('project module imported')\n")
    monkeypatch.syspath_prepend(str(site))
    path = config_file(tmp_path / "conf" / "hooks.json", [py(f"{modname}:typed")])
    try:
        config = load(path, project_dir=project)
        assert not config.errors
        decision = await dispatch(config)
        assert decision.output.additional_context == "typed ls"
    finally:
        sys.modules.pop(modname, None)
