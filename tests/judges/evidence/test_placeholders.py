"""Which stub facts are placeholders: declarations never are, and weak signs count only where they are the work."""

from __future__ import annotations

import pytest

from sa_align.judges.evidence.placeholders import defers, placeholder


def _hit(j, qualname: str, path: str | None = None, claim: str = ""):
    sym = next(s for s in j.index.symbols if s.qualname == qualname and (path is None or s.path == path))
    return placeholder(j.index, sym, claim)


SCORERS = '''
    class Scorer:
        """Scores a batch; subclasses say how."""

        def score(self, batch):
            raise NotImplementedError


    class Shifted(Scorer):
        offset = 1.0


    class MarginScorer(
        Shifted,
    ):
        def score(self, batch):
            return [b - self.offset for b in batch]


    if __name__ == "__main__":
        print(MarginScorer().score([2.0]))
'''


async def test_base_method_overridden_deeper_down_a_multi_line_header_is_abstract(small):
    assert _hit(small({"scorers.py": SCORERS}), "Scorer.score") is None


async def test_base_method_overridden_by_a_decorated_subclass_is_abstract(small):
    text = SCORERS.replace("    class MarginScorer(\n        Shifted,\n    ):",
                           "    KNOWN = {}\n\n\n    def known(cls):\n        KNOWN[cls.__name__] = cls\n"
                           "        return cls\n\n\n    @known\n    class MarginScorer(Scorer):")
    assert "@known" in text
    assert _hit(small({"scorers.py": text}), "Scorer.score") is None


async def test_base_imported_from_another_module_is_followed(small):
    j = small({
        "pkg/__init__.py": "",
        "pkg/base.py": '''
            class Scorer:
                def score(self, batch):
                    raise NotImplementedError
        ''',
        "pkg/margin.py": '''
            from pkg import base


            class MarginScorer(base.Scorer):
                def score(self, batch):
                    return [b - 1.0 for b in batch]
        ''',
        "run.py": '''
            from pkg.margin import MarginScorer

            if __name__ == "__main__":
                MarginScorer().score([1.0])
        ''',
    })
    assert _hit(j, "Scorer.score") is None


async def test_base_constructed_only_by_tests_stays_abstract(small):
    files = {"scorers.py": SCORERS, "tests/test_scorers.py": '''
        import pytest
        from scorers import Scorer


        def test_base_refuses():
            with pytest.raises(NotImplementedError):
                Scorer().score([1.0])
    '''}
    assert _hit(small(files), "Scorer.score") is None


async def test_method_of_a_class_the_code_constructs_is_a_placeholder(small):
    text = SCORERS.replace("print(MarginScorer().score([2.0]))", "print(Scorer().score([2.0]))")
    text = text.replace("        def score(self, batch):\n            return [b - self.offset for b in batch]",
                        "        def describe(self):\n            return 'margin'")
    assert _hit(small({"scorers.py": text}), "Scorer.score") is not None


@pytest.mark.parametrize("header", [
    "from typing import Protocol\n\n\nclass Encoder(Protocol):",
    "import typing\n\n\nclass Encoder(typing.Protocol):",
    "from typing import Protocol, TypeVar\n\nT = TypeVar('T')\n\n\nclass Encoder(Protocol[T]):",
    "from abc import ABC\n\n\nclass Encoder(ABC):",
    "import abc\n\n\nclass Encoder(metaclass=abc.ABCMeta):",
])
async def test_interface_classes_declare_rather_than_defer(small, header):
    text = header + "\n    def encode(self, x):\n        ...\n\n    def size(self):\n        raise NotImplementedError\n"
    j = small({"iface.py": text, "run.py": "from iface import Encoder\n\nif __name__ == '__main__':\n    Encoder()\n"})
    assert _hit(j, "Encoder.encode") is None and _hit(j, "Encoder.size") is None


async def test_decorated_abstract_and_overload_definitions_are_not_placeholders(small):
    j = small({"api.py": '''
        import abc
        from typing import overload


        class Store(abc.ABC):
            @abc.abstractmethod
            def put(self, key, value):
                pass


        @overload
        def fetch(key: int) -> int: ...
        @overload
        def fetch(key: str) -> str: ...
        def fetch(key):
            return key
    '''})
    assert _hit(j, "Store.put") is None
    assert all(placeholder(j.index, s) is None for s in j.index.symbols if s.name == "fetch")


async def test_type_stub_files_and_type_checking_blocks_are_declarations(small):
    j = small({
        "geo.py": '''
            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                def area(shape) -> float: ...

                class Shape:
                    def corners(self) -> int: ...


            def perimeter(sides):
                return sum(sides)
        ''',
        "geo.pyi": '''
            def perimeter(sides: list[float]) -> float: ...
        ''',
    })
    assert _hit(j, "area") is None and _hit(j, "Shape.corners") is None
    assert _hit(j, "perimeter", path="geo.pyi") is None


SAMPLERS = '''
    import numpy as np
    import torch


    def draw_timesteps(n, horizon=1000):
        return torch.randint(0, horizon, (n,))


    def predict(x):
        return torch.randn_like(x)


    def predict_later(x):
        # TODO: run the network here
        return torch.randn_like(x)


    class Explorer:
        def pick(self, n):
            return np.random.randint(n)
'''


async def test_random_draw_is_the_work_of_a_sampling_function(small):
    j = small({"samplers.py": SAMPLERS})
    assert _hit(j, "draw_timesteps") is None
    assert _hit(j, "Explorer.pick") is None
    # Named for nothing random, it stands in for a computed result...
    assert _hit(j, "predict") is not None
    # ...unless the claim is about drawing noise, where the draw is what the claim describes.
    assert _hit(j, "predict", claim="Gaussian noise of the input's shape is added.") is None
    # A deferring marker beside the draw makes it a stand-in whatever the name.
    hit = _hit(j, "predict_later", claim="Gaussian noise is predicted.")
    assert hit is not None and hit[2]


MARKED = '''
    def brighten(pixels, gain=1.2):
        # TODO: also adjust the contrast once the pipeline supports it
        scaled = [p * gain for p in pixels]
        return [min(p, 1.0) for p in scaled]


    def smooth(values):
        # a plain moving average for now; the paper does the same
        return [sum(values[max(0, i - 1): i + 2]) / 3 for i in range(len(values))]


    def rescale(rewards):
        # TODO: divide by a running estimate of the spread
        return rewards


    def project(h):
        # HACK: keeps the old checkpoints loading
        return None
'''


async def test_markers_count_only_in_a_body_that_does_nothing(small):
    j = small({"ops.py": MARKED})
    assert _hit(j, "brighten") is None  # a TODO about a future extension of working code
    assert _hit(j, "smooth") is None  # "for now" describes code that works
    assert _hit(j, "rescale") is not None  # TODO, and the input comes back unchanged
    # A constant return is likely a placeholder, but only a deferring marker makes it certain.
    assert _hit(j, "project")[1:] == (0.8, False)


def test_deferring_markers_come_from_the_data_file():
    assert defers("TODO: wire this up") and defers("not implemented yet") and defers("placeholder values")
    assert not defers("for now this is enough") and not defers("HACK: old checkpoints") and not defers("dummy input")
