"""``agent-hooks check`` and ``agent-hooks trust``: human and JSON output, exit codes,
trust round trip.

In this process (what they print and exit with is what is checked), but for the calls
that import a Python hook (kept out of the test process) and a few end to end as
processes (``python -m agent_hooks``, ``process=True``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli_inprocess import cli_in_process


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    e = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("XDG_", "CODEX", "CAGENT", "DOCKER_AGENT"))
    }
    e.update(
        HOME=str(home),
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_CONFIG_HOME=str(home / ".config"),
    )
    return e


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "project"
    p.mkdir()
    return p


def run(
    env: dict[str, str], *args: str, cwd: Path | None = None, process: bool = False
) -> subprocess.CompletedProcess[str]:
    if not process:
        return cli_in_process(args, env=env, cwd=cwd or os.getcwd())
    return subprocess.run(
        [sys.executable, "-m", "agent_hooks", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def write(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=2))
    return path


GOOD = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "./guard.sh",
                        "timeout": 30,
                        "statusMessage": "Guarding",
                    },
                    {"type": "prompt", "prompt": "Is this safe? $ARGUMENTS"},
                ],
            }
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}],
    }
}

BAD = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "[oops", "hooks": [{"type": "command", "command": "./x.sh"}]},
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "./ok.sh"}]},
        ],
        "Stopp": [],
    }
}


def test_check_lists_handlers_per_event(env: dict[str, str], project: Path, tmp_path: Path) -> None:
    config = write(tmp_path / "conf" / "hooks.json", GOOD)
    result = run(env, "check", "--config", str(config), "--project-dir", str(project), process=True)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "PreToolUse (2)" in out and "Stop (1)" in out
    assert "[command] ./guard.sh" in out
    assert "matcher: Bash" in out and "timeout: 30s" in out
    assert f"source: {config}  hooks.PreToolUse[0].hooks[0]" in out
    assert "[prompt] Is this safe? $ARGUMENTS" in out and "DISABLED" in out
    assert "warning handler_disabled" in out
    assert "configuration OK" in out


def test_check_json(env: dict[str, str], project: Path, tmp_path: Path) -> None:
    config = write(tmp_path / "conf" / "hooks.json", GOOD)
    result = run(env, "check", "--config", str(config), "--project-dir", str(project), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    guard, prompt = report["events"]["PreToolUse"]
    assert guard["name"] == "./guard.sh" and guard["type"] == "command"
    assert guard["matcher"] == "Bash" and guard["timeout"] == 30 and guard["source"] == str(config)
    assert guard["location"] == "hooks.PreToolUse[0].hooks[0]" and guard["disabled"] is None
    assert prompt["type"] == "prompt" and prompt["disabled"]
    assert report["events"]["Stop"][0]["timeout"] == 600
    assert (
        report["files"][0]["format"] == "claude-hooks" and report["files"][0]["status"] == "loaded"
    )
    assert report["summary"] == {
        "handlers": 2,
        "disabled": 1,
        "skipped": 0,
        "errors": 0,
        "warnings": 3,  # the prompt hook, and ./guard.sh and ./notify.sh do not exist
        "info": 0,
    }
    (file,) = report["files"]
    assert (file["handlers"], file["disabled"], file["skipped"]) == (2, 1, 0)
    assert file["trust"] == "not-needed"


def test_check_exits_1_on_configuration_errors(
    env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    good = write(tmp_path / "a" / "hooks.json", GOOD)
    bad = write(tmp_path / "b" / "hooks.json", BAD)
    result = run(
        env, "check", "--config", str(good), "--config", str(bad), "--project-dir", str(project)
    )
    assert result.returncode == 1
    assert f"{bad}: hooks.PreToolUse[0]: error invalid_matcher" in result.stdout
    assert f"{bad}: hooks.Stopp: error invalid_config" in result.stdout
    assert "./ok.sh" in result.stdout and "./guard.sh" in result.stdout  # neighbours stay
    report = json.loads(
        run(env, "check", "--config", str(bad), "--project-dir", str(project), "--json").stdout
    )
    assert report["summary"]["errors"] == 2
    assert {(d["code"], d["location"]) for d in report["diagnostics"]} >= {
        ("invalid_matcher", "hooks.PreToolUse[0]"),
        ("invalid_config", "hooks.Stopp"),
    }


def test_check_reports_parse_errors_with_lines(
    env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    broken = write(tmp_path / "c" / "hooks.json", '{"hooks": {\n  "Stop": [\n}')
    result = run(env, "check", "--config", str(broken), "--project-dir", str(project), "--json")
    assert result.returncode == 1
    (diag,) = json.loads(result.stdout)["diagnostics"]
    assert diag["code"] == "config_read_failed" and diag["location"].startswith("line 3")


def test_discovery_trust_round_trip(env: dict[str, str], project: Path) -> None:
    write(project / ".claude" / "settings.json", GOOD)
    write(
        Path(env["HOME"]) / ".claude" / "settings.json",
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./user.sh"}]}]}},
    )
    first = run(env, "check", "--project-dir", str(project))
    assert first.returncode == 0
    assert "untrusted" in first.stdout and "agent-hooks trust --project-dir" in first.stdout
    assert "[command] ./user.sh" in first.stdout and "[command] ./guard.sh" not in first.stdout
    assert "3 not loaded" in first.stdout and "UNTRUSTED" in first.stdout

    headless = run(env, "check", "--project-dir", str(project), "--trust-project-hooks")
    assert "./guard.sh" in headless.stdout

    granted = run(env, "trust", "--project-dir", str(project), process=True)
    assert granted.returncode == 0, granted.stderr
    assert ".claude/settings.json  sha256 " in granted.stdout
    assert "PreToolUse [Bash]: [command] ./guard.sh" in granted.stdout
    store = Path(env["XDG_STATE_HOME"]) / "agent_hooks" / "trust.json"
    assert store.exists()

    second = run(env, "check", "--project-dir", str(project), "--json")
    report = json.loads(second.stdout)
    assert [f["status"] for f in report["files"]] == ["loaded", "loaded"]
    assert [e["name"] for e in report["events"]["Stop"]] == ["./notify.sh", "./user.sh"]

    write(project / ".claude" / "settings.json", {**GOOD, "description": "edited"})
    third = json.loads(run(env, "check", "--project-dir", str(project), "--json").stdout)
    assert third["files"][0]["status"] == "untrusted"

    revoked = run(env, "trust", "--project-dir", str(project), "--revoke")
    assert revoked.returncode == 0 and "Revoked" in revoked.stdout


def test_trust_with_nothing_to_trust(env: dict[str, str], project: Path) -> None:
    result = run(env, "trust", "--project-dir", str(project))
    assert result.returncode == 0 and "nothing to trust" in result.stdout


def test_default_project_dir_is_the_working_directory(env: dict[str, str], project: Path) -> None:
    write(
        project / ".deepagents" / "hooks.json",
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./d.sh"}]}]}},
    )
    result = run(env, "check", "--trust-project-hooks", cwd=project)
    assert result.returncode == 0 and "./d.sh" in result.stdout


def test_no_hooks_and_usage_errors(env: dict[str, str], project: Path) -> None:
    empty = run(env, "check", "--project-dir", str(project))
    assert empty.returncode == 0 and "No hooks configured" in empty.stdout
    assert run(env).returncode == 2  # a subcommand is required
    assert run(env, "check", "--bogus").returncode == 2
    bad_format = run(
        env, "check", "--config", "x.json", "--format", "nope", "--project-dir", str(project)
    )
    assert bad_format.returncode == 2 and "unknown format" in bad_format.stderr
    assert "check" in run(env, "--help").stdout


def test_main_is_importable_and_returns_status(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from agent_hooks.__main__ import main

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert main(["check", "--project-dir", str(project), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["handlers"] == 0


def test_a_missing_config_named_on_the_command_line_is_an_error(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "agent_hooks", "check", "--config", str(tmp_path / "nope.json")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "no such file" in proc.stderr


# ----------------------------------------------- files that did not load, trust


def test_check_parses_and_validates_untrusted_files(env: dict[str, str], project: Path) -> None:
    """Parsing runs nothing: an untrusted file's mistakes are configuration errors too."""
    settings = write(project / ".claude" / "settings.json", '{"hooks": {\n  "Stop": [\n}')
    result = run(env, "check", "--project-dir", str(project))
    assert result.returncode == 1, result.stdout
    assert f"{settings}: line 3 column 1: error config_read_failed" in result.stdout
    assert "configuration OK" not in result.stdout
    assert "No hooks configured" not in result.stdout
    assert "1 file did not load" in result.stdout
    report = json.loads(run(env, "check", "--project-dir", str(project), "--json").stdout)
    (file,) = [f for f in report["files"] if f["path"] == str(settings)]
    assert (file["status"], file["trust"]) == ("untrusted", "untrusted")

    write(settings, BAD)  # parses; an invalid matcher and an unknown event
    result = run(env, "check", "--project-dir", str(project), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    codes = {(d["code"], d["location"]) for d in report["diagnostics"]}
    assert ("invalid_matcher", "hooks.PreToolUse[0]") in codes
    assert ("invalid_config", "hooks.Stopp") in codes
    assert report["events"] == {}  # nothing of it would run
    assert report["summary"]["skipped"] == 1 and report["summary"]["handlers"] == 0

    write(settings, GOOD)  # valid but untrusted: hooks exist, skipped, said so; exit 0
    result = run(env, "check", "--project-dir", str(project))
    assert result.returncode == 0
    assert "No hooks configured" not in result.stdout
    assert "No hooks active" in result.stdout and "3 handlers in files that did not load" in (
        result.stdout
    )
    assert "UNTRUSTED" in result.stdout and "3 not loaded" in result.stdout


def test_untrusted_python_hooks_are_never_imported(
    env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    """Neither `check` nor `trust` imports the module an untrusted file names."""
    marker = tmp_path / "imported"
    (project / "evil.py").write_text(
        f"open({str(marker)!r}, 'w').write('imported')\ndef hook(input):\n    return None\n"
    )
    hooks = {
        "hooks": {
            "PreToolUse": [
                {
                    "hooks": [
                        {"type": "python", "callable": "evil:hook"},
                        {"type": "python", "callable": "no colon here"},
                    ]
                }
            ]
        }
    }
    write(project / ".claude" / "settings.json", hooks)
    result = run(env, "check", "--project-dir", str(project), "--json")
    report = json.loads(result.stdout)
    assert result.returncode == 1  # the malformed reference is an error, found without import
    assert any("no colon here" in d["message"] for d in report["diagnostics"])
    assert report["summary"]["skipped"] == 1
    granted = run(env, "trust", "--project-dir", str(project))
    assert granted.returncode == 0, granted.stderr
    assert "[python] evil:hook" in granted.stdout
    assert "no colon here" in granted.stderr  # a piece that will not load: a warning
    assert not marker.exists()
    # once trusted, it loads (and imports) as before (a process: the import stays there)
    run(env, "check", "--project-dir", str(project), process=True)
    assert marker.exists()


def test_trust_refuses_a_file_that_does_not_parse(env: dict[str, str], project: Path) -> None:
    store = Path(env["XDG_STATE_HOME"]) / "agent_hooks" / "trust.json"
    write(project / ".deepagents" / "hooks.json", {"hooks": {"Stop": [{"command": ["./d.sh"]}]}})
    broken = write(project / ".claude" / "settings.json", '{"hooks": {"Stop": [}}')
    result = run(env, "trust", "--project-dir", str(project))
    assert result.returncode == 1
    assert f"{broken} does not parse" in result.stderr
    assert "line 1 column 21" in result.stderr and "invalid JSON" in result.stderr
    assert "nothing was trusted" in result.stderr
    assert not store.exists()  # no hash of a broken file, and no half-granted project
    write(broken, GOOD)
    result = run(env, "trust", "--project-dir", str(project))
    assert result.returncode == 0, result.stderr
    assert store.exists()
    # an explicitly named file that does not parse is refused too
    extra = write(project / "agent-hooks.json", "{ nope")
    result = run(env, "trust", "--project-dir", str(project), "--config", str(extra))
    assert result.returncode == 1 and f"{extra} does not parse" in result.stderr


def test_hel_trust_file_needs_the_flag(env: dict[str, str], project: Path) -> None:
    hel = write(
        project / ".hel" / "hooks.json",
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}},
    )
    import hashlib

    sha = hashlib.sha256(hel.read_bytes()).hexdigest()
    write(
        project / ".hel" / "hooks-trust.json",
        {"project": os.path.realpath(project), "sha256": sha},
    )
    plain = json.loads(run(env, "check", "--project-dir", str(project), "--json").stdout)
    (file,) = [f for f in plain["files"] if f["format"] == "hel"]
    assert (file["status"], file["trust"]) == ("untrusted", "untrusted")
    assert any("honor_hel_trust_file" in d["message"] for d in plain["diagnostics"])
    opted = run(env, "check", "--project-dir", str(project), "--honor-hel-trust-file")
    assert opted.returncode == 0
    assert "trusted by .hel/hooks-trust.json" in opted.stdout
    assert "[command] true" in opted.stdout
    # run takes the same flag
    payload = json.dumps(
        {"hook_event_name": "Stop", "session_id": "s", "cwd": str(project)}
    ).encode()
    for flags, code in (([], 2), (["--honor-hel-trust-file"], 0)):
        proc = cli_in_process(
            ["run", "--config", str(hel), "--fail-closed", *flags],
            input=payload,
            env=env,
            cwd=os.getcwd(),
        )
        assert proc.returncode == code, proc.stderr


# ------------------------------------------------------- programs, counts


def test_check_warns_about_missing_or_non_executable_programs(
    env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    scripts = project / "scripts"
    scripts.mkdir()
    (scripts / "ok.sh").write_text("#!/bin/sh\n")
    (scripts / "ok.sh").chmod(0o755)
    (scripts / "plain.sh").write_text("#!/bin/sh\n")
    (scripts / "plain.sh").chmod(0o644)
    plugin = tmp_path / "plugin"
    write(
        plugin / "hooks" / "hooks.json",
        {
            "hooks": {
                "Stop": [
                    {
                        "hooks": [
                            {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/gone.sh"},
                            {
                                "type": "command",
                                "command": '"$CLAUDE_PLUGIN_ROOT"/hooks/hooks.json',
                            },
                        ]
                    }
                ]
            }
        },
    )

    def c(command: str, **more: Any) -> dict[str, Any]:
        return {"type": "command", "command": command, **more}

    handlers = [
        # warned
        c("./scripts/missing.sh --flag"),  # 0: a relative path that does not exist
        c("X=1 ./scripts/plain.sh"),  # 1: not executable (after an assignment)
        c("no-such-program-agent-hooks-test arg"),  # 2: a bare name not on PATH
        c("./scripts/missing.sh", args=["x"]),  # 3: exec form, Claude Code's 'args'
        c('"$CLAUDE_PROJECT_DIR"/scripts/gone.sh'),  # 4: a known placeholder, resolved
        c("${CLAUDE_PROJECT_DIR}/scripts"),  # 5: a directory
        c("ok.sh", working_dir="scripts/none"),  # 6: bare name: PATH, not working_dir
        # fine, or cannot be known: not warned
        c("./scripts/ok.sh"),
        c("$CLAUDE_PROJECT_DIR/scripts/ok.sh && exit 0"),
        c("sh scripts/plain.sh"),
        c("echo hi; ./whatever"),  # a builtin first: nothing to check
        c("cd scripts && ./missing.sh"),
        c("$SOME_DIR/hook.sh"),  # an unknown variable
        c("$(which thing) --x"),
        c("./scripts/*.sh"),
        c("'unbalanced"),
        c("./local.sh", working_dir="$ELSEWHERE"),
        c("missing-tool-on-their-path", env={"PATH": "/opt/tools"}),
        c("pwsh-thing ./x.ps1", shell="pwsh"),
    ]
    config = write(project / "conf.json", {"hooks": {"PreToolUse": [{"hooks": handlers}]}})
    result = run(
        env,
        "check",
        "--project-dir",
        str(project),
        "--config",
        str(config),
        "--trust-project-hooks",
        "--json",
    )
    report = json.loads(result.stdout)
    assert result.returncode == 0, result.stdout  # warnings, not errors
    warned = {
        d["location"]: d["message"] for d in report["diagnostics"] if d["code"] == "launch_failed"
    }
    where = "hooks.PreToolUse[0].hooks[{}]".format
    assert set(warned) == {where(i) for i in range(7)}, warned
    assert "does not exist" in warned[where(0)] and str(project / "scripts") in warned[where(0)]
    assert "is not executable" in warned[where(1)] and "chmod +x" in warned[where(1)]
    assert "not found on PATH" in warned[where(2)]
    assert "does not exist" in warned[where(3)]
    assert str(project / "scripts" / "gone.sh") in warned[where(4)]
    assert "is a directory" in warned[where(5)]
    assert "not found on PATH" in warned[where(6)]
    assert all(d["severity"] == "warning" for d in report["diagnostics"])
    assert all(m.endswith("this hook will fail to start") for m in warned.values())
    # plugin placeholders are resolved against the plugin's root
    result = run(env, "check", "--project-dir", str(project), "--plugin", str(plugin), "--json")
    warned_plugin = [
        d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "launch_failed"
    ]
    assert len(warned_plugin) == 2, warned_plugin
    assert str(plugin / "gone.sh") in warned_plugin[0]["message"]
    assert "is not executable" in warned_plugin[1]["message"]


def test_per_file_and_summary_counts_agree(
    env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    write(project / ".claude" / "settings.json", GOOD)  # untrusted: 3 handlers not loaded
    user = write(
        Path(env["HOME"]) / ".claude" / "settings.json",
        {
            "hooks": {
                "PreToolUse": [
                    {"matcher": "[oops", "hooks": [{"type": "command", "command": "true"}]},
                    {
                        "matcher": "Bash",
                        "hooks": [
                            {"type": "command", "command": "true"},
                            {"type": "agent", "prompt": "check it"},
                        ],
                    },
                ],
                "Stop": [{"hooks": [{"type": "command", "command": "true", "if": "Bash(x)"}]}],
            }
        },
    )
    result = run(env, "check", "--project-dir", str(project), "--json")
    report = json.loads(result.stdout)
    files = {f["path"]: f for f in report["files"]}
    summary = report["summary"]
    for key in ("handlers", "disabled", "skipped"):
        assert summary[key] == sum(f[key] for f in report["files"]), key
    active = sum(1 for es in report["events"].values() for e in es if not e["disabled"])
    disabled = sum(1 for es in report["events"].values() for e in es if e["disabled"])
    assert (summary["handlers"], summary["disabled"]) == (active, disabled)
    # the group with the invalid matcher and the 'if' on Stop are dropped: not counted
    assert (files[str(user)]["handlers"], files[str(user)]["disabled"]) == (1, 1)
    settings = files[str(project / ".claude" / "settings.json")]
    assert (settings["handlers"], settings["skipped"]) == (0, 3)
    text = run(env, "check", "--project-dir", str(project)).stdout
    assert f"{user}  (claude-settings, 1 handler, 1 disabled, sha256 " in text
    assert "0 handlers, 3 not loaded" in text
    assert "1 handler active, 1 disabled, 3 not loaded; 1 configuration error." in text
