"""The one list of static judges (`judges` in units/kinds.yaml): the registry, the routing table and the
calibrated judge's features all derive from it, and disagreeing tables fail loudly."""

from __future__ import annotations

import pytest
import yaml

from sa_align.calibrate.features import feature_names, voters
from sa_align.calibrate.model import load_model, shipped_path
from sa_align.errors import ConfigError
from sa_align.judges import routing
from sa_align.models import UnitKind
from sa_align.resources import data_dir


def test_every_listed_judge_has_a_room_whose_factory_builds_it_under_its_name():
    factories = routing.registry()
    assert list(factories) == list(routing.judge_names())
    for name, factory in factories.items():
        assert factory().name == name


def test_every_kind_routes_only_listed_judges_and_every_judge_is_routed():
    routed = {n for kind in UnitKind for n in routing.static_judge_names(kind)}
    assert routed == set(routing.judge_names())


def test_the_calibrated_judges_vote_features_are_the_listed_judges():
    assert set(voters()) == set(routing.judge_names())
    votes = {name.split(".")[1] for name in feature_names() if name.startswith("judge.")}
    assert votes == set(routing.judge_names())
    # The shipped model was trained on exactly these features, in this order.
    assert load_model(shipped_path()).features == feature_names()


def test_a_kind_that_routes_an_unknown_judge_is_refused(monkeypatch):
    table = yaml.safe_load((data_dir("units") / "kinds.yaml").read_text())
    table["kinds"]["numerical"]["static"].append("oracle")
    monkeypatch.setattr(routing, "load_yaml", lambda name: table)
    routing._kinds.cache_clear()
    routing.judge_names.cache_clear()
    try:
        with pytest.raises(ConfigError, match="unknown static judges \\['oracle'\\]"):
            routing.static_judge_names(UnitKind.NUMERICAL)
    finally:
        routing._kinds.cache_clear()
        routing.judge_names.cache_clear()
