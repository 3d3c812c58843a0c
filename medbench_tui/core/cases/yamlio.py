"""Reading and writing case files.

Two parsers, one job each. :func:`parse_case_text` (libyaml's C composer, YAML 1.2
values, a position for every key and value) feeds validation, which must be fast
enough to run on every keystroke and over whole banks. :class:`CaseDocument`
(ruamel.yaml round trip) is the only writer, so a physician's comments, key order,
quoting and block scalars survive a save. ruamel is imported only when writing.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

if TYPE_CHECKING:
    from ruamel.yaml import YAML
    from ruamel.yaml.nodes import ScalarNode

from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.files import read_regular_bytes, write_atomic
from medbench_tui.core.jsondata import JSONValue
from medbench_tui.core.yamldoc import NULLS, PLAIN_TAG, FileKind, ParsedYaml, PlainLoader, Position, parse_yaml_text

CASE_FILE = FileKind(
    noun="case",
    needs="at least `id`, `title`, `metadata`, `intro`, `additional_answers` and `diagnosis`",
    example="`id: ...`, `title: ...`",
)

ParsedCase = ParsedYaml


def parse_case_text(text: str) -> ParsedCase:
    """Parse a case for validation; never raises: problems come back as diagnostics."""
    return parse_yaml_text(text, CASE_FILE)


def alias_expansion(text: str) -> Position | None:
    """Where aliases in ``text`` start to repeat their anchors beyond the cap, if they do:
    other YAML readers (ruamel) expand nothing while loading, so check with this first."""
    found = next((d for d in parse_case_text(text).diagnostics if d.code == "yaml.alias_expansion"), None)
    return (found.line or 1, found.column or 1) if found is not None else None


# --- reading files -------------------------------------------------------------------


def read_case_text(path: Path) -> str:
    """The exact text of a case file (UTF-8; line endings untouched).

    Raises OSError or UnicodeDecodeError; callers turn those into diagnostics or errors.
    """
    return read_regular_bytes(Path(path)).decode("utf-8")


def save_case_text(path: Path, text: str) -> None:
    """Write an editor buffer as it is: atomically, keeping the previous version as a backup."""
    write_atomic(Path(path), text, backup=True)


# --- writing: the ruamel.yaml round trip ---------------------------------------------


@dataclass(frozen=True)
class _Style:
    """How a file is laid out, so a save reproduces it."""

    mapping: int = 2
    sequence: int = 4
    offset: int = 2
    explicit_start: bool = False
    nulls: tuple[str, ...] = ()  # how each null is written, in document order
    newline: str = "\n"
    final_newline: bool = True
    bom: bool = False


_DOCUMENT_START = re.compile(r"\A(?:[ \t]*(?:#[^\n]*)?\r?\n)*---(?:[ \t]|\r?$|\n)", re.M)


def _detect_style(text: str) -> _Style:
    mappings: Counter[int] = Counter()
    sequences: Counter[tuple[int, int]] = Counter()
    nulls: list[str] = []
    seen: set[int] = set()

    def walk(node: yaml.Node, key_column: int | None) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag == PLAIN_TAG and node.value in NULLS:
                nulls.append(node.value)
            return
        if isinstance(node, yaml.SequenceNode):
            if key_column is not None and not node.flow_style and node.value:
                dash = node.start_mark.column - key_column
                sequences[(node.value[0].start_mark.column - key_column, dash)] += 1
            for item in node.value:
                walk(item, None)
            return
        for key, value in node.value:
            walk(key, None)
            if isinstance(value, yaml.MappingNode) and not value.flow_style and value.value:
                mappings[value.value[0][0].start_mark.column - key.start_mark.column] += 1
            walk(value, key.start_mark.column)

    try:
        root = yaml.compose(text, Loader=PlainLoader)
    except (yaml.YAMLError, UnicodeError):
        root = None
    if root is not None:
        walk(root, None)
    mapping = mappings.most_common(1)[0][0] if mappings else 2
    sequence, offset = sequences.most_common(1)[0][0] if sequences else (mapping + 2, mapping)
    return _Style(
        mapping=max(mapping, 1),
        sequence=max(sequence, offset + 2),
        offset=max(offset, 0),
        explicit_start=bool(_DOCUMENT_START.match(text)),
        nulls=tuple(nulls),
        newline="\r\n" if "\r\n" in text else "\n",
        final_newline=text.endswith("\n") or not text,
        bom=text.startswith("\ufeff"),
    )


def _round_trip(style: _Style) -> YAML:
    """A ruamel.yaml instance set up to reproduce ``style``."""
    from ruamel.yaml import YAML
    from ruamel.yaml.representer import RoundTripRepresenter

    nulls = iter(style.nulls)
    usual = Counter(style.nulls).most_common(1)[0][0] if style.nulls else "null"

    class CaseRepresenter(RoundTripRepresenter):
        def represent_none(self, data: None) -> ScalarNode:
            # ruamel writes every null as an empty value; keep the file's own spelling, in
            # document order (a null added by an edit gets the file's usual spelling).
            return self.represent_scalar("tag:yaml.org,2002:null", next(nulls, usual))

    CaseRepresenter.add_representer(type(None), CaseRepresenter.represent_none)
    round_trip = YAML()
    round_trip.Representer = CaseRepresenter
    round_trip.preserve_quotes = True
    round_trip.width = 4096
    round_trip.indent(mapping=style.mapping, sequence=style.sequence, offset=style.offset)
    round_trip.explicit_start = style.explicit_start
    return round_trip


class CaseDocument:
    """A case file loaded for editing; the only way a program writes a case.

    ``data`` is ruamel's CommentedMap: change it like a dict, and comments, key order,
    quoting and block scalars are kept on :meth:`save`. A document saved unchanged is
    byte-identical to the file it came from.
    """

    def __init__(self, text: str, data: JSONValue, path: Path | None = None) -> None:
        self.data = data
        self.path = path
        self._text = text
        self._style = _detect_style(text)

    @classmethod
    def load(cls, path: Path) -> CaseDocument:
        path = Path(path)
        try:
            text = read_case_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise MedbenchError(f"{path}: cannot read the case file: {exc}") from exc
        return cls.from_text(text, path=path)

    @classmethod
    def from_text(cls, text: str, *, path: Path | None = None) -> CaseDocument:
        """Raises MedbenchError (with ``file:line:column``) when the text is not YAML."""
        body = text[1:] if text.startswith("\ufeff") else text
        try:
            data = _round_trip(_Style()).load(body)
        except Exception as exc:  # ruamel raises more than YAMLError on odd input
            mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
            where = f"{path or '<text>'}:{mark.line + 1}:{mark.column + 1}" if mark else str(path or "<text>")
            problem = getattr(exc, "problem", None) or str(exc)
            raise MedbenchError(
                f"{where}: cannot load the case for editing: {problem} "
                "(run `medbench validate` on it for a precise report)"
            ) from exc
        return cls(text, data, path)

    def _serialise(self, data: JSONValue, style: _Style) -> str:
        import io

        out = io.StringIO()
        _round_trip(style).dump(data, out)
        text = out.getvalue()
        if not style.final_newline:
            text = text.removesuffix("\n")
        if style.newline != "\n":
            text = text.replace("\n", style.newline)
        return ("\ufeff" if style.bom else "") + text

    def dump(self) -> str:
        text = self._serialise(self.data, self._style)
        if text == self._text:
            return text
        # ruamel normalises a few things it cannot keep (aligned values, spaces inside
        # flow lists, trailing blanks). If the document is unchanged, the file's own text
        # is the faithful dump.
        pristine = CaseDocument.from_text(self._text).data
        if self._serialise(pristine, self._style) == text:
            return self._text
        return text

    def save(self, path: Path | None = None) -> None:
        """Write atomically, keeping the previous version as ``<name>.bak``."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise MedbenchError("This case has no file yet: say where to save it.")
        text = self.dump()
        save_case_text(target, text)
        self.path, self._text, self._style = target, text, _detect_style(text)
