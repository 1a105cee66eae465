def test_summary_counts_and_mean_skip_undecided(sample_report):
    s = sample_report.summary
    assert s.n_units == 5 and s.decided == 4
    assert s.counts["aligned"] == 1 and s.counts["undecided"] == 1 and s.counts["misattributed"] == 0
    assert s.by_kind == {"numerical": {"aligned": 1, "mismatched": 1}, "method": {"missing": 1, "stubbed": 1, "undecided": 1}}
    assert s.mean_score == (1.0 + 0.25 + 0 + 0) / 4
    assert s.decided_without_llm == 0.8
    assert s.undecided_ids == ["meth-003"]


def test_summary_counts_units_with_judge_errors(sample_report):
    from sa_align.report import summarize

    assert sample_report.summary.judge_errors == 0
    sample_report.results[2].error = "stub: RecursionError"
    sample_report.results[4].error = "pipeline: boom"
    assert summarize(sample_report.results).judge_errors == 2
