from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from sa_align import resources
from sa_align.errors import UnitsFileError
from sa_align.extract.importers import (
    IMPORTER_TABLES,
    guess_kind,
    import_paperbench_rubric,
    import_sabench,
    importer_tables,
)
from sa_align.resources import data_dir
from sa_align.models import Attribution, UnitKind

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "importers"


def test_paperbench_keeps_code_development_leaves_only():
    units = import_paperbench_rubric(FIXTURES / "rubric.json")
    assert [u.id for u in units] == ["clip-topk", "clip-rule", "eval-data", "eval-order"]
    assert {u.origin for u in units} == {"paperbench"}
    assert all(u.params == [] for u in units)


def test_paperbench_weights_are_path_products():
    units = {u.id: u for u in import_paperbench_rubric(FIXTURES / "rubric.json")}
    # root children 3:1 -> 0.75 / 0.25; clip leaves 2:1:1; eval leaves 1:1:2.
    assert units["clip-topk"].weight == pytest.approx(0.75 * 0.5)
    assert units["clip-rule"].weight == pytest.approx(0.75 * 0.25)
    assert units["eval-data"].weight == pytest.approx(0.25 * 0.25)
    assert units["eval-order"].weight == pytest.approx(0.25 * 0.25)


def test_paperbench_kinds_and_hints():
    units = {u.id: u for u in import_paperbench_rubric(FIXTURES / "rubric.json")}
    assert units["clip-topk"].kind == UnitKind.NUMERICAL  # "top 1%"
    assert units["clip-rule"].kind == UnitKind.METHOD
    assert units["eval-data"].kind == UnitKind.PROTOCOL  # CIFAR-10 is a name, not a number
    assert units["eval-order"].kind == UnitKind.ORDERING
    assert units["clip-topk"].hints == ["Method Implementation"]
    assert units["eval-order"].hints == []


def test_paperbench_accepts_data_and_rejects_other_shapes():
    data = json.loads((FIXTURES / "rubric.json").read_text())
    assert len(import_paperbench_rubric(data)) == 4
    with pytest.raises(UnitsFileError, match="not a PaperBench rubric"):
        import_paperbench_rubric([1, 2])


def test_sabench_mapping():
    units = {u.id: u for u in import_sabench(FIXTURES / "sau.json")}
    assert list(units) == ["SAU-1", "SAU-2", "SAU-3", "SAU-4", "SAU-5", "SAU-6"]
    assert {u.origin for u in units.values()} == {"sa-bench"}
    one = units["SAU-1"]
    assert one.kind == UnitKind.NUMERICAL and one.weight == 2.0
    assert one.quote == "clip them to a threshold of 0.5" and one.section == "2.1 Selecting coordinates"
    assert one.params[0].name == "clip_threshold" and one.params[0].value == 0.5
    assert units["SAU-2"].kind == UnitKind.METHOD and units["SAU-2"].attribution == Attribution.NOVEL
    assert units["SAU-3"].kind == UnitKind.PROTOCOL and units["SAU-3"].entities == ["CIFAR-10"]
    assert units["SAU-4"].kind == UnitKind.ORDERING and len(units["SAU-4"].order) == 2
    assert units["SAU-5"].attribution == Attribution.CITED and units["SAU-5"].cited_ref == "kingma2015"
    # No description: the quote becomes the claim and the kind is guessed from it.
    assert units["SAU-6"].claim == "the rest pass through unchanged"
    assert units["SAU-6"].quote == "the rest pass through unchanged"


def test_sabench_plain_list_and_missing_fields():
    data = [{"description": "The batch size is 256."}, {"claim": "Use dropout", "type": "Weird"}, "junk"]
    units = import_sabench(data)
    assert [u.id for u in units] == ["sau-001", "sau-002"]
    assert units[0].kind == UnitKind.NUMERICAL
    assert units[1].kind == UnitKind.NUMERICAL  # unknown type: guessed, and dropout is a hyperparameter
    with pytest.raises(UnitsFileError, match="not an SA-Bench unit list"):
        import_sabench({"something": 1})


def test_sabench_duplicate_ids_are_made_unique():
    units = import_sabench([{"id": "a", "claim": "x"}, {"id": "a", "claim": "y"}])
    assert [u.id for u in units] == ["a", "a-2"]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Train with a learning rate of 0.001", UnitKind.NUMERICAL),
        ("The hyperparameters match the paper", UnitKind.NUMERICAL),
        ("Normalize the inputs before the encoder is applied", UnitKind.ORDERING),
        ("Report accuracy on the ImageNet validation set", UnitKind.PROTOCOL),
        ("Compute the attention weights with a softmax", UnitKind.METHOD),
        ("Use GPT-2 embeddings", UnitKind.METHOD),
    ],
)
def test_guess_kind(text, kind):
    assert guess_kind(text) == kind


def test_aliases_reachable_from_extract_package():
    import sa_align.extract as extract

    assert extract.load_sau is import_sabench
    assert extract.load_rubric is import_paperbench_rubric


def test_tables_load_from_units():
    tables = importer_tables()
    shipped = yaml.safe_load((data_dir("units") / IMPORTER_TABLES).read_text(encoding="utf-8"))
    assert tables.kind_words["hyper parameter"] == UnitKind.NUMERICAL
    assert tables.kind_words["experimental setup"] == UnitKind.PROTOCOL
    assert len(tables.kind_words) == sum(len(names) for names in shipped["categories"].values())
    assert tables.fields["quote"] == tuple(shipped["sabench"]["fields"]["quote"])
    assert tables.code_category == "code development"
    # Category names are read in any case, with `_`/`-` as spaces.
    assert import_sabench([{"type": "Hyper_Parameter", "claim": "The encoder is a transformer"}])[0].kind == UnitKind.NUMERICAL


@pytest.fixture
def importers_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A writable copy of `units/importers.yaml` that the importers read during the test."""
    root = tmp_path / "units"
    root.mkdir()
    shutil.copy(data_dir("units") / IMPORTER_TABLES, root / IMPORTER_TABLES)
    real = resources.data_dir
    monkeypatch.setattr(resources, "data_dir", lambda name: root if name == "units" else real(name))
    resources.load_yaml.cache_clear()
    importer_tables.cache_clear()
    yield root / IMPORTER_TABLES
    resources.load_yaml.cache_clear()
    importer_tables.cache_clear()


def _edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    resources.load_yaml.cache_clear()
    importer_tables.cache_clear()


def test_added_entries_take_effect(importers_yaml: Path):
    item = {"kategorie": "hparam", "beschreibung": "The encoder is a transformer", "origin_ref": "vaswani2017"}
    assert import_sabench([item]) == []  # no known claim key yet
    assert guess_kind("Ablate the curriculum") == UnitKind.METHOD

    def add(data: dict[str, Any]) -> None:
        fields = data["sabench"]["fields"]
        fields["claim"].append("beschreibung")
        fields["kind"].append("kategorie")
        fields["cited_ref"].append("origin_ref")
        data["categories"]["numerical"].append("hparam")
        data["kind_cues"]["ordering"].append("curriculum")

    _edit(importers_yaml, add)
    (unit,) = import_sabench([item])
    assert unit.claim == "The encoder is a transformer"
    assert unit.kind == UnitKind.NUMERICAL
    assert unit.attribution == Attribution.CITED and unit.cited_ref == "vaswani2017"
    assert guess_kind("Ablate the curriculum") == UnitKind.ORDERING


def test_sabench_score_file_gives_id_claim_and_source_only(tmp_path):
    from sa_align.unitsfile import load_units

    score = tmp_path / "p-sau-score.json"
    score.write_text(json.dumps({
        "model": "judge", "overall_score": 0.5,
        "dimensions": {
            "D1": {"claims": [{"id": "p-D1-001", "claim": "lr=0.1", "source": "Table 2", "score": 1.0,
                               "evidence": [{"snippet": "ANSWER-TEXT"}], "judge_reasoning": "ANSWER-TEXT"}]},
            "D4": {"claims": [{"id": "p-D4-001", "claim": "warm up -> train", "score": 0.0, "search_trace": ["ANSWER-TEXT"]}]},
        },
    }))
    units = load_units(score)
    assert [(u.id, u.kind.value, u.section) for u in units] == [("p-D1-001", "numerical", "Table 2"), ("p-D4-001", "ordering", None)]
    assert "ANSWER-TEXT" not in json.dumps([u.model_dump(mode="json") for u in units])
    assert all(u.quote == "" for u in units)


def test_sabench_evidence_is_never_a_quote():
    units = import_sabench([{"claim": "Batch size 256", "evidence": "the judge's finding"}])
    assert units[0].quote == ""
