"""Rubric benchmarks published as JSON lines or JSON, turned into rubric case files of a bank.

Two formats are read:

* **HealthBench** (JSON lines): ``prompt`` (chat messages), ``rubrics`` (``{criterion, points,
  tags}``), ``example_tags``, ``prompt_id``. Every criterion becomes ``grader: judge``; the theme
  comes from the ``theme:`` example tag (:data:`HEALTHBENCH_THEMES`).
* **The physician rubric benchmark** (JSON, a list or ``{"cases": [...]}``, or JSON lines):
  ``case_id``, ``benchmark`` (its theme), ``grading_method`` (a points rubric, or a weighted
  action panel scored by weighted F1), ``prompt``, ``rubric_items`` (``{item_id, text, points}``),
  ``split``. A rubric's items become ``grader: judge`` criteria; a panel's items its actions,
  their points the severity.

Each record becomes ``<id>.yaml`` only if the file it makes validates; a record that cannot be
imported is named by its line with the reason, and a case file already in the bank is never
overwritten.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from medbench_tui.core.cases.model import MAX_POINTS
from medbench_tui.core.cases.rubric import MAX_SEVERITY, RUBRIC, THEMES
from medbench_tui.core.cases.templates import schema_reference
from medbench_tui.core.files import write_atomic
from medbench_tui.core.jsondata import JSONObject, JSONValue

HEALTHBENCH_THEMES = {
    "emergency_referrals": "triage",
    "context_seeking": "communication",
    "hedging": "diagnostic_safety",
    "communication": "communication",
    "global_health": "health_equity",
    "health_data_tasks": "calculations",
    "complex_responses": "communication",
}
"""HealthBench's themes (``theme:...`` example tags) in the themes of the case format."""
FALLBACK_THEME = "communication"
"""The theme of a HealthBench example without a theme tag this table knows (the summary says how many)."""
PANEL_WORDS = ("panel", "f1", "action")
RUBRIC_WORDS = ("rubric", "points")
TITLE_LENGTH = 70


class RecordProblem(Exception):
    """Why one record cannot be imported, in words."""


@dataclass(frozen=True)
class Record:
    """One record of the file and the line it starts on."""

    line: int
    data: JSONValue


@dataclass
class ImportSummary:
    """What an import wrote and what it could not."""

    source: Path
    folder: Path
    written: list[Path] = field(default_factory=list)
    themes: Counter[str] = field(default_factory=Counter)
    guessed_themes: int = 0
    problems: list[tuple[int, str]] = field(default_factory=list)
    """(line, why) of each record not imported."""

    def lines(self) -> list[str]:
        themes = ", ".join(f"{theme} {count}" for theme, count in sorted(self.themes.items()))
        out = [f"imported {len(self.written)} rubric case(s) from {self.source} into {self.folder}"
               + (f" ({themes})" if themes else "")]
        if self.guessed_themes:
            out.append(f"{self.guessed_themes} case(s) had no theme this importer knows: they are filed under "
                       f"{FALLBACK_THEME} (change metadata.theme where another fits)")
        if self.problems:
            out.append(f"not imported: {len(self.problems)} record(s)")
            out += [f"{self.source}:{line}: {why}" for line, why in self.problems]
        return out

    def to_json(self) -> JSONObject:
        return {"source": str(self.source), "folder": str(self.folder), "imported": [p.name for p in self.written],
                "themes": dict(self.themes), "guessed_themes": self.guessed_themes,
                "not_imported": [{"line": line, "reason": why} for line, why in self.problems]}


def read_records(path: Path) -> Iterator[Record]:
    """The records of a JSON lines file, or of a JSON list (or ``{"cases": [...]}``), each with its
    line; a line that is not JSON is a record whose data is the :class:`RecordProblem`."""
    text = path.read_text(encoding="utf-8")
    stripped = text.lstrip()
    if stripped.startswith("[") or (stripped.startswith("{") and _one_document(stripped)):
        yield from _json_records(text)
        return
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield Record(number, json.loads(line))
        except json.JSONDecodeError as exc:
            yield Record(number, RecordProblem(f"not JSON ({exc.msg} at column {exc.colno})"))


def _one_document(text: str) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    return True


def _json_records(text: str) -> Iterator[Record]:
    decoder = json.JSONDecoder()
    try:
        whole, _ = decoder.raw_decode(text.lstrip())
    except json.JSONDecodeError as exc:
        yield Record(exc.lineno, RecordProblem(f"not JSON ({exc.msg} at column {exc.colno})"))
        return
    if isinstance(whole, dict) and isinstance(whole.get("cases"), list):
        at = text.index("[", text.index('"cases"'))
    elif isinstance(whole, list):
        at = text.index("[")
    else:  # one record (a JSON lines file of one line)
        yield Record(1, whole)
        return
    at += 1
    while True:
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
        if at >= len(text) or text[at] == "]":
            return
        item, end = decoder.raw_decode(text, at)
        yield Record(text.count("\n", 0, at) + 1, item)
        at = end


def case_id_from(raw: JSONValue, prefix: str) -> str:
    """A case id (lowercase letters, digits, single hyphens) from a record's own id."""
    words = "".join(c if c.isascii() and c.isalnum() else " " for c in str(raw).casefold()).split()
    return "-".join([prefix, *words]) if words else prefix


def _title(text: str) -> str:
    first = " ".join(text.split())
    return first if len(first) <= TITLE_LENGTH else first[: TITLE_LENGTH - 1].rstrip() + "…"


def _points(value: JSONValue, what: str, limit: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise RecordProblem(f"{what} is {json.dumps(value)}: a whole number is needed")
    if value == 0 or abs(value) > limit:
        raise RecordProblem(f"{what} is {int(value)}: it must be -{limit}..{limit} and not 0")
    return int(value)


def _text(record: JSONObject, key: str, what: str) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RecordProblem(f"`{key}` ({what}) is missing or empty")
    return value


def _messages(prompt: JSONValue) -> JSONObject:
    """``prompt:`` for one user message, else ``messages:``."""
    if isinstance(prompt, str) and prompt.strip():
        return {"prompt": prompt}
    if not isinstance(prompt, list) or not prompt:
        raise RecordProblem("`prompt` is neither text nor a list of chat messages")
    chat = []
    for n, message in enumerate(prompt, 1):
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            role = message.get("role") if isinstance(message, dict) else None
            raise RecordProblem(f"message {n} of `prompt` has the role {json.dumps(role)}: rubric cases take "
                                "user and assistant messages only")
        content = message.get("content")
        if not isinstance(content, str) or not content.strip():
            raise RecordProblem(f"message {n} of `prompt` has no text content")
        chat.append({"role": message["role"], "content": content})
    if chat[-1]["role"] != "user":
        raise RecordProblem("the chat of `prompt` ends with the assistant's message: the last must be the user's")
    return {"prompt": chat[0]["content"]} if len(chat) == 1 else {"messages": chat}


def _question_text(fields: JSONObject) -> str:
    return str(fields.get("prompt") or fields["messages"][-1]["content"])


def healthbench_case(record: JSONValue) -> tuple[JSONObject, bool]:
    """A HealthBench example as rubric case data, and whether its theme had to be guessed."""
    if not isinstance(record, dict):
        raise RecordProblem("the record is not a JSON object")
    prompt_id = _text(record, "prompt_id", "the example's id")
    question = _messages(record.get("prompt"))
    rubrics = record.get("rubrics")
    if not isinstance(rubrics, list) or not rubrics:
        raise RecordProblem("`rubrics` is missing or empty")
    criteria = []
    for n, rubric in enumerate(rubrics, 1):
        if not isinstance(rubric, dict):
            raise RecordProblem(f"rubric {n} is not an object")
        tags = rubric.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise RecordProblem(f"the tags of rubric {n} are not a list of text")
        criteria.append({"id": f"c-{n}", "text": _text(rubric, "criterion", f"the text of rubric {n}"),
                         "points": _points(rubric.get("points"), f"the points of rubric {n}", MAX_POINTS),
                         "tags": tags, "grader": "judge"})
    example_tags = record.get("example_tags", [])
    example_tags = [t for t in example_tags if isinstance(t, str)] if isinstance(example_tags, list) else []
    known = [HEALTHBENCH_THEMES[t.removeprefix("theme:")] for t in example_tags
             if t.startswith("theme:") and t.removeprefix("theme:") in HEALTHBENCH_THEMES]
    data = {
        "schema_version": 1, "kind": RUBRIC, "id": case_id_from(prompt_id, "hb"),
        "title": _title(_question_text(question)), "status": "draft",
        "metadata": {"theme": known[0] if known else FALLBACK_THEME, "language": "en"},
        **question, "criteria": criteria,
        "notes": f"Imported from HealthBench, prompt_id {prompt_id}.",
        "extensions": {"healthbench": {"prompt_id": prompt_id, "example_tags": example_tags}},
    }
    return data, not known


def _theme(benchmark: str) -> str:
    words = case_id_from(benchmark, "").split("-")[1:]
    joined = "_".join(words)
    for theme in THEMES:
        if joined == theme or joined.rstrip("s") == theme or set(theme.split("_")) <= set(words):
            return theme
    for theme in THEMES:
        if any(w.rstrip("s") == theme.split("_")[0] for w in words):
            return theme
    raise RecordProblem(f"`benchmark` is {json.dumps(benchmark)}, which names none of the themes "
                        f"({', '.join(THEMES)})")


def physician_case(record: JSONValue) -> tuple[JSONObject, bool]:
    """A record of the physician rubric benchmark as rubric case data (its theme is never guessed)."""
    if not isinstance(record, dict):
        raise RecordProblem("the record is not a JSON object")
    raw_id = record.get("case_id")
    if not isinstance(raw_id, (str, int)) or isinstance(raw_id, bool) or not str(raw_id).strip():
        raise RecordProblem("`case_id` is missing")
    theme = _theme(_text(record, "benchmark", "the theme"))
    method = _text(record, "grading_method", "points rubric or weighted action panel").casefold()
    question = _messages(record.get("prompt"))
    items = record.get("rubric_items")
    if not isinstance(items, list) or not items:
        raise RecordProblem("`rubric_items` is missing or empty")
    panel = any(w in method for w in PANEL_WORDS)
    if not panel and not any(w in method for w in RUBRIC_WORDS):
        raise RecordProblem(f"`grading_method` is {json.dumps(record['grading_method'])}: a points rubric or a "
                            "weighted action panel (weighted F1) is needed")
    graded: list[JSONObject] = []
    for n, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise RecordProblem(f"rubric item {n} is not an object")
        text = _text(item, "text", f"the text of rubric item {n}")
        if panel:
            graded.append({"action": text, "severity": _points(item.get("points"), f"the points of rubric item {n}",
                                                               MAX_SEVERITY)})
        else:
            item_id = case_id_from(item.get("item_id", n), "c")
            graded.append({"id": item_id, "text": text,
                           "points": _points(item.get("points"), f"the points of rubric item {n}", MAX_POINTS),
                           "grader": "judge"})
    source = {"case_id": raw_id, "benchmark": record["benchmark"], "grading_method": record["grading_method"]}
    if isinstance(record.get("split"), str):
        source["split"] = record["split"]
    data = {
        "schema_version": 1, "kind": RUBRIC, "id": case_id_from(raw_id, "rb"),
        "title": _title(_question_text(question)), "status": "draft",
        "metadata": {"theme": theme, "language": "en"}, **question,
        ("panel" if panel else "criteria"): graded,
        "notes": f"Imported from the physician rubric benchmark, case_id {raw_id}.",
        "extensions": {"physician_rubric": source},
    }
    return data, False


CaseMaker = Callable[[JSONValue], tuple[JSONObject, bool]]
FORMATS: dict[str, CaseMaker] = {"healthbench": healthbench_case, "rubric": physician_case}


def import_rubric_file(source: Path, folder: Path, maker: CaseMaker) -> ImportSummary:
    """Write a case file per importable record of ``source`` into ``folder`` (created if need be)."""
    from medbench_tui.core.validate import validate_text

    summary = ImportSummary(source, folder)
    folder.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    modeline = f"# yaml-language-server: $schema={schema_reference(folder)}\n"
    for record in read_records(source):
        try:
            if isinstance(record.data, RecordProblem):
                raise record.data
            data, guessed = maker(record.data)
            base = data["id"]
            data["id"] = next(name for n in range(len(taken) + 1)
                              if (name := f"{base}-{n + 1}" if n else base) not in taken)
            target = folder / f"{data['id']}.yaml"
            if target.exists():
                raise RecordProblem(f"{target.name} is already in the bank: left as it is (delete it to import again)")
            text = modeline + _dump(data)
            report = validate_text(text, target)
            if report.errors:
                first = report.errors[0]
                raise RecordProblem(f"the case it makes does not validate: {first.message}")
        except RecordProblem as problem:
            summary.problems.append((record.line, str(problem)))
            continue
        write_atomic(target, text)
        taken.add(data["id"])
        summary.written.append(target)
        summary.themes[data["metadata"]["theme"]] += 1
        summary.guessed_themes += guessed
    return summary


class _Dumper(yaml.SafeDumper):
    """Block text (``|``) for text over several lines, as a physician writes a case."""


def _text_style(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if "\n" in value.strip("\n") and all(line == line.rstrip() for line in value.split("\n")):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _text_style)


def _dump(data: JSONObject) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)
