from sa_align.diff.match import match_units
from sa_align.models import Label

from tests.diff.conftest import result


def test_ids_pair_only_when_claims_match_and_shifted_units_pair_by_quote(old_new):
    old, new = old_new
    m = match_units(old.results, new.results)
    pairs = {(a.unit.id, b.unit.id, rule) for a, b, rule in m.pairs}
    # num-001 names another claim in the new report: not paired by id; its claim moved to num-002.
    assert ("num-001", "num-002", "quote") in pairs
    assert ("num-002", "num-003", "quote") in pairs
    assert ("num-003", "num-004", "quote") in pairs
    assert ("meth-001", "meth-001", "id") in pairs
    assert [r.unit.id for r in m.new_only] == ["num-001"]
    assert [r.unit.id for r in m.old_only] == ["meth-003"]


def test_claim_text_pairs_when_quotes_differ_and_each_unit_pairs_once():
    old = [result("a-1", "Dropout is 0.1.", Label.ALIGNED, 1.0, quote="dropout of 0.1"),
           result("a-2", "Dropout is 0.1.", Label.ALIGNED, 1.0, quote="")]
    new = [result("b-1", "dropout  IS 0.1.", Label.MISSING, 0.0, quote="a rewritten sentence")]
    m = match_units(old, new)
    assert [(a.unit.id, b.unit.id, rule) for a, b, rule in m.pairs] == [("a-1", "b-1", "claim")]
    assert [r.unit.id for r in m.old_only] == ["a-2"]
