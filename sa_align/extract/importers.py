"""Units from other benchmarks' files: SA-Bench `sau.json` and PaperBench `rubric.json`.

PaperBench `rubric.json`
    A tree of nodes `{id, requirements, weight, sub_tasks, task_category,
    finegrained_task_category}`. Only leaves whose `task_category` is
    "Code Development" become units: they state what the code must contain;
    "Code Execution" and "Result Analysis" leaves are about running it.

    ============  ==============================================================
    Unit field    from
    ============  ==============================================================
    id            node `id` (a suffix is added if the rubric repeats an id)
    claim         node `requirements` (whitespace collapsed)
    kind          guessed from the text: numbers or hyperparameter words ->
                  numerical; before/after/then -> ordering; dataset, metric,
                  baseline, seed -> protocol; otherwise method
    weight        product along the path of weight / sum of sibling weights
                  (PaperBench's share of the total score)
    hints         `finegrained_task_category`, when present
    origin        `paperbench`
    params        left empty: values are parsed by the extractor, not here
    ============  ==============================================================

SA-Bench `sau.json`
    A list of objects, or `{"units": [...]}` / `{"saus": [...]}`. Each field is
    read from the first key present; unknown keys are ignored.

    The key lists, category names, attribution words and kind cues below are
    the shipped defaults of `units/importers.yaml`; a new spelling is a data change.

    ============  ==============================================================
    Unit field    first key present
    ============  ==============================================================
    id            id, sau_id, unit_id, key  (else `sau-001`, `sau-002`, ...)
    kind          type, category, dimension, kind -- see `categories`;
                  "hyperparameter" -> numerical, "algorithm" -> method,
                  "experimental" -> protocol, "order" -> ordering, any case;
                  missing or unknown -> guessed from the text as above
    claim         description, claim, content, statement, text, requirement
                  (else the quote)
    quote         quote, source_text, paper_text, excerpt (never `evidence`,
                  which SA-Bench's score files use for the judge's answer)
    section       section, section_title, location
    weight        weight, importance (invalid -> 1.0)
    attribution   attribution, novelty, novel, is_novel: novel/new/ours ->
                  novel; cited/prior/inherited/baseline/existing -> cited
    cited_ref     cited_ref, reference, citation, ref
    params        `parameter`/`param`/`name` with `value`/`values`, when parseable
    entities      entities, datasets
    order         order, steps (two or more)
    hints         hints, keywords, identifiers
    origin        `sa-bench`
    ============  ==============================================================

SA-Bench score file (`repo/result/<paper>-sau-score.json`)
    `{"dimensions": {"D1": {"claims": [...]}, ...}}`. Only a claim's `id`,
    `claim` and `source` (as `section`) are read; the kind comes from the
    dimension (D1 numerical, D2 method, D3 protocol, D4 ordering). Its `score`,
    `evidence`, `judge_reasoning` and `search_trace` are the judge's answer and
    are never read.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sa_align.errors import UnitsFileError
from sa_align.models import Attribution, Param, Unit, UnitKind
from sa_align.resources import load_yaml

log = logging.getLogger(__name__)

IMPORTER_TABLES = "importers.yaml"
"""Path of the importers' word lists and key names under `units/`."""

_NUMBER = re.compile(r"(?<![\w\-.])\d+(?:\.\d+)?(?:[eE]-?\d+)?%?(?![\w\-])|\b10\^|\d\s*[x×]\s*10")


@dataclass(frozen=True)
class ImporterTables:
    """What the importers know about other datasets, from `units/importers.yaml`."""

    hyper: re.Pattern[str]
    """Hyperparameter words: a claim naming one is numerical unless it states an order."""
    order: re.Pattern[str]
    """Words that state an order of steps."""
    protocol: re.Pattern[str]
    """Words about datasets, metrics, baselines and runs."""
    kind_words: dict[str, UnitKind]
    """Category names used by other datasets (normalized as by `_category`) -> unit kind."""
    novel_words: frozenset[str]
    """Attribution values meaning the paper's own contribution."""
    cited_words: frozenset[str]
    """Attribution values meaning prior work the paper cites."""
    code_category: str
    """PaperBench `task_category` of the leaves that become units."""
    containers: tuple[str, ...]
    """Keys of a top-level SA-Bench object that may hold the unit list."""
    fields: dict[str, tuple[str, ...]]
    """Unit field -> SA-Bench item keys it is read from, first present wins."""


@lru_cache(maxsize=1)
def importer_tables() -> ImporterTables:
    """The tables, built once per process."""
    data: dict[str, Any] = load_yaml(IMPORTER_TABLES)
    cues = data["kind_cues"]
    kind_words: dict[str, UnitKind] = {}
    for kind, names in data["categories"].items():
        kind_words.update(dict.fromkeys((_category(str(n)) for n in names), UnitKind(kind)))
    return ImporterTables(
        hyper=_word_pattern(cues["hyperparameter"]),
        order=_word_pattern(cues["ordering"]),
        protocol=_word_pattern(cues["protocol"]),
        kind_words=kind_words,
        novel_words=frozenset(str(w).lower() for w in data["attribution"]["novel"]),
        cited_words=frozenset(str(w).lower() for w in data["attribution"]["cited"]),
        code_category=_category(str(data["paperbench"]["code_category"])),
        containers=tuple(data["sabench"]["containers"]),
        fields={name: tuple(keys) for name, keys in data["sabench"]["fields"].items()},
    )


def _word_pattern(fragments: list[str]) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(str(f) for f in fragments) + r")\b", re.IGNORECASE)


def guess_kind(text: str) -> UnitKind:
    """Kind of a claim from its wording: numerical, ordering, protocol, else method.

    A stated number makes a claim numerical; a hyperparameter named without a
    value only does when no order of steps is stated.
    """
    tables = importer_tables()
    if _NUMBER.search(text):
        return UnitKind.NUMERICAL
    if tables.order.search(text):
        return UnitKind.ORDERING
    if tables.hyper.search(text):
        return UnitKind.NUMERICAL
    if tables.protocol.search(text):
        return UnitKind.PROTOCOL
    return UnitKind.METHOD


def _load(path_or_data: Any, what: str) -> tuple[Any, str]:
    if isinstance(path_or_data, (str, Path)):
        path = Path(path_or_data)
        try:
            return json.loads(path.read_text(encoding="utf-8-sig")), path.name
        except FileNotFoundError as exc:
            raise UnitsFileError(f"{path}: no such file") from exc
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise UnitsFileError(f"{path}: not a readable {what} JSON file ({exc})") from exc
    return path_or_data, what


# --------------------------------------------------------------------------- PaperBench


def import_paperbench_rubric(path_or_data: Any) -> list[Unit]:
    """Units from the Code Development leaves of a PaperBench rubric tree."""
    data, name = _load(path_or_data, "rubric.json")
    if not isinstance(data, dict) or not ("sub_tasks" in data or "requirements" in data):
        raise UnitsFileError(f"{name}: not a PaperBench rubric (expected a node with `requirements` and `sub_tasks`)")
    units: list[Unit] = []
    seen: set[str] = set()
    for node, weight in _leaves(data, 1.0):
        if _category(node.get("task_category")) != importer_tables().code_category:
            continue
        claim = _text(node.get("requirements"))
        if not claim:
            continue
        uid = _unique(str(node.get("id") or f"pb-{len(units) + 1:03d}"), seen)
        fine = node.get("finegrained_task_category")
        units.append(
            Unit(id=uid, kind=guess_kind(claim), claim=claim, weight=weight, origin="paperbench",
                 hints=[fine] if isinstance(fine, str) and fine else [])
        )
    return units


def _leaves(node: dict[str, Any], share: float) -> list[tuple[dict[str, Any], float]]:
    children = [c for c in node.get("sub_tasks") or [] if isinstance(c, dict)]
    if not children:
        return [(node, share)]
    weights = [_weight(c.get("weight")) for c in children]
    total = sum(weights)
    out: list[tuple[dict[str, Any], float]] = []
    for child, w in zip(children, weights):
        out.extend(_leaves(child, share * (w / total if total > 0 else 0.0)))
    return out


def _category(value: Any) -> str:
    return " ".join(re.split(r"[\s_\-]+", value.strip().lower())) if isinstance(value, str) else ""


# --------------------------------------------------------------------------- SA-Bench


def import_sabench(path_or_data: Any) -> list[Unit]:
    """Units from an SA-Bench `sau.json` or score file (see the mapping tables in this module's docstring)."""
    data, name = _load(path_or_data, "sau.json")
    if is_score_file(data):
        return score_file_units(data, name)
    items = data
    if isinstance(data, dict):
        containers = importer_tables().containers
        items = next((data[k] for k in containers if isinstance(data.get(k), list)), None)
    if not isinstance(items, list):
        raise UnitsFileError(f"{name}: not an SA-Bench unit list (expected a list or {{\"saus\": [...]}})")
    units: list[Unit] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            log.warning("%s: item #%d is not an object; skipped", name, index)
            continue
        unit = _sau_unit(item, index, seen)
        if unit is None:
            log.warning("%s: item #%d has no description or quote; skipped", name, index)
            continue
        units.append(unit)
    return units


def is_score_file(data: Any) -> bool:
    """SA-Bench's per-run judge output: `dimensions.<D1..D4>.claims[]`."""
    dims = data.get("dimensions") if isinstance(data, dict) else None
    return isinstance(dims, dict) and any(isinstance(v, dict) and isinstance(v.get("claims"), list) for v in dims.values())


def sabench_claim_unit(claim_id: str, dimension: str, claim: str, source: str | None) -> Unit:
    """The unit of one SA-Bench claim: id, claim text and source only; the kind from the dimension."""
    kind = UnitKind(load_yaml("bench/sabench.yaml")["dimensions"][dimension])
    return Unit(id=claim_id, kind=kind, claim=" ".join(claim.split()), section=(source or "").strip() or None,
                origin="sa-bench")


def score_file_units(data: dict[str, Any], name: str) -> list[Unit]:
    """Units from a score file. Scores, evidence, reasoning and search traces are the answer and never read."""
    known = load_yaml("bench/sabench.yaml")["dimensions"]
    units: list[Unit] = []
    seen: set[str] = set()
    for dim, body in data["dimensions"].items():
        if dim not in known:
            raise UnitsFileError(f"{name}: unknown SA-Bench dimension {dim!r} (known: {', '.join(known)})")
        for index, item in enumerate(body.get("claims") or [] if isinstance(body, dict) else []):
            text = item.get("claim") if isinstance(item, dict) else None
            if not isinstance(text, str) or not text.strip():
                log.warning("%s: claim #%d of %s has no text; skipped", name, index, dim)
                continue
            source = item.get("source")
            uid = _unique(str(item.get("id") or f"{dim}-{index + 1:03d}"), seen)
            units.append(sabench_claim_unit(uid, dim, text, source if isinstance(source, str) else None))
    return units


def _sau_unit(item: dict[str, Any], index: int, seen: set[str]) -> Unit | None:
    quote = _text(_field(item, "quote"))
    claim = _text(_field(item, "claim")) or quote
    if not claim:
        return None
    kind = _kind(_field(item, "kind")) or guess_kind(claim)
    attribution, cited_ref = _attribution(item)
    section = _field(item, "section")
    order = _str_list(_field(item, "order"))
    return Unit(
        id=_unique(str(_field(item, "id") or f"sau-{index + 1:03d}"), seen),
        kind=kind,
        claim=claim,
        quote=quote,
        section=section.strip() if isinstance(section, str) and section.strip() else None,
        attribution=attribution,
        cited_ref=cited_ref,
        params=_params(item) if kind == UnitKind.NUMERICAL else [],
        entities=_str_list(_field(item, "entities")),
        order=order if len(order) >= 2 else [],
        hints=_str_list(_field(item, "hints")),
        weight=_weight(_field(item, "weight")),
        origin="sa-bench",
    )


def _kind(value: Any) -> UnitKind | None:
    return importer_tables().kind_words.get(_category(value)) if isinstance(value, str) else None


def _attribution(item: dict[str, Any]) -> tuple[Attribution, str | None]:
    tables = importer_tables()
    ref = _field(item, "cited_ref")
    ref = str(ref).strip() if isinstance(ref, (str, int)) and str(ref).strip() else None
    raw = _field(item, "attribution")
    word = str(raw).strip().lower() if raw is not None else ""
    if word in tables.cited_words:
        return Attribution.CITED, ref
    if word in tables.novel_words:
        return Attribution.NOVEL, None
    return (Attribution.CITED if ref else Attribution.NOVEL), ref


def _params(item: dict[str, Any]) -> list[Param]:
    name = _field(item, "param_name")
    if not isinstance(name, str) or not name.strip():
        return []
    value = item.get("value")
    values = item.get("values")
    try:
        return [Param(name=name.strip(), value=value if _scalar(value) else None,
                      values=[v for v in values if _scalar(v)] if isinstance(values, list) else [])]
    except ValidationError:
        return []


def _scalar(value: Any) -> bool:
    return isinstance(value, (bool, int, float, str))


# --------------------------------------------------------------------------- shared helpers


def _field(item: dict[str, Any], name: str) -> Any:
    """The value of unit field `name`: the first of its SA-Bench keys the item sets."""
    for key in importer_tables().fields.get(name, ()):
        if item.get(key) not in (None, ""):
            return item[key]
    return None


def _text(value: Any) -> str:
    if isinstance(value, list):
        value = " ".join(str(v) for v in value if isinstance(v, (str, int, float)))
    return " ".join(value.split()) if isinstance(value, str) else ""


def _str_list(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [" ".join(v.split()) for v in value if isinstance(v, str) and v.strip()]


def _weight(value: Any) -> float:
    try:
        weight = float(value)
    except (TypeError, ValueError):
        return 1.0
    return weight if weight >= 0 and weight == weight and weight != float("inf") else 1.0


def _unique(uid: str, seen: set[str]) -> str:
    candidate, n = uid, 2
    while candidate in seen:
        candidate, n = f"{uid}-{n}", n + 1
    seen.add(candidate)
    return candidate


load_sau = import_sabench
"""Alias of `import_sabench`."""
load_rubric = import_paperbench_rubric
"""Alias of `import_paperbench_rubric`."""
