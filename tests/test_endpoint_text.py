"""What an endpoint sends is made safe at the client, and its timeout bounds the request.

- A lone surrogate (``"\\ud800"`` in the JSON, or bytes that are not UTF-8) in a reply, a
  stream or an error is replaced: one odd reply never costs its run, another run or the
  transcript file.
- Escape sequences in a reply are made visible before anyone keeps or shows it.
- ``timeout`` is a total deadline per request: a server sending a byte a second is given up
  on once it has passed, on every path (a batch's plain requests, the SDK's, streams).
"""

from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import subprocess
import threading
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.endpoints.client import ChatClient, EndpointError, endpoint_text
from medbench_tui.core.endpoints.plain_chat import PlainChat
from medbench_tui.core.transcript import load_transcript
from tests.support.cli_run import run_medbench

CASES = Path(__file__).resolve().parent.parent / "cases"
LONE = "I have had a cough \ud800 since Monday."
ESCAPES = "It hurts \x1b]52;c;cm0gLXJmIH4=\x07 here\x1b[2J."


def _bank(tmp_path: Path, simulator_url: str, *, stream: bool) -> Path:
    bank = tmp_path / "bank"
    (bank / "cases").mkdir(parents=True)
    for case in ("im-cap-001", "im-cap-002", "em-pe-001"):
        shutil.copy(CASES / f"{case}.yaml", bank / "cases")
    (bank / "medbench.yaml").write_text(
        f"simulators:\n  pt:\n    kind: llm\n    base_url: {simulator_url}\n    model: m\n"
        f"    stream: {'true' if stream else 'false'}\n")
    return bank


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "plain"])
def test_a_lone_surrogate_from_the_patient_costs_no_run(tmp_path, fake_openai, capsys, stream):
    fake_openai.responder = lambda body: LONE
    bank = _bank(tmp_path, fake_openai.base_url, stream=stream)
    code = main(["run", "--bank", str(bank), "--system", "checklist", "--simulator", "pt", "--format", "json"])
    captured = capsys.readouterr()
    assert "internal error" not in captured.err
    summary = json.loads(captured.out)
    assert summary["counts"]["planned"] == 3 and summary["counts"]["not_run"] == 0
    with sqlite3.connect(bank / ".medbench" / "runs.sqlite") as db:
        rows = db.execute("SELECT status, transcript FROM runs").fetchall()
    assert len(rows) == 3 and code in (0, 1)
    assert all("\ufffd" in transcript or "grounded" in transcript for _, transcript in rows)


def _medbench(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command as a user runs it: its output goes to real UTF-8 streams, which cannot
    take a lone surrogate (pytest's captured streams would); in this process, see
    tests/support/cli_run.py."""
    return run_medbench(*args, stdin=stdin)


def test_play_writes_the_transcript_after_a_lone_surrogate(tmp_path, fake_openai):
    fake_openai.responder = lambda body: LONE
    bank = _bank(tmp_path, fake_openai.base_url, stream=True)
    out = tmp_path / "run.yaml"
    done = _medbench("play", str(bank / "cases" / "im-cap-001.yaml"), "--bank", str(bank), "--simulator", "pt",
                     "--transcript", str(out), stdin="How long have you had it?\n/final\nPneumonia\n")
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr and "cannot write" not in done.stderr
    assert "Scorecard" in done.stdout and load_transcript(out).status == "complete"


def test_a_transcript_holding_a_lone_surrogate_is_scored(tmp_path):
    transcript = {"case_id": "im-cap-001", "system": "x", "status": "complete",
                  "turns": [{"role": "doctor", "text": "Cough?"}, {"role": "patient", "text": "Yes \ud800"}],
                  "final": {"text": "Diagnosis: pneumonia \udfff (J18.9)"}}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(transcript))  # json writes the surrogates as \ud800 escapes
    for output in ("json", "text"):
        done = _medbench("score", str(CASES / "im-cap-001.yaml"), str(path), "--format", output)
        assert done.returncode == 0 and "internal error" not in done.stderr, done.stderr
    assert json.loads(_medbench("score", str(CASES / "im-cap-001.yaml"), str(path), "--format", "json").stdout
                      )["case_id"] == "im-cap-001"


async def test_replies_are_made_valid_and_visible_at_the_client(fake_openai):
    fake_openai.add_reply(LONE, ESCAPES)
    client = ChatClient(base_url=fake_openai.base_url)
    first = await client.complete([{"role": "user", "content": "hi"}], model="m")
    second = await client.complete([{"role": "user", "content": "hi"}], model="m")
    assert first.text == LONE.replace("\ud800", "\ufffd")
    assert "\x1b" not in second.text and "\x07" not in second.text and "\\x1b]52;c;" in second.text
    fake_openai.add_reply(ESCAPES)
    streamed = "".join([delta async for delta in client.stream([{"role": "user", "content": "hi"}], model="m")])
    assert "\x1b" not in streamed and streamed == second.text
    assert endpoint_text("line one\r\nline two\rthree") == "line one\nline two\nthree"


# --- a server that trickles ------------------------------------------------------------------------


class TricklingServer:
    """Answers every request with headers at once, then its body a byte a second (a minute's worth)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        body = b'{"choices": [{"message": {"content": "' + b"x" * 60 + b'"}, "finish_reason": "stop"}]}'
        try:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
            for byte in body:
                if self.stop.wait(1.0):
                    break
                conn.sendall(bytes([byte]))
        except OSError:
            pass
        finally:
            conn.close()

    def close(self) -> None:
        self.stop.set()
        self.sock.close()


@pytest.fixture
def trickling():
    server = TricklingServer()
    yield server
    server.close()


async def test_the_timeout_is_a_total_deadline_on_the_sdk_path(trickling):
    client = ChatClient(base_url=trickling.base_url, timeout=1.0)
    with pytest.raises(EndpointError, match="did not answer in time") as caught:
        await client.complete([{"role": "user", "content": "hi"}], model="m")
    assert caught.value.retryable


async def test_the_timeout_is_a_total_deadline_on_a_batch_plain_request(trickling):
    from medbench_tui.core.endpoints.client import _tls_context

    chat = PlainChat(base_url=trickling.base_url, api_key="unused", api_key_env=None, headers={}, timeout=1.0,
                     tls=_tls_context())
    try:
        with pytest.raises(EndpointError, match="did not answer in time"):
            await chat.post({"model": "m", "messages": []})
    finally:
        await chat.close()


async def test_a_trickling_stream_is_given_up_at_the_deadline(trickling):
    client = ChatClient(base_url=trickling.base_url, timeout=1.0)
    with pytest.raises(EndpointError, match="did not answer in time"):
        async for _ in client.stream([{"role": "user", "content": "hi"}], model="m"):
            pass
