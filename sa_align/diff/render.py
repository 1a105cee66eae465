"""`ReportDiff` -> Markdown (sized for a pull-request comment), JSON, HTML (in the report's look).

Claims, reasons and paths come from the paper and the repository, so they reach
Markdown through `markup` and HTML through `html.escape`, like the report's own renderers.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Iterable

from sa_align.markup import code, inline
from sa_align.models import CodeSpan
from sa_align.models.diff import EvidenceMove, ReportDiff, ReportSide, UnitChange, UnitRef
from sa_align.report import write_texts
from sa_align.report.html import _COLORS, page

DIFF_FORMATS = {"md": "diff.md", "json": "diff.json", "html": "diff.html"}
"""Format name -> file name written by `write_diff`."""
MAX_ROWS = 40
"""Rows per Markdown section; the rest are counted and left to `diff.json`."""
MAX_COMMENT_CHARS = 60_000
"""Pull-request comments are capped at 65,536 characters; the Markdown stays below with a margin."""


def render_diff(diff: ReportDiff, fmt: str = "md") -> str:
    """The diff as text in `fmt`: `md`, `json` or `html`."""
    if fmt == "json":
        return diff.model_dump_json(indent=2) + "\n"
    if fmt == "md":
        return render_markdown(diff)
    if fmt == "html":
        return render_html(diff)
    raise ValueError(f"unknown diff format {fmt!r}; choose from {', '.join(DIFF_FORMATS)}")


def write_diff(diff: ReportDiff, out_dir: str | Path, formats: Iterable[str] = ("md", "json")) -> list[Path]:
    """Write one file per format into `out_dir`; returns the paths."""
    return write_texts(out_dir, {DIFF_FORMATS[fmt]: render_diff(diff, fmt) for fmt in formats})


# --------------------------------------------------------------------------- Markdown


def _mean(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _score(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def _where(side: ReportSide) -> str:
    commit = f" @ {code(side.git_commit[:12])}" if side.git_commit else ""
    return f"{code(side.repo_path)}{commit}"


def headline(diff: ReportDiff) -> str:
    """One line: the mean score's change and the counts."""
    delta = "" if diff.mean_delta is None else f" ({diff.mean_delta:+.3f})"
    return (f"Mean score **{_mean(diff.old.mean_score)} → {_mean(diff.new.mean_score)}**{delta} · "
            f"{diff.matched} units matched · {len(diff.regressions)} regressions · {len(diff.fixes)} fixes · "
            f"{len(diff.changed)} other changes · {len(diff.added)} added · {len(diff.removed)} removed · "
            f"{len(diff.moved)} with moved evidence")


def _spans(spans: list[CodeSpan]) -> str:
    return ", ".join(code(str(s)) for s in spans[:2]) + (" …" if len(spans) > 2 else "") or "–"


def _change_rows(changes: list[UnitChange]) -> list[str]:
    rows = ["| unit | kind | label | score | claim | evidence now |", "|---|---|---|---|---|---|"]
    for c in changes[:MAX_ROWS]:
        unit = code(c.new_id) if c.old_id == c.new_id else f"{code(c.old_id)} → {code(c.new_id)}"
        rows.append(f"| {unit} | {c.kind} | {c.label_before.value} → {c.label_after.value} | "
                    f"{_score(c.score_before)} → {_score(c.score_after)} | {inline(c.claim)} | {_spans(c.evidence_after)} |")
    return rows


def _ref_rows(refs: list[UnitRef]) -> list[str]:
    rows = ["| unit | kind | label | claim |", "|---|---|---|---|"]
    rows += [f"| {code(r.id)} | {r.kind} | {r.label.value} | {inline(r.claim)} |" for r in refs[:MAX_ROWS]]
    return rows


def _move_rows(moves: list[EvidenceMove]) -> list[str]:
    rows = ["| unit | label | before | after |", "|---|---|---|---|"]
    rows += [f"| {code(m.new_id)} | {m.label.value} | {_spans(m.before)} | {_spans(m.after)} |" for m in moves[:MAX_ROWS]]
    return rows


def _section(title: str, items: list, rows: list[str], folded: bool) -> list[str]:
    if not items:
        return []
    more = [f"\n…and {len(items) - MAX_ROWS} more in `diff.json`."] if len(items) > MAX_ROWS else []
    if folded:
        return [f"<details><summary>{title} ({len(items)})</summary>\n", *rows, *more, "\n</details>\n"]
    return [f"### {title} ({len(items)})\n", *rows, *more, ""]


def render_markdown(diff: ReportDiff) -> str:
    lines = [f"## sa-align diff: {inline(diff.new.paper_title)}\n", headline(diff) + "\n",
             f"- Old: {_where(diff.old)}, {diff.old.n_units} units, {diff.old.created_at}",
             f"- New: {_where(diff.new)}, {diff.new.n_units} units, {diff.new.created_at}\n"]
    lines += [f"> {inline(n)}\n" for n in diff.notes]
    if not (diff.regressions or diff.fixes or diff.changed or diff.added or diff.removed or diff.moved):
        lines.append("No unit changed.\n")
    lines += _section("Regressions", diff.regressions, _change_rows(diff.regressions), folded=False)
    lines += _section("Fixes", diff.fixes, _change_rows(diff.fixes), folded=False)
    lines += _section("Other label changes", diff.changed, _change_rows(diff.changed), folded=True)
    lines += _section("Added units", diff.added, _ref_rows(diff.added), folded=True)
    lines += _section("Removed units", diff.removed, _ref_rows(diff.removed), folded=True)
    lines += _section("Evidence moved", diff.moved, _move_rows(diff.moved), folded=True)
    text = "\n".join(lines).rstrip() + "\n"
    if len(text) > MAX_COMMENT_CHARS:
        cut = text[:MAX_COMMENT_CHARS].rsplit("\n", 1)[0]
        text = cut + "\n\n…cut to fit a pull-request comment; the full diff is in `diff.json`.\n"
    return text


# --------------------------------------------------------------------------- HTML


def render_html(diff: ReportDiff) -> str:
    e = html.escape
    cards = "".join(f'<div class="card">{e(k)}<b>{v}</b></div>' for k, v in (
        ("mean score", f"{_mean(diff.old.mean_score)} → {_mean(diff.new.mean_score)}"),
        ("regressions", len(diff.regressions)), ("fixes", len(diff.fixes)), ("other changes", len(diff.changed)),
        ("added", len(diff.added)), ("removed", len(diff.removed)), ("evidence moved", len(diff.moved))))
    notes = "".join(f"<li>{e(n)}</li>" for n in diff.notes)
    body = "".join((
        _html_changes("Regressions", diff.regressions, _COLORS), _html_changes("Fixes", diff.fixes, _COLORS),
        _html_changes("Other label changes", diff.changed, _COLORS),
        _html_refs("Added units", diff.added, _COLORS), _html_refs("Removed units", diff.removed, _COLORS),
        _html_moves(diff.moved),
    ))
    return page(f"Drift diff: {diff.new.paper_title}", f"""<h1>Drift diff: {e(diff.new.paper_title)}</h1>
<div class="meta">Old <code>{e(diff.old.repo_path)}</code>{_commit(diff.old)} · New <code>{e(diff.new.repo_path)}</code>{_commit(diff.new)} · diff format {e(diff.schema_version)}</div>
<div class="cards">{cards}</div>
{f'<ul class="flags">{notes}</ul>' if notes else ''}
{body or '<p>No unit changed.</p>'}""")


def _commit(side: ReportSide) -> str:
    return f" @ <code>{html.escape(side.git_commit[:12])}</code>" if side.git_commit else ""


def _badge(label: str, colors: dict[str, str]) -> str:
    return f'<span class="label {html.escape(label)}" style="background:{colors.get(label, "#999")}">{html.escape(label)}</span>'


def _html_spans(spans: list[CodeSpan]) -> str:
    return "<br>".join(f"<code>{html.escape(str(s))}</code>" for s in spans) or "–"


def _html_changes(title: str, changes: list[UnitChange], colors: dict[str, str]) -> str:
    e = html.escape
    return _table(title, ["unit", "kind", "label", "score", "claim", "evidence before", "evidence after"], [
        f"<tr><td><code>{e(c.old_id)}</code>{'' if c.old_id == c.new_id else ' → <code>' + e(c.new_id) + '</code>'}</td>"
        f"<td>{e(c.kind)}</td><td>{_badge(c.label_before.value, colors)} → {_badge(c.label_after.value, colors)}</td>"
        f"<td>{_score(c.score_before)} → {_score(c.score_after)}</td><td>{e(c.claim)}<br><small>{e(c.reason_after)}</small></td>"
        f"<td>{_html_spans(c.evidence_before)}</td><td>{_html_spans(c.evidence_after)}</td></tr>"
        for c in changes])


def _table(title: str, headers: list[str], rows: list[str]) -> str:
    if not rows:
        return ""
    head = "".join(f"<th>{h}</th>" for h in headers)
    return f"<h2>{title} ({len(rows)})</h2><table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _html_refs(title: str, refs: list[UnitRef], colors: dict[str, str]) -> str:
    e = html.escape
    return _table(title, ["unit", "kind", "label", "claim"], [
        f"<tr><td><code>{e(r.id)}</code></td><td>{e(r.kind)}</td><td>{_badge(r.label.value, colors)}</td><td>{e(r.claim)}</td></tr>"
        for r in refs])


def _html_moves(moves: list[EvidenceMove]) -> str:
    e = html.escape
    return _table("Evidence moved", ["unit", "claim", "before", "after"], [
        f"<tr><td><code>{e(m.new_id)}</code></td><td>{e(m.claim)}</td><td>{_html_spans(m.before)}</td>"
        f"<td>{_html_spans(m.after)}</td></tr>" for m in moves])
