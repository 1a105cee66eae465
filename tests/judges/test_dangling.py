"""Dangling names: results still read after the code that produced them is gone."""

from __future__ import annotations

from sa_align.judges.dangling import dangling
from sa_align.judges.missing import judge_missing
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


async def test_a_hint_read_unbound_is_missing_and_certain(small):
    unit = method("The probability ratio is exp(new log-prob - old log-prob).", ["ratio", "math.exp", "old_logp"])
    verdict = judge_missing(small(AGENT).context(unit))
    assert verdict.label == Label.MISSING and verdict.certain
    assert "`ratio` (agent.py:6" in verdict.reason
    assert verdict.evidence[0].path == "agent.py"


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
