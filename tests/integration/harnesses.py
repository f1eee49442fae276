"""The real harnesses: install from npm into a cache once, lay out a fresh HOME and
project per test, wire ``agent-hooks run`` in as the hook command, run bounded.

Cache: ``$AGENT_HOOKS_HARNESS_CACHE``, else ``$XDG_CACHE_HOME/agent-hooks/harnesses``,
else ``~/.cache/agent-hooks/harnesses``; one folder per ``<name>-<version>``, installed
into a temporary sibling and renamed into place, so an interrupted install is never
mistaken for a finished one and concurrent runs do not collide.
"""

from __future__ import annotations

import functools
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import attrs

INSTALL_TIMEOUT = 420.0
"""One ``npm install`` of a harness (the packages are 100-400 MB)."""
RUN_TIMEOUT = 120.0
"""One harness run, start to exit."""
HOOK_TIMEOUT_S = 60
"""The timeout written into the harness's hook entries (seconds; Gemini: ms)."""

LATEST_ENV = "AGENT_HOOKS_HARNESS_LATEST"
CACHE_ENV = "AGENT_HOOKS_HARNESS_CACHE"

ROOT = Path(__file__).resolve().parents[2]


class HarnessUnavailable(Exception):
    """The harness could not be installed or does not start: its tests are skipped."""


@attrs.frozen
class HarnessSpec:
    name: str
    package: str
    version: str
    """The pinned release."""
    bin: str
    """The executable in ``node_modules/.bin``."""
    api: str
    """The model API its mock speaks: ``anthropic``, ``responses``, ``gemini``."""
    shell_tool: str
    """The model-side name of its shell tool."""
    hook_shell_name: str
    """What its hook payloads call the shell tool."""


CLAUDE_CODE = HarnessSpec(
    name="claude-code",
    package="@anthropic-ai/claude-code",
    version="2.1.332",
    bin="claude",
    api="anthropic",
    shell_tool="Bash",
    hook_shell_name="Bash",
)
CODEX = HarnessSpec(
    name="codex",
    package="@openai/codex",
    version="0.171.0",
    bin="codex",
    api="responses",
    shell_tool="exec_command",
    hook_shell_name="Bash",
)
GEMINI_CLI = HarnessSpec(
    name="gemini-cli",
    package="@google/gemini-cli",
    version="0.61.0",
    bin="gemini",
    api="gemini",
    shell_tool="run_shell_command",
    hook_shell_name="run_shell_command",
)
COPILOT_CLI = HarnessSpec(
    name="copilot",
    package="@github/copilot",
    version="1.0.102",
    bin="copilot",
    api="responses",
    shell_tool="bash",
    hook_shell_name="bash",
)
HARNESSES = (CLAUDE_CODE, CODEX, GEMINI_CLI, COPILOT_CLI)


# ---------------------------------------------------------------- processes


@attrs.frozen
class Completed:
    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    def describe(self) -> str:
        return (
            f"$ {' '.join(self.argv)}\nexit {self.returncode} after {self.seconds:.1f} s\n"
            f"--- stdout\n{self.stdout[-4000:]}\n--- stderr\n{self.stderr[-4000:]}"
        )


def _kill_group(pgid: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@functools.cache
def daemon_available() -> bool:
    """This build's ``agent-hooks run`` answers through a resident server."""
    done = run_bounded([agent_hooks_exe(), "daemon", "--help"], timeout=60)
    return done.returncode == 0 and "resident" in done.stdout


def run_bounded(
    argv: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float,
    stdin: bytes | None = None,
) -> Completed:
    """Run ``argv`` in its own process group; kill the whole group on timeout and after
    it exits (whatever it left behind); raise ``TimeoutError`` on timeout."""
    start = time.monotonic()
    proc = subprocess.Popen(
        list(argv),
        env=dict(env) if env is not None else None,
        cwd=cwd,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        out, err = proc.communicate(timeout=30)
        raise TimeoutError(
            f"{argv[0]} did not finish within {timeout:.0f} s\n--- stdout\n"
            f"{out.decode(errors='replace')[-3000:]}\n--- stderr\n{err.decode(errors='replace')[-3000:]}"
        ) from None
    finally:
        _kill_group(proc.pid)
        if proc.returncode is None:
            proc.kill()
            proc.wait(timeout=30)
    return Completed(
        argv=tuple(argv),
        returncode=proc.returncode,
        stdout=out.decode(errors="replace"),
        stderr=err.decode(errors="replace"),
        seconds=time.monotonic() - start,
    )


# ---------------------------------------------------------------- installing


def cache_dir() -> Path:
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "agent-hooks" / "harnesses"


def installed_bin(spec: HarnessSpec, version: str) -> Path | None:
    """The cached executable of ``spec`` at ``version``, when it is installed."""
    path = cache_dir() / f"{spec.name}-{version}" / "node_modules" / ".bin" / spec.bin
    return path if path.exists() else None


def npm() -> str | None:
    return shutil.which("npm")


def latest_version(spec: HarnessSpec) -> str:
    """The version npm's ``latest`` tag names (one registry look-up of the package)."""
    exe = npm()
    if exe is None:
        raise HarnessUnavailable("npm is not installed")
    try:
        done = run_bounded([exe, "view", f"{spec.package}@latest", "version"], timeout=120)
    except TimeoutError as exc:
        raise HarnessUnavailable(f"npm view {spec.package} timed out: {exc}") from None
    version = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    if done.returncode != 0 or not version:
        raise HarnessUnavailable(f"npm view {spec.package}@latest failed:\n{done.stderr[-2000:]}")
    return version


def install(spec: HarnessSpec, version: str) -> Path:
    """Install ``spec`` at ``version`` into the cache (once) and return its executable."""
    found = installed_bin(spec, version)
    if found is not None:
        return found
    exe = npm()
    if exe is None:
        raise HarnessUnavailable(
            f"{spec.name} {version} is not in {cache_dir()} and npm is not installed"
        )
    final = cache_dir() / f"{spec.name}-{version}"
    tmp = cache_dir() / f".{spec.name}-{version}.{os.getpid()}.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        done = run_bounded(
            [
                exe,
                "install",
                "--prefix",
                str(tmp),
                "--no-audit",
                "--no-fund",
                "--no-save",
                "--loglevel=error",
                f"{spec.package}@{version}",
            ],
            timeout=INSTALL_TIMEOUT,
        )
    except TimeoutError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise HarnessUnavailable(f"npm install {spec.package}@{version} timed out: {exc}") from None
    if done.returncode != 0 or not (tmp / "node_modules" / ".bin" / spec.bin).exists():
        shutil.rmtree(tmp, ignore_errors=True)
        said = " | ".join(line.strip() for line in done.stderr.splitlines() if line.strip())
        raise HarnessUnavailable(
            f"{spec.name} {version} could not be installed from npm "
            f"(npm install {spec.package}@{version}: exit {done.returncode}): {said[:600]}"
        )
    try:
        tmp.rename(final)
    except OSError:  # another run finished first: use its copy
        shutil.rmtree(tmp, ignore_errors=True)
    found = installed_bin(spec, version)
    if found is None:
        raise HarnessUnavailable(f"{spec.name} {version}: {spec.bin} missing after install")
    return found


# ---------------------------------------------------------------- agent-hooks


def agent_hooks_exe() -> str:
    """The ``agent-hooks`` script of the interpreter running the tests."""
    beside = Path(sys.executable).parent / "agent-hooks"
    if beside.exists():
        return str(beside)
    found = shutil.which("agent-hooks")
    if found is None:
        raise RuntimeError("agent-hooks is not installed (pip install -e .)")
    return found


def run_help() -> str:
    """``agent-hooks run --help``: what this build's bridge accepts."""
    done = run_bounded([agent_hooks_exe(), "run", "--help"], timeout=60)
    return done.stdout


def dialect_supported(name: str) -> bool:
    """This build's ``agent-hooks run`` can answer the ``name`` dialect (issue 17): a
    ``--dialect`` option that lists it, and a dialect of that name in the public API."""
    import agent_hooks

    try:
        agent_hooks.get_dialect(name)
    except ValueError:
        return False
    text = run_help()
    return "--dialect" in text and name in text


# ---------------------------------------------------------------- one test's world


GUARD_SH = """#!/bin/sh
# A Claude-style guard: the payload on stdin; exit 2 with the reason on stderr blocks.
if grep -q 'rm -r'; then
  echo "GUARD-SH-REASON: rm -r is not allowed in this project" >&2
  exit 2
fi
exit 0
"""

RECORD_SH = """#!/bin/sh
# Keep what this hook got on stdin, byte for byte; answer nothing.
cat > "{dir}/$(date +%s%N)-$$.json"
"""

WRAPPER_SH = """#!/bin/sh
# The harness's hook command: keep the payload as the harness sent it, let agent-hooks
# answer it, and pass its stdout, stderr and exit status on unchanged (stderr is also
# appended to the log of the test).
f="{dir}/$(date +%s%N)-$$-{event}.json"
e="{errdir}/$(date +%s%N)-$$-{event}.txt"
cat > "$f"
{run} < "$f" 2> "$e"
rc=$?
cat "$e" >&2
cat "$e" >> "{log}"
exit $rc
"""


@attrs.define
class World:
    """A fresh HOME and project for one test, with the hook scripts it needs."""

    root: Path
    home: Path
    project: Path
    victim: Path
    bin: Path
    hooks_dir: Path
    """Where the agent_hooks configuration and its Python modules live."""
    sent: Path
    """Payloads as the harness sent them (one file each)."""
    received: Path
    """Payloads as agent_hooks' command hooks received them."""
    hook_log: Path
    """``agent-hooks run``'s stderr, all calls."""
    mock_log: Path
    fail_closed: bool = True
    """``agent-hooks run --fail-closed`` (the README's plain command line has none)."""
    in_process: bool = False
    """Keep ``agent-hooks run`` in-process (``AGENT_HOOKS_NO_DAEMON=1``) instead of
    answering through its resident server (where this build has one)."""

    @classmethod
    def create(cls, root: Path) -> World:
        world = cls(
            root=root,
            home=root / "home",
            project=root / "project",
            victim=root / "project" / "victim",
            bin=root / "bin",
            hooks_dir=root / "project" / ".agent-hooks",
            sent=root / "rec" / "sent",
            received=root / "rec" / "received",
            hook_log=root / "rec" / "agent-hooks.log",
            mock_log=root / "rec" / "mock.jsonl",
        )
        (root / "rec" / "stderr").mkdir(parents=True)
        for d in (
            world.home,
            world.project,
            world.victim,
            world.bin,
            world.hooks_dir,
            world.sent,
            world.received,
        ):
            d.mkdir(parents=True, exist_ok=True)
        (world.victim / "file.txt").write_text("precious\n")
        world.script("guard.sh", GUARD_SH)
        world.script("record.sh", RECORD_SH.format(dir=world.received))
        (world.hooks_dir / "scenario_hooks.py").write_text(SCENARIO_HOOKS_PY)
        return world

    def has_daemons(self) -> bool:
        return bool(self.daemons())

    def script(self, name: str, text: str) -> Path:
        path = self.bin / name
        path.write_text(text)
        path.chmod(0o755)
        return path

    def base_env(self) -> dict[str, str]:
        """A clean environment: no credentials of the machine, a HOME of our own."""
        env = {
            "HOME": str(self.home),
            "PATH": os.pathsep.join(
                [
                    str(Path(shutil.which("node") or "/usr/bin/node").parent),
                    "/usr/local/bin",
                    "/usr/bin",
                    "/bin",
                ]
            ),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "TMPDIR": str(self.root),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
        }
        return env

    def hook_command(self, config: Path | str, *, event: str, extra: Sequence[str] = ()) -> str:
        """The command the harness runs: record, then ``agent-hooks run``."""
        # TMPDIR: a resident server this run starts keeps its socket under the test's
        # folder, and is found by it (stop_daemons). Each call waits for the server, so
        # that every answer comes from it, unless the test keeps run in-process.
        mode = "AGENT_HOOKS_NO_DAEMON=1" if self.in_process else "AGENT_HOOKS_DAEMON_WAIT=20"
        run = " ".join(
            [
                "env",
                f"TMPDIR={self.root}",
                mode,
                agent_hooks_exe(),
                "run",
                "--config",
                str(config),
                "--project-dir",
                str(self.project),
                "--trust-project-hooks",
                *(["--fail-closed"] if self.fail_closed else []),
                *extra,
            ]
        )
        name = f"agent-hooks-{event}.sh"
        return str(
            self.script(
                name,
                WRAPPER_SH.format(
                    dir=self.sent,
                    errdir=self.hook_log.parent / "stderr",
                    event=event,
                    run=run,
                    log=self.hook_log,
                ),
            )
        )

    def daemons(self) -> list[int]:
        """The resident ``agent-hooks`` servers this test's hook calls started (found by
        their TMPDIR, the test's folder)."""
        found = []
        want = f"TMPDIR={self.root}".encode()
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                cmdline = (proc / "cmdline").read_bytes()
                if b"agent_hooks\0daemon\0serve" not in cmdline:
                    continue
                if want in (proc / "environ").read_bytes().split(b"\0"):
                    found.append(int(proc.name))
            except OSError:
                continue
        return found

    def stop_daemons(self) -> None:
        """SIGTERM each resident server of this test, SIGKILL what is left after 10 s."""
        pids = self.daemons()
        for pid in pids:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        left = []
        for pid in pids:  # not our children: wait on a pidfd, bounded
            try:
                fd = os.pidfd_open(pid)
            except ProcessLookupError:
                continue
            try:
                select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            finally:
                os.close(fd)
            if _alive(pid):
                left.append(pid)
        pids = left
        for pid in pids:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def sent_payloads(self) -> list[tuple[Path, bytes]]:
        return [(p, p.read_bytes()) for p in sorted(self.sent.iterdir())]

    def received_payloads(self) -> list[tuple[Path, bytes]]:
        return [(p, p.read_bytes()) for p in sorted(self.received.iterdir())]

    def debug(self) -> str:
        log = self.hook_log.read_text() if self.hook_log.exists() else ""
        return f"--- agent-hooks stderr\n{log[-4000:]}"


def write_json(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2))
    return path


# Python handlers the scenarios name by reference ("scenario_hooks:<fn>"), next to the
# configuration file. They take the typed input and answer typed outputs, or mark a
# file so that a Stop block happens once.
SCENARIO_HOOKS_PY = '''"""Python callbacks of the integration scenarios."""

from pathlib import Path

from agent_hooks import (
    PreToolUseInput,
    PreToolUseOutput,
    SessionStartInput,
    SessionStartOutput,
    StopInput,
    StopOutput,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
)

PY_DENY_REASON = "PY-DENY-REASON: recursive deletes need a review"
SESSION_CONTEXT = "SESSION-CONTEXT-MARKER: the deploy key lives in vault path kv/deploy"
PROMPT_BLOCK_REASON = "PROMPT-BLOCK-REASON: prompts about secrets are refused"
STOP_REASON = "STOP-REASON: run the tests before you finish"


def deny_rm(input: PreToolUseInput) -> PreToolUseOutput | None:
    command = str(input.tool_input.get("command", input.tool_input.get("cmd", "")))
    if "rm -r" in command:
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason=PY_DENY_REASON)
    return None


def rewrite(input: PreToolUseInput) -> PreToolUseOutput | None:
    key = "command" if "command" in input.tool_input else "cmd"
    command = str(input.tool_input.get(key, ""))
    if "ORIGINAL" in command:
        updated = {**input.tool_input, key: command.replace("ORIGINAL", "REWRITTEN")}
        return PreToolUseOutput(permission_decision="allow", updated_input=updated)
    return None


def session_context(input: SessionStartInput) -> SessionStartOutput:
    return SessionStartOutput(additional_context=SESSION_CONTEXT)


def block_prompt(input: UserPromptSubmitInput) -> UserPromptSubmitOutput | None:
    if "secret" in input.prompt:
        return UserPromptSubmitOutput(decision="block", reason=PROMPT_BLOCK_REASON)
    return None


def stop_once(input: StopInput) -> StopOutput | None:
    marker = Path(input.cwd or ".") / ".stop-blocked-once"
    if input.stop_hook_active or marker.exists():
        return None
    marker.write_text("blocked\\n")
    return StopOutput(decision="block", reason=STOP_REASON)
'''

PY_DENY_REASON = "PY-DENY-REASON: recursive deletes need a review"
GUARD_SH_REASON = "GUARD-SH-REASON: rm -r is not allowed in this project"
SESSION_CONTEXT = "SESSION-CONTEXT-MARKER: the deploy key lives in vault path kv/deploy"
PROMPT_BLOCK_REASON = "PROMPT-BLOCK-REASON: prompts about secrets are refused"
STOP_REASON = "STOP-REASON: run the tests before you finish"


@contextmanager
def agent_hooks_server(world: World, config: Path, *, fmt: str, token: str) -> Iterator[str]:
    """``agent-hooks serve`` on a free loopback port for the test: yields its URL;
    SIGTERM on exit (SIGKILL to its group if it does not stop in time)."""
    env = {**world.base_env(), "AGENT_HOOKS_TOKEN": token}
    log = world.root / "rec" / "serve.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [
                agent_hooks_exe(),
                "serve",
                "--config",
                str(config),
                "--format",
                fmt,
                "--project-dir",
                str(world.project),
                "--trust-project-hooks",
                "--port",
                "0",
                "--token-env",
                "AGENT_HOOKS_TOKEN",
            ],
            env=env,
            cwd=world.project,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
        )
    try:
        url = ""
        deadline = time.monotonic() + 30
        while not url:  # poll its log for the bound port: an external process starting
            text = log.read_text(errors="replace")
            for line in text.splitlines():
                if "listening on " in line:
                    url = line.split("listening on ", 1)[1].strip()
            if proc.poll() is not None:
                raise RuntimeError(f"agent-hooks serve exited {proc.returncode}:\n{text}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"agent-hooks serve did not start within 30 s:\n{text}")
            if not url:
                with suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=0.05)
        yield url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            with suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=15)
        _kill_group(proc.pid)
        if proc.poll() is None:
            proc.wait(timeout=15)
