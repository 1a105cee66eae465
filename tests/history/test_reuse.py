from sa_align.history.reuse import VerdictMemo, candidates_fingerprint
from sa_align.index import build_index
from sa_align.models import Candidate, CodeSpan, Label, Unit, UnitResult


def _index(root, text):
    root.mkdir(exist_ok=True)
    (root / "train.py").write_text(text, encoding="utf-8")
    return build_index(root)


def _cands():
    return [Candidate(span=CodeSpan(path="train.py", start_line=1, end_line=2, symbol="train"), score=1.0)]


def test_verdicts_are_kept_only_while_candidate_and_evidence_code_is_byte_identical(tmp_path):
    base = "def train():\n    lr = 0.01\n\n\ndef other():\n    return 1\n"
    a = _index(tmp_path / "a", base)
    unit = Unit(id="num-001", kind="numerical", claim="The learning rate is 0.01.", quote="lr 0.01")
    result = UnitResult(unit=unit, label=Label.ALIGNED, score=1.0,
                        evidence=[CodeSpan(path="train.py", start_line=2, end_line=2)])
    memo = VerdictMemo()
    memo.remember([result], {"num-001": candidates_fingerprint(_cands(), a)}, a)
    same = _index(tmp_path / "b", base.replace("return 1", "return 2"))  # outside the candidate
    assert memo.reusable("num-001", candidates_fingerprint(_cands(), same), same) is result
    changed = _index(tmp_path / "c", base.replace("0.01", "0.02"))
    assert memo.reusable("num-001", candidates_fingerprint(_cands(), changed), changed) is None
    assert memo.reusable("num-002", candidates_fingerprint(_cands(), same), same) is None
    memo.clear()
    assert memo.reusable("num-001", candidates_fingerprint(_cands(), same), same) is None
