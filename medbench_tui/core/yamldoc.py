"""Reading YAML with a position for every key and value, for files people write by hand
(case files, vocabulary files): libyaml's C composer, YAML 1.2 values, and problems returned
as located diagnostics (a plain-words hint for each libyaml syntax error), never raised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

from medbench_tui.core.diagnostics import Diagnostic
from medbench_tui.core.jsondata import JSONObject, JSONValue

YamlPath = tuple[str | int, ...]
Position = tuple[int, int]

# Deeper nesting than this is never a case; it only risks exhausting the stack.
MAX_DEPTH = 64
# Values a case may hold once every alias is written out. The largest bundled case holds
# about 1,500; a 474-byte "billion laughs" file would hold billions (and take every
# reader that walks it, validation or a display, minutes and gigabytes).
MAX_EXPANDED_VALUES = 100_000

_LONG_NUMBER = re.compile(r"\d{4301,}")
_SCALAR_TAG = re.compile(r"!!(?:int|float|bool|null|str|timestamp|binary)\b")
CONSTRUCTOR_ERRORS = (ValueError, IndexError, KeyError, TypeError, OverflowError)
"""What a YAML library's constructor raises on a value its parser accepted (``!!int ""``,
``!!bool 5``, a number over Python's 4,300 digits): readers of files people write catch these."""


def unreadable_value(where: str, text: str, exc: Exception | None = None) -> str:
    """Why a YAML constructor failed, at the line of the first suspect: a number too long to
    read or a value its explicit tag cannot be."""
    for pattern, why in ((_LONG_NUMBER, "a number too long to read (over 4,300 digits): write it as text "
                                        "in quotes, or shorten it"),
                         (_SCALAR_TAG, "a value its tag {tag} cannot be: remove the tag")):
        found = pattern.search(text)
        if found:
            return f"{where}:{text.count(chr(10), 0, found.start()) + 1}: " + why.format(tag=found[0])
    why = f" ({exc})" if exc is not None else ""
    return (f"{where}: a value YAML cannot read{why}: put text in quotes (YAML reads 2001-02-30 as a date, "
            "1e999 as a number) and remove explicit tags (!!int, !!float)")


PLAIN_TAG = "medbench:plain"  # tag given to untagged plain scalars: resolved below
_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"

# YAML 1.2 plain-scalar rules, as ruamel.yaml (the writer) applies them, so both
# parsers agree on every value: `yes`/`no`/`on`/`off` stay text, `E11.1` is text,
# an unquoted `1.10` is the number 1.1.
NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_FLOAT = re.compile(
    r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
    |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN))$""",
    re.X,
)
_INT = re.compile(r"^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?[0-9_]+|[-+]?0x[0-9a-fA-F_]+)$")
_TIMESTAMP = re.compile(
    r"""^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
    |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
    (?:[Tt]|[ \t]+)[0-9][0-9]?
    :[0-9][0-9] :[0-9][0-9] (?:\.[0-9]*)?
    (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""",
    re.X,
)
_NUMBER_START = frozenset("-+0123456789.")
_INT_BASES = {"0b": 2, "0o": 8, "0x": 16}


class PlainLoader(yaml.CSafeLoader):
    """libyaml composer that leaves plain scalars unresolved (PyYAML resolves YAML 1.1)."""

    def resolve(self, kind: type[yaml.Node], value: str | None, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode:
            return PLAIN_TAG if implicit[0] else _STR
        return _SEQ if kind is yaml.SequenceNode else _MAP


def plain_value(text: str) -> JSONValue:
    """The value of an unquoted scalar under YAML 1.2 (ruamel.yaml's reading of it)."""
    if text in NULLS:
        return None
    first = text[0]
    if first in "tTfF" and text in _BOOLS:
        return _BOOLS[text]
    if first not in _NUMBER_START:
        return text
    try:
        if _FLOAT.match(text):
            number = text.replace("_", "").lower()
            return float(number.replace(".", "") if number.endswith(("inf", "nan")) else number)
        if first != "." and _INT.match(text):
            return _int(text.replace("_", ""))
        if _TIMESTAMP.match(text):
            return _TIMESTAMPS.construct_yaml_timestamp(yaml.ScalarNode(_STR, text))
    except (ValueError, AttributeError):
        pass  # "0x_", "2020-13-45": ruamel.yaml fails on these too; keep the text
    return text


def _int(digits: str) -> int:
    sign = -1 if digits.startswith("-") else 1
    body = digits.lstrip("+-")
    base = _INT_BASES.get(body[:2], 10)
    return sign * int(body[2:] if base != 10 else body, base)


_TIMESTAMPS = yaml.constructor.SafeConstructor()


def top_level_scalars(text: str, keys: frozenset[str]) -> JSONObject | None:
    """The scalar values of ``keys`` in a document's top-level mapping, read from the parser's
    events without building the document (a tenth of the time, and nothing kept): what an
    index of many files needs. A key written twice keeps its first value, as in a full
    parse; None when only a full parse can tell (an alias, a tag or a merge key at the top
    level, or a syntax error, which a full parse reports)."""
    found: JSONObject = {}
    depth = 0
    key: JSONValue = None  # the top-level key whose value comes next; None: a key comes next
    expecting_key = True
    try:
        for event in yaml.parse(text, Loader=PlainLoader):
            kind = event.__class__
            if kind in (yaml.MappingStartEvent, yaml.SequenceStartEvent):
                if depth == 0 and kind is yaml.SequenceStartEvent:
                    return {}  # a list, not a mapping of keys: nothing to find
                if depth == 1 and not expecting_key:
                    expecting_key = True  # a collection value: the next top-level event is a key
                elif depth == 1 and expecting_key:
                    return None  # a mapping or list as a key: a full parse reports it
                depth += 1
                continue
            if kind in (yaml.MappingEndEvent, yaml.SequenceEndEvent):
                depth -= 1
                continue
            if depth != 1:
                continue
            if kind is yaml.AliasEvent:
                if expecting_key:
                    return None
                expecting_key = True
                if key in keys and key not in found:
                    return None
                continue
            if kind is not yaml.ScalarEvent:
                continue
            if event.tag is not None:
                return None
            plain, _ = event.implicit
            value = plain_value(event.value) if plain else event.value
            if expecting_key:
                if value == "<<":
                    return None
                key, expecting_key = value, False
            else:
                if isinstance(key, str) and key in keys and key not in found:
                    found[key] = value
                expecting_key = True
    except (yaml.YAMLError, UnicodeError):
        return None
    return found


class PositionMap:
    """Where each key and value of a case sits in its file (1-based line and column).

    Holds the parser's nodes and reads their marks only when asked: most positions of
    a valid case are never looked at.
    """

    def __init__(self) -> None:
        self._values: dict[YamlPath, yaml.Node] = {}
        self._keys: dict[YamlPath, yaml.Node] = {}

    def locate(self, path: YamlPath) -> Position | None:
        """The value at ``path``; failing that its key, then the nearest ancestor."""
        path = tuple(path)
        while True:
            node = self._values.get(path) or self._keys.get(path)
            if node is not None:
                return _start(node)
            if not path:
                return None
            path = path[:-1]

    def locate_key(self, path: YamlPath) -> Position | None:
        """The key of ``path`` (where an unknown key is reported), else :meth:`locate`."""
        node = self._keys.get(tuple(path))
        return _start(node) if node is not None else self.locate(path)

    def empty_values(self) -> list[YamlPath]:
        """Paths whose value is written as nothing at all (``age:`` and no value), as opposed to
        an explicit ``null`` or ``""``: most often a value the author meant to fill in."""
        return [
            path for path, node in self._values.items()
            if path and node.__class__ is yaml.ScalarNode and node.tag == PLAIN_TAG and node.value == ""
        ]

    def literal_blocks(self) -> list[tuple[YamlPath, int, str]]:
        """Each ``|`` block text: its path, the file line of its first text line, and the text."""
        return [
            (path, node.start_mark.line + 2, node.value)
            for path, node in self._values.items()
            if node.__class__ is yaml.ScalarNode and node.style == "|"
        ]

    def span(self, path: YamlPath) -> tuple[Position, Position] | None:
        """Start and end of the value at exactly ``path`` (end column is exclusive)."""
        node = self._values.get(tuple(path))
        if node is None:
            return None
        return _start(node), (node.end_mark.line + 1, node.end_mark.column + 1)


def _start(node: yaml.Node) -> Position:
    return node.start_mark.line + 1, node.start_mark.column + 1


@dataclass
class ParsedYaml:
    text: str
    data: JSONValue
    positions: PositionMap
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when ``data`` is a mapping that validation can go on to check."""
        return isinstance(self.data, dict)


@dataclass(frozen=True)
class FileKind:
    """What a YAML file holds, in the words its messages use."""

    noun: str  # "case", "vocabulary"
    needs: str  # what an empty file lacks, e.g. "at least `id`, `title`, ..."
    example: str  # its first keys, e.g. "`id: ...`, `title: ...`"


def parse_yaml_text(text: str, kind: FileKind) -> ParsedYaml:
    """Parse a YAML file for validation; never raises: problems come back as diagnostics."""
    positions = PositionMap()
    try:
        root = yaml.compose(text, Loader=PlainLoader)
    except (yaml.YAMLError, UnicodeError) as exc:  # UnicodeError: lone surrogates
        return ParsedYaml(text, None, positions, [_syntax_diagnostic(exc, text)])
    if root is None:
        problem = Diagnostic(
            severity="error", code="yaml.empty", line=1, column=1,
            message=f"The file is empty: a {kind.noun} file needs {kind.needs}.",
        )
        return ParsedYaml(text, None, positions, [problem])
    builder = _Builder(positions)
    positions._values[()] = root
    data = builder.build(root, ())
    if builder.too_large:
        return ParsedYaml(text, None, positions, builder.diagnostics)
    if not isinstance(data, dict):
        holds = "a list" if isinstance(data, list) else "a single value"
        builder.report(
            root, "yaml.not_mapping", (),
            f"A {kind.noun} file must be a mapping of keys ({kind.example}), but this file "
            f"holds {holds}.",
        )
    return ParsedYaml(text, data, positions, builder.diagnostics)


class _Builder:
    """Turns libyaml nodes into Python values, recording positions in the same walk."""

    def __init__(self, positions: PositionMap) -> None:
        self.positions = positions
        self.diagnostics: list[Diagnostic] = []
        self._done: dict[int, JSONValue] = {}  # node id -> value: aliases share one value
        self._open: set[int] = set()  # nodes being built: an alias to one is a cycle
        self._sizes: dict[int, int] = {}  # node id -> values in it, aliases written out
        self.expanded = 0  # values in the document, aliases written out
        self.too_large = False

    def report(self, node: yaml.Node, code: str, path: YamlPath, message: str) -> None:
        self.diagnostics.append(
            Diagnostic(
                severity="error", code=code, message=message, path=_dotted(path),
                line=node.start_mark.line + 1, column=node.start_mark.column + 1,
            )
        )

    def build(self, node: yaml.Node, path: YamlPath) -> JSONValue:
        self.expanded += 1
        tag = node.tag
        if tag == PLAIN_TAG:  # most nodes: checked first, without the bookkeeping below
            return plain_value(node.value)
        if tag == _STR and node.__class__ is yaml.ScalarNode:
            return node.value
        if tag not in (_SEQ, _MAP):
            self.report(node, "yaml.tag", path,
                        f"The YAML tag `{tag}` is not part of the case format: remove it.")
        if node.__class__ is yaml.ScalarNode:
            return node.value
        key = id(node)
        if key in self._done:  # an alias: its values count again, as every reader sees them again
            self.expanded += self._sizes[key] - 1
            if self.expanded > MAX_EXPANDED_VALUES and not self.too_large:
                self.too_large = True
                self.report(node, "yaml.alias_expansion", path,
                            f"The aliases (`*name`) here repeat their anchors into more than "
                            f"{MAX_EXPANDED_VALUES:,} values; no case needs that: write the values out.")
            return None if self.too_large else self._done[key]
        if key in self._open:
            self.report(node, "yaml.recursive_alias", path,
                        "The anchor here (`&name`) is used as an alias (`*name`) inside itself; "
                        "a case cannot contain itself: write the values out.")
            return None
        if len(path) > MAX_DEPTH:
            self.report(node, "yaml.too_deep", path,
                        f"Nested more than {MAX_DEPTH} levels deep; no case field needs that.")
            return None
        self._open.add(key)
        before = self.expanded
        try:
            value = self._sequence(node, path) if node.__class__ is yaml.SequenceNode else self._mapping(node, path)
        finally:
            self._open.discard(key)
        self._done[key] = value
        self._sizes[key] = self.expanded - before + 1
        return value

    def _sequence(self, node: yaml.SequenceNode, path: YamlPath) -> list[object]:
        items = []
        values = self.positions._values
        for index, child in enumerate(node.value):
            child_path = path + (index,)
            values[child_path] = child
            items.append(self.build(child, child_path))
        return items

    def _mapping(self, node: yaml.MappingNode, path: YamlPath) -> dict[object, object]:
        result: dict[object, object] = {}
        first_line: dict[object, int] = {}
        merged: list[tuple[yaml.Node, JSONValue]] = []
        values, keys = self.positions._values, self.positions._keys
        for key_node, value_node in node.value:
            if key_node.__class__ is not yaml.ScalarNode:
                self.report(key_node, "yaml.complex_key", path,
                            "A key must be a plain word such as `title`, not a list or mapping.")
                continue
            if key_node.tag == PLAIN_TAG and key_node.value == "<<":
                merged.append((key_node, self.build(value_node, path + ("<<",))))
                continue
            key = self.build(key_node, path)
            if not isinstance(key, str):
                # `true:`, `~:`, `.nan:`, `1:` are a boolean, a null, a number: as Python keys they collide
                # (True == 1) or never match (nan), so every later message would name the wrong key or line.
                # Said here, at the key, and kept as written.
                key = key_node.value
                self.report(key_node, "yaml.key_not_text", path + (key,),
                            f"The key `{key}` must be text: put it in quotes." if key else
                            "A key is missing here (an empty key): write the key's name before the colon.")
            if key in first_line:
                self.report(
                    key_node, "yaml.duplicate_key", path + (key,),
                    f"`{key}` appears twice in this mapping (first on line {first_line[key]}): "
                    "keep one of them.",
                )
                continue
            first_line[key] = key_node.start_mark.line + 1
            child_path = path + (key,)
            values[child_path] = value_node
            keys[child_path] = key_node
            result[key] = self.build(value_node, child_path)
        for merge_key, value in merged:
            sources = value if isinstance(value, list) else [value]
            if not all(isinstance(source, dict) for source in sources):
                self.report(merge_key, "yaml.merge", path,
                            "`<<:` must be followed by an alias of a mapping, such as `<<: *defaults`.")
                continue
            for source in sources:
                for key, item in source.items():
                    if key not in result:
                        result[key] = item
                        values[path + (key,)] = merge_key
        return result


def _dotted(path: YamlPath) -> str:
    return ".".join(str(part) for part in path)


# libyaml's wording (one or more needles) -> what to change, in plain words; checked in
# order, first match wins.
_SYNTAX_HINTS = (
    (("exceeded maximum nesting depth",), "Lists or mappings are nested far too deeply."),
    (("'\\t'", "tab character"), "A tab character: YAML indentation must use spaces, not tabs."),
    (("found unknown escape character",),
     "An unknown backslash escape inside double quotes: use single quotes, or write `\\\\`."),
    (("found undefined alias",), "`*name` refers to an anchor `&name` that is not defined before it."),
    (("found duplicate anchor",), "The same anchor `&name` is defined twice: rename one of them."),
    (("expected a single document",),
     "The file holds more than one YAML document (a `---` line): a case file holds one case."),
    (("while scanning a quoted scalar",), "A quoted text is not closed: add the closing quote."),
    (("while parsing a flow",), "A `[...]` list or `{...}` mapping is not closed properly: "
     "check the commas and the closing bracket."),
    (("mapping values are not allowed",),
     "A `: ` where YAML does not expect one: put text that contains `: ` in quotes, "
     "or check the indentation of this line."),
    (("could not find expected ':'",),
     "A key without its `:` (or a line indented as if it continued the one above)."),
    (("did not find expected key",),
     "This line's indentation does not match the keys around it: line it up with its siblings."),
    (("did not find expected '-' indicator",),
     "List items must each start with `- ` at the same indentation."),
    (("that cannot start any token",),
     "A value cannot start with this character (`@`, a backtick, `%`): put the value in quotes."),
    (("unacceptable character",),
     "The file contains a control character that YAML does not allow: delete it."),
    (("did not find expected node content",),
     "A value is missing or starts with a character YAML reserves: put it in quotes."),
    (("found unexpected end of stream",), "The file ends in the middle of a value: close it."),
)


def _unclosed_bracket(text: str) -> yaml.Mark | None:
    """Where the innermost ``[`` or ``{`` still open at the end of ``text`` opens (None if none)."""
    opened: list[yaml.Mark] = []
    try:
        for token in yaml.scan(text, Loader=PlainLoader):
            if isinstance(token, (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken)):
                opened.append(token.start_mark)
            elif isinstance(token, (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)) and opened:
                opened.pop()
    except yaml.YAMLError:
        pass
    return opened[-1] if opened else None


def _syntax_diagnostic(exc: Exception, text: str) -> Diagnostic:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    context = getattr(exc, "context_mark", None)
    if "end of stream" in str(getattr(exc, "problem", "")) and context:
        mark = context  # an unclosed quote or bracket: point at where it opens
    if mark is not None and mark.index >= len(text.rstrip()):  # the parser ran off the end of the file
        mark = _unclosed_bracket(text) or mark
    if mark is not None:
        line, column = mark.line + 1, mark.column + 1
    elif isinstance(position := getattr(exc, "position", None), int):  # ReaderError: a character offset
        before = text[:position]
        line, column = before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1
    else:
        line, column = 1, 1
    problem = " ".join(
        str(part) for part in (getattr(exc, "context", None), getattr(exc, "problem", None)) if part
    ) or str(exc)
    index = getattr(mark, "index", -1)
    if 0 <= index < len(text) and text[index] == "\t":
        problem = "tab character"  # libyaml often just says "cannot start any token"
    plain = next(
        (hint for needles, hint in _SYNTAX_HINTS
         if any(needle in problem for needle in needles)),
        None,
    )
    message = plain or f"YAML cannot read this: {problem.strip()}."
    return Diagnostic(severity="error", code="yaml.syntax", message=message, line=line, column=column)
