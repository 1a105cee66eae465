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


def test_the_console_lines_count_commits_and_name_each_change(example_history, offline_config):
    from sa_align.config import RulesConfig
    from sa_align.history import summary_lines

    config = offline_config.model_copy(update={"rules": RulesConfig(preview=True)})  # the rules decide, none held
    h = audit_history(PAPER, example_history, units=UNITS, config=config)
    lines = summary_lines(h)
    assert lines[0].startswith(f"4 commits audited, {len(h.changes)} label changes; files reused ")
    assert len(lines) == 1 + len(h.changes) and any(c.unit_id == "num-004" for c in h.changes)
    first = h.changes[0]
    assert lines[1] == (f"  {first.unit_id}: {first.label_before.value} -> {first.label_after.value} "
                        f"in {first.commit.sha[:12]} {first.commit.subject}")
