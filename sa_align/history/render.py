"""`HistoryReport` -> `history.json` and `history.html` (the report's look, an inline SVG chart, no network).

Commit subjects, claims and code come from the audited repository and paper: they
reach the page only through `html.escape`.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Iterable

from sa_align.models import Label
from sa_align.models.history import EvidenceSnippet, HistoryReport, LabelChange
from sa_align.report import write_texts
from sa_align.report.html import _COLORS, _legend, page

HISTORY_FORMATS = {"json": "history.json", "html": "history.html"}
"""Format name -> file name written by `write_history`."""


def render_history(history: HistoryReport, fmt: str = "json") -> str:
    if fmt == "json":
        return history.model_dump_json(indent=2) + "\n"
    if fmt == "html":
        return render_html(history)
    raise ValueError(f"unknown history format {fmt!r}; choose from {', '.join(HISTORY_FORMATS)}")


def write_history(history: HistoryReport, out_dir: str | Path, formats: Iterable[str] = ("json", "html")) -> list[Path]:
    """Write one file per format into `out_dir`; returns the paths."""
    return write_texts(out_dir, {HISTORY_FORMATS[fmt]: render_history(history, fmt) for fmt in formats})


def summary_lines(history: HistoryReport) -> list[str]:
    """What `sa-align history` prints: commits audited and label changes, what the run reused, each change."""
    r = history.reuse
    share = lambda x: "n/a" if x is None else f"{x:.0%}"  # noqa: E731
    head = (f"{len(history.points)} commits audited, {len(history.changes)} label changes; "
            f"files reused {share(r.files_share)}, units reused {share(r.units_share)}")
    return [head] + [f"  {c.unit_id}: {c.label_before.value} -> {c.label_after.value} in {c.commit.sha[:12]} {c.commit.subject}"
                     for c in history.changes]


def chart_svg(history: HistoryReport, colors: dict[str, str]) -> str:
    """Stacked bars of label counts per commit (left axis: units) under a line of the mean score (right axis: 0-1)."""
    points = history.points
    width, height, left, right, top, bottom = max(520, 46 * len(points) + 90), 260, 44, 44, 24, 46
    plot_w, plot_h = width - left - right, height - top - bottom
    step = plot_w / max(len(points), 1)
    n_max = max((sum(p.counts.values()) for p in points), default=0) or 1
    e = html.escape
    parts = [f'<svg id="timeline-chart" width="{width}" height="{height}" role="img" aria-label="mean score and labels per commit">',
             f'<text x="0" y="14" font-size="13" font-weight="600">Labels (bars, units) and mean score (line, 0–1) per commit</text>',
             f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#999"/>',
             f'<text x="{left - 6}" y="{top + 4}" font-size="10" text-anchor="end">{n_max}</text>',
             f'<text x="{left + plot_w + 6}" y="{top + 4}" font-size="10">1.0</text>',
             f'<text x="{left + plot_w + 6}" y="{top + plot_h}" font-size="10">0.0</text>']
    line = []
    for i, p in enumerate(points):
        x, y = left + i * step + step * 0.2, top + plot_h
        for label in Label:
            n = p.counts.get(label.value, 0)
            if n:
                h = plot_h * n / n_max
                y -= h
                parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{step * 0.6:.1f}" height="{h:.1f}" fill="{colors[label.value]}" opacity="0.55">'
                             f'<title>{e(p.commit.sha[:12])} {label.value}: {n}</title></rect>')
        cx = left + i * step + step / 2
        parts.append(f'<text x="{cx:.1f}" y="{top + plot_h + 14}" font-size="10" text-anchor="middle" font-family="monospace">{e(p.commit.sha[:7])}</text>')
        if p.mean_score is not None:
            line.append((cx, top + plot_h * (1 - p.mean_score), p))
    if len(line) > 1:
        parts.append('<polyline fill="none" stroke="#1565c0" stroke-width="2" points="'
                     + " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in line) + '"/>')
    for x, y, p in line:
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#1565c0"><title>{e(p.commit.sha[:12])} '
                     f'{e(p.commit.subject)}: mean {p.mean_score:.3f}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


def render_html(history: HistoryReport) -> str:
    e, s, r = html.escape, history.selection, history.reuse
    cards = "".join(f'<div class="card">{e(k)}<b>{e(str(v))}</b></div>' for k, v in (
        ("commits audited", f"{s.audited} of {s.in_range}"), ("label changes", len(history.changes)),
        ("files reused", _pct(r.files_share)), ("units reused", _pct(r.units_share))))
    notes = "".join(f"<li>{e(n)}</li>" for n in history.notes)
    return page(f"Drift history: {history.paper.title}", f"""<h1>Drift history: {e(history.paper.title)}</h1>
<div class="meta">Repository <code>{e(history.repo_path)}</code> · range <code>{e(s.revs or "HEAD")}</code> · sa_align {e(history.sa_align_version)} · {e(history.created_at)}</div>
<div class="cards">{cards}</div>
{f'<ul class="flags" id="notes">{notes}</ul>' if notes else ''}
<h2>Timeline</h2>
<div class="chart">{chart_svg(history, _COLORS)}{_legend()}</div>
<h2>Commits</h2>
{_points_table(history)}
<h2>Label changes: introduced in</h2>
{_changes(history.changes, _COLORS)}""")


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.0%}"


def _points_table(history: HistoryReport) -> str:
    e = html.escape
    rows = "".join(
        f"<tr><td><code>{e(p.commit.sha[:12])}</code></td><td>{e(p.commit.author_date)}</td><td>{e(p.commit.subject)}</td>"
        f"<td>{'n/a' if p.mean_score is None else f'{p.mean_score:.3f}'}</td>"
        f"<td>{e(', '.join(f'{k} {v}' for k, v in p.counts.items() if v) or p.status)}</td>"
        f"<td>{p.files_reused}/{p.files}</td><td>{p.units_reused}/{p.n_units}</td><td>{e('; '.join(p.notes))}</td></tr>"
        for p in history.points
    )
    return ('<table id="commits"><thead><tr><th>commit</th><th>author date</th><th>subject</th><th>mean</th><th>labels</th>'
            f"<th>files reused</th><th>units reused</th><th>notes</th></tr></thead><tbody>{rows}</tbody></table>")


def _code(snips: list[EvidenceSnippet]) -> str:
    e = html.escape
    return "".join(f"<div><code>{e(str(s.span))}</code><pre>{e(s.code)}</pre></div>" for s in snips) or "–"


def _changes(changes: list[LabelChange], colors: dict[str, str]) -> str:
    if not changes:
        return "<p>No unit changed its label over the audited commits.</p>"
    e = html.escape

    def badge(label: Label) -> str:
        return f'<span class="label {label.value}" style="background:{colors[label.value]}">{label.value}</span>'

    rows = "".join(
        f"<tr><td><code>{e(c.unit_id)}</code><div class='claim'>{e(c.claim)}</div></td><td>{badge(c.label_before)} → {badge(c.label_after)}</td>"
        f"<td><code>{e(c.commit.sha[:12])}</code><br>{e(c.commit.author_date)}<br>{e(c.commit.subject)}</td>"
        f"<td>{_code(c.evidence_before)}</td><td>{_code(c.evidence_after)}<small>{e(c.reason_after)}</small></td></tr>"
        for c in changes
    )
    return ('<table id="changes"><thead><tr><th>unit</th><th>label</th><th>introduced in</th><th>evidence before</th>'
            f"<th>evidence after</th></tr></thead><tbody>{rows}</tbody></table>")
