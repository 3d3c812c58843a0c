"""What a work-up costs and how a run could harm: the price table (shipped, a bank's
override, errors at the line), the cost of a run, harm by omission and by commission, and
the report's cost per correct diagnosis and accuracy-against-cost chart."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from medbench_tui.cli import main
from medbench_tui.core.costs.assess import ConditionOutcome, ItemOutcome, harm_split, price_text, run_cost
from medbench_tui.core.costs.prices import PriceTableError, bank_prices, check_prices, read_prices
from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript, Turn
from medbench_tui.core.validate import load_valid_case

REPO = Path(__file__).resolve().parents[1]
CAP = REPO / "cases" / "im-cap-001.yaml"


def _final(text: str, turns: list[str] | None = None, events: list[dict] | None = None) -> Transcript:
    spoken = []
    for question in turns or []:
        spoken += [Turn(role="doctor", text=question), Turn(role="patient", text="...")]
    return Transcript(case_id="im-cap-001", system="test", turns=spoken, events=events or [],
                      final=FinalResponse(text=text))


def test_the_shipped_table_reads_clean_and_prices_every_bundled_work_up_item():
    assert check_prices([]) == []
    table = read_prices()
    unpriced = []
    for path in sorted((REPO / "cases").glob("*-0*.yaml")):
        case = load_valid_case(path)
        unpriced += [w.item for w in case.workup
                     if not any(price_text(text, table) for text in (w.item, *w.aliases))]
    assert unpriced == []


def test_a_text_is_priced_by_the_tests_it_names_and_a_general_name_only_alone():
    table = read_prices()
    assert [e.name for e in price_text("FBC, U&E and CRP", table)] == [
        "full blood count", "urea and electrolytes", "C-reactive protein"]
    assert [e.name for e in price_text("Blood tests (FBC and CRP)", table)] == [
        "full blood count", "C-reactive protein"]
    assert [e.name for e in price_text("baseline bloods", table)] == ["routine blood tests"]
    assert price_text("reassurance", table) == []


def test_a_run_that_ordered_nothing_costs_nothing_but_its_reference_still_has_a_price():
    case = load_valid_case(CAP)
    card = score(case, _final("Diagnosis: pneumonia. Treatment: amoxicillin."), prices=read_prices())
    assert card.cost is not None
    assert card.cost.consultation == card.cost.plan == card.cost.total == 0
    assert card.cost.tests_ordered == 0 and card.cost.unpriced == []
    assert card.cost.reference > 0
    assert card.metrics.cost_total == 0
    assert "You ordered 0 tests costing 0 units" in card.cost.summary()


def test_tests_released_in_the_consultation_and_in_the_plan_are_paid_once():
    case = load_valid_case(CAP)
    xray = next(a for a in case.attachments if a.available == "on_request" and "radiograph" in a.title.lower())
    transcript = _final("Dx: CAP. Workup: CXR, FBC, CRP. Tx: amoxicillin.", ["Can I see the chest X-ray?"],
                        [{"turn": 1, "kind": "attachment_released", "attachment": xray.id}])
    table = read_prices()
    card = score(case, transcript, prices=table)
    cost = card.cost
    assert cost is not None
    by_source = {(line.source, line.what): line for line in cost.lines}
    assert by_source[("consultation", xray.title)].cost == 4
    assert cost.consultation == 4
    assert cost.plan == pytest.approx(1 + 0.7), "the X-ray of the plan was done already: not paid twice"
    assert cost.tests_ordered == 3


def test_an_unpriced_item_is_reported_and_left_out_never_free(tmp_path):
    case = load_valid_case(CAP)
    rows = [ItemOutcome("workup", None, "frobnication assay", "extra"),
            ItemOutcome("workup", None, "full blood count", "extra")]
    cost = run_cost(case, _final("x"), rows, read_prices())
    assert cost.unpriced == ["frobnication assay"]
    assert cost.plan == 1
    line = next(li for li in cost.lines if li.what == "frobnication assay")
    assert line.cost is None and line.priced_as == []
    assert "(1 unpriced, left out)" in cost.summary()


def test_a_bank_adjusts_the_shipped_table_or_replaces_it(tmp_path):
    (tmp_path / "prices.yaml").write_text("prices:\n  - {name: full blood count, also: [FBC], price: 3}\n")
    adjusted = bank_prices(tmp_path)
    assert [e.price for e in price_text("FBC", adjusted)] == [3]
    assert [e.name for e in price_text("CRP", adjusted)] == ["C-reactive protein"], "the rest stays"
    assert adjusted.digest != read_prices().digest
    (tmp_path / "prices.yaml").write_text(
        "replace: true\ncurrency: GBP\nsource: our hospital, 2026\nprices:\n  - {name: full blood count, price: 2.5}\n")
    own = bank_prices(tmp_path)
    assert own.currency == "GBP" and len(own.entries) == 1
    assert price_text("CRP", own) == []


@pytest.mark.parametrize(("text", "line", "code"), [
    ("currency: GBP\nprices:\n  - {name: full blood count, price: 3}\n", 1, "prices.currency"),
    ("prices:\n  - {name: FBC, price: 1}\n  - {name: fbc, price: 2}\n", 3, "prices.duplicate"),
    ("prices:\n  - {name: FBC, cost: 1}\n", 2, "schema.unknown_key"),
    ("prices:\n  - {name: FBC, price: -1}\n", 2, "schema.value"),
    ("prices: [\n", 1, "yaml.syntax"),
])
def test_a_mistake_in_a_bank_table_is_reported_at_its_line(tmp_path, text, line, code):
    path = tmp_path / "prices.yaml"
    path.write_text(text)
    problems = [p for p in check_prices([path]) if p.file == path]
    assert (line, code) in [(p.diagnostic.line, p.diagnostic.code) for p in problems], problems
    with pytest.raises(PriceTableError):
        read_prices(path)


def test_harm_is_split_into_omission_and_commission_as_the_case_weights_it():
    case = load_valid_case(CAP)
    required = next(t for t in case.treatment if t.klass == "required")
    harmful = next(t for t in case.treatment if t.klass == "contraindicated")
    rows = [ItemOutcome("treatment", required.item, None, "missing"),
            ItemOutcome("treatment", harmful.item, "levofloxacin", "contraindicated")]
    conditions = [ConditionOutcome("FAIL", "must_include", False, "cc-a"),
                  ConditionOutcome("FAIL", "must_not_include", True, "cc-implicit-contraindicated")]
    split = harm_split(case, rows, conditions)
    assert split.omission == required.weight and split.omitted == [required.item]
    assert split.commission == harmful.weight and split.committed == [harmful.item]
    assert (split.conditions_omission, split.conditions_commission) == (1, 1)


@pytest.fixture(scope="module")
def costed_group(tmp_path_factory):
    """Two bundled cases played by the checklist and by a replayed thorough answer."""
    root = tmp_path_factory.mktemp("costs")
    bank = root / "bank"
    bank.mkdir()
    ids = ["im-cap-001", "em-pe-001"]
    replay = root / "replay"
    replay.mkdir()
    for case_id in ids:
        shutil.copy(REPO / "cases" / f"{case_id}.yaml", bank)
        answers = yaml.safe_load((REPO / "tests" / "data" / "answers" / f"{case_id}.yaml").read_text())
        thorough = next(a for a in answers["answers"] if "thorough" in a["id"])
        transcript = {"case_id": case_id, "system": "replay", "events": [], "final": {"text": thorough["text"]},
                      "turns": [{"role": "doctor", "text": "Can I see the blood results?"},
                                {"role": "patient", "text": "..."}]}
        (replay / f"{case_id}.json").write_text(json.dumps(transcript))
    store = root / "runs.sqlite"
    assert main(["run", "--system", "checklist", "--system", f"replay:{replay}", "--cases", str(bank),
                 "--store", str(store), "--format", "json", "--seed", "5"]) == 0
    return bank, store


def test_the_report_gives_cost_per_correct_diagnosis_the_harm_split_and_the_chart(costed_group, capsys):
    bank, store = costed_group
    capsys.readouterr()
    assert main(["report", "--store", str(store), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    costs = report["costs"]
    assert costs["currency"] == "relative" and not costs["repriced"]
    assert set(costs["systems"]) == {"checklist", f"replay:{costed_group[0].parent / 'replay'}"}
    assert {p["system"] for p in costs["points"]} == set(costs["systems"])
    headline = report["headline"]
    for system in costs["systems"]:
        assert {"cost_total", "harm_omission", "harm_commission"} <= set(headline[system]["metrics"])
    comparison = report["comparisons"][0]
    assert "cost_total" in comparison["differences"], "a paired cost difference"
    for fmt, needle in (("text", "Cost per correct diagnosis"), ("md", "## Cost and harm"),
                        ("csv", "cost_per_correct_diagnosis"), ("html", "Diagnosis accuracy against cost")):
        assert main(["report", "--store", str(store), "--format", fmt]) == 0
        assert needle in capsys.readouterr().out, fmt
    assert main(["report", "--store", str(store), "--format", "csv", "--by", "urgency"]) == 0
    assert "cost_total" in capsys.readouterr().out, "subgroups of --by carry the cost too"


def test_editing_a_price_changes_the_figures_and_the_manifest_check_says_so(costed_group, capsys, tmp_path):
    bank, store = costed_group
    copy = tmp_path / "runs.sqlite"
    shutil.copy(store, copy)
    assert main(["freeze", "--bank", str(bank), "--label", "v1"]) == 0
    capsys.readouterr()
    assert main(["report", "--store", str(copy), "--format", "json"]) == 0
    before = json.loads(capsys.readouterr().out)
    (bank / "prices.yaml").write_text("prices:\n  - {name: full blood count, also: [FBC], price: 500}\n")
    try:
        assert main(["report", "--store", str(copy), "--format", "json"]) == 0
        after = json.loads(capsys.readouterr().out)
        assert after["costs"]["repriced"] is True
        replay = next(s for s in after["costs"]["systems"] if s.startswith("replay:"))
        assert after["headline"][replay]["metrics"]["cost_total"]["mean"] > \
            before["headline"][replay]["metrics"]["cost_total"]["mean"]
        assert main(["freeze", "--bank", str(bank), "--check"]) == 1
        assert "prices.yaml" in capsys.readouterr().out
    finally:
        (bank / "prices.yaml").unlink()
        (bank / "bank-manifest.json").unlink()


def test_the_scorecard_says_what_was_ordered_and_what_the_reference_costs(costed_group, capsys):
    case = load_valid_case(CAP)
    card = score(case, _final("Workup: CXR and CT chest. Dx: pneumonia."), prices=read_prices())
    from medbench_tui.core.scoring import render_scorecard_text

    text = render_scorecard_text(card)
    assert "Cost\n  You ordered 2 tests costing 42 units" in text
    assert "The reference work-up costs" in text
    assert "Harm\n  by omission" in text


def test_the_prices_command_checks_and_shows(tmp_path, capsys):
    assert main(["prices", "check"]) == 0
    assert main(["prices", "show", "CT", "pulmonary", "angiogram"]) == 0
    assert "CT pulmonary angiography" in capsys.readouterr().out
    assert main(["prices", "show", "reassurance"]) == 1
    bad = tmp_path / "prices.yaml"
    bad.write_text("prices:\n  - {name: FBC, cost: 1}\n")
    assert main(["prices", "check", str(bad)]) == 1
    assert f"{bad}:2:" in capsys.readouterr().out
