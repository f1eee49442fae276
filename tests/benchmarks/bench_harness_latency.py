"""What a guard through ``agent-hooks run`` costs inside the real Claude Code, timed by
Claude Code itself, against a plain shell-script hook in the same run (issue #30).

Run from the repository root::

    .venv/bin/python tests/benchmarks/bench_harness_latency.py
    .venv/bin/python tests/benchmarks/bench_harness_latency.py --rounds 5 --calls 8

Claude Code 2.1.332 comes from the integration suite's cache
(``~/.cache/agent-hooks/harnesses``, ``$AGENT_HOOKS_HARNESS_CACHE``; installed from npm
on first use, see ``tests/integration/README.md``) and runs offline (``claude -p``)
against the suite's mock of the Anthropic API, which scripts a session of ``--calls``
Bash tool calls (``echo bench-K``) and one ``rm -rf victim`` that every variant must
block (the file is checked after each session). Without the cache and without
npm/node the benchmark prints why it is skipped and exits 0.

The figure of each hook call is Claude Code's own timer: with ``--debug-file`` it logs
``Hooks: PreToolUse:Bash [<command>] finished with status N (<ms>ms)`` for every
command hook, from before the spawn to the process's exit with its output read
(``Date.now()`` around the hook in the 2.1.332 bundle).

Variants, each a PreToolUse hook on Bash in a fresh HOME (a fresh socket directory,
``$TMPDIR``), run in every round:

* ``shell``: the baseline, a shell script doing ``grep`` of the payload (exit 2
  blocks);
* ``python floor``: the least a Python hook can cost: ``python -I -S`` with a
  one-line check of the payload (no ``site``, no import), answering as the shell
  script does; the floor under any hook written in Python, which (a)'s target sits
  close to;
* ``run cold``: ``agent-hooks run`` (the console script), no server running when the
  session starts: the first call answers in-process and starts the server;
* ``run warm``: the same command in the next session of the same HOME (server and the
  project's worker up);
* ``--no-daemon``: ``agent-hooks run --no-daemon``;
* ``quick warm`` / ``quick cold``: the stdlib-only client
  (``python -I -S agent_hooks/_bridges/_daemon/_quick_run.py run ...``), with the server
  up, and in a fresh HOME;
* ``installed cold``: what ``agent-hooks install --scope user`` writes for Claude Code:
  the quick client, and an ``async`` SessionStart hook ``daemon start -- OPTIONS``
  that starts the server and the project's worker, with the guard's configuration
  loaded, off the tool calls' path, in a fresh HOME;
* ``installed, first turn``: the same, with the mock model taking ``--first-turn-ms``
  (default 1500) before its first answer, as a real model's first turn does (the
  mock otherwise answers at once, so the first tool call follows SessionStart by a few
  milliseconds, which no real session does).

``agent-hooks`` answers with one Python callback (``{"type": "python"}``) that denies
``rm -r``, in a project hook file passed with ``--trust-project-hooks``.

Printed: per variant the median and min (ms) over all its calls; (a) the median over
rounds of (warm median / shell median of the same round), target <= 2; (c) the median
over rounds of (the first call of a cold session / the warm median of the same
round), target <= 1.5, for each cold variant; the load average (``uptime``) before
and after.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "integration"))

from drivers import ClaudeCodeDriver  # noqa: E402
from harnesses import (  # noqa: E402
    CLAUDE_CODE,
    GUARD_SH,
    HOOK_TIMEOUT_S,
    PY_DENY_REASON,
    HarnessUnavailable,
    World,
    agent_hooks_exe,
    cache_dir,
    install,
    installed_bin,
    npm,
    run_bounded,
    write_json,
)
from mock_models import MockModel  # noqa: E402

PY = sys.executable
FLOOR_PY = """import sys
if b"rm -r" in sys.stdin.buffer.read():
    sys.stderr.write("GUARD-SH-REASON: rm -r is not allowed in this project\\n")
    sys.exit(2)
"""
"""The shell script's check in the least Python there can be."""
QUICK = ROOT / "agent_hooks" / "_bridges" / "_daemon" / "_quick_run.py"
TIMED = re.compile(
    r"\[DEBUG\] Hooks: PreToolUse:Bash \[(?P<command>.*)\] "
    r"(?P<what>finished with status (?P<status>-?\d+)|.+?) \((?P<ms>\d+)ms\)$"
)
"""Claude Code's own line for each command hook it ran (the 2.1.332 bundle:
``Hooks: ${event}:${query} [${command}] ${outcome} (${ms}ms)``)."""


def load() -> str:
    return (
        " ".join(Path("/proc/loadavg").read_text().split()[:3])
        if Path("/proc/loadavg").exists()
        else "?"
    )


class Bench:
    def __init__(self, tmp: Path, exe: Path, calls: int, first_turn: float = 0.0) -> None:
        self.first_turn = first_turn
        self.tmp = tmp
        self.driver = ClaudeCodeDriver(exe, CLAUDE_CODE.version)
        self.calls = calls
        self.worlds = 0

    def world(self) -> World:
        """A fresh HOME, project and socket directory, with the guard files."""
        self.worlds += 1
        world = World.create(self.tmp / f"w{self.worlds}")
        write_json(
            world.hooks_dir / "agent-hooks.json",
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [{"type": "python", "callable": "scenario_hooks:deny_rm"}],
                        }
                    ]
                }
            },
        )
        return world

    def command(self, world: World, variant: str) -> str:
        """The hook command of ``variant`` in ``world``."""
        if variant == "shell":
            return str(world.script("grep-guard.sh", GUARD_SH))
        if variant == "floor":
            return " ".join([PY, "-I", "-S", str(world.script("floor.py", FLOOR_PY))])
        config = world.hooks_dir / "agent-hooks.json"
        args = ["run", "--config", str(config), "--trust-project-hooks"]
        if variant in ("quick", "installed"):
            return " ".join([PY, "-I", "-S", str(QUICK), *args])
        if variant == "no-daemon":
            args.append("--no-daemon")
        return " ".join([agent_hooks_exe(), *args])

    def session(self, world: World, variant: str, first_turn: float = 0.0) -> list[int]:
        """One ``claude -p`` session whose PreToolUse hook is ``variant``: the time (ms)
        of each allowed call, as Claude Code timed it; the deny was checked.
        ``first_turn``: seconds the mock model takes before its first answer."""
        victim = world.victim / "file.txt"
        victim.parent.mkdir(parents=True, exist_ok=True)
        victim.write_text("precious\n")
        command = self.command(world, variant)
        entry = {"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}
        hooks: dict[str, object] = {"PreToolUse": [{"matcher": "Bash", "hooks": [entry]}]}
        if variant == "installed":
            config = world.hooks_dir / "agent-hooks.json"
            options = ["--config", str(config), "--trust-project-hooks"]
            warm = " ".join(
                [PY, "-I", "-S", str(QUICK), "daemon", "start", "--dialect", "claude", "--", *options]
            )
            start = {"type": "command", "command": warm, "timeout": 30, "async": True}
            hooks["SessionStart"] = [{"hooks": [start]}]
        write_json(world.home / ".claude" / "settings.json", {"hooks": hooks})
        debug = world.root / f"debug-{variant}-{time.monotonic_ns()}.txt"
        commands = [f"echo bench-{k}" for k in range(self.calls)] + ["rm -rf victim"]
        mock = MockModel(
            "anthropic", commands, shell_tool="Bash", log_path=world.mock_log, first_turn=first_turn
        )
        with mock:
            done = run_bounded(
                [
                    str(self.driver.exe),
                    "-p",
                    "Run the commands you are given.",
                    "--dangerously-skip-permissions",
                    "--model",
                    "sonnet",
                    "--debug-file",
                    str(debug),
                ],
                env=self.driver.env(world, mock),
                cwd=world.project,
                timeout=300,
            )
        if done.returncode != 0:
            raise RuntimeError(f"claude exited {done.returncode}:\n{done.describe()}")
        timed = []
        for line in debug.read_text(errors="replace").splitlines():
            found = TIMED.search(line)
            if found and found["command"] == command:
                timed.append((found["what"], found["status"], int(found["ms"])))
        if len(timed) != len(commands):
            raise RuntimeError(
                f"{variant}: {len(timed)} timed hook calls for {len(commands)} tool calls"
            )
        allowed = timed[:-1]
        bad = [t for t in allowed if t[1] != "0"]
        if bad:
            raise RuntimeError(f"{variant}: hook calls did not finish with status 0: {bad}")
        if not victim.exists():
            raise RuntimeError(f"{variant}: the guard did not block `rm -rf victim`")
        reason = "GUARD-SH-REASON" if variant in ("shell", "floor") else PY_DENY_REASON
        if not mock.saw(reason):
            raise RuntimeError(f"{variant}: the deny reason did not reach the model")
        return [ms for _, _, ms in allowed]


def harness() -> Path | str:
    """Claude Code's executable, or why the benchmark is skipped."""
    found = installed_bin(CLAUDE_CODE, CLAUDE_CODE.version)
    if found is not None:
        return found
    if npm() is None or shutil.which("node") is None:
        return (
            f"Claude Code {CLAUDE_CODE.version} is not in the harness cache {cache_dir()} "
            "and npm/node are not installed to put it there"
        )
    try:
        return install(CLAUDE_CODE, CLAUDE_CODE.version)
    except HarnessUnavailable as exc:
        return str(exc)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=6, help="allowed Bash calls per session")
    parser.add_argument(
        "--first-turn-ms",
        type=int,
        default=1500,
        help="the mock model's first turn in the 'installed, first turn' variant",
    )
    opts = parser.parse_args()
    exe = harness()
    if isinstance(exe, str):
        print(f"bench_harness_latency: skipped: {exe}")
        return 0
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "agent_hooks")], check=True)
    before = load()
    with tempfile.TemporaryDirectory(prefix="bench-harness-") as tmpdir:
        bench = Bench(Path(tmpdir), exe, opts.calls, opts.first_turn_ms / 1000)
        rows = measure(bench, opts.rounds)
    report(rows, opts, before, load())
    return 0


Rows = dict[str, list[list[int]]]
"""variant -> one list of call times (ms) per round."""


def measure(bench: Bench, rounds: int) -> Rows:
    rows: Rows = {
        k: []
        for k in (
            "shell", "floor", "run cold", "run warm", "no-daemon", "quick warm", "quick cold",
            "installed cold", "installed turn",
        )
    }  # fmt: skip

    def resident_home() -> None:
        world = bench.world()
        try:
            rows["run cold"].append(bench.session(world, "run"))
            rows["run warm"].append(bench.session(world, "run"))
            rows["quick warm"].append(bench.session(world, "quick"))
            rows["no-daemon"].append(bench.session(world, "no-daemon"))
        finally:
            world.stop_daemons()

    def alone(variant: str, row: str, first_turn: float = 0.0) -> Callable[[], None]:
        def go() -> None:
            world = bench.world()
            try:
                rows[row].append(bench.session(world, variant, first_turn))
            finally:
                world.stop_daemons()

        return go

    steps = [
        alone("shell", "shell"),
        alone("floor", "floor"),
        resident_home,
        alone("quick", "quick cold"),
        alone("installed", "installed cold"),
        alone("installed", "installed turn", bench.first_turn),
    ]
    for r in range(rounds):
        for step in steps if r % 2 == 0 else steps[::-1]:
            step()
        print(f"  round {r + 1}/{rounds} done (load {load()})", file=sys.stderr)
    return rows


def report(rows: Rows, opts: argparse.Namespace, before: str, after: str) -> None:
    def every(name: str, skip_first: bool = False) -> list[int]:
        return [ms for rnd in rows[name] for ms in (rnd[1:] if skip_first else rnd)]

    def per_round(num: Callable[[int], float], den: Callable[[int], float]) -> float:
        return statistics.median(num(r) / den(r) for r in range(opts.rounds))

    def med(name: str, r: int) -> float:
        return statistics.median(rows[name][r])

    print(
        f"agent-hooks inside Claude Code {CLAUDE_CODE.version} (its own hook timer, PreToolUse):"
        f" {opts.rounds} rounds, {opts.calls} calls per session; Python {sys.version.split()[0]};"
        f" load average before {before}, after {after}"
    )
    print(f"{'variant':52s} {'median ms':>10s} {'min':>6s}")
    print("-" * 72)
    label = {
        "shell": "shell script doing grep of the payload (baseline)",
        "floor": "python -I -S one-line check (a Python hook's floor)",
        "run warm": "agent-hooks run, server up (warm)",
        "quick warm": "quick client (python -I -S _quick_run.py run), warm",
        "no-daemon": "agent-hooks run --no-daemon",
    }
    for name, text in label.items():
        values = every(name)
        print(f"{text:52s} {statistics.median(values):10.0f} {min(values):6d}")
    for name in ("run cold", "quick cold", "installed cold", "installed turn"):
        firsts = [rnd[0] for rnd in rows[name]]
        seconds = [rnd[1] for rnd in rows[name] if len(rnd) > 1]
        rest = every(name, skip_first=True)
        who = {
            "run cold": "agent-hooks run",
            "quick cold": "quick client",
            "installed cold": "as installed",
            "installed turn": f"as installed, {opts.first_turn_ms} ms first turn",
        }[name]
        print(
            f"{who + ', first call of a session (no server)':52s} {statistics.median(firsts):10.0f} {min(firsts):6d}"
        )
        if seconds:
            print(
                f"{who + ', its second call':52s} {statistics.median(seconds):10.0f} {min(seconds):6d}"
            )
        if rest:
            print(
                f"{who + ', calls 2.. of that session':52s} {statistics.median(rest):10.0f} {min(rest):6d}"
            )
    print()

    def verdict(ratio: float, target: float) -> str:
        return f"{ratio:6.2f}x  target <= {target:g}x  {'PASS' if ratio <= target else 'MISS'}"

    a = per_round(lambda r: med("run warm", r), lambda r: med("shell", r))
    aq = per_round(lambda r: med("quick warm", r), lambda r: med("shell", r))
    c = per_round(lambda r: rows["run cold"][r][0], lambda r: med("run warm", r))
    cq = per_round(lambda r: rows["quick cold"][r][0], lambda r: med("quick warm", r))
    ci = per_round(lambda r: rows["installed cold"][r][0], lambda r: med("quick warm", r))
    ct = per_round(lambda r: rows["installed turn"][r][0], lambda r: med("quick warm", r))
    nd = per_round(lambda r: med("no-daemon", r), lambda r: med("shell", r))
    fl = per_round(lambda r: med("floor", r), lambda r: med("shell", r))
    qf = per_round(lambda r: med("quick warm", r), lambda r: med("floor", r))
    print(f"(a) warm agent-hooks run / shell script        {verdict(a, 2.0)}")
    print(f"(a) warm quick client / shell script           {verdict(aq, 2.0)}")
    print(f"(c) first call of a session / warm (run)       {verdict(c, 1.5)}")
    print(f"(c) first call of a session / warm (quick)     {verdict(cq, 1.5)}")
    print(f"(c) first call / warm (as installed: async daemon start) {verdict(ci, 1.5)}")
    print(
        f"(c) first call / warm (as installed, the model's first turn {opts.first_turn_ms} ms)"
        f" {verdict(ct, 1.5)}"
    )
    print(f"(info) --no-daemon / shell script              {nd:6.2f}x")
    print(f"(info) Python's floor / shell script           {fl:6.2f}x")
    print(f"(info) warm quick client / Python's floor      {qf:6.2f}x")


if __name__ == "__main__":
    sys.exit(main())
