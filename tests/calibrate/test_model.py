"""The model file: the shipped one matches the code's feature set; bad files fail clearly."""

from __future__ import annotations

import json
import random

import pytest

from sa_align.calibrate.features import FEATURE_VERSION, feature_names
from sa_align.calibrate.model import MAX_BYTES, load_model, shipped_path
from sa_align.calibrate.train import fit
from sa_align.calibrate.model import Provenance
from sa_align.errors import CalibrationError


def test_the_shipped_model_matches_the_code_feature_set():
    # Fails when a judge, retrieval or a feature changes without retraining:
    # `sa-align bench --sabench DATASET --train OUT`, then copy OUT/sabench.json to units/calibration/.
    raw = json.loads(shipped_path().read_text(encoding="utf-8"))
    assert raw["feature_version"] == FEATURE_VERSION
    assert raw["features"] == feature_names()
    model = load_model()
    assert shipped_path().stat().st_size < MAX_BYTES
    assert model.provenance.commit and model.provenance.papers and "CC-BY-4.0" in model.provenance.license
    assert model.provenance.trained_at and model.provenance.claims > 1000


def test_the_shipped_model_never_saw_a_held_out_paper():
    import yaml

    from sa_align.resources import data_dir

    split = yaml.safe_load((data_dir("units") / "bench" / "sabench.yaml").read_text(encoding="utf-8"))
    assert set(load_model().provenance.papers) <= set(split["development"])


def _synthetic(n: int = 400, seed: int = 0) -> tuple[list[dict[str, float]], list[float]]:
    rng = random.Random(seed)
    rows, refs = [], []
    for _ in range(n):
        found = rng.random()
        row = {"values.found_share": found, "unit.kind_numerical": 1.0, "cand.count": 8.0}
        if rng.random() < 0.3:
            del row["values.found_share"]
        rows.append(row)
        refs.append(1.0 if found > 0.7 and rng.random() < 0.9 else rng.choice([0.0, 0.25, 0.5]))
    return rows, refs


def test_a_fitted_model_ranks_found_values_above_absent_ones_and_handles_absence(tmp_path):
    model = fit(*_synthetic(), Provenance(dataset="synthetic", commit="none", license="none"))
    (high, low, absent), (e_high, e_low, _e) = model.predict(
        [{"values.found_share": 0.95}, {"values.found_share": 0.05}, {}])
    assert 0.0 <= low < high <= 1.0 and 0.0 <= absent <= 1.0
    assert e_low < e_high
    path = tmp_path / "m.json"
    path.write_text(model.model_dump_json(), encoding="utf-8")
    again = load_model(path)
    assert again.predict([{"values.found_share": 0.95}])[0][0] == pytest.approx(high)


def test_a_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(CalibrationError, match="not found"):
        load_model(tmp_path / "nothing.json")


def test_a_corrupt_model_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"feature_version": "1", "features": [', encoding="utf-8")
    with pytest.raises(CalibrationError, match="unreadable or corrupt"):
        load_model(path)


def test_a_model_of_another_feature_set_is_refused_by_name(tmp_path):
    model = fit(*_synthetic(), Provenance(dataset="synthetic", commit="none", license="none"))
    stale = model.model_copy(update={"feature_version": "0"})
    path = tmp_path / "stale.json"
    path.write_text(stale.model_dump_json(), encoding="utf-8")
    with pytest.raises(CalibrationError, match=r"stale\.json.*feature set '0'.*retrain"):
        load_model(path)
