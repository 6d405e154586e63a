"""The cores this process may use and how busy the machine is: read by the worker processes,
torch's thread count and the command line's checks alike."""

from __future__ import annotations

import math
import os
from pathlib import Path

__all__ = ["busy_elsewhere", "cgroup_quota", "usable_cores"]


def usable_cores() -> int:
    """The cores this process may run on: its affinity mask, capped by a cgroup v2 (cpu.max)
    or v1 (cfs_quota_us / cfs_period_us) quota when one is set."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    quota = cgroup_quota()
    return max(1, min(cores or 1, math.ceil(quota) if quota else cores or 1))


def busy_elsewhere(samples: int = 9) -> int:
    """Threads of other processes running right now: the kernel's count of runnable threads
    (/proc/loadavg), less this one, median of a few samples 10 ms apart; 0 where unknown."""
    import statistics
    import time

    counts = []
    for index in range(samples):
        try:
            running = Path("/proc/loadavg").read_text().split()[3].partition("/")[0]
            counts.append(max(0, int(running) - 1))
        except (OSError, IndexError, ValueError):
            return 0
        if index + 1 < samples:
            time.sleep(0.01)
    return int(statistics.median(counts))


def cgroup_quota() -> float | None:
    """The CPU quota of this process's cgroup in cores (v2 cpu.max or v1 cfs), None if unset."""
    v2 = Path("/sys/fs/cgroup/cpu.max")
    try:
        if v2.is_file():
            limit, _, period = v2.read_text().partition(" ")
            return None if limit == "max" else int(limit) / int(period)
        v1 = Path("/sys/fs/cgroup/cpu")
        quota = int((v1 / "cpu.cfs_quota_us").read_text())
        return None if quota <= 0 else quota / int((v1 / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
