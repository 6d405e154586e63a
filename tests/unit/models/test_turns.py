"""ModelTurns: one model call at a time between two sections of an audit, the corpus's
first; a failure or a stop carried to the other section's next call."""

import threading
import time

import pytest

from textfair.models.turns import ModelTurns, Stopped


def _wait_until(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the other thread never got there"
        time.sleep(0.001)


def test_a_waiting_first_call_goes_before_a_waiting_second_one():
    turns = ModelTurns()
    order: list[str] = []
    holding = threading.Event()
    release = threading.Event()

    def call(name: str, first: bool) -> None:
        with turns.turn(first):
            order.append(name)
            if name == "holder":
                holding.set()
                release.wait()

    holder = threading.Thread(target=call, args=("holder", False))
    holder.start()
    holding.wait()
    second = threading.Thread(target=call, args=("templates", False))
    second.start()
    first = threading.Thread(target=call, args=("corpus", True))
    first.start()
    # Once the corpus's call waits, no second-priority call may take the model before it,
    # whether the templates' call is waiting yet or not.
    _wait_until(lambda: turns._first_waiting == 1)
    release.set()
    for thread in (holder, second, first):
        thread.join()
    assert order == ["holder", "corpus", "templates"]


def test_one_call_holds_the_model_at_a_time():
    turns = ModelTurns()
    inside, most = [0], [0]
    lock = threading.Lock()

    def calls(first: bool) -> None:
        for _ in range(200):
            with turns.turn(first):
                with lock:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                time.sleep(0)
                with lock:
                    inside[0] -= 1

    threads = [threading.Thread(target=calls, args=(k == 0,)) for k in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 1


def test_a_failure_stops_the_other_sections_next_call():
    turns = ModelTurns()
    turns.fail(RuntimeError("the templates' model call failed"))
    turns.fail(RuntimeError("a later one"))  # the first failure is the one said
    # Stopped, not the failure itself: no model-failure handler on the way catches it as
    # this section's own (the failing section raises it, once).
    with pytest.raises(Stopped, match="the templates' model call failed"), turns.turn(True):
        pass


def test_a_stopped_audit_stops_a_call_waiting_for_its_turn():
    turns = ModelTurns()
    outcome: list[BaseException] = []
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with turns.turn(True):
            holding.set()
            release.wait()

    def wait() -> None:
        try:
            with turns.turn(False):
                outcome.append(AssertionError("the model was called after the stop"))
        except Stopped as stopped:
            outcome.append(stopped)

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait()
    waiter = threading.Thread(target=wait)
    waiter.start()
    turns.stop()
    release.set()
    holder.join()
    waiter.join()
    assert len(outcome) == 1 and isinstance(outcome[0], Stopped)


def test_a_templates_call_waits_for_the_corpus_to_pause_for_its_patience_in_a_series():
    turns = ModelTurns(patience=0.2)
    with turns.series(True):
        with turns.turn(True):
            pass
        ended = time.monotonic()
        with turns.turn(False):
            began = time.monotonic()
    assert began - ended >= 0.2
    # Without a corpus's call lately, a templates' call takes the model at once.
    alone = ModelTurns(patience=60.0)
    started = time.monotonic()
    with alone.series(True), alone.turn(False):
        assert time.monotonic() - started < 30.0


def test_outside_a_corpus_series_a_templates_call_takes_the_free_model_at_once():
    """Between its series (a test's batches) the corpus works on what it read: no pause of
    it is short, and the templates' call goes at once."""
    turns = ModelTurns(patience=60.0)
    with turns.turn(True):
        pass
    started = time.monotonic()
    with turns.turn(False):
        assert time.monotonic() - started < 30.0
    # The templates' own series keeps nobody waiting.
    with turns.series(False), turns.turn(True):
        pass
    started = time.monotonic()
    with turns.turn(False):
        assert time.monotonic() - started < 30.0


def test_a_corpus_series_ending_frees_a_templates_call_waiting_for_its_patience():
    turns = ModelTurns(patience=60.0)
    began: list[float] = []
    series = turns.series(True)
    series.__enter__()
    with turns.turn(True):
        pass

    def templates_call():
        with turns.turn(False):
            began.append(time.monotonic())

    waiter = threading.Thread(target=templates_call)
    waiter.start()
    time.sleep(0.1)
    assert not began, "inside the corpus's series, it waits for the corpus's patience"
    ended = time.monotonic()
    series.__exit__(None, None, None)
    waiter.join(timeout=30)
    assert began and began[0] - ended < 30.0
