"""Paper -> [Unit]: offline rules always, LLM specialists when configured, merged and grounded.

    from sa_align.extract import extract_units
    units = extract_units(paper)                        # offline, deterministic
    extraction = await extract_async(paper, config, client)   # + LLM specialists
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from sa_align.config import EvalConfig
from sa_align.errors import PaperError
from sa_align.extract.budget import apply_budget
from sa_align.extract.llm import llm_units
from sa_align.extract.merge import merge_units
from sa_align.extract.rules import assign_ids, rule_units
from sa_align.llm.client import LLMClient, _run_sync
from sa_align.models import Paper, Unit

if TYPE_CHECKING:
    from sa_align.llm import LLMClient


class Extraction(BaseModel):
    """What extraction produced for one paper."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    units: list[Unit] = Field(default_factory=list)
    """Units in paper order with stable ids (`num-001`, `meth-001`, `proto-001`, `ord-001`)."""
    dropped: int = 0
    """LLM-proposed units dropped because their quote was not found in the paper."""
    notes: list[str] = Field(default_factory=list)
    """Things worth knowing: nothing extractable, a specialist that failed, budget reached."""


def _check(paper: Paper) -> None:
    if not isinstance(paper, Paper):
        raise PaperError(f"extract needs a loaded Paper, got {type(paper).__name__}; use sa_align.load_paper first")
    if not paper.text.strip():
        where = f" ({paper.source})" if paper.source else ""
        raise PaperError(f"paper {paper.title!r}{where} has no text to extract units from")


def _finish(units: list[Unit], dropped: int, notes: list[str], config: EvalConfig) -> Extraction:
    budgeted = apply_budget(merge_units(units), config.max_units)
    notes.extend(budgeted.notes)
    final = assign_ids(budgeted.units)
    if not final:
        notes.append("no units found: the paper states no recognizable parameter, dataset, metric, order or method definition")
    return Extraction(units=final, dropped=dropped, notes=notes)


async def extract_async(paper: Paper, config: EvalConfig | None = None, client: "LLMClient | None" = None) -> Extraction:
    """Units of `paper`: rule units always, plus LLM specialists when `config.extractors` and `client` are given."""
    _check(paper)
    config = config or EvalConfig()
    units = rule_units(paper)
    dropped, notes = 0, []
    if config.extractors and client is not None:
        found = await llm_units(paper, config, client)
        units.extend(found.units)
        dropped, notes = found.dropped, found.notes
    elif config.extractors:
        notes.append("LLM extractors are configured but no client was given: rule units only")
    return _finish(units, dropped, notes, config)


def extract_units(paper: Paper, config: EvalConfig | None = None) -> list[Unit]:
    """Blocking convenience: the units of `paper` (LLM specialists run when `config.extractors` is set)."""
    return extract(paper, config).units


def extract(paper: Paper, config: EvalConfig | None = None) -> Extraction:
    """Blocking: units and notes of `paper` (LLM specialists run when `config.extractors` is set)."""
    config = config or EvalConfig()
    if not config.extractors:
        _check(paper)
        return _finish(rule_units(paper), 0, [], config)
    client = LLMClient(config)
    return _run_sync(lambda: extract_async(paper, config, client))


def __getattr__(name: str) -> Any:
    # Importers of other benchmarks' unit files live beside the extractor; load them on demand.
    if name in {"load_sau", "load_rubric", "import_sabench", "import_paperbench_rubric", "guess_kind", "importers"}:
        from importlib import import_module

        importers = import_module("sa_align.extract.importers")
        return importers if name == "importers" else getattr(importers, name)
    raise AttributeError(f"module 'sa_align.extract' has no attribute {name!r}")


__all__ = ["Extraction", "extract", "extract_async", "extract_units"]
