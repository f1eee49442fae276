"""Where the time of one ``agent-hooks run`` call goes (issue #30): the client's process
start piece by piece, the round trip to the resident server and its worker, the start
of a server and of a project's worker, and a profile of the work ``run`` does per call.

Run from the repository root::

    .venv/bin/python tests/benchmarks/profile_warm_call.py
    .venv/bin/python tests/benchmarks/profile_warm_call.py --rounds 30 --top 20

Process rows are medians over ``--rounds`` rounds, each round timing every row back to
back (the order reversed every other round). The round trip is timed inside this
process (a socket, one request frame, the answer), so it holds no interpreter start.
The profile is ``cProfile`` over ``--calls`` in-process ``run --no-daemon`` calls of
the same configuration after a first call (imports done): the configuration loaded
and its files hashed, the registry built, the dispatch, the answer; a worker does the
same per call except that it keeps the registry while the files' hashes are the same.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from agent_hooks._base._version import VERSION
from agent_hooks._bridges._daemon._protocol import (
    pack,
    private_dir,
    read_frame,
    server_key,
    server_paths,
)

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
AGENT_HOOKS = str(Path(PY).parent / "agent-hooks")
QUICK = str(ROOT / "agent_hooks" / "_bridges" / "_daemon" / "_quick_run.py")

GUARD = """\
from agent_hooks import PreToolUseInput, PreToolUseOutput


def no_rm(input: PreToolUseInput) -> PreToolUseOutput | None:
    if "rm -rf" in str(input.tool_input.get("command", "")):
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no rm -rf")
    return None
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--top", type=int, default=18)
    opts = parser.parse_args()
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "agent_hooks")], check=True)
    with tempfile.TemporaryDirectory(prefix="profile-run-") as tmp:
        return profile(Path(tmp), opts)


def profile(tmp: Path, opts: argparse.Namespace) -> int:
    (tmp / "guard.py").write_text(GUARD)
    config = tmp / "hooks.json"
    hook = {"type": "python", "callable": "guard:no_rm"}
    config.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}))
    runtime = tmp / "run"
    runtime.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_HOOKS_")}
    env.update(
        HOME=str(tmp / "home"),
        XDG_STATE_HOME=str(tmp / "state"),
        XDG_RUNTIME_DIR=str(runtime),
        AGENT_HOOKS_DAEMON_IDLE="600",
    )
    work = tmp / "work"
    work.mkdir()
    payload = json.dumps(
        {
            "hook_event_name": "PreToolUse",
            "session_id": "profile",
            "cwd": str(work),
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
        }
    ).encode()
    argv = ["run", "--config", str(config)]

    def spawn(cmd: list[str], extra: dict[str, str] | None = None) -> float:
        start = time.perf_counter()
        subprocess.run(
            cmd,
            input=payload,
            capture_output=True,
            env={**env, **(extra or {})},
            cwd=tmp,
            check=True,
        )
        return (time.perf_counter() - start) * 1000

    # a server and the project's worker, started off the clock; the first
    # (server + worker start, answered by the server) is timed once
    cold = spawn([AGENT_HOOKS, *argv], {"AGENT_HOOKS_DAEMON_WAIT": "30"})
    sock_path = server_paths(private_dir(env) or "", server_key(VERSION))[0]

    def round_trip(args: list[str], body: bytes = payload) -> float:
        start = time.perf_counter()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.connect(sock_path)
            fields = [VERSION, str(tmp), str(len(args)), *args]
            for name, value in env.items():
                fields += (name, value)
            sock.sendall(pack(b"Q", fields, body))
            kind = b""
            while kind != b"R":
                kind, _, _ = read_frame(sock)
        return (time.perf_counter() - start) * 1000

    def status() -> float:
        start = time.perf_counter()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.connect(sock_path)
            sock.sendall(pack(b"T", []))
            read_frame(sock)
        return (time.perf_counter() - start) * 1000

    # a project's first call on a running server: its worker starts
    fresh = tmp / "fresh"
    fresh.mkdir()
    first_worker = round_trip([*argv, "--project-dir", str(fresh)])
    again = round_trip([*argv, "--project-dir", str(fresh)])

    rows: dict[str, Callable[[], float]] = {
        "python -I -S -c pass": lambda: spawn([PY, "-I", "-S", "-c", "pass"]),
        "python -I -S -c 'import socket'": lambda: spawn([PY, "-I", "-S", "-c", "import socket"]),
        "python -c pass (site)": lambda: spawn([PY, "-c", "pass"]),
        "python -c 'import re' (the console script's own import)": lambda: spawn(
            [PY, "-c", "import re"]
        ),
        "python -c 'import agent_hooks.__main__ + client'": lambda: spawn(
            [PY, "-c", "import agent_hooks.__main__, agent_hooks._bridges._daemon._client"]
        ),
        "warm run, console script (end to end)": lambda: spawn([AGENT_HOOKS, *argv]),
        "warm run, quick client (end to end)": lambda: spawn([PY, "-I", "-S", QUICK, *argv]),
        "round trip: status request (socket + server, no worker)": status,
        "round trip: run request (server + worker + dispatch)": lambda: round_trip(argv),
    }
    times: dict[str, list[float]] = {name: [] for name in rows}
    for r in range(opts.rounds):
        for name in rows if r % 2 == 0 else reversed(rows):
            times[name].append(rows[name]())
    subprocess.run([AGENT_HOOKS, "daemon", "stop"], env=env, capture_output=True, check=False)

    # in-process: what run does per call, after its imports
    from agent_hooks._bridges._cli import main as cli_main

    old = os.getcwd()
    os.chdir(work)
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    sink = io.TextIOWrapper(io.BytesIO())
    try:
        real_stdout, sys.stdout = sys.stdout, sink
        cli_main([*argv, "--no-daemon"], stdin=payload)
        start = time.perf_counter()
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(opts.calls):
            cli_main([*argv, "--no-daemon"], stdin=payload)
        prof.disable()
        per_call = (time.perf_counter() - start) * 1000 / opts.calls
    finally:
        sys.stdout = real_stdout
        os.chdir(old)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"one warm agent-hooks run call, piece by piece: Python {sys.version.split()[0]}, "
        f"{opts.rounds} rounds, load average {load}"
    )
    print(f"{'piece':62s} {'median ms':>10s} {'min':>8s}")
    print("-" * 82)
    for name, values in times.items():
        print(f"{name:62s} {statistics.median(values):10.1f} {min(values):8.1f}")
    once = {
        "server start + worker start + call (first call, waiting)": cold,
        "round trip: a new project's first call (its worker starts)": first_worker,
        "round trip: that project's second call": again,
        "in-process run --no-daemon after its imports, per call": per_call,
    }
    for name, ms in once.items():
        print(f"{name:62s} {ms:10.1f}")
    print()
    text = io.StringIO()
    stats = pstats.Stats(prof, stream=text)
    stats.sort_stats("cumulative").print_stats(opts.top)
    print(f"cProfile of {opts.calls} in-process calls (cumulative, the top {opts.top}):")
    lines = text.getvalue().splitlines()
    start_at = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
    print("\n".join(lines[start_at:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
