"""Protocol judge: datasets and metrics present, substituted or absent."""

from __future__ import annotations

from sa_align.judges.protocol.judge import judge_protocol
from sa_align.models import Label, Param, Unit


def proto(uid: str, entities: list[str], params=None) -> Unit:
    return Unit(id=uid, kind="protocol", claim=f"We evaluate with {', '.join(entities) or 'seeds'}.",
                entities=entities, params=params or [])


async def test_dataset_present_is_aligned(judged, calibrated):
    result = await judged("trainer").judge(proto("p", ["CIFAR-10"]))
    vote = next(v for v in result.verdicts if v.judge == "protocol")
    assert vote.label == Label.ALIGNED
    assert any(e.path in ("configs/base.yaml", "trainer/data.py") for e in vote.evidence)
    if calibrated:  # presence alone does not lift a small repository's claim; no failure is shown either
        assert result.label == Label.UNDECIDED and result.calibration.applied == "abstain"
    else:
        assert result.label == Label.ALIGNED
        assert any(e.path in ("configs/base.yaml", "trainer/data.py") for e in result.evidence)


async def test_other_dataset_in_its_place_is_mismatched(judged):
    verdict = judge_protocol(judged("trainer").context(proto("p", ["CIFAR-100"])))
    assert verdict.label == Label.MISMATCHED  # cifar10 is used; it never matches cifar100
    assert "CIFAR-10 " in verdict.reason and verdict.evidence


async def test_switching_the_dataset_everywhere_is_detected(judged):
    edits = {"configs/base.yaml": ("dataset: cifar10", "dataset: svhn")}
    j = judged("trainer", edits)
    assert judge_protocol(j.context(proto("p", ["SVHN"]))).label == Label.ALIGNED


async def test_absent_dataset_is_missing_but_an_unknown_name_proves_nothing(judged):
    j = judged("stubs")
    assert judge_protocol(j.context(proto("p", ["CIFAR-10"]))).label == Label.MISSING
    assert judge_protocol(j.context(proto("p", ["Frobnicate-9 benchmark"]))).abstained


async def test_seed_count_is_checked_like_a_value(judged):
    j = judged("trainer")
    assert judge_protocol(j.context(proto("s", [], [Param(name="seed", value=17)]))).label == Label.ALIGNED
    assert judge_protocol(j.context(proto("s", [], [Param(name="seed", value=3)]))).label == Label.MISMATCHED


def _data_repo(call: str, extra: str = "") -> dict[str, str]:
    return {
        "train.py": f'''
            import argparse
            from torchvision import datasets


            def cifar10_loaders(root):
                """Loaders for the benchmark."""
                return datasets.{call}(root, train=True)


            def get_args():
                p = argparse.ArgumentParser(description="ResNet on CIFAR-10")
                p.add_argument("--config", default="configs/cifar10.yaml")
                return p.parse_args()
            {extra}

            if __name__ == "__main__":
                get_args()
                cifar10_loaders("data")
        ''',
    }


async def test_dataset_only_named_while_another_is_loaded_is_mismatched(small):
    verdict = judge_protocol(small(_data_repo("CIFAR100")).context(proto("p", ["CIFAR-10"])))
    assert verdict.label == Label.MISMATCHED and "only named" in verdict.reason and "CIFAR-100" in verdict.reason


async def test_dataset_loaded_by_a_library_call_is_aligned(small):
    verdict = judge_protocol(small(_data_repo("CIFAR10")).context(proto("p", ["CIFAR-10"])))
    assert verdict.label == Label.ALIGNED


async def test_a_dataset_used_only_in_code_nothing_runs_is_not_present(small):
    files = _data_repo("CIFAR10")
    files["train.py"] = files["train.py"].replace('            cifar10_loaders("data")\n', "")
    assert "cifar10_loaders(" not in files["train.py"].split("__main__")[1]
    # Neither present (nothing runs the loader) nor absent (the code does load it): the stub judge's call.
    assert judge_protocol(small(files).context(proto("p", ["CIFAR-10"]))).abstained


async def test_configured_dataset_outranks_a_guard_string(small):
    files = {
        "data.py": '''
            def get_dataset(cfg):
                if cfg["dataset"] != "cifar10":
                    raise ValueError("unsupported")
                return cfg
        ''',
        "config.yaml": "dataset: cifar100\n",
    }
    verdict = judge_protocol(small(files).context(proto("p", ["CIFAR-10"])))
    assert verdict.label == Label.MISMATCHED


async def test_suite_and_member_do_not_stand_in_for_each_other(small):
    files = {
        "env.py": '''
            MUJOCO_TASKS = ("HalfCheetah-v4", "Hopper-v4")


            def make_env(name):
                return name
        ''',
        "config.yaml": "env: HalfCheetah-v4\n",
    }
    verdict = judge_protocol(small(files).context(proto("p", ["MuJoCo"])))
    assert verdict.label != Label.MISMATCHED


async def test_dataset_only_named_and_nothing_loaded_is_missing(small):
    files = {"train.py": '''
        def cifar10_loaders(root):
            return root
    '''}
    verdict = judge_protocol(small(files).context(proto("p", ["CIFAR-10", "test"])))
    assert verdict.label == Label.MISSING


BASELINE = proto("b", ["ResNet-50"])


def _classifier(model: str) -> dict[str, str]:
    return {
        "train.py": f'''
            import torch
            from torchvision import datasets


            def main(root):
                data = datasets.CIFAR10(root, train=True)
                model = {model}
                return data, model
        ''',
        "README.md": "We compare with ResNet-50, which is not included here.\n",
    }


def test_a_baseline_named_nowhere_in_code_or_config_is_missing(small):
    files = _classifier("torch.nn.Linear(3072, 10)  # TODO: a ResNet-50 baseline")
    verdict = judge_protocol(small(files).context(BASELINE))
    # The README and the comment name it; neither is code.
    assert verdict.label == Label.MISSING and verdict.confidence < 0.75, verdict.reason
    assert "ResNet-50" in verdict.reason


def test_a_baseline_the_code_builds_is_aligned(small):
    verdict = judge_protocol(small(_classifier("torchvision.models.resnet50(num_classes=10)")).context(BASELINE))
    assert verdict.label == Label.ALIGNED


def test_a_config_value_names_the_baseline(small):
    files = {**_classifier("build(cfg)"), "config.yaml": "arch: resnet50\n"}
    assert judge_protocol(small(files).context(BASELINE)).label == Label.ALIGNED


def test_a_technique_named_nowhere_still_proves_nothing(small):
    # EMA, label smoothing: code writes them too many ways for their absence to count.
    verdict = judge_protocol(small(_classifier("torch.nn.Linear(3072, 10)")).context(proto("e", ["EMA"])))
    assert verdict.abstained


def test_dataset_and_baseline_both_absent_is_missing_at_the_baseline_confidence(small):
    files = {"train.py": "def main():\n    return 0\n"}
    dataset_only = judge_protocol(small(files).context(proto("d", ["CIFAR-10"])))
    both = judge_protocol(small(files).context(proto("db", ["CIFAR-10", "ResNet-50"])))
    assert dataset_only.label == both.label == Label.MISSING
    assert both.confidence < dataset_only.confidence


SEED_LOOPS = {
    "range": '''
        def main():
            for seed in range(3):
                run(seed)
    ''',
    "flag": '''
        import argparse


        def main():
            p = argparse.ArgumentParser()
            p.add_argument("--repeats", type=int, default=3)  # a name no alias table knows
            args = p.parse_args()
            for run in range(args.repeats):
                train(run)
    ''',
    "list": '''
        def main():
            seeds = [0, 1, 2]
            return [train(s) for s in seeds]
    ''',
    "constant": '''
        SEEDS = [0, 1, 2]


        def main():
            for i, seed in enumerate(SEEDS):
                train(i, seed)
    ''',
}


def test_seed_counts_are_read_from_loops_and_lists(small):
    for form, code in SEED_LOOPS.items():
        j = small({"train.py": code})
        right = judge_protocol(j.context(proto("s", [], [Param(name="seeds", value=3)])))
        wrong = judge_protocol(j.context(proto("s", [], [Param(name="seeds", value=5)])))
        assert right.label == Label.ALIGNED, (form, right.reason)
        assert wrong.label == Label.MISMATCHED and [e.path for e in wrong.evidence] == ["train.py"], (form, wrong.reason)


def test_a_loop_over_something_else_states_no_count(small):
    j = small({"train.py": "def main():\n    for epoch in range(3):\n        step(epoch)\n"})
    assert judge_protocol(j.context(proto("s", [], [Param(name="seeds", value=5)]))).abstained


def test_listed_baselines_and_count_loops_name_known_entities_and_parameters():
    from sa_align.aliases import canonical_entity, canonical_param
    from sa_align.resources import load_yaml

    for name in load_yaml("protocol.yaml")["baselines"]:
        assert canonical_entity(name) == ("method", name), name
    assert all(canonical_param(p) == p for p in load_yaml("numeric.yaml")["count_loops"])


def test_only_a_metric_of_the_same_kind_is_called_a_replacement(small):
    files = {"evaluate.py": (
        "import torch.nn.functional as F\n\n\n"
        "def train_step(model, x, y):\n"
        "    return F.mse_loss(model(x), y)\n\n\n"
        "def evaluate(pred, y):\n"
        "    precision = (pred & y).sum() / pred.sum()\n"
        "    return {'precision': precision}\n\n\n"
        "print(train_step, evaluate)\n")}
    # A generation metric absent is a mismatch, but a training loss is not called its replacement.
    fid = judge_protocol(small(files).context(proto("g", ["FID"])))
    assert fid.label == Label.MISMATCHED and "another kind" in fid.reason and "in its place" not in fid.reason, fid.reason
    # Recall is replaced by precision, a metric of the same kind, named first.
    recall = judge_protocol(small(files).context(proto("r", ["recall"])))
    assert recall.label == Label.MISMATCHED and recall.reason.index("precision") < recall.reason.index("MSE")
    assert "in its place" in recall.reason, recall.reason


def test_where_an_entity_is_used_does_not_depend_on_the_hash_seed(tmp_path):
    # `train` is written as itself in one file and as an alias (`trainset`) in another: the name's own
    # key is looked up first, in every process, so reports do not change between runs.
    import subprocess
    import sys
    import textwrap

    (tmp_path / "a.py").write_text("trainset = list(range(10))\n")
    (tmp_path / "b.py").write_text('SPLIT = "train"\n')
    probe = textwrap.dedent(f"""
        from sa_align.index import build_index
        from sa_align.judges.protocol.judge import check_entity
        print(check_entity("train", build_index({str(tmp_path)!r})).found)
    """)
    found = {
        subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                       env={**__import__("os").environ, "PYTHONHASHSEED": str(seed)}).stdout.strip()
        for seed in range(6)
    }
    assert found == {"('b.py', 1)"}
