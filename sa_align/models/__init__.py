"""The pydantic contracts that flow through the pipeline.

paper -> units -> index -> candidates -> verdicts -> results -> report.
Every field carries a docstring so the JSON Schema exported from these models
documents the report format and the units file for the people who read them.

`base` holds the labels, kinds and the paper; `units` the units and code spans;
`results` candidates, verdicts and per-unit results; `report` the drift report
and its schema; `schemas` writes the shipped schema files. Everything above is
importable from `sa_align.models`. `diff` and `history` hold the formats of
`diff.json` and `history.json`; import them from those modules (`sa_align.diff`
and `sa_align.history` re-export their reports). Their per-unit label changes
extend `change.LabelChangeBase`, which declares the before/after fields once.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# Each submodule is built on first use: the index needs only `CodeSpan`, and building the
# report and result models (their field docstrings are read from source) costs time that
# `sa-align index` and a warm index load should not pay.
_HOMES = {
    "base": ("LABEL_SCORES", "SA_BENCH_LEVELS", "SCHEMA_VERSION", "Attribution", "Citation", "Label", "Paper",
             "PaperFormat", "Region", "RegionKind", "Section", "UnitKind"),
    "report": ("CalibrationInfo", "DriftReport", "PaperIdentity", "RepoIdentity", "RetrievalInfo", "Summary", "report_schema",
               "units_file_schema"),
    "results": ("Calibration", "Candidate", "Cost", "EvidenceCode", "Flag", "UnitResult", "Verdict"),
    "schemas": ("write_schemas",),
    "units": ("CharSpan", "CodeSpan", "Gold", "Param", "Scalar", "Unit", "UnitsFile"),
}
_LAZY = {name: f"sa_align.models.{module}" for module, names in _HOMES.items() for name in names}

if TYPE_CHECKING:
    from sa_align.models.base import (
        LABEL_SCORES, SA_BENCH_LEVELS, SCHEMA_VERSION, Attribution, Citation, Label, Paper, PaperFormat, Region,
        RegionKind, Section, UnitKind,
    )
    from sa_align.models.report import (
        CalibrationInfo, DriftReport, PaperIdentity, RepoIdentity, RetrievalInfo, Summary, report_schema, units_file_schema,
    )
    from sa_align.models.results import Calibration, Candidate, Cost, EvidenceCode, Flag, UnitResult, Verdict
    from sa_align.models.schemas import write_schemas
    from sa_align.models.units import CharSpan, CodeSpan, Gold, Param, Scalar, Unit, UnitsFile


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'sa_align.models' has no attribute {name!r}")
    value = getattr(import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "LABEL_SCORES",
    "SA_BENCH_LEVELS",
    "SCHEMA_VERSION",
    "Attribution",
    "Calibration",
    "CalibrationInfo",
    "Candidate",
    "CharSpan",
    "Citation",
    "CodeSpan",
    "Cost",
    "DriftReport",
    "EvidenceCode",
    "Flag",
    "Gold",
    "Label",
    "Paper",
    "Region",
    "RegionKind",
    "PaperFormat",
    "PaperIdentity",
    "Param",
    "RepoIdentity",
    "RetrievalInfo",
    "Scalar",
    "Section",
    "Summary",
    "Unit",
    "UnitKind",
    "UnitResult",
    "UnitsFile",
    "Verdict",
    "report_schema",
    "units_file_schema",
    "write_schemas",
]
