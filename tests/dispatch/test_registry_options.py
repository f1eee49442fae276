"""The registry's options and a session's arguments are keyword parameters (so editors
complete them and type checkers check them), each with the default the option has; a
name that is no option is refused with a message naming it."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap
from pathlib import Path

import attrs
import pytest

from agent_hooks import HookEvent, HookRegistry, Session

ROOT = Path(__file__).resolve().parents[2]


def _options() -> list[attrs.Attribute[object]]:
    return [f for f in attrs.fields(HookRegistry) if f.init and f.name != "sources"]


def test_every_registry_option_is_a_keyword_parameter_with_its_default() -> None:
    params = inspect.signature(HookRegistry.__init__).parameters
    options = _options()
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    assert len(options) >= 11
    for field in options:
        param = params.get(field.name)
        assert param is not None, f"HookRegistry option {field.name} is not a parameter"
        assert param.kind is inspect.Parameter.KEYWORD_ONLY
        assert "Any" not in str(param.annotation), field.name
        built = getattr(HookRegistry(), field.name)
        if isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]
            assert param.default is None and built == field.default.factory(), field.name
        else:
            assert param.default == field.default == built, field.name


def test_every_option_given_reaches_the_registry_and_evolve_keeps_the_others() -> None:
    registry = HookRegistry(
        tool_aliases={"shell": "Bash"},
        on_error={"PreToolUse": "block"},
        execution={"PostToolUse": "chained"},
        stop_on_block=True,
        stop_continuation_cap=3,
        max_processes=2,
        session_end_timeout=0.5,
        background_drain_timeout=1.0,
        fail_closed=True,
        secret_env_patterns=("SECRET",),
    )
    assert registry.tool_aliases == {"shell": "Bash"}
    assert registry.on_error == {"PreToolUse": "block"}
    assert registry.execution_for(HookEvent.POST_TOOL_USE) == "chained"
    assert (registry.stop_on_block, registry.stop_continuation_cap, registry.max_processes) == (
        True,
        3,
        2,
    )
    assert (registry.session_end_timeout, registry.background_drain_timeout) == (0.5, 1.0)
    assert registry.fail_closed
    assert registry.secret_env_patterns == ("SECRET",)
    evolved = registry.evolve(max_processes=4)
    assert evolved.max_processes == 4
    assert evolved.tool_aliases == {"shell": "Bash"} and evolved.fail_closed


@pytest.mark.parametrize(
    "build",
    [
        lambda: HookRegistry(tool_alias={"shell": "Bash"}),  # type: ignore[call-arg]
        lambda: HookRegistry().evolve(tool_alias={"shell": "Bash"}),
    ],
)
def test_an_unknown_registry_option_is_refused_by_name(build: object) -> None:
    with pytest.raises(TypeError, match=r"HookRegistry\.__init__\(\) got an unexpected keyword argument 'tool_alias'"):
        build()  # type: ignore[operator]


def test_an_option_with_a_bad_value_is_still_a_registration_error() -> None:
    from agent_hooks import RegistrationError

    with pytest.raises(RegistrationError, match="on_error must be warn, ignore or block"):
        HookRegistry(on_error="explode")  # type: ignore[arg-type]


def test_session_takes_the_sessions_arguments_by_name() -> None:
    session_params = dict(inspect.signature(Session.__init__).parameters)
    del session_params["self"], session_params["compiled"]
    params = dict(inspect.signature(HookRegistry.session).parameters)
    del params["self"]
    assert {n: (p.kind, p.default) for n, p in params.items()} == {
        n: (p.kind, p.default) for n, p in session_params.items()
    }
    session = HookRegistry().session(session_id="s1", cwd=str(ROOT), project_dir=str(ROOT))
    assert (session.session_id, session.cwd, session.project_dir) == ("s1", str(ROOT), str(ROOT))
    with pytest.raises(TypeError, match=r"HookRegistry\.session\(\) got an unexpected keyword argument 'sesion_id'"):
        HookRegistry().session(sesion_id="s1")  # type: ignore[call-arg]


def test_mypy_strict_checks_options_hooks_and_session_arguments(tmp_path: Path) -> None:
    bad = tmp_path / "typing_options.py"
    bad.write_text(
        textwrap.dedent(
            """
            from agent_hooks import CommandHook, HookMatcher, HookRegistry, PreToolUseInput

            def check(input: PreToolUseInput) -> None:
                return None

            good = HookRegistry(
                {"PreToolUse": [HookMatcher(hooks=[check, CommandHook(command="./guard.sh")])]},
                fail_closed=True,
                max_processes=4,
            )
            good.session(session_id="s", cwd="/tmp")
            HookMatcher(hooks=["./guard.sh"])
            HookRegistry(tool_alias={"shell": "Bash"})
            HookRegistry(max_processes="4")
            good.session(sesion_id="s")
            """
        )
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    lines = sorted({int(line.split(":")[1]) for line in errors})
    assert lines == [13, 14, 15, 16], done.stdout
    assert '"HookRegistry" gets multiple values' not in done.stdout
    assert 'Unexpected keyword argument "tool_alias"' in done.stdout
    assert 'Unexpected keyword argument "sesion_id"' in done.stdout
