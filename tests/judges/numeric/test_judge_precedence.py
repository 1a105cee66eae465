"""Numeric precedence on small real repositories: hard-coded overrides and configuration nothing reads."""

from __future__ import annotations

import pytest

from sa_align.judges.numeric.judge import judge_numeric
from sa_align.models import Label, Param, Unit

LR = Unit(id="lr", kind="numerical", claim="The learning rate is 3e-4.",
          params=[Param(name="learning_rate", value=3e-4, text="3e-4")])

CONFIG_THEN_LITERAL = {
    "train.py": '''
        import torch
        import yaml


        def main():
            cfg = yaml.safe_load(open("config.yaml"))
            lr = cfg["lr"]
            lr = {value}
            return torch.optim.Adam([], lr=lr)
    ''',
    "config.yaml": "lr: {config}\n",
}

ARGS_THEN_ATTRIBUTE = {
    "train.py": '''
        import argparse


        def main():
            p = argparse.ArgumentParser()
            p.add_argument("--lr", type=float, default={config})
            args = p.parse_args()
            args.lr = {value}
            return args
    ''',
}

MODULE_LEVEL = {
    "train.py": '''
        import argparse

        parser = argparse.ArgumentParser()
        parser.add_argument("--lr", type=float, default={config})
        args = parser.parse_args()
        args.lr = {value}
    ''',
}

CONFIG_OBJECT_ITEM = {
    "train.py": '''
        import yaml


        def main(path):
            cfg = yaml.safe_load(open(path))
            cfg["lr"] = {value}
            return cfg
    ''',
    "config.yaml": "lr: {config}\n",
}


def _fill(files: dict[str, str], config: str, value: str) -> dict[str, str]:
    return {k: v.replace("{config}", config).replace("{value}", value) for k, v in files.items()}


@pytest.mark.parametrize("files", [CONFIG_THEN_LITERAL, ARGS_THEN_ATTRIBUTE, MODULE_LEVEL, CONFIG_OBJECT_ITEM])
def test_a_hard_coded_override_after_the_read_decides(small, files):
    wrong = judge_numeric(small(_fill(files, "0.0003", "0.01")).context(LR))
    assert wrong.label == Label.MISMATCHED and wrong.certain, wrong.reason
    assert "reads the configured value" in wrong.reason
    assert "train.py" in {e.path for e in wrong.evidence}
    right = judge_numeric(small(_fill(files, "0.01", "0.0003")).context(LR))
    assert right.label == Label.ALIGNED, right.reason
    assert {e.path for e in right.evidence} == {"train.py"}


def test_the_same_name_in_another_function_is_another_variable(small):
    files = _fill(CONFIG_THEN_LITERAL, "0.0003", "cfg['lr']")
    files["probe.py"] = "def probe():\n    lr = 0.01\n    return lr\n"
    verdict = judge_numeric(small(files).context(LR))
    # `probe` is never called: its `lr` sets nothing, so the configured value alone decides.
    assert verdict.label == Label.ALIGNED, verdict.reason
    assert [str(e) for e in verdict.evidence] == ["config.yaml:1"]


def test_a_literal_under_a_branch_the_read_is_outside_of_is_not_an_override(small):
    files = _fill(CONFIG_THEN_LITERAL, "0.0003", "cfg['lr']")
    branch = "if cfg.get('debug'):\n                lr = 0.01\n            return torch.optim"
    files["train.py"] = files["train.py"].replace("return torch.optim", branch)
    verdict = judge_numeric(small(files).context(LR))
    assert verdict.label == Label.ALIGNED, verdict.reason


DEAD_CONFIG = {
    "train.py": '''
        import torch


        def main(model):
            return torch.optim.Adam(model.parameters())
    ''',
    "config.yaml": "lr: {config}\n",
}


def test_configuration_nothing_reads_is_never_certain(small):
    verdict = judge_numeric(small(_fill(DEAD_CONFIG, "0.0003", "")).context(LR))
    # The stated value only where nothing reads it: declared, never shown to reach the run, so no `aligned`.
    assert verdict.abstained and verdict.lean is None and verdict.rule == "NUM004"
    assert "nothing reads" in verdict.reason and verdict.evidence
    verdict = judge_numeric(small(_fill(DEAD_CONFIG, "0.001", "")).context(LR))
    # Another value only where nothing reads it: the setting is implemented but never reached.
    assert verdict.label == Label.STUBBED and verdict.rule == "NUM008" and not verdict.certain and verdict.confidence <= 0.5


def test_read_configuration_stays_certain(small):
    files = _fill(DEAD_CONFIG, "0.0003", "")
    files["train.py"] = files["train.py"].replace("model.parameters())", "model.parameters(), lr=cfg['lr'])")
    verdict = judge_numeric(small(files).context(LR))
    assert verdict.label == Label.ALIGNED and verdict.certain


def test_unread_configurations_that_disagree_stay_uncertain(small):
    files = {**_fill(DEAD_CONFIG, "0.0003", ""), "configs/big.yaml": "lr: 0.001\n"}
    verdict = judge_numeric(small(files).context(LR))
    assert not verdict.certain and verdict.confidence <= 0.5, verdict.reason


def test_an_override_in_a_function_nothing_calls_takes_no_effect(small):
    files = _fill(ARGS_THEN_ATTRIBUTE, "0.0003", "0.01")
    files["train.py"] = files["train.py"].replace("def main():", "def debug_args():")
    files["run.py"] = '''
        import argparse


        def main():
            p = argparse.ArgumentParser()
            return p.parse_args()


        if __name__ == "__main__":
            main()
    '''
    verdict = judge_numeric(small(files).context(LR))
    # Neither the override nor the default in `debug_args` runs: the value is no finding either way.
    assert verdict.label != Label.MISMATCHED and verdict.abstained, verdict.reason
    assert "only in code nothing that runs calls: `debug_args`" in verdict.reason
