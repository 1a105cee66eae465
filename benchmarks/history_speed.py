"""History speed: `sa-align history` over 20 commits of a generated ~5,000-line repository,
against one cold `evaluate` of the last commit, fully offline (static judges).

    python benchmarks/history_speed.py [--lines 5000] [--commits 20] [--runs 3] [--no-embeddings]

The repository comes from `gen_repo.py`; a git history is built on it in which
every commit after the first edits a few files (a changed value, a new comment,
every fifth commit also moves a module to another folder). Each measurement runs
in a fresh subprocess with an empty cache, and the medians are printed with
their ratio (target: history at most 3x the cold evaluate). CPU seconds are
printed too, since wall time depends on what else the machine runs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

PAPER = """# A generated model

## 4 Training

We train with AdamW at a learning rate of 3e-4 and a weight decay of 0.05 for 90 epochs
with a batch size of 128 on CIFAR-10. Dropout is 0.1. Adam uses betas of 0.9 and 0.999.
The default width is 128 and inputs are scaled by 1/255.
"""

UNITS = [
    ("learning_rate", 3e-4, "The learning rate is 3e-4."), ("weight_decay", 0.05, "The weight decay is 0.05."),
    ("epochs", 90, "Training runs for 90 epochs."), ("batch_size", 128, "The batch size is 128."),
    ("dropout", 0.1, "Dropout is 0.1."), ("default_width", 128, "The default width is 128."),
    ("eps", 1e-5, "The epsilon is 1e-5."), ("scale", 1 / 255, "Inputs are scaled by 1/255."),
    ("depth", 12, "The depth is 12."), ("dim", 256, "The model dimension is 256."),
]


def _git(repo: Path, *args: str, when: int = 0) -> str:
    stamp = f"{1_767_000_000 + when * 3600} +0000"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GIT_")}, "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@example.org",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "b@example.org",
           "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


def build_history(root: Path, lines: int, commits: int, seed: int = 0) -> Path:
    """A git repository of `commits` commits over a generated repository; returns its path."""
    from gen_repo import generate

    repo = generate(root / "repo", lines=lines, seed=seed)
    rng = random.Random(seed)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "generated repository")
    for i in range(1, commits):
        files = sorted(p for p in repo.rglob("m*.py"))
        for path in rng.sample(files, k=3):
            text = path.read_text()
            old = rng.choice(["0.1", "0.2", "0.5", "1e-5", "1e-8"])
            text = text.replace(f"p={old}", f"p={rng.choice(['0.1', '0.2', '0.3'])}", 1)
            path.write_text(text + f"# revision {i}\n")
        if i % 5 == 0:
            src = rng.choice(files)
            target = src.parent.parent / rng.choice(["models", "layers", "engine"]) / src.name
            if not target.exists():
                _git(repo, "mv", str(src.relative_to(repo)), str(target.relative_to(repo)))
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", f"revision {i}", when=i)
    return repo


def write_inputs(root: Path) -> tuple[Path, Path]:
    from sa_align.models import Param, Unit
    from sa_align.unitsfile import save_units

    paper = root / "paper.md"
    paper.write_text(PAPER, encoding="utf-8")
    units = [Unit(id=f"num-{i:03d}", kind="numerical", claim=claim, quote=claim, section="4 Training",
                  params=[Param(name=name, value=value)], hints=[name]) for i, (name, value, claim) in enumerate(UNITS, 1)]
    units += [Unit(id=f"meth-{i:03d}", kind="method", claim=f"The {w} block applies a residual connection.",
                   quote=f"the {w} block", section="4 Training", hints=[w]) for i, w in enumerate(
                       ["encoder", "decoder", "attention", "mixer", "router", "gate", "pool", "norm", "head", "proj"], 1)]
    path = root / "units.yaml"
    save_units(units, path, paper=str(paper))
    return paper, path


CHILD = """
import json, resource, sys, time
from pathlib import Path
from sa_align.config import EvalConfig
mode, paper, units, repo, cache, emb = sys.argv[1:7]
config = EvalConfig(cache_dir=Path(cache), embeddings=None if emb == "auto" else False)
t0, c0 = time.perf_counter(), time.process_time()
if mode == "history":
    from sa_align.history import audit_history
    h = audit_history(paper, repo, units=units, config=config)
    extra = {"commits": len(h.points), "files_share": h.reuse.files_share, "units_share": h.reuse.units_share,
             "changes": len(h.changes)}
else:
    from sa_align import evaluate
    r = evaluate(paper, repo, units=units, config=config)
    extra = {"units": len(r.results)}
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall_s": time.perf_counter() - t0, "cpu_s": time.process_time() - c0 + kids.ru_utime + kids.ru_stime,
                  **extra}))
"""


def measure(mode: str, paper: Path, units: Path, repo: Path, embeddings: str) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        proc = subprocess.run([sys.executable, "-c", CHILD, mode, str(paper), str(units), str(repo), cache, embeddings],
                              capture_output=True, text=True, cwd=HERE.parent)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-3000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--commits", type=int, default=20)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-embeddings", action="store_true", help="switch the embedding signal off in both runs")
    args = ap.parse_args(argv)
    emb = "off" if args.no_embeddings else "auto"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        repo = build_history(root, args.lines, args.commits)
        last = root / "last"
        subprocess.run(["git", "clone", "-q", str(repo), str(last)], check=True, capture_output=True)
        paper, units = write_inputs(root)
        n_lines = sum(p.read_text().count("\n") for p in last.rglob("*.py"))
        rows = {"evaluate": [], "history": []}
        for _ in range(args.runs):
            for mode, target in (("evaluate", last), ("history", repo)):
                rows[mode].append(measure(mode, paper, units, target, emb))
    med = {m: {k: round(statistics.median(r[k] for r in runs), 3) for k in ("wall_s", "cpu_s")} for m, runs in rows.items()}
    out = {"python_lines_last_commit": n_lines, "commits": args.commits, "embeddings": emb, "runs": args.runs,
           "median": med, "history_run": {k: v for k, v in rows["history"][-1].items() if k not in ("wall_s", "cpu_s")},
           "ratio_wall": round(med["history"]["wall_s"] / med["evaluate"]["wall_s"], 2),
           "ratio_cpu": round(med["history"]["cpu_s"] / med["evaluate"]["cpu_s"], 2)}
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
