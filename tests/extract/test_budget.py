"""The unit budget: packing, near-duplicates, choice by checkability and centrality, the cut reported."""

from __future__ import annotations

from sa_align.config import EvalConfig
from sa_align.extract import extract
from sa_align.extract.budget import apply_budget, score
from sa_align.models import Attribution, CharSpan, Param, Unit, UnitKind
from sa_align.paper import paper_from_text


def unit(kind: UnitKind, start: int, *, section: str = "3 Method", params=(), claim: str = "c", cited: bool = False) -> Unit:
    return Unit(id="", kind=kind, claim=claim, span=CharSpan(start=start, end=start + 10), section=section,
                params=[Param(name=n, value=v) for n, v in params],
                attribution=Attribution.CITED if cited else Attribution.NOVEL)  # fmt: skip


def test_settings_of_one_sentence_become_one_unit() -> None:
    units = [unit(UnitKind.NUMERICAL, 0, params=[("learning_rate", 3e-4)]), unit(UnitKind.NUMERICAL, 0, params=[("batch_size", 256)])]
    (packed,) = apply_budget(units).units
    assert [p.name for p in packed.params] == ["learning_rate", "batch_size"]


def test_restated_settings_and_method_sentences_are_merged() -> None:
    units = [
        unit(UnitKind.NUMERICAL, 0, params=[("learning_rate", 3e-4), ("batch_size", 256)]),
        unit(UnitKind.NUMERICAL, 500, params=[("learning_rate", 3e-4)]),
        unit(UnitKind.METHOD, 700, claim="We normalize the advantages within each minibatch."),
        unit(UnitKind.METHOD, 900, claim="We normalize the advantages within each minibatch, too."),
    ]
    result = apply_budget(units)
    assert [u.span.start for u in result.units] == [0, 700]
    assert result.notes == ["unit budget: merged 2 near-duplicate units"]


def test_the_budget_keeps_the_most_checkable_and_central_units_in_paper_order() -> None:
    intro = [unit(UnitKind.METHOD, i * 100, section="1 Introduction", claim=f"claim number {i}") for i in range(5)]
    setup = [unit(UnitKind.NUMERICAL, 1000 + i * 100, section="4 Experimental Setup", params=[("epochs", 10 + i)]) for i in range(3)]
    cited = unit(UnitKind.NUMERICAL, 5000, section="4 Experimental Setup", params=[("dropout", 0.1)], cited=True)
    result = apply_budget([*intro, *setup, cited], max_units=4)
    assert [u.span.start for u in result.units] == [1000, 1100, 1200, 5000]
    assert result.notes == ["unit budget: kept 4 of 9 units; cut: 5 method"]
    assert score(setup[0]) > score(cited) > score(intro[0])


def test_the_budget_is_configurable_and_can_be_switched_off() -> None:
    sentences = " ".join(f"Layer {i} uses a dropout of 0.{i + 1} and a learning rate of {i + 1}e-4." for i in range(8))
    paper = paper_from_text(f"# Method\n\n{sentences}\n")
    assert len(extract(paper, EvalConfig(max_units=3)).units) == 3
    assert len(extract(paper, EvalConfig(max_units=None)).units) == 8


def test_each_kind_stays_within_its_share_of_the_budget() -> None:
    methods = [unit(UnitKind.METHOD, i * 100, claim=f"w{i}a w{i}b w{i}c w{i}d") for i in range(30)]
    settings = [unit(UnitKind.NUMERICAL, 10_000 + i * 100, params=[("epochs", 10 + i)]) for i in range(3)]
    kept = apply_budget([*methods, *settings], max_units=20).units
    assert sum(u.kind == UnitKind.METHOD for u in kept) == 7  # 35% of 20
    assert sum(u.kind == UnitKind.NUMERICAL for u in kept) == 3


def test_protocol_slots_go_to_units_naming_new_entities() -> None:
    def proto(start: int, *entities: str) -> Unit:
        return Unit(id="", kind=UnitKind.PROTOCOL, claim="c", span=CharSpan(start=start, end=start + 5),
                    section="4 Experimental Setup", entities=list(entities))  # fmt: skip

    units = [proto(0, "CIFAR-10", "accuracy"), proto(100, "CIFAR-10"), proto(200, "ImageNet")]
    kept = apply_budget(units, max_units=10).units
    assert [u.entities for u in kept] == [["CIFAR-10", "accuracy"], ["ImageNet"]]


def test_many_strong_settings_leave_the_protocol_its_floor() -> None:
    settings = [unit(UnitKind.NUMERICAL, i * 100, params=[("epochs", 10 + i)]) for i in range(40)]
    protocol = [
        Unit(id="", kind=UnitKind.PROTOCOL, claim="c", span=CharSpan(start=9000 + i, end=9001 + i),
             section="1 Introduction", entities=[f"Dataset{i}"])  # fmt: skip
        for i in range(5)
    ]
    kept = apply_budget([*settings, *protocol], max_units=20).units
    assert sum(u.kind == UnitKind.PROTOCOL for u in kept) == 3  # 15% of 20, though every setting scores higher
    assert sum(u.kind == UnitKind.NUMERICAL for u in kept) == 17



def test_the_cut_is_reported_by_kind_largest_first() -> None:
    claims = ["gate scores are cached", "experts share keys", "tokens pick two experts", "logits are scaled",
              "balance loss is added", "noise perturbs the gate"]
    methods = [unit(UnitKind.METHOD, i * 100, section="3 Method", claim=c) for i, c in enumerate(claims)]
    settings = [unit(UnitKind.NUMERICAL, 1000 + i * 100, section="4 Setup", params=[("epochs", 10 + i)]) for i in range(5)]
    result = apply_budget([*methods, *settings], max_units=4)  # every setting scores above every method step
    assert result.notes[-1] == "unit budget: kept 4 of 11 units; cut: 6 method, 1 numerical"


def _method(start: int, section: str, quote: str) -> Unit:
    return Unit(id="", kind=UnitKind.METHOD, claim=quote, quote=quote, span=CharSpan(start=start, end=start + len(quote)),
                section=section)


def test_a_method_claim_of_the_paper_is_never_cut_for_one_that_describes_the_field() -> None:
    field = _method(0, "2 BACKGROUND", "A mixture layer routes each token to its top two experts by a softmax gate.")
    results = _method(100, "5.2 ABLATION RESULTS", "Removing the cache raises the loss $L = 2.1$ of the router.")
    own = _method(200, "4.1 Router Cache", "The router keeps the gate scores of each layer and reuses them at decoding.")
    assert [u.span.start for u in apply_budget([field, results, own], max_units=2).units] == [200]


def test_own_voice_settings_and_protocol_are_never_set_aside() -> None:
    from sa_align.extract.budget import aside

    assert aside(_method(0, "1 INTRODUCTION", "Sparse mixtures typically route each token with a softmax gate."))
    assert not aside(_method(0, "1 INTRODUCTION", "We propose a router that caches the gate scores of every layer."))
    assert not aside(_method(0, "3.2 Router Cache", "The router keeps the gate scores of each layer."))
    assert not aside(unit(UnitKind.NUMERICAL, 0, section="5 Results", params=[("epochs", 10)]))
    assert not aside(unit(UnitKind.PROTOCOL, 0, section="5 Results"))
