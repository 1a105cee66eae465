import json

from sa_align.history import HISTORY_SCHEMA_VERSION, audit_history, render_history, write_history

from tests.history.conftest import PAPER, UNITS


def test_history_json_and_html_with_an_inline_chart(example_history, offline_config, tmp_path):
    h = audit_history(PAPER, example_history, units=UNITS, config=offline_config)
    paths = write_history(h, tmp_path / "out")
    data = json.loads((tmp_path / "out" / "history.json").read_text(encoding="utf-8"))
    assert data["schema_version"] == HISTORY_SCHEMA_VERSION and len(data["points"]) == 4
    assert {c["unit_id"] for c in data["changes"]} >= {"num-004", "meth-002"}
    page = render_history(h, "html")
    assert '<svg id="timeline-chart"' in page and "<polyline" in page and page.count("<circle") == 4
    assert "Scale the learning rate for 8 GPUs" in page and "lr: 0.02" in page
    assert "<script" not in page and "<link" not in page  # no network assets
    assert sorted(p.name for p in paths) == ["history.html", "history.json"]


def test_untrusted_commit_subjects_are_escaped(example_history, offline_config):
    from tests.history.conftest import git

    git(example_history, "commit", "-q", "--allow-empty", "-m", "<img src=x onerror=alert(1)>")
    h = audit_history(PAPER, example_history, revs="HEAD~1..HEAD", units=UNITS, config=offline_config)
    page = render_history(h, "html")
    assert "<img src=x" not in page and "&lt;img src=x" in page
