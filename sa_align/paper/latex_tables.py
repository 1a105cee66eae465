"""What the LaTeX renderer knows about macros and environments, read from `units/paper/latex.yaml`.

Anything not listed there is kept in the text as written, so a paper using its
own macros still loads; it just reads a little less cleanly. Adding a macro is
a change to that file, not to the renderer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sa_align.resources import load_yaml

LATEX_TABLES = "paper/latex.yaml"
"""Path of the macro tables under `units/`."""


@dataclass(frozen=True)
class LatexTables:
    """The macro and environment tables, flattened for lookup by name."""

    sections: dict[str, int]
    """Heading level per sectioning command (`chapter` shifts the rest down by one when present)."""
    cite_macros: frozenset[str]
    """Citation commands whose brace argument lists citation keys."""
    symbols: dict[str, str]
    """Macros without arguments and the text they stand for (binary operators carry spaces)."""
    declarations: dict[str, str]
    """Argument-less commands: formatting switches vanish, structure commands become line breaks."""
    unwrap: dict[str, tuple[int, str]]
    """Macros whose last argument is kept: name -> (leading brace arguments dropped, output template)."""
    drop_args: dict[str, tuple[int, int]]
    """Macros removed with their arguments: name -> (brace arguments, optional arguments)."""
    ref_macros: dict[str, str]
    """Cross-references: name -> template for the label key."""
    accents: dict[str, str]
    """Accent control symbols (`\\'`) -> combining mark."""
    letter_accents: dict[str, str]
    """Accent commands spelled with a letter (`\\c`) -> combining mark."""
    math_envs: frozenset[str]
    """Environments rendered as display math."""
    raw_envs: frozenset[str]
    """Environments whose content is code: kept character for character."""
    skip_envs: frozenset[str]
    """Environments whose content is not prose and is dropped."""
    env_args: dict[str, int]
    """Brace arguments after `\\begin{env}` that are layout, not content."""
    heading_envs: dict[str, str]
    """Environments that open a level-1 section: environment -> heading title."""
    label_envs: dict[str, tuple[str, str]]
    """Statement and proof environments -> (label their text starts with, mark that ends it)."""


@lru_cache(maxsize=1)
def latex_tables() -> LatexTables:
    """The tables of `units/paper/latex.yaml`, built once per process."""
    data: dict[str, Any] = load_yaml(LATEX_TABLES)
    envs: dict[str, Any] = data["environments"]
    unwrap: dict[str, tuple[int, str]] = {name: (0, "{}") for name in data["unwrap"]}
    unwrap.update({name: (int(n), "{}") for name, n in data["unwrap_after"].items()})
    unwrap.update({name: (0, str(template)) for name, template in data["unwrap_templates"].items()})
    declarations = {name: "" for name in data["switches"]}
    declarations.update(_merge_groups(data["declarations"]))
    return LatexTables(
        sections={name: int(level) for name, level in data["sections"].items()},
        cite_macros=frozenset(data["cite_macros"]),
        symbols=_merge_groups(data["symbols"]),
        declarations=declarations,
        unwrap=unwrap,
        drop_args={name: (int(b), int(o)) for name, (b, o) in data["drop_args"].items()},
        ref_macros={name: str(t) for name, t in data["ref_macros"].items()},
        accents={str(k): str(v) for k, v in data["accents"].items()},
        letter_accents={str(k): str(v) for k, v in data["letter_accents"].items()},
        math_envs=frozenset(envs["math"]),
        raw_envs=frozenset(envs["raw"]),
        skip_envs=frozenset(envs["skip"]),
        env_args={name: int(n) for name, n in envs["layout_args"].items()},
        heading_envs={name: str(title) for name, title in envs["headings"].items()},
        label_envs={name: (str(a), str(b)) for name, (a, b) in envs.get("labels", {}).items()},
    )


def _merge_groups(groups: dict[str, dict[str, str]]) -> dict[str, str]:
    """One name -> text map from the reading groups of the YAML file (later groups win)."""
    merged: dict[str, str] = {}
    for table in groups.values():
        merged.update({str(name): str(text) for name, text in table.items()})
    return merged
