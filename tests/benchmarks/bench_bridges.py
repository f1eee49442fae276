"""Cost of the bridges: ``agent-hooks serve`` and ``agent-hooks run`` against spawning Python.

Run from the repository root::

    .venv/bin/python tests/benchmarks/bench_bridges.py
    .venv/bin/python tests/benchmarks/bench_bridges.py --rounds 60 --requests 50
    .venv/bin/python tests/benchmarks/bench_bridges.py --importtime   # + where run's start-up goes

Cases, measured in one run, side by side and interleaved (every round times each
variant back to back; times are medians over the rounds, a ratio is the median of
the per-round ratios):

(a) ``serve``: ``agent-hooks serve`` (a separate process, started once) whose graph
    holds one Python callback (a ``{"type": "python"}`` config), asked over one
    persistent keep-alive HTTP/1.1 connection (``http.client``) on loopback; against
    spawning the interpreter on an equivalent stand-alone hook script (same check,
    reads the payload on stdin, prints the same answer). Targets: median request
    <= 1 ms, ratio <= 0.05.
(b) ``run``: ``agent-hooks run --config cfg.json`` (the console script, as a harness
    calls it; process start, imports, config load, dispatch of one Python callback,
    answer) against a bare ``python -c pass`` of the same interpreter. Target <= 2.5x.
    Info rows, timed in the same rounds against the same ``python -c pass``: the
    floor that the required dependencies set, whatever agent_hooks does:
    ``python -c "import attrs"``, ``"import anyio"``, ``"import asyncio"`` (what
    ``anyio.run`` starts), and ``import attrs, anyio; anyio.run(<empty coroutine>)``,
    the dependencies of a dispatch doing nothing; then ``run`` against that floor.

"The interpreter" is ``sys.executable`` (the one ``agent-hooks`` runs on). When
``python3`` on ``PATH`` is a different program (a pyenv shim is a shell script
that adds ~100 ms), info rows show the ratios against it too; they are not the
verdict.

Bytecode: the package and the hook module are byte-compiled first (as ``pip install``
does), so that a checkout run with ``PYTHONDONTWRITEBYTECODE`` does not time the
compilation of every module edited since its last ``.pyc``.

``--importtime`` runs ``run`` once under ``python -X importtime`` and lists the modules
it imports (cumulative, top 25), then the modules it imports beyond the floor (those
``import attrs, anyio; anyio.run(...)`` does not import), by self time: what is left
to cut. Modules imported through ``importlib.import_module`` (anyio's event-loop
backend, the hook module) are not in ``-X importtime``'s report.
"""

from __future__ import annotations

import argparse
import compileall
import functools
import http.client
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

PAYLOAD = {
    "session_id": "bench-session",
    "transcript_path": "/tmp/bench.jsonl",
    "cwd": "/",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "git status --short", "description": "Show working tree status"},
    "tool_use_id": "toolu_01",
}
PAYLOAD_BYTES = json.dumps(PAYLOAD).encode()

HOOK_MODULE = """\
from agent_hooks import PreToolUseInput, PreToolUseOutput


def guard(input: PreToolUseInput) -> PreToolUseOutput | None:
    if "rm -rf" in str(input.tool_input.get("command", "")):
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no rm -rf")
    return PreToolUseOutput(additional_context="checked by guard")
"""

# The same hook, stand-alone: what a user writes for a plain command hook.
HOOK_SCRIPT = """\
import json, sys

payload = json.load(sys.stdin)
if "rm -rf" in str(payload.get("tool_input", {}).get("command", "")):
    out = {"permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"}
else:
    out = {"additionalContext": "checked by guard"}
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", **out}}))
"""

CONFIG = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "python", "callable": "guard:guard"}]}
        ]
    }
}

EXPECTED = {
    "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "checked by guard"}
}

FLOOR_CODE = "import attrs, anyio\n\nasync def main():\n    pass\n\nanyio.run(main)"
"""The required dependencies of a dispatch, doing nothing: attrs (the typed events) and
an anyio event loop (the dispatch), started and stopped."""

# Info rows of (b): (label, python -c code), timed in every round after `python -c pass`.
FLOOR_ROWS: tuple[tuple[str, str], ...] = (
    ('python -c "import attrs"', "import attrs"),
    ('python -c "import anyio"', "import anyio"),
    ('python -c "import asyncio"', "import asyncio"),
    ("attrs + anyio.run(empty coroutine): the floor", FLOOR_CODE),
)


def _spawn(argv: list[str], data: bytes = b"") -> bytes:
    proc = subprocess.run(argv, input=data, capture_output=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{argv} exited {proc.returncode}: {proc.stderr.decode()[-500:]}")
    return proc.stdout


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.3f}"


class ServeClient:
    """One keep-alive HTTP/1.1 connection to the server."""

    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.conn.connect()
        assert self.conn.sock is not None
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.headers = {
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
        }

    def ask(self) -> bytes:
        self.conn.request("POST", "/hooks", body=PAYLOAD_BYTES, headers=self.headers)
        resp = self.conn.getresponse()
        body = resp.read()
        if resp.status != 200:
            raise RuntimeError(f"serve answered {resp.status}: {body!r}")
        return body


def start_server(workdir: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    project = os.path.join(workdir, "project")
    argv = [sys.executable, "-m", "agent_hooks", "serve", "--config", "hooks.json", "--port", "0"]
    proc = subprocess.Popen(
        [*argv, "--project-dir", project],
        cwd=workdir,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    assert proc.stderr is not None
    for raw in proc.stderr:
        line = raw.decode()
        if "listening on http://" in line:
            port = int(line.rsplit(":", 1)[1].strip().rstrip("/"))
            return proc, port
    raise RuntimeError("the server did not start")


def byte_compile(*modules: str) -> None:
    """Write the ``.pyc`` of the agent_hooks package and of ``modules`` (files), as
    ``pip install`` does for an installed package."""
    import agent_hooks

    compileall.compile_dir(os.path.dirname(agent_hooks.__file__), quiet=1)
    for module in modules:
        compileall.compile_file(module, quiet=1)


def bench(rounds: int, requests: int) -> dict[str, float]:
    tmp = tempfile.mkdtemp(prefix="agent-hooks-bench-")
    try:
        with open(os.path.join(tmp, "guard.py"), "w") as f:
            f.write(HOOK_MODULE)
        byte_compile(os.path.join(tmp, "guard.py"))
        with open(os.path.join(tmp, "hook.py"), "w") as f:
            f.write(HOOK_SCRIPT)
        with open(os.path.join(tmp, "hooks.json"), "w") as f:
            json.dump(CONFIG, f)
        os.mkdir(os.path.join(tmp, "project"))  # the config is outside it: no trust needed
        token = "bench-token"
        env = {**os.environ, "AGENT_HOOKS_TOKEN": token, "XDG_STATE_HOME": tmp}
        env.pop("CLAUDE_PROJECT_DIR", None)
        exe = sys.executable
        script = os.path.join(os.path.dirname(exe), "agent-hooks")
        run_argv = ([script] if os.path.exists(script) else [exe, "-m", "agent_hooks"]) + [
            "run",
            "--config",
            os.path.join(tmp, "hooks.json"),
        ]
        run_argv += ["--project-dir", os.path.join(tmp, "project")]
        spawn_argv = [exe, os.path.join(tmp, "hook.py")]
        pass_argv = [exe, "-c", "pass"]
        path_python3 = shutil.which("python3")
        shim = path_python3 is not None and os.path.realpath(path_python3) != os.path.realpath(exe)

        # Correctness first: every variant gives the same answer.
        assert json.loads(_spawn(spawn_argv, PAYLOAD_BYTES)) == EXPECTED
        assert json.loads(_spawn(run_argv, PAYLOAD_BYTES)) == EXPECTED, _spawn(
            run_argv, PAYLOAD_BYTES
        )
        server, port = start_server(tmp, env)
        try:
            client = ServeClient(port, token)
            assert json.loads(client.ask()) == EXPECTED
            for _ in range(200):  # warm up: first requests import and compile
                client.ask()
            serve_all: list[float] = []
            serve_round: list[float] = []
            spawn: list[float] = []
            run: list[float] = []
            bare: list[float] = []
            floors: list[list[float]] = [[] for _ in FLOOR_ROWS]
            floor_ratios: list[list[float]] = [[] for _ in FLOOR_ROWS]
            shim_pass: list[float] = []
            serve_ratio: list[float] = []
            run_ratio: list[float] = []
            for i in range(rounds):
                order = [0, 1, 2] if i % 2 == 0 else [2, 1, 0]
                times: dict[int, float] = {}
                per_request: list[float] = []
                for which in order:
                    if which == 0:
                        per_request = [_timed(client.ask) for _ in range(requests)]
                        times[0] = statistics.median(per_request)
                    elif which == 1:
                        times[1] = _timed(lambda: _spawn(spawn_argv, PAYLOAD_BYTES))
                    else:
                        t_pass = _timed(lambda: _spawn(pass_argv))
                        t_run = _timed(lambda: _spawn(run_argv, PAYLOAD_BYTES))
                        times[2] = t_run
                        bare.append(t_pass)
                        run_ratio.append(t_run / t_pass)
                        for k, (_, code) in enumerate(FLOOR_ROWS):
                            t_floor = _timed(functools.partial(_spawn, [exe, "-c", code]))
                            floors[k].append(t_floor)
                            floor_ratios[k].append(t_floor / t_pass)
                serve_all += per_request
                serve_round.append(times[0])
                spawn.append(times[1])
                run.append(times[2])
                serve_ratio.append(times[0] / times[1])
                if shim and path_python3 is not None and i % 4 == 0:
                    shim_pass.append(_timed(lambda: _spawn([path_python3, "-c", "pass"])))
            client.conn.close()
        finally:
            server.terminate()
            server.wait(10)
        result = {
            "serve_median": statistics.median(serve_all),
            "serve_p95": sorted(serve_all)[int(len(serve_all) * 0.95)],
            "serve_min": min(serve_all),
            "spawn_median": statistics.median(spawn),
            "serve_ratio": statistics.median(serve_ratio),
            "run_median": statistics.median(run),
            "pass_median": statistics.median(bare),
            "run_ratio": statistics.median(run_ratio),
        }
        for k in range(len(FLOOR_ROWS)):
            result[f"floor{k}_median"] = statistics.median(floors[k])
            result[f"floor{k}_ratio"] = statistics.median(floor_ratios[k])
        # run against the floor (the last row), per round
        floor_of_run = [t / f for t, f in zip(run, floors[-1], strict=True)]
        result["run_over_floor"] = statistics.median(floor_of_run)
        if shim_pass:
            result["shim_pass_median"] = statistics.median(shim_pass)
        return result
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _importtime_rows(
    argv: list[str], env: dict[str, str], data: bytes = b""
) -> list[tuple[int, int, str]]:
    """``(cumulative us, self us, name)`` of every module ``argv`` imports, in import
    order (the name keeps the indentation that shows who imported it)."""
    proc = subprocess.run(argv, input=data, capture_output=True, env=env, check=True)
    rows = []
    for line in proc.stderr.decode().splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        parts = line[len("import time:") :].split("|")
        rows.append((int(parts[1]), int(parts[0]), parts[2].rstrip()))
    return rows


def importtime() -> None:
    """Where ``agent-hooks run`` spends its start-up (``-X importtime``): cumulative, top 25;
    then the modules it imports beyond the floor (:data:`FLOOR_CODE`), by self time."""
    tmp = tempfile.mkdtemp(prefix="agent-hooks-bench-")
    try:
        with open(os.path.join(tmp, "guard.py"), "w") as f:
            f.write(HOOK_MODULE)
        with open(os.path.join(tmp, "hooks.json"), "w") as f:
            json.dump(CONFIG, f)
        os.mkdir(os.path.join(tmp, "project"))
        byte_compile(os.path.join(tmp, "guard.py"))
        env = {**os.environ, "XDG_STATE_HOME": tmp}
        argv = [sys.executable, "-X", "importtime", "-m", "agent_hooks", "run"]
        argv += ["--config", os.path.join(tmp, "hooks.json")]
        argv += ["--project-dir", os.path.join(tmp, "project")]
        rows = _importtime_rows(argv, env, PAYLOAD_BYTES)
        floor = _importtime_rows([sys.executable, "-X", "importtime", "-c", FLOOR_CODE], env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    total_self = sum(r[1] for r in rows)
    print(
        f"\n-X importtime of `agent-hooks run` ({len(rows)} modules, total self time "
        f"{total_self / 1000:.1f} ms):"
    )
    print(f"{'cumulative ms':>14} {'self ms':>8}  module")
    for cum, self_us, name in sorted(rows, reverse=True)[:25]:
        print(f"{cum / 1000:14.1f} {self_us / 1000:8.1f}  {name}")
    in_floor = {name.strip() for _, _, name in floor}
    beyond = [(self_us, name.strip()) for _, self_us, name in rows if name.strip() not in in_floor]
    print(
        f"\nBeyond the floor (attrs + anyio.run: {len(floor)} modules, "
        f"{sum(r[1] for r in floor) / 1000:.1f} ms self), `run` imports {len(beyond)} modules, "
        f"{sum(b[0] for b in beyond) / 1000:.1f} ms self; the top 25 by self time:"
    )
    print(f"{'self ms':>8}  module")
    for self_us, name in sorted(beyond, reverse=True)[:25]:
        print(f"{self_us / 1000:8.1f}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--requests", type=int, default=30, help="serve requests per round")
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} ({sys.executable}), {platform.system()} "
        f"{platform.machine()}, {os.cpu_count()} CPUs; rounds={args.rounds}, "
        f"requests/round={args.requests}"
    )
    r = bench(args.rounds, args.requests)
    serve_ok = r["serve_median"] <= 0.001
    print()
    print(f"{'case':<62} {'median ms':>9}  {'ratio':>7}  target   verdict")
    print(
        f"{'(a) serve: 1 Python callback, keep-alive POST on loopback':<62} "
        f"{_ms(r['serve_median'])}  {'':>7}  <= 1 ms  {'PASS' if serve_ok else 'MISS'}"
    )
    print(
        f"{'    spawning python on the stand-alone hook script':<62} "
        f"{_ms(r['spawn_median'])}  {r['serve_ratio']:7.4f}  <= 0.05  "
        f"{'PASS' if r['serve_ratio'] <= 0.05 else 'MISS'}"
    )
    print(
        f"{'    (info) serve p95 / min per request':<62} "
        f"{_ms(r['serve_p95'])} / {r['serve_min'] * 1000:.3f}"
    )
    print(
        f"{'(b) agent-hooks run --config (1 Python callback)':<62} "
        f"{_ms(r['run_median'])}  {r['run_ratio']:7.2f}  <= 2.5x  "
        f"{'PASS' if r['run_ratio'] <= 2.5 else 'MISS'}"
    )
    print(f"{'    python -c pass (same interpreter)':<62} {_ms(r['pass_median'])}")
    for k, (label, _) in enumerate(FLOOR_ROWS):
        print(
            f"{'    (info) ' + label:<62} {_ms(r[f'floor{k}_median'])}  "
            f"{r[f'floor{k}_ratio']:7.2f}  (it / python -c pass)"
        )
    print(
        f"{'    (info) run against the floor':<62} {'':>9}  {r['run_over_floor']:7.2f}  (run / floor)"
    )
    if "shim_pass_median" in r:
        shim = r["shim_pass_median"]
        print(
            f"{'    (info) `python3 -c pass` via PATH (' + str(shutil.which('python3')) + ')':<62} "
            f"{_ms(shim)}  {r['run_median'] / shim:7.2f}  (run / it)"
        )
    if args.importtime:
        importtime()


if __name__ == "__main__":
    main()
