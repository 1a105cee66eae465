"""Which class- and module-level settings count as read (`judges/numeric/sites.py`), on real parses."""

from __future__ import annotations

from sa_align.index import build_index
from sa_align.judges.numeric.sites import tier, unread_line
from tests.judges.conftest import write_repo

TRANSFORMS = {
    "data.py": '''
        from torch import nn
        from torchvision import transforms

        PAD = 4
        NUM_SEEDS = 10
        CROP = 32


        def train_transform(size=CROP):
            return transforms.RandomCrop(size, padding=PAD)


        def stem():
            first = nn.Conv2d(3, 16, 3, padding=1)
            second = nn.Conv2d(16, 16, 3, padding=1)
            third = nn.Conv2d(16, 16, 3, padding=1)
            return nn.Sequential(first, second, third)
        ''',
    "config.yaml": "seed_count: 10\nlog_every: 5\n",
    "train.py": '''
        import yaml

        from data import stem, train_transform


        if __name__ == "__main__":
            cfg = yaml.safe_load(open("config.yaml"))
            print(train_transform(), stem(), cfg["log_every"])
        ''',
}


def _fact(index, name):
    return next(f for f in index.values if f.name == name)


def test_a_constant_passed_by_name_is_read_however_many_literals_share_its_parameter(tmp_path):
    index = build_index(write_repo(tmp_path, TRANSFORMS))
    # Four literal sites of `padding` (three conv layers and the constant) do not make `PAD` unread.
    assert tier(_fact(index, "PAD"), index, literal_lines=4) == 4


def test_a_constant_used_as_a_parameter_default_is_read(tmp_path):
    index = build_index(write_repo(tmp_path, TRANSFORMS))
    assert tier(_fact(index, "CROP"), index, literal_lines=1) == 4


def test_a_constant_no_code_names_is_dead_configuration(tmp_path):
    index = build_index(write_repo(tmp_path, TRANSFORMS))
    assert tier(_fact(index, "NUM_SEEDS"), index, literal_lines=1) == 0
    seeds = _fact(index, "NUM_SEEDS")
    assert [f.name for f in unread_line(index, seeds.path, seeds.line)] == ["NUM_SEEDS"]


def test_a_config_key_is_unread_until_code_names_it(tmp_path):
    index = build_index(write_repo(tmp_path, TRANSFORMS))
    assert [f.name for f in unread_line(index, "config.yaml", 1)] == ["seed_count"]
    assert unread_line(index, "config.yaml", 2) == []  # `cfg["log_every"]` reads it
