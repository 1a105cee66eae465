"""Features of real units judged on a real parsed repository."""

from __future__ import annotations

import asyncio

from sa_align.calibrate.features import FEATURE_VERSION, feature_names, repo_features, unit_features
from sa_align.judges import aggregate, judge_static
from sa_align.models import Unit
from tests.judges.conftest import Judged, write_repo

CODE = {
    "train.py": '''
        import torch

        LEARNING_RATE = 3e-4
        WARMUP_STEPS = 500


        def cosine_schedule(step, total):
            """Cosine decay of the learning rate after a linear warmup."""
            if step < WARMUP_STEPS:
                return step / WARMUP_STEPS
            return 0.5 * (1 + torch.cos(torch.tensor(step / total * 3.14159)))


        def contrastive_loss(z1, z2, temperature):
            raise NotImplementedError


        if __name__ == "__main__":
            print(cosine_schedule(10, 100), contrastive_loss(None, None, 0.1))
    ''',
}


def _features(tmp_path, unit: Unit) -> dict[str, float]:
    judged = Judged(write_repo(tmp_path, CODE))
    ctx = judged.context(unit)
    static = asyncio.run(judge_static(ctx))
    hand = aggregate(unit, static, ctx.candidates, judged.config)
    return unit_features(unit, static, ctx.candidates, judged.index, hand)


def test_a_numerical_claim_found_in_code_has_every_value_found(tmp_path):
    unit = Unit(id="u", kind="numerical", claim="Adam with learning rate 3e-4 and 500 warmup steps")
    f = _features(tmp_path, unit)
    assert set(f) <= set(feature_names())
    assert f["unit.kind_numerical"] == 1.0 and f["unit.stated_values"] == 2.0
    assert f["values.found_share"] == 1.0 and f["values.absent"] == 0.0
    assert f["cand.count"] >= 1 and f["cand.values_top3"] > 0
    assert f["repo.python_lines"] > 0 and f["repo.empty"] == 0.0
    assert all(isinstance(v, float) for v in f.values())


def test_values_set_together_are_colocated_and_scattered_ones_are_not(tmp_path):
    lines = ["SCATTERED = [0.37]"] + ["x = None"] * 80 + ["OTHER = 0.91"]
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_far.py").write_text("BOTH = (0.37, 0.91)\n")
    (tmp_path / "far.py").write_text("\n".join(lines) + "\n")
    together = _features(tmp_path, Unit(id="u", kind="numerical", claim="learning rate 3e-4 with 500 warmup steps"))
    apart = _features(tmp_path, Unit(id="v", kind="numerical", claim="momentum 0.37 and dropout 0.91"))
    assert together["values.colocated_share"] == 1.0
    # Only the test file sets both within a few lines, and tests never show what a run uses.
    assert apart["values.found_share"] == 1.0 and apart["values.colocated_share"] == 0.5
    assert apart["values.sites"] > 0
    one = _features(tmp_path, Unit(id="w", kind="numerical", claim="momentum 0.37 for every run"))
    assert "values.colocated_share" not in one and "values.sites" in one


def test_a_placeholder_body_shows_as_a_stub_vote_and_a_stub_candidate(tmp_path):
    unit = Unit(id="u", kind="method", claim="The contrastive loss divides similarities by a temperature",
                hints=["contrastive_loss"])
    f = _features(tmp_path, unit)
    assert f["judge.stub.failure"] > 0 and f["judge.stub.certain"] == 1.0
    assert f["cand.top1_stub"] == 1.0
    assert f["hand.failure"] == 1.0 and f["hand.score"] == 0.0


def test_a_claim_without_values_or_candidates_leaves_those_features_absent(tmp_path):
    judged = Judged(write_repo(tmp_path, {"README.md": "Nothing here yet.\n"}))
    unit = Unit(id="u", kind="method", claim="A graph attention layer aggregates neighbour messages")
    static = asyncio.run(judge_static(judged.context(unit)))
    hand = aggregate(unit, static, [], judged.config)
    f = unit_features(unit, static, [], judged.index, hand)
    assert "values.found_share" not in f and "cand.top1" not in f and "cand.embedding" not in f
    assert f["cand.count"] == 0.0 and f["repo.empty"] == 1.0
    # The missing judge is certain on a repository without code; that is a feature, not a crash.
    assert f["judge.missing.certain"] == 1.0


def test_a_weak_absence_is_a_lean_not_a_vote(tmp_path):
    from sa_align.models import Param

    unit = Unit(id="u", kind="numerical", claim="Gradient clipping at norm 7.5 during the cosine schedule",
                params=[Param(name="gradient_clipping", value=7.5)])
    f = _features(tmp_path, unit)
    assert f["judge.missing.failure"] == 0.0 and f["judge.missing.lean_failure"] > 0


def test_repository_features_are_computed_once_per_index(tmp_path):
    judged = Judged(write_repo(tmp_path, CODE))
    assert repo_features(judged.index) is not repo_features(judged.index)  # a fresh dict each call
    assert repo_features(judged.index) == repo_features(judged.index)
    assert FEATURE_VERSION and len(feature_names()) == len(set(feature_names()))
