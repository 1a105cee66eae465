"""DriftReport -> JSON, Markdown, HTML, SARIF."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Callable, Iterable

from sa_align.errors import InputError
from sa_align.models import DriftReport
from sa_align.report.json_report import load_report, render_json, validate_report_json
from sa_align.report.summary import summarize

FORMATS: dict[str, tuple[str, str, str]] = {
    "json": ("sa_align.report.json_report", "render_json", "report.json"),
    "md": ("sa_align.report.markdown", "render_markdown", "report.md"),
    "html": ("sa_align.report.html", "render_html", "report.html"),
    "sarif": ("sa_align.report.sarif", "render_sarif", "report.sarif"),
}
"""Format name -> (module, renderer, file name). Renderers load on first use."""


def renderer(fmt: str) -> Callable[[DriftReport], str]:
    try:
        module, func, _ = FORMATS[fmt]
    except KeyError:
        raise InputError(f"unknown report format {fmt!r}; choose from {', '.join(FORMATS)}") from None
    return getattr(import_module(module), func)


def render(report: DriftReport, fmt: str) -> str:
    """The report as text in format `fmt` (`json`, `md`, `html`, `sarif`)."""
    return renderer(fmt)(report)


def write_reports(report: DriftReport, out_dir: str | Path, formats: Iterable[str] = ("json", "md")) -> list[Path]:
    """Write one file per format into `out_dir` (created if needed); returns the paths written."""
    return write_texts(out_dir, {FORMATS[fmt][2]: render(report, fmt) for fmt in formats})


def write_texts(out_dir: str | Path, files: dict[str, str]) -> list[Path]:
    """Write `{file name: text}` into `out_dir` (created if needed), each through a temp file; returns the paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = out / name
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        written.append(path)
    return written


__all__ = ["FORMATS", "load_report", "render", "render_json", "summarize", "validate_report_json", "write_reports", "write_texts"]
