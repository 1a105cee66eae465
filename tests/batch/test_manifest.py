"""The manifest is checked whole: every problem in one error, before any pair runs."""

import json

import pytest

from sa_align.batch import read_manifest, run_batch
from sa_align.errors import InputError
from tests.conftest import EXAMPLES

EX = EXAMPLES / "focal_loss"


def test_relative_paths_and_default_ids(tmp_path):
    (tmp_path / "paper.md").write_text("# A paper\n\nThe learning rate is 0.1.\n")
    (tmp_path / "runs" / "r1").mkdir(parents=True)
    path = tmp_path / "m.jsonl"
    path.write_text('# comment\n\n{"paper": "paper.md", "repo": "runs/r1"}\n')
    [pair] = read_manifest(path)
    assert pair.id == "pair-0003" and pair.paper == tmp_path / "paper.md" and pair.repo == tmp_path / "runs" / "r1"


def test_every_problem_is_listed_in_one_error_and_nothing_runs(tmp_path):
    good = {"paper": str(EX / "paper.md"), "repo": str(EX / "repo")}
    lines = [
        json.dumps({"id": "x", **good}),
        "{not json",
        json.dumps({"id": "y", "paper": str(EX / "paper.md")}),
        json.dumps({"id": "z", "paper": str(tmp_path / "gone.md"), "repo": str(tmp_path / "no-repo"),
                    "units": str(tmp_path / "no-units.yaml")}),
        json.dumps({"id": "x", **good}),
        json.dumps({"id": "../up", **good}),
        json.dumps(["a", "list"]),
    ]
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as err:
        run_batch(path, tmp_path / "out")
    message = str(err.value)
    assert "has 8 problem(s); nothing was run" in message
    for expected in ("m.jsonl:2: not valid JSON", "m.jsonl:3: not a valid manifest line (repo: Field required)",
                     "paper '" + str(tmp_path / "gone.md") + "' is not a file", "no-repo' is not a folder",
                     "no-units.yaml' is not a file", "duplicate pair id 'x' (2 lines)",
                     "m.jsonl:6: id '../up' is not a plain folder name", "m.jsonl:7: not a JSON object"):
        assert expected in message
    assert not (tmp_path / "out").exists()


def test_missing_manifest(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        read_manifest(tmp_path / "none.jsonl")
