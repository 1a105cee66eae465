"""Dangling names: results still read after the code that produced them is gone."""

from __future__ import annotations

from sa_align.judges.missing.dangling import dangling
from sa_align.judges.missing.judge import judge_missing
from sa_align.models import Label, Unit

AGENT = {
    "train.py": '''
        from agent import surrogate

        if __name__ == "__main__":
            print(surrogate([0.1], [0.2], [1.0]))
    ''',
    "agent.py": '''
        import math


        def surrogate(new_logp, old_logp, adv, eps=0.2):
            out = []
            for r, a in zip(ratio, adv):
                out.append(min(r * a, max(min(r, 1 + eps), 1 - eps) * a))
            return out
    ''',
}


def method(claim: str, hints: list[str], kind: str = "method", entities: list[str] | None = None) -> Unit:
    return Unit(id="u", kind=kind, claim=claim, hints=hints, entities=entities or [])


async def test_a_hint_read_unbound_is_missing_and_certain_when_nothing_it_names_is_left(small):
    unit = method("The probability ratio is exp(new log-prob - old log-prob).", ["ratio", "math.exp", "probability_ratio"])
    verdict = judge_missing(small(AGENT).context(unit))
    assert verdict.label == Label.MISSING and verdict.certain
    assert "`ratio` (agent.py:6" in verdict.reason
    assert verdict.evidence[0].path == "agent.py"


async def test_a_named_identifier_still_in_the_code_leaves_the_verdict_uncertain(small):
    # `old_logp` is still a parameter of `surrogate`: something of the claim's code is left.
    unit = method("The probability ratio is exp(new log-prob - old log-prob).", ["ratio", "math.exp", "old_logp"])
    verdict = judge_missing(small(AGENT).context(unit))
    assert verdict.label == Label.MISSING and not verdict.certain
    assert verdict.confidence > 0.8  # above a protocol judge's `aligned` from a config mention


async def test_a_word_of_a_vanished_compound_hint_counts(small):
    files = {
        "train.py": '''
            def run(steps):
                obs = env.reset()
                return [obs for _ in range(steps)]


            if __name__ == "__main__":
                run(3)
        ''',
    }
    unit = method("Environments come from the Gym interface.", ["make_env", "gym"], kind="protocol", entities=["OpenAI Gym"])
    verdict = dangling(small(files).context(unit))
    assert verdict is not None and "`env`" in verdict.reason and "`make_env`" in verdict.reason


async def test_no_verdict_when_the_named_code_still_exists(small):
    files = dict(AGENT)
    files["agent.py"] = AGENT["agent.py"] + '''

        def ratio_of(new_logp, old_logp):
            return [math.exp(n - o) for n, o in zip(new_logp, old_logp)]
    '''
    unit = method("The probability ratio is exp(new log-prob - old log-prob).", ["ratio", "ratio_of"])
    assert dangling(small(files).context(unit)) is None


async def test_an_unbound_name_of_another_claim_says_nothing(small):
    unit = method("Advantages are normalized per minibatch.", ["normalize_advantages", "adv_std"])
    assert dangling(small(AGENT).context(unit)) is None


async def test_complete_code_has_nothing_dangling(small):
    files = dict(AGENT)
    files["agent.py"] = AGENT["agent.py"].replace(
        "    out = []", "    out = []\n            ratio = [math.exp(n - o) for n, o in zip(new_logp, old_logp)]")
    unit = method("The probability ratio is exp(new log-prob - old log-prob).", ["ratio", "math.exp"])
    j = small(files)
    assert not j.index.unbound
    assert dangling(j.context(unit)) is None


GAE = {
    "ppo.py": '''
        import numpy as np


        def compute_gae(rewards, values, gamma=0.99, gae_lambda=0.95):
            advantages = np.zeros_like(rewards)
            last = 0.0
            for t in reversed(range(len(rewards))):
                delta = rewards[t] + gamma * values[t + 1] - values[t]
                last = delta + gamma * gae_lambda * last
                advantages[t] = last
            return advantages


        if __name__ == "__main__":
            print(compute_gae(np.ones(3), np.zeros(4)))
    ''',
    "scripts/plot_advantages.py": '''
        def plot(run_dir):
            # loaded advantages from the run directory before the logging refactor
            print(advantages.ravel(), run_dir)


        if __name__ == "__main__":
            plot("runs")
    ''',
}


async def test_a_stale_read_of_a_name_the_implementation_binds_says_nothing(small):
    j = small(GAE)
    assert "advantages" in j.index.unbound_names()
    for hints in (["advantages", "gae_lambda"], ["advantages"]):
        unit = method("Advantages are estimated with GAE (lambda = 0.95).", hints)
        assert dangling(j.context(unit)) is None
        assert judge_missing(j.context(unit)).label != Label.MISSING


async def test_an_intact_function_carrying_the_units_hints_owns_it(small):
    files = dict(GAE)
    files["ppo.py"] = GAE["ppo.py"].replace("advantages", "adv")
    unit = method("Advantages are estimated with GAE (lambda = 0.95).", ["advantages", "gae_lambda", "delta"])
    assert dangling(small(files).context(unit)) is None


async def test_a_parameter_of_that_name_counts_as_a_binding_of_a_hint(small):
    files = dict(AGENT)
    files["loss.py"] = '''
        def clipped(ratio, adv, eps=0.2):
            return min(ratio * adv, max(min(ratio, 1 + eps), 1 - eps) * adv)


        if __name__ == "__main__":
            print(clipped(1.0, 1.0))
    '''
    unit = method("The probability ratio is exp(new log-prob - old log-prob).", ["ratio", "probability_ratio"])
    assert dangling(small(files).context(unit)) is None


async def test_reads_that_never_run_say_nothing(small):
    files = {
        "train.py": '''
            def run(steps):
                return steps


            if __name__ == "__main__":
                run(3)
        ''',
        "tests/test_ratio.py": '''
            def test_ratio():
                assert ratio > 0
        ''',
        "old/notes.py": '''
            print(ratio)
        ''',
    }
    j = small(files)
    assert "ratio" in j.index.unbound_names()
    unit = method("The probability ratio is exp(new log-prob - old log-prob).", ["ratio", "probability_ratio"])
    assert dangling(j.context(unit)) is None


ENV = {
    "train.py": '''
        def rollout(env, steps):
            return [env.step(0) for _ in range(steps)]


        def run(steps):
            obs = env.reset()
            return obs, rollout(env, steps)


        if __name__ == "__main__":
            run(3)
    ''',
}


async def test_a_word_of_a_vanished_producer_is_missing_though_consumers_take_it(small):
    # `env` is still a parameter of `rollout`, which receives what the gone `make_env` made.
    unit = method("Environments come from the Gym interface.", ["make_env", "gym"], kind="protocol", entities=["OpenAI Gym"])
    verdict = dangling(small(ENV).context(unit))
    assert verdict is not None and verdict.label == Label.MISSING and not verdict.certain


async def test_a_producer_under_another_name_keeps_the_word(small):
    files = {"train.py": ENV["train.py"].replace("run(3)", "run(build_env(3))") + '''

        def build_env(name):
            return name
    '''}
    unit = method("Environments come from the Gym interface.", ["make_env", "gym"], kind="protocol", entities=["OpenAI Gym"])
    assert dangling(small(files).context(unit)) is None


async def test_an_assignment_anywhere_makes_the_word(small):
    files = {"train.py": ENV["train.py"] + '''

        class Runner:
            def __init__(self, make):
                self.env = make()
    '''}
    unit = method("Environments come from the Gym interface.", ["make_env", "gym"], kind="protocol", entities=["OpenAI Gym"])
    assert dangling(small(files).context(unit)) is None


async def test_missing_outvotes_a_config_mention_of_the_dataset(small):
    files = {
        "configs/citation.yaml": "data:\n  dataset: planetoid\n  root: data/planetoid\n",
        "data.py": '''
            def load(labels):
                return (labels,) + splits


            if __name__ == "__main__":
                load([1, 2])
        ''',
    }
    unit = method("The data splits follow the Planetoid setup.", ["make_splits", "idx_train", "idx_val"],
                  kind="protocol", entities=["Planetoid"])
    result = await small(files).judge(unit)
    votes = {v.judge: v for v in result.verdicts if not v.abstained}
    assert votes["protocol"].label == Label.ALIGNED
    assert votes["missing"].label == Label.MISSING and not votes["missing"].certain
    assert result.label == Label.MISSING


async def test_binding_forms_are_told_from_reads_and_keyword_arguments(small):
    from sa_align.judges.missing.dangling import _binds

    j = small({"forms.py": '''
        from lib import (
            imported_a,
        )
        import pkg.sub as alias_b
        made_c = f(read_x, key_y=1)
        self.made_d += 1
        with open(p) as (made_e, made_f):
            pass
        for taken_g, taken_h in pairs:
            pass
        total = sum(
            read_z, key_w=2)
        g = lambda taken_i: taken_i
        if (made_j := 3):
            pass
        # made_k = 1
        print(read_k)
    '''})
    makes = {n for n in ("imported_a", "alias_b", "made_c", "made_d", "made_e", "made_f", "made_j") if _binds(j.index, n)[0]}
    assert makes == {"imported_a", "alias_b", "made_c", "made_d", "made_e", "made_f", "made_j"}
    assert all(_binds(j.index, n) == (False, True) for n in ("taken_g", "taken_h", "taken_i"))
    assert not any(any(_binds(j.index, n)) for n in ("read_x", "key_y", "read_z", "key_w", "made_k"))
