"""Checking case files and folders from disk; loading a case that must be valid."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from medbench_tui.core.cases.bank import BankEntry, BankIndex, file_key, iter_case_files, scan_bank
from medbench_tui.core.cases.model import Case
from medbench_tui.core.cases.rubric import RubricCase
from medbench_tui.core.cases.yamlio import ParsedCase, parse_case_text, read_case_text
from medbench_tui.core.diagnostics import Diagnostic
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.files import why_unreadable
from medbench_tui.core.validate.one_case import validate_parsed, validate_text
from medbench_tui.core.validate.report import CaseReport, format_diagnostic


def validate_file(path: Path, *, bank: BankIndex | None = None) -> CaseReport:
    """Check one case file; without ``bank`` the cases of its folder are the bank."""
    path = Path(path)
    parsed, problem = _read(path)
    if problem is not None:
        return CaseReport(path, None, None, [problem])
    assert parsed is not None  # _read gives the case or the problem
    return validate_parsed(parsed, path, bank if bank is not None else scan_bank(path.parent))


def validate_paths(paths_: list[Path]) -> list[CaseReport]:
    """Check files and folders (a folder: its case files); each case against its folder's bank."""
    return list(iter_reports(paths_))


def iter_reports(paths_: list[Path]) -> Iterator[CaseReport]:
    """:func:`validate_paths` one report at a time: each file is parsed when its turn comes and
    nothing of it is kept here, so a caller that keeps only the findings checks a bank of any
    size in the memory of one case (the bank index holds ids, parents and intros)."""
    files: dict[Path, Path] = {}  # file key -> the path as the user named it
    for given in paths_:
        for file in iter_case_files(Path(given)):
            files.setdefault(file_key(file), file)
    checked = Counter(key.parent for key in files)
    banks: dict[Path, BankIndex] = {}
    for key, file in files.items():
        case, problem = _read(file)
        if problem is not None:
            yield CaseReport(file, None, None, [problem])
            continue
        assert case is not None  # _read gives the case or the problem
        if key.parent not in banks:
            bank = banks[key.parent] = BankIndex(file.parent, [BankEntry.read(m) for m in iter_case_files(file.parent)])
            if 2 * checked[key.parent] > len(bank.entries):  # most of the bank: score each pair once
                bank.index_near_duplicates()
        yield validate_parsed(case, file, banks[key.parent])


def _read(path: Path) -> tuple[ParsedCase | None, Diagnostic | None]:
    try:
        return parse_case_text(read_case_text(path)), None
    except UnicodeDecodeError as exc:
        before = exc.object[: exc.start]
        return None, Diagnostic(
            severity="error", code="file.encoding",
            message="The file is not UTF-8 text: save it as UTF-8 (the byte at this position "
            "is not valid UTF-8).",
            line=before.count(b"\n") + 1, column=exc.start - (before.rfind(b"\n") + 1) + 1,
        )
    except OSError as exc:
        reason = "no such file" if isinstance(exc, FileNotFoundError) else (exc.strerror or str(exc))
        return None, Diagnostic(severity="error", code="file.unreadable",
                                message=f"Cannot read the case file: {reason}.")


def load_valid_case(path: Path, *, bank: BankIndex | None = None) -> Case:
    """The consultation case in ``path``, or MedbenchError listing every error as
    ``file:line:col: message`` (or saying that the file is a rubric case, which has no patient).

    Checks that span the bank (parents, duplicate ids) run only when ``bank`` is given.
    """
    report = _valid_report(Path(path), bank)
    if report.case is None:
        raise MedbenchError(f"{path} is a rubric case (kind: rubric): it is one question with no patient to "
                            "consult; `medbench run` answers and grades it")
    return report.case


def load_valid_rubric(path: Path, *, bank: BankIndex | None = None) -> RubricCase:
    """The rubric case in ``path``, or MedbenchError listing every error (or saying that it is a
    consultation case)."""
    report = _valid_report(Path(path), bank)
    if report.rubric is None:
        raise MedbenchError(f"{path} is a consultation case, not a rubric case (kind: rubric)")
    return report.rubric


def _valid_report(path: Path, bank: BankIndex | None) -> CaseReport:
    try:
        text = read_case_text(path)
    except FileNotFoundError as exc:
        raise MedbenchError(f"{path}: no such case file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise MedbenchError(f"{path}: cannot read the case file: {why_unreadable(exc)}") from exc
    report = validate_text(text, path, bank=bank)
    if report.errors or (report.case is None and report.rubric is None):
        lines = "\n".join(format_diagnostic(d, path, brief=True) for d in report.errors)
        raise MedbenchError(
            f"{path} is not a valid case ({len(report.errors)} error(s)); fix these first:\n{lines}"
        )
    return report

