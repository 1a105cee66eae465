"""Alias tables for parameter and entity names: normalize a name, look it up, list its other spellings.

The knowledge lives in `units/aliases/params.yaml` and `units/aliases/entities.yaml`;
this module only normalizes and looks up. Normalization makes `learning rate`,
`learning-rate`, `learning_rate`, `learningRate`, `\\mathrm{lr}` and `args.lr` the same key,
and maps Greek letters (`η`, `\\eta`, `eta`) and subscripts (`β_1`, `\\beta_{1}`, `β₁`) to ASCII.

Ambiguous Greek symbols (γ, λ, α, τ, β, ε, σ) are resolved from the words around them
(`context`), falling back to the table's `default` for that symbol.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from sa_align.resources import load_yaml

_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa",
    "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma",
    "τ": "tau", "υ": "upsilon", "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Γ": "gamma", "Δ": "delta", "Θ": "theta", "Λ": "lambda", "Ξ": "xi", "Π": "pi",
    "Σ": "sigma", "Φ": "phi", "Ψ": "psi", "Ω": "omega",
}  # fmt: skip
GREEK_NAMES = _GREEK
"""Greek letter -> ASCII name (`η` -> `eta`)."""
_GREEK_TABLE = str.maketrans({**_GREEK, **{chr(0x2080 + i): str(i) for i in range(10)}})
_LATEX_WRAPPERS = re.compile(
    r"\\(?:mathrm|text|mathit|operatorname|mathbf|textit|texttt|boldsymbol|bm|mathsf|textrm)\s*\{([^{}]*)\}"
)
_LATEX_VAR = re.compile(r"\\var(epsilon|theta|phi|rho|sigma|pi)")
_DOTTED = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+$")
_NON_KEY = re.compile(r"[^a-z0-9]")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
# Qualifiers that leave the parameter unchanged: `adam_beta1` is `beta1`, `train_batch_size` is `batch_size`.
_PREFIXES = ("initial", "init", "base", "peak", "default", "global", "adam", "optimizer", "optim",
             "opt", "train", "training", "the", "total", "sgd", "model", "num", "n", "hparams", "args")  # fmt: skip


@lru_cache(maxsize=1 << 16)
def normalize_key(name: str) -> str:
    """Lookup key of a parameter name: ASCII, lowercase, no separators (`Learning-Rate` -> `learningrate`)."""
    s = str(name).strip().strip("$`'\"").lstrip("-")
    s = _LATEX_WRAPPERS.sub(r"\1", s)
    s = _LATEX_VAR.sub(r"\1", s)
    s = s.translate(_GREEK_TABLE)
    if _DOTTED.match(s):
        s = s.rsplit(".", 1)[-1]  # `args.lr`, `cfg.optim.lr`: the attribute names the parameter
    abbreviations = _abbreviations()
    return "".join(abbreviations.get(w, w) for w in split_identifier(s))


@lru_cache(maxsize=1)
def _abbreviations() -> dict[str, str]:
    """Word -> full word (`thresh` -> `threshold`), from `units/aliases/abbreviations.yaml`."""
    return {str(k).lower(): str(v).lower() for k, v in (load_yaml("aliases/abbreviations.yaml") or {}).items()}


def entity_key(name: str) -> str:
    """Lookup key of an entity name: lowercase alphanumerics only (`CIFAR-10` -> `cifar10`)."""
    return _NON_KEY.sub("", str(name).translate(_GREEK_TABLE).lower())


def split_identifier(name: str) -> list[str]:
    """Words of an identifier, lowercased: `adamBeta1` -> `[adam, beta, 1]`, `max_grad_norm` -> `[max, grad, norm]`."""
    s = str(name).translate(_GREEK_TABLE)
    return [w.lower() for w in _CAMEL.findall(s)]


@dataclass(frozen=True)
class _ParamTables:
    index: dict[str, str]
    """Normalized key -> canonical name."""
    aliases: dict[str, list[str]]
    """Canonical name -> surfaces (paper, then code)."""
    paper_keys: dict[str, str]
    """Keys worth searching for in prose -> canonical name."""
    symbols: dict[str, dict]
    """Ambiguous symbol key -> {default, candidates}."""


def _plurals(entries: dict) -> list[tuple[str, str]]:
    """Plural keys of the paper's multi-word names (`hidden dimensions`, `learning rates`): a plural
    names the setting as the singular does. One word is left as listed (`resolutions` of a
    feature map are not the image size)."""
    out = []
    for canonical, entry in entries.items():
        for surface in (str(x) for x in entry.get("paper", [])):
            if " " in surface.strip() and surface[-1:].isalpha() and not surface.endswith("s"):
                out.append((_NON_KEY.sub("", (surface + "s").translate(_GREEK_TABLE).lower()), canonical))
    return out


@lru_cache(maxsize=1)
def _params() -> _ParamTables:
    data = load_yaml("aliases/params.yaml")
    index: dict[str, str] = {}
    aliases: dict[str, list[str]] = {}
    paper_keys: dict[str, str] = {}
    entries = data.get("params", {})
    for canonical in entries:  # canonical names win over any alias spelled the same
        index[normalize_key(canonical)] = canonical
    for canonical, entry in entries.items():
        paper = [str(x) for x in entry.get("paper", [])]
        code = [str(x) for x in entry.get("code", [])]
        aliases[canonical] = list(dict.fromkeys([canonical, *paper, *code]))
        for surface in paper + code:
            index.setdefault(normalize_key(surface), canonical)
        for surface in [canonical, *paper, *(c for c in code if "_" in c or any(ch.isdigit() for ch in c))]:
            paper_keys.setdefault(normalize_key(surface), canonical)
        for surface in paper:
            # The prose scan joins words as written (`step size` -> `stepsize`), without expanding abbreviations.
            paper_keys.setdefault(_NON_KEY.sub("", surface.translate(_GREEK_TABLE).lower()), canonical)
    for surface, canonical in _plurals(entries):
        paper_keys.setdefault(surface, canonical)
    symbols = {normalize_key(k): v for k, v in (data.get("symbols") or {}).items()}
    return _ParamTables(index, aliases, paper_keys, symbols)


def _resolve_symbol(entry: dict, context: str | None) -> str | None:
    if context:
        low = context.lower()
        for cand in entry.get("candidates") or []:
            if any(word in low for word in cand.get("context", [])):
                return cand["param"]
    return entry.get("default")


def _lookup_key(key: str) -> str | None:
    tables = _params()
    if key in tables.index:
        return tables.index[key]
    # A plural or singular of a word, not of a letter: `b` + `s` is `bs`, the batch size.
    for variant in (key + "s", key[:-1] if key.endswith("s") else None) if len(key) >= 3 else ():
        if variant and variant in tables.index:
            return tables.index[variant]
    for prefix in _PREFIXES:
        if key.startswith(prefix) and len(key) > len(prefix) + 1:
            rest = key[len(prefix):]
            # `initial time steps` counts the steps a model starts from, not training steps.
            if rest in tables.index and prefix not in _qualifiers().get(tables.index[rest], ()):
                return tables.index[rest]
    return None


def canonical_param(name: str, context: str | None = None) -> str | None:
    """Canonical parameter name for `name` (`η`, `lr`, `base_lr` -> `learning_rate`), or `None` if unknown.

    `context` (the sentence around a symbol) picks the meaning of ambiguous symbols such as `γ`.
    """
    key = normalize_key(name)
    if not key:
        return None
    tables = _params()
    if key in tables.symbols:
        return _resolve_symbol(tables.symbols[key], context)
    return _lookup_key(key)


def param_aliases(canonical: str) -> list[str]:
    """Every known spelling of a canonical parameter: the name itself, paper surfaces, then code identifiers."""
    tables = _params()
    canon = canonical if canonical in tables.aliases else canonical_param(canonical)
    return list(tables.aliases.get(canon or "", []))


_IDENT = re.compile(r"[A-Za-z_][\w\[\]]*")
_PLAIN_IDENT = re.compile(r"[A-Za-z_]\w*")


@lru_cache(maxsize=512)
def _code_aliases(name: str) -> tuple[str, ...]:
    return (name, *(a for a in param_aliases(name) if _IDENT.fullmatch(a)))


def code_hints(names: list[str], surfaces: list[str], limit: int = 10) -> list[str]:
    """Likely code identifiers for parameters (their code spellings in the alias tables), then the
    surfaces that are identifiers themselves."""
    out: list[str] = []
    for name in names:
        out.extend(_code_aliases(name))
    out.extend(s for s in surfaces if _PLAIN_IDENT.fullmatch(s))
    return list(dict.fromkeys(out))[:limit]


def ascii_name(symbol: str) -> str:
    """A written name as a parameter name: Greek letters spelled out, other non-word runs as `_` (`λ_Reward` -> `lambda_reward`)."""
    return re.sub(r"\W+", "_", symbol.translate(str.maketrans(GREEK_NAMES))).strip("_").lower()


def plausible(name: str, value: float, percent: bool = False) -> bool:
    """Whether `value` is one a setting `name` can take at all (`ranges` and `categorical` in
    `units/aliases/params.yaml`)."""
    if categorical(name):
        return False
    bounds = (load_yaml("aliases/params.yaml").get("ranges") or {}).get(name)
    if not bounds:
        return True
    value = value / 100 if percent else value
    return float(bounds[0]) <= value <= float(bounds[1])


def categorical(name: str) -> bool:
    """Whether the setting's values are names, never numbers (`categorical` in `units/aliases/params.yaml`)."""
    return name in (load_yaml("aliases/params.yaml").get("categorical") or ())


def computed(name: str) -> bool:
    """Whether code computes the quantity rather than writes it (`computed` in `units/aliases/params.yaml`)."""
    return name in (load_yaml("aliases/params.yaml").get("computed") or ())


def param_components(name: str) -> list[str]:
    """Parameters an ordered tuple name stands for (`betas` -> `[beta1, beta2]`); `[]` when it is not one."""
    table = load_yaml("aliases/params.yaml").get("composites") or {}
    canon = canonical_param(name) or name
    return list(table.get(canon, table.get(name, [])))


def known_params() -> list[str]:
    """All canonical parameter names in the table."""
    return list(_params().aliases)


# --------------------------------------------------------------------------- entities


@dataclass(frozen=True)
class _EntityTables:
    index: dict[str, tuple[str, str]]
    exact: dict[str, tuple[str, str]]
    aliases: dict[str, list[str]]


@lru_cache(maxsize=1)
def _entities() -> _EntityTables:
    data = load_yaml("aliases/entities.yaml")
    exact_data = data.get("exact") or {}
    index: dict[str, tuple[str, str]] = {}
    exact: dict[str, tuple[str, str]] = {}
    aliases: dict[str, list[str]] = {}
    for category, entries in exact_data.items():
        for canonical, surfaces in entries.items():
            for surface in surfaces:
                exact[re.sub(r"[^A-Za-z0-9]", "", surface)] = (category, canonical)
    for category, entries in data.items():
        if category == "exact":
            continue
        for canonical, surfaces in entries.items():
            surfaces = [str(s) for s in surfaces or []]
            exact_entry = (exact_data.get(category) or {}).get(canonical)
            case_only = list(exact_entry or [])
            aliases[canonical] = list(dict.fromkeys([canonical, *surfaces, *case_only]))
            names = surfaces if exact_entry is not None else [canonical, *surfaces]
            for surface in names:
                index.setdefault(entity_key(surface), (category, canonical))
    return _EntityTables(index, exact, aliases)


_VERSION_SUFFIX = re.compile(r"v\d+$")


def canonical_entity(name: str) -> tuple[str, str] | None:
    """`(category, canonical)` for a dataset, metric, split or method name (`cifar10` -> `(dataset, CIFAR-10)`)."""
    tables = _entities()
    raw = re.sub(r"[^A-Za-z0-9]", "", str(name))
    if raw in tables.exact:
        return tables.exact[raw]
    key = entity_key(name)
    if not key:
        return None
    if key in tables.index:
        return tables.index[key]
    stripped = _VERSION_SUFFIX.sub("", key)
    return tables.index.get(stripped) if stripped != key else None


def entity_aliases(canonical: str) -> list[str]:
    """Every known spelling of an entity (accepts any alias, not only the canonical name)."""
    tables = _entities()
    if canonical not in tables.aliases:
        found = canonical_entity(canonical)
        canonical = found[1] if found else canonical
    return list(tables.aliases.get(canonical, []))


# --------------------------------------------------------------------------- finding names in prose

# Words, numbers, Greek letters and LaTeX commands; offsets are kept so matches map back to the text.
_TOKEN = re.compile(r"\\[A-Za-z]+|[A-Za-z]+|\d+|[α-ωΑ-Ωϵϑϕ]|[₀-₉]")
_GAP_OK = re.compile(r"[\s\-_/{}^'.@+$]{0,3}")
_FORMAT_CMDS = {"\\mathrm", "\\text", "\\mathit", "\\operatorname", "\\mathbf", "\\textit", "\\texttt",
                "\\boldsymbol", "\\bm", "\\mathsf", "\\textrm", "\\left", "\\right"}  # fmt: skip


@dataclass(frozen=True)
class Mention:
    """A name found in text: where, how it was written, and what it means."""

    start: int
    end: int
    surface: str
    key: str
    target: tuple[str, str] | str
    """Canonical parameter name, or `(category, canonical)` for an entity."""


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int, str, str]]:
    out = []
    for m in _TOKEN.finditer(text, start, end):
        tok = m.group(0)
        if tok[0] == "\\":
            if tok in _FORMAT_CMDS:
                continue
            norm = _LATEX_VAR.sub(r"\1", tok)[1:]
        elif tok.isascii():
            norm = tok
        else:
            norm = tok.translate(_GREEK_TABLE)
        out.append((m.start(), m.end(), tok, norm.lower()))
    return out


def _prefixes(keys) -> frozenset[str]:
    return frozenset(k[:i] for k in keys for i in range(1, len(k) + 1))


def _scan(text: str, start: int, end: int, lookup, prefixes: frozenset[str], max_n: int = 6) -> list[Mention]:
    """Longest non-overlapping token n-grams whose joined key `lookup(key, raw)` accepts.

    `prefixes` holds every prefix of every key, so an n-gram stops growing as soon as no key
    can start with it: the scan stays linear in the text.
    """
    toks = _tokens(text, start, end)
    found: list[Mention] = []
    i = 0
    while i < len(toks):
        best = None
        key = raw = ""
        for j in range(i, min(i + max_n, len(toks))):
            if j > i and not _GAP_OK.fullmatch(text, toks[j - 1][1], toks[j][0]):
                break
            key += toks[j][3]
            raw += toks[j][2]
            if key not in prefixes:
                break
            target = lookup(key, raw)
            if target is not None:
                best = (j, target, key)
        if best is None:
            i += 1
            continue
        j, target, key = best
        s, e = toks[i][0], toks[j][1]
        found.append(Mention(s, e, text[s:e], key, target))
        i = j + 1
    return found


@lru_cache(maxsize=1)
def _param_prefixes() -> frozenset[str]:
    tables = _params()
    keys = [*tables.paper_keys, *tables.symbols]
    return _prefixes(keys + [k.replace("numberof", "numbersof") for k in keys if "numberof" in k])


@lru_cache(maxsize=1)
def _entity_prefixes() -> frozenset[str]:
    tables = _entities()
    return _prefixes([*tables.index, *(k.lower() for k in tables.exact)])


def find_param_mentions(
    text: str, start: int = 0, end: int | None = None, context: str | None = None
) -> list[Mention]:
    """Parameter names written in prose or math in `text[start:end]`, with canonical names.

    Ambiguous symbols get the canonical name chosen by `context` (default: the scanned text).
    """
    end = len(text) if end is None else end
    tables = _params()
    context = text[start:end] if context is None else context

    def lookup(key: str, raw: str) -> str | None:
        if len(raw) == 1 and raw.islower() and raw.isascii():
            return None  # `t`, `k`, `n`: indices and counters in math, not named settings
        if key in tables.symbols:
            # A bare Latin letter (`K`, `T`) means too many things to read from the wider context.
            near = text[start:end] if len(key) == 1 and key.isascii() else context
            return _resolve_symbol(tables.symbols[key], near)
        return tables.paper_keys.get(key) or tables.paper_keys.get(key.replace("numbersof", "numberof"))

    return [m for m in _scan(text, start, end, lookup, _param_prefixes()) if not _qualified_count(text, m)]


_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z\-]*)[ \t]+$")


def _qualified_count(text: str, m: Mention) -> bool:
    """A generic count noun after a word that says what it counts (`10 input time steps`): no setting
    of that name (`qualified_counts` in `units/aliases/params.yaml`)."""
    words = _qualifiers().get(m.target) if isinstance(m.target, str) else None
    if not words:
        return False
    before = _WORD_BEFORE.search(text[max(0, m.start - 40):m.start])
    return before is not None and before.group(1).lower() in words


@lru_cache(maxsize=1)
def _qualifiers() -> dict[str, frozenset[str]]:
    table = load_yaml("aliases/params.yaml").get("qualified_counts") or {}
    return {name: frozenset(str(w).lower() for w in words) for name, words in table.items()}


_SECTION_NUMBER = re.compile(r"[A-Z]\.\d+")
"""`C.4`, `F.1`: an appendix section's number, not the C4 dataset or the F1 score."""
_SUBSCRIPTED = re.compile(r"[{}+]|(?<![A-Za-z])[A-Za-z]_|_[A-Za-z0-9]$")
"""Math that spells a name only once its notation is dropped (`alpha_bar_t` as BART, `r_2` and
`r + 2` as R2, `b_{p_d}`): a symbol with its subscript, or an operator, names no dataset, metric or method."""


_GLUED_BEFORE = re.compile(r"(?<![\w-])(\w+)-$")


def inside_longer_name(text: str, m: Mention) -> bool:
    """Whether entity mention `m` is glued by a hyphen into a longer name the tables do not hold
    (`HH-RLHF`, `FR-VAE`, `MA-PPO`, `DI-GAN`): the dataset, model or
    variant the paper writes, not the shorter one inside it; so is one the paper abbreviates so
    (`Residual-quantized VAE (FR-VAE)`). Only an upper-case acronym before the hyphen makes the longer
    name: a word qualifies the name and leaves it (`train-val split`, `Neyman-Pearson`), as does a
    single letter (`U-ViT` is a ViT, as SA-Bench's claims read it) or a suffix (`ImageNet-R`, `GRU-based`)."""
    abbreviated = re.compile(r"\s*\(\s*\w+-" + re.escape(m.surface) + r"\s*\)")
    if abbreviated.match(text, m.end):
        return True  # `Residual-quantized VAE (FR-VAE)`: the paper's name ends in the shorter one
    before = _GLUED_BEFORE.search(text, max(0, m.start - 16), m.start)
    if before is None:
        return False
    word = before.group(1)
    return len(word) >= 2 and word.isupper()


def find_entities(text: str, start: int = 0, end: int | None = None) -> list[Mention]:
    """Datasets, metrics, splits and methods named in `text[start:end]`; `target` is `(category, canonical)`."""
    end = len(text) if end is None else end
    tables = _entities()

    def lookup(key: str, raw: str) -> tuple[str, str] | None:
        return tables.exact.get(raw) or tables.index.get(key)

    return [m for m in _scan(text, start, end, lookup, _entity_prefixes())
            if not _SUBSCRIPTED.search(m.surface) and not _SECTION_NUMBER.fullmatch(m.surface)]
