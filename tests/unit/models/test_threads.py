"""torch's thread count: the cores this process may use, less those busy elsewhere."""

import multiprocessing
import os
import time

import pytest
import torch

from textfair.core.machine import busy_elsewhere, usable_cores
from textfair.errors import TextfairError
from textfair.models.threads import default_threads, set_torch_threads

from conftest import PACKAGE_DATA


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


@pytest.mark.slow
def test_retraining_gives_the_same_weights_whatever_thread_count_the_load_chose():
    """The retrainer trains on TRAINING_THREADS, not the count the load of the moment set
    for inference nor the machine's cores, so a mitigation's model depends on its seed alone:
    trained after torch was set to 1 thread and after 2, the weights are equal."""
    import pandas as pd
    import torch

    from textfair.mitigate.retrain import retrainer_for
    from textfair.models.spec import load_model

    frame = pd.read_csv(PACKAGE_DATA / "wiki_toxicity.csv").head(64)
    texts = frame["comment"].tolist()
    labels = ["toxic" if value else "non-toxic" for value in frame["toxic"]]
    retrainer = retrainer_for(load_model("toxicity-cnn-lstm"), seed=0)
    before = torch.get_num_threads()
    weights = []
    for threads in (1, 2):
        torch.set_num_threads(threads)
        fitted = retrainer.fit(texts, labels)
        assert torch.get_num_threads() == threads  # put back after training
        weights.append(torch.cat([p.detach().flatten() for p in fitted.network.parameters()]))
    torch.set_num_threads(before)
    assert torch.equal(weights[0], weights[1])


@pytest.mark.parametrize("kind", ["text", "table"])
def test_training_of_every_kind_uses_the_fixed_thread_count(kind):
    """train_text_classifier and TabularMLP.train (not only the mitigation's retrainer) train
    on TRAINING_THREADS whatever torch was set to, and put the caller's count back."""
    import pandas as pd

    from textfair.models.tabular_mlp import TabularMLP
    from textfair.models.text_training import train_text_classifier
    from textfair.models.threads import TRAINING_THREADS

    frame = pd.read_csv(PACKAGE_DATA / "wiki_toxicity.csv").head(48)
    labels = ["toxic" if value else "non-toxic" for value in frame["toxic"]]
    seen: list[int] = []
    original = torch.optim.Adam.step

    def step(self, *args, **kwargs):
        seen.append(torch.get_num_threads())
        return original(self, *args, **kwargs)

    before = torch.get_num_threads()
    weights = []
    try:
        torch.optim.Adam.step = step
        for threads in (2, 1):
            torch.set_num_threads(threads)
            if kind == "text":
                fitted = train_text_classifier(
                    frame["comment"].tolist(), labels, arch="cnn", epochs=1, embed_dim=8
                )
            else:
                rows = pd.DataFrame({"length": frame["comment"].str.len(), "n": range(48)})
                fitted = TabularMLP.train(rows, labels, epochs=2, hidden=(8,))
            assert torch.get_num_threads() == threads
            weights.append(torch.cat([p.detach().flatten() for p in fitted.network.parameters()]))
    finally:
        torch.optim.Adam.step = original
        torch.set_num_threads(before)
    assert seen and set(seen) == {TRAINING_THREADS}
    assert torch.equal(weights[0], weights[1])
