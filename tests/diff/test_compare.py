import json
import re

import pytest

from sa_align import diff_reports
from sa_align.diff import DiffError, read_report
from sa_align.models import SCHEMA_VERSION, Label

from tests.diff.conftest import report, result


def test_regressions_fixes_changes_added_removed_moved(old_new):
    d = diff_reports(*old_new)
    assert [(c.old_id, c.new_id, c.label_before, c.label_after) for c in d.regressions] == [
        ("num-001", "num-002", Label.ALIGNED, Label.MISMATCHED)]
    assert d.regressions[0].evidence_after[0].path == "config.yaml"
    assert [(c.old_id, c.label_after) for c in d.fixes] == [("meth-001", Label.ALIGNED)]
    assert [(c.old_id, c.label_after) for c in d.changed] == [("meth-002", Label.UNDECIDED)]
    assert [r.id for r in d.added] == ["num-001"] and [r.id for r in d.removed] == ["meth-003"]
    assert [(m.old_id, m.before[0].start_line, m.after[0].start_line) for m in d.moved] == [("num-002", 5, 9)]
    assert d.matched == 5 and d.matched_by == {"quote": 3, "id": 2}
    assert d.mean_delta == pytest.approx(d.new.mean_score - d.old.mean_score, abs=1e-4)


def test_different_papers_are_refused_unless_forced(old_new):
    old, new = old_new
    other = new.model_copy(update={"paper": new.paper.model_copy(update={"title": "Another paper", "sha256": "bb" * 32})})
    with pytest.raises(DiffError, match="different papers.*--force"):
        diff_reports(old, other)
    forced = diff_reports(old, other, force=True)
    assert forced.forced and "different papers" in forced.notes[0]


def test_an_edited_paper_file_with_the_same_title_is_compared_with_a_note(old_new):
    old, new = old_new
    edited = new.model_copy(update={"paper": new.paper.model_copy(update={"sha256": "cc" * 32})})
    assert "paper file changed" in diff_reports(old, edited).notes[0]


def test_report_files_of_an_incompatible_version_are_refused_with_both_versions(tmp_path, old_new):
    old, new = old_new
    (tmp_path / "old.json").write_text(old.model_dump_json(), encoding="utf-8")
    data = json.loads(new.model_dump_json())
    data["schema_version"] = "2.0"
    (tmp_path / "new.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DiffError, match=rf"version 2\.0 is not compatible with version {re.escape(SCHEMA_VERSION)}"):
        diff_reports(tmp_path / "old.json", tmp_path / "new.json")


def test_a_compatible_minor_version_is_read_and_noted(tmp_path, old_new):
    old, new = old_new
    data = json.loads(new.model_dump_json())
    data["schema_version"] = "1.3"
    (tmp_path / "new.json").write_text(json.dumps(data), encoding="utf-8")
    assert read_report(tmp_path / "new.json").schema_version == "1.3"
    d = diff_reports(old, tmp_path / "new.json")
    assert any("1.0 and 1.3" in n for n in d.notes)
    data["a_field_from_the_future"] = {"added": "in 1.3"}
    data["results"][0]["unit"]["another_new_field"] = 1
    (tmp_path / "newer.json").write_text(json.dumps(data), encoding="utf-8")
    assert read_report(tmp_path / "newer.json").results[0].unit.id == "num-001"


def test_a_missing_or_broken_report_file_is_an_input_error(tmp_path):
    from sa_align.errors import InputError

    with pytest.raises(InputError, match="does not exist"):
        read_report(tmp_path / "nope.json")
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match="not a JSON report"):
        read_report(tmp_path / "bad.json")


def test_equal_scores_with_another_label_are_changes_not_regressions():
    old = report([result("m-1", "Uses the cited loss.", Label.MISMATCHED, 0.25)])
    new = report([result("m-1", "Uses the cited loss.", Label.MISATTRIBUTED, 0.25)])
    d = diff_reports(old, new)
    assert not d.regressions and not d.fixes and d.changed[0].label_after == Label.MISATTRIBUTED


def test_a_held_finding_is_a_finding_a_regression_when_it_appears_and_a_fix_when_it_goes(tmp_path):
    aligned = result("num-001", "The learning rate is 0.01.", Label.ALIGNED, 1.0)
    held = result("num-001", "The learning rate is 0.01.", Label.UNDECIDED, None).model_copy(
        update={"held_label": Label.MISMATCHED, "rule": "NUM005"})
    undecided = result("num-001", "The learning rate is 0.01.", Label.UNDECIDED, None)
    appeared = diff_reports(report([aligned]), report([held], commit="2" * 40))
    assert [(c.label_before, c.label_after) for c in appeared.regressions] == [(Label.ALIGNED, Label.UNDECIDED)]
    gone = diff_reports(report([held]), report([aligned], commit="2" * 40))
    assert [c.old_id for c in gone.fixes] == ["num-001"]
    # An undecided unit without a finding is no regression; saved as JSON and read back, the held label stays.
    assert diff_reports(report([aligned]), report([undecided], commit="2" * 40)).regressions == []
    (tmp_path / "a.json").write_text(report([aligned]).model_dump_json(), encoding="utf-8")
    (tmp_path / "b.json").write_text(report([held], commit="2" * 40).model_dump_json(), encoding="utf-8")
    assert len(diff_reports(tmp_path / "a.json", tmp_path / "b.json").regressions) == 1
