"""`report.md`: a summary a person reads first, then every unit that drifted, with its evidence.

Everything the paper, the repository or a judge wrote reaches the page through `markup`: values
(unit ids, paths, symbols, commits) as code spans no backtick can close, prose (titles, claims,
quotes, sections, reasons, errors, flags) on one escaped line, snippets in fences. Judge reasons
count as untrusted: they quote repository names.
"""

from __future__ import annotations

from sa_align.extract.readable import readable
from sa_align.markup import code, fence, inline
from sa_align.models import CodeSpan, DriftReport, EvidenceCode, Label, UnitKind, UnitResult
from sa_align.report.rule_codes import by_rule, held_sentence, label_text, rule_name
from sa_align.report.sentences import budget_sentences, definitions, empty_repo_sentence, headline, undecided_sentence

_ORDER = [Label.MISMATCHED, Label.MISATTRIBUTED, Label.STUBBED, Label.MISSING, Label.UNDECIDED]
_SNIPPET_LINES = 8


def render_markdown(report: DriftReport) -> str:
    parts = [_header(report), _summary(report), _findings(report), _footer(report)]
    return "\n".join(p for p in parts if p).rstrip() + "\n"


def _header(report: DriftReport) -> str:
    repo = report.repo
    commit = f" @ {code(repo.git_commit[:12])}" if repo.git_commit else ""
    return (
        f"# Drift report: {inline(report.paper.title)}\n\n"
        f"- Paper: {code(report.paper.path or report.paper.title)}\n"
        f"- Repository: {code(repo.path)}{commit} ({repo.files_indexed} files indexed, {repo.files_skipped} skipped)\n"
        f"- sa_align {report.sa_align_version}, report format {report.schema_version}, {report.created_at}\n"
    )


def _summary(report: DriftReport) -> str:
    s = report.summary
    labels = [label.value for label in Label]
    kinds = [k.value for k in UnitKind if k.value in s.by_kind]
    rows = ["| kind | " + " | ".join(labels) + " | total |", "|---" * (len(labels) + 2) + "|"]
    for kind in kinds:
        c = s.by_kind[kind]
        rows.append(f"| {kind} | " + " | ".join(str(c.get(lb, 0)) for lb in labels) + f" | {sum(c.values())} |")
    rows.append("| **all** | " + " | ".join(f"**{s.counts.get(lb, 0)}**" for lb in labels) + f" | **{s.n_units}** |")
    static = "n/a" if s.decided_without_llm is None else f"{s.decided_without_llm:.0%}"
    kappa = "" if s.fleiss_kappa is None else f"- Agreement across judges (Fleiss' kappa): {s.fleiss_kappa:.2f}\n"
    failed = f"; judge errors: {s.judge_errors}" if s.judge_errors else ""
    empty = empty_repo_sentence(report)
    undecided = undecided_sentence(report)
    return (
        "## Summary\n\n"
        + (f"> **Warning:** {empty}\n\n" if empty else "")
        + f"- {headline(report, lambda x: f'**{x}**')}\n"
        + "".join(f"  - {d}\n" for d in definitions(report))
        + (f"- {undecided}\n" if undecided else "")
        + (f"- {held_sentence(report, code)}\n" if held_sentence(report) else "")
        + "".join(f"- {inline(b)}\n" for b in budget_sentences(report))
        + f"- Decided without a model: {static}; needs review: {s.needs_review}{failed}\n"
        + f"{kappa}"
        + f"{_calibration(report)}"
        + f"- Cost: {_cost(report)}; time: {report.timing.get('total', 0):.1f} s\n\n"
        + "\n".join(rows)
        + "\n"
        + _by_rule(report)
    )


def _by_rule(report: DriftReport) -> str:
    """Units per rule and what it did to them, so a reader sees which rules the labels rest on."""
    counts = by_rule(report)
    if not counts:
        return ""
    rows = ["| rule | name | label | units |", "|---|---|---|---|"]
    for c, outcome, n in counts:
        rows.append(f"| {code(c) if c else 'none'} | {rule_name(c) or '–'} | {outcome} | {n} |")
    return "\n### Decided by rule\n\n" + "\n".join(rows) + "\n\n`sa-align rules CODE` shows what a rule decides, why, and its measured precision.\n"


def _calibration(report: DriftReport) -> str:
    c = report.calibration
    if c.model is None:
        return f"- Calibrated judge: not used ({c.uncalibrated or 'off'})\n"
    saved = f"; LLM calls saved: {c.llm_calls_saved} on {c.llm_units_skipped} units" if c.llm_units_skipped else ""
    return f"- Calibrated judge: `{c.model}` ({c.trained_on}){saved}\n"


def _cost(report: DriftReport) -> str:
    c = report.cost
    if c.calls == 0 and c.cache_hits == 0:
        return "no model calls"
    usd = "unknown price" if c.usd is None else f"${c.usd:.4f}"
    return f"{c.calls} calls ({c.cache_hits} cached), {c.prompt_tokens + c.completion_tokens} tokens, {usd}"


def _findings(report: DriftReport) -> str:
    out = []
    for label in _ORDER:
        group = [r for r in report.results if r.label == label]
        if not group:
            continue
        out.append(f"## {label.value.capitalize()} ({len(group)})\n")
        out.extend(_unit(r) for r in group)
    aligned = [r for r in report.results if r.label == Label.ALIGNED]
    if aligned:
        out.append(f"## Aligned ({len(aligned)})\n")
        out.append("\n".join(f"- {code(r.unit.id)}{f' ({code(r.rule)})' if r.rule else ''} {inline(readable(r.unit.claim))}"
                             for r in aligned) + "\n")
    return "\n".join(out)


def _unit(r: UnitResult) -> str:
    u = r.unit
    # Paper and repository text is untrusted: one line each, so it can start no heading or list.
    where = f", section *{inline(u.section)}*" if u.section else ""
    cited = f", cited [{inline(u.cited_ref)}]" if u.cited_ref else ""
    lines = [f"### {code(u.id)} ({u.kind.value}, {u.attribution.value}{cited}{where})\n", f"**Claim:** {inline(readable(u.claim))}\n"]
    if u.quote:
        lines.append("> " + inline(u.quote) + "\n")
    score = "" if r.score is None else f", score {r.score:.2f}"
    review = ", **needs review**" if r.needs_review else ""
    agree = "" if r.agreement is None else f", agreement {r.agreement:.0%}"
    lines.append(f"**Verdict:** {label_text(r, code)}{score}, confidence {r.confidence:.2f}{agree}{review}\n")
    if r.reason:
        lines.append(f"**Why:** {inline(r.reason)}\n")
    if r.next_step:
        lines.append(f"**Next step:** {inline(r.next_step)}\n")
    if r.error:
        lines.append(f"**Judge error:** {inline(r.error)}\n")
    lines.extend(_evidence(r))
    votes = [v for v in r.verdicts if not v.abstained]
    if votes:
        lines.append("Judges: " + "; ".join(f"{inline(v.model or v.judge)} → {v.label.value}" + (f" ({code(v.rule)})" if v.rule else "")
                                            for v in votes) + "\n")
    return "\n".join(lines)


def _evidence(r: UnitResult) -> list[str]:
    """Each evidence line with its code: cut from a candidate that holds it, else the lines copied
    when the unit was judged, else a note saying why the code is not shown."""
    copied = {(c.span.path, c.span.start_line, c.span.end_line): c for c in r.evidence_code}
    out = []
    for span in r.evidence[:3]:
        out.append(f"Evidence: {code(str(span))}" + (f" in {code(span.symbol)}" if span.symbol else "") + "\n")
        snippet = _window(r, span)
        if snippet:
            out.append(fence(snippet, "") + "\n")
        else:
            out.extend(_copied(copied.get((span.path, span.start_line, span.end_line))))
    return out


def _window(r: UnitResult, span: CodeSpan) -> str:
    """The evidence lines (plus one line of context each side) cut from a candidate holding its first line."""
    for c in r.candidates:
        if c.snippet and c.span.path == span.path and c.span.start_line <= span.start_line <= c.span.end_line:
            lines = c.snippet.splitlines()
            lo = max(span.start_line - 1 - c.span.start_line, 0)
            hi = min(span.end_line + 1 - c.span.start_line + 1, lo + _SNIPPET_LINES)
            return "\n".join(lines[lo:hi])
    return ""


def _copied(ev: EvidenceCode | None) -> list[str]:
    if ev is None:
        return ["*Code not shown: this report carries no copy of these lines (a report from before format 1.3).*\n"]
    if not ev.lines:
        return [f"*Code not shown: {inline(ev.unreadable or 'no line could be read')}.*\n"]
    more = [f"*… {ev.more_lines} more line{'s' if ev.more_lines != 1 else ''} in the file.*\n"] if ev.more_lines else []
    return [fence("\n".join(ev.lines), "") + "\n", *more]


def _footer(report: DriftReport) -> str:
    out = []
    injections = [f for f in report.flags if f.kind == "injection"]
    if injections:
        out.append("## Flags: text addressed to a judge\n")
        out.append("These were treated as data and changed no verdict.\n")
        out.extend(f"- {code(str(f.location))}: {inline(f.message)}" for f in injections)
        out.append("")
    unit_errors = [r for r in report.results if r.error]
    if report.errors or unit_errors:
        out.append("## Errors (degraded, not fatal)\n")
        out.extend(f"- {inline(e)}" for e in report.errors)
        out.extend(f"- {code(r.unit.id)} ({r.label.value}): {inline(r.error or '')}" for r in unit_errors)
        out.append("")
    return "\n".join(out)

