"""`sa-align rules`: the table, one rule's doc, the JSON, and an unknown code (`sa_align/rules/show.py`)."""

import json
import re

from typer.testing import CliRunner

from sa_align.cli import app
from sa_align.rules.registry import measured_on, rules

runner = CliRunner()


def test_the_table_lists_every_code_with_its_status_and_counts():
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    header = next(line for line in lines if "code" in line and "status" in line)
    assert header.split() == ["code", "name", "judge", "decides", "status", "precision", "right/judged", "SA-Bench"]
    for code, rule in rules().items():
        [row] = [line for line in lines if line.startswith(f"{code} ")]  # one row a code, never wrapped
        cells = re.split(r"\s{2,}", row.strip())
        m = rule.measured
        assert cells[:5] == [code, rule.name, rule.judge, rule.decides, rule.status]
        assert cells[6:] == [f"{m.right}/{m.judged}", f"{m.sabench_agree}/{m.sabench_decided}"]
    assert f"{len(rules())} rules." in result.stdout and "Stable: at least 20 hand-judged decisions" in result.stdout
    assert "SA-Bench: of the rule's decisions on SA-Bench's development split, how many SA-Bench's own judge agrees with" in result.stdout


def test_json_gives_the_same_data_with_docs_examples_and_what_was_measured():
    result = runner.invoke(app, ["rules", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["measured_on"] == measured_on() and data["stable_when"] == {"min_judged": 20, "min_precision": 0.9}
    assert [r["code"] for r in data["rules"]] == list(rules())
    num = next(r for r in data["rules"] if r["code"] == "NUM005")
    rule = rules()["NUM005"]
    assert num["status"] == rule.status and num["summary"] == rule.summary and num["why"] == rule.why
    assert num["measured"] == rule.measured.model_dump(mode="json")
    assert num["examples"]["fire"][0]["files"]["train.py"] == rule.examples.fire[0].files["train.py"]
    assert len(num["examples"]["quiet"]) == len(rule.examples.quiet) >= 1


def test_one_code_shows_its_whole_doc_and_examples():
    result = runner.invoke(app, ["rules", "num005"])  # codes are read as ruff reads them, any case
    assert result.exit_code == 0, result.output
    text, rule = result.stdout, rules()["NUM005"]
    assert text.startswith("# NUM005 value-differs\n")
    assert f"Judge: numeric · decides: mismatched · status: {rule.status}" in text
    assert rule.summary in text and f"## Why\n\n{rule.why}" in text
    assert "## Precision" in text and "hand-judged" in text
    fires, quiet = text.split("## Fires on")[1].split("## Stays quiet on")
    assert rule.examples.fire[0].note in fires and "LEARNING_RATE = 1e-3" in fires and "```python" in fires
    assert rule.examples.quiet[0].note in quiet and "LEARNING_RATE = 3e-4" in quiet
    assert "value: 0.0003" in fires  # the unit, as a units file writes it


def test_a_prefix_shows_each_rule_it_names():
    result = runner.invoke(app, ["rules", "ORD"])
    assert result.exit_code == 0, result.output
    assert [line for line in result.stdout.splitlines() if line.startswith("# ")] == [
        "# ORD001 " + rules()["ORD001"].name, "# ORD002 " + rules()["ORD002"].name]
    assert result.stdout.count("## Why") == 2 and result.stdout.count("## Stays quiet on") == 2


def test_an_unknown_code_is_a_usage_error():
    result = runner.invoke(app, ["rules", "XYZ001"])
    assert result.exit_code == 2
    assert "no rule code starts with 'XYZ001'; `sa-align rules` lists them" in result.stderr
    assert runner.invoke(app, ["rules", "XYZ", "--json"]).exit_code == 2


def test_a_measured_rule_shows_its_precision_on_the_counts_it_rests_on():
    from sa_align.rules.registry import Measured
    from sa_align.rules.show import precision_text, rule_doc

    measured = Measured(judged=25, right=24, precision=0.96, low=0.8, sabench_decided=50, sabench_agree=41)
    rule = rules()["NUM005"].model_copy(update={"measured": measured})  # a copy: the registry stays as shipped
    assert rule.status == "stable" and precision_text(rule) == "0.96 (≥0.80)"
    doc = rule_doc(rule)
    assert "status: stable" in doc and "- 24 of 25 hand-judged decisions right: precision 0.96 (≥0.80)." in doc
    assert "- SA-Bench's judge agrees with 41 of the rule's 50 decisions on its development split." in doc
