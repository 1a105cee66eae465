"""SARIF 2.1.0, so code hosts can show each drifted unit next to the code.

One result per non-aligned unit, at its evidence location (the repository root
for `missing`, which has no location by definition). A result's `ruleId` is the code
of the rule that decided its label, or held it back (`NUM005`; `sa-align rules CODE`),
so a code host can filter and suppress by rule as it does for a linter's; `tool.driver.rules`
carries each code's doc and measured precision. A result no rule decided (no judge could)
has the id of its label (`undecided`). The label and unit kind are result properties.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sa_align.models import DriftReport, Label, UnitResult
from sa_align.report.rule_codes import label_text
from sa_align.rules.registry import Rule, rules

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL = {
    Label.MISMATCHED: "error",
    Label.MISATTRIBUTED: "error",
    Label.STUBBED: "warning",
    Label.MISSING: "warning",
    Label.UNDECIDED: "note",
}
_MEANING = {
    Label.MISMATCHED: "The code implements something different from what the paper states",
    Label.MISATTRIBUTED: "The code implements the cited prior method where the paper states its own variant",
    Label.STUBBED: "The code acknowledges the claim but defers it (placeholder or unreachable)",
    Label.MISSING: "Nothing in the code addresses the claim",
    Label.UNDECIDED: "No judge could decide whether the code implements the claim",
}


def render_sarif(report: DriftReport) -> str:
    return json.dumps(sarif_log(report), indent=2, ensure_ascii=False) + "\n"


def sarif_log(report: DriftReport) -> dict[str, Any]:
    drifted = [r for r in report.results if r.label != Label.ALIGNED]
    rules = _descriptors(drifted)
    index = {r["id"]: i for i, r in enumerate(rules)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {
                    "name": "sa_align",
                    "version": report.sa_align_version or "0",
                    "informationUri": "https://pypi.org/project/sa-align/",
                    "rules": rules,
                }},
                "originalUriBaseIds": {"SRCROOT": {"uri": _root_uri(report.repo.path)}},
                "results": [_result(r, index) for r in drifted],
                "properties": {"paper": report.paper.title, "meanScore": report.summary.mean_score},
            }
        ],
    }


def rule_id(r: UnitResult) -> str:
    """The code of the rule behind the result's label, else the label itself (no rule decided it)."""
    return r.rule or r.label.value


def _descriptors(results: list[UnitResult]) -> list[dict[str, Any]]:
    """A `reportingDescriptor` for every id the results use, registry rules in the registry's order first."""
    registry = rules()
    used = {rule_id(r): r for r in results}
    known = [_rule(registry[c]) for c in registry if c in used]
    # A label standing for a missing code, or a code this install's registry does not have (a report
    # written by another version): described as well as the report allows, so every ruleIndex resolves.
    other = [_label_rule(i, used[i]) for i in sorted(used) if i not in registry]
    return known + other


def _rule(rule: Rule) -> dict[str, Any]:
    m = rule.measured
    # A veto leaves the unit undecided; a step whose label comes from another judge (`failure`, `any`) warns.
    level = "note" if rule.decides == "veto" else {k.value: v for k, v in _LEVEL.items()}.get(rule.decides, "warning")
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.why},
        "defaultConfiguration": {"level": level},
        "properties": {
            "judge": rule.judge, "decides": rule.decides, "status": rule.status, "precision": m.precision,
            "precisionLow": m.low, "judged": m.judged, "right": m.right,
            "sabenchDecided": m.sabench_decided, "sabenchAgree": m.sabench_agree,
        },
    }


def _label_rule(rid: str, example: UnitResult) -> dict[str, Any]:
    if rid == example.label.value:
        return {"id": rid, "name": rid, "shortDescription": {"text": f"{rid}: no rule decided"},
                "fullDescription": {"text": f"{_MEANING[example.label]}; no rule of this run decided it."},
                "defaultConfiguration": {"level": _LEVEL[example.label]}}
    return {"id": rid, "name": rid, "shortDescription": {"text": f"rule {rid}"},
            "fullDescription": {"text": f"Rule {rid}, which this version of sa_align does not document."}}


def _result(r: UnitResult, index: dict[str, int]) -> dict[str, Any]:
    rid = rule_id(r)
    text = f"[{r.unit.id}] {label_text(r)}: {r.unit.claim}"
    if r.reason:
        text += f" — {r.reason}"
    return {
        "ruleId": rid,
        "ruleIndex": index[rid],
        "level": _LEVEL[r.label],
        "message": {"text": text},
        "locations": _locations(r),
        "partialFingerprints": {"unitId/v1": f"{r.unit.id}:{r.label.value}"},
        "properties": {
            "unitId": r.unit.id,
            "label": r.label.value,
            "kind": r.unit.kind.value,
            "heldLabel": None if r.held_label is None else r.held_label.value,
            "quote": r.unit.quote,
            "section": r.unit.section,
            "score": r.score,
            "confidence": r.confidence,
            "needsReview": r.needs_review,
        },
    }


def _locations(r: UnitResult) -> list[dict[str, Any]]:
    spans = r.evidence or ([r.candidates[0].span] if r.candidates and r.label != Label.MISSING else [])
    if not spans:
        return [{"physicalLocation": {"artifactLocation": {"uri": "./", "uriBaseId": "SRCROOT"}}}]
    return [
        {
            "physicalLocation": {
                "artifactLocation": {"uri": s.path, "uriBaseId": "SRCROOT"},
                "region": {"startLine": s.start_line, "endLine": s.end_line},
            }
        }
        for s in spans[:3]
    ]


def _root_uri(path: str) -> str:
    uri = Path(path).resolve().as_uri()
    return uri if uri.endswith("/") else uri + "/"
