"""One file's bytes -> `FileFacts`, by kind. A file that fails is indexed as text."""

from __future__ import annotations

import hashlib
import logging

from sa_align.index.configs import extract_config, scripts_in_text
from sa_align.index.model import FileFacts, FileKind
from sa_align.index.walk import file_kind, is_makefile

# The extractors (tree-sitter, queries, config parsers) are imported where they run: a
# warm index, loaded whole from the cache, needs only `file_text` from this module.

log = logging.getLogger(__name__)

MAX_LINE_BYTES = 20_000
"""Source with a longer line (minified or generated) is indexed as text: tree-sitter's
time on one huge line grows steeply, and such code is never what a paper describes."""


def has_long_line(data: bytes) -> bool:
    if len(data) <= MAX_LINE_BYTES:
        return False
    return any(len(line) > MAX_LINE_BYTES for line in data.split(b"\n"))


def decode(data: bytes) -> str:
    """UTF-8 with replacement (a BOM is dropped): non-UTF-8 files are still indexed."""
    return data.decode("utf-8-sig", errors="replace")


def n_lines(data: bytes) -> int:
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def file_text(rel: str, data: bytes) -> str:
    """The text the index keeps for a file (a notebook's virtual concatenated code text)."""
    text = decode(data)
    if file_kind(rel) == "notebook":
        from sa_align.index.other import notebook_text

        return notebook_text(text) or text
    return text


def prepare() -> None:
    """Import the extractors, compile the Python query and load the pattern tables now (before forking
    workers, which inherit them)."""
    import sa_align.index.configs  # noqa: F401
    import sa_align.index.other  # noqa: F401
    import sa_align.index.python  # noqa: F401
    from sa_align.index.pyfacts import call_rules
    from sa_align.index.queries import parser, query, stub_patterns
    from sa_align.index.scopes import rules

    try:
        query("python")
        parser("python")
    except LookupError:
        return
    stub_patterns()
    call_rules()
    rules()


def extract_file(rel: str, data: bytes) -> FileFacts:
    """Facts of one file; never raises (a failing extractor leaves a text entry with `parse_errors=1`)."""
    kind: FileKind = file_kind(rel)
    try:
        facts = _extract(rel, data, kind)
    except Exception as exc:  # one broken file must not sink the index
        from sa_align.index.other import extract_text

        log.warning("indexing %s as text: %s: %s", rel, type(exc).__name__, exc)
        facts = extract_text(rel, len(data), n_lines(data))
        facts.info.parse_errors = 1
    facts.info.sha256 = hashlib.sha256(data).hexdigest()
    return facts


def _extract(rel: str, data: bytes, kind: FileKind) -> FileFacts:
    from sa_align.index.other import extract_c, extract_makefile, extract_notebook, extract_shell, extract_text, notebook_text
    from sa_align.index.python import extract_python

    lines = n_lines(data)
    if kind in ("python", "c", "shell") and has_long_line(data):
        log.info("indexing %s as text: a line is longer than %d bytes", rel, MAX_LINE_BYTES)
        return extract_text(rel, len(data), lines)
    if kind == "python":
        facts = extract_python(rel, data)
        if rel.rsplit("/", 1)[-1] == "setup.py":
            for t in facts.texts:
                if t.kind == "string" and ":" in t.text and "=" in t.text:
                    facts.entry_points.extend(scripts_in_text(rel, t.text, t.line))
        return facts
    if kind == "notebook":
        text = notebook_text(decode(data))
        if text is None or has_long_line(text.encode("utf-8")):
            return extract_text(rel, len(data), lines)
        return extract_notebook(rel, text, len(data))
    if kind == "config":
        return extract_config(rel, decode(data), len(data), lines)
    if kind == "shell":
        return extract_shell(rel, data, lines)
    if kind == "c":
        return extract_c(rel, data, lines)
    if is_makefile(rel):
        return extract_makefile(rel, decode(data), len(data), lines)
    return extract_text(rel, len(data), lines)
