import json

from sa_align.diff import DIFF_SCHEMA_VERSION, diff_reports, render_diff, write_diff
from sa_align.diff.render import MAX_COMMENT_CHARS, MAX_ROWS
from sa_align.models import Label

from tests.diff.conftest import report, result


def test_markdown_names_each_change_and_folds_the_rest(old_new):
    md = render_diff(diff_reports(*old_new), "md")
    assert "Mean score **" in md and "1 regressions" in md
    assert "### Regressions (1)" in md and "aligned → mismatched" in md and "`config.yaml:4`" in md
    assert "### Fixes (1)" in md
    assert "<details><summary>Added units (1)</summary>" in md
    assert "<details><summary>Evidence moved (1)</summary>" in md


def test_markdown_escapes_untrusted_claims_and_fits_a_pull_request_comment():
    hostile = "Rate | is <script>alert(1)</script> `x` " + "word " * 60
    old = report([result(f"n-{i}", f"{hostile} {i}", Label.ALIGNED, 1.0) for i in range(400)])
    new = report([result(f"n-{i}", f"{hostile} {i}", Label.MISSING, 0.0) for i in range(400)])
    md = render_diff(diff_reports(old, new), "md")
    assert len(md) <= MAX_COMMENT_CHARS + 200
    assert f"…and {400 - MAX_ROWS} more" in md
    assert "Rate \\| is" in md  # a pipe in a claim cannot break the table


def test_json_carries_its_own_schema_version_and_round_trips(tmp_path, old_new):
    paths = write_diff(diff_reports(*old_new), tmp_path, ["json", "md", "html"])
    data = json.loads((tmp_path / "diff.json").read_text(encoding="utf-8"))
    assert data["schema_version"] == DIFF_SCHEMA_VERSION
    assert data["regressions"][0]["label_after"] == "mismatched"
    assert sorted(p.name for p in paths) == ["diff.html", "diff.json", "diff.md"]


def test_html_uses_the_report_stylesheet_and_escapes_text():
    old = report([result("n-1", "<img src=x onerror=alert(1)>", Label.ALIGNED, 1.0)])
    new = report([result("n-1", "<img src=x onerror=alert(1)>", Label.STUBBED, 0.0)])
    page = render_diff(diff_reports(old, new), "html")
    assert "--aligned:#2e7d32" in page  # the report's own CSS, inlined
    assert "<img src=x" not in page and "&lt;img src=x" in page
    assert "<h2>Regressions (1)</h2>" in page
    assert "<link" not in page and "<script" not in page  # self-contained, nothing fetched
