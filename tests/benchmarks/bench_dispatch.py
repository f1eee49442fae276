"""Dispatch cost of agent_hooks in units of a raw process spawn (issue #13).

Run from the repository root::

    .venv/bin/python tests/benchmarks/bench_dispatch.py                  # asyncio
    .venv/bin/python tests/benchmarks/bench_dispatch.py --backend trio
    .venv/bin/python tests/benchmarks/bench_dispatch.py --backend both --rounds 40
    .venv/bin/python tests/benchmarks/bench_dispatch.py --profile        # + cProfile

The unit, measured in the same run on the same event loop: a raw spawn of
``/bin/true``, the cheapest thing a shell hook can cost. On asyncio it is
``asyncio.create_subprocess_exec("/bin/true")`` with stdin, stdout and stderr piped,
then ``communicate(payload)``; on trio, ``trio.run_process(["/bin/true"])`` with the
same pipes and payload (asyncio's subprocess API does not run on trio).

Rows (a, b: fraction of the unit; c: against one group):

(a) PreToolUse, one matching callback, through a session; once with a Claude Agent
    SDK-style callback ``async (input_data: dict, tool_use_id, context) -> dict`` and
    once with a typed one ``async (input: PreToolUseInput) -> PreToolUseOutput | None``
    (target <= 0.05 of the unit each);
(b) ten SDK-style callbacks matching, run in parallel (target <= 0.25 of the unit);
(c) 1,000 groups with distinct exact matchers, one matching, against the registry
    holding only that group, i.e. (a) SDK-style (target <= 1.5x);
(info) the hand-written loop (``merged.update(await cb(payload, ...))`` per callback),
    for one and for ten callbacks;
(info) the public-API floor: the hand loop plus one ``anyio.move_on_after`` scope per
    call; for ten callbacks, one anyio task group starting them with one scope each.
    What any engine built on anyio pays for per-callback timeouts and parallelism.

Each callback yields to the event loop once (``await anyio.lowlevel.checkpoint()``)
and returns a small answer. The event is made once, like the hand loop's payload.
Every round times a batch of each variant back to back (the order reversed every
other round); a row's ratio is the median of the per-round ratios (each row against
the unit, or the 1-group row, timed in the same round); times are per call, min and
median over the rounds, in microseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import json
import platform
import pstats
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from importlib.metadata import version
from typing import Any

import anyio
import anyio.lowlevel

from agent_hooks import HookMatcher, HookRegistry, PreToolUseInput, PreToolUseOutput

Callback = Callable[[dict[str, Any], "str | None", Any], Awaitable[dict[str, Any]]]
Runner = Callable[[], Awaitable[Any]]

PAYLOAD: dict[str, Any] = {
    "session_id": "bench",
    "cwd": "/tmp",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "ls -la"},
    "tool_use_id": "tu_1",
}
"""The wire payload the hand loops hand their callbacks (which only read it)."""

PAYLOAD_BYTES = json.dumps(PAYLOAD).encode()
"""What the unit writes to ``/bin/true``'s stdin, as a hook runner writes the payload."""

TIMEOUT = 60.0


# --------------------------------------------------------------------------- #
# Callbacks
# --------------------------------------------------------------------------- #


def make_callback(i: int) -> Callback:
    """An SDK-style callback: the first allows, the others add a context line."""
    if i == 0:
        answer: dict[str, Any] = {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": "read-only command",
            }
        }
    else:
        answer = {
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": f"note {i}"}
        }

    async def callback(
        input_data: dict[str, Any], tool_use_id: str | None, context: Any
    ) -> dict[str, Any]:
        await anyio.lowlevel.checkpoint()
        return answer

    callback.__qualname__ = f"callback_{i}"
    return callback


async def typed_callback(input: PreToolUseInput) -> PreToolUseOutput | None:
    """The hook of ``make_callback(0)`` with the typed signature."""
    await anyio.lowlevel.checkpoint()
    return PreToolUseOutput(
        permission_decision="allow", permission_decision_reason="read-only command"
    )


# --------------------------------------------------------------------------- #
# Information rows: the hand loop and the public-API floor
# --------------------------------------------------------------------------- #


async def hand_loop(callbacks: list[Callback]) -> dict[str, Any]:
    """The minimal hand-written alternative: await each callback, merge its dict."""
    merged: dict[str, Any] = {}
    for cb in callbacks:
        merged.update(await cb(PAYLOAD, "tu_1", {"signal": None}))
    return merged


async def floor_one(callbacks: list[Callback]) -> dict[str, Any]:
    """The hand loop plus one anyio cancel scope (a timeout) per call."""
    merged: dict[str, Any] = {}
    for cb in callbacks:
        with anyio.move_on_after(TIMEOUT):
            merged.update(await cb(PAYLOAD, "tu_1", {"signal": None}))
    return merged


async def floor_parallel(callbacks: list[Callback]) -> dict[str, Any]:
    """One anyio task group starting the callbacks, one cancel scope each."""
    answers: list[dict[str, Any]] = [{}] * len(callbacks)
    context = {"signal": None}

    async def run(i: int, cb: Callback) -> None:
        with anyio.move_on_after(TIMEOUT):
            answers[i] = await cb(PAYLOAD, "tu_1", context)

    async with anyio.create_task_group() as tg:
        for i, cb in enumerate(callbacks):
            tg.start_soon(run, i, cb)
    merged: dict[str, Any] = {}
    for answer in answers:
        merged.update(answer)
    return merged


# --------------------------------------------------------------------------- #
# The unit: a raw spawn of /bin/true on the running loop
# --------------------------------------------------------------------------- #


async def spawn_asyncio() -> None:
    proc = await asyncio.create_subprocess_exec(
        "/bin/true",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    await proc.communicate(PAYLOAD_BYTES)
    assert proc.returncode == 0


async def spawn_trio() -> None:
    import trio

    result = await trio.run_process(
        ["/bin/true"], stdin=PAYLOAD_BYTES, capture_stdout=True, capture_stderr=True
    )
    assert result.returncode == 0


UNIT_LABEL = {
    "asyncio": "raw spawn: asyncio.create_subprocess_exec('/bin/true') + communicate(payload)",
    "trio": "raw spawn: trio.run_process(['/bin/true'], stdin=payload, capture stdout+stderr)",
}


# --------------------------------------------------------------------------- #
# Measurement
# --------------------------------------------------------------------------- #


class Variant:
    def __init__(
        self,
        label: str,
        run: Runner,
        batch: int,
        *,
        vs: str = "unit",
        target: float | None = None,
    ) -> None:
        self.label, self.run, self.batch, self.vs, self.target = label, run, batch, vs, target
        self.times: list[float] = []

    async def time_batch(self) -> float:
        start = time.perf_counter()
        for _ in range(self.batch):
            await self.run()
        return (time.perf_counter() - start) / self.batch


def registry_with(groups: int, callbacks: int, match: int) -> HookRegistry:
    """``groups`` groups with distinct exact matchers; group ``match`` matches ``Bash``
    and holds ``callbacks`` callbacks, the others one each."""
    return HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    matcher="Bash" if g == match else f"Tool{g}",
                    hooks=[make_callback(i) for i in range(callbacks if g == match else 1)],
                )
                for g in range(groups)
            ]
        }
    )


async def run_variants(
    backend: str, rounds: int, batch: int, spawns: int, profile: bool
) -> list[Variant]:
    one = registry_with(1, 1, 0)
    ten = registry_with(1, 10, 0)
    big = registry_with(1000, 1, 500)
    typed = HookRegistry({"PreToolUse": [HookMatcher(matcher="Bash", hooks=[typed_callback])]})
    cb1 = [make_callback(0)]
    cb10 = [make_callback(i) for i in range(10)]
    event = PreToolUseInput(tool_name="Bash", tool_input={"command": "ls -la"}, tool_use_id="tu_1")
    spawn = spawn_asyncio if backend == "asyncio" else spawn_trio

    async with (
        one.session(session_id="bench", cwd="/tmp") as s1,
        typed.session(session_id="bench", cwd="/tmp") as styped,
        ten.session(session_id="bench", cwd="/tmp") as s10,
        big.session(session_id="bench", cwd="/tmp") as sbig,
    ):

        async def a_sdk() -> Any:
            return await s1.dispatch(event)

        async def a_typed() -> Any:
            return await styped.dispatch(event)

        async def b() -> Any:
            return await s10.dispatch(event)

        async def c() -> Any:
            return await sbig.dispatch(event)

        async def hand1() -> Any:
            return await hand_loop(cb1)

        async def hand10() -> Any:
            return await hand_loop(cb10)

        async def floor1() -> Any:
            return await floor_one(cb1)

        async def floor10() -> Any:
            return await floor_parallel(cb10)

        # Sanity: every variant gives the expected answer.
        notes = "\n".join(f"note {i}" for i in range(1, 10))
        for fn in (a_sdk, a_typed, c):
            d = await fn()
            assert d.output.permission_decision == "allow", d
            assert len(d.results) == 1, d.results
        d = await b()
        assert d.output.permission_decision == "allow", d
        assert d.output.additional_context == notes, d.output
        assert len(d.results) == 10, d.results
        for fn in (hand1, floor1):
            answer = await fn()
            assert answer["hookSpecificOutput"]["permissionDecision"] == "allow", answer
        for fn in (hand10, floor10):
            answer = await fn()
            assert answer["hookSpecificOutput"]["additionalContext"] == "note 9", answer
        await spawn()

        unit = Variant("unit: raw spawn of /bin/true", spawn, spawns, vs="")
        variants = [
            unit,
            Variant("(a) 1 callback, SDK-style", a_sdk, batch, target=0.05),
            Variant("(c) 1,000 exact groups, 1 matches", c, batch, vs="(a) SDK", target=1.5),
            Variant("(a) 1 callback, typed", a_typed, batch, target=0.05),
            Variant("(b) 10 callbacks in parallel", b, batch, target=0.25),
            Variant("(info) hand loop, 1 callback", hand1, batch),
            Variant("(info) floor, 1 callback + 1 scope", floor1, batch),
            Variant("(info) hand loop, 10 callbacks", hand10, batch),
            Variant("(info) floor, 10: task group + scopes", floor10, batch),
        ]
        for v in variants:  # warm-up
            await v.time_batch()
        for r in range(rounds):
            gc.collect()
            for v in variants if r % 2 == 0 else reversed(variants):
                v.times.append(await v.time_batch())

        if profile:
            for label, fn in (("(a) SDK-style", a_sdk), ("(b) 10 callbacks", b)):
                prof = cProfile.Profile()
                prof.enable()
                for _ in range(batch * 5):
                    await fn()
                prof.disable()
                out = io.StringIO()
                pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(18)
                print(f"\n--- cProfile, {label}, {batch * 5} dispatches, by own time ---")
                print(_trim(out.getvalue()))
    return variants


def _trim(text: str) -> str:
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith("ncalls")), 0)
    return "\n".join(line for line in lines[start:] if line.strip())


def report(backend: str, variants: list[Variant], rounds: int, batch: int, spawns: int) -> None:
    us = 1e6
    by_label = {"unit": variants[0], "(a) SDK": variants[1]}
    print(
        f"\nagent_hooks dispatch on {backend}: Python {platform.python_version()}, "
        f"anyio {version('anyio')}"
        + (f", trio {version('trio')}" if backend == "trio" else "")
        + f"; {platform.system()} {platform.machine()}"
    )
    print(f"unit = {UNIT_LABEL[backend]}")
    print(
        f"{rounds} rounds, interleaved; per round {spawns} spawns and {batch} calls per row; "
        "µs per call (min / median over rounds); ratio = median of per-round ratios"
    )
    header = (
        f"{'row':40} {'min µs':>9} {'med µs':>9}  {'vs':>7} {'ratio':>8}  {'target':>8}  result"
    )
    print(header)
    print("-" * len(header))
    for v in variants:
        t_min, t_med = min(v.times) * us, statistics.median(v.times) * us
        if not v.vs:
            ratio_s, target_s, result = "", "", ""
        else:
            base = by_label[v.vs]
            ratio = statistics.median(o / b for o, b in zip(v.times, base.times, strict=True))
            ratio_s = f"{ratio:.2f}x" if v.vs != "unit" else f"{ratio:.4f}"
            if v.target is None:
                target_s, result = "-", "info"
            else:
                target_s = f"<= {v.target:g}" + ("x" if v.vs != "unit" else "")
                result = "PASS" if ratio <= v.target else "MISS"
        print(
            f"{v.label:40} {t_min:9.2f} {t_med:9.2f}  {v.vs:>7} {ratio_s:>8}  {target_s:>8}  "
            f"{result}".rstrip()
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["asyncio", "trio", "both"], default="asyncio")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--batch", type=int, default=200, help="calls per row per round")
    parser.add_argument("--spawns", type=int, default=20, help="unit spawns per round")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of (a), (b)")
    parser.add_argument(
        "--lines-before",
        metavar="REV",
        default=None,
        help="also print agent_hooks' line count at REV and in the working tree",
    )
    args = parser.parse_args(argv)
    backends = ["asyncio", "trio"] if args.backend == "both" else [args.backend]
    for backend in backends:
        variants = anyio.run(
            run_variants,
            backend,
            args.rounds,
            args.batch,
            args.spawns,
            args.profile,
            backend=backend,
        )
        report(backend, variants, args.rounds, args.batch, args.spawns)
    if args.lines_before:
        from line_count import report as line_report  # tests/benchmarks is sys.path[0]

        print()
        print(line_report(args.lines_before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
