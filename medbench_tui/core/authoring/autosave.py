"""The editor's autosave: one swap file per editor and case, naming the process that owns it.

Two editors (two terminals, or a TUI in a browser tab and one in a terminal) may open the
same case. Each writes its own swap file beside the case (``.<case>.yaml.<editor>.swp``),
so one saving or closing never removes the other's unsaved text. A swap file is written
when the case is opened (with no text: the case is open here, nothing unsaved) and holds
the unsaved text once there is some; it goes when the editor closes the case.

Opening a case reads the swap files of the others (:func:`others_of`): one whose process
still runs means the case is open elsewhere (the editor says so); one whose process is gone
holds work a crash left behind, offered back with who wrote it and when. A swap file of an
older version (plain text at ``.<case>.yaml.swp``) is read as left behind by a process
nobody knows.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import time
from dataclasses import dataclass
from pathlib import Path

from medbench_tui.core.files import write_atomic
from medbench_tui.core.paths import swap_file_for

FORMAT = "medbench-autosave"
MAX_SWAP_BYTES = 20_000_000
"""A swap file larger than this is not read (no case is that long; it is not ours)."""


@dataclass(frozen=True)
class Editor:
    """One editor: the process it runs in and a name of its own (a process may run two)."""

    host: str
    pid: int
    instance: str
    started: float

    @classmethod
    def here(cls) -> Editor:
        """A new editor of this process."""
        return cls(socket.gethostname(), os.getpid(), f"{os.getpid()}-{secrets.token_hex(3)}", time.time())

    def running(self) -> bool | None:
        """Whether its process still runs: None when it is on another machine (nobody can tell)."""
        if self.pid <= 0:  # written by an earlier version, whose process nobody knows
            return False
        if self.host != socket.gethostname():
            return None
        if self.pid == os.getpid():
            return True
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except (PermissionError, OverflowError, ValueError):  # another user's process, or not a pid
            return self.pid > 0
        return True

    def describe(self) -> str:
        """``medbench (process 4242 on ward-pc, opened 14:03)``."""
        if self.pid <= 0:
            return "an earlier medbench"
        opened = time.strftime("%H:%M", time.localtime(self.started)) if self.started else "?"
        return f"medbench (process {self.pid} on {self.host or 'an unknown machine'}, opened {opened})"


@dataclass(frozen=True)
class Autosave:
    """One editor's swap file of a case."""

    path: Path
    editor: Editor
    text: str | None
    """The unsaved text (None: the case is open there with nothing unsaved)."""
    written: float

    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.written))


def swap_path(case_file: Path, editor: Editor) -> Path:
    return swap_file_for(case_file, editor.instance)


def write(case_file: Path, editor: Editor, text: str | None) -> None:
    """Write ``editor``'s swap file of ``case_file`` (OSError when it cannot be written)."""
    document = {"format": FORMAT, "case": Path(case_file).name, "host": editor.host, "pid": editor.pid,
                "instance": editor.instance, "started": editor.started, "text": text}
    write_atomic(swap_path(case_file, editor), json.dumps(document, ensure_ascii=False), backup=False)


def remove(case_file: Path, editor: Editor) -> None:
    """Remove ``editor``'s swap file (OSError when it cannot be removed)."""
    swap_path(case_file, editor).unlink(missing_ok=True)


def others_of(case_file: Path, editor: Editor | None = None) -> list[Autosave]:
    """The swap files of ``case_file`` but ``editor``'s own, newest first (unreadable ones left out)."""
    case_file = Path(case_file)
    own = swap_path(case_file, editor) if editor is not None else None
    older = swap_file_for(case_file)
    found = []
    for path in [older, *case_file.parent.glob(f".{_glob_escape(case_file.name)}.*.swp")]:
        if path == own:
            continue
        swap = _read(path, case_file.name, older=path == older)
        if swap is not None:
            found.append(swap)
    return sorted(found, key=lambda s: s.written, reverse=True)


def _glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def _read(path: Path, case_name: str, *, older: bool) -> Autosave | None:
    try:
        status = path.stat()
        if not path.is_file() or status.st_size > MAX_SWAP_BYTES:
            return None
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    nobody = Editor("", 0, "", 0.0)
    if older:  # plain text, written by an earlier version
        return Autosave(path, nobody, raw, status.st_mtime)
    with contextlib.suppress(ValueError):
        data = json.loads(raw)
        if isinstance(data, dict) and data.get("format") == FORMAT and data.get("case") == case_name:
            text = data.get("text")
            editor = Editor(str(data.get("host") or ""), _int(data.get("pid")), str(data.get("instance") or ""),
                            _float(data.get("started")))
            return Autosave(path, editor, text if isinstance(text, str) else None, status.st_mtime)
    return None


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**31 else 0


def _float(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0
