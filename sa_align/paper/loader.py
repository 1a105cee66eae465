"""Entry points: `load_paper(path)` and `paper_from_text(text)`.

The format comes from the file extension; a PDF signature in the bytes wins
over the extension, and files with an unknown extension are sniffed.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from sa_align.errors import PaperError
from sa_align.models import Paper, PaperFormat
from sa_align.paper.assemble import Parsed, build_paper
from sa_align.paper.latex import parse_latex
from sa_align.paper.markdown import parse_markdown
from sa_align.paper.pdf import parse_pdf
from sa_align.paper.text import parse_text

MAX_PAPER_BYTES = 20 * 1024 * 1024
"""Largest paper file accepted; a research paper is far smaller, anything bigger is not one."""

_EXTENSIONS: dict[str, PaperFormat] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".tex": "latex",
    ".latex": "latex",
    ".pdf": "pdf",
}
_FORMAT_ALIASES: dict[str, PaperFormat] = {
    "markdown": "markdown", "md": "markdown", "text": "text", "txt": "text", "plain": "text",
    "latex": "latex", "tex": "latex",
}
_LATEX_SNIFF = re.compile(r"\\(?:documentclass|begin\{document\}|(?:sub)*section\*?\{)")
_MARKDOWN_SNIFF = re.compile(r"^(?: {0,3}#{1,6}[ \t]+\S|[^\n]+\n(?:=+|-+)[ \t]*$)", re.MULTILINE)
_FALLBACK_ENCODINGS = ("cp1252", "latin-1")
_BINARY_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")


def load_paper(path: str | Path, *, max_bytes: int = MAX_PAPER_BYTES) -> Paper:
    """Load a paper file (Markdown, plain text, LaTeX or PDF) into a `Paper`.

    Raises `PaperError` for a missing file, a directory, an empty file, an
    unknown format, a file over `max_bytes`, or a PDF without a text layer.
    """
    p = Path(path)
    data = _read_bytes(p, max_bytes)
    fmt = _detect_format(p, data)
    digest = hashlib.sha256(data).hexdigest()
    if fmt == "pdf":
        parsed = parse_pdf(data, name=str(p))
        return build_paper(parsed, fmt="pdf", fallback_title=p.stem, source=str(p),
                           sha256=digest, encoding="pdf", warnings=[])
    text, encoding, warnings = decode(data, str(p))
    if not text.strip():
        raise PaperError(f"{p}: the file is empty (only whitespace)")
    parsed = _parse(text, fmt, base_dir=p.parent, main_file=p)
    return build_paper(parsed, fmt=fmt, fallback_title=p.stem, source=str(p),
                       sha256=digest, encoding=encoding, warnings=warnings)


def paper_from_text(
    text: str,
    *,
    format: str = "markdown",  # noqa: A002 - the public name of the option
    title: str | None = None,
    source: str | None = None,
) -> Paper:
    """Build a `Paper` from text already in memory (`format`: markdown, text or latex).

    For LaTeX, `\\input`s are resolved next to `source` when it is given and skipped otherwise.
    """
    fmt = _FORMAT_ALIASES.get(format.lower())
    if fmt is None:
        raise PaperError(
            f"paper_from_text: unknown format {format!r}; use 'markdown', 'text' or 'latex' "
            "(a PDF has to be loaded from its file with load_paper)"
        )
    if not text.strip():
        raise PaperError("paper_from_text: the text is empty")
    text = normalize_newlines(text.removeprefix("\ufeff"))
    base_dir = Path(source).parent if source else None
    parsed = _parse(text, fmt, base_dir=base_dir, main_file=Path(source) if source else None)
    if title:
        parsed.title = title
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    fallback = Path(source).stem if source else "Untitled"
    return build_paper(parsed, fmt=fmt, fallback_title=fallback, source=source,
                       sha256=digest, encoding="utf-8", warnings=[])


def _parse(text: str, fmt: PaperFormat, *, base_dir: Path | None, main_file: Path | None) -> Parsed:
    if fmt == "markdown":
        return parse_markdown(text)
    if fmt == "latex":
        return parse_latex(text, base_dir, main_file)
    return parse_text(text)


def _read_bytes(p: Path, max_bytes: int) -> bytes:
    if not p.exists():
        raise PaperError(f"{p}: no such file")
    if p.is_dir():
        raise PaperError(f"{p}: is a directory; give the paper file itself (e.g. main.tex or paper.pdf)")
    if not p.is_file():
        raise PaperError(f"{p}: not a regular file")
    size = p.stat().st_size
    if size > max_bytes:
        raise PaperError(
            f"{p}: {size / 1e6:.1f} MB is over the {max_bytes / 1e6:.0f} MB limit for a paper file"
        )
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise PaperError(f"{p}: cannot be read ({exc.strerror})") from exc
    if not data.strip():
        raise PaperError(f"{p}: the file is empty" + (" (only whitespace)" if data else ""))
    return data


def _detect_format(p: Path, data: bytes) -> PaperFormat:
    if data.lstrip()[:5] == b"%PDF-":
        return "pdf"
    ext = p.suffix.lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    head = data[:200_000].decode("utf-8", errors="replace")
    if _LATEX_SNIFF.search(head):
        return "latex"
    if _MARKDOWN_SNIFF.search(head):
        return "markdown"
    known = ", ".join(sorted(_EXTENSIONS))
    raise PaperError(
        f"{p}: unknown paper format (extension {ext or 'none'!r}, and the content is not "
        f"recognisably PDF, LaTeX or Markdown); supported extensions: {known}"
    )


def normalize_newlines(text: str) -> str:
    """`\\r\\n` and lone `\\r` become `\\n` so offsets mean the same on every platform."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode(data: bytes, name: str) -> tuple[str, str, list[str]]:
    """Text of `data`, the encoding used, and a warning when it was not UTF-8."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return normalize_newlines(data.decode("utf-16")).removeprefix("\ufeff"), "utf-16", []
        except UnicodeDecodeError:
            pass
    if len(_BINARY_CONTROL.findall(data[:65536])) > 8:
        raise PaperError(f"{name}: looks like a binary file, not a text paper (it contains control bytes)")
    try:
        return normalize_newlines(data.decode("utf-8-sig")), "utf-8", []
    except UnicodeDecodeError as exc:
        reason = f"not valid UTF-8 at byte {exc.start}"
    for encoding in _FALLBACK_ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        return normalize_newlines(text), encoding, [f"{name}: {reason}; decoded as {encoding}"]
    raise PaperError(f"{name}: the bytes cannot be decoded as text ({reason})")
