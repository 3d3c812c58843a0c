"""The HTML report: one self-contained file (no script, nothing fetched), tables and SVG
charts drawn from the report; and the page as headless Chromium draws it."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from medbench_tui.core.reports.render import render
from medbench_tui.core.reports.report import build_report, report_tables
from medbench_tui.core.reports.svg import LABEL_WIDTH, PLOT_WIDTH
from medbench_tui.core.runs.store import RunStore
from tests.test_report_honest import facts, make_group

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def page(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as store:
        outcomes = {}
        for i in range(12):
            for k in range(2):
                outcomes[(f"c{i}", "base", k)] = 100 if i % 3 else 0
                outcomes[(f"c{i}", "agent", k)] = 100 if i % 4 else 0
        case_facts = {f"c{i}": facts(urgency=("urgent", "routine", None)[i % 3]) for i in range(12)}
        make_group(store, outcomes, repeats=2, case_facts=case_facts)
        report = build_report(store, resamples=999, by="urgency")
        yield render(report, "html"), report


def _svgs(text: str) -> list[ET.Element]:
    return [ET.fromstring(svg) for svg in re.findall(r"<svg .*?</svg>", text, flags=re.S)]


def test_html_is_self_contained_with_tables_and_charts(page):
    text, report = page
    assert text.startswith("<!DOCTYPE html>") and "<table>" in text
    assert "<script" not in text and "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in text and "<link" not in text and "@import" not in text
    titles = [svg.find(f"{SVG}title").text for svg in _svgs(text)]
    assert titles[0] == "Key metrics per system (the 12 cases every system completed)"
    assert "Paired differences, agent − base" in titles
    assert any(t.endswith("by urgency") for t in titles)


def test_the_forest_plot_draws_each_difference_with_its_interval(page):
    text, report = page
    (forest,) = [s for s in _svgs(text) if s.find(f"{SVG}title").text.startswith("Paired differences")]
    comparison = report.comparisons[0]
    estimates = forest.findall(f".//{SVG}circle[@class='estimate']")
    intervals = forest.findall(f".//{SVG}line[@class='interval']")
    assert len(estimates) == len(comparison.differences)
    assert len(intervals) == sum(1 for d in comparison.differences.values() if d.low is not None)
    assert intervals, "at least one interval is drawn"
    for line in intervals:
        assert float(line.get("x1")) <= float(line.get("x2"))
    labels = " ".join(t.text or "" for t in forest.iter(f"{SVG}text"))
    assert "Diagnosis Accuracy (n=12)" in labels


def test_bars_per_metric_and_per_subgroup(page):
    text, report = page
    bars = _svgs(text)[0]
    drawn = bars.findall(f".//{SVG}rect[@class='bar']")
    (chart,) = report_tables(report)[0].figures
    assert len(drawn) == 2 * len(chart.groups) == 2 * 2  # two systems x the two metrics the runs have
    subgroup = next(s for s in _svgs(text) if s.find(f"{SVG}title").text == "Diagnosis Accuracy by urgency")
    labels = " ".join(t.text or "" for t in subgroup.iter(f"{SVG}text"))
    assert "urgent (n=4)" in labels and "routine (n=4)" in labels


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (apt-get install chromium)")
def test_headless_chromium_draws_the_page(page, tmp_path):
    text, _ = page
    html_file = tmp_path / "report.html"
    html_file.write_text(text, encoding="utf-8")
    shot = tmp_path / "report.png"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
         "--window-size=1200,1600", f"--screenshot={shot}", html_file.as_uri()],
        check=True, capture_output=True, timeout=120,
    )
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1200, 1600)
    # a blank page compresses to almost nothing; tables and charts do not
    assert len(data) > 30_000


def _drawn_bars(svg: ET.Element) -> dict[str, tuple[float, str]]:
    """Per bar, 'series: value as shown' -> (the mean its width draws, the value shown)."""
    out = {}
    for rect in svg.findall(f".//{SVG}rect[@class='bar']"):
        series, shown = rect.find(f"{SVG}title").text.split(": ", 1)
        out[f"{series}|{rect.get('y')}"] = (float(rect.get("width")) / PLOT_WIDTH * 100, shown)
        assert float(rect.get("x")) == LABEL_WIDTH
    return out


def test_each_chart_draws_the_values_of_the_table_above_it(tmp_path):
    """The systems completed different cases: the headline table and the table of each
    system over all of its complete cases differ, and so do their charts; every bar's
    length and label are the figure of its own table's cell."""
    with RunStore(tmp_path / "runs.sqlite") as store:
        outcomes = {}
        for i in range(12):
            outcomes[(f"c{i}", "base", 0)] = 100 if i % 2 else 0
            outcomes[(f"c{i}", "agent", 0)] = None if i >= 8 else (100 if i % 4 else 0)  # 4 incomplete
        make_group(store, outcomes)
        report = build_report(store, resamples=999)
    assert report.unequal_cases
    tables = report_tables(report)
    page = render(report, "html")
    sections = re.split(r"<h[12]>", page)
    checked = 0
    for table in tables:
        if table.key not in ("headline", "aggregate"):
            continue
        (section,) = [s for s in sections if s.startswith(html.escape(table.title))]
        (svg,) = _svgs(section)
        drawn = _drawn_bars(svg)
        rows = {row[0]: row for row in table.rows}
        for label, bars in table.figures[0].groups:
            for bar in bars:
                cell = rows[label][1 + report.systems.index(bar.series)]
                assert bar.shown == cell
                (mean, shown), = [v for k, v in drawn.items() if k.startswith(f"{bar.series}|") and v[1] == cell]
                assert shown == cell
                assert mean == pytest.approx(float(cell.split()[0]), abs=0.1)
                checked += 1
    assert checked >= 8
    headline, aggregate = (t for t in tables if t.key in ("headline", "aggregate"))
    assert headline.figures[0].groups != aggregate.figures[0].groups
    svgs = [svg for svg in re.findall(r"<svg .*?</svg>", page, flags=re.S) if "Key metrics" in svg]
    assert len(svgs) == 2 and svgs[0] != svgs[1]
