"""``agent-hooks run`` with the resident server, against what a hook costs without it.

Run from the repository root::

    .venv/bin/python tests/benchmarks/bench_resident.py
    .venv/bin/python tests/benchmarks/bench_resident.py --rounds 40 --clients 50

Every round times each variant back to back (the order reversed every other round);
times are medians over the rounds in milliseconds; a ratio is the median of the
per-round ratios. Everything runs in a fresh HOME, state and socket directory.

Issue #30's targets, printed with its labels:

(b) warm ``run`` (server up), one Python callback (``{"type": "python"}``), against a
    stand-alone Python hook script doing the same check with the same interpreter:
    target ratio <= 1.0; also for the quick client
    (``python -I -S agent_hooks/_bridges/_daemon/_quick_run.py run ...``);
(d) ``run --no-daemon``: target median <= 150 ms (on a quiet machine).

Earlier targets, still printed: warm ``run`` against ``python -c pass`` (<= 2.0); warm
``run`` of one shell command hook against the hook script run by itself plus the
client's overhead (warm ``run`` of a configuration whose hook does not match; <= 1.0);
cold ``run`` (no server: this call answers in-process and starts one in the background)
against ``run --no-daemon`` (<= 1.0, within noise); 50 clients at once against one
server: every answer correct, and the slowest client no slower than the fastest of 50
cold (``--no-daemon``) calls at once. Information rows: ``python -I -S -c pass`` (the
floor of an interpreter start) and the quick client against it and against the
console script.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
AGENT_HOOKS = [str(Path(PY).parent / "agent-hooks")]
"""The console script, as a harness calls it (``python -m`` would add runpy's imports)."""
QUICK = [PY, "-I", "-S", str(ROOT / "agent_hooks" / "_bridges" / "_daemon" / "_quick_run.py")]
"""The quick client, as the installed command would call it."""

HOOK_MODULE = """\
from agent_hooks import PreToolUseInput, PreToolUseOutput


def no_rm(input: PreToolUseInput) -> PreToolUseOutput | None:
    if "rm -rf" in str(input.tool_input.get("command", "")):
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no rm -rf")
    return None
"""

STANDALONE = """\
import json, sys
payload = json.load(sys.stdin)
if "rm -rf" in str(payload.get("tool_input", {}).get("command", "")):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"}}))
"""

SHELL_HOOK = """#!/bin/sh
payload=$(cat)
case "$payload" in *"rm -rf"*) echo "no rm -rf" >&2; exit 2;; esac
exit 0
"""

PAYLOAD = json.dumps(
    {
        "hook_event_name": "PreToolUse",
        "session_id": "bench",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"},
    }
).encode()
DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "no rm -rf",
    }
}


class Bench:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        (tmp / "guard.py").write_text(HOOK_MODULE)
        (tmp / "standalone.py").write_text(STANDALONE)
        shell = tmp / "guard.sh"
        shell.write_text(SHELL_HOOK)
        shell.chmod(0o755)
        self.shell = shell
        self.py_cfg = self._config("py.json", {"type": "python", "callable": "guard:no_rm"})
        self.sh_cfg = self._config("sh.json", {"type": "command", "command": str(shell)})
        self.noop_cfg = self._config(
            "noop.json", {"type": "command", "command": str(shell)}, "Edit"
        )
        self.runtime = tmp / "run"
        self.runtime.mkdir(mode=0o700)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_HOOKS_")}
        self.env.update(
            HOME=str(tmp / "home"),
            XDG_STATE_HOME=str(tmp / "state"),
            XDG_RUNTIME_DIR=str(self.runtime),
            AGENT_HOOKS_DAEMON_IDLE="600",
            PYTHONPATH=str(ROOT),
        )
        payload = json.loads(PAYLOAD)
        work = tmp / "work"  # (the project: the hook files lie outside it, so need no trust)
        work.mkdir()
        payload["cwd"] = str(work)
        self.payload = json.dumps(payload).encode()

    def _config(self, name: str, hook: dict[str, str], matcher: str = "Bash") -> Path:
        path = self.tmp / name
        path.write_text(
            json.dumps({"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [hook]}]}})
        )
        return path

    def call(
        self, argv: list[str], env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            argv,
            input=self.payload,
            capture_output=True,
            cwd=self.tmp,
            env=env or self.env,
            check=False,
            timeout=120,
        )

    def run(
        self,
        cfg: Path,
        *extra: str,
        env: dict[str, str] | None = None,
        client: list[str] = AGENT_HOOKS,
    ) -> subprocess.CompletedProcess[bytes]:
        return self.call([*client, "run", "--config", str(cfg), *extra], env)

    def timed(self, fn: object) -> float:
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        return (time.perf_counter() - start) * 1000

    def settle(self, runtime: Path, env: dict[str, str]) -> None:
        """Wait for the server a cold call started to come up, stop it, wait for it to
        exit: the next timing starts on a machine at rest."""
        deadline = time.monotonic() + 30
        while not list(runtime.glob("agent-hooks/*.sock")) and time.monotonic() < deadline:
            time.sleep(0.05)
        status = subprocess.run(
            [*AGENT_HOOKS, "daemon", "stop"], capture_output=True, env=env, check=False
        )
        pids = [
            int(t)
            for lock in runtime.glob("agent-hooks/*.lock")
            if (t := lock.read_text().strip()).isdigit()
        ]
        for pid in pids:
            while time.monotonic() < deadline:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.05)
        del status

    def stop_servers(self, runtime: Path) -> None:
        for lock in runtime.glob("agent-hooks/*.lock"):
            text = lock.read_text().strip()
            if text.isdigit():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(text), signal.SIGTERM)


def median_ratio(pairs: list[tuple[float, float]]) -> float:
    return statistics.median(a / b for a, b in pairs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--clients", type=int, default=50)
    opts = parser.parse_args()
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "agent_hooks")], check=True)
    with tempfile.TemporaryDirectory(prefix="bench-resident-") as tmpdir:
        b = Bench(Path(tmpdir))
        try:
            return report(b, opts.rounds, opts.clients)
        finally:
            b.stop_servers(b.runtime)


def report(b: Bench, rounds: int, clients: int) -> int:
    # warm up: start the server (it holds both configurations)
    for cfg in (b.py_cfg, b.sh_cfg, b.noop_cfg):
        b.run(cfg)
    deadline = time.monotonic() + 30
    while json.loads(b.run(b.py_cfg, "--report").stdout or "{}").get("resident") is not True:
        if time.monotonic() > deadline:
            print("the resident server did not come up", file=sys.stderr)
            return 1
        time.sleep(0.1)
    check = b.run(b.py_cfg)
    assert json.loads(check.stdout or "{}") == DENY, (check.stdout, check.stderr)
    assert json.loads(b.call([PY, str(b.tmp / "standalone.py")]).stdout) == DENY
    quick = b.run(b.py_cfg, "--report", client=QUICK)
    assert json.loads(quick.stdout or "{}").get("resident") is True, quick.stderr
    rows: dict[str, list[float]] = {
        k: []
        for k in (
            "pass",
            "pass_IS",
            "standalone",
            "quick_py",
            "warm_py",
            "warm_sh",
            "script",
            "warm_noop",
            "cold",
            "no_daemon",
        )
    }
    variants = {
        "pass": lambda: b.call([PY, "-c", "pass"]),
        "pass_IS": lambda: b.call([PY, "-I", "-S", "-c", "pass"]),
        "quick_py": lambda: b.run(b.py_cfg, client=QUICK),
        "standalone": lambda: b.call([PY, str(b.tmp / "standalone.py")]),
        "warm_py": lambda: b.run(b.py_cfg),
        "warm_sh": lambda: b.run(b.sh_cfg),
        "script": lambda: b.call([str(b.shell)]),
        "warm_noop": lambda: b.run(b.noop_cfg),
        "no_daemon": lambda: b.run(b.py_cfg, "--no-daemon"),
    }
    for r in range(rounds):
        order = list(variants) if r % 2 == 0 else list(reversed(variants))
        for name in order:
            rows[name].append(b.timed(variants[name]))
        # cold: a fresh socket directory, so no server answers; the call starts one,
        # which is then let come up and stopped, off the clock
        fresh = b.tmp / f"cold-{r}"
        fresh.mkdir(mode=0o700)
        env = {**b.env, "XDG_RUNTIME_DIR": str(fresh)}
        rows["cold"].append(b.timed(lambda env=env: b.run(b.py_cfg, env=env)))
        b.settle(fresh, env)
    med = {k: statistics.median(v) for k, v in rows.items()}
    pairs = lambda a, c: list(zip(rows[a], rows[c], strict=True))  # noqa: E731
    sh_floor = [s + n for s, n in zip(rows["script"], rows["warm_noop"], strict=True)]

    # 50 clients at once
    def one(_: int) -> tuple[float, bool]:
        start = time.perf_counter()
        proc = b.run(b.py_cfg)
        return (time.perf_counter() - start) * 1000, json.loads(proc.stdout or "{}") == DENY

    def alone(_: int) -> float:
        start = time.perf_counter()
        b.run(b.py_cfg, "--no-daemon")
        return (time.perf_counter() - start) * 1000

    with ThreadPoolExecutor(max_workers=clients) as pool:
        results = list(pool.map(one, range(clients)))
    with ThreadPoolExecutor(max_workers=clients) as pool:
        loaded_cold = sorted(pool.map(alone, range(clients)))
    slowest = max(t for t, _ in results)
    correct = sum(ok for _, ok in results)

    print(
        f"agent-hooks run with the resident server: Python {sys.version.split()[0]}, {rounds} rounds, "
        "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    print(f"{'row':58s} {'median ms':>10s} {'ratio':>8s} {'target':>8s} result")
    print("-" * 96)

    def row(label: str, ms: float, ratio: float | None = None, target: float | None = None) -> None:
        verdict = (
            "" if target is None else ("PASS" if ratio is not None and ratio <= target else "MISS")
        )
        r = "" if ratio is None else f"{ratio:8.3f}"
        t = "" if target is None else f"<= {target:g}"
        print(f"{label:58s} {ms:10.1f} {r:>8s} {t:>8s} {verdict}")

    def absolute(label: str, ms: float, target: float) -> None:
        verdict = "PASS" if ms <= target else "MISS"
        print(f"{label:58s} {ms:10.1f} {'':>8s} {f'<= {target:g} ms':>8s} {verdict}")

    row("python -c pass", med["pass"])
    row("python -I -S -c pass (the interpreter alone)", med["pass_IS"])
    row("stand-alone Python hook script (same check)", med["standalone"])
    row(
        "(b) warm run, one Python callback vs the script",
        med["warm_py"],
        median_ratio(pairs("warm_py", "standalone")),
        1.0,
    )
    row(
        "(b) warm quick client, same call vs the script",
        med["quick_py"],
        median_ratio(pairs("quick_py", "standalone")),
        1.0,
    )
    absolute("(d) run --no-daemon (run before the resident server)", med["no_daemon"], 150.0)
    print()
    row(
        "(info) warm quick client vs python -I -S -c pass",
        med["quick_py"],
        median_ratio(pairs("quick_py", "pass_IS")),
    )
    row(
        "(info) warm quick client vs warm run (console script)",
        med["quick_py"],
        median_ratio(pairs("quick_py", "warm_py")),
    )
    row(
        "warm run, one Python callback vs python -c pass",
        med["warm_py"],
        median_ratio(pairs("warm_py", "pass")),
        2.0,
    )
    row("shell hook script by itself", med["script"])
    row("warm run, hook not matching (the client's overhead)", med["warm_noop"])
    row(
        "warm run, one shell hook vs script + overhead",
        med["warm_sh"],
        statistics.median(a / c for a, c in zip(rows["warm_sh"], sh_floor, strict=True)),
        1.0,
    )
    row(
        "cold run (starts the server) vs --no-daemon",
        med["cold"],
        median_ratio(pairs("cold", "no_daemon")),
        1.0,
    )
    fastest_cold = loaded_cold[0]
    print(
        f"{clients} clients at once: {correct}/{clients} correct, slowest {slowest:.1f} ms; "
        f"{clients} --no-daemon calls at once: fastest {fastest_cold:.1f} ms, median "
        f"{statistics.median(loaded_cold):.1f} ms; the quiet cold call {med['cold']:.1f} ms: "
        + ("PASS" if correct == clients and slowest <= fastest_cold else "MISS")
        + " (slowest warm <= fastest cold under the same load)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
