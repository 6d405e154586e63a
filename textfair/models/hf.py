"""Hugging Face sequence classifiers (AutoTokenizer + AutoModelForSequenceClassification).

Loads a hub id or a local directory through the same code path; with HF_HUB_OFFLINE=1 only
local files are used. Inputs are scored in batches sorted by length (less padding), under
``torch.inference_mode()``, truncated at the model's maximum length, and returned in input
order. Remote code is never run unless the user asks with ``trust_remote_code=True``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from textfair.errors import TextfairError
from textfair.models._device import resolve_device

if TYPE_CHECKING:
    from transformers import PreTrainedModel

__all__ = ["DTYPES", "HFModel", "check_dtype"]


class HFModel:
    r"""A transformers text classifier with batched, length-sorted inference.

    Loads a hub id or a local directory through the same code path (``AutoTokenizer`` and
    ``AutoModelForSequenceClassification``); with ``HF_HUB_OFFLINE=1`` only local files are
    used, and a hub id the network cannot reach fails within seconds unless the model is in
    the local cache. Remote code is never run unless asked for with
    ``trust_remote_code=True``.

    Parameters
    ----------
    name_or_path
        A hub id (``"ORG/NAME"``) or a directory written by ``save_pretrained``.
    batch_size
        Texts per forward pass.
    device
        ``"auto"`` (CUDA when available, else the CPU), ``"cpu"``, ``"mps"``, ``"cuda"`` or
        ``"cuda:N"``.
    trust_remote_code
        Let the model run the code of its repository.
    max_length
        Tokens kept per text; by default the tokenizer's maximum length, or 512 when it
        names none (or an implausibly large one).
    sort_by_length
        Score texts in batches sorted by length (less padding); results come back in input
        order either way.
    revision
        A hub branch, tag or commit; it is added to the fingerprint.
    dtype
        The precision of the forward passes: ``"auto"`` (default: half precision on a CUDA
        device, bfloat16 where the checkpoint was saved in it and float16 otherwise; float32
        elsewhere, where half precision is slower), ``"float32"``, ``"float16"`` or
        ``"bfloat16"``. A precision other than float32 is added to the fingerprint: its
        answers differ in the last digits, and a cache never mixes them.

    Attributes
    ----------
    labels : tuple of str
        The model's labels, in the order of its output columns (``config.id2label``).
    multi_label : bool
        Whether the head is multi-label (``problem_type="multi_label_classification"``):
        a sigmoid per label instead of a softmax over them.
    fingerprint : str
        What identifies the model's answers: ``hf:<source>:<commit hash>``, with
        ``@<revision>`` when one was given and ``:<dtype>`` when it is not float32.
    tokenizer, network
        The transformers tokenizer and model.
    device, batch_size, max_length, sort_by_length, dtype
        As given (the device and the precision resolved).

    Raises
    ------
    TextfairError
        One line saying why the model did not load and what to do: a directory without
        ``config.json``, no network and no cached copy, a gated or private model, an unknown
        id or revision, or a weights file that holds Python objects (which textfair does not
        load, since that would run code from the file).

    Examples
    --------
    >>> model = textfair.HFModel("distilbert-base-uncased-finetuned-sst-2-english",
    ...                          device="cpu")  # doctest: +SKIP
    >>> model.labels  # doctest: +SKIP
    ('NEGATIVE', 'POSITIVE')
    """

    def __init__(
        self,
        name_or_path: str | Path,
        *,
        batch_size: int = 32,
        device: str = "auto",
        trust_remote_code: bool = False,
        max_length: int | None = None,
        sort_by_length: bool = True,
        revision: str | None = None,
        dtype: str = "auto",
    ) -> None:
        from transformers import AutoModelForSequenceClassification, AutoTokenizer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # textfair draws its own progress

        source = str(name_or_path)
        if Path(source).exists() and not (Path(source) / "config.json").is_file():
            raise TextfairError(
                f"{source}: not a Hugging Face model directory (no config.json); "
                "pass a directory written by save_pretrained or a hub model id"
            )
        # A hub id with no network behind it: fail in seconds, not after a minute of retries;
        # a model already in the local cache still loads.
        offline = not Path(source).exists() and not _hub_reachable()
        try:
            hub = {"revision": revision, "local_files_only": offline}
            with _quiet_transformers():  # its log lines would come before our one line
                self.tokenizer = AutoTokenizer.from_pretrained(
                    source, trust_remote_code=trust_remote_code, **hub
                )
                self.network = AutoModelForSequenceClassification.from_pretrained(
                    source, trust_remote_code=trust_remote_code, **hub
                )
        except Exception as err:  # a loader fails in many ways; each is one line for the user
            raise load_error(err, source, revision, offline) from None
        check_dtype(dtype)  # before the weights are read
        self._setup(source, batch_size, device, max_length, sort_by_length, dtype)
        if revision:
            self.fingerprint += f"@{revision}"
        if self.dtype != "float32":
            self.fingerprint += f":{self.dtype}"

    @classmethod
    def from_objects(
        cls,
        network: PreTrainedModel,
        tokenizer: Any,  # a transformers tokenizer: its class differs by release and backend
        *,
        batch_size: int = 32,
        device: str | None = None,
        max_length: int | None = None,
        sort_by_length: bool = True,
        dtype: str | None = None,
    ) -> HFModel:
        """Wrap a model and tokenizer already in memory (a `pipeline`'s, or a pair loaded
        by the caller).

        Parameters
        ----------
        network
            A transformers sequence-classification model.
        tokenizer
            Its tokenizer.
        batch_size, max_length, sort_by_length
            As for `HFModel`.
        device
            Where to run it; None (default): where the model already is.
        dtype
            As for `HFModel`; None (default): the precision it already has.

        Returns
        -------
        HFModel
            The wrapped model; its fingerprint names the model's ``_name_or_path`` (or its
            class) and commit hash.

        Examples
        --------
        >>> from transformers import pipeline  # doctest: +SKIP
        >>> classifier = pipeline("text-classification", model="ORG/NAME")  # doctest: +SKIP
        >>> model = textfair.HFModel.from_objects(classifier.model,
        ...                                       classifier.tokenizer)  # doctest: +SKIP
        """
        model = cls.__new__(cls)
        model.tokenizer, model.network = tokenizer, network
        where = device or str(getattr(network, "device", "cpu"))
        source = str(getattr(network.config, "_name_or_path", "") or type(network).__name__)
        model._setup(source, batch_size, where, max_length, sort_by_length, dtype)
        if model.dtype != "float32":
            model.fingerprint += f":{model.dtype}"
        return model

    def _setup(
        self,
        source: str,
        batch_size: int,
        device: str,
        max_length: int | None,
        sort_by_length: bool,
        dtype: str | None,
    ) -> None:
        import torch

        self.device = resolve_device(device)
        self.dtype = _precision(dtype, self.device, self.network)
        self.network.to(self.device, dtype=getattr(torch, self.dtype)).eval()
        self.batch_size = batch_size
        self.sort_by_length = sort_by_length
        id2label = self.network.config.id2label
        self.labels = tuple(str(id2label[i]) for i in range(len(id2label)))
        # A multi-label head (toxic, obscene, identity_attack, ...) has one sigmoid per label.
        self.multi_label = (
            getattr(self.network.config, "problem_type", None) == "multi_label_classification"
        )
        limit = self.tokenizer.model_max_length
        self.max_length = max_length or (limit if limit and limit < 100_000 else 512)
        self.fingerprint = f"hf:{source}:{getattr(self.network.config, '_commit_hash', '')}"

    def predict_proba(self, inputs: Sequence[str]) -> np.ndarray:
        r"""Probabilities for a batch of texts, in input order.

        Each text is truncated at `max_length` tokens. Texts are scored in batches of
        `batch_size`, sorted by length unless `sort_by_length` is off, under
        ``torch.inference_mode()``.

        Parameters
        ----------
        inputs
            The texts (each turned into a string).

        Returns
        -------
        numpy.ndarray
            Shape ``(len(inputs), len(labels))``, float64: a softmax over the labels, or a
            sigmoid per label for a multi-label head.

        Notes
        -----
        With logits $z_1, \dots, z_k$ of a text, the softmax is
        $p_j = e^{z_j} / \sum_{l=1}^{k} e^{z_l}$ (a row sums to 1), and a multi-label
        head's sigmoid is $p_j = 1 / (1 + e^{-z_j})$ (each label on its own).
        """
        import torch

        texts = [str(text) for text in inputs]
        order = (
            np.argsort([len(t) for t in texts], kind="stable")
            if self.sort_by_length
            else np.arange(len(texts))
        )
        result = np.empty((len(texts), len(self.labels)))
        with torch.inference_mode():
            for begin in range(0, len(texts), self.batch_size):
                rows = order[begin : begin + self.batch_size]
                encoded = self.tokenizer(
                    [texts[i] for i in rows],
                    padding=True,
                    truncation=True,
                    max_length=self.max_length,
                    return_tensors="pt",
                ).to(self.device)
                logits = self.network(**encoded).logits
                scores = (
                    torch.sigmoid(logits.float())
                    if self.multi_label
                    else torch.softmax(logits.float(), dim=-1)
                )
                result[rows] = scores.cpu().double().numpy()
        return result


#: The precisions a Hugging Face model may run in.
DTYPES = ("auto", "float32", "float16", "bfloat16")


def check_dtype(dtype: str | None) -> None:
    """One line for a precision textfair does not know."""
    if dtype is not None and dtype not in DTYPES:
        raise TextfairError.bad("dtype", f"is {dtype!r}; expected one of {', '.join(DTYPES)}")


def _precision(dtype: str | None, device: str, network: PreTrainedModel) -> str:
    """The precision `dtype` resolves to on `device` (see `HFModel`); None keeps the
    network's own."""
    check_dtype(dtype)
    own = str(next(network.parameters()).dtype).removeprefix("torch.")
    if dtype is None:
        return own
    if dtype != "auto":
        return dtype
    if not device.startswith("cuda"):
        return "float32"
    saved = str(getattr(network.config, "torch_dtype", "") or "").removeprefix("torch.")
    return "bfloat16" if saved == "bfloat16" else "float16"


def load_error(err: Exception, source: str, revision: str | None, offline: bool) -> TextfairError:
    """One line saying why a Hugging Face model did not load, and what to do about it."""
    text = str(err).strip()
    first = text.splitlines()[0] if text else type(err).__name__
    at = f" at revision {revision!r}" if revision else ""
    lowered = text.lower()
    if offline:
        return TextfairError(
            f"cannot load Hugging Face model {source!r}{at}: the hub cannot be reached "
            "(offline) and the model is not in the local cache; connect to the "
            "network, or download it elsewhere and pass its directory"
        )
    if "gated" in lowered or "401" in lowered or "403" in lowered:
        return TextfairError(
            f"Hugging Face model {source!r} is gated or private: accept its terms on its hub "
            "page, then log in (`huggingface-cli login`, or set HF_TOKEN) and run again"
        )
    if "not a valid model identifier" in lowered or "repository not found" in lowered:
        return TextfairError(
            f"no Hugging Face model {source!r}{at} on the hub or on disk; check the id "
            "(ORG/NAME) or pass the directory of a saved model"
        )
    if "weights only load failed" in lowered or "unpickling" in lowered:
        # torch's own advice (weights_only=False) would run whatever code the file holds.
        return TextfairError(
            f"cannot load Hugging Face model {source!r}: its PyTorch weights file is damaged "
            "or holds Python objects beyond tensors, which textfair does not load (that would "
            "run code from the file); re-save the model with safe_serialization=True "
            "(model.safetensors) or pass another copy"
        )
    if revision and ("revision" in lowered or "git identifier" in lowered or revision in text):
        return TextfairError(
            f"Hugging Face model {source!r} has no revision {revision!r}; pass a branch, tag "
            "or commit it has (--revision)"
        )
    return TextfairError(
        f"cannot load Hugging Face model {source!r} ({first[:300]}); check the id or "
        "path (with HF_HUB_OFFLINE=1 only models already on disk load)"
    )


@contextlib.contextmanager
def _quiet_transformers() -> Iterator[None]:
    """transformers' warnings and info off while a model loads; its level put back after."""
    from transformers.utils import logging

    before = logging.get_verbosity()
    logging.set_verbosity_error()
    try:
        yield
    finally:
        logging.set_verbosity(before)


def _hub_reachable(timeout: float = 3.0) -> bool:
    """Whether the Hugging Face hub answers a TCP connection within `timeout` seconds
    (False at once when HF_HUB_OFFLINE is set)."""
    import os
    import socket
    from urllib.parse import urlparse

    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on"):
        return False
    host = urlparse(os.environ.get("HF_ENDPOINT", "https://huggingface.co")).hostname
    try:
        with socket.create_connection((host or "huggingface.co", 443), timeout=timeout):
            return True
    except OSError:
        return False
