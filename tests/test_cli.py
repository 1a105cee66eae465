"""The `sa-align` command: exit codes, files written, re-rendering."""

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from sa_align.cli import app
from tests.conftest import EXAMPLES

EX = EXAMPLES / "focal_loss"
runner = CliRunner()


def test_version_and_help():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.startswith("sa-align ")
    help_text = subprocess.run([sys.executable, "-m", "sa_align.cli", "--help"], capture_output=True, text=True).stdout
    for command in ("evaluate", "extract", "index", "report", "bench", "diff", "history", "rules"):
        assert command in help_text


def test_evaluate_writes_reports_and_gates(tmp_path):
    args = ["evaluate", str(EX / "paper.md"), str(EX / "repo"), "--units", str(EX / "units.yaml"), "--out", str(tmp_path), "-q", "--no-embeddings"]
    ok = runner.invoke(app, args)
    assert ok.exit_code == 0, ok.output
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["schema_version"] == "1.4" and len(data["results"]) == 22
    assert "# Drift report" in (tmp_path / "report.md").read_text()
    # The gate reads the headline (the expected score, 0.34 here), not the mean over decided units,
    # which is 1.0 once the preview rules' findings are held back.
    assert data["summary"]["mean_score"] == 1.0 and data["summary"]["expected_score"] < 0.5
    below = runner.invoke(app, args + ["--fail-under", "0.5"])
    assert below.exit_code == 1 and "expected score" in below.output
    above = runner.invoke(app, args + ["--fail-under", "0.2"])
    assert above.exit_code == 0


def test_bad_input_exits_2(tmp_path):
    missing = runner.invoke(app, ["evaluate", str(tmp_path / "none.md"), str(EX / "repo")])
    assert missing.exit_code == 2 and "error" in missing.output
    bad_format = runner.invoke(app, ["evaluate", str(EX / "paper.md"), str(EX / "repo"), "--format", "docx"])
    assert bad_format.exit_code == 2


def test_calibration_switches_and_a_bad_model_file(tmp_path):
    base = ["evaluate", str(EX / "paper.md"), str(EX / "repo"), "-u", str(EX / "units.yaml"), "-q", "-f", "json", "--no-embeddings"]
    on = runner.invoke(app, base + ["-o", str(tmp_path / "on")])
    assert on.exit_code == 0, on.output
    assert json.loads((tmp_path / "on" / "report.json").read_text())["calibration"]["model"] == "sabench.json"
    off = runner.invoke(app, base + ["-o", str(tmp_path / "off"), "--no-calibration"])
    assert off.exit_code == 0, off.output
    assert json.loads((tmp_path / "off" / "report.json").read_text())["calibration"]["uncalibrated"] == "calibration is switched off"
    bad = tmp_path / "model.json"
    bad.write_text("not json")
    refused = runner.invoke(app, base + ["-o", str(tmp_path / "bad"), "--calibration-model", str(bad)])
    assert refused.exit_code == 2 and "model.json is unreadable or corrupt" in refused.output
    allowed = runner.invoke(app, base + ["-o", str(tmp_path / "fallback"), "--calibration-model", str(bad), "--allow-uncalibrated"])
    assert allowed.exit_code == 0
    data = json.loads((tmp_path / "fallback" / "report.json").read_text())
    assert "unreadable or corrupt" in data["calibration"]["uncalibrated"]


def test_training_needs_sabench(tmp_path):
    result = runner.invoke(app, ["bench", str(tmp_path), "--train", str(tmp_path / "out")])
    assert result.exit_code == 2 and "--train needs --sabench" in result.output


def test_report_rerenders_a_saved_report(tmp_path):
    runner.invoke(app, ["evaluate", str(EX / "paper.md"), str(EX / "repo"), "-u", str(EX / "units.yaml"), "-o", str(tmp_path), "-q", "-f", "json", "--no-embeddings"])
    out = tmp_path / "again"
    result = runner.invoke(app, ["report", str(tmp_path / "report.json"), "-f", "md", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "## Summary" in (out / "report.md").read_text()


def test_extract_writes_an_editable_units_file(tmp_path):
    target = tmp_path / "units.yaml"
    result = runner.invoke(app, ["extract", str(EX / "paper.md"), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert "units:" in target.read_text()


def test_index_summary(tmp_path):
    cache = ["--cache-dir", str(tmp_path / "cache")]
    result = runner.invoke(app, ["index", str(EX / "repo"), "--json", *cache])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["files"]["python"] >= 6 and summary["entry_points"]
    assert summary["cache"].endswith("files parsed") and (tmp_path / "cache" / "index").is_dir()
    again = json.loads(runner.invoke(app, ["index", str(EX / "repo"), "--json", *cache]).stdout)
    assert again["cache"] == "hit" and again["stubs"] == summary["stubs"]


def test_index_text_output_is_bounded(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "stubs.py").write_text("".join(f"def step_{i}():\n    raise NotImplementedError\n\n" for i in range(9)))
    result = runner.invoke(app, ["index", str(repo), "--no-cache"])
    assert result.exit_code == 0, result.output
    [stubs] = [line for line in result.stdout.splitlines() if line.startswith("stubs:")]
    assert stubs.startswith("stubs: 9: stubs.py::step_0 (not_implemented)") and stubs.endswith("; 4 more with --json")
    assert stubs.count("stubs.py::") == 5 and "cache: 1 files parsed" in result.stdout


def test_batch_input_problems_exit_2_before_any_work(tmp_path):
    import socket

    import pytest

    manifest = tmp_path / "m.jsonl"
    manifest.write_text(json.dumps({"id": "a", "paper": str(EX / "paper.md"), "repo": str(tmp_path / "gone")}) + "\n")
    result = runner.invoke(app, ["batch", str(manifest), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "gone' is not a folder" in result.output
    pytest.importorskip("ray")
    manifest.write_text(json.dumps({"id": "a", "paper": str(EX / "paper.md"), "repo": str(EX / "repo")}) + "\n")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = runner.invoke(app, ["batch", str(manifest), "--executor", "ray", "--address", f"127.0.0.1:{port}",
                                 "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and f"no Ray cluster answers at '127.0.0.1:{port}'" in result.output
    assert not (tmp_path / "out").exists()


def test_bench_sabench_runs_named_runs_and_refuses_unknown_papers(tmp_path):
    from tests.bench.sabench.conftest import FIXTURE

    args = ["bench", str(FIXTURE), "--sabench", "--papers", "tiny-sgd", "--setups", "alpha_basic",
            "--no-embeddings", "--out", str(tmp_path)]
    ok = runner.invoke(app, args)
    assert ok.exit_code == 0, ok.output
    data = json.loads((tmp_path / "sabench.json").read_text())
    assert data["papers"] == ["tiny-sgd"] and data["metrics"]["overall"]["claims"] == 5
    assert "kappa" in ok.output
    bad = runner.invoke(app, ["bench", str(FIXTURE), "--sabench", "--papers", "no-such-paper"])
    assert bad.exit_code == 2 and "unknown SA-Bench papers" in bad.output


def _example_history(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_history", EX / "make_history.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build(tmp_path / "focal_repo")


def test_history_then_diff_of_two_commits_with_the_regression_gate(tmp_path):
    repo = _example_history(tmp_path)
    out = tmp_path / "hist"
    h = runner.invoke(app, ["history", str(EX / "paper.md"), str(repo), "--units", str(EX / "units.yaml"),
                            "--out", str(out), "--no-embeddings", "-q", "--cache-dir", str(tmp_path / "cache")])
    assert h.exit_code == 0, h.output
    data = json.loads((out / "history.json").read_text())
    assert len(data["points"]) == 4 and (out / "history.html").is_file()
    first, last = (out / "commits" / p["commit"]["sha"][:12] / "report.json" for p in (data["points"][0], data["points"][-1]))
    shown = runner.invoke(app, ["diff", str(first), str(last)])
    assert shown.exit_code == 0 and "### Regressions" in shown.stdout and "`num-004`" in shown.stdout
    gated = runner.invoke(app, ["diff", str(first), str(last), "--fail-on", "regression", "--out", str(tmp_path / "d"),
                                "--format", "md,json,html"])
    assert gated.exit_code == 3
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == ["diff.html", "diff.json", "diff.md"]
    assert runner.invoke(app, ["diff", str(last), str(last), "--fail-on", "regression"]).exit_code == 0
    other = json.loads(last.read_text())
    other["paper"]["title"] = "Another paper"
    (tmp_path / "other.json").write_text(json.dumps(other))
    refused = runner.invoke(app, ["diff", str(first), str(tmp_path / "other.json")])
    assert refused.exit_code == 2 and "different papers" in refused.output
    assert runner.invoke(app, ["diff", str(first), str(tmp_path / "other.json"), "--force"]).exit_code == 0


def test_history_bad_input_exits_2(tmp_path):
    plain = runner.invoke(app, ["history", str(EX / "paper.md"), str(EX / "repo"), "--units", str(EX / "units.yaml")])
    assert plain.exit_code == 2 and "not a git repository" in plain.output
    assert runner.invoke(app, ["diff", str(tmp_path / "a.json"), str(tmp_path / "b.json")]).exit_code == 2
    assert runner.invoke(app, ["diff", "a", "b", "--fail-on", "fixes"]).exit_code == 2


def test_index_as_a_whole_process_prints_everything_before_it_ends(tmp_path):
    # The cold process builds and caches the summary; the warm one reads it back, the same apart from `cache`.
    run = [sys.executable, "-m", "sa_align.cli", "index", str(EX / "repo"), "--json", "--cache-dir", str(tmp_path)]
    cold = subprocess.run(run, capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1])
    warm = subprocess.run(run, capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1])
    assert cold.returncode == 0 and warm.returncode == 0, cold.stderr + warm.stderr
    first, again = json.loads(cold.stdout), json.loads(warm.stdout)
    assert first["cache"].endswith("files parsed") and again["cache"] == "hit"
    assert {k: v for k, v in first.items() if k != "cache"} == {k: v for k, v in again.items() if k != "cache"}


def test_evaluate_prints_the_headline_its_definitions_and_what_would_decide_the_rest(tmp_path):
    result = runner.invoke(app, ["evaluate", str(EX / "paper.md"), str(EX / "repo"), "-o", str(tmp_path), "--no-embeddings"])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "report.json").read_text())
    s = data["summary"]
    lines = result.stdout.splitlines()
    assert lines[1] == (f"Expected score {s['expected_score']:.3f} over all {s['n_units']} units; "
                        f"mean score {s['mean_score']:.3f} over the {s['decided']} decided units")
    assert lines[2].strip().startswith("Expected score: the calibrated judge's expected SA-Bench level")
    assert lines[3].strip().startswith("Mean score: the SA-Bench level the judges gave each decided unit")
    n, open_ = s["counts"]["undecided"], s["decidable_by_llm"]  # held findings are a person's to check
    assert 0 < open_ < n
    assert lines[4] == f"Undecided: {n} units; `--judge MODEL` would decide {open_} of them in {open_} model calls (1 per model sample)."


def test_a_repository_without_code_warns_and_exits_2_unless_allowed(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    args = ["evaluate", str(EX / "paper.md"), str(empty), "-f", "json", "--no-embeddings"]
    refused = runner.invoke(app, args + ["-o", str(tmp_path / "a")])
    assert refused.exit_code == 2
    assert "warning: The repository holds no code or configuration file" in refused.stderr
    data = json.loads((tmp_path / "a" / "report.json").read_text())  # the report is written all the same
    assert [f["kind"] for f in data["flags"]] == ["empty-repo"] and not data["summary"]["has_code"]
    allowed = runner.invoke(app, args + ["-o", str(tmp_path / "b"), "--allow-empty", "-q"])
    assert allowed.exit_code == 0 and "warning:" in allowed.stderr


def test_report_renders_next_to_the_report_unless_out_is_given(tmp_path, monkeypatch):
    runs = tmp_path / "runs"
    ok = runner.invoke(app, ["evaluate", str(EX / "paper.md"), str(EX / "repo"), "-u", str(EX / "units.yaml"),
                             "-o", str(runs), "-f", "json", "-q", "--no-embeddings"])
    assert ok.exit_code == 0, ok.output
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    beside = runner.invoke(app, ["report", str(runs / "report.json"), "-f", "md,html"])
    assert beside.exit_code == 0, beside.output
    assert (runs / "report.md").is_file() and (runs / "report.html").is_file() and not list(elsewhere.iterdir())
    out = runner.invoke(app, ["report", str(runs / "report.json"), "-f", "md", "-o", str(tmp_path / "there")])
    assert out.exit_code == 0 and (tmp_path / "there" / "report.md").is_file()


def _labels(out: Path) -> dict[str, tuple[str, str | None, str | None]]:
    data = json.loads((out / "report.json").read_text())
    return {r["unit"]["id"]: (r["label"], r["rule"], r["held_label"]) for r in data["results"]}


def test_rule_selection_on_evaluate_changes_labels_and_is_recorded(tmp_path):
    base = ["evaluate", str(EX / "paper.md"), str(EX / "repo"), "-u", str(EX / "units.yaml"), "-q", "-f", "json", "--no-embeddings"]
    default = runner.invoke(app, base + ["-o", str(tmp_path / "default")])
    assert default.exit_code == 0, default.output
    before = _labels(tmp_path / "default")
    assert before["num-002"] == ("aligned", "NUM001", None)
    from sa_align.rules.registry import rules

    # A preview rule's finding is held back; a stable rule's stands.
    held = rules()["NUM005"].status == "preview"
    assert before["num-004"] == (("undecided", "NUM005", "mismatched") if held else ("mismatched", "NUM005", None))
    ignored = runner.invoke(app, base + ["-o", str(tmp_path / "ignored"), "--ignore", "NUM"])
    assert ignored.exit_code == 0, ignored.output
    after = _labels(tmp_path / "ignored")
    assert after["num-002"] != before["num-002"]  # the numeric judge's rules no longer decide it
    assert not any(rule and rule.startswith("NUM") for _label, rule, _held in after.values())
    report = json.loads((tmp_path / "ignored" / "report.json").read_text())
    assert report["config"]["rules"] == {"select": None, "ignore": ["NUM"], "preview": False}
    preview = runner.invoke(app, base + ["-o", str(tmp_path / "preview"), "--preview", "--select", "NUM,STB", "--ignore", "STB007"])
    assert preview.exit_code == 0, preview.output
    decided = _labels(tmp_path / "preview")
    assert decided["num-004"] == ("mismatched", "NUM005", None) and decided["meth-002"] == ("stubbed", "STB001", None)
    assert decided["meth-003"][1] != "STB007"


def test_an_unknown_rule_code_is_a_usage_error_before_any_work(tmp_path):
    args = [str(EX / "paper.md"), str(EX / "repo"), "-u", str(EX / "units.yaml"), "-o", str(tmp_path / "out")]
    refused = runner.invoke(app, ["evaluate", *args, "--ignore", "NUM,XYZ"])
    assert refused.exit_code == 2 and "no rule code starts with 'XYZ'" in refused.stderr
    assert not (tmp_path / "out").exists()
    manifest = tmp_path / "m.jsonl"
    manifest.write_text(json.dumps({"id": "a", "paper": str(EX / "paper.md"), "repo": str(EX / "repo")}) + "\n")
    for command in (["batch", str(manifest), "-o", str(tmp_path / "b")], ["bench", str(tmp_path)],
                    ["history", str(EX / "paper.md"), str(EX / "repo"), "-o", str(tmp_path / "h")]):
        result = runner.invoke(app, [*command, "--select", "QQQ"])
        assert result.exit_code == 2 and "no rule code starts with 'QQQ'" in result.stderr, command
    assert not (tmp_path / "b").exists() and not (tmp_path / "h").exists()
