"""Offline extraction measured against SA-Bench's reviewed claims (development papers only).

Used by `python benchmarks/extract_accuracy.py --sabench PATH`. PATH is a checkout of SA-Bench or
its git directory, read through `sa_align.bench.sabench` (claims from the `<setup>_basic` run's
score file: the distinct claims of a paper are the same across setups; the paper from the file
ending `/paper/paper.md` under the `*_basic` runs). Only the development split is read.

- Numerical recall: every number in a D1 claim other than 0, 1 and 2, and other than a number
  right after a reference word (Table 3, Eq 12, Section 4.2, Appendix B) or a capitalised name
  (Gemini 1.5, RTX 4090) or `et al.` (a citation's year), and other than the bounds of an index range (`[3:6]`), is one gold pair
  `(name phrase, value)`; the name phrase is the claim's words around the number inside the same
  clause (between `,`, `;`, `|`, `(`, `)`), or before the bracket when the number is in a list. A pair is recalled when some extracted unit carries a
  param with an equal value (any element of a list) whose name matches: the alias tables give
  the phrase and the param the same canonical name, or the phrase shares a content word with the
  param's name or surface, or one of its tokens is the same identifier as the param's name or
  surface once case and separators are dropped (`s1=` and `s_1`, `w_f_a=` and `Wfa`).
- D3 entity recall: datasets, metrics and methods (baselines) the alias tables find in D3 claims,
  recalled when an extracted protocol unit lists the same canonical entity.
- Units per paper against SA-Bench's claim count (D1-D4), and units whose quote lies in a part
  of the paper no claim comes from: a table of contents, a reference list, a checklist or a proof
  (judged by the heading above the quote and TOC-shaped lines, independently of the extractor).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from sa_align.aliases import canonical_param, find_entities, find_param_mentions, normalize_key, split_identifier
from sa_align.numbers import find_quantities, values_equal

_REF_BEFORE = re.compile(r"(?:table|tab|eq|eqs|equation|section|sec|appendix|app|fig|figure|§|algorithm|alg|stage|phase|step|line)\.?\s*\(?$", re.I)
_NAME_BEFORE = re.compile(r"\b[A-Z][A-Za-z]+[ -]$")
"""`Gemini 1.5`, `RTX 4090`, `CUDA 12.6`: a version or model number of a named thing, not a setting."""
_CITED_YEAR = re.compile(r"\bet\s+al\.?,?\s*$")
"""`Karras et al. 2022`: the year of a citation, not a setting."""
_TAG = re.compile(r"\([^()]{1,12}\)")
"""`24 (B) / 32 (L)`: short tags between the values of a list, dropped to find the list's name."""
_PARENS = re.compile(r"\([^()]*\)")
_SLICE = re.compile(r"\d\s*:\s*$|^\s*:\s*\d")
"""`[0:3]`, `obs[3:6]`: index ranges of a vector layout, not settings."""
_CLAUSE = re.compile(r"[,;|()\[\]]|\s-\s|:\s")
_STOP = frozenset("the a an of for with and or in on to per by at is are uses use using used set all each every value values num number".split())
_OFF_LIMITS = re.compile(r"\b(?:contents|references|bibliography|checklist|proof)\b", re.I)
_TOC_LINE = re.compile(r"^(?:#+\s*)?(?:\d{1,2}|[A-Z])(?:\.\d{1,2})*\.?\s+[A-Z][a-z].*?(?:(?:\.\s?){3,}\s*|\s)\d{1,3}\s*$")
_ENTITY_KINDS = ("dataset", "metric", "method")
_IDENT_TOKEN = re.compile(r"[^\s=:,;()\[\]{}/|<>~+*]+")


@dataclass
class PaperScore:
    paper: str
    claims: int
    units: int
    pairs: list[tuple[str, float]] = field(default_factory=list)
    recalled: list[tuple[str, float]] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    entities_found: list[str] = field(default_factory=list)
    off_limits: int = 0


def dev_papers() -> tuple[str, ...]:
    """The development split; the other SA-Bench papers are held out and never read here."""
    from sa_align.bench.sabench.dataset import tables

    return tuple(tables().development)


def load(repo: Path, paper: str, setup: str = "claude-sonnet", rev: str = "HEAD") -> tuple[str, dict]:
    """The paper's Markdown and its claims (`{"D1": [claim, ...], ...}`), read with `sa_align.bench.sabench`."""
    from sa_align.bench.sabench.dataset import RunRef, paper_file, read_scores
    from sa_align.bench.sabench.source import open_source

    if paper not in dev_papers():
        raise ValueError(f"{paper} is not in the development split")
    source = open_source(repo, rev)
    claims: dict[str, list[str]] = {}
    for c in read_scores(source, RunRef(setup=f"{setup}_basic", paper=paper)).claims:
        claims.setdefault(c.dimension, []).append(c.claim)
    rel = paper_file(source, paper)
    raw = source.read(rel) if rel else None
    if raw is None:
        raise ValueError(f"no paper.md for {paper} under the *_basic runs")
    return raw.decode("utf-8", errors="replace"), claims


def gold_pairs(claim: str) -> list[tuple[str, float]]:
    """`(name phrase, value)` for each counted number of a D1 claim."""
    out = []
    for start, end, q in find_quantities(claim):
        value = q.scalar()
        before = claim[max(0, start - 14) : start]
        if value in (0, 1, 2) or _REF_BEFORE.search(before) or _NAME_BEFORE.search(before):
            continue
        if _CITED_YEAR.search(before) and q.integral and 1900 <= value <= 2100:
            continue
        if _SLICE.search(claim[max(0, start - 3) : start]) or _SLICE.search(claim[end : end + 3]):
            continue
        raw = _TAG.sub(" ", claim[max(0, start - 80) : start])
        left = _left_name(raw)
        right = _CLAUSE.split(claim[end : end + 40])[0]
        out.append((f"{left} {right}".strip(), value))
    return out


def _left_name(raw: str) -> str:
    """The words naming a number from the text before it: its clause, else the words before an
    unclosed bracket (a list), else the claim's heading before its colon (`Training iterations for
    Experiment C.1 (varying sizes): 2000`)."""
    for text in (raw, _outside_brackets(raw), _PARENS.sub(" ", raw).rstrip(" :=")):
        left = _CLAUSE.split(text)[-1]
        if re.search(r"[^\W\d_]", left):
            return left
    return left


def _outside_brackets(left: str) -> str:
    """The text before an unclosed `[` or `(`: a list's values take the name written before the list."""
    depth = 0
    for i in range(len(left) - 1, -1, -1):
        if left[i] in ")]":
            depth += 1
        elif left[i] in "([":
            if depth == 0:
                return left[:i]
            depth -= 1
    return left


def _words(text: str) -> set[str]:
    return {w.lower() for w in split_identifier(text) if len(w) > 2 and w.lower() not in _STOP}


def _canonical_names(phrase: str) -> set[str]:
    """Canonical names the alias tables give the phrase, its mentions and its word windows."""
    words = re.findall(r"[^\s=:/]+", phrase)  # `batch_size=64/lr=1e-4`: a slash separates settings
    found = {m.target for m in find_param_mentions(phrase)}
    for n in range(1, min(4, len(words)) + 1):
        for i in range(len(words) - n + 1):
            found.add(canonical_param(" ".join(words[i : i + n])))
    return found


def _name_match(phrase: str, name: str, surface: str | None) -> bool:
    if name in _canonical_names(phrase):
        return True
    if _keys(phrase) & {normalize_key(name), normalize_key(surface or "")} - {""}:
        return True  # the same identifier however it is spelled (`s1=` and `s_1`, `w_f_a=` and `Wfa`)
    said, named = _words(phrase), _words(name) | _words(surface or "")
    # An abbreviation is the same word (`init_dim=` and `initial dimension`, `uplift_dim=` and `uplifting`).
    return any(a == b or a.startswith(b) or b.startswith(a) for a in said for b in named)


def _keys(phrase: str) -> set[str]:
    """Identifier-like tokens of the phrase with at least one letter, as lookup keys."""
    return {normalize_key(t) for t in _IDENT_TOKEN.findall(phrase) if re.search("[A-Za-z]", t)}


def recalled(pair: tuple[str, float], params: list) -> bool:
    phrase, value = pair
    for p in params:
        vals = [p.value] if p.value is not None else list(p.values)
        if any(values_equal(v, value) for v in vals) and _name_match(phrase, p.name, p.surface):
            return True
    return False


def is_result(pair: tuple[str, float]) -> bool:
    """Whether a metric names the value (`FID=1.93`, `IS=251.46`): a result, which the extractor
    leaves out by design (results are not units), counted apart so both figures can be read."""
    tail = pair[0].split("=")[0].rstrip(" :")[-24:]  # the words before `=`, when the claim wrote one
    return any(m.target[0] == "metric" and m.end >= len(tail) - 2 for m in find_entities(tail))


def gold_entities(claims: list[str]) -> list[str]:
    found = {m.target[1] for c in claims for m in find_entities(c) if m.target[0] in _ENTITY_KINDS}
    return sorted(found)


def off_limits(paper, unit) -> bool:
    """True when the unit is quoted from a TOC, reference list, checklist or proof (judged independently)."""
    if unit.span is None:
        return False
    titles = [s.title for s in paper.sections if s.start <= unit.span.start < s.end]
    line = paper.text[unit.span.start : unit.span.end].strip().splitlines()
    toc = len(line) == 1 and len(line[0]) < 120 and bool(_TOC_LINE.match(line[0]))
    return toc or any(_OFF_LIMITS.search(t) for t in titles)


def score_paper(name: str, markdown: str, claims: dict, extract) -> PaperScore:
    """Score one paper; `extract(paper) -> [Unit]` is the extractor under test."""
    from sa_align.paper import paper_from_text

    paper = paper_from_text(markdown, format="markdown", title=name)
    units = extract(paper)
    params = [p for u in units for p in u.params]
    s = PaperScore(name, sum(len(v) for v in claims.values()), len(units))
    s.pairs = [p for c in claims.get("D1", []) for p in gold_pairs(c)]
    s.recalled = [p for p in s.pairs if recalled(p, params)]
    s.entities = gold_entities(claims.get("D3", []))
    have = {e for u in units if u.kind == "protocol" for e in u.entities}
    s.entities_found = [e for e in s.entities if e in have]
    s.off_limits = sum(off_limits(paper, u) for u in units)
    return s
