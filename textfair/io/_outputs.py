"""The one check of what a run writes, made before any work: every output against the inputs,
against the other outputs and against files textfair did not write.

Apart from the writing itself (textfair.io._atomic): these checks refuse a run before its first
query, the writers publish what a run made at its end.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from textfair.errors import TextfairError
from textfair.io._cache_file import check_cache_file
from textfair.io._writable import check_parent


@dataclass(frozen=True)
class Output:
    """A path a command writes: what it is and which flag named it.

    `kind` is "file" (replaced as a whole), "directory" (a report set replaced as a whole;
    `owned` names the files textfair puts in it), "cache" (an SQLite file of a model's
    answers, reused and added to) or "shards" (a Ray pipeline's directory, checked by its
    own rules)."""

    flag: str
    path: Path | None
    kind: str = "file"
    owned: tuple[str, ...] = ()


def check_outputs(
    outputs: Sequence[Output], inputs: Mapping[str, object], *, overwrite: bool = False
) -> None:
    """The one check of what a run writes, before any work (and before the first query).

    Every output is checked against every input the command reads (`inputs` maps a flag to
    a path or a model spec: ``{"--data": ..., "--terms": ..., "--model": ...}``), against
    the other outputs, and against files textfair did not create: an existing file is
    replaced only with `overwrite`; a directory is replaced only when it holds nothing but
    textfair's own files (:func:`check_output_directory`); a cache must be a cache textfair
    wrote (:func:`check_cache_file`). One-line errors."""
    named = [out for out in outputs if out.path is not None]
    for index, out in enumerate(named):
        for flag, item in inputs.items():
            path = _input_path(item)
            if path is not None and _endangers(out, path):
                raise TextfairError(
                    f"{out.flag} {out.path} would overwrite {flag} {item}, an "
                    "input of this run; choose another output path"
                )
        for other in named[index + 1 :]:
            if _same(_path(out), _path(other)):
                raise TextfairError(
                    f"{out.flag} and {other.flag} both name {out.path}; give each its own path"
                )
        for other in named:
            inside = _path(out).resolve() in _path(other).resolve().parents
            if out.kind in ("directory", "shards") and inside:
                raise TextfairError(
                    f"{other.flag} {other.path} lies inside {out.flag} "
                    f"{out.path}, which is replaced as a whole; put it beside it"
                )
        if out.kind == "file":
            _check_output_file(out, overwrite)
        elif out.kind == "directory":
            check_output_directory(out.path, list(out.owned), overwrite)
        elif out.kind == "cache":
            check_cache_file(_path(out), out.flag)


def _path(out: Output) -> Path:
    """The path of an output that names one (the checks skip those that name none)."""
    assert out.path is not None
    return Path(out.path)


def _endangers(out: Output, path: Path) -> bool:
    """Whether writing `out` replaces or deletes the input at `path`: it is the file written,
    one of a report directory's files (what else such a directory holds is refused by
    :func:`check_output_directory`), or lies inside a shard directory replaced whole."""
    base = _path(out)
    if _same(base, path):
        return True
    if out.kind == "directory":
        return any(
            _same(base / name, path) or (base / name).resolve() in path.parents
            for name in out.owned
        )
    return out.kind == "shards" and base.resolve() in path.parents


def _input_path(item: object) -> Path | None:
    """The file or directory an input names, resolved; None for bundled names, hub ids and
    py: specs (nothing on disk that a write could replace)."""
    if item is None:
        return None
    text = str(item)
    kind, sep, rest = text.partition(":")
    if sep and kind in ("sklearn", "textfair", "hf"):
        text = rest
    elif sep and kind == "py":
        return None
    path = Path(text)
    return path.resolve() if path.exists() else None


def _same(first: Path, second: Path) -> bool:
    """The same file or directory: one path, a symlink to it, or a hard link."""
    if first.resolve() == second.resolve():
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def _check_output_file(out: Output, overwrite: bool) -> None:
    path = _path(out)
    if path.is_dir():
        raise TextfairError(f"{out.flag} {path} is a directory; pass a file path for the output")
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise TextfairError(
                f"{out.flag} {path} is not a regular file (a device, FIFO or broken "
                "link); pass the path of a new file"
            )
        if not overwrite:
            raise TextfairError(
                f"{out.flag} {path} exists; replace it with --overwrite "
                "(overwrite=True in Python) or choose a new file name"
            )
    check_parent(path, out.flag)


def check_output_directory(out: str | Path | None, owned: list[str], overwrite: bool) -> None:
    """Before any work: `out` must be a directory textfair may fill and replace as a whole.

    A new or empty directory is fine. One that holds an earlier run's files (`owned`, e.g.
    report.json) is replaced only with `overwrite`; one that holds anything else is refused
    even then, because replacing the directory would delete it. Its parent must be
    writable (the new set is staged beside it).
    """
    if out is None:
        return
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise TextfairError.bad(
            "out",
            f"{out} is a file; expected a directory for the output; choose another path",
        )
    if path.is_dir():
        entries = sorted(e.name for e in path.iterdir())
        foreign = [name for name in entries if name not in owned]
        if foreign:
            shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
            raise TextfairError.bad(
                "out",
                f"{out} holds files textfair did not write ({shown}); the output directory "
                "is replaced as a whole, so give a new or empty directory",
            )
        if entries and not overwrite:
            raise TextfairError.bad(
                "out",
                f"{out} holds the output of an earlier run; replace it with --overwrite "
                "(overwrite=True in Python) or choose another directory",
            )
    parent = path.resolve().parent
    while not parent.exists():
        parent = parent.parent
    if not os.access(parent, os.W_OK | os.X_OK):
        raise TextfairError.bad(
            "out",
            f"{out}: cannot write in {parent}; choose a directory you may write to",
        )
