"""Text that addresses a judge, in the repository or in the paper: flagged in the report, never obeyed.

Comments, docstrings and string literals (from the index), every line of prose
files (README, notes), and the paper-side text of every unit (claim, quote,
section, parameters, entities, steps, cited reference, hints) are matched
against `units/injection.yaml`. The flags only inform a person; no verdict
reads them. LLM prompts show paper text and repository code as fenced data
under a warning, and static judges never read prose.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from sa_align.index.model import RepoIndex
from sa_align.models import CodeSpan, Flag, Unit
from sa_align.resources import load_yaml

MAX_FLAGS = 200
"""Flags kept per repository (a hostile repository must not flood the report)."""
MAX_TEXT = 5000


@lru_cache(maxsize=1)
def patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((e["id"], re.compile(e["pattern"], re.IGNORECASE)) for e in load_yaml("injection.yaml")["patterns"])


def match_injection(text: str) -> str | None:
    """Id of the first injection pattern `text` matches, if any."""
    for pid, rx in patterns():
        if rx.search(text[:MAX_TEXT]):
            return pid
    return None


def _texts(index: RepoIndex):
    for t in index.texts:
        yield t.path, t.line, t.text
    for info in index.files:
        if info.kind == "text":
            for no, line in enumerate(index.file_text(info.path).splitlines(), 1):
                yield info.path, no, line


def scan_injections(index: RepoIndex) -> list[Flag]:
    """One `injection` flag per repository text that addresses a judge."""
    flags: list[Flag] = []
    seen: set[tuple[str, int]] = set()
    for path, line, text in _texts(index):
        pid = match_injection(text)
        if pid is None or (path, line) in seen:
            continue
        seen.add((path, line))
        excerpt = " ".join(text.split())[:160]
        flags.append(Flag(
            kind="injection",
            message=f"text addressed to a judge ({pid}), ignored: \"{excerpt}\"",
            location=CodeSpan(path=path, start_line=max(1, line), end_line=max(1, line)),
        ))
        if len(flags) >= MAX_FLAGS:
            break
    return flags


def unit_texts(unit: Unit) -> Iterator[tuple[str, str]]:
    """(field, text) for every piece of paper-side text a unit carries into a prompt."""
    yield "claim", unit.claim
    yield "quote", unit.quote
    yield "section", unit.section or ""
    yield "cited_ref", unit.cited_ref or ""
    for p in unit.params:
        for text in (p.name, p.surface, p.text, p.unit, p.value, *p.values):
            yield "params", "" if text is None else str(text)
    for field, items in (("entities", unit.entities), ("order", unit.order), ("hints", unit.hints)):
        for text in items:
            yield field, text


def unit_injection(unit: Unit) -> tuple[str, str, str] | None:
    """(field, pattern id, text) of the first paper-side text of `unit` that addresses a judge."""
    for field, text in unit_texts(unit):
        if text and (pid := match_injection(text)) is not None:
            return field, pid, text
    return None


def scan_unit_injections(units: Iterable[Unit]) -> list[Flag]:
    """One `injection` flag per unit whose paper-side text addresses a judge."""
    flags: list[Flag] = []
    for unit in units:
        found = unit_injection(unit)
        if found is None:
            continue
        field, pid, text = found
        excerpt = " ".join(text.split())[:160]
        flags.append(Flag(
            kind="injection",
            message=f"paper text ({field}) addressed to a judge ({pid}), ignored: \"{excerpt}\"",
            unit_id=unit.id,
        ))
        if len(flags) >= MAX_FLAGS:
            break
    return flags
