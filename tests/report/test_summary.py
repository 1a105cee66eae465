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


def test_summary_counts_what_a_judge_would_decide_and_the_calls_it_takes(sample_report):
    from sa_align.report import summarize

    undecided = sample_report.results[4]
    assert summarize(sample_report.results).decidable_by_llm == 0
    undecided.next_step, undecided.next_step_calls = "`--judge MODEL` would decide it: 1 call per model sample.", 3
    sample_report.results[0].next_step_calls = 5  # a decided unit never counts
    s = summarize(sample_report.results, has_code=False)
    assert (s.decidable_by_llm, s.llm_calls_to_decide, s.has_code) == (1, 3, False)
