"""`medbench serve`: refused when it cannot keep the class's work, clear about what it serves
and where; many sessions write one run store without losing or mixing runs; and, where a
browser is installed, two students play two cases at once in headless Chromium."""

from __future__ import annotations

import codecs
import json
import multiprocessing
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.practice.label import practice_number
from medbench_tui.core.runs.store import RunRecord, RunStore

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _bank(tmp_path: Path) -> Path:
    bank = tmp_path / "class"
    bank.mkdir()
    for name in ("im-cap-001.yaml", "em-pe-001.yaml", "medbench.yaml"):
        shutil.copy(REPO / "cases" / name, bank)
    return bank


def test_a_bank_whose_runs_cannot_be_stored_is_refused(tmp_path, capsys):
    bank = _bank(tmp_path)
    (bank / ".medbench").write_text("not a folder")
    assert main(["serve", "--bank", str(bank), "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert "cannot store runs in" in err and "serve a copy of the bank" in err


def test_the_store_checked_is_the_run_store_setting_the_sessions_write(tmp_path, monkeypatch, capsys):
    bank = _bank(tmp_path)
    (tmp_path / "a file").write_text("not a folder")
    monkeypatch.setenv("MEDBENCH_RUN_STORE", str(tmp_path / "a file" / "runs.sqlite"))
    assert main(["serve", "--bank", str(bank), "--port", "0"]) == 2  # the bank's own store would do: refused
    assert f"cannot store runs in {tmp_path / 'a file' / 'runs.sqlite'}" in capsys.readouterr().err
    (bank / ".medbench").write_text("not a folder")
    monkeypatch.setenv("MEDBENCH_RUN_STORE", str(tmp_path / "class runs" / "runs.sqlite"))
    assert main(["serve", "--bank", str(bank), "--port", "0"]) == 2  # past the store: the bank's own is not used
    assert "--port 0: give a port between 1 and 65535" in capsys.readouterr().err
    assert (tmp_path / "class runs" / "runs.sqlite").is_file()


def test_an_unknown_case_and_a_busy_port_are_said_plainly(tmp_path, capsys):
    bank = _bank(tmp_path)
    assert main(["serve", "--bank", str(bank), "--cases", "no-such-case"]) == 2
    assert "--cases no-such-case: no such case file" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--bank", str(bank), "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def _record_runs(store_path: str, player: str, count: int) -> None:
    with RunStore(Path(store_path)) as store:
        for i in range(count):
            group = store.create_group({"play": {"player": player}, "systems": [{"name": "human"}]}, i)
            store.record(RunRecord(
                group_id=group.id, case_id=f"case-{i % 3}", case_path="x.yaml", case_sha256="0" * 64,
                system="human", status="complete", system_config={"name": "human", "player": player},
                transcript={"case_id": f"case-{i % 3}", "final": {"text": player}}, metrics={"diagnosis_accuracy": 100},
            ))


def test_several_sessions_write_one_store_without_losing_or_mixing_runs(tmp_path):
    store = tmp_path / "runs.sqlite"
    RunStore(store).close()
    players = [f"student {n}" for n in range(6)]
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_record_runs, args=(str(store), p, 15)) for p in players]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    with RunStore(store) as opened:
        rows = opened._query("SELECT group_id, system_config, transcript FROM runs")
    assert len(rows) == 6 * 15
    for row in rows:
        player = json.loads(row["system_config"])["player"]
        assert json.loads(row["transcript"])["final"]["text"] == player, "a run holds its own player's work"
    assert len({row["group_id"] for row in rows}) == 6 * 15


def _players(bank: Path) -> set[str]:
    """The players with a complete run in the bank's store so far."""
    path = bank / ".medbench" / "runs.sqlite"
    if not path.is_file():
        return set()
    with RunStore(path) as store:
        rows = store._query("SELECT system_config FROM runs WHERE status = 'complete'")
    return {json.loads(r["system_config"]).get("player") for r in rows}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# What a terminal draws, less its escape sequences (colours, cursor moves, modes).
_ESCAPE = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[@-Z\\-_])")


class _Drawn:
    """Everything the server has sent one page's terminal, as text: a step waits until the app
    has drawn what it leads to, however long a busy machine takes (no fixed pauses)."""

    def __init__(self, page) -> None:
        self.page = page
        self._raw: list[str] = []
        self._decode = codecs.getincrementaldecoder("utf-8")("replace").decode
        page.on("websocket", lambda socket: socket.on("framereceived", self._received))

    def _received(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):  # the app's output; text frames are the server's pings
            self._raw.append(self._decode(payload))

    def mark(self) -> int:
        """Where the drawing is now: `until` looks only at what is drawn after it."""
        return len(self._raw)

    async def until(self, pattern: str, since: int, timeout: float = 120) -> None:
        wanted = re.compile(pattern, re.DOTALL)
        for _ in range(int(timeout * 10)):
            if wanted.search(_ESCAPE.sub("", "".join(self._raw[since:]))):
                return
            await self.page.wait_for_timeout(100)
        raise AssertionError(f"the page never showed {pattern!r}")


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (apt-get install chromium)")
def test_two_students_play_two_cases_at_once_in_a_browser(tmp_path):
    playwright = pytest.importorskip("playwright.async_api", reason="playwright is not installed")
    import asyncio

    bank = _bank(tmp_path)
    port = _free_port()
    shots = tmp_path / "screenshots"
    env = {**os.environ, "MEDBENCH_PLAYER_NAME": "the settings name"}
    server = subprocess.Popen([sys.executable, "-m", "medbench_tui", "serve", "--bank", str(bank), "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)

        async def student(browser, name: str, case: str) -> None:
            page = await browser.new_page(viewport={"width": 1400, "height": 900})
            # the page asks for a web font: nothing leaves this machine
            await page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
                f"http://127.0.0.1:{port}/") else route.abort())
            drawn = _Drawn(page)
            try:
                await page.goto(f"http://127.0.0.1:{port}/")
                await drawn.until("e.g. Sam Patel", 0)  # the session's app process has started: the name dialog
                await page.mouse.click(680, 440)  # the name box of the first dialog
                await page.keyboard.type(name, delay=20)
                since = drawn.mark()
                await page.keyboard.press("Enter")
                # the name dialog has closed (its callback says so): keys now reach Play's list
                await drawn.until(rf"stored as\s*{name}\.", since)
                await drawn.until(rf"Pick a case to see as its doctor.*Case {case} ·", 0)  # Play's list, loaded
                since = drawn.mark()
                await page.keyboard.type(case, delay=20)  # the filter of Play's list of cases: its practice number
                await drawn.until(rf"Case {case} ·", since)  # the list redrawn by the filter, not the typed echo
                since = drawn.mark()
                await page.keyboard.press("Enter")  # plays the case the filter leaves highlighted
                await drawn.until(r"─ Patient ─", since)  # the patient's opening words: a question can be asked
                for asked, question in enumerate(("When did it start?", "Do you smoke?"), start=1):
                    await page.keyboard.type(question, delay=15)
                    since = drawn.mark()
                    await page.keyboard.press("Enter")
                    await drawn.until(rf"\b{asked} asked, \d+ left", since)  # the patient has replied
                since = drawn.mark()
                await page.keyboard.press("Control+f")
                await drawn.until("Your final response is all that is scored", since)
                await page.keyboard.type("Community-acquired pneumonia", delay=15)
                since = drawn.mark()
                await page.keyboard.press("Enter")
                await drawn.until(r"Diagnoses \(1\)", since)
                await page.keyboard.press("Control+s")
                for _ in range(1200):  # until the run is stored
                    if name in _players(bank):
                        break
                    await page.wait_for_timeout(100)
            finally:
                shots.mkdir(exist_ok=True)
                await page.screenshot(path=str(shots / f"{name}.png"))

        async def both() -> None:
            async with playwright.async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=[
                    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run"])
                try:
                    await asyncio.gather(student(browser, "Alice", str(practice_number("im-cap-001"))),
                                         student(browser, "Bob", str(practice_number("em-pe-001"))))
                finally:
                    await browser.close()

        asyncio.run(both())
        with RunStore(bank / ".medbench" / "runs.sqlite") as store:
            rows = store._query("SELECT case_id, status, system_config FROM runs")
        played = {(json.loads(r["system_config"])["player"], r["case_id"], r["status"]) for r in rows}
        assert {p for p, _, _ in played} == {"Alice", "Bob"}, f"screenshots in {shots}"
        assert all(status == "complete" for _, _, status in played), f"screenshots in {shots}"
        assert len({case for _, case, _ in played}) == 2, "each student played a case of their own"
    finally:
        server.terminate()
        server.wait(10)
