"""Every output format on the example's real report (not a hand-built one)."""

import json

import pytest

import sa_align
from sa_align.config import EvalConfig
from sa_align.report import render, validate_report_json
from tests.conftest import EXAMPLES
from tests.report.conftest import open_report
from tests.report.test_sarif import _official_schema

EX = EXAMPLES / "focal_loss"


@pytest.fixture(scope="module")
def example_report():
    """The example with every rule deciding (`--preview`): every label has findings to render."""
    config = EvalConfig(embeddings=False, rules={"preview": True})
    return sa_align.evaluate(EX / "paper.md", EX / "repo", units=EX / "units.yaml", config=config)


@pytest.fixture(scope="module")
def default_report():
    return sa_align.evaluate(EX / "paper.md", EX / "repo", units=EX / "units.yaml", config=EvalConfig(embeddings=False))


def test_markdown_of_the_default_run_shows_each_held_finding_with_its_rule_and_evidence(default_report):
    md = render(default_report, "md")
    assert "undecided (held: mismatched by `NUM005`, preview)" in md and "Held for review: 5 findings" in md
    assert "Evidence: `config.yaml:16`" in md  # the held finding keeps the line that shows it
    sarif = json.loads(render(default_report, "sarif"))
    lr = next(r for r in sarif["runs"][0]["results"] if r["properties"]["unitId"] == "num-004")
    assert lr["ruleId"] == "NUM005" and lr["level"] == "note"  # evidence for review, not an error


def test_json_of_the_example_validates(example_report):
    data = json.loads(render(example_report, "json"))
    validate_report_json(data)  # raises on any schema violation
    assert data["schema_version"] == "1.4" and len(data["results"]) == 22
    assert data["summary"]["judge_errors"] == 0 and data["errors"] == []
    assert data["retrieval"]["signals"] == ["bm25", "param", "name", "signature", "graph"]
    assert data["retrieval"]["embeddings"] is False  # switched off in this config, and the report says so


def test_sarif_of_the_example_validates_and_locates_findings(example_report):
    import jsonschema

    log = json.loads(render(example_report, "sarif"))
    jsonschema.validate(log, _official_schema())
    results = log["runs"][0]["results"]
    drifted = [r for r in example_report.results if r.label != "aligned"]
    assert len(results) == len(drifted)
    lr = next(r for r in results if r["properties"]["unitId"] == "num-004")
    assert lr["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "config.yaml"
    assert lr["ruleId"] == "NUM005"  # the learning rate differs where the run reads it, held or not
    described = {r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert {r["ruleId"] for r in results} == described


def test_markdown_of_the_example_names_each_finding(example_report):
    md = render(example_report, "md")
    for label in ("Mismatched", "Misattributed", "Stubbed", "Missing", "Undecided", "Aligned"):
        assert f"## {label} (" in md
    assert "Evidence: `config.yaml:16`" in md


@pytest.mark.browser
def test_html_of_the_example_in_chromium(example_report, tmp_path, chromium_page):
    page, errors = chromium_page
    open_report(page, example_report, tmp_path)
    assert page.locator("#units-body tr.unit").count() == 22
    page.select_option("#filter-label", "stubbed")
    assert page.locator("#units-body tr.unit").count() == 2
    page.screenshot(path=str(tmp_path / "example.png"))
    assert errors == []
