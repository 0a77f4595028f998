"""Writing a file a person named (`-o`, `--report`, `--plot`, saves): one door, whole or not at all.

Every file battlemat writes goes through `write_file` (text or bytes) or `writing` (a library that
writes to a path itself: matplotlib's savefig, pygame's image.save). The content goes to a temporary
file beside the target, is flushed to the disk, then renamed over the target (`os.replace`, atomic on
POSIX and Windows): a full disk, a Ctrl+C or a crash mid-write leaves the older file whole and no half
file behind. Every failure is a LoadError naming the file and the fix, never an OSError: the target is
a folder, its folder cannot be made, the place is not writable, the disk is full.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from battlemat.io.errors import LoadError

TEMP_SUFFIX = ".tmp"  # temporary files are `.NAME.<random>.tmp` (+ the target's suffix for `writing`)


def write_file(path: str | Path, content: str | bytes, what: str, fix: str = "choose another place") -> Path:
    """Write `content` (text is UTF-8) to `path` whole, through a temporary file beside it. `what`
    names the file in a message ("the rule case"), `fix` says where else to write. Raises LoadError."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    with writing(path, what, fix, keep_suffix=False) as tmp, open(tmp, "wb") as f:
        f.write(data)
    return Path(path)


@contextmanager
def writing(path: str | Path, what: str, fix: str = "choose another place", keep_suffix: bool = True) -> Iterator[Path]:
    """A temporary path beside `path` to write to; when the block ends normally it is flushed and
    renamed over `path`, otherwise (an error, a Ctrl+C) it is removed and `path` is left as it was.
    `keep_suffix`: the temporary name ends with the target's suffix (libraries pick the format by it)."""
    target = Path(path)
    _check_target(target, what, fix)
    suffix = TEMP_SUFFIX + (target.suffix if keep_suffix else "")
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
    except OSError as exc:
        raise _refusal(target, exc, what, fix) from None
    os.close(fd)
    tmp = Path(name)
    done = False
    try:
        yield tmp
        _flush(tmp)
        os.replace(tmp, target)
        done = True
    except OSError as exc:
        raise _refusal(target, exc, what, fix) from None
    finally:
        if not done:
            tmp.unlink(missing_ok=True)


def check_writable(path: str | Path, what: str, fix: str = "choose another place") -> None:
    """Refuse now (LoadError) a target that `write_file` would refuse for its place: a folder, a folder
    that cannot be made, a place not writable. Commands call it before long work (a search, a replay)."""
    target = Path(path)
    _check_target(target, what, fix)
    try:  # a temporary file made and removed: the target itself is not touched
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
    except OSError as exc:
        raise _refusal(target, exc, what, fix) from None
    os.close(fd)
    Path(name).unlink(missing_ok=True)


def _check_target(target: Path, what: str, fix: str) -> None:
    """Refuse a target that is a folder, and make its folder (a refusal names why it cannot)."""
    if target.is_dir():
        raise LoadError.one(str(target), "", f"cannot write {what} there: it is a folder",
                            f"name a file, e.g. {target / ('out' + (target.suffix or ''))}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _refusal(target, exc, what, fix) from None


def _flush(tmp: Path) -> None:
    """Make the temporary file's content durable before it replaces the target (a full disk is
    often noticed only here)."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _refusal(target: Path, exc: OSError, what: str, fix: str) -> LoadError:
    code = exc.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        why = "the disk is full (nothing was written; any older file is unchanged)"
        fix = "free some space, or " + fix
    elif code in (errno.EACCES, errno.EPERM, errno.EROFS):
        why = f"that place is not writable ({exc.strerror})"
    elif code == errno.EISDIR:
        why = "it is a folder"
    elif code in (errno.ENOTDIR, errno.EEXIST):
        why = "a part of its folder path is a file, not a folder"
    elif code == errno.ENAMETOOLONG:
        why = "the path is too long"
    else:
        why = exc.strerror or str(exc)
    return LoadError.one(str(target), "", f"cannot write {what}: {why}", fix)
