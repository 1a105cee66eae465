"""Protocol units: datasets, splits, metrics and baselines a sentence says the evaluation uses.

A named entity counts only when its sentence also carries a cue of its category
("evaluate on", "report", "compare against"); a sentence that reports results keeps
only the categories in `results_ok` (what was compared, on what data).
"""

from __future__ import annotations

from sa_align.aliases import Mention, entity_aliases, find_entities, inside_longer_name
from sa_align.extract.text import is_result_sentence
import re
from functools import lru_cache

from sa_align.extract.text import Sentence, cue_regex, cues, word_regex

_ORDER = ("dataset", "split", "metric", "method")


@lru_cache(maxsize=1)
def _any_cue() -> re.Pattern[str]:
    table = cues().get("protocol", {})
    return word_regex(tuple(w for c in _ORDER for w in table.get(c, [])))


def protocol_entities(text: str, sent: Sentence) -> list[Mention]:
    """Entity mentions of `sent` that state part of the protocol."""
    if not _any_cue().search(sent.text):
        return []
    mentions = [m for m in find_entities(text, sent.start, sent.end) if not inside_longer_name(text, m)]
    if not mentions:
        return []
    results = is_result_sentence(sent.text)
    results_ok = set(cues().get("protocol", {}).get("results_ok", []))
    kept = []
    for m in mentions:
        category = m.target[0]
        if results and category not in results_ok:
            continue
        if cue_regex("protocol", category).search(sent.text):
            kept.append(m)
    return kept


def protocol_claim(mentions: list[Mention]) -> str:
    """`Datasets: CIFAR-10; metrics: accuracy.` from the kept mentions."""
    by_cat: dict[str, list[str]] = {}
    for m in mentions:
        by_cat.setdefault(m.target[0], [])
        if m.target[1] not in by_cat[m.target[0]]:
            by_cat[m.target[0]].append(m.target[1])
    names = {"dataset": "datasets", "split": "splits", "metric": "metrics", "method": "methods/baselines"}
    parts = [f"{names[c]}: {', '.join(by_cat[c])}" for c in _ORDER if c in by_cat]
    return "The evaluation protocol uses " + "; ".join(parts) + "."


def protocol_hints(mentions: list[Mention], limit: int = 12) -> list[str]:
    """Spellings code is likely to use for the entities (lowercase identifiers first)."""
    out: list[str] = []
    for m in mentions:
        aliases = entity_aliases(m.target[1])
        out.extend(a for a in aliases if " " not in a)
    return list(dict.fromkeys(out))[:limit]
