"""Build a small git history of the example repository, with drift introduced along the way.

    python examples/focal_loss/make_history.py OUT_DIR

OUT_DIR (new or empty) becomes a git repository of four commits ending at the
code of `examples/focal_loss/repo`: a faithful start, a commit that changes the
learning rate, one that only adds a line to the README, and one that replaces
the loss normalizer with a placeholder. Then try:

    sa-align history examples/focal_loss/paper.md OUT_DIR --units examples/focal_loss/units.yaml -o out/history
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE / "repo"

# Each step: subject, then {path: (text in the bundled repo, text at this commit)}; the
# replacements of a step hold from its commit until a later step sets the bundled text back.
FAITHFUL = {
    "config.yaml": ("lr: 0.02", "lr: 0.01"),
    "retinanet/loss.py": ("    # TODO: normalize by the number of positive anchors\n    return 1.0",
                          "    return max(float(num_positive_anchors), 1.0)"),
}
STEPS = [
    ("Reproduce RetinaNet with the focal loss", dict(FAITHFUL)),
    ("Scale the learning rate for 8 GPUs", {"retinanet/loss.py": FAITHFUL["retinanet/loss.py"]}),
    ("Describe the configuration in the README", {"retinanet/loss.py": FAITHFUL["retinanet/loss.py"]}),
    ("Use a fixed loss normalizer for now", {}),
]


def _git(out: Path, *args: str, when: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Example Author", "GIT_AUTHOR_EMAIL": "author@example.org",
           "GIT_COMMITTER_NAME": "Example Author", "GIT_COMMITTER_EMAIL": "author@example.org",
           "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", *args], cwd=out, env=env, check=True, capture_output=True)


def _write_state(out: Path, edits: dict[str, tuple[str, str]], step: int) -> None:
    for src in sorted(REPO.rglob("*")):
        if src.is_file() and "__pycache__" not in src.parts:
            rel = src.relative_to(REPO).as_posix()
            text = src.read_text(encoding="utf-8")
            bundled, here = edits.get(rel, ("", ""))
            if bundled:
                text = text.replace(bundled, here)
            if rel == "README.md" and step >= 2:
                text += "\nSettings live in `config.yaml`; `train.py` reads them.\n"
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / rel).write_text(text, encoding="utf-8")


def build(out: Path) -> Path:
    """Create the repository in `out` and return it."""
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"{out} is not empty")
    out.mkdir(parents=True, exist_ok=True)
    _git(out, "init", "-q", "-b", "main", when="2026-01-01T09:00:00+00:00")
    for step, (subject, edits) in enumerate(STEPS):
        _write_state(out, edits, step)
        when = f"2026-01-0{step + 2}T09:00:00+00:00"
        _git(out, "add", "-A", when=when)
        _git(out, "commit", "-q", "--no-verify", "-m", subject, when=when)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="folder for the new repository (new or empty)")
    args = ap.parse_args(argv)
    if shutil.which("git") is None:
        print("the git command is needed", file=sys.stderr)
        return 2
    print(f"built {build(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
