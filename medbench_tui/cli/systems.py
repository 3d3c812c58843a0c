"""List the systems under test and the patient simulators of a bank (built-in and from
its medbench.yaml), and whether each can run here: is its API key variable set, does
its endpoint answer (a quick GET {base_url}/models, 2 s; --offline skips it). Each endpoint
says what it would send where ("sends $OPENAI_API_KEY to api.openai.com"); one whose key
would go to a host nobody has allowed is asked about at a terminal, and not contacted
otherwise. Exit 1 when the evaluator cannot work as configured (an llm extractor without its
endpoint)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from medbench_tui.core.jsondata import JSONObject

if TYPE_CHECKING:
    from pathlib import Path

    from medbench_tui.core.cases.bankconfig import BankConfig, EndpointConfig, SimulatorConfig, SystemConfig


def configure(parser: argparse.ArgumentParser) -> None:
    from medbench_tui.cli._output import add_format

    parser.add_argument("--bank", default=argparse.SUPPRESS,
                        help="case bank folder (default: the current folder if it is a bank, else the bundled cases)")
    parser.add_argument("--offline", action="store_true", help="do not contact endpoints; only check the key variables")
    add_format(parser)


def _bank(given: str | None) -> Path:
    from pathlib import Path

    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.paths import bank_root, default_bank

    if given:
        if not Path(given).is_dir():
            raise UsageError(f"--bank {given}: no such folder")
        return bank_root(Path(given))
    return default_bank()


async def _status(config: EndpointConfig, offline: bool) -> tuple[bool, str]:
    """(can run, why not / what was checked) for one endpoint configuration. An endpoint whose
    key the user has not allowed to go to its host is not contacted."""
    from medbench_tui.core.endpoints.client import ChatClient, EndpointError
    from medbench_tui.core.endpoints.trust import unconfirmed

    try:
        client = ChatClient.for_endpoint(config)
    except EndpointError as exc:
        return False, str(exc)
    if unconfirmed([config]):
        place = unconfirmed([config])[0]
        return False, (f"not contacted: sending ${place.variable} to {place.host} needs your yes (asked at a terminal;"
                       f" or allow it in the settings: endpoint_keys: {{{place.host}: [{place.variable}]}})")
    if offline:
        offline_note = "endpoint not checked (--offline)"
        return True, f"key variable set; {offline_note}" if config.api_key_env else offline_note
    try:
        problem = await client.probe()
    finally:
        await client.aclose()
    return (False, str(problem)) if problem else (True, f"{config.base_url} answers")


async def _rows(bank_config: BankConfig, offline: bool) -> JSONObject:
    import asyncio

    from medbench_tui.core.cases.bankconfig import EndpointConfig
    from medbench_tui.core.endpoints.trust import destination

    def describe(name: str, config: SystemConfig | SimulatorConfig | EndpointConfig, kind: str) -> JSONObject:
        row: JSONObject = {"name": name, "kind": kind}
        if isinstance(config, EndpointConfig):
            row.update({"model": config.model, "base_url": config.base_url, "api_key_env": config.api_key_env,
                        "sends": destination(config).describe()})
        for key in ("protocol", "vision", "path", "description", "context_tokens", "max_concurrency"):
            if getattr(config, key, None) is not None:
                row[key] = getattr(config, key)
        return row

    systems = [
        {"name": "checklist", "kind": "checklist", "can_run": True, "why": "built-in floor baseline (offline)"},
        {"name": "human", "kind": "human", "can_run": True,
         "why": "built-in: the person at the keyboard (medbench play)"},
        {"name": "replay:PATH", "kind": "replay", "can_run": True, "why": "built-in: replays recorded transcripts"},
    ]
    simulators = [{"name": "grounded", "kind": "grounded", "can_run": True, "why": "built-in, offline (the default)"}]
    pending: list[tuple[JSONObject, EndpointConfig]] = []
    for table, configured in ((systems, bank_config.systems), (simulators, bank_config.simulators)):
        for name, config in configured.items():
            row = describe(name, config, config.kind)
            table.append(row)
            if isinstance(config, EndpointConfig):
                pending.append((row, config))
            else:
                description = getattr(config, "description", None)
                row.update(can_run=True, why=f"offline: {description}" if description else "offline")
    evaluator = bank_config.evaluator.model_dump(mode="json", exclude={"llm"})
    evaluator["can_run"], evaluator["why"] = True, "offline"
    if bank_config.evaluator.llm is not None:
        evaluator["llm"] = describe("evaluator", bank_config.evaluator.llm, kind="llm")
        pending.append((evaluator["llm"], bank_config.evaluator.llm))
    problem = _evaluator_problem(bank_config)
    if problem:
        evaluator["can_run"], evaluator["why"] = False, problem
    elif bank_config.evaluator.llm is not None:
        evaluator["why"] = "the llm extractor at evaluator.llm" if evaluator["extractor"] == "llm" else \
            "evaluator.llm is set but the extractor is not llm: it is not used"
    results = await asyncio.gather(*(_status(config, offline) for _, config in pending))
    for (row, _), (ok, why) in zip(pending, results, strict=True):
        row.update(can_run=ok, why=why)
    return {"systems": systems, "simulators": simulators, "evaluator": evaluator}


def _evaluator_problem(bank_config: BankConfig) -> str | None:
    """What stops the evaluator from scoring as configured, or None."""
    from medbench_tui.core.scoring.extractor_choice import extractor_problem

    problem = extractor_problem(None, bank_config.evaluator)
    return f"{bank_config.where()}: {problem}" if problem else None


def _text(document: JSONObject) -> str:
    lines = [f"Bank: {document['bank']}  (configuration: {document['config'] or 'none'})"]
    for title in ("systems", "simulators"):
        lines.append(f"\n{title.capitalize()}:")
        for row in document[title]:
            mark = "ok " if row["can_run"] else "NO "
            model = f"  {row['model']} @ {row['base_url']}" if "model" in row else ""
            lines.append(f"  {mark} {row['name']:<20} {row['kind']:<12}{model}")
            if "sends" in row:
                lines.append(f"       {row['sends']}")
            lines.append(f"       {row['why']}")
    evaluator = document["evaluator"]
    lines.append(f"\nEvaluator: {'ok ' if evaluator['can_run'] else 'NO '} extractor {evaluator.get('extractor')}")
    if not evaluator["can_run"]:
        lines.append(f"       {evaluator['why']}")
    if "llm" in evaluator:
        llm = evaluator["llm"]
        lines.append(f"  {'ok ' if llm['can_run'] else 'NO '} {llm['model']} @ {llm['base_url']}: {llm['why']}")
        lines.append(f"       {llm['sends']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from medbench_tui.cli._keys import ask_for_keys
    from medbench_tui.cli._output import emit_json
    from medbench_tui.core.cases.bank import load_bank

    bank = load_bank(_bank(getattr(args, "bank", None)))
    bank_config = bank.config
    if not args.offline:  # ask, at a terminal, before a probe sends a key to a host nobody allowed
        ask_for_keys(bank_config.endpoints())
    document: JSONObject = {"bank": str(bank.root), "config": str(bank_config.path) if bank_config.path else None}
    document |= asyncio.run(_rows(bank_config, args.offline))
    if args.format == "json":
        emit_json(document)
    else:
        print(_text(document), file=sys.stdout)
    return 0 if document["evaluator"]["can_run"] else 1
