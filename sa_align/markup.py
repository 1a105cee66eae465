"""Untrusted text (paper, repository) placed into Markdown: in fences it cannot close, or on one line.

Both the LLM prompts and `report.md` carry text written by others; neither may let that text
start a heading, close a code block or smuggle markup in.

- `fence` puts a block in a code fence longer than any backtick run inside it.
- `code` puts a value (a unit id, a path, a symbol) in an inline code span the same way
  (CommonMark closes a span only with a run of its own length).
- `inline` puts prose on one line. Code spans the text writes itself (judge reasons quote
  identifiers as `` `name` ``, markdown papers quote code) are kept as code spans, each
  re-fenced by `code`; everything else is escaped where Markdown would act on it: `*`, `_`
  (unless inside a word, where it never emphasizes), `[`, `]` (no link or image can form, so
  `(`, `)` and `!` are left readable), `` ` ``, `|`, `~`, a backslash before punctuation,
  `<`, `>` and entity-like `&` (no HTML renders), the colon of a URL scheme (no bare-URL
  autolink), and a leading `#`, `-`, `+`, `=` or `1.` (no heading, list or rule starts).
"""

from __future__ import annotations

import re
import string

_BACKTICKS = re.compile(r"`+")
_SPACE = re.compile(r"\s+")
_ALWAYS = frozenset("*[]`|~")
_PUNCT = frozenset(string.punctuation)
_ENTITY = re.compile(r"&(?=#\d+;|#[xX][0-9a-fA-F]+;|[A-Za-z][A-Za-z0-9]*;)")
_SCHEME = re.compile(r"(?i)\b(https?|ftp|file|mailto|javascript|data):")
_LEADING = re.compile(r"^(?:[#=+-]|\d+(?=[.)]))")


def fence(text: str, info: str = "text") -> str:
    """`text` as a fenced block that no line of it can close: the fence outruns every backtick run."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    bar = "`" * max(3, longest + 1)
    return f"{bar}{info}\n{text}\n{bar}"


def code(text: str) -> str:
    """`text` on one line as an inline code span no backtick inside it can close."""
    body = _SPACE.sub(" ", str(text)).strip()
    if not body:
        return "` `"
    bar = "`" * (max((len(run) for run in _BACKTICKS.findall(body)), default=0) + 1)
    # A span's content may not start or end with a backtick next to the fence: pad it
    # (CommonMark strips one space from each side).
    pad = " " if body[0] == "`" or body[-1] == "`" else ""
    return f"{bar}{pad}{body}{pad}{bar}"


def _escape(text: str) -> str:
    out = []
    for i, ch in enumerate(text):
        prev, nxt = text[i - 1 : i], text[i + 1 : i + 2]
        if ch == "\\":
            out.append("\\\\" if not nxt or nxt in _PUNCT else "\\")
        elif ch in _ALWAYS:
            out.append("\\" + ch)
        elif ch == "_":
            out.append("_" if prev.isalnum() and nxt.isalnum() else "\\_")
        elif ch == "<":
            out.append("&lt;")
        elif ch == ">":
            out.append("&gt;")
        elif ch == "&" and _ENTITY.match(text, i):
            out.append("&amp;")
        else:
            out.append(ch)
    return _SCHEME.sub(lambda m: m.group(1) + "\\:", "".join(out))


def _spans(text: str) -> list[tuple[bool, str]]:
    """(is code, piece) in order: a run of n backticks opens a span the next run of exactly n
    closes, as CommonMark reads it; a run nothing closes is plain text."""
    runs = list(_BACKTICKS.finditer(text))
    pieces: list[tuple[bool, str]] = []
    pos, i = 0, 0
    while i < len(runs):
        opener = runs[i]
        closer = next((j for j in range(i + 1, len(runs)) if len(runs[j].group()) == len(opener.group())), None)
        if closer is None:
            i += 1
            continue
        pieces.append((False, text[pos : opener.start()]))
        pieces.append((True, text[opener.end() : runs[closer].start()]))
        pos, i = runs[closer].end(), closer + 1
    pieces.append((False, text[pos:]))
    return pieces


def inline(text: str) -> str:
    """One line of untrusted prose that renders as what it says (see the module docstring):
    whitespace and line breaks collapsed, its code spans re-fenced, the rest escaped."""
    flat = _SPACE.sub(" ", str(text)).strip()
    out = "".join(code(piece) if is_code else _escape(piece) for is_code, piece in _spans(flat))
    # Escape a block marker at the start: the value may open a list item or a quote line.
    return _LEADING.sub(lambda m: m.group() + "\\" if m.group().isdigit() else "\\" + m.group(), out, count=1)
