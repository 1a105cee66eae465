"""Which functions a structural edit cuts off: alive before it, dead after it."""

from __future__ import annotations

import textwrap

from sa_align.bench.orphans import cut_off_lines


def _src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


BEFORE = {
    "train.py": _src('''
        from losses import total_loss

        if __name__ == "__main__":
            total_loss([1.0], [0.5])
    '''),
    "losses.py": _src('''
        def ratio_of(new, old):
            return [n / o for n, o in zip(new, old)]


        def clipped(new, old):
            return [min(r, 1.2) for r in ratio_of(new, old)]


        def value_term(values):
            return sum(v * v for v in values)


        def total_loss(new, old):
            return sum(clipped(new, old)) + value_term(old)
    '''),
}


def _stub_total_loss() -> dict[str, str]:
    text = BEFORE["losses.py"].replace(
        "    return sum(clipped(new, old)) + value_term(old)\n", "    raise NotImplementedError\n")
    return {"losses.py": text}


def _lines(texts: dict[str, str], path: str, name: str) -> set[int]:
    lines = texts[path].splitlines()
    start = next(i for i, ln in enumerate(lines, 1) if ln.startswith(f"def {name}("))
    end = start
    while end < len(lines) and (not lines[end] or lines[end].startswith(" ")):
        end += 1
    while not lines[end - 1].strip():
        end -= 1
    return set(range(start, end + 1))


def test_helpers_of_an_emptied_function_are_cut_off_in_a_chain():
    cut = cut_off_lines(BEFORE, _stub_total_loss())
    expected = set()
    for name in ("ratio_of", "clipped", "value_term"):
        expected |= _lines(BEFORE, "losses.py", name)
    assert cut == {"losses.py": expected}


def test_the_emptied_function_itself_is_not_cut_off():
    cut = cut_off_lines(BEFORE, _stub_total_loss())
    assert not _lines(BEFORE, "losses.py", "total_loss") & cut["losses.py"]


def test_a_helper_still_called_from_running_code_stays_alive():
    after = _stub_total_loss()
    after["train.py"] = BEFORE["train.py"] + "    print(value_term([1.0]))\n"
    cut = cut_off_lines(BEFORE, after)
    assert not _lines(BEFORE, "losses.py", "value_term") & cut["losses.py"]
    assert _lines(BEFORE, "losses.py", "ratio_of") <= cut["losses.py"]


def test_an_edit_that_cuts_nothing_off_reports_nothing():
    after = {"losses.py": BEFORE["losses.py"].replace("1.2", "1.3")}
    assert cut_off_lines(BEFORE, after) == {}


def test_a_deleted_function_is_gone_not_cut_off():
    text = BEFORE["losses.py"]
    start = text.index("def value_term")
    end = text.index("def total_loss")
    after = {"losses.py": text[:start] + text[end:].replace(" + value_term(old)", "")}
    assert cut_off_lines(BEFORE, after) == {}


def test_names_defined_twice_never_die():
    before = dict(BEFORE)
    before["other.py"] = _src('''
        def ratio_of(a, b):
            return a / b
    ''')
    cut = cut_off_lines(before, _stub_total_loss())
    assert not _lines(before, "losses.py", "ratio_of") & cut["losses.py"]


def test_gold_of_a_unit_inside_cut_off_code_becomes_stubbed():
    import pytest

    from sa_align.bench.edits import Draft, Skip
    from sa_align.bench.mutate import update_gold
    from sa_align.models import CodeSpan, Gold, Label, Unit

    def unit(uid: str, *spans: tuple[str, set[int]]) -> Unit:
        gold = Gold(label=Label.ALIGNED, spans=[CodeSpan(path=p, start_line=min(ls), end_line=max(ls)) for p, ls in spans])
        return Unit(id=uid, kind="method", claim=f"claim {uid}", gold=gold)

    after = _stub_total_loss()
    total = _lines(BEFORE, "losses.py", "total_loss")
    draft = Draft(kind="stub", unit_id="total", label=Label.STUBBED, files=after, target_spans=[], detail="stub",
                  core={"losses.py": total}, collateral_label=Label.STUBBED)
    units = [unit("total", ("losses.py", total)), unit("ratio", ("losses.py", _lines(BEFORE, "losses.py", "ratio_of"))),
             unit("entry", ("train.py", {4}))]
    out, collateral = update_gold(units, draft, BEFORE)
    gold = {u.id: u.gold for u in out}
    assert gold["ratio"].label == Label.STUBBED and "cut off" in gold["ratio"].note
    assert gold["entry"].label == Label.ALIGNED
    assert collateral == {"ratio": Label.STUBBED}
    # A unit only partly inside the cut-off code has no clear label: the variant is skipped.
    partly = unit("partly", ("losses.py", _lines(BEFORE, "losses.py", "ratio_of")), ("train.py", {4}))
    with pytest.raises(Skip, match="cuts off part"):
        update_gold(units + [partly], draft, BEFORE)
