"""The rule behind each label, as every format names it, and the console's summary of it."""

from sa_align.models import Label
from sa_align.report.console import summary_lines
from sa_align.report.rule_codes import by_rule, held_sentence, label_text, rule_name


def test_a_label_is_shown_with_its_rule_and_a_held_finding_with_what_was_held(held_report):
    num_001, num_002, _, _, meth_003 = held_report.results
    assert label_text(num_001) == "aligned (NUM001)"
    assert label_text(num_002) == "undecided (held: mismatched by NUM006, preview)"
    assert label_text(num_002, lambda c: f"<{c}>") == "undecided (held: mismatched by <NUM006>, preview)"
    assert label_text(meth_003) == "undecided"


def test_units_per_rule_most_first_held_findings_apart(held_report):
    held_report.results[0].rule = "STB001"  # two units under one code
    held_report.results[0].label = Label.STUBBED
    assert by_rule(held_report) == [
        ("STB001", "stubbed", 2), ("MIS004", "missing", 1), ("NUM006", "held mismatched", 1), (None, "undecided", 1),
    ]


def test_names_come_from_the_registry_and_an_unknown_code_has_none():
    assert rule_name("NUM005") == "value-differs"
    assert rule_name("XYZ999") == "" and rule_name(None) == ""


def test_the_console_says_what_was_held_and_counts_units_per_rule(held_report):
    lines = summary_lines(held_report)
    assert lines[-2] == held_sentence(held_report)
    assert lines[-2].startswith("Held for review: 1 finding of preview rules (num-002 mismatched by NUM006)")
    assert lines[-1] == "By rule: MIS004 missing 1, NUM001 aligned 1, NUM006 held mismatched 1, STB001 stubbed 1, no rule undecided 1"


def test_many_held_findings_are_named_a_few_and_counted():
    from sa_align.models import DriftReport, PaperIdentity, RepoIdentity, Unit, UnitResult
    from sa_align.report import summarize

    results = [UnitResult(unit=Unit(id=f"u-{i}", kind="method", claim="c"), label="undecided", rule="STB001",
                          held_label="stubbed", needs_review=True) for i in range(7)]
    report = DriftReport(paper=PaperIdentity(title="P"), repo=RepoIdentity(path="r"), results=results,
                         summary=summarize(results))
    sentence = held_sentence(report)
    assert sentence.startswith("Held for review: 7 findings of preview rules (u-0 stubbed by STB001, ")
    assert "u-4 stubbed by STB001 and 2 more)" in sentence and "u-5" not in sentence
