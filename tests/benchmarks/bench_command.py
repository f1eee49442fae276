"""Cost of running command hooks through agent_hooks against the raw subprocess cost.

Run from the repository root::

    .venv/bin/python tests/benchmarks/bench_command.py
    .venv/bin/python tests/benchmarks/bench_command.py --rounds 400 --sleep-rounds 15
    .venv/bin/python tests/benchmarks/bench_command.py --profile   # + cProfile of (d)

Cases, measured in one run (asyncio), side by side and interleaved: every round
times each variant once, in alternating order; the ratio is the median of the
per-round ratios (each round times both variants back to back, which keeps a
busy machine from skewing it), the times are medians over the rounds. The raw
spawn is ``asyncio.create_subprocess_exec(program)`` with stdin, stdout and stderr
piped, then ``communicate(payload)`` with the payload bytes a hook gets.

(d) (issue #13) one exec-form hook ``argv=["/bin/true"]`` dispatched through a
    session (PreToolUse), against the raw spawn of ``/bin/true``: issue #13's unit,
    the cheapest thing a shell hook can cost (target <= 1.15x);
exec form ``argv=["/bin/cat"]`` (the payload echoed back, so the hook's stdout is
    read and decoded), against the raw spawn of ``/bin/cat`` (target <= 1.15x);
shell form ``command="/bin/cat"`` (no shell syntax: the fast path execs it
    directly), against the same raw spawn (target <= 1.15x);
ten hooks ``sleep 0.2`` in one group, in parallel, against one such hook, both
    through agent_hooks (target <= 1.3x).  The ten command strings differ
    (``sleep 0.2``, ``sleep 0.20``, ...) because identical commands run once per
    dispatch;
peak memory: a fresh interpreter dispatches one hook printing 50 MB
    (``head -c 52428800 /dev/zero``); its RSS high-water mark
    (``getrusage(RUSAGE_SELF).ru_maxrss``) is compared with the same interpreter
    dispatching a hook printing 1 KB instead (target: growth < 5 MB).

Informational rows (no target) show a shell-form command that needs ``sh -c``,
the ten sleeps under the default process limit, the memory case on trio, and a
control for it: the same hook with ``output_cap`` raised to 60 MB, which keeps the
whole output and must show ~50 MB of growth (the measurement can see a buffered
output). Only the public API is used.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from agent_hooks import CommandHook, HookMatcher, HookRegistry, PreToolUseInput, payload_bytes

Timed = Callable[[], Awaitable[None]]

CWD = os.getcwd()
INPUT = PreToolUseInput(
    tool_name="Bash",
    tool_input={"command": "git status --short", "description": "Show working tree status"},
    session_id="bench-session",
    cwd=CWD,
    tool_use_id="toolu_01",
)
PAYLOAD = payload_bytes(INPUT)


# --------------------------------------------------------------------------- #
# Variants
# --------------------------------------------------------------------------- #


async def raw_exec(program: str, expected: bytes) -> None:
    """The raw spawn: ``program`` with three pipes, the payload on stdin."""
    proc = await asyncio.create_subprocess_exec(
        program,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, _ = await proc.communicate(PAYLOAD)
    assert proc.returncode == 0 and out == expected, (proc.returncode, out)


def one_hook(hook: CommandHook, **options: Any) -> HookRegistry:
    return HookRegistry({"PreToolUse": [HookMatcher(hooks=[hook])]}, **options)


async def dispatcher(reg: HookRegistry, expected: int, stack: list[Any]) -> Timed:
    """Open a session (kept open in ``stack``) and return a timed dispatch through it."""
    session = reg.session(project_dir=CWD, cwd=CWD, session_id="bench-session")
    await session.__aenter__()
    stack.append(session)

    async def run() -> None:
        d = await session.dispatch(INPUT)
        assert len(d.results) == expected, d.results
        for r in d.results:
            assert r.exit_code == 0, r

    return run


async def measure(pairs: list[tuple[Timed, Timed]], rounds: int) -> list[dict[str, Any]]:
    """Time every (baseline, subject) pair ``rounds`` times, interleaved."""
    samples: list[list[tuple[float, float]]] = [[] for _ in pairs]
    for _ in range(max(3, rounds // 20)):  # warm-up
        for base, subject in pairs:
            await base()
            await subject()
    gc.collect()
    for i in range(rounds):
        for k, (base, subject) in enumerate(pairs):
            order = (base, subject) if i % 2 == 0 else (subject, base)
            times = {}
            for fn in order:
                t0 = time.perf_counter()
                await fn()
                times[fn] = time.perf_counter() - t0
            samples[k].append((times[base], times[subject]))
    stats = []
    for rows in samples:
        stats.append(
            {
                "base": statistics.median(b for b, _ in rows),
                "subject": statistics.median(s for _, s in rows),
                "ratio": statistics.median(s / b for b, s in rows),
            }
        )
    return stats


# --------------------------------------------------------------------------- #
# Peak memory (fresh interpreters)
# --------------------------------------------------------------------------- #

MEMORY_CHILD = r"""
import json, resource, sys
import anyio
from agent_hooks import CommandHook, HookMatcher, HookRegistry, PreToolUseInput

size = int(sys.argv[1])
cap = int(sys.argv[3])

async def main():
    reg = HookRegistry({"PreToolUse": [
        HookMatcher(matcher="Warm", hooks=[CommandHook(command="head -c 1000 /dev/zero")]),
        HookMatcher(matcher="Run", hooks=[
            CommandHook(command=f"head -c {size} /dev/zero", output_cap=cap)
        ]),
    ]})
    async with reg.session() as s:
        for _ in range(3):  # import and warm every code path first
            await s.dispatch(PreToolUseInput(tool_name="Warm"))
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        d = await s.dispatch(PreToolUseInput(tool_name="Run"))
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        assert d.results[0].exit_code == 0, d.results
    print(json.dumps({"before_kib": before, "after_kib": after}))

anyio.run(main, backend=sys.argv[2])
"""


def peak_rss_kib(size: int, backend: str, cap: int) -> dict[str, int]:
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_CHILD, str(size), backend, str(cap)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    data: dict[str, int] = json.loads(out)
    return data


def memory_case(runs: int, backend: str, cap: int = 100_000) -> dict[str, float]:
    big, small = [], []
    for _ in range(runs):  # interleaved
        big.append(peak_rss_kib(50 * 1024 * 1024, backend, cap))
        small.append(peak_rss_kib(1000, backend, cap))
    big_peak = statistics.median(r["after_kib"] for r in big)
    small_peak = statistics.median(r["after_kib"] for r in small)
    return {
        "big_peak_mib": big_peak / 1024,
        "small_peak_mib": small_peak / 1024,
        "growth_mib": (big_peak - small_peak) / 1024,
        "growth_in_run_mib": statistics.median(r["after_kib"] - r["before_kib"] for r in big)
        / 1024,
    }


# --------------------------------------------------------------------------- #
# Main
# --------------------------------------------------------------------------- #


def verdict(value: float, target: float | None) -> str:
    if target is None:
        return "info"
    return "PASS" if value <= target else "MISS"


async def run_timings(args: argparse.Namespace) -> list[tuple[str, str, float, float, str, str]]:
    stack: list[Any] = []
    rows: list[tuple[str, str, float, float, str, str]] = []
    try:
        exec_true = await dispatcher(one_hook(CommandHook(argv=["/bin/true"])), 1, stack)
        exec_form = await dispatcher(one_hook(CommandHook(argv=["/bin/cat"])), 1, stack)
        fast_path = await dispatcher(one_hook(CommandHook(command="/bin/cat")), 1, stack)
        via_shell = await dispatcher(one_hook(CommandHook(command="/bin/cat | cat")), 1, stack)

        async def raw_true() -> None:
            await raw_exec("/bin/true", b"")

        async def raw_cat() -> None:
            await raw_exec("/bin/cat", PAYLOAD)

        stats = await measure(
            [
                (raw_true, exec_true),
                (raw_cat, exec_form),
                (raw_cat, fast_path),
                (raw_cat, via_shell),
            ],
            args.rounds,
        )
        labels = [
            ("(d) exec form argv=['/bin/true'] (#13)", "raw spawn /bin/true", 1.15),
            ("exec form argv=['/bin/cat']", "raw spawn /bin/cat", 1.15),
            ("shell form '/bin/cat' (fast path)", "raw spawn /bin/cat", 1.15),
            ("(info) shell form '/bin/cat | cat' (sh -c)", "raw spawn /bin/cat", None),
        ]
        for (name, base, target), s in zip(labels, stats, strict=True):
            rows.append(
                (
                    name,
                    base,
                    s["subject"] * 1e3,
                    s["base"] * 1e3,
                    f"{s['ratio']:.3f}x",
                    f"<= {target}x {verdict(s['ratio'], target)}" if target else verdict(0, None),
                )
            )

        sleeps = [CommandHook(command=f"sleep 0.2{'0' * i}") for i in range(10)]
        ten_wide = HookRegistry({"PreToolUse": [HookMatcher(hooks=sleeps)]}, max_processes=10)
        ten_default = HookRegistry({"PreToolUse": [HookMatcher(hooks=sleeps)]})
        one_sleep = await dispatcher(one_hook(CommandHook(command="sleep 0.2")), 1, stack)
        ten = await dispatcher(ten_wide, 10, stack)
        ten_limited = await dispatcher(ten_default, 10, stack)
        stats = await measure([(one_sleep, ten), (one_sleep, ten_limited)], args.sleep_rounds)
        labels = [
            ("10 x 'sleep 0.2' in parallel (max_processes=10)", "1 x 'sleep 0.2'", 1.3),
            ("(info) the same, default process limit", "1 x 'sleep 0.2'", None),
        ]
        for (name, base, target), s in zip(labels, stats, strict=True):
            rows.append(
                (
                    name,
                    base,
                    s["subject"] * 1e3,
                    s["base"] * 1e3,
                    f"{s['ratio']:.3f}x",
                    f"<= {target}x {verdict(s['ratio'], target)}" if target else verdict(0, None),
                )
            )
    finally:
        for session in reversed(stack):
            await session.__aexit__(None, None, None)
    return rows


async def profile_case_d(rounds: int) -> str:
    stack: list[Any] = []
    try:
        run = await dispatcher(one_hook(CommandHook(argv=["/bin/true"])), 1, stack)
        for _ in range(20):
            await run()
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(rounds):
            await run()
        prof.disable()
    finally:
        for session in reversed(stack):
            await session.__aexit__(None, None, None)
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(30)
    return buf.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=300, help="rounds for the spawn rows")
    parser.add_argument("--sleep-rounds", type=int, default=10, help="rounds for the sleep rows")
    parser.add_argument(
        "--memory-runs", type=int, default=3, help="fresh interpreters per memory side"
    )
    parser.add_argument("--profile", action="store_true", help="print a cProfile of case (d)")
    args = parser.parse_args()

    command = " ".join(["python", *sys.argv])
    print(f"command: {command}")
    print(
        f"python {platform.python_version()} on {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs; asyncio; payload {len(PAYLOAD)} bytes; "
        f"{args.rounds} rounds (spawn rows), {args.sleep_rounds} rounds (sleep rows), "
        f"{args.memory_runs} interpreters per side (memory)"
    )
    rows = asyncio.run(run_timings(args))

    print()
    header = ("case", "baseline", "agent_hooks ms", "baseline ms", "ratio", "target")
    table = [header] + [
        (name, base, f"{subj_ms:.3f}", f"{base_ms:.3f}", ratio, target)
        for name, base, subj_ms, base_ms, ratio, target in rows
    ]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for n, r in enumerate(table):
        print(" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if n == 0:
            print("-+-".join("-" * w for w in widths))

    print()
    memory_rows = [
        ("peak memory:", "asyncio", 100_000, 5.0),
        ("(info)", "trio", 100_000, None),
        ("(control: output_cap=60 MB keeps it all)", "asyncio", 60_000_000, None),
    ]
    for label, backend, cap, target in memory_rows:
        m = memory_case(args.memory_runs, backend, cap)
        mark = (
            f"< {target:g} MB {'PASS' if m['growth_mib'] < target else 'MISS'}"
            if target
            else "info"
        )
        print(
            f"{label} 50 MB on stdout, {backend}: peak RSS {m['big_peak_mib']:.1f} MiB vs "
            f"{m['small_peak_mib']:.1f} MiB with a 1 KB hook -> growth {m['growth_mib']:+.2f} MiB "
            f"(within the run: {m['growth_in_run_mib']:+.2f} MiB)  {mark}"
        )

    if args.profile:
        print()
        print(asyncio.run(profile_case_d(args.rounds)))


if __name__ == "__main__":
    main()
