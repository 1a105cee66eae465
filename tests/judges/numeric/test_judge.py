"""Numeric judge on a real indexed repository: config keys, argparse defaults, keyword arguments."""

from __future__ import annotations

import pytest

from sa_align.judges.numeric.compare import compare
from sa_align.judges.numeric.judge import judge_numeric
from sa_align.models import Label, Param, Unit


def num(uid: str, name: str, value=None, values=None, shape="scalar", **kw) -> Unit:
    p = Param(name=name, value=value, values=values or [], shape=shape, **kw)
    return Unit(id=uid, kind="numerical", claim=f"{name} is {value if value is not None else values}.", params=[p])


LR = num("lr", "learning_rate", 3e-4, text="3 × 10^-4")
WARMUP = num("warmup", "warmup_steps", 500)
SMOOTH = num("smooth", "label_smoothing", 10, unit="%")
BETAS = num("betas", "betas", values=[0.9, 0.999], shape="sequence")
BATCH = num("batch", "batch_size", 256)


@pytest.mark.parametrize("unit, where", [
    (LR, "configs/base.yaml:3"),       # YAML config key
    (WARMUP, "train.py:17"),           # argparse default
    (SMOOTH, "train.py:26"),           # keyword argument, percent vs fraction
    (BETAS, "configs/base.yaml:5"),    # sequence
])
async def test_aligned_values_are_found_where_they_are_set(judged, unit, where):
    result = await judged("trainer").judge(unit)
    assert result.label == Label.ALIGNED
    assert result.decided_by == "static"
    assert where in [str(e) for e in result.evidence]


@pytest.mark.parametrize("unit, edit, where", [
    (LR, {"configs/base.yaml": ("lr: 0.0003", "lr: 0.001")}, "configs/base.yaml:3"),
    (WARMUP, {"train.py": ("default=500", "default=1000")}, "train.py:17"),
    (SMOOTH, {"train.py": ("smoothing=0.1", "smoothing=0.2")}, "train.py:26"),
    (BETAS, {"configs/base.yaml": ("[0.9, 0.999]", "[0.9, 0.99]")}, "configs/base.yaml:5"),
])
async def test_changed_values_are_mismatched_with_the_line(judged, unit, edit, where):
    result = await judged("trainer", edit).judge(unit)
    assert result.label == Label.MISMATCHED
    assert where in [str(e) for e in result.evidence]
    numeric = next(v for v in result.verdicts if v.judge == "numeric")
    assert numeric.certain


async def test_config_outranks_a_cli_default(judged):
    # batch_size: config says 256, argparse default says 128; the config takes effect.
    result = await judged("trainer").judge(BATCH)
    assert result.label == Label.ALIGNED
    assert not next(v for v in result.verdicts if v.judge == "numeric").certain
    changed = await judged("trainer", {"configs/base.yaml": ("batch_size: 256", "batch_size: 512")}).judge(BATCH)
    assert changed.label == Label.MISMATCHED


async def test_hard_coded_keyword_overrides_the_config(judged):
    edit = {"trainer/optim.py": ('lr=cfg["lr"]', "lr=0.01")}
    result = await judged("trainer", edit).judge(LR)
    assert result.label == Label.MISMATCHED
    assert "trainer/optim.py:9" in [str(e) for e in result.evidence]


async def test_parameter_set_nowhere_abstains(judged):
    j = judged("trainer")
    verdict = judge_numeric(j.context(num("mom", "momentum", 0.9)))
    assert verdict.abstained and verdict.label == Label.UNDECIDED


def test_compare_notations_sequences_sets_and_ranges():
    assert compare(0.0003, Param(name="lr", value="3e-4"), 1e-6) == "match"
    assert compare("1e-3", Param(name="lr", value=3e-4), 1e-6) == "conflict"
    assert compare(0.1, Param(name="p", value=10, unit="%"), 1e-6) == "match"
    assert compare([30, 60], Param(name="m", values=[30, 60], shape="sequence"), 1e-6) == "match"
    assert compare([60, 30], Param(name="m", values=[30, 60], shape="sequence"), 1e-6) == "conflict"
    assert compare([30, 60, 90], Param(name="m", values=[30, 60], shape="sequence"), 1e-6) == "conflict"
    # A set is a search: the code's grid must hold every value; one fixed value of it decides nothing.
    searched = Param(name="lr", values=[0.1, 0.01], shape="set")
    assert compare([0.01, 0.1, 1.0], searched, 1e-6) == "match" and compare([0.1, 1.0], searched, 1e-6) == "conflict"
    assert compare(0.01, searched, 1e-6) is None
    assert compare(0.5, Param(name="lr", values=[0.1, 0.3], shape="range"), 1e-6) == "conflict"
    assert compare(True, Param(name="nesterov", value=True), 1e-6) == "match"
    assert compare("adamw", Param(name="optimizer", value="AdamW"), 1e-6) == "match"
    assert compare([1, 2], Param(name="lr", value=0.1), 1e-6) is None
    assert compare(0.00031, Param(name="lr", value=3e-4, tolerance=0.05), 0.05) == "match"


SCHEDULE_REPO = {
    "train.py": '''
        import argparse
        import yaml


        def cosine_multiplier(progress, eta_min=0.0, eta_max=1.0):
            return eta_min + (eta_max - eta_min) * progress


        def get_args():
            p = argparse.ArgumentParser()
            p.add_argument("--wd-norm", type=float, default=0.0025)
            return p.parse_args()


        def main():
            cfg = yaml.safe_load(open("config.yaml"))
            args = get_args()
            print(cfg["lr"], cfg["base_width"], cfg["attn_resolutions"], args.wd_norm, cosine_multiplier(0.5))
    ''',
    "config.yaml": "lr: 0.001\nbase_width: 64\nattn_resolutions: [16]\nseed: 0\n",
    "run.sh": "python train.py --wd-norm 0.025\n",
}


async def test_a_specific_alias_name_only_looks_at_its_own_sites(small):
    # `eta_max` aliases the learning rate, but where the code spells `eta_max` only that site counts.
    unit = num("eta", "eta_max", 1.0)
    verdict = judge_numeric(small(SCHEDULE_REPO).context(unit))
    assert verdict.label == Label.ALIGNED, verdict.reason


async def test_hints_locate_a_setting_under_another_name(small):
    j = small(SCHEDULE_REPO)
    unit = num("w", "num_filters", 64).model_copy(update={"hints": ["base_width"]})
    assert judge_numeric(j.context(unit)).label == Label.ALIGNED
    wrong = num("w", "num_filters", 32).model_copy(update={"hints": ["base_width"]})
    verdict = judge_numeric(j.context(wrong))
    assert verdict.label == Label.MISMATCHED and not verdict.certain


async def test_a_generic_hint_confirms_but_never_flags(small):
    unit = num("s", "seeds", 3).model_copy(update={"hints": ["seed"]})
    verdict = judge_numeric(small(SCHEDULE_REPO).context(unit))
    assert verdict.label != Label.MISMATCHED


async def test_one_element_list_states_one_value(small):
    verdict = judge_numeric(small(SCHEDULE_REPO).context(num("a", "attn_resolutions", 16)))
    assert verdict.label == Label.ALIGNED


async def test_script_flag_and_its_default_disagreeing_is_a_mismatch(small):
    verdict = judge_numeric(small(SCHEDULE_REPO).context(num("wd", "weight_decay_norm", 0.025)))
    assert verdict.label == Label.MISMATCHED and verdict.confidence < 0.9


def claim(unit: Unit, text: str, hints: list[str]) -> Unit:
    return unit.model_copy(update={"claim": text, "hints": hints})


GLUE_REPO = {
    "train.py": '''
        import yaml


        def main(task):
            cfg = yaml.safe_load(open("config.yaml"))["tasks"][task]
            return cfg["learning_rate"], cfg["epochs"]
    ''',
    "config.yaml": """
        tasks:
          mnli:
            learning_rate: 5.0e-4
            epochs: 30
          sst2:
            learning_rate: 4.0e-4
            epochs: 60
    """,
}


def test_the_site_whose_key_path_names_the_unit_decides(small):
    j = small(GLUE_REPO)
    mnli = claim(num("m", "learning_rate", 5e-4), "The learning rate for MNLI is 5e-4.", ["learning_rate", "mnli"])
    verdict = judge_numeric(j.context(mnli))
    assert verdict.label == Label.ALIGNED and [str(e) for e in verdict.evidence] == ["config.yaml:3"]
    sst2 = claim(num("s", "learning_rate", 5e-4), "The learning rate for SST-2 is 5e-4.", ["learning_rate"])
    verdict = judge_numeric(j.context(sst2))
    assert verdict.label == Label.MISMATCHED and [str(e) for e in verdict.evidence] == ["config.yaml:6"]
    assert not verdict.certain


def test_other_settings_of_the_same_name_stay_aligned_without_context(small):
    unit = claim(num("m", "learning_rate", 5e-4), "The learning rate is 5e-4.", ["learning_rate"])
    verdict = judge_numeric(small(GLUE_REPO).context(unit))
    assert verdict.label == Label.ALIGNED and verdict.confidence < 0.7


def test_config_file_names_are_context(small):
    files = {
        "train.py": "import sys, yaml\nprint(yaml.safe_load(open(sys.argv[1]))['batch_size'])\n",
        "configs/cifar10.yaml": "batch_size: 128\n",
        "configs/imagenet.yaml": "batch_size: 256\n",
    }
    unit = claim(num("b", "batch_size", 128), "The batch size on CIFAR-10 is 128.", ["batch_size"])
    verdict = judge_numeric(small(files).context(unit))
    assert verdict.label == Label.ALIGNED and [str(e) for e in verdict.evidence] == ["configs/cifar10.yaml:1"]


def test_enclosing_function_names_are_context(small):
    files = {"train.py": '''
        import torch


        def pretrain(model):
            return torch.optim.Adam(model.parameters(), lr=1e-3)


        def finetune(model):
            return torch.optim.Adam(model.parameters(), lr=1e-4)


        if __name__ == "__main__":
            finetune(pretrain(None))
    '''}
    j = small(files)
    said = "The learning rate for fine-tuning is 1e-3."
    verdict = judge_numeric(j.context(claim(num("f", "learning_rate", 1e-3), said, ["learning_rate"])))
    assert verdict.label == Label.MISMATCHED and [str(e) for e in verdict.evidence] == ["train.py:9"]
    said = "The learning rate for pre-training is 1e-3."
    verdict = judge_numeric(j.context(claim(num("p", "learning_rate", 1e-3), said, ["learning_rate"])))
    assert verdict.label == Label.ALIGNED and [str(e) for e in verdict.evidence] == ["train.py:5"]


SEEDS_REPO = {
    "train.py": '''
        import argparse


        def main():
            p = argparse.ArgumentParser()
            p.add_argument("--seed", type=int, default=0)
            return p.parse_args().seed
    ''',
    "scripts/run.sh": '''
        #!/usr/bin/env bash
        SEEDS=3
        for seed in $(seq 0 $((SEEDS - 1))); do
          python train.py --seed "$seed"
        done
    ''',
}


async def test_a_launcher_variable_sets_its_parameter(small):
    j = small(SEEDS_REPO)
    verdict = judge_numeric(j.context(num("s", "seeds", 3)))
    assert verdict.label == Label.ALIGNED and verdict.certain
    assert [str(e) for e in verdict.evidence] == ["scripts/run.sh:2"]
    changed = small({**SEEDS_REPO, "scripts/run.sh": SEEDS_REPO["scripts/run.sh"].replace("SEEDS=3", "SEEDS=5")})
    result = await changed.judge(num("s", "seeds", 3))
    assert result.label == Label.MISMATCHED and "scripts/run.sh:2" in [str(e) for e in result.evidence]


def test_shell_variable_tiers(small):
    from sa_align.judges.numeric.sites import tier

    files = {
        **SEEDS_REPO,
        "scripts/run.sh": "SEEDS=3\nUNUSED=7\nexport LR=0.1\nfor s in $(seq $SEEDS); do python train.py; done\n",
        "scripts/fetch.sh": "PARTS=4\nfor i in $(seq $PARTS); do curl -O \"https://example.org/part$i\"; done\n",
    }
    j = small(files)
    tiers = {f.name: tier(f, j.index) for f in j.index.values if f.source == "shell"}
    # A launcher's variables are launch settings (like the flags it passes); one the script never
    # reads is dead; a script that starts no run only sets what it does itself.
    assert tiers == {"SEEDS": 3, "UNUSED": 0, "LR": 3, "PARTS": 2}


def test_a_launcher_variable_outranks_a_function_default(small):
    files = {**SEEDS_REPO, "train.py": "def main(seeds=5):\n    return list(range(seeds))\n"}
    verdict = judge_numeric(small(files).context(num("s", "seeds", 3)))
    assert verdict.label == Label.ALIGNED and not verdict.certain
    verdict = judge_numeric(small(files).context(num("s", "seeds", 5)))
    assert verdict.label == Label.MISMATCHED


SCHEDULES = {
    "schedule.py": '''
        import torch


        def linear_beta_schedule(num_timesteps, beta_start=1e-4, beta_end=0.02):
            """Variances growing linearly from beta_start to beta_end."""
            steps = torch.arange(num_timesteps + 1, dtype=torch.float64) / num_timesteps
            alpha_bar = torch.cos((steps + 0.008) / 1.008 * torch.pi / 2) ** 2
            return torch.clamp(1.0 - alpha_bar[1:] / alpha_bar[:-1], max=0.999)
    ''',
}
BETAS = Unit(id="b", kind="numerical", claim="Variances grow linearly from 1e-4 to 0.02.",
             params=[Param(name="beta_start", value=1e-4), Param(name="beta_end", value=0.02)])


def test_a_default_the_body_never_reads_is_not_aligned(small):
    verdict = judge_numeric(small(SCHEDULES).context(BETAS))
    assert verdict.label == Label.MISMATCHED and not verdict.certain and verdict.confidence <= 0.6
    assert "never reads" in verdict.reason


def test_a_default_the_body_reads_stays_aligned(small):
    linear = "return torch.linspace(beta_start, beta_end, num_timesteps)\n            "
    read = {"schedule.py": SCHEDULES["schedule.py"].replace("steps = torch.arange", linear + "steps = torch.arange")}
    verdict = judge_numeric(small(read).context(BETAS))
    assert verdict.label == Label.ALIGNED and verdict.certain


def test_an_unread_default_gives_way_to_a_site_that_takes_effect(small):
    files = {
        **SCHEDULES,
        "config.yaml": "beta_start: 0.0001\nbeta_end: 0.02\n",
        "train.py": """
            import yaml
            cfg = yaml.safe_load(open("config.yaml"))
            print(cfg["beta_start"], cfg["beta_end"])
        """,
    }
    verdict = judge_numeric(small(files).context(BETAS))
    assert verdict.label == Label.ALIGNED
    assert {str(e) for e in verdict.evidence} == {"config.yaml:1", "config.yaml:2"}


@pytest.mark.parametrize("body", [
    "raise NotImplementedError",                   # a placeholder: the stub judge's to label
    "return eval('beta_start + beta_end', {}, locals())",  # reads its locals reflectively
])
def test_placeholder_and_reflective_bodies_keep_their_defaults(small, body):
    files = {"schedule.py": f"def linear_beta_schedule(n, beta_start=1e-4, beta_end=0.02):\n    {body}\n"}
    verdict = judge_numeric(small(files).context(BETAS))
    assert verdict.label == Label.ALIGNED


def test_the_share_of_differing_values_grades_a_mismatch():
    from sa_align.judges.numeric.judge import mismatch_score

    assert mismatch_score(bad=2, good=0) == 0.25
    assert mismatch_score(bad=1, good=3) == 0.75
    assert mismatch_score(bad=2, good=2) == 0.5


async def test_a_preset_the_claim_names_decides_and_is_named(small):
    from sa_align.extract.derive import complete_unit

    repo = small({
        "config.py": """
            PRESETS = {
                "base": {"d_model": 512, "num_heads": 8, "dropout": 0.1},
                "big": {"d_model": 1024, "num_heads": 16, "dropout": 0.3},
            }


            def get_config(name):
                return PRESETS[name]
        """,
        "train.py": """
            from config import get_config


            def main(size="base"):
                cfg = get_config(size)
                return cfg["d_model"], cfg["num_heads"], cfg["dropout"]


            if __name__ == "__main__":
                main()
        """,
    })
    base = await repo.judge(complete_unit(Unit(id="b", kind="numerical", claim="Base model: d_model=512, num_heads=8, dropout=0.1")))
    assert base.label == Label.ALIGNED
    assert "`PRESETS.base`, the preset the claim names" in next(v.reason for v in base.verdicts if v.judge == "numeric")
    big = await repo.judge(complete_unit(Unit(id="g", kind="numerical", claim="Big model: dropout=0.1")))
    assert big.label == Label.MISMATCHED


async def test_a_value_only_code_nothing_runs_sets_is_not_aligned(small):
    repo = small({"train.py": """
        import torch


        def old_setup(model):
            return torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)


        def main(model):
            # TODO: set up the optimizer
            optimizer = None
            for step in range(10):
                model.step(optimizer)


        if __name__ == "__main__":
            main(None)
    """})
    unit = Unit(id="lr", kind="numerical", claim="SGD, learning rate 0.1", params=[Param(name="learning_rate", value=0.1)])
    result = await repo.judge(unit)
    numeric = next(v for v in result.verdicts if v.judge == "numeric")
    assert numeric.abstained and "only in code nothing that runs calls: `old_setup`" in numeric.reason
    assert result.label == Label.STUBBED


async def test_a_value_under_a_related_name_is_reported_but_decides_nothing(small):
    from sa_align.extract.derive import complete_unit

    repo = small({"sample.py": """
        NUM_REFINE_PASSES = 100
        GUIDANCE = 7.5


        def sample(model):
            return model(NUM_REFINE_PASSES, GUIDANCE)


        if __name__ == "__main__":
            sample(print)
    """})
    same = await repo.judge(complete_unit(Unit(id="i", kind="numerical", claim="Sampling: refine_passes=100")))
    numeric = next(v for v in same.verdicts if v.judge == "numeric")
    assert numeric.abstained and "related name (NUM_REFINE_PASSES), which is not counted" in numeric.reason
    other = await repo.judge(complete_unit(Unit(id="o", kind="numerical", claim="Sampling: refine_passes=250")))
    assert other.label != Label.ALIGNED and next(v for v in other.verdicts if v.judge == "numeric").abstained


ADAM = {"train.py": """
    import torch


    def main(model):
        return torch.optim.Adam(model.parameters(), lr=2e-5, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01)


    if __name__ == "__main__":
        main(None)
"""}


async def test_tuple_elements_set_their_parameters_and_one_wrong_value_of_four_is_a_minor_deviation(small):
    from sa_align.extract.derive import complete_unit

    repo = small(ADAM)
    right = await repo.judge(complete_unit(Unit(id="r", kind="numerical", claim="Adam: lr=2e-5, beta1=0.9, beta2=0.999")))
    assert right.label == Label.ALIGNED
    assert "((0.9, 0.999)[1])" in next(v.reason for v in right.verdicts if v.judge == "numeric")
    wrong = await repo.judge(complete_unit(Unit(id="w", kind="numerical", claim="Adam: lr=2e-5, beta1=0.95, eps=1e-8, weight_decay=0.01")))
    assert wrong.label == Label.MISMATCHED and wrong.score == 0.75


async def test_a_free_text_parameter_left_unchecked_blocks_aligned(small):
    from sa_align.extract.derive import complete_unit

    unit = complete_unit(Unit(id="u", kind="numerical", claim="Adam: lr=2e-5, warmup_ratio=0.06"))
    verdict = judge_numeric(small(ADAM).context(unit))
    assert verdict.abstained and "could not be checked" in verdict.reason


async def test_a_code_value_the_claim_also_states_is_a_lead_not_a_finding(small):
    from sa_align.extract.derive import complete_unit

    j = small({"config.py": "IMAGE_SIZE = 256\n", "train.py": "from config import IMAGE_SIZE\nprint(IMAGE_SIZE // 2)\n"})
    half = complete_unit(Unit(id="h", kind="numerical", claim="Low-resolution image size: 128 (half of the full 256 resolution)"))
    verdict = judge_numeric(j.context(half))
    assert verdict.label == Label.MISMATCHED and not verdict.certain and verdict.confidence <= 0.6
    assert "the claim also states" in verdict.reason
    # A value the claim does not state stays a certain finding.
    other = complete_unit(Unit(id="o", kind="numerical", claim="Low-resolution image size: 128"))
    assert judge_numeric(j.context(other)).certain


async def test_same_named_settings_of_one_unit_are_not_each_others_differences(small):
    j = small({"net.py": "import torch.nn as nn\n\n\ndef encoder():\n"
                         "    return [nn.Conv2d(3, 32, 3, stride=2), nn.Conv2d(32, 32, 3, stride=2),\n"
                         "            nn.Conv2d(32, 32, 3, stride=1)]\n"})
    unit = Unit(id="s", kind="numerical", claim="Conv layers use stride 2, 2 and then stride 1.",
                params=[Param(name="stride", value=2), Param(name="stride", value=1)])
    assert judge_numeric(j.context(unit)).label == Label.ALIGNED
    wrong = unit.model_copy(update={"params": [Param(name="stride", value=2), Param(name="stride", value=4)]})
    assert judge_numeric(j.context(wrong)).label == Label.MISMATCHED


def test_a_generic_word_does_not_make_a_hint_name_a_setting():
    from sa_align.judges.numeric.judge import param_hints

    buffer, batch = Param(name="replay_buffer_size", value=1_000_000), Param(name="batch_size", value=256)
    unit = Unit(id="b", kind="numerical", claim="buffer 1M, batch 256", params=[buffer, batch],
                hints=["replay_buffer_size", "capacity", "batch_size"])
    assert param_hints(unit, buffer) == ["replay_buffer_size"]
    assert param_hints(unit, batch) == ["batch_size"]


PRESETS_REPO = {"config.py": (
    "def model_config(size):\n"
    "    config = {}\n"
    "    if size == \"Hi-MAR-B\":\n"
    "        config[\"transformer_layers\"] = 24\n"
    "    elif size == \"Hi-MAR-L\":\n"
    "        # the large model\n"
    "        config[\"transformer_layers\"] = 32\n"
    "    return config\n"
    "\n"
    "\n"
    "print(model_config(\"Hi-MAR-B\"))\n")}


async def test_a_branch_of_a_preset_chain_is_the_preset_it_tests_for(small):
    j = small(PRESETS_REPO)
    large = Unit(id="l", kind="numerical", claim="Hi-MAR-L uses 32 layers.",
                 params=[Param(name="num_layers", value=32, condition="Hi-MAR-L")])
    verdict = judge_numeric(j.context(large))
    assert verdict.label == Label.ALIGNED and "`Hi-MAR-L`, the preset the claim names" in verdict.reason
    wrong = large.model_copy(update={"claim": "Hi-MAR-L uses 24 layers.",
                                     "params": [Param(name="num_layers", value=24, condition="Hi-MAR-L")]})
    assert judge_numeric(j.context(wrong)).label == Label.MISMATCHED
    # No preset of the chain has the value: a lead, not a certain finding.
    none = large.model_copy(update={"claim": "The model uses 40 layers.", "params": [Param(name="num_layers", value=40)]})
    verdict = judge_numeric(j.context(none))
    assert verdict.label == Label.MISMATCHED and not verdict.certain and "preset of one chain" in verdict.reason


def test_branch_literals_stop_at_the_enclosing_function(small):
    from sa_align.judges.numeric.sites import branch_literals

    j = small(PRESETS_REPO)
    facts = {f.line: f for f in j.index.values if f.name == "transformer_layers"}
    assert branch_literals(facts[4], j.index) == "Hi-MAR-B" and branch_literals(facts[7], j.index) == "Hi-MAR-L"
    top = small({"a.py": "if MODE == 'x':\n    pass\n\n\ndef f():\n    depth = 3\n    return depth\n"})
    fact = next(f for f in top.index.values if f.name == "depth")
    assert branch_literals(fact, top.index) == ""
    presets = small(DATACLASS_PRESETS)
    keyed = {f.line: branch_literals(f, presets.index) for f in presets.index.values if f.name == "batch_size"}
    assert keyed == {7: "", 13: "imagenet", 17: "celeba"}


DATACLASS_PRESETS = {
    "config.py": """
        from dataclasses import dataclass


        @dataclass
        class TrainingConfig:
            image_size: int = 32
            batch_size: int = 512


        CONFIGS = {
            "imagenet": TrainingConfig(
                image_size=32,
                batch_size=512,
            ),
            "celeba": TrainingConfig(
                image_size=64,
                batch_size=128,
            ),
        }
    """,
    "train.py": """
        import sys
        from config import CONFIGS

        cfg = CONFIGS[sys.argv[1]]
        print(cfg.batch_size, cfg.image_size)
    """,
}


async def test_presets_built_with_keywords_override_the_class_defaults_and_their_key_names_them(small):
    j = small(DATACLASS_PRESETS)
    celeba = Unit(id="c", kind="numerical", claim="CelebA training uses a batch size of 128.",
                  params=[Param(name="batch_size", value=128)])
    verdict = judge_numeric(j.context(celeba))
    assert verdict.label == Label.ALIGNED and "`celeba`, the preset the claim names" in verdict.reason
    # Without a preset to go by, the presets disagree: never the certain finding the class default made.
    plain = celeba.model_copy(update={"claim": "Training uses a batch size of 128."})
    assert not judge_numeric(j.context(plain)).certain


def test_a_parameter_count_confirms_but_never_differs(tmp_path):
    from tests.judges.conftest import Judged, write_repo

    repo = write_repo(tmp_path, {"model.py": '''
        NUM_PARAMS = 86_000_000

        def build(num_params=3):  # the number of physical parameters of the ODE
            return num_params

        def report():
            return NUM_PARAMS
        '''})
    j = Judged(repo)
    same = judge_numeric(j.context(Unit(id="n1", kind="numerical", claim="86M parameters",
                                        params=[Param(name="num_parameters", value=86_000_000)])))
    other = judge_numeric(j.context(Unit(id="n2", kind="numerical", claim="17,921 parameters",
                                         params=[Param(name="num_parameters", value=17921)])))
    assert same.label == Label.ALIGNED
    assert other.abstained and "computed" in other.reason  # `num_params = 3` counts something else


STAGES_YAML = {
    "config.yaml": """
        training:
          stages:
            - name: "Stage 1: images"
              beta2: 0.999
              dataset_paths:
                laion: /data/laion
            - batch_size: 768
              beta2: 0.95
              name: "Stage 2: video"
    """,
    "train.py": """
        import yaml

        cfg = yaml.safe_load(open("config.yaml"))
        for stage in cfg["training"]["stages"]:
            print(stage["beta2"], stage.get("batch_size"))
    """,
}


async def test_a_yaml_list_item_is_the_preset_its_name_says(small):
    from sa_align.judges.numeric.sites import branch_literals

    j = small(STAGES_YAML)
    names = {f.key_path: branch_literals(f, j.index) for f in j.index.values}
    assert names["training.stages[0].beta2"] == "Stage 1: images"
    assert names["training.stages[1].beta2"] == names["training.stages[1].batch_size"] == "Stage 2: video"
    assert names["training.stages[0].dataset_paths.laion"] == ""  # a nested mapping is not the item
    second = Unit(id="s2", kind="numerical", claim="Stage 2 AdamW: beta2=0.95",
                  params=[Param(name="beta2", value=0.95)])
    verdict = judge_numeric(j.context(second))
    assert verdict.label == Label.ALIGNED and "`Stage 2: video`, the preset the claim names" in verdict.reason
    first = second.model_copy(update={"claim": "Stage 1 AdamW: beta2=0.95"})
    assert judge_numeric(j.context(first)).label == Label.MISMATCHED


_SIZES = """
    SIZES = {
        "tiny": {"mlp_dim": 512, "num_heads": 4},
        "small": {"mlp_dim": 1024, "num_heads": 8},
        "medium": {"mlp_dim": 2048, "num_heads": 8},
    }


    def build(size="tiny"):
        cfg = SIZES[size]
        return cfg["mlp_dim"], cfg["num_heads"]


    if __name__ == "__main__":
        build()
"""


async def test_a_value_per_named_preset_is_compared_in_its_own_preset(small):
    from sa_align.extract.derive import complete_unit

    def unit(claim: str) -> Unit:
        return complete_unit(Unit(id="s", kind="numerical", claim=claim))

    repo = small({"model.py": _SIZES})
    every = await repo.judge(unit("Per-size MLP width: mlp_dim=512 (Tiny) / 1024 (Small) / 2048 (Medium)"))
    assert every.label == Label.ALIGNED
    # One preset differs: the value the claim gives for it is not what that preset sets.
    wrong = await repo.judge(unit("Per-size MLP width: mlp_dim=512 (Tiny) / 1024 (Small) / 4096 (Medium)"))
    assert wrong.label == Label.MISMATCHED
    assert "(paper: 4096 for Medium): code sets model.py:4 (2048)" in next(v.reason for v in wrong.verdicts if v.judge == "numeric")
    # Only the first preset written: the others the claim states are not shown, so nothing says `aligned`.
    only = small({"model.py": """
        MLP_DIM = 512


        def build(mlp_dim=MLP_DIM):
            return mlp_dim


        if __name__ == "__main__":
            build()
    """})
    partial = await only.judge(unit("Per-size MLP width: mlp_dim=512 (Tiny) / 1024 (Small) / 2048 (Medium)"))
    assert partial.label != Label.ALIGNED
