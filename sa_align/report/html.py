"""`report.html`: one self-contained page (no network assets) with charts and a unit table.

Everything from the audited paper and repository is untrusted: text reaches the
page only through `html.escape` or the browser's `textContent`, and the embedded
JSON has `<` escaped so no string can close its script tag.
"""

from __future__ import annotations

import html
import json
import re
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

from sa_align.extract.readable import readable
from sa_align.models import DriftReport, Label, UnitKind
from sa_align.report.rule_codes import by_rule, held_sentence, rule_name, rule_note
from sa_align.report.sentences import (
    EXPECTED_DEFINITION, MEAN_DEFINITION, definitions, empty_repo_sentence, headline, undecided_sentence,
)

_ASSETS = Path(__file__).with_name("assets")
_COLORS = {
    "aligned": "#2e7d32", "mismatched": "#c62828", "stubbed": "#ef6c00",
    "misattributed": "#6a1b9a", "missing": "#455a64", "undecided": "#9e9e9e",
}


@lru_cache(maxsize=None)
def _asset(name: str) -> str:
    return (_ASSETS / name).read_text(encoding="utf-8")


def render_html(report: DriftReport) -> str:
    e = html.escape
    s = report.summary
    cards = "".join(
        f'<div class="card">{e(label)}<b style="color:{_COLORS[label]}">{n}</b></div>'
        for label, n in s.counts.items()
    )
    options = "".join(f'<option value="{lb.value}">{lb.value}</option>' for lb in Label)
    kinds = "".join(f'<option value="{k.value}">{k.value}</option>' for k in UnitKind)
    data = json.dumps(_data(report), ensure_ascii=False)
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return page(f"Drift report: {report.paper.title}", f"""<h1>Drift report: {e(report.paper.title)}</h1>
<div class="meta">Repository <code>{e(report.repo.path)}</code>{_commit(report)} · sa_align {e(report.sa_align_version)} · {e(report.created_at)}</div>
{_headline(report)}
<div class="cards">{_score_cards(report)}<div class="card">units<b>{s.n_units}</b></div>{cards}
<div class="card">decided without a model<b>{_pct(s.decided_without_llm)}</b></div><div class="card">needs review<b>{s.needs_review}</b></div>{_error_card(report)}</div>
<h2>Overview</h2>
<div class="charts"><div class="chart" id="chart-kinds">{_kind_chart(report)}{_legend()}</div><div class="chart" id="chart-sections">{_section_chart(report)}</div></div>
{_by_rule(report)}
<h2>Units</h2>
<div class="controls"><input id="filter-text" type="search" placeholder="Filter by text…" aria-label="filter text">
<select id="filter-label" aria-label="filter label"><option value="">all labels</option>{options}</select>
<select id="filter-kind" aria-label="filter kind"><option value="">all kinds</option>{kinds}</select>
<span id="shown-count"></span></div>
<table id="units"><thead><tr><th data-key="id">unit</th><th data-key="kind">kind</th><th data-key="label">label</th>
<th data-key="score">score</th><th data-key="agreement">agreement</th><th data-key="section">section</th><th data-key="claim">claim</th></tr></thead>
<tbody id="units-body"></tbody></table>
{_flags(report)}
{_errors(report)}
<script type="application/json" id="report-data">{data}</script>
<script>{_asset("report.js")}</script>""")


def _data(report: DriftReport) -> dict:
    """The results the page's script renders, each with its claim in readable form beside the stored one."""
    data = report.model_dump(mode="json", include={"results"})
    for r, result in zip(data["results"], report.results):
        r["claim_text"] = readable(result.unit.claim)
        r["rule_note"] = rule_note(result)
    return data


def _headline(report: DriftReport) -> str:
    """The headline and each number's definition, the undecided units' next step, and an empty repository's warning."""
    e = html.escape
    empty = empty_repo_sentence(report)
    warning = f'<p class="warning" id="empty-repo"><b>Warning:</b> {e(empty)}</p>' if empty else ""
    items = "".join(f"<li>{e(d)}</li>" for d in definitions(report))
    undecided = undecided_sentence(report)
    more = f'<p id="undecided">{_code_spans(undecided)}</p>' if undecided else ""
    held = held_sentence(report)
    more += f'<p id="held">{_code_spans(held)}</p>' if held else ""
    return f'{warning}<p class="headline" id="headline">{e(headline(report))}</p><ul class="defs">{items}</ul>{more}'


def _code_spans(sentence: str) -> str:
    """The sentence escaped, its Markdown code spans (`--preview`) as `<code>`: the sentences are written
    once for every format (`report/sentences.py`), in Markdown."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(sentence))


def _by_rule(report: DriftReport) -> str:
    """Units per rule and what it did to them (`sa-align rules CODE` explains a code)."""
    e = html.escape
    rows = "".join(f"<tr><td><code>{e(c)}</code></td><td>{e(rule_name(c))}</td><td>{e(o)}</td><td>{n}</td></tr>"
                   if c else f"<tr><td>none</td><td></td><td>{e(o)}</td><td>{n}</td></tr>"
                   for c, o, n in by_rule(report))
    if not rows:
        return ""
    return ('<h2>Decided by rule</h2><table id="by-rule"><thead><tr><th>rule</th><th>name</th><th>label</th>'
            f'<th>units</th></tr></thead><tbody>{rows}</tbody></table>'
            '<p class="note"><code>sa-align rules CODE</code> shows what a rule decides, why, and its measured precision.</p>')


def _score_cards(report: DriftReport) -> str:
    s = report.summary
    mean = "n/a" if s.mean_score is None else f"{s.mean_score:.3f}"
    cards = f'<div class="card" title="{html.escape(MEAN_DEFINITION)}">mean over decided<b>{mean}</b></div>'
    if s.expected_score is None:
        return cards
    return (f'<div class="card" title="{html.escape(EXPECTED_DEFINITION)}">expected score<b>{s.expected_score:.3f}</b></div>'
            + cards)


def page(title: str, body: str) -> str:
    """One self-contained page in the report's look (inline stylesheet, nothing fetched):
    `title` is escaped here; `body` is markup whose untrusted text the caller escaped."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{_asset("report.css")}</style></head>
<body>
{body}
</body></html>
"""


def _commit(report: DriftReport) -> str:
    c = report.repo.git_commit
    return f" @ <code>{html.escape(c[:12])}</code>" if c else ""


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.0%}"


def _kind_chart(report: DriftReport) -> str:
    """Stacked horizontal bars: labels per unit kind."""
    rows = [(k, report.summary.by_kind.get(k.value, {})) for k in UnitKind]
    rows = [(k, c) for k, c in rows if c]
    width, bar, gap, left = 420, 22, 10, 90
    total_max = max((sum(c.values()) for _, c in rows), default=1)
    parts = [f'<svg width="{width}" height="{len(rows) * (bar + gap) + 40}" role="img" aria-label="labels per kind">',
             '<text x="0" y="14" font-size="13" font-weight="600">Labels per kind</text>']
    for i, (kind, counts) in enumerate(rows):
        y, x = 26 + i * (bar + gap), left
        parts.append(f'<text x="0" y="{y + 15}" font-size="12">{kind.value}</text>')
        for label in Label:
            n = counts.get(label.value, 0)
            if n:
                w = (width - left - 10) * n / total_max
                parts.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar}" fill="{_COLORS[label.value]}"><title>{label.value}: {n}</title></rect>')
                x += w
    parts.append("</svg>")
    return "".join(parts)


def _legend() -> str:
    items = "".join(f'<span><i style="background:{color}"></i>{label}</span>' for label, color in _COLORS.items())
    return f'<div class="legend">{items}</div>'


def _section_chart(report: DriftReport) -> str:
    """Bars: mean SA-Bench score of the decided units in each paper section."""
    scores: dict[str, list[float]] = defaultdict(list)
    for r in report.results:
        if r.score is not None:
            scores[r.unit.section or "(no section)"].append(r.score)
    width, bar, gap, left = 460, 18, 8, 170
    parts = [f'<svg width="{width}" height="{len(scores) * (bar + gap) + 40}" role="img" aria-label="score per section">',
             '<text x="0" y="14" font-size="13" font-weight="600">Mean score per section</text>']
    for i, (section, vals) in enumerate(scores.items()):
        y, mean = 26 + i * (bar + gap), sum(vals) / len(vals)
        w = (width - left - 50) * mean
        name = html.escape(section if len(section) <= 26 else section[:25] + "…")
        parts.append(f'<text x="0" y="{y + 13}" font-size="12">{name}</text>')
        parts.append(f'<rect x="{left}" y="{y}" width="{max(w, 1):.1f}" height="{bar}" fill="#1565c0"><title>{mean:.2f} over {len(vals)} units</title></rect>')
        parts.append(f'<text x="{left + w + 4:.1f}" y="{y + 13}" font-size="11">{mean:.2f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _error_card(report: DriftReport) -> str:
    n = report.summary.judge_errors
    return f'<div class="card">judge errors<b class="error">{n}</b></div>' if n else ""


def _errors(report: DriftReport) -> str:
    """Run errors and each unit's judge error: what degraded the report, escaped like all untrusted text."""
    e = html.escape
    items = [f"<li>{e(msg)}</li>" for msg in report.errors]
    items += [f"<li><code>{e(r.unit.id)}</code> ({e(r.label.value)}): {e(r.error)}</li>" for r in report.results if r.error]
    if not items:
        return ""
    return f'<h2>Errors (degraded, not fatal)</h2><ul class="errors" id="errors">{"".join(items)}</ul>'


def _flags(report: DriftReport) -> str:
    if not report.flags:
        return ""
    items = "".join(
        f"<li><b>{html.escape(f.kind)}</b> {html.escape(str(f.location) if f.location else '')}: {html.escape(f.message)}</li>"
        for f in report.flags
    )
    return f'<h2>Flags</h2><ul class="flags">{items}</ul>'
