"""Credentials, round two: one definition of a secret for redaction and the configuration's
dump (every header but known non-secrets), short keys redacted as whole tokens, no credential
in ``base_url`` or a header broken over lines, and a bank's configuration that cannot send a
key from the environment to a host nobody allowed (nor to metadata or link-local addresses,
nor over plain http to another machine).

No test touches the network: endpoints are servers on 127.0.0.1, and a remote host is only
ever written in a configuration that must be refused before anything is sent.
"""

from __future__ import annotations

import io
import socket
import sqlite3
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core import redact as redaction
from medbench_tui.core.cases.bankconfig import BankConfigError, EndpointConfig, parse_bank_config
from medbench_tui.core.endpoints import trust
from medbench_tui.core.endpoints.client import ChatClient, EndpointError
from medbench_tui.core.settings import load_settings
from tests.test_consultation import write_bank

SUBSCRIPTION = "apim-9c8b7a6d5e4f3a2b"
COOKIE_SESSION = "ck-77aa88bb99cc"
SHORT_KEY = "k3y9z"


@pytest.fixture(autouse=True)
def _forget(monkeypatch):
    """Each test starts with no secret learnt and no key confirmed by another one."""
    monkeypatch.setattr(redaction, "_variables", set())
    monkeypatch.setattr(redaction, "_values", set())
    monkeypatch.setattr(redaction, "_header_names", set())
    monkeypatch.setattr(trust, "_confirmed", set())
    monkeypatch.setattr(trust, "_resolved", {})


def _bank(tmp_path: Path, medbench_yaml: str) -> Path:
    bank = tmp_path / "bank"
    bank.mkdir()
    write_bank(bank)
    (bank / "medbench.yaml").write_text(medbench_yaml)
    return bank


def _endpoint(base_url: str, extra: str = "") -> str:
    return (f"systems:\n  gw:\n    kind: openai-chat\n    base_url: {base_url}\n    model: m\n{extra}")


# --- 1. every header the configuration sends is a secret, but known non-secrets -------------


def test_gateway_headers_echoed_back_are_redacted_everywhere(tmp_path, echoing_openai, monkeypatch, capsys):
    """Ocp-Apim-Subscription-Key and Cookie, echoed by a gateway: not in the stored reason, on
    stderr, in the Markdown, HTML, JSON reports or the JSONL and CSV exports; the configuration
    dump masks them by the same rule."""
    echoing_openai.echo_headers = ("Ocp-Apim-Subscription-Key", "Cookie", "User-Agent")
    bank = _bank(tmp_path, _endpoint(echoing_openai.base_url, (
        f"    headers: {{Ocp-Apim-Subscription-Key: {SUBSCRIPTION}, Cookie: 'session={COOKIE_SESSION}; lang=en',"
        " User-Agent: bench-agent-1}\n")))
    assert main(["run", "--bank", str(bank), "--system", "gw", "--seed", "1"]) == 1
    outputs = [capsys.readouterr()]
    sent = echoing_openai.chat_requests[0].headers
    assert sent["ocp-apim-subscription-key"] == SUBSCRIPTION  # it did go out, to the configured host
    with sqlite3.connect(bank / ".medbench" / "runs.sqlite") as db:
        reason, config = db.execute("SELECT reason, system_config FROM runs").fetchone()
    assert "gateway rejected" in reason and "bench-agent-1" in reason  # a non-secret header stays readable
    texts = [reason, config]
    for fmt in ("text", "md", "json", "csv", "html"):
        assert main(["report", "--bank", str(bank), "--format", fmt]) == 0
        outputs.append(capsys.readouterr())
    for export in ("runs.jsonl", "runs.csv"):
        assert main(["report", "--bank", str(bank), "--export", str(tmp_path / export)]) == 0
        texts.append((tmp_path / export).read_text())
    texts += [o.out + o.err for o in outputs]
    leaked = [t for t in texts if SUBSCRIPTION in t or COOKIE_SESSION in t]
    assert leaked == []
    assert '"Ocp-Apim-Subscription-Key":"***"' in config and '"User-Agent":"bench-agent-1"' in config


def test_one_definition_of_a_secret_header():
    config = EndpointConfig(base_url="https://gw.example/v1", model="m", headers={
        "Ocp-Apim-Subscription-Key": "a", "Cookie": "b", "X-Gateway-Pass": "c", "User-Agent": "d", "Accept": "e"})
    assert config.public()["headers"] == {"Ocp-Apim-Subscription-Key": "***", "Cookie": "***",
                                          "X-Gateway-Pass": "***", "User-Agent": "d", "Accept": "e"}
    redaction.remember_headers(config.headers)
    assert redaction.redact("got a, b and c; d and e") == "got [redacted], [redacted] and [redacted]; d and e"


def test_credentials_written_out_under_any_credential_name_are_masked():
    assert redaction.redact("Ocp-Apim-Subscription-Key: 0123abcd") == "Ocp-Apim-Subscription-Key: [redacted]"
    assert redaction.redact("Cookie: sessionid=zz99") == "Cookie: [redacted]"
    assert redaction.redact("X-Access-Token=tok-42aa") == "X-Access-Token=[redacted]"
    assert redaction.redact("api_key_env: AZURE_OPENAI_KEY") == "api_key_env: AZURE_OPENAI_KEY"


def test_the_stores_json_is_the_redacted_documents_whatever_it_holds(tmp_path):
    """The run store writes a document as it is only when nothing in it could be redacted; its
    JSON is always that of the document redacted text by text (and made valid Unicode)."""
    from pydantic_core import to_json

    from medbench_tui.core.runs.store import PATH_KEYS, RunStore
    from medbench_tui.core.untrusted import valid_data

    secrets = {"sk-live-0123456789", 'quo"te-secret-99', "k3y"}
    documents = [
        {"turns": [{"role": "doctor", "text": "any chest pain?"}], "n": 3, "x": float("nan"), "t": (1, 2)},
        {"text": "the key sk-live-0123456789 leaked", "k3y": ["a k3y b", "k3yz"]},
        {"text": 'held quo"te-secret-99 here'},
        {"text": "Authorization: Bearer abcdefgh", "note": "x-api-key=zz99zz99"},
        {"text": "a lone \ud800 surrogate", "case_path": "cases/k3y.yaml"},
        {"text": "a line\nk3y after a break", "tab": "\tk3y"},
    ]
    with RunStore(tmp_path / "runs.sqlite") as store:
        for document in documents:
            expected = to_json(valid_data(redaction.redact_data(document, secrets, verbatim=PATH_KEYS)),
                               inf_nan_mode="constants").decode()
            assert store._json(document, secrets) == expected
    assert not redaction.may_need_redaction('{"text": "any chest pain?"}', {"sk-live-0123456789"})
    assert redaction.may_need_redaction('{"text": "x sk-live-0123456789"}', {"sk-live-0123456789"})
    assert redaction.may_need_redaction('{"text": "ok"}', {'quo"te'})  # escaped in JSON: never looked up there
    assert redaction.may_need_redaction('{"text": "my Password: x"}', set())


# --- 3. short keys ------------------------------------------------------------------------


def test_a_short_key_is_redacted_as_a_whole_token_and_never_inside_words(monkeypatch):
    monkeypatch.setenv("TINY_KEY_VAR", SHORT_KEY)
    redaction.remember_variable("TINY_KEY_VAR")
    redaction.remember_value("abc")
    text = f"Bearer {SHORT_KEY}; key={SHORT_KEY}. abcdef, xk3y9z, k3y9zz, the abc of it, (abc)"
    assert redaction.redact(text) == ("Bearer [redacted]; key=[redacted]. abcdef, xk3y9z, k3y9zz, "
                                      "the [redacted] of it, ([redacted])")


def test_a_short_key_echoed_by_a_gateway_reaches_no_output(tmp_path, echoing_openai, monkeypatch, capsys):
    monkeypatch.setenv("SHORT_GW_KEY", SHORT_KEY)
    bank = _bank(tmp_path, _endpoint(echoing_openai.base_url, "    api_key_env: SHORT_GW_KEY\n"))
    assert main(["run", "--bank", str(bank), "--system", "gw", "--seed", "1", "--format", "json"]) == 1
    captured = capsys.readouterr()
    assert echoing_openai.chat_requests[0].headers["authorization"] == f"Bearer {SHORT_KEY}"
    assert SHORT_KEY not in captured.out + captured.err and "[redacted]" in captured.out
    __import__("json").loads(captured.out)  # whole tokens: the JSON is still JSON
    store = (bank / ".medbench" / "runs.sqlite").read_bytes() + b"".join(
        p.read_bytes() for p in (bank / ".medbench").glob("runs.sqlite-*"))
    assert SHORT_KEY.encode() not in store


# --- 4. a password in base_url, a line break in a header ------------------------------------


def test_a_password_in_base_url_is_refused_at_load_with_the_field_named_and_the_value_masked():
    with pytest.raises(BankConfigError) as caught:
        parse_bank_config(_endpoint("https://bench:hunter2-pw@gw.example/v1"))
    message = str(caught.value)
    assert "hunter2-pw" not in message and "systems.gw.base_url" in message and ":5:" in message
    assert "bench:[redacted]@gw.example" in message and "api_key_env" in message
    assert redaction.redact("the server said hunter2-pw") == "the server said [redacted]"


@pytest.mark.parametrize("value", ["'abc\\r\\nX-Injected: 1'", "\"tok\\n\"", "\"a\\x00b\""])
def test_a_line_break_in_a_header_value_is_refused_at_load(value):
    text = _endpoint("https://gw.example/v1", f"    headers:\n      Api-Key: {value.replace(chr(39), chr(34))}\n")
    with pytest.raises(BankConfigError) as caught:
        parse_bank_config(text)
    message = str(caught.value)
    assert "systems.gw.headers" in message and "line break or a control character" in message
    assert "abc" not in message and "tok" not in message  # the value of a secret header is masked


# --- 2. where a key may go --------------------------------------------------------------------


@pytest.mark.parametrize("base_url", [
    "http://169.254.169.254/latest/meta-data", "https://metadata.google.internal/v1", "http://[fe80::1]:8080/v1",
    "http://2852039166/v1", "http://[::ffff:169.254.169.254]/v1", "http://169.254.10.1/v1",
])
def test_metadata_and_link_local_addresses_are_refused_at_load(base_url):
    with pytest.raises(BankConfigError, match="never sends requests there"):
        parse_bank_config(_endpoint(base_url))


def test_plain_http_with_a_key_to_another_machine_is_refused_at_load():
    text = _endpoint("http://203.0.113.9/v1", "    api_key_env: AWS_SECRET_ACCESS_KEY\n")
    with pytest.raises(BankConfigError, match=r"systems\.gw\.base_url: plain http:// to 203\.0\.113\.9"):
        parse_bank_config(text)
    parse_bank_config(_endpoint("http://127.0.0.1:8080/v1", "    api_key_env: LOCAL_KEY\n"))  # this machine
    parse_bank_config(_endpoint("http://203.0.113.9/v1"))  # no credential goes with it


def test_systems_says_what_it_would_send_where_and_contacts_no_unconfirmed_host(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-value-123456")
    bank = _bank(tmp_path, _endpoint("https://collector.example.invalid/v1",
                                     "    api_key_env: AWS_SECRET_ACCESS_KEY\n"))
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: pytest.fail("no host may be looked up"))
    assert main(["systems", "--bank", str(bank)]) == 0
    out = capsys.readouterr().out
    assert "sends $AWS_SECRET_ACCESS_KEY to collector.example.invalid" in out
    assert "not contacted" in out and "endpoint_keys" in out


def test_run_refuses_before_any_request_when_nobody_allowed_the_key(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-value-123456")
    bank = _bank(tmp_path, _endpoint("https://collector.example.invalid/v1",
                                     "    api_key_env: AWS_SECRET_ACCESS_KEY\n"))
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: pytest.fail("no host may be looked up"))
    assert main(["run", "--bank", str(bank), "--system", "gw"]) == 1
    err = capsys.readouterr().err
    assert "$AWS_SECRET_ACCESS_KEY to collector.example.invalid" in err and "endpoint_keys" in err
    assert not (bank / ".medbench" / "runs.sqlite").exists() or "run group" not in err


async def test_the_client_refuses_an_unconfirmed_key_whoever_built_it(monkeypatch):
    """The backstop: a path that forgot to ask still sends nothing."""
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-value-123456")
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: pytest.fail("no host may be looked up"))
    config = EndpointConfig(base_url="https://collector.example.invalid/v1", model="m",
                            api_key_env="AWS_SECRET_ACCESS_KEY")
    client = ChatClient.for_endpoint(config)
    with pytest.raises(EndpointError) as caught:
        await client.complete([{"role": "user", "content": "hi"}], model="m")
    assert caught.value.code == trust.NOT_CONFIRMED and not caught.value.retryable


async def test_a_name_that_resolves_to_a_metadata_address_is_refused(monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo",
                        lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("169.254.169.254", 0))])
    client = ChatClient(base_url="http://innocent-looking.test/v1")
    with pytest.raises(EndpointError, match="leads to 169.254.169.254, a cloud metadata address"):
        await client.complete([{"role": "user", "content": "hi"}], model="m")
    assert "169.254.169.254" in str(await client.probe())


def test_the_settings_allow_list_and_a_confirmation_allow_the_key(tmp_path):
    config = EndpointConfig(base_url="https://api.example.invalid/v1", model="m", api_key_env="VENDOR_KEY")
    assert [p.variable for p in trust.unconfirmed([config])] == ["VENDOR_KEY"]
    trust.confirm("VENDOR_KEY", "api.example.invalid")
    assert trust.unconfirmed([config]) == []
    trust._confirmed.clear()
    settings = tmp_path / "settings.yaml"
    settings.write_text("player_name: me  # kept\n")
    from medbench_tui.core.settings import allow_endpoint_key

    allow_endpoint_key("api.example.invalid", "VENDOR_KEY", settings)
    assert "# kept" in settings.read_text()
    assert load_settings(settings).endpoint_keys == {"api.example.invalid": ["VENDOR_KEY"]}
    assert trust.allowed("VENDOR_KEY", "api.example.invalid", load_settings(settings).endpoint_keys)
    assert not trust.allowed("OTHER_KEY", "api.example.invalid", load_settings(settings).endpoint_keys)


def test_the_terminal_question_confirms_for_the_command_or_always(monkeypatch, tmp_path):
    from medbench_tui.cli._keys import ask_for_keys
    from medbench_tui.core.paths import settings_file

    config = EndpointConfig(base_url="https://api.example.invalid/v1", model="m", api_key_env="VENDOR_KEY")
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    assert [p.host for p in ask_for_keys([config], ask=True)] == ["api.example.invalid"]
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n"))
    assert ask_for_keys([config], ask=True) == []
    assert load_settings(settings_file()).endpoint_keys == {"api.example.invalid": ["VENDOR_KEY"]}
    assert ask_for_keys([config], ask=False) == []  # piped input is never asked: the settings allow it now


def test_a_short_key_that_is_a_folder_name_does_not_break_resume(tmp_path):
    """A short configured key ("secret") redacted inside the stored bank path made the group's
    bank a folder that does not exist, so resume said the bank's system was unknown."""
    from medbench_tui.core import redact
    from medbench_tui.core.runs.store import RunStore

    redact.remember_value("secret")
    bank = tmp_path / "no_secret_here" / "secret" / "bank"
    with RunStore(tmp_path / "runs.sqlite") as store:
        group = store.create_group({"bank": str(bank), "cases_path": "cases", "note": "the key is secret"}, seed=1)
        stored = store.group(group.id).config
    assert stored["bank"] == str(bank)
    assert stored["note"] == "the key is [redacted]"
    assert redact.redact("no_secret_here secret") == "no_secret_here [redacted]"
