"""`sa-align rules [CODE] [--json]`: the registry as a person reads it (a table, or one rule's whole doc)
and as a program reads it (the same data as JSON).

The table rests every precision on its counts (`right/judged`, SA-Bench `agree/decided`) because a
rate without its denominator hides whether it was measured on three decisions or three hundred.
"""

from __future__ import annotations

import json
from typing import Any

from sa_align.rules.registry import (
    STABLE_MIN_JUDGED, STABLE_MIN_PRECISION, Example, Rule, matching, measured_on, rules,
)

SABENCH_COLUMN = ("SA-Bench: of the rule's decisions on SA-Bench's development split, how many SA-Bench's own judge "
                  "agrees with (agree/decided).")
STABLE_BAR = (f"Stable: at least {STABLE_MIN_JUDGED} hand-judged decisions, at least {STABLE_MIN_PRECISION:.0%} "
              "of them right; every other rule is preview (its failures are held back for review unless --preview)")


def selected(selector: str | None) -> list[Rule]:
    """Every rule, or those whose code `selector` names (a code or a prefix; `ConfigError` when none)."""
    table = rules()
    return list(table.values()) if selector is None else [table[c] for c in matching(selector)]


def rule_data(rule: Rule) -> dict[str, Any]:
    """One rule as JSON data: its doc fields, status, measured precision and examples."""
    return {**rule.model_dump(mode="json"), "status": rule.status}


def rules_data(chosen: list[Rule]) -> dict[str, Any]:
    """The `--json` output: what the precision was measured on, the stable bar, and each rule."""
    return {
        "measured_on": measured_on(),
        "stable_when": {"min_judged": STABLE_MIN_JUDGED, "min_precision": STABLE_MIN_PRECISION},
        "rules": [rule_data(r) for r in chosen],
    }


def precision_text(rule: Rule) -> str:
    """`0.95` (its lower bound beside it when known), or `–` with nothing judged."""
    m = rule.measured
    if m.precision is None:
        return "–"
    return f"{m.precision:.2f}" + ("" if m.low is None else f" (≥{m.low:.2f})")


def measured_on_text() -> str:
    """One sentence on what the precision table was measured on."""
    found = measured_on()
    if not found:
        return "No precision measured yet (units/rules/precision.json is not generated): every rule is preview."
    facts = [f"{k} {v}" for k, v in found.items() if isinstance(v, (str, int, float))]
    return "Precision measured on " + ("; ".join(facts) or json.dumps(found)) + "."


def print_table(chosen: list[Rule]) -> None:
    """The rules as a table on stdout, one row a code, grouped by judge."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        # Piped output is read by grep and diff: one line a rule, never wrapped at 80 columns.
        console = Console(width=200)
    # A light frame leaves the room to the names; on a narrow terminal names wrap, while codes and
    # numbers never do (a cut code is a wrong code).
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True, show_edge=False)
    table.add_column("code", style="bold", no_wrap=True)
    table.add_column("name", overflow="fold")
    table.add_column("judge", no_wrap=True)
    table.add_column("decides", overflow="fold")
    table.add_column("status", no_wrap=True)
    for header in ("precision", "right/judged", "SA-Bench"):
        table.add_column(header, justify="right", no_wrap=True)
    for i, r in enumerate(chosen):
        m = r.measured
        status = "[green]stable[/]" if r.status == "stable" else "[yellow]preview[/]"
        last_of_judge = i + 1 == len(chosen) or chosen[i + 1].judge != r.judge
        table.add_row(r.code, r.name, r.judge, r.decides, status, precision_text(r), f"{m.right}/{m.judged}",
                      f"{m.sabench_agree}/{m.sabench_decided}", end_section=last_of_judge)
    console.print(table)
    # Printed apart from the table, so the sentences wrap as prose, not padded to the table's width.
    console.print(f"{len(chosen)} rules. {measured_on_text()}\n{SABENCH_COLUMN}\n{STABLE_BAR}.", soft_wrap=True, markup=False)


def rule_doc(rule: Rule) -> str:
    """One rule's whole doc as Markdown: summary, why, status and precision, the fire and quiet examples."""
    m = rule.measured
    agree = (f"SA-Bench's judge agrees with {m.sabench_agree} of the rule's {m.sabench_decided} decisions on its development split"
             if m.sabench_decided else "No decision on SA-Bench's development split measured yet")
    judged = (f"{m.right} of {m.judged} hand-judged decisions right: precision {precision_text(rule)}"
              if m.judged else "No hand-judged decision yet")
    parts = [
        f"# {rule.code} {rule.name}\n",
        f"Judge: {rule.judge} · decides: {rule.decides} · status: {rule.status}\n",
        f"{rule.summary}\n",
        f"## Why\n\n{rule.why}\n",
        f"## Precision\n\n- {judged}.\n- {agree}.\n- {measured_on_text()}\n- {STABLE_BAR}.\n",
        _examples("Fires on", rule.examples.fire),
        _examples("Stays quiet on", rule.examples.quiet),
    ]
    return "\n".join(p for p in parts if p)


def _examples(title: str, cases: list[Example]) -> str:
    if not cases:
        return f"## {title}\n\nNo example yet.\n"
    out = [f"## {title}\n"]
    for case in cases:
        out.append(f"{case.note or 'Example.'}\n")
        out.append(_fenced("unit", "yaml", _yaml(case.unit)))
        out.extend(_fenced(path, _language(path), text) for path, text in case.files.items())
    return "\n".join(out)


def _fenced(caption: str, language: str, text: str) -> str:
    fence = "```"
    while fence in text:  # a longer fence than any run inside, so the example cannot close it
        fence += "`"
    return f"{caption}:\n\n{fence}{language}\n{text.rstrip()}\n{fence}\n"


def _yaml(data: dict[str, Any]) -> str:
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def _language(path: str) -> str:
    suffix = path.rpartition(".")[2].lower() if "." in path else ""
    return {"py": "python", "yml": "yaml", "yaml": "yaml", "json": "json", "sh": "bash", "toml": "toml"}.get(suffix, "")


def show(selector: str | None, as_json: bool) -> str | None:
    """What `sa-align rules` prints: JSON or one or more rule docs as text, or `None` after printing the
    table itself (rich writes it). An unknown code or prefix raises `ConfigError`."""
    chosen = selected(selector)
    if as_json:
        return json.dumps(rules_data(chosen), indent=2, ensure_ascii=False)
    if selector is None:
        print_table(chosen)
        return None
    return "\n".join(rule_doc(r) for r in chosen)
