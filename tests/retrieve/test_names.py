"""The name, signature and caller signals: emptied bodies and sequencing functions stay findable."""

from __future__ import annotations

import textwrap
from pathlib import Path

from sa_align.config import EvalConfig
from sa_align.index import build_index
from sa_align.models import Unit
from sa_align.retrieve import build_retriever
from sa_align.retrieve.names import hint_names

FILES = {
    "loss.py": '''
        def normalizer(num_positive_anchors, num_anchors):
            """Divide by the positive anchors."""
            pass


        def detection_loss(cls_loss, box_loss, positive_mask):
            positive = positive_mask.sum()
            norm = normalizer(positive, positive_mask.numel())
            total = cls_loss + box_loss
            return total / norm


        class Head:
            def forward(self, x):
                return x
    ''',
    "train.py": '''
        from loss import detection_loss


        def collect(env):
            return env


        def estimate(batch):
            return batch


        def train(env):
            batch = collect(env)
            adv = estimate(batch)
            return detection_loss(adv, adv, adv)
    ''',
}


def _retriever(tmp_path: Path):
    for rel, text in FILES.items():
        (tmp_path / rel).write_text(textwrap.dedent(text).lstrip("\n"))
    return build_retriever(build_index(tmp_path), EvalConfig(embeddings=False))


def test_hint_names_keep_identifiers_and_drop_expressions():
    unit = Unit(id="h", kind="method", claim="c", hints=["nn.GroupNorm", "epoch + i", "lr", "num_groups"])
    assert hint_names(unit) == ["groupnorm", "numgroups"]


def test_an_emptied_helper_named_by_a_hint_ranks_first(tmp_path):
    retriever = _retriever(tmp_path)
    unit = Unit(id="m", kind="method", claim="The loss is normalized by the number of positive anchors.",
                hints=["normalizer", "num_positive_anchors", "positive_mask"])
    first = retriever.retrieve(unit)[0]
    assert first.span.symbol == "normalizer" and "name:normalizer" in first.why


def test_a_hinted_class_brings_its_methods(tmp_path):
    cands = _retriever(tmp_path).retrieve(Unit(id="c", kind="method", claim="A head maps features.", hints=["Head"]))
    assert any(c.span.symbol == "Head.forward" and "method-of:head" in c.why for c in cands[:3])


def test_ordering_hints_rank_the_function_calling_the_steps(tmp_path):
    unit = Unit(id="o", kind="ordering", claim="Collect, then estimate.", order=["collect", "estimate"],
                hints=["collect", "estimate"])
    first = _retriever(tmp_path).retrieve(unit)[0]
    assert first.span.symbol == "train" and any(w.startswith("calls:") for w in first.why)


def test_a_shared_name_splits_its_credit_among_the_definitions():
    from sa_align.retrieve.names import DefinitionIndex, name_hits

    defs = DefinitionIndex(by_name={"step": [1, 2], "normalizer": [3], "update": [4, 5, 6]},
                           by_param={}, signature_ids=[], signature_docs=[])
    unit = Unit(id="s", kind="method", claim="c", hints=["step", "normalizer", "update"])
    ranked = name_hits(defs, unit, 10)
    # The unique name outranks the earlier hint two definitions share: each of those got half.
    assert [c for c, _ in ranked] == [3, 1, 2]
    # Shared by three, a third of the credit each: too little to rank at all.
    assert not {4, 5, 6} & {c for c, _ in ranked}
