"""Retrieval and whole reports do not depend on PYTHONHASHSEED (set and dict order).

Hash randomization only shows across processes, so each run is a subprocess
with its own seed; the outputs must be identical to the last character.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import EXAMPLES, ROOT

EX = EXAMPLES / "focal_loss"
SEEDS = ("0", "1", "2", "3")

_RETRIEVE = """
import json, sys
from sa_align.config import EvalConfig
from sa_align.index import build_index
from sa_align.retrieve import build_retriever
from sa_align.unitsfile import load_units

ex = sys.argv[1]
retriever = build_retriever(build_index(ex + "/repo"), EvalConfig(embeddings=False, use_cache=False))
out = {u.id: [[c.span.path, c.span.start_line, c.span.end_line, c.score, c.why] for c in retriever.retrieve(u)]
       for u in load_units(ex + "/units.yaml")}
print(json.dumps(out))
"""


def _env(seed: str, cache: str) -> dict[str, str]:
    return {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT), "SA_ALIGN_CACHE_DIR": cache}


def _retrieve(seed: str, cache: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", _RETRIEVE, str(EX)], env=_env(seed, cache),
                          capture_output=True, text=True, timeout=300, check=True)
    return json.loads(proc.stdout)


def test_candidates_are_identical_under_every_hash_seed(tmp_path):
    runs = [_retrieve(seed, str(tmp_path / seed)) for seed in SEEDS]
    assert len(runs[0]) == 22 and all(runs[0].values())
    # The graph signal and multi-term `why` lists are where set order used to leak.
    whys = [w for cands in runs[0].values() for c in cands for w in c[4]]
    assert any(w.startswith(("callee-of:", "caller-of:", "near:")) for w in whys)
    assert any(w.startswith("bm25:") and w.count(",") == 2 for w in whys)
    for seed, run in zip(SEEDS[1:], runs[1:]):
        assert run == runs[0], f"PYTHONHASHSEED={seed} changed the candidates"


@pytest.mark.slow
def test_reports_of_the_example_are_identical_under_two_hash_seeds(tmp_path):
    """The README's first command, twice: same `results` (and everything else but timing)."""
    reports = []
    for seed in ("1", "2"):
        out = tmp_path / f"out{seed}"
        cmd = [sys.executable, "-m", "sa_align.cli", "evaluate", str(EX / "paper.md"), str(EX / "repo"),
               "--units", str(EX / "units.yaml"), "--out", str(out)]
        subprocess.run(cmd, env=_env(seed, str(tmp_path / f"cache{seed}")), capture_output=True, text=True,
                       timeout=600, check=True)
        reports.append(json.loads((out / "report.json").read_text(encoding="utf-8")))
    first, second = reports
    assert first["results"] == second["results"]
    for data in reports:
        for key in ("timing", "created_at", "config"):
            data.pop(key)
    assert first == second
