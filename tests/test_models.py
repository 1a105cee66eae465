import json

import pytest
from pydantic import ValidationError

from sa_align.models import (
    CodeSpan, Cost, DriftReport, Label, Param, PaperIdentity, RepoIdentity, Unit, UnitsFile,
    report_schema, units_file_schema,
)
from sa_align.diff import diff_schema
from sa_align.models.history import history_schema
from sa_align.resources import data_dir


def _all_models(schema):
    return {"root": schema, **schema.get("$defs", {})}


@pytest.mark.parametrize("schema", [report_schema(), units_file_schema(), diff_schema(), history_schema()])
def test_every_field_is_documented_in_the_schema(schema):
    undocumented = [
        f"{model}.{field}"
        for model, body in _all_models(schema).items()
        for field, prop in body.get("properties", {}).items()
        if not prop.get("description")
    ]
    assert undocumented == []


def test_shipped_schemas_match_the_models():
    folder = data_dir("units") / "schema"
    assert json.loads((folder / "report.schema.json").read_text()) == report_schema()
    assert json.loads((folder / "units.schema.json").read_text()) == units_file_schema()
    assert json.loads((folder / "diff.schema.json").read_text()) == diff_schema()
    assert json.loads((folder / "history.schema.json").read_text()) == history_schema()


def test_param_needs_a_value():
    with pytest.raises(ValidationError, match="needs `value` or `values`"):
        Param(name="learning_rate")


def test_unknown_field_is_rejected_with_its_name():
    with pytest.raises(ValidationError, match="colour"):
        Unit(id="u1", kind="numerical", claim="x", colour="red")


def test_ordering_unit_needs_two_steps():
    with pytest.raises(ValidationError, match="at least two steps"):
        Unit(id="o1", kind="ordering", claim="x", order=["only one"])


def test_code_span_overlap_and_text():
    a = CodeSpan(path="a.py", start_line=3, end_line=7)
    assert a.overlaps(CodeSpan(path="a.py", start_line=7, end_line=9))
    assert not a.overlaps(CodeSpan(path="b.py", start_line=3, end_line=7))
    assert not a.overlaps(CodeSpan(path="a.py", start_line=8, end_line=9))
    assert str(a) == "a.py:3-7" and str(CodeSpan(path="a.py", start_line=2, end_line=2)) == "a.py:2"


def test_cost_adds_and_unknown_price_stays_unknown():
    total = Cost(prompt_tokens=10, usd=0.5, calls=1) + Cost(prompt_tokens=5, usd=None, calls=1)
    assert (total.prompt_tokens, total.calls, total.usd) == (15, 2, None)


def test_report_round_trips_through_json():
    report = DriftReport(paper=PaperIdentity(title="T"), repo=RepoIdentity(path="r"))
    again = DriftReport.model_validate_json(report.model_dump_json())
    assert again == report and again.schema_version == "1.4"
    assert UnitsFile().schema_version == "1.4"
    assert Label("stubbed") is Label.STUBBED


def test_diff_and_history_changes_share_one_label_change_model():
    from sa_align.models.change import LabelChangeBase
    from sa_align.models.diff import UnitChange
    from sa_align.models.history import CommitInfo, EvidenceSnippet, LabelChange

    span = CodeSpan(path="a.py", start_line=3, end_line=3)
    shared = {"kind": "numerical", "claim": "c", "label_before": Label.ALIGNED, "label_after": Label.MISMATCHED}
    diff_change = UnitChange(old_id="num-001", new_id="num-002", matched_by="quote", evidence_after=[span], **shared)
    history_change = LabelChange(unit_id="num-001", commit=CommitInfo(sha="b" * 40), previous_commit="a" * 40,
                                 evidence_after=[EvidenceSnippet(span=span, code="lr: 0.02")], **shared)
    assert isinstance(diff_change, LabelChangeBase) and isinstance(history_change, LabelChangeBase)
    declared_once = {"kind", "claim", "label_before", "label_after", "score_before", "score_after", "evidence_before",
                     "evidence_after", "reason_after"}
    assert set(LabelChangeBase.model_fields) == declared_once
    assert not declared_once & (set(UnitChange.__annotations__) | set(LabelChange.__annotations__))
    # the shared fields first, then what says which change it is
    shared_order = ["kind", "claim", "label_before", "label_after", "score_before", "score_after", "evidence_before",
                    "evidence_after", "reason_after"]
    assert list(json.loads(diff_change.model_dump_json())) == [*shared_order, "old_id", "new_id", "matched_by"]
    assert list(json.loads(history_change.model_dump_json())) == [*shared_order, "unit_id", "commit", "previous_commit"]
    assert list(diff_schema()["$defs"]["UnitChange"]["properties"]) == list(json.loads(diff_change.model_dump_json()))
    assert list(history_schema()["$defs"]["LabelChange"]["properties"]) == list(json.loads(history_change.model_dump_json()))
    assert UnitChange.model_validate_json(diff_change.model_dump_json()) == diff_change
    assert LabelChange.model_validate_json(history_change.model_dump_json()) == history_change
    with pytest.raises(ValidationError):  # the evidence type comes from the parametrization
        UnitChange(old_id="a", new_id="b", matched_by="id", evidence_before=[{"span": span.model_dump(), "code": ""}],
                   **shared)
