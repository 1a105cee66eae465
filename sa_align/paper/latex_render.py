"""Render LaTeX source to readable text.

Headings and citations are written into the output as private-use marks
(see `latex_marks`), which become offsets only after the text is final.

Math is kept as text (`$\\eta = 10^{-3}$` becomes `η = 10^{-3}`), formatting
macros are unwrapped, and macros the tables in `units/paper/latex.yaml` do not
know are left in the text as written.
"""

from __future__ import annotations

import re

from sa_align.paper.latex_commands import Rendered, control_symbol, special_macro
from sa_align.paper.latex_marks import C_CLOSE, C_MID, C_OPEN, C_SEP, H_CLOSE, H_OPEN, plain
from sa_align.paper.latex_scan import Scanner
from sa_align.paper.latex_tables import latex_tables

_SPECIAL = re.compile(r"[\\{}$~&\-`']")
_NAME = re.compile(r"[A-Za-z@]+\*?")
_MAX_EXPANSIONS = 20_000
"""Paper-defined macro expansions per document before the rest are left as written."""
_MAX_DEPTH = 60
"""Group nesting rendered before a group is copied raw; real papers nest a handful deep."""


class Renderer(Scanner):
    """Turns one LaTeX source string into text with heading/citation sentinels."""

    def __init__(
        self,
        src: str,
        *,
        has_chapters: bool = False,
        macros: dict[str, tuple[int, str]] | None = None,
        depth: int = 0,
        budget: list[int] | None = None,
    ):
        super().__init__(src)
        self.tables = latex_tables()
        self.shift = 1 if has_chapters else 0
        self.depth = depth
        self.macros = macros if macros is not None else {}
        """The paper's own `\\newcommand`s: name -> (argument count, body)."""
        self.budget = budget if budget is not None else [_MAX_EXPANSIONS]
        """Macro expansions left, shared with nested renderers so no definition can explode."""

    def arg_text(self, i: int, math: bool = False) -> Rendered:
        """Rendered text of the `{...}` argument at `i` (or of the next token) and the index after it."""
        grp = self.group(i)
        if grp is None:
            j = self.skip_ws(i)
            return (self.src[j : j + 1], j + 1) if j < len(self.src) else ("", j)
        return self.render(grp[0], grp[1], math), grp[2]

    # ------------------------------------------------------------------ main loop

    def render(self, start: int = 0, end: int | None = None, math: bool = False) -> str:
        """Text of `src[start:end]`."""
        end = len(self.src) if end is None else end
        if self.depth > _MAX_DEPTH:
            return self.src[start:end]
        self.depth += 1
        try:
            return self._render(start, end, math)
        finally:
            self.depth -= 1

    def _render(self, i: int, end: int, math: bool) -> str:
        out: list[str] = []
        src = self.src
        while i < end:
            m = _SPECIAL.search(src, i, end)
            if m is None:
                out.append(src[i:end])
                break
            out.append(src[i : m.start()])
            i = m.start()
            ch = src[i]
            if ch == "\\":
                text, i = self._macro(i, end, math)
            elif ch == "{":
                grp = self.group(i)
                assert grp is not None
                inner = self.render(grp[0], min(grp[1], end), math)
                text, i = ("{" + inner + "}" if math else inner), min(grp[2], end)
            elif ch == "}":
                text, i = ("}" if math else ""), i + 1
            elif ch == "$":
                text, i = self._dollar_math(i, end)
            else:
                text, i = self._punct(i, end, math)
            out.append(text)
        return "".join(out)

    def _punct(self, i: int, end: int, math: bool) -> Rendered:
        src, ch = self.src, self.src[i]
        if ch == "~":
            return " ", i + 1
        if ch == "&":
            return (" " if math else " | "), i + 1
        if math:
            return ch, i + 1
        if src.startswith("---", i) and i + 3 <= end:
            return "—", i + 3
        if src.startswith("--", i) and i + 2 <= end:
            return "–", i + 2
        if src.startswith("``", i) or src.startswith("''", i):
            return '"', i + 2
        return ch, i + 1

    def _dollar_math(self, i: int, end: int) -> Rendered:
        delim = "$$" if self.src.startswith("$$", i) else "$"
        body_start = i + len(delim)
        close = self.find_unescaped(delim, body_start, end)
        body = self.render(body_start, close, math=True)
        if delim == "$$":
            return "\n" + body.strip() + "\n", min(close + 2, end)
        return body, min(close + 1, end)

    # ------------------------------------------------------------------ macros

    def _macro(self, i: int, end: int, math: bool) -> Rendered:
        if i + 1 >= end:
            return "\\", end
        m = _NAME.match(self.src, i + 1, end)
        if m is None:
            return control_symbol(self, i, end, math)
        name, j = m.group(0), m.end()
        base = name.rstrip("*")
        if base in ("begin", "end"):
            return self._environment(base, j, end)
        # The paper's own definitions win over the built-in tables, as they do in TeX.
        if base in self.macros and self.depth < _MAX_DEPTH and self.budget[0] > 0:
            return self._expand_user_macro(base, j, math)
        table = self._table_macro(base, j, math)
        if table is not None:
            return table
        special = special_macro(self, base, j, math)
        if special is not None:
            return special
        return self._unknown(name, j, math)

    def _table_macro(self, base: str, j: int, math: bool) -> Rendered | None:
        """Render a macro listed in the data tables, or None when none lists it."""
        t = self.tables
        if base in t.sections:
            return self._heading(t.sections[base], j)
        if base in t.cite_macros:
            return self._citation(j)
        if base in t.symbols:
            return t.symbols[base], j
        if base in t.declarations:
            return t.declarations[base], j
        if base in t.unwrap:
            n_drop, template = t.unwrap[base]
            body, k = self.arg_text(self.skip_args(j, n_drop, n_optional=1), math)
            return template.format(body), k
        if base in t.drop_args:
            n_groups, n_opt = t.drop_args[base]
            return "", self.skip_args(j, n_groups, n_opt)
        if base in t.ref_macros:
            key, k = self.arg_text(j)
            return t.ref_macros[base].format(key), k
        return None

    def _expand_user_macro(self, base: str, j: int, math: bool) -> Rendered:
        """Render a paper-defined macro's body with its arguments substituted."""
        self.budget[0] -= 1
        n_args, body = self.macros[base]
        k = j
        for n in range(1, n_args + 1):
            grp = self.group(k)
            if grp is None:
                break
            body = body.replace(f"#{n}", self.src[grp[0] : grp[1]])
            k = grp[2]
        sub = Renderer(body, macros=self.macros, depth=self.depth + 1, budget=self.budget)
        sub.shift = self.shift
        if n_args == 0 and self.src.startswith("{}", k):
            k += 2  # `\\ours{}` is the usual way to keep the space after a macro
        return sub.render(0, None, math), k

    def _heading(self, level: int, j: int) -> Rendered:
        opt = self.optional(j)
        grp = self.group(opt[2] if opt else j)
        if grp is None:
            return "", j
        title = " ".join(plain(self.render(grp[0], grp[1])).split()).rstrip(".:")
        level = max(1, level + self.shift)
        return heading_mark(title, level), grp[2]

    def _citation(self, j: int) -> Rendered:
        k = self.skip_args(j, 0, n_optional=2)
        grp = self.group(k)
        if grp is None:
            return "", j
        keys = [key.strip() for key in self.src[grp[0] : grp[1]].split(",") if key.strip()]
        if not keys:
            return "", grp[2]
        visible = "[" + ", ".join(keys) + "]"
        return f"{C_OPEN}{C_SEP.join(keys)}{C_MID}{visible}{C_CLOSE}", grp[2]

    def _unknown(self, name: str, j: int, math: bool) -> Rendered:
        """Keep an unknown macro as written, with its brace arguments rendered inside braces."""
        parts = ["\\" + name]
        k = j
        while k < len(self.src) and self.src[k] == "{" and not math:
            grp = self.group(k)
            assert grp is not None
            parts.append("{" + self.render(grp[0], grp[1], math) + "}")
            k = grp[2]
        return "".join(parts), k

    # ------------------------------------------------------------------ environments

    def _environment(self, kind: str, j: int, end: int) -> Rendered:
        grp = self.group(j)
        if grp is None:
            return "", j
        env = self.src[grp[0] : grp[1]].strip()
        k = grp[2]
        base = env.rstrip("*")
        t = self.tables
        if kind == "end":
            if t.label_envs.get(base, ("", ""))[1]:
                return f" {t.label_envs[base][1]}\n", k
            # An environment that opened a section also closes its paragraph, so its last line stands apart.
            return ("\n\n" if env in self.tables.heading_envs else "\n"), k
        if env in t.math_envs or base in t.math_envs:
            k = self.skip_args(k, t.env_args.get(base, 0), 0)
            close = self.find_unescaped(f"\\end{{{env}}}", k, end)
            body = self.render(k, close, math=True).strip()
            return "\n" + body + "\n", min(close + len(env) + 6, end)
        if base in t.raw_envs or base in t.skip_envs:
            k = self.skip_args(k, t.env_args.get(base, 0), 1)
            close = self.src.find(f"\\end{{{env}}}", k, end)
            close = end if close < 0 else close
            body = "" if base in t.skip_envs else self.src[k:close].strip("\n")
            return "\n" + body + "\n", min(close + len(env) + 6, end)
        k = self.skip_args(k, t.env_args.get(base, 0), 1)
        if base in t.heading_envs:
            return heading_mark(t.heading_envs[base], 1), k
        if base in t.label_envs:
            return f"\n\n{t.label_envs[base][0]} ", k
        return "\n", k


def heading_mark(title: str, level: int) -> str:
    """A heading sentinel on a paragraph of its own (levels above 9 are written as 9)."""
    return f"\n\n{H_OPEN}{min(level, 9)}{title}{H_CLOSE}\n\n"
