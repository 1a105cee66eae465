"""Reasons kept within a budget: whole reasons chosen, a shortened one cut at a boundary, never mid-word."""

from sa_align.prose import ELLIPSIS, choose_reasons, shorten

# Reasons as the judges write them (the method unit of the focal-loss example).
STUB = "`ClassificationHead.__init__` is neither a placeholder nor unreachable"
MISSING = "a hinted identifier occurs in the code"
ATTRIBUTION = "no known variant/prior-method pair applies; left to the LLM judges"
VALUES = "values the claim states occur in the code (256, 3)"


def _whole_words(cut: str, source: str) -> bool:
    """Every word of `cut` (its ellipsis removed) is a whole word of `source`."""
    words = source.split()
    return all(w in words or w.rstrip(",;:") in [x.rstrip(",;:") for x in words] for w in cut.rstrip(ELLIPSIS).split())


def test_a_text_that_fits_is_kept_as_written():
    assert shorten(STUB, 200) == STUB


def test_a_long_text_is_cut_at_its_last_sentence_end_first():
    text = "The value is set in config.yaml. It is read by train.py, which passes it to the optimizer and logs it."
    assert shorten(text, 60) == "The value is set in config.yaml."


def test_without_a_sentence_end_it_is_cut_at_a_clause_and_marked():
    joined = "; ".join([STUB, MISSING, ATTRIBUTION, VALUES])
    cut = shorten(joined, 120)
    assert cut == f"{STUB}; {MISSING}{ELLIPSIS}" and len(cut) <= 120


def test_without_a_clause_it_is_cut_at_a_word_and_never_inside_a_quoted_name():
    text = "no code or config sets or names `learning_rate_warmup_steps_per_epoch` though the subject occurs"
    for budget in range(20, len(text)):
        cut = shorten(text, budget)
        assert len(cut) <= budget and cut.endswith(ELLIPSIS), budget
        assert _whole_words(cut, text), (budget, cut)
        assert cut.count("`") % 2 == 0 or cut.startswith("no code or config sets or names…"), (budget, cut)


def test_one_word_longer_than_the_budget_is_the_only_thing_cut_inside():
    assert shorten("a" * 50, 10) == "a" * 9 + ELLIPSIS


def test_whole_reasons_are_kept_in_order_and_deduplicated():
    assert choose_reasons([STUB, MISSING, "", STUB, VALUES], 500) == f"{STUB}; {MISSING}; {VALUES}"


def test_reasons_past_the_budget_are_counted_not_sliced():
    reasons = [STUB, MISSING, ATTRIBUTION, VALUES]
    chosen = choose_reasons(reasons, 160)
    assert len(chosen) <= 160
    assert chosen.startswith(f"{STUB}; {MISSING}")
    assert chosen.endswith("more in the verdicts)")
    for budget in range(80, 260, 7):
        text = choose_reasons(reasons, budget)
        assert len(text) <= budget, (budget, text)
        head = text.split(" (and ")[0]
        assert _whole_words(head, "; ".join(reasons)), (budget, text)
