"""What the `sa-align` commands share: their common options, the `EvalConfig` those options build,
the report formats they take, and the usage error (exit 2).

Only typer is imported at module level (as in `cli.py`) so `sa-align --help` stays fast.
"""

from __future__ import annotations

from pathlib import Path

import typer

EXIT_INPUT = 2

JudgeOpt = typer.Option(None, "--judge", "-j", help="LLM judge model (litellm string, MODEL[@API_BASE][*SAMPLES]); repeatable. None: offline, static judges only.")
EmbedOpt = typer.Option(None, "--embeddings/--no-embeddings", help="Embedding retrieval: force on, or off for speed (default: on when installed).")
CalibOpt = typer.Option(True, "--calibration/--no-calibration", help="Let the calibrated judge (a model learned on SA-Bench's judged claims) weigh the static evidence; --no-calibration keeps the hand-set aggregate.")
FormatOpt = typer.Option("json,md", "--format", "-f", help="Comma-separated report formats: json, md, html, sarif.")
SelectOpt = typer.Option(None, "--select", help="Rules that may decide: codes or code prefixes (NUM, STB001, ALL), comma-separated or repeated; default every rule. `sa-align rules` lists them.")
IgnoreOpt = typer.Option(None, "--ignore", help="Rules switched off after --select (codes or prefixes, comma-separated or repeated): their findings become abstentions.")
PreviewOpt = typer.Option(False, "--preview", help="Let preview rules (precision not yet measured high enough) set failure labels; without it their findings are held back for review.")


def fail(message: str) -> typer.Exit:
    """Print `message` as an error and return the exit (code 2) for the caller to raise."""
    typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
    return typer.Exit(EXIT_INPUT)


def formats(text: str) -> list[str]:
    """The report formats named in `text` (comma-separated); an unknown one is a usage error."""
    from sa_align.report import FORMATS

    names = [f.strip() for f in text.split(",") if f.strip()]
    bad = [f for f in names if f not in FORMATS]
    if bad:
        raise fail(f"unknown format(s) {', '.join(bad)}; choose from {', '.join(FORMATS)}")
    return names


def rules_selection(select: list[str] | None, ignore: list[str] | None, preview: bool) -> dict:
    """`RulesConfig` fields from the selection options; an unknown code or prefix is a usage error
    here, before any work, rather than inside the first unit's judging."""
    from sa_align.config import RulesConfig
    from sa_align.errors import ConfigError
    from sa_align.rules.policy import enabled_codes

    chosen = {"select": _codes(select) or None, "ignore": _codes(ignore), "preview": preview}
    if chosen["select"] is not None or chosen["ignore"]:
        try:
            enabled_codes(RulesConfig(**chosen))
        except ConfigError as exc:
            raise fail(f"--select/--ignore: {exc}") from None
    return chosen


def _codes(values: list[str] | None) -> list[str]:
    # `--ignore NUM,STB --ignore CAL001` and `--ignore NUM --ignore STB` read the same.
    return [c.strip().upper() for v in values or [] for c in v.split(",") if c.strip()]


def eval_config(
    judge: list[str] | None, *, samples: int = 1, budget: float | None = None, top_k: int | None = None,
    no_cache: bool = False, cache_dir: Path | None = None, embeddings: bool | None = None,
    calibration: dict | None = None, rules: dict | None = None,
):
    """The `EvalConfig` a command's options describe (`None` options keep the defaults)."""
    from sa_align.config import EvalConfig, ModelSpec

    specs = []
    for text in judge or []:
        spec = ModelSpec.parse(text)
        if samples > 1 and "*" not in text:
            spec.samples = samples
        specs.append(spec)
    kwargs: dict = {"judges": specs, "use_cache": not no_cache, "budget_usd": budget, "embeddings": embeddings}
    optional = {"top_k": top_k, "cache_dir": cache_dir, "calibration": calibration, "rules": rules}
    kwargs.update({k: v for k, v in optional.items() if v})
    return EvalConfig(**kwargs)
