"""sa_align: audit whether a code repository faithfully implements a research paper.

    import sa_align
    report = sa_align.evaluate("paper.md", "path/to/repo")
    print(report.summary.counts, report.summary.mean_score)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from sa_align._version import __version__

# Everything loads on first use: building the pydantic models costs a few hundred
# milliseconds, and `sa-align --help` or a harness that only reads reports should
# not pay for the pipeline, tree-sitter or litellm.
_LAZY = {
    **{name: "sa_align.config" for name in ("EvalConfig", "IndexConfig", "ModelSpec")},
    **{
        name: "sa_align.errors"
        for name in (
            "BudgetExceeded", "InputError", "LLMConfigError", "LLMError", "LLMGiveUp",
            "PaperError", "RepoError", "SaAlignError", "UnitsFileError",
        )
    },
    **{
        name: "sa_align.models"
        for name in (
            "SCHEMA_VERSION", "Attribution", "Candidate", "CodeSpan", "DriftReport", "Label",
            "Paper", "Param", "Unit", "UnitKind", "UnitResult", "Verdict",
        )
    },
    "evaluate": "sa_align.pipeline",
    "evaluate_async": "sa_align.pipeline",
    "load_paper": "sa_align.paper",
    "load_units": "sa_align.unitsfile",
    "save_units": "sa_align.unitsfile",
    "extract_units": "sa_align.extract",
    "build_index": "sa_align.index",
    "diff_reports": "sa_align.diff",
    "audit_history": "sa_align.history",
}

if TYPE_CHECKING:
    from sa_align.config import EvalConfig, IndexConfig, ModelSpec
    from sa_align.diff import diff_reports
    from sa_align.history import audit_history
    from sa_align.errors import (
        BudgetExceeded, InputError, LLMConfigError, LLMError, LLMGiveUp,
        PaperError, RepoError, SaAlignError, UnitsFileError,
    )
    from sa_align.models import (
        SCHEMA_VERSION, Attribution, Candidate, CodeSpan, DriftReport, Label,
        Paper, Param, Unit, UnitKind, UnitResult, Verdict,
    )
    from sa_align.extract import extract_units
    from sa_align.index import build_index
    from sa_align.paper import load_paper
    from sa_align.pipeline import evaluate, evaluate_async
    from sa_align.unitsfile import load_units, save_units


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sa_align' has no attribute {name!r}")


__all__ = [
    "SCHEMA_VERSION",
    "Attribution",
    "BudgetExceeded",
    "Candidate",
    "CodeSpan",
    "DriftReport",
    "EvalConfig",
    "IndexConfig",
    "InputError",
    "LLMConfigError",
    "LLMError",
    "LLMGiveUp",
    "Label",
    "ModelSpec",
    "Paper",
    "PaperError",
    "Param",
    "RepoError",
    "SaAlignError",
    "Unit",
    "UnitKind",
    "UnitResult",
    "UnitsFileError",
    "Verdict",
    "__version__",
    "audit_history",
    "build_index",
    "diff_reports",
    "evaluate",
    "evaluate_async",
    "extract_units",
    "load_paper",
    "load_units",
    "save_units",
]
