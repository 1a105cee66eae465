"""A claim as a person reads it: the math of converted papers shown as text.

PDF converters write math token by token: `$\\lambda \\in [ 0 , 1 )$`, `$1 0 0 0$`,
`$\\mathrm { m a x }$`. Reports show claims in this readable form (`λ ∈ [0, 1)`, `1000`,
`max`); the stored unit keeps its quote verbatim. The pieces are the paper's own readers:
spaced-out digits are rejoined as the extractor rejoins them (`spaced.collapse`), and macros
are rendered by the LaTeX loader's renderer with its tables (`units/paper/latex.yaml`); what is
left here is the spacing a converter adds around brackets, commas and scripts.
"""

from __future__ import annotations

import re

from sa_align.extract.spaced import collapse
from sa_align.extract.text import math_spans
from sa_align.paper.latex_render import Renderer
from sa_align.paper.latex_tables import latex_tables

_DELIMS = re.compile(r"^(\$\$|\$|\\\[|\\\()(.*?)(\$\$|\$|\\\]|\\\))$", re.DOTALL)
_SPACED_WORD = re.compile(
    r"\\(mathrm|text|textrm|textit|textbf|mathit|mathbf|mathsf|mathtt|operatorname)\s*\{((?:\s*[A-Za-z]){2,}\s*)\}")
_SCRIPT_GROUP = re.compile(r"([_^])\s*\{\s*([^{}]*?)\s*\}")
_SCRIPT_SPACE = re.compile(r"\s*([_^])\s*")
_OPEN_SPACE = re.compile(r"([(\[{⟨|])\s+(?=\S)")
_CLOSE_SPACE = re.compile(r"(?<=\S)\s+([)\]}⟩,;%])")
_COMMA = re.compile(r",(?=\S)")
_UNARY_MINUS = re.compile(r"(^|[(\[{=,]\s?)([-−])\s+(?=[\w.])")
_MACRO = re.compile(r"\\([A-Za-z]+)(?![A-Za-z])")


def readable(text: str) -> str:
    """`text` with its math shown as text and known symbol macros outside math as their symbols."""
    out, pos = [], 0
    for start, end in math_spans(text):
        out.append(_prose(text[pos:start]))
        out.append(readable_math(text[start:end]))
        pos = end
    out.append(_prose(text[pos:]))
    return "".join(out)


def readable_math(segment: str) -> str:
    """One math segment (with or without its `$` delimiters) as readable text."""
    m = _DELIMS.match(segment.strip())
    body = m.group(2) if m else segment
    body = _SPACED_WORD.sub(lambda w: "\\" + w.group(1) + "{" + re.sub(r"\s+", "", w.group(2)) + "}", body)
    body = collapse(body)[0]
    try:
        body = Renderer(body).render(math=True)
    except Exception:  # a malformed formula is shown with its spacing fixed, never fails a report
        pass
    return _tidy(body)


def _tidy(body: str) -> str:
    body = re.sub(r"\s+", " ", body).strip()
    body = _SCRIPT_SPACE.sub(r"\1", body)
    for _ in range(3):  # nested scripts: `x_{i_{j}}`
        body = _SCRIPT_GROUP.sub(_script, body)
    body = _UNARY_MINUS.sub(r"\1\2", body)
    body = _OPEN_SPACE.sub(r"\1", body)
    body = _CLOSE_SPACE.sub(r"\1", body)
    return _COMMA.sub(", ", body)


def _script(m: re.Match) -> str:
    inner = re.sub(r"\s+", "", m.group(2))
    return f"{m.group(1)}{inner}" if len(inner) == 1 or re.fullmatch(r"[-−]?[\w.]+", inner) else f"{m.group(1)}({inner})"


def _prose(text: str) -> str:
    """Outside math only the symbol macros a claim quotes (`written as "\\gamma"`) become symbols."""
    symbols = latex_tables().symbols
    return _MACRO.sub(lambda m: symbols[m.group(1)].strip() if m.group(1) in symbols else m.group(0), text)
