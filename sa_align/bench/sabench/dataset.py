"""SA-Bench's layout: which runs exist, each run's reference scores, the paper, the claims as units.

```
experiments/runs/<setup>/<paper>/repo/                     the agent's repository
experiments/runs/<setup>/<paper>/repo/result/<paper>-sau-score.json
        model, overall_score, dimensions.<D1..D4>.claims[]: id, claim, source, score, (evidence, ...)
experiments/runs/<setup>_basic/<paper>/artifacts/.../paper/paper.md     the paper
```

The score file is the answer. Only a claim's `id`, `claim` and `source` may
become unit fields (`units/bench/sabench.yaml: claim_fields`); its score stays in
`ReferenceClaim` for the metrics. Of `evidence` only the file paths are read, and
only to tell whether the published run still holds the files the reference judge
read (`ReferenceClaim.unseen`): SA-Bench's own `.gitignore` dropped folders such as
`configs/` and `data/` from every published repository, so some scores rest on
code nobody can index now. Snippets, `judge_reasoning` and `search_trace` are never
read at all.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from sa_align.bench.sabench.source import Source
from sa_align.errors import DatasetError
from sa_align.extract.importers import sabench_claim_unit
from sa_align.models import Unit, UnitKind
from sa_align.resources import load_yaml


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, frozen=True)


class Tables(_Model):
    """`units/bench/sabench.yaml`: the split, the dimension map and where things are."""

    commit: str
    """SA-Bench commit the split and the layout were read at."""
    license: str
    """Licences of the data, repeated in every result."""
    development: tuple[str, ...]
    """Papers that development and tuning may use; every other paper is held out."""
    held_out_papers: int
    """How many papers are held out: the size of the paper sets the `subsets` spread draws."""
    dimensions: dict[str, UnitKind]
    """SA-Bench dimension -> unit kind."""
    faithful_at: float
    """Reference level at or above which a claim counts as faithfully implemented."""
    levels: tuple[float, ...]
    """The reference levels a score may take."""
    runs_dir: str
    """Folder of setups, relative to the dataset root."""
    repo_dir: str
    """The agent's repository inside a run folder."""
    result_dir: str
    """The judge output folder inside the repository: never indexed."""
    score_file: str
    """The score file's name, with `{paper}`."""
    paper_setup_suffix: str
    """Setups whose runs carry the paper file."""
    paper_file_suffix: str
    """How the paper file's path ends."""
    claim_fields: tuple[str, ...]
    """Claim fields that may become unit fields."""


@lru_cache(maxsize=1)
def tables() -> Tables:
    return Tables.model_validate(load_yaml("bench/sabench.yaml"))


class RunRef(_Model):
    """One agent run: a setup (agent and model) on one paper."""

    setup: str
    """Setup folder, e.g. `claude-sonnet_basic`."""
    paper: str
    """Paper folder, e.g. `mrq`."""

    @property
    def id(self) -> str:
        return f"{self.setup}/{self.paper}"

    @property
    def folder(self) -> str:
        return f"{tables().runs_dir}/{self.setup}/{self.paper}"

    @property
    def repo(self) -> str:
        return f"{self.folder}/{tables().repo_dir}"


class ReferenceClaim(_Model):
    """One claim of a run with the reference judge's score (the score never reaches a unit)."""

    id: str
    """Claim id, e.g. `mrq-D1-001`."""
    dimension: str
    """SA-Bench dimension, `D1`..`D4`."""
    claim: str
    """The claim text."""
    source: str | None = None
    """Where in the paper the claim comes from (a section or table reference)."""
    score: float
    """The reference level, one of 0, 0.25, 0.5, 0.75, 1."""
    unseen: bool = False
    """The reference judge cites a file the published run lacks: its score rests partly on code
    that this benchmark (or anyone reading the published runs) cannot see."""


class RunScores(_Model):
    """A run's score file, reduced to what the benchmark may use."""

    model: str
    """The reference judge model."""
    overall_score: float
    """SA-Bench's run score: the mean of the four dimension means."""
    claims: tuple[ReferenceClaim, ...] = Field(default_factory=tuple)
    """Every claim of the run, in file order."""


class RunSkipped(DatasetError):
    """A run that cannot be evaluated; the reason goes into the result and the rest continue."""


def select_papers(source: Source, papers: list[str] | None) -> list[str]:
    """The papers to run: the development split by default; named papers must exist."""
    if not papers:
        return list(tables().development)
    known = set(available_papers(source))
    unknown = [p for p in papers if p not in known]
    if unknown:
        raise DatasetError(f"unknown SA-Bench papers: {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    return list(dict.fromkeys(papers))


def available_papers(source: Source) -> list[str]:
    return sorted({p for s in source.listdir(tables().runs_dir) for p in source.listdir(f"{tables().runs_dir}/{s}")})


def list_runs(source: Source, papers: list[str], setups: list[str] | None = None) -> list[RunRef]:
    """Every (setup, paper) run folder that exists, setups and papers sorted."""
    all_setups = source.listdir(tables().runs_dir)
    if not all_setups:
        raise DatasetError(f"{source.label}: no {tables().runs_dir}/ folder; is this SA-Bench?")
    if setups:
        unknown = [s for s in setups if s not in all_setups]
        if unknown:
            raise DatasetError(f"unknown SA-Bench setups: {', '.join(unknown)} (known: {', '.join(all_setups)})")
    wanted = set(papers)
    runs = []
    for setup in setups or all_setups:
        present = set(source.listdir(f"{tables().runs_dir}/{setup}"))
        runs.extend(RunRef(setup=setup, paper=p) for p in sorted(wanted & present))
    return runs


def read_scores(source: Source, run: RunRef) -> RunScores:
    """The run's reference scores; any problem with the file skips the run with its reason."""
    rel = f"{run.repo}/{tables().result_dir}/{tables().score_file.format(paper=run.paper)}"
    raw = source.read(rel)
    if raw is None:
        raise RunSkipped(f"no score file {rel}")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunSkipped(f"score file {rel} is not JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("dimensions"), dict):
        raise RunSkipped(f"score file {rel} has no `dimensions` object")
    overall = data.get("overall_score")
    if not _number(overall):
        raise RunSkipped(f"score file {rel} has no numeric `overall_score`")
    present = {p[len(run.repo) + 1:] for p in source.files_under(run.repo)}
    claims = [c for dim, body in data["dimensions"].items() for c in _claims(rel, dim, body, present)]
    if not claims:
        raise RunSkipped(f"score file {rel} holds no claims")
    return RunScores(model=str(data.get("model") or "unknown"), overall_score=float(overall), claims=tuple(claims))


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _claims(rel: str, dim: str, body: Any, present: set[str]) -> list[ReferenceClaim]:
    if dim not in tables().dimensions:
        raise RunSkipped(f"score file {rel} has an unknown dimension {dim!r}")
    items = body.get("claims") if isinstance(body, dict) else None
    if not isinstance(items, list):
        raise RunSkipped(f"score file {rel}: dimension {dim} has no `claims` list")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("claim"), str) or not item.get("id"):
            raise RunSkipped(f"score file {rel}: claim #{i} of {dim} lacks an id or a claim text")
        score = item.get("score")
        if not _number(score) or not any(abs(score - lv) < 1e-9 for lv in tables().levels):
            raise RunSkipped(f"score file {rel}: claim {item['id']} has a missing or out-of-range score {score!r}")
        source = item.get("source")
        out.append(ReferenceClaim(id=str(item["id"]), dimension=dim, claim=item["claim"],
                                  source=source if isinstance(source, str) else None, score=float(score),
                                  unseen=_cites_absent(item.get("evidence"), present)))
    return out


def _cites_absent(evidence: Any, present: set[str]) -> bool:
    """Whether the reference's evidence names a file that is not in the published repository
    (paths only; a malformed evidence list says nothing)."""
    if not isinstance(evidence, list):
        return False
    cited = {e["file"] for e in evidence if isinstance(e, dict) and isinstance(e.get("file"), str) and e["file"].strip()}
    return any(_repo_path(f) not in present for f in cited)


def _repo_path(cited: str) -> str:
    path = cited.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path.lstrip("/")


def paper_file(source: Source, paper: str) -> str | None:
    """The paper's Markdown, from the first setup named `*_basic` that carries it."""
    t = tables()
    for setup in source.listdir(t.runs_dir):
        if not setup.endswith(t.paper_setup_suffix):
            continue
        hits = sorted(p for p in source.files_under(f"{t.runs_dir}/{setup}/{paper}") if p.endswith(t.paper_file_suffix))
        if hits:
            return hits[0]
    return None


def claim_units(claims: tuple[ReferenceClaim, ...] | list[ReferenceClaim]) -> list[Unit]:
    """Units from reference claims: id, claim and source only; the kind from the dimension."""
    return [sabench_claim_unit(c.id, c.dimension, c.claim, c.source) for c in claims]


def is_result_path(path: str) -> bool:
    """True for a path inside a run repository's judge output folder (relative to the repository)."""
    parts = PurePosixPath(path).parts
    return bool(parts) and parts[0] == tables().result_dir
