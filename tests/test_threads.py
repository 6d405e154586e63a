"""torch's thread count: the cores this process may use, less those busy elsewhere."""

import multiprocessing
import os
import time

import pytest
import torch

from textfair.errors import TextfairError
from textfair.models.threads import busy_elsewhere, default_threads, set_torch_threads, usable_cores


def _spin(stop) -> None:
    x = 0
    while not stop.is_set():
        for _ in range(10_000):
            x = (x * 31 + 7) % 1_000_003


def test_usable_cores_follow_the_affinity_mask():
    assert 1 <= usable_cores() <= len(os.sched_getaffinity(0))


def test_a_competing_process_counts_as_busy():
    stop = multiprocessing.Event()
    spinner = multiprocessing.Process(target=_spin, args=(stop,), daemon=True)
    spinner.start()
    try:
        time.sleep(0.3)
        assert busy_elsewhere() >= 1
        assert default_threads() <= max(1, usable_cores() - 1)
    finally:
        stop.set()
        spinner.join()


def test_threads_are_set_and_checked():
    before = torch.get_num_threads()
    try:
        assert set_torch_threads(1) == 1 and torch.get_num_threads() == 1
        with pytest.raises(TextfairError, match="threads"):
            set_torch_threads(0)
    finally:
        torch.set_num_threads(before)
