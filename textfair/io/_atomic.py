"""Outputs published in one step.

Outputs are written to a temporary file (or directory) beside the target and put in its place
in one step, so a crash or Ctrl-C never leaves a half-written file, or a mix of an old and a
new report set, where a finished one is expected.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from textfair.errors import TextfairError


def current_umask() -> int:
    """The process's umask (read by setting it and putting it back: there is no getter)."""
    umask = os.umask(0)
    os.umask(umask)
    return umask


@contextlib.contextmanager
def atomic_writer(path: str | Path, binary: bool = False, *, replace: bool = True) -> Iterator[IO]:
    """Open a temporary file beside `path` for writing; rename it to `path` on success.

    With `replace` False the file is published only where nothing is at `path` at that
    moment: a run that finds the path taken (another run wrote it meanwhile) stops with an
    error instead of replacing that run's output."""
    target = Path(path)
    if target.is_dir():
        raise TextfairError(f"{target}: is a directory; pass a file path for the output")
    if not target.parent.exists():
        raise TextfairError(
            f"{target}: directory {target.parent} does not exist; create it or choose another path"
        )
    _remove_leftovers(target)
    fd, tmp = tempfile.mkstemp(prefix=_temporary_prefix(target), dir=target.parent)
    try:
        handle = (
            os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        )
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~current_umask())  # mkstemp makes 0600; outputs are ordinary
        if replace:
            os.replace(tmp, target)
        else:
            _publish_new(Path(tmp), target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_directory(path: str | Path, *, replace: bool = True) -> Iterator[Path]:
    """A staging directory beside `path`, with ordinary permissions, to fill; on success it
    takes the place of `path` in one step, on failure (or Ctrl-C) it is removed.

    An existing `path` is swapped with the staging directory by one `renameat2` exchange
    (Linux), so at every instant `path` holds either the complete old directory or the
    complete new one; then the old one is deleted. Where the exchange is not available the
    old directory is first renamed aside (a moment with no `path`, never a mix). What a
    killed process leaves beside `path` is removed by the next write to it. With `replace`
    False only a missing or empty `path` is filled: one another run filled meanwhile stops
    this run with an error.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(target)
    staging = Path(tempfile.mkdtemp(prefix=_temporary_prefix(target), dir=target.parent))
    umask = current_umask()
    staging.chmod(0o777 & ~umask)  # mkdtemp makes 0700; a saved model is an ordinary dir
    try:
        yield staging
        for file in staging.rglob("*"):
            if file.is_file():
                file.chmod(0o666 & ~umask)
        _fsync_tree(staging)
        if not replace:
            with contextlib.suppress(OSError):
                target.rmdir()  # empty (checked before the run); a filled one stays, and fails
            _publish_new(staging, target)
        elif not target.exists():
            os.rename(staging, target)
        elif _exchange(staging, target):
            shutil.rmtree(staging)  # now the old directory
        else:
            aside = Path(tempfile.mkdtemp(prefix=_temporary_prefix(target), dir=target.parent))
            os.rename(target, aside / "old")
            os.rename(staging, target)
            shutil.rmtree(aside)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _publish_new(staged: Path, target: Path) -> None:
    """Rename `staged` to `target` only if nothing is there (renameat2 RENAME_NOREPLACE; a
    hard link for a file where that is missing); a TextfairError if something is."""
    import errno

    try:
        if not _rename(staged, target, _RENAME_NOREPLACE):
            if staged.is_dir():  # rename fails onto a filled directory; checked for the rest
                if target.exists():
                    raise FileExistsError(errno.EEXIST, "exists", str(target))
                os.rename(staged, target)
            else:
                os.link(staged, target)  # fails if taken
                os.unlink(staged)
    except OSError as err:
        if err.errno not in (errno.EEXIST, errno.ENOTEMPTY):
            raise
        raise TextfairError(
            f"{target} was written by another run while this one worked; it is left "
            "as that run wrote it; run again with --overwrite (overwrite=True in Python) to "
            "replace it, or choose another path"
        ) from None


def _temporary_prefix(target: Path) -> str:
    """Temporary names beside `target` say whose they are: `.<name>.tmp-<pid>-`."""
    return f".{target.name}.tmp-{os.getpid()}-"


def _remove_leftovers(target: Path) -> None:
    """Remove the temporary files and directories that a killed run left beside `target`
    (their process is gone); those of a live process are left alone."""
    prefix = f".{target.name}.tmp-"
    with contextlib.suppress(OSError):
        for entry in target.parent.iterdir():
            if not entry.name.startswith(prefix):
                continue
            pid = entry.name[len(prefix) :].partition("-")[0]
            if pid.isdigit() and not _alive(int(pid)):
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _fsync_tree(root: Path) -> None:
    """Flush a staged directory's files to disk before it replaces the old one, so the
    exchange never publishes files whose data is still only in memory."""
    for file in root.rglob("*"):
        if file.is_file():
            fd = os.open(file, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths atomically with Linux's renameat2(RENAME_EXCHANGE); False where the
    system or the file system does not offer it."""
    return _rename(first, second, _RENAME_EXCHANGE)


def _rename(first: Path, second: Path, flags: int) -> bool:
    """Linux's renameat2 with `flags`; False where the system or the file system does not
    offer it, an OSError where it refused."""
    import ctypes
    import errno

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_fdcwd = -100
    if renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), flags) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))
