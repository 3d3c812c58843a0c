"""Safe writes: nobody's work is lost to a crash or a full disk."""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FileStamp:
    """A file as it was read: saving over it first checks that nobody changed it since."""

    mtime_ns: int
    size: int
    sha256: str

    @classmethod
    def of(cls, path: Path) -> FileStamp | None:
        """The file now (None when there is none, or it cannot be read)."""
        try:
            status = Path(path).stat()
            data = read_regular_bytes(path)
        except OSError:
            return None
        return cls(status.st_mtime_ns, status.st_size, hashlib.sha256(data).hexdigest())

    def still(self, path: Path) -> bool:
        """Whether ``path`` still holds what was read, by its content's hash: a touch is no
        change, and a change that keeps the size and the time (``cp -p``, ``rsync -t``, tar)
        is one. Only a different size is taken as a change without reading the file."""
        try:
            status = Path(path).stat()
        except OSError:
            return False
        if status.st_size != self.size:
            return False
        now = FileStamp.of(path)
        return now is not None and now.sha256 == self.sha256


class NotRegularFileError(OSError):
    """A folder, a named pipe or a device where a file was expected."""


def read_regular_bytes(path: Path) -> bytes:
    """The bytes of a regular file (links followed). A folder, pipe or device is refused
    with :class:`NotRegularFileError` (reading a named pipe would wait forever)."""
    path = Path(path)
    if not stat.S_ISREG(path.stat().st_mode):
        raise NotRegularFileError(errno.EINVAL, "not a regular file (a folder, pipe or device)", str(path))
    return path.read_bytes()


def why_unreadable(exc: OSError | UnicodeDecodeError) -> str:
    """Why a text file could not be read, in words a user can act on (never the codec's
    own message): a binary or wrongly encoded file, a missing one, or the system's reason."""
    if isinstance(exc, UnicodeDecodeError):
        return (f"it is not UTF-8 text (byte {exc.start + 1} is not valid UTF-8): a case is a YAML text file; "
                "if this is one, save it as UTF-8")
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return "it is a folder, not a file"
    return exc.strerror or str(exc)


def backup_path(path: Path) -> Path:
    """Where the previous version of ``path`` is kept (``case.yaml`` -> ``case.yaml.bak``)."""
    return path.with_name(path.name + ".bak")


def writable_destination(path: Path, option: str) -> None:
    """Refuse, before any work is done, a file to write that is a folder or sits where
    nothing can be written (so a scorecard or a report is never computed for nothing)."""
    from medbench_tui.core.errors import UsageError

    path = Path(path)
    if path.is_dir():
        raise UsageError(f"{option} {path}: that is a folder; give a file name inside it")
    if is_read_only(path):
        raise UsageError(f"{option} {path}: the file is read-only; give another file")
    folder = next((p for p in (path.parent, *path.parent.parents) if p.exists()), Path("."))
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {path}: cannot write in {folder}; give a file in a folder you can write to")


def write_atomic(path: Path, text: str, *, backup: bool = True) -> None:
    """Write ``text`` to ``path`` through a temp file, fsync and rename.

    With ``backup`` the previous version is copied to :func:`backup_path` first (through a
    temp file too: a full disk never leaves a truncated backup). A read-only file is
    refused with PermissionError (the rename would replace it regardless of its mode). If
    anything fails, the original file is left as it was and the error propagates.
    """
    path = Path(path)
    if is_read_only(path):
        raise PermissionError(errno.EACCES, "the file is read-only", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp creates the file private (0600): keep the mode the file had, or the usual one.
        os.chmod(tmp, path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~_umask())
        if backup and path.exists():
            _copy_atomic(path, backup_path(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def is_read_only(path: Path) -> bool:
    """An existing file nobody may write (no write bit), or that this user may not write."""
    try:
        mode = Path(path).stat().st_mode
    except OSError:
        return False
    return not mode & 0o222 or not os.access(path, os.W_OK)


def _copy_atomic(source: Path, target: Path) -> None:
    """Copy ``source`` over ``target`` so that ``target`` is whole, old or new, whatever fails."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        shutil.copyfile(source, tmp)
        shutil.copystat(source, tmp)
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@functools.cache
def _umask() -> int:
    """The process umask (reading it means setting it, so set it straight back, once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
