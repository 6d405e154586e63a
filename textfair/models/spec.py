"""One model spec for the CLI: hf:<id or dir>, textfair:<dir>, sklearn:<file>, py:<module>:<fn>.

A bare path is recognised by what it holds: a textfair text model directory
(model.safetensors + vocab.json), a Hugging Face directory (config.json), or a joblib file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from textfair.errors import TextfairError
from textfair.models.base import UNNAMED, Model
from textfair.models.callable import CallableModel, load_callable
from textfair.models.hf import HFModel, check_dtype
from textfair.models.keywords import renamed
from textfair.models.rows import RowModel
from textfair.models.sklearn import SklearnModel
from textfair.models.tabular_mlp import TabularMLP
from textfair.models.threads import set_torch_threads
from textfair.models.torch_text import TorchTextModel

__all__ = ["SpecModel", "answers_kept", "bundled_models", "load_model", "load_row_model"]

# What a spec names: the model `load_model` builds.
SpecModel = HFModel | TorchTextModel | SklearnModel | CallableModel

_PREFIXES = ("hf:", "textfair:", "sklearn:", "py:")


def load_model(
    spec: str,
    *,
    batch_size: int = 32,
    device: str = "auto",
    trust_remote_code: bool = False,
    label_names: Sequence[str] | None = None,
    threads: int | None = None,
    revision: str | None = None,
    max_length: int | None = None,
    labels: Sequence[str] | None = None,
    dtype: str = "auto",
) -> SpecModel:
    """Build the model a spec names, as ``textfair audit --model`` reads it.

    Parameters
    ----------
    spec
        ``hf:<hub id or directory>`` (a Hugging Face sequence classifier, `HFModel`),
        ``textfair:<directory>`` (a saved `TorchTextModel`), ``sklearn:<joblib file>`` or
        ``py:<module>:<function>`` (a function of a list of texts). A bundled model's name
        (``"toxicity-cnn-lstm"``) stands for its directory. A bare path is recognised by
        what it holds: a textfair text model directory (``model.safetensors`` +
        ``vocab.json``), a Hugging Face directory (``config.json``); a file is loaded only
        with the ``sklearn:`` prefix, since loading a pickle runs its code.
    batch_size
        Texts per forward pass of a torch model.
    device
        ``"auto"`` (CUDA when available, else the CPU), ``"cpu"``, ``"cuda"`` or
        ``"cuda:N"``; for ``hf:`` and ``textfair:`` models.
    trust_remote_code
        Let a Hugging Face model run the code of its repository; never by default.
    label_names
        The model's class names, in the order of its output columns (``--label-names``):
        those of a ``py:`` function, or names for a model that calls its classes
        ``LABEL_0``, ``LABEL_1``, ... (many Hugging Face models) or ``0``, ``1``, ... (a
        scikit-learn model fitted on numbers). An error for a model that names its classes
        itself. (The texts' true labels are another thing: ``--label-column``.)
    threads
        For torch models, torch's CPU thread count (None: the cores this process may use;
        see :mod:`textfair.models.threads`).
    revision
        A hub branch, tag or commit; Hugging Face models only.
    max_length
        Tokens kept per text; Hugging Face models only.
    dtype
        The precision of a Hugging Face model's forward passes (`HFModel`): ``"auto"`` (half
        precision on a CUDA device, float32 elsewhere), ``"float32"``, ``"float16"`` or
        ``"bfloat16"``.

    Returns
    -------
    Model
        The model, with ``labels`` (its class names) and ``predict_proba``.

    Raises
    ------
    TextfairError
        A one-line error when the spec names no model or it cannot be loaded, or when an
        option does not apply to its kind (`revision` or `max_length` without ``hf:``,
        `label_names` for a model that names its classes).

    Examples
    --------
    >>> model = textfair.load_model("toxicity-cnn-lstm", device="cpu")
    >>> type(model).__name__, model.labels
    ('TorchTextModel', ('non-toxic', 'toxic'))
    >>> textfair.load_model("hf:distilbert-base-uncased-finetuned-sst-2-english",
    ...                     revision="main")  # doctest: +SKIP
    """
    kind, _, rest = spec.partition(":")
    if not spec.startswith(_PREFIXES):
        kind, rest = _detect(spec), spec
    else:
        kind = kind + ":"
    if not rest:
        raise TextfairError(f"model spec {spec!r} names nothing after {kind!r}")
    check_dtype(dtype)
    if kind != "hf:" and (revision or max_length or dtype != "auto"):
        flag = "revision" if revision else "max_length" if max_length else "dtype"
        raise TextfairError.bad(
            flag, f"applies to Hugging Face models (hf:...), not to {spec!r}; leave it out"
        )
    label_names = renamed("label_names", label_names, labels, CLASS_NAMES)
    if kind in ("hf:", "textfair:"):
        set_torch_threads(threads)
    if kind == "py:":
        return CallableModel(load_callable(rest), labels=label_names)
    model: HFModel | TorchTextModel | SklearnModel
    if kind == "hf:":
        model = HFModel(
            _resolve(rest),
            batch_size=batch_size,
            device=device,
            trust_remote_code=trust_remote_code,
            revision=revision,
            max_length=max_length,
            dtype=dtype,
        )
    elif kind == "textfair:":
        model = TorchTextModel.load(_resolve(rest), batch_size=batch_size, device=device)
    else:
        model = SklearnModel.load(rest)
    return name_classes(model, label_names, repr(spec))


# Why label_names= is not labels=.
CLASS_NAMES = "a model's class names; the texts' true labels are true_labels= in textfair.audit"


# A textfair model, of whatever class: `name_classes` gives it back as it came.
M = TypeVar("M", bound=Model)


def name_classes(model: M, label_names: Sequence[str] | None, what: str) -> M:
    """`model` with its classes called `label_names` (in the order of its outputs), when it
    calls them LABEL_0, LABEL_1, ... or 0, 1, ...; `model` as it is for None. A one-line
    error, before any query, for a count that is not the model's or a model that names
    its classes itself."""
    if label_names is None:
        return model
    names = tuple(str(name) for name in label_names)
    current = tuple(str(label) for label in model.labels)
    if len(names) != len(current) or len(set(names)) != len(names):
        raise TextfairError.bad(
            "label_names",
            f"gives {len(names)} names ({', '.join(names)}); {what} has {len(current)} "
            f"classes ({', '.join(current)}): give one distinct name per class, in its order",
        )
    if names != current and not all(UNNAMED.fullmatch(label) for label in current):
        raise TextfairError.bad(
            "label_names",
            f"renames the classes {what} names itself ({', '.join(current)}); leave it out",
        )
    # Set on a model that holds its class names in an attribute (HFModel, TorchTextModel,
    # SklearnModel, CachedModel); the protocol only promises to read them.
    model.labels = names  # type: ignore[misc]
    return model


def load_row_model(spec: str, columns: list[str], *, labels: list[str] | None = None) -> RowModel:
    """A model of table rows from a spec: sklearn:<joblib file> (a pipeline over a DataFrame
    of `columns`), textfair:<dir> (TestSGD's MLP) or py:<module>:<function>."""
    kind, _, rest = spec.partition(":")
    if kind == "sklearn":
        return RowModel(SklearnModel.load(rest).estimator, columns)
    if kind == "textfair":
        return RowModel(TabularMLP.load(rest), columns)
    if kind == "py":
        fn = load_callable(rest)
        return RowModel(fn, columns, labels=labels or getattr(fn, "labels", None))
    raise TextfairError(
        f"model spec {spec!r}: expected sklearn:<joblib file>, textfair:<dir> "
        "or py:<module>:<function>"
    )


def _detect(spec: str) -> str:
    path = _resolve(spec)
    if path.is_dir():
        if (path / "model.safetensors").is_file() and (path / "vocab.json").is_file():
            return "textfair:"
        if (path / "config.json").is_file():
            return "hf:"
        raise TextfairError(
            f"{path}: a directory, but not a model (no model.safetensors + vocab.json, "
            "no config.json); pass a textfair or Hugging Face model directory"
        )
    if path.is_file():
        # A pickle runs code when it is loaded: only when the user names it as one.
        raise TextfairError(
            f"{path}: a file; a model file is loaded only with a prefix that says what it is "
            f"(sklearn:{path} for a joblib/pickle file you trust: loading one runs its code)"
        )
    raise TextfairError(
        f"model {spec!r}: no such file or directory, and no bundled model of that name "
        f"({', '.join(bundled_models())}); use hf:<id or dir>, textfair:<dir>, "
        "sklearn:<file> or py:<module>:<function>"
    )


def bundled_models() -> list[str]:
    """Names of the models shipped with textfair."""
    from importlib import resources

    root = resources.files("textfair").joinpath("bundled_models")
    return sorted(entry.name for entry in root.iterdir() if entry.is_dir())


def _resolve(spec: str) -> Path:
    """A path as given, or the bundled model of that name."""
    from importlib import resources

    path = Path(spec)
    if path.exists() or "/" in spec:
        return path
    bundled = Path(str(resources.files("textfair").joinpath("bundled_models", spec)))
    return bundled if bundled.is_dir() else path


def spec_fingerprint(spec: str, model: object | None = None) -> str:
    """What identifies the answers of the model a spec names, for an on-disk cache: a hash of
    the bytes it is loaded from (a file, every file of a directory, a py: function's module
    source), or, for a hub id, the model's own fingerprint (id and commit). A changed file
    gives a new fingerprint, so stale answers are never reused. An hf: model run in another
    precision than float32 answers otherwise: its precision is added."""
    found = _files_fingerprint(spec, model)
    dtype = getattr(model, "dtype", None)
    if isinstance(dtype, str) and dtype != "float32" and not found.endswith(f":{dtype}"):
        return f"{found}:{dtype}"  # a hub id's own fingerprint has it already
    return found


def _files_fingerprint(spec: str, model: object | None) -> str:
    """`spec_fingerprint` before the precision."""
    kind, sep, rest = spec.partition(":")
    if sep and kind == "py":
        import importlib.util

        module = rest.partition(":")[0]
        found = importlib.util.find_spec(module)
        if found is None or not found.origin or not Path(found.origin).is_file():
            raise TextfairError(
                f"module {module!r} has no source file to key the cache by (a built-in or "
                "namespace module); leave --cache out, or wrap the model in a module of your own"
            )
        return "py:" + _digest([Path(found.origin)], extra=rest)
    path = _resolve(rest if sep and kind in ("hf", "textfair", "sklearn") else spec)
    if path.is_file():
        return f"{kind if sep else 'file'}:" + _digest([path])
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file())
        return "dir:" + _digest(files, root=path)
    own = getattr(model, "fingerprint", "")
    if not own:
        raise TextfairError(
            f"model {spec!r} has no fingerprint to key the cache by; leave --cache out"
        )
    return str(own)


def _digest(files: list[Path], root: Path | None = None, extra: str = "") -> str:
    import hashlib

    digest = hashlib.sha256(extra.encode())
    for file in files:
        digest.update(str(file.relative_to(root) if root else file.name).encode() + b"\0")
        with open(file, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:24]


def answers_kept(wrapped: Model, model: object, cache: str | Path | None) -> Model:
    """`wrapped` behind a CachedModel that keeps its answers in `cache` (the API's
    ``cache=``), when the model can be identified: `model` a spec string (its files'
    fingerprint), or one with a ``fingerprint``; as it is otherwise, so that answers of an
    unknown model are never filed where another's could be taken for them."""
    if cache is None:
        return wrapped
    from textfair.models.cached import CachedModel

    key = spec_fingerprint(model, wrapped) if isinstance(model, str) else None
    key = key or getattr(wrapped, "fingerprint", None)
    if not key:
        return wrapped
    return CachedModel(wrapped, cache_path=cache, cache_key=key)
