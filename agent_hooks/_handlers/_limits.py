"""How many hook processes may run at once by default (kept light: the registry reads
it for every session, also when no command hook is configured)."""

from __future__ import annotations

import os

__all__ = ["default_process_limit"]


def default_process_limit() -> int:
    """Default number of hook processes allowed to run at the same time.

    Hook scripts mostly wait (on I/O, on the network, on interpreter start-up)
    rather than compute, so the limit is ``4 * usable CPUs``, at least 16 (small
    machines and containers still run a typical burst of hooks in one wave) and at most 64 (each process
    holds 3 pipe descriptors plus backend bookkeeping; 64 stays far below the
    common 1024 descriptor limit and avoids fork storms on big machines).
    Usable CPUs are the ones this process may run on (``sched_getaffinity``)
    when the platform tells, else ``os.cpu_count()``.
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return min(64, max(16, 4 * max(cpus, 1)))
