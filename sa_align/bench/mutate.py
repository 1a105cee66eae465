"""Mutation generator: from a clean case, variants whose gold labels and spans are known.

Kinds (see `values.py` and `structural.py` for what each edit does):

| kind | applies to | target's new label |
|---|---|---|
| `value` | numerical (and protocol units with params) | mismatched |
| `entity` | protocol | mismatched |
| `stub` | method, protocol in Python | stubbed |
| `delete` | method, protocol in Python | missing |
| `unreachable` | method | stubbed |
| `swap` | ordering | mismatched |
| `recipe:<id>` | the recipe's unit | the recipe's label |

Gold of the other units (the rule): an edit "touches" a unit when it changes a
line of one of the unit's gold spans.

1. Untouched units keep their label; their spans follow the lines they point to.
2. Units the mutator itself knows to change (a second numerical unit pinning the
   same literal on the same line) get that label.
3. Units of a kind the edit makes ambiguous are not guessed: the variant is
   skipped (an ordering unit whose step a deletion or swap removes or moves).
4. Structural edits (stub, delete, unreachable): a unit lying entirely inside
   the removed code or the removed call sites gets the target's label
   (`stubbed`, `missing`); a unit only partly inside the removed code makes the
   variant ambiguous and it is skipped; a unit that merely contains a removed
   call line (the training loop that called the deleted step) keeps its label.
5. Value, entity, swap and recipe edits leave every other touched unit's label
   unchanged: they change one claim only.
6. Structural edits also cut code off: helpers that only the stubbed, deleted
   or silenced code called stop running (`orphans.py`, by the liveness
   definition the dead-code judge shares). A unit whose spans lie in such
   functions becomes `stubbed` (a real implementation nothing reachable calls)
   when each of its spans lies entirely inside them or, for a stub or
   unreachable edit, entirely inside the code the edit took away (which is
   `stubbed` by rule 4 too); any other mix (a span only partly inside, a span
   elsewhere, a deleted span) is ambiguous and the variant is skipped.
   Numerical units are left out of this rule: a numerical claim is judged on
   the value the code states (`judges/numeric/judge.py` compares every site), and a
   value stated in a helper that stopped running is still the stated value;
   that the helper never runs is the finding of the method units that describe
   it. An `unreachable` edit whose target the liveness definition still finds
   used (a re-export, a config value, a decorator, a name defined twice, ...)
   is skipped: nothing would have cut it off.

Every edited file must still parse (tree-sitter without ERROR/MISSING nodes and
`compile()` for Python, `yaml.safe_load` for YAML); a variant that does not is
skipped. Random choices come from `random.Random` seeded by
`(seed, case, kind, unit)`, so the same seed always yields identical variants.
"""

from __future__ import annotations

import random
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Callable

from pydantic import BaseModel, ConfigDict, Field

from sa_align.bench import structural, values
from sa_align.bench.dataset import CASE_FILE, Case, MutationInfo
from sa_align.bench.edits import Draft, Skip, line_map, remap_span, span_lines
from sa_align.bench.orphans import cut_off_lines
from sa_align.bench.syntax import text_parses
from sa_align.models import Gold, Label, Unit, UnitKind, UnitsFile

Builder = Callable[[Unit, dict[str, str], random.Random, list[Unit]], Draft]

BUILDERS: dict[str, Builder] = {
    "value": values.value_draft,
    "entity": values.entity_draft,
    "stub": structural.stub_draft,
    "delete": structural.delete_draft,
    "unreachable": structural.unreachable_draft,
    "swap": structural.swap_draft,
}

APPLICABLE: dict[UnitKind, tuple[str, ...]] = {
    UnitKind.NUMERICAL: ("value",),
    UnitKind.METHOD: ("stub", "delete", "unreachable"),
    UnitKind.PROTOCOL: ("entity", "value", "stub", "delete"),
    UnitKind.ORDERING: ("swap",),
}

KINDS = ("value", "entity", "stub", "delete", "unreachable", "swap", "recipe")
TEXT_SUFFIXES = {".py", ".pyw", ".ipynb", ".yaml", ".yml", ".json", ".jsonc", ".toml", ".cfg", ".ini", ".conf", ".gin",
                 ".sh", ".txt", ".md"}
"""Files the generator reads: what it edits, and everything liveness counts as a use (notebooks, configs)."""
MAX_FILE_BYTES = 1_000_000


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Variant(_Model):
    """A mutated copy of a case, held in memory until written."""

    id: str
    """`<case>--<kind>--<unit>`."""
    case_id: str
    """The clean case it derives from."""
    mutation: MutationInfo
    """What was changed."""
    files: dict[str, str]
    """Edited repo files: path relative to the repo -> new text."""
    units: list[Unit]
    """All units with the variant's gold."""


class Skipped(_Model):
    """A mutation that was not applied, and why."""

    case_id: str
    """Case."""
    kind: str
    """Mutation kind."""
    unit: str
    """Target unit."""
    reason: str
    """Why it was skipped."""


class Generation(_Model):
    """The variants generated from one or more cases."""

    variants: list[Variant] = Field(default_factory=list)
    """Variants that apply cleanly."""
    skipped: list[Skipped] = Field(default_factory=list)
    """Mutations that did not."""


def read_repo_texts(case: Case) -> dict[str, str]:
    """Text files of the case's repo (relative path -> text); symlinks are never followed."""
    root = case.repo_path
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink() or not path.is_file() or path.suffix not in TEXT_SUFFIXES:
            continue
        if path.stat().st_size > MAX_FILE_BYTES:
            continue
        try:
            out[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
    return out


def generate_variants(
    case: Case, *, seed: int = 0, kinds: set[str] | None = None, limit: int | None = None
) -> Generation:
    """Every applicable mutation of the case's aligned units (and its recipes), or a seeded `limit` of them."""
    texts = read_repo_texts(case)
    gen = Generation()
    for unit in case.units:
        if unit.gold is None or unit.gold.label != Label.ALIGNED:
            continue
        for kind in APPLICABLE.get(unit.kind, ()):
            if kinds is not None and kind not in kinds:
                continue
            if kind == "value" and not unit.params:
                continue
            rng = random.Random(f"{seed}:{case.id}:{kind}:{unit.id}")
            _attempt(gen, case, kind, unit.id, seed, texts, lambda: BUILDERS[kind](unit, texts, rng, case.units))
    if kinds is None or "recipe" in kinds:
        for recipe in case.meta.recipes:
            _attempt(gen, case, "recipe", recipe.unit, seed, texts, lambda r=recipe: structural.recipe_draft(r, texts))
    if limit is not None:
        gen.variants = pick(gen.variants, limit, seed)
    return gen


def _attempt(gen: Generation, case: Case, kind: str, unit_id: str, seed: int, texts: dict[str, str], build: Callable[[], Draft]) -> None:
    try:
        gen.variants.append(finalize(case, build(), texts, seed))
    except Skip as exc:
        gen.skipped.append(Skipped(case_id=case.id, kind=kind, unit=unit_id, reason=str(exc)))


def finalize(case: Case, draft: Draft, texts: dict[str, str], seed: int) -> Variant:
    """Check the edit parses and changes something, then compute every unit's gold in the variant."""
    files = {p: t for p, t in draft.files.items() if t != texts.get(p)}
    if not files:
        raise Skip("the edit changes nothing")
    for path, text in files.items():
        if (problem := text_parses(path, text)) is not None:
            raise Skip(problem)
    draft.files = files
    units, collateral = update_gold(case.units, draft, texts)
    info = MutationInfo(
        kind=draft.kind, unit=draft.unit_id, label=draft.label, seed=seed,
        files=sorted(files), detail=draft.detail, collateral=collateral,
    )
    vid = f"{case.id}--{draft.kind.replace(':', '-')}--{draft.unit_id}"
    return Variant(id=vid, case_id=case.id, mutation=info, files=files, units=units)


def _changed_lines(draft: Draft, texts: dict[str, str], maps: dict[str, dict[int, int | None]]) -> dict[str, set[int]]:
    out: dict[str, set[int]] = defaultdict(set)
    for path, new in draft.files.items():
        old_lines, new_lines = texts[path].splitlines(), new.splitlines()
        for k, n in maps[path].items():
            if n is None or n > len(new_lines) or old_lines[k - 1] != new_lines[n - 1]:
                out[path].add(k)
    # The code a mutation takes away counts as changed even in a file it leaves as is
    # (an implementation whose callers elsewhere were cut off).
    for part in (draft.core, draft.calls):
        for path, lines in part.items():
            out[path] |= lines
    return out


def update_gold(units: list[Unit], draft: Draft, texts: dict[str, str]) -> tuple[list[Unit], dict[str, Label]]:
    """Every unit with its gold in the variant (the module docstring states the rule)."""
    maps = {p: draft.line_maps.get(p) or line_map(texts[p], t) for p, t in draft.files.items()}
    changed = _changed_lines(draft, texts, maps)
    cut = cut_off_lines(texts, draft.files) if draft.collateral_label is not None else {}
    _check_unreachable(draft, cut)
    out: list[Unit] = []
    collateral: dict[str, Label] = {}
    for unit in units:
        if unit.id == draft.unit_id:
            gold = Gold(label=draft.label, spans=draft.target_spans, note=f"{draft.kind}: {draft.detail}")
        else:
            gold = _cut_off_gold(unit, draft, maps, changed, cut) or _other_gold(unit, draft, maps, changed)
            if unit.gold is not None and gold.label != unit.gold.label:
                collateral[unit.id] = gold.label
        out.append(unit.model_copy(update={"gold": gold}, deep=True))
    if not any(u.id == draft.unit_id for u in units):
        raise Skip(f"unit {draft.unit_id} is not in the case")
    return out, collateral


def _cut_off_gold(unit: Unit, draft: Draft, maps: dict[str, dict[int, int | None]], changed: dict[str, set[int]],
                  cut: dict[str, set[int]]) -> Gold | None:
    """Rule 6: `stubbed` for a unit whose code the edit cut off; `None` when the rule does not apply."""
    gold = unit.gold or Gold(label=Label.ALIGNED)
    if not cut or not gold.spans or unit.kind == UnitKind.NUMERICAL:
        return None
    lines = [(span_lines(s), cut.get(s.path, set()), changed.get(s.path, set())) for s in gold.spans]
    if not any(own <= off and not own & edited for own, off, edited in lines):
        if any(own & off and not own & edited for own, off, edited in lines):
            raise Skip(f"the edit cuts off part of {unit.id}'s implementation")
        return None  # nothing of it is cut off untouched: rules 1-5 decide
    if unit.kind in draft.skip_touched_kinds and any(own & edited for own, _, edited in lines):
        raise Skip(f"the edit also changes {unit.id} ({unit.kind.value}) in a way without a clear label")
    removed = {p: draft.core.get(p, set()) | draft.calls.get(p, set()) for p in changed}
    for span, (own, off, edited) in zip(gold.spans, lines):
        if own <= off and not own & edited:
            continue
        if draft.collateral_label == Label.STUBBED and own <= removed.get(span.path, set()):
            continue  # taken away by the stub or silenced by the edit: `stubbed` by rule 4 as well
        raise Skip(f"the edit cuts off part of {unit.id}'s implementation")
    return Gold(label=Label.STUBBED, spans=_remapped(unit, gold, maps, lenient=True),
                note=f"its code is cut off: the {draft.kind} of {draft.unit_id} leaves nothing that runs calling it")


def _check_unreachable(draft: Draft, cut: dict[str, set[int]]) -> None:
    """An `unreachable` edit must leave its target unused by the liveness definition."""
    if draft.kind == "unreachable" and any(not lines <= cut.get(p, set()) for p, lines in draft.core.items()):
        raise Skip(f"{draft.unit_id}'s implementation is still used with its calls commented out")


def _other_gold(unit: Unit, draft: Draft, maps: dict[str, dict[int, int | None]], changed: dict[str, set[int]]) -> Gold:
    gold = unit.gold or Gold(label=Label.ALIGNED)
    touched = any(span_lines(s) & changed.get(s.path, set()) for s in gold.spans)
    if not touched:
        return gold.model_copy(update={"spans": _remapped(unit, gold, maps)})
    if unit.id in draft.collateral:
        return Gold(label=draft.collateral[unit.id], spans=_remapped(unit, gold, maps), note=f"collateral of {draft.unit_id}")
    if unit.kind in draft.skip_touched_kinds:
        raise Skip(f"the edit also changes {unit.id} ({unit.kind.value}) in a way without a clear label")
    if draft.collateral_label is None:
        return gold.model_copy(update={"spans": _remapped(unit, gold, maps)})
    removed = {p: draft.core.get(p, set()) | draft.calls.get(p, set()) for p in changed}
    if all(span_lines(s) <= removed.get(s.path, set()) for s in gold.spans):
        spans = [] if draft.collateral_label == Label.MISSING else _remapped(unit, gold, maps, lenient=True)
        return Gold(label=draft.collateral_label, spans=spans, note=f"inside the code {draft.kind} of {draft.unit_id} changed")
    if any(span_lines(s) & draft.core.get(s.path, set()) for s in gold.spans):
        raise Skip(f"the edit removes part of {unit.id}'s implementation")
    return gold.model_copy(update={"spans": _remapped(unit, gold, maps)})


def _remapped(unit: Unit, gold: Gold, maps: dict[str, dict[int, int | None]], lenient: bool = False) -> list:
    spans = []
    for span in gold.spans:
        new = remap_span(span, maps.get(span.path))
        if new is None:
            if lenient:
                continue
            raise Skip(f"{unit.id}'s gold span {span} disappears")
        spans.append(new)
    return spans


# --------------------------------------------------------------------------- selection and writing


def pick(variants: list[Variant], n: int, seed: int) -> list[Variant]:
    """A seeded sample of `n` variants, balanced over mutation kinds and then cases."""
    if n >= len(variants):
        return list(variants)
    rng = random.Random(f"pick:{seed}")
    groups: dict[str, list[Variant]] = defaultdict(list)
    for v in variants:
        groups[v.mutation.kind.split(":")[0]].append(v)
    queues = []
    for kind in sorted(groups):
        items = sorted(groups[kind], key=lambda v: v.id)
        rng.shuffle(items)
        queues.append(items)
    chosen: list[Variant] = []
    while len(chosen) < n:
        for q in queues:
            if q and len(chosen) < n:
                chosen.append(q.pop(0))
    return sorted(chosen, key=lambda v: v.id)


def write_variant(case: Case, variant: Variant, dest: str | Path) -> Path:
    """Write the variant as a case folder `dest/<variant id>` (a copy of the case with the edits and new gold)."""
    import yaml

    root = Path(dest) / variant.id
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(case.repo_path, root / case.meta.repo, symlinks=True)
    shutil.copy2(case.paper_path, root / case.meta.paper)
    for rel, text in variant.files.items():
        (root / case.meta.repo / rel).write_text(text, encoding="utf-8")
    units_file = UnitsFile(paper=case.meta.paper, units=variant.units)
    (root / case.meta.units).write_text(
        yaml.safe_dump(units_file.model_dump(mode="json", exclude_none=True), sort_keys=False, allow_unicode=True),
        encoding="utf-8",
    )
    meta = case.meta.model_copy(update={"id": variant.id, "recipes": [], "variant_of": case.id, "mutation": variant.mutation})
    (root / CASE_FILE).write_text(
        yaml.safe_dump(meta.model_dump(mode="json", exclude_none=True), sort_keys=False, allow_unicode=True),
        encoding="utf-8",
    )
    return root
