"""Judges: static checks and LLM judges -> verdicts -> one result per unit.

`label_unit` (`judges/label.py`) owns a unit's label: static judges, the scope gate,
the aggregate, the calibrated assessment, LLM judges where they are wanted, and the
decision, in that order. Each static judge has a room of its own; `routing` names them
and says which run on which kind of unit (`units/kinds.yaml`).

Any exception a judge raises becomes an abstention with the error recorded. Once the label
stands, `finish` adds what a reviewer needs beside it: the code of the evidence and, for an
undecided unit, the next step that would decide it.
"""

from __future__ import annotations

from sa_align.judges.aggregate import aggregate, fleiss_kappa
from sa_align.judges.base import Judge, JudgeContext, StaticJudge, abstain
from sa_align.judges.finish import finish
from sa_align.judges.injection import scan_injections, scan_unit_injections
from sa_align.judges.label import judge_llm_votes, judge_static, label_unit, llm_would_run, static_judges_for

__all__ = [
    "Judge",
    "JudgeContext",
    "StaticJudge",
    "abstain",
    "aggregate",
    "finish",
    "fleiss_kappa",
    "judge_llm_votes",
    "judge_static",
    "label_unit",
    "llm_would_run",
    "scan_injections",
    "scan_unit_injections",
    "static_judges_for",
]
