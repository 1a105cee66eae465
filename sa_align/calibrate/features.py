"""Features of one (unit, repository) pair for the calibrated judge, from what the pipeline already knows.

Every feature is a number; a feature that cannot be computed for a unit (no
candidates, no stated value, no embedding model) is left out of the mapping and
the model treats it as absent. Never the claim's text or anything that names a
paper: the model must weigh evidence, not recognise claims.

The names and their meaning are versioned together (`FEATURE_VERSION`): a model
file records both, and a model whose feature set differs from `feature_names()`
is refused. Change a feature's meaning, add or drop one, or change what a judge
votes on, and bump the version (then retrain).

Families:
- `unit.*`: the unit's shape (kind, parameters, entities, steps, words, stated values);
- `values.*`, `words.*`: how much of what the claim states occurs in the code at all;
- `cand.*`: retrieval (scores of the top candidates, how many signals agree, embedding
  similarity, whether the best candidate is a stub);
- `repo.*`: the repository's size and share of placeholders;
- `judge.<name>.*`: each static judge's vote (confidence for `aligned`, for a failure,
  and whether it is certain) and its lean when it abstained (`Verdict.lean`);
- `hand.*`: the uncalibrated aggregate of those votes.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from typing import TYPE_CHECKING, Sequence

from sa_align.index.memo import per_index
from sa_align.index.walk import is_test_path
from sa_align.judges.evidence.tables import candidate_symbol, code_roots, in_code, number_sites, stubbed_symbols
from sa_align.judges.evidence.words import distinctive_words, root
from sa_align.judges.routing import judge_names
from sa_align.judges.scope import stated_quantities
from sa_align.models import Attribution, Candidate, Label, Unit, UnitKind, UnitResult, Verdict
from sa_align.retrieve.params import param_index
from sa_align.retrieve.text import tokenize

if TYPE_CHECKING:
    from sa_align.index.model import RepoIndex

FEATURE_VERSION = "2"
"""Bump with any change to the names below or to what they measure."""


_UNIT = ("unit.kind_numerical", "unit.kind_method", "unit.kind_protocol", "unit.kind_ordering", "unit.params",
         "unit.entities", "unit.steps", "unit.words", "unit.stated_values", "unit.hints", "unit.cited")
_EVIDENCE = ("values.found_share", "values.absent", "values.colocated_share", "values.sites", "params.set_share",
             "words.found_share", "words.count")
_WINDOW = 30
"""Lines within which stated values count as set together (a config block, an optimizer call)."""
_ANCHORS = 200
"""Values written in more places than this start no window of their own."""
_CANDIDATES = ("cand.count", "cand.top1", "cand.top2", "cand.gap", "cand.top1_signals", "cand.top1_param",
               "cand.embedding", "cand.same_file", "cand.top1_lines", "cand.top1_stub", "cand.words_top1",
               "cand.words_top3", "cand.values_top3", "cand.bm25_terms")
_VOTE_PARTS = ("aligned", "failure", "certain", "lean_aligned", "lean_failure")
_REPO = ("repo.python_lines", "repo.files", "repo.symbols", "repo.stub_share", "repo.empty")
_HAND = ("hand.aligned", "hand.failure", "hand.undecided", "hand.score", "hand.confidence", "hand.votes")
_EMBEDDING = re.compile(r"^embedding:(-?\d+(?:\.\d+)?)$")
_FAILURES = (Label.MISMATCHED, Label.STUBBED, Label.MISSING, Label.MISATTRIBUTED)


def voters() -> tuple[str, ...]:
    """The static judges whose votes are features: every judge (`judges.routing.judge_names`), in name
    order so that the features' order does not hang on how the list is written."""
    return tuple(sorted(judge_names()))


def feature_names() -> list[str]:
    """Every feature, in the order a model's coefficients are stored."""
    judges = [f"judge.{j}.{part}" for j in voters() for part in _VOTE_PARTS]
    return [*_UNIT, *_EVIDENCE, *_CANDIDATES, *_REPO, *judges, *_HAND]


def unit_features(unit: Unit, verdicts: Sequence[Verdict], candidates: Sequence[Candidate], index: "RepoIndex",
                  hand: UnitResult) -> dict[str, float]:
    """The features of one unit given its static verdicts, its candidates, the index, and `hand`,
    the hand-set aggregate of the same verdicts (`sa_align.judges.aggregate`)."""
    # What the claim states and the words it uses, read once for every family below.
    stated, words = stated_quantities(unit.claim), distinctive_words(unit)
    out: dict[str, float] = {}
    out.update(_unit(unit, stated))
    out.update(_evidence(unit, stated, words, index))
    ranked = without_embedding(candidates)
    out.update(_candidates(ranked, index))
    out.update(_embedding_similarity(candidates))
    out.update(_candidate_text(stated, words, ranked))
    out.update(repo_features(index))
    out.update(_judges(verdicts))
    out.update(_hand(hand))
    return out


def _unit(unit: Unit, stated: list[tuple[float, float]]) -> dict[str, float]:
    out = {f"unit.kind_{k.value}": float(unit.kind == k) for k in UnitKind}
    out.update({
        "unit.params": float(len(unit.params)), "unit.entities": float(len(unit.entities)),
        "unit.steps": float(len(unit.order)), "unit.words": math.log1p(len(unit.claim.split())),
        "unit.stated_values": float(len(stated)),
        "unit.hints": float(bool(unit.hints) and "hints" not in unit.derived),
        "unit.cited": float(unit.attribution == Attribution.CITED),
    })
    return out


def _evidence(unit: Unit, stated: list[tuple[float, float]], words: set[str], index: "RepoIndex") -> dict[str, float]:
    out: dict[str, float] = {}
    if stated:
        found = sum(in_code(index, value, number) for value, number in stated)
        out["values.found_share"] = found / len(stated)
        out["values.absent"] = float(len(stated) - found)
        out.update(_colocation(stated, index))
    if unit.params:
        params = param_index(index)
        out["params.set_share"] = sum(bool(params.sites(p)) for p in unit.params) / len(unit.params)
    out["words.count"] = float(len(words))
    if words:
        out["words.found_share"] = len(words & code_roots(index)) / len(words)
    return out


def _colocation(stated: list[tuple[float, float]], index: "RepoIndex") -> dict[str, float]:
    """How many of the stated values are written near one another outside tests (`values.colocated_share`),
    and how common the found ones are (`values.sites`, mean log count of places): a rare value
    set beside the claim's other values is evidence, a `10` written everywhere is not."""
    sites = number_sites(index)
    places: list[dict[str, list[int]]] = []
    for value, number in dict.fromkeys(stated):
        lines: dict[str, list[int]] = {}
        for path, line in {s for key in {round(value, 12), round(number, 12)} for s in sites.get(key, ())}:
            if not is_test_path(path):
                lines.setdefault(path, []).append(line)
        places.append({path: sorted(ls) for path, ls in lines.items()})
    found = [p for p in places if p]
    out: dict[str, float] = {}
    if found:
        out["values.sites"] = sum(math.log1p(sum(map(len, p.values()))) for p in found) / len(found)
    if len(places) >= 2 and found:
        # The best window starts at some value's site; common values alone would make thousands of anchors.
        rare = [p for p in found if sum(map(len, p.values())) <= _ANCHORS] or found
        anchors = {(path, line) for p in rare for path, ls in p.items() for line in ls}
        out["values.colocated_share"] = max(sum(_near(p.get(path, ()), line) for p in places)
                                            for path, line in anchors) / len(places)
    return out


def _near(lines: Sequence[int], start: int) -> bool:
    """Whether a sorted list of lines has one in [start, start + _WINDOW]."""
    i = bisect_left(lines, start)
    return i < len(lines) and lines[i] <= start + _WINDOW


def without_embedding(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The candidates as the fusion without the embedding signal ranks them, each scored so.

    The model is trained with embeddings off; with them on, an extra signal raises every fused
    score and adds a reason to the top candidates (on 996 development claims the top score rose
    from 5.9 to 8.1 and its signals from 2.5 to 3.5), which the model would read as stronger evidence.
    """
    if all(c.score_without_embedding is None for c in candidates):
        return list(candidates)
    plain = [c.model_copy(update={"score": c.score_without_embedding or 0.0,
                                  "why": [w for w in c.why if not _EMBEDDING.match(w)]}) for c in candidates]
    order = sorted(range(len(plain)), key=lambda i: (-plain[i].score, i))
    return [plain[i] for i in order]


def _candidates(candidates: Sequence[Candidate], index: "RepoIndex") -> dict[str, float]:
    out = {"cand.count": float(len(candidates))}
    if not candidates:
        return out
    top = candidates[0]
    second = candidates[1].score if len(candidates) > 1 else 0.0
    # Fused scores are reciprocal-rank sums of about 0.01-0.1: scaled so a coefficient reads as per 0.01.
    out.update({"cand.top1": top.score * 100, "cand.top2": second * 100, "cand.gap": (top.score - second) * 100,
                "cand.top1_signals": float(len(top.why)),
                "cand.top1_param": float(any(w.startswith(("param:", "value:")) for w in top.why)),
                "cand.same_file": sum(c.span.path == top.span.path for c in candidates[:5]) / min(5, len(candidates)),
                "cand.top1_lines": math.log1p(top.span.end_line - top.span.start_line + 1),
                "cand.top1_stub": float(_is_stub(index, top))})
    return out


def _embedding_similarity(candidates: Sequence[Candidate]) -> dict[str, float]:
    sims = [float(m.group(1)) for c in candidates for w in c.why if (m := _EMBEDDING.match(w))]
    return {"cand.embedding": max(sims)} if sims else {}


def _candidate_text(stated: list[tuple[float, float]], words: set[str], candidates: Sequence[Candidate]) -> dict[str, float]:
    """How much of the claim the best candidates' code itself shows: its words and its stated values."""
    if not candidates:
        return {}
    out: dict[str, float] = {}
    roots = [{root(t) for t in tokenize(c.snippet)} for c in candidates[:3]]
    if words:
        out["cand.words_top1"] = len(words & roots[0]) / len(words)
        out["cand.words_top3"] = len(words & set().union(*roots)) / len(words)
        shared = [len(w.split(":", 1)[1].split(",")) for c in candidates[:3] for w in c.why if w.startswith("bm25:")]
        out["cand.bm25_terms"] = max(shared, default=0) / len(words)
    if stated:
        shown = {round(x, 9) for c in candidates[:3] for pair in stated_quantities(c.snippet) for x in pair}
        out["cand.values_top3"] = sum(round(v, 9) in shown or round(n, 9) in shown for v, n in stated) / len(stated)
    return out


def _is_stub(index: "RepoIndex", cand: Candidate) -> bool:
    sym = candidate_symbol(index, cand)
    return sym is not None and sym.id in stubbed_symbols(index)


def repo_features(index: "RepoIndex") -> dict[str, float]:
    """The repository's size and share of placeholders (the same for every unit of a run)."""
    return dict(per_index(index, "calibrate-repo", _repo))


def _repo(index: "RepoIndex") -> tuple[tuple[str, float], ...]:
    python = sum(f.lines for f in index.files if f.language == "python")
    functions = sum(1 for s in index.symbols if s.kind in ("function", "method"))
    stubbed = len(stubbed_symbols(index))
    return (("repo.python_lines", math.log1p(python)), ("repo.files", math.log1p(len(index.files))),
            ("repo.symbols", math.log1p(len(index.symbols))),
            ("repo.stub_share", stubbed / functions if functions else 0.0), ("repo.empty", float(python == 0)))


def _judges(verdicts: Sequence[Verdict]) -> dict[str, float]:
    names = voters()
    out = {f"judge.{j}.{part}": 0.0 for j in names for part in _VOTE_PARTS}
    for v in verdicts:
        if v.judge not in names:
            continue
        if v.abstained and v.lean is not None:
            key = f"judge.{v.judge}.lean_{'aligned' if v.lean == Label.ALIGNED else 'failure'}"
            out[key] = max(out[key], v.confidence or 0.1)
            continue
        if v.abstained or v.label == Label.UNDECIDED:
            continue
        key = "aligned" if v.label == Label.ALIGNED else "failure"
        out[f"judge.{v.judge}.{key}"] = max(out[f"judge.{v.judge}.{key}"], v.confidence)
        out[f"judge.{v.judge}.certain"] = max(out[f"judge.{v.judge}.certain"], float(v.certain))
    return out


def _hand(result: UnitResult) -> dict[str, float]:
    label = result.label
    out = {"hand.aligned": float(label == Label.ALIGNED), "hand.failure": float(label in _FAILURES),
           "hand.undecided": float(label == Label.UNDECIDED), "hand.confidence": result.confidence,
           "hand.votes": float(sum(1 for v in result.verdicts if not v.abstained))}
    if result.score is not None:
        out["hand.score"] = result.score
    return out
