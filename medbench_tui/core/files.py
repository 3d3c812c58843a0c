"""Safe writes: nobody's work is lost to a crash or a full disk."""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from pathlib import Path


def backup_path(path: Path) -> Path:
    """Where the previous version of ``path`` is kept (``case.yaml`` -> ``case.yaml.bak``)."""
    return path.with_name(path.name + ".bak")


def write_atomic(path: Path, text: str, *, backup: bool = True) -> None:
    """Write ``text`` to ``path`` through a temp file, fsync and rename.

    With ``backup`` the previous version is copied to :func:`backup_path` first. If
    anything fails, the original file is left as it was and the error propagates.
    """
    path = Path(path)
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
            shutil.copy2(path, backup_path(path))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
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


@functools.cache
def _umask() -> int:
    """The process umask (reading it means setting it, so set it straight back, once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
