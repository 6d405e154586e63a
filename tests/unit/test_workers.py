"""The corpus read by forked workers (textfair.workers): the same domain and the same report
as one process, to the bit; a worker that dies costs only time; a bad count is one line."""

import gc
import json
import os

import numpy as np
import pytest

import textfair
from textfair.errors import TextfairError
from textfair.models.spec import load_model
from textfair.text.domain import TextDomain
from textfair.text.reading_store import forget_readings
from textfair.workers import (
    MIN_ITEMS_PER_WORKER,
    can_fork,
    check_workers,
    collector_paused,
    fork_map,
    notify,
    split,
)

from conftest import bundled_comments

needs_fork = pytest.mark.skipif(not can_fork(), reason="workers are forked on Linux only")


class Shared:
    """An object the results refer to and this process holds."""


def test_the_cycle_collector_is_paused_while_the_work_runs_and_restored_after():
    # Here and in every child; a caller that had it off keeps it off.
    seen = fork_map(lambda chunk: [gc.isenabled() for _ in chunk], [[1], [2]])
    assert seen == [[False], [False]] and gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError
    assert gc.isenabled()


@needs_fork
def test_results_come_back_in_order_and_shared_objects_by_reference():
    shared = Shared()
    parent = os.getpid()
    results = fork_map(
        lambda chunk: [(x * x, shared, os.getpid()) for x in chunk], [[1, 2], [3]], [shared]
    )
    assert [[value for value, _, _ in part] for part in results] == [[1, 4], [9]]
    assert all(item is shared for part in results for _, item, _ in part)
    # The first chunk ran here, the second in a child.
    assert results[0][0][2] == parent and results[1][0][2] != parent


@needs_fork
def test_a_worker_that_dies_leaves_its_chunk_to_this_process():
    parent = os.getpid()

    def work(chunk):
        if os.getpid() != parent:
            os._exit(9)  # killed, as by the kernel, before it sends anything
        return sum(chunk)

    assert fork_map(work, [[1], [2, 3], [4]]) == [1, 5, 4]


def test_an_error_is_raised_as_one_process_raises_it():
    def work(chunk):
        if 2 in chunk:
            raise ValueError("chunk two")
        return chunk

    with pytest.raises(ValueError, match="chunk two"):
        fork_map(work, [[1], [2]])


def test_chunks_cover_every_item_once_and_balance_the_long_ones():
    sizes = [5000, 5000, *([100] * (3 * MIN_ITEMS_PER_WORKER))]
    chunks = split(sizes, 2)
    assert sorted(i for chunk in chunks for i in chunk) == list(range(len(sizes)))
    assert all(chunk == sorted(chunk) for chunk in chunks)
    assert [0 in chunk for chunk in chunks].count(True) == 1
    assert (0 in chunks[0]) != (1 in chunks[0])  # the two long texts in different chunks
    totals = [sum(sizes[i] for i in chunk) for chunk in chunks]
    assert max(totals) - min(totals) <= max(sizes)
    # Too few items for a second worker: one chunk.
    assert split([10] * (2 * MIN_ITEMS_PER_WORKER - 1), 4) == [list(range(399))]


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_a_bad_worker_count_is_one_line(bad):
    with pytest.raises(TextfairError, match=r"^workers is"):
        check_workers(bad)


@needs_fork
def test_the_domain_read_by_two_workers_is_the_one_process_reads():
    texts, _ = bundled_comments()
    one, two = TextDomain(texts, workers=1), TextDomain(texts, workers=2)
    assert two._mentions == one._mentions
    # Mentions point at this process's terms, not at copies of them.
    terms = {id(term) for term in one.term_list.terms()}
    assert all(id(m.term) in terms for found in two._mentions for m in found)
    assert two._related == one._related and two.left_out == one.left_out
    assert np.array_equal(two._presence, one._presence)
    assert two._target_sets == one._target_sets
    scores, expected = (
        two.scorer.remembered(range(len(texts))),
        one.scorer.remembered(range(len(texts))),
    )
    assert scores.keys() == expected.keys() and len(scores) > 100
    assert all(np.array_equal(scores[key], expected[key]) for key in expected)


def _report_bytes(terms: str, workers: int) -> str:
    # One torch thread for every audit compared: torch adds a forward pass's floats in an
    # order that depends on its thread count, which a model loaded by name takes from the
    # machine's load of the moment (a busy CI worker gave two counts: the 17th digits moved).
    model = load_model("toxicity-cnn-lstm", threads=1)
    # The bundled comments show no first name to be a private person's: `names` is audited
    # as test_report_unchanged does, every name taken for one.
    forget_readings()  # read by `workers`, not found as the other run read it
    record = textfair.audit(
        model,
        terms=terms,
        workers=workers,
        private_names=terms == "names",
        model_id="toxicity-cnn-lstm",
    ).to_dict()
    del record["run"]["seconds"]
    del record["templates"]["run"]["seconds"]  # the templated section's own time
    return json.dumps(record, sort_keys=True)


@needs_fork
@pytest.mark.slow
@pytest.mark.parametrize("terms", ["dixon2018", "holistic", "names", "pronouns"])
def test_the_report_is_identical_to_the_bit_with_one_and_with_two_workers(terms):
    assert _report_bytes(terms, 2) == _report_bytes(terms, 1)


@needs_fork
def test_work_in_a_child_notifies_this_process_once_and_this_process_only_waits():
    parent, notified = os.getpid(), []

    def work(chunk):
        notify()
        notify()
        return os.getpid()

    pids = fork_map(work, [[1], [2], [3]], on_notify=lambda: notified.append(os.getpid()))
    assert notified == [parent]
    assert parent not in pids and len(set(pids)) == 3


def test_without_workers_the_notice_is_given_here():
    notified = []
    assert fork_map(lambda chunk: notify() or chunk, [[1]], on_notify=lambda: notified.append(1))
    assert notified == [1]
