"""Untrusted text (paper, repository) placed into Markdown: in fences it cannot close, or on one line.

Both the LLM prompts and `report.md` carry text written by others; neither may let that text
start a heading, close a code block or smuggle markup in.
"""

from __future__ import annotations

import re

_BACKTICKS = re.compile(r"`+")
_SPACE = re.compile(r"\s+")


def fence(text: str, info: str = "text") -> str:
    """`text` as a fenced block that no line of it can close: the fence outruns every backtick run."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    bar = "`" * max(3, longest + 1)
    return f"{bar}{info}\n{text}\n{bar}"


def inline(text: str) -> str:
    """One line of prose: whitespace and line breaks collapsed (no headings, lists or quotes can
    start), and `<` `>` escaped so no HTML renders."""
    return _SPACE.sub(" ", str(text)).strip().replace("<", "&lt;").replace(">", "&gt;")
