"""How many CPU threads torch uses for a model's forward passes.

torch starts with one thread per physical core of the machine. In a container limited to a
CPU quota, or a process pinned to some cores, that oversubscribes the cores it may use and
forward passes slow down; under a competing load every extra thread waits its turn. textfair
sets the count deliberately: `--threads N`, or by default the cores this process may use
(its CPU affinity, capped by a cgroup CPU quota) less those other processes are busy on right
now. Measured (benchmarks/threads.py, 2 cores, one competing process): torch's default of 2
threads took 2.5x as long as 1 thread, because its threads wait for each other at every
operation while one of them waits for the core.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from textfair.core.machine import busy_elsewhere, cgroup_quota, usable_cores
from textfair.errors import TextfairError

__all__ = [
    "TRAINING_THREADS",
    "default_threads",
    "set_torch_threads",
    "training_threads",
]


def default_threads() -> int:
    """The usable cores less those busy elsewhere, at least 1. Under a cgroup quota the
    quota is this process's share whatever the host runs, so nothing is subtracted."""
    cores = usable_cores()
    if cgroup_quota():
        return cores
    return max(1, cores - busy_elsewhere())


def set_torch_threads(threads: int | None = None) -> int:
    """Set torch's intra-op thread count to `threads` (None: :func:`default_threads`) and
    return it."""
    import torch

    if threads is not None and (isinstance(threads, bool) or threads < 1):
        raise TextfairError.bad("threads", f"is {threads!r}; expected 1 or more")
    chosen = threads or default_threads()
    if torch.get_num_threads() != chosen:
        torch.set_num_threads(chosen)
    return chosen


# Training runs on one thread, on every machine, whatever it runs beside. Float sums split
# over threads are added in another order for another thread count, so a model's weights
# depend on the count (measured: 2.7e-6 apart after 30 Adam steps of a CNN-LSTM, 1 thread
# against 2; after 8 epochs a different model, and a mitigation that halved a finding with
# 2 threads did not with 1). A count taken from the load of the moment would make the
# retrained model depend on what else the machine ran; one taken from the usable cores would
# make it depend on the machine, and beside a competing load its threads would wait for each
# other at every operation (a mitigation took 48 minutes against 135 s idle). One thread is
# the count every machine has: the same weights on any core count, never oversubscribed.
TRAINING_THREADS = 1


@contextlib.contextmanager
def training_threads() -> Iterator[int]:
    """Train with :data:`TRAINING_THREADS` torch threads; the count in use is put back
    afterwards (inference chooses its own, see :func:`default_threads`)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(TRAINING_THREADS)
    try:
        yield torch.get_num_threads()
    finally:
        torch.set_num_threads(before)
