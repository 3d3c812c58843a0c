"""A built object kept in a file, keyed by what it was built from.

The WHO tables and the search index take seconds to build (the WHO and ICD-10-CM
files are parsed and some 70,000 titles and entry terms indexed); a command-line call
that rebuilt them every time would take seconds too. So they are built once and pickled
to the user cache folder (paths.icd10_index_cache_file) with a key line in front. A file
whose key differs (other data, another version of the code) or that cannot be read is
ignored and rebuilt, silently; a folder that cannot be written is no error either.
The file is the user's own, written by this program: it is trusted like the code.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
from pathlib import Path


def read(path: Path, key: str) -> object | None:
    """What `write` stored under `key`, or None (no file, another key, or unreadable)."""
    collecting = gc.isenabled()
    gc.disable()  # the load makes some 200,000 objects and no cycles: collecting only slows it
    try:
        with path.open("rb") as stream:
            if stream.readline().rstrip(b"\n") != key.encode():
                return None
            value = pickle.load(stream)
        gc.freeze()  # kept for the whole process: later collections need not walk through them
        return value
    except Exception:  # any damage to the file means: build again
        return None
    finally:
        if collecting:
            gc.enable()


def write(path: Path, key: str, value: object) -> None:
    """Store `value` under `key` atomically (a reader never sees half a file)."""
    import tempfile  # only when writing

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(key.encode() + b"\n")
            pickle.dump(value, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except (OSError, pickle.PicklingError):
        with contextlib.suppress(OSError):
            os.unlink(temporary)
