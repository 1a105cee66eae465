"""Numbers as papers and code write them: parse every notation, find them in prose, compare them.

Notations understood (each may carry a leading sign, ASCII `-` or U+2212):

- plain and grouped: `0.0003`, `.5`, `1,000,000`, `1_000`
- scientific: `3e-4`, `3E-4`, `1e{-3}`
- times-ten: `3 × 10^-4`, `3x10^{-4}`, `3 \\times 10^{-4}`, `3·10⁻⁴`, `3 * 10**-4`
- powers: `10^{-3}`, `2^{10}`, `2**10`, `10⁻³`
- magnitude suffixes: `10k`/`10K` (1e4), `1.2M`, `1B`, `2T`, `3 million`, `5 thousand`
- fractions of integers: `1/255`, `\\frac{1}{255}` (`0.9/0.999` is two numbers, not a ratio)
- percentages: `5%`, `5\\%`, `5 percent` -> 0.05 with `Quantity.percent` set

Comparison policy of `values_equal` (percent awareness):

- two plain numbers are equal when `math.isclose(a, b, rel_tol, abs_tol=1e-12)`;
- a percentage against a plain number matches either its fraction or its
  written number: `5%` equals `0.05` and `5`, because code stores either;
- two percentages compare their fractions: `5%` never equals `0.05%`;
- booleans only equal booleans; two non-numeric strings compare case-insensitively.
"""

from __future__ import annotations

import math
from functools import lru_cache
import re
from dataclasses import dataclass

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUP_CHARS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_MINUS = "\u2212"

_MANT = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:_\d{3})+(?!\d)|\d+)(?:\.\d+)?|\.\d+"
# The exponent after `^` or `**`: `-4`, `{-4}`, `{ - 4 }`, `(-4)`.
_POWEXP = (
    r"(?:\s*(?:\^|\*\*)\s*(?:\{\s*[-+\u2212]?\s*\d+\s*\}|\(\s*[-+\u2212]?\s*\d+\s*\)|[-+\u2212]?\d+)"
    rf"|[⁻⁺]?[{_SUP_CHARS}]+)"
)
_TIMES = r"\s*(?:×|\\times|·|\\cdot|⋅|∗|\*|x|X)\s*"
_MULT_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_MULT_LETTERS = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}

_NUMBER_BODY = rf"""
(?P<sign>[-+\u2212]\s?)?
(?:
  \\[dt]?frac\s*\{{\s*(?P<fnum>{_MANT})\s*\}}\s*\{{\s*(?P<fden>{_MANT})\s*\}}
|
  (?P<inum>\d+)\s*/\s*(?P<iden>\d+)(?![\d/.])
|
  (?P<mant>{_MANT})
  (?:
      [eE]\s?(?P<e>\{{\s*[-+\u2212]?\s*\d+\s*\}}|[-+\u2212]?\d+)
    | {_TIMES}10(?P<pow>{_POWEXP})
    | (?P<pow2>{_POWEXP})
  )?
  (?:(?P<mult>[kKMBT])(?![A-Za-z])|\s(?P<multw>thousand|million|billion|trillion)\b)?
)
(?P<pct>\s?(?:%|\\%|percent\b))?
"""

# A token must not continue an identifier or another number (`CIFAR-10`, `β1`, `v2`, `1.5`).
NUMBER_RE = re.compile(
    rf"(?:(?<![\w.\-\u2212])(?=[-+\u2212]\s?[\d.\\])|(?<![\w.])(?<![\w.][-\u2212]))"
    rf"{_NUMBER_BODY}(?![\w]|\.\d)",
    re.VERBOSE,
)
_FULL_RE = re.compile(rf"\s*{_NUMBER_BODY}(?:\s+(?P<unit>[A-Za-z][A-Za-z\-]*))?\s*", re.VERBOSE)


@dataclass(frozen=True)
class Quantity:
    """A parsed number with what the notation said about it."""

    value: float
    """The value: a percentage is stored as its fraction (`5%` -> 0.05)."""
    number: float
    """The number as written before percent scaling (`5%` -> 5.0)."""
    unit: str | None
    """`%` for percentages, or the unit word following the number (`epochs`)."""
    percent: bool
    """True when the notation was a percentage."""
    text: str
    """The text the quantity was parsed from."""
    integral: bool = False
    """True when the notation denotes an integer (`256`, `10k`, `2^{10}`), not `0.5` or `1e-3`."""

    def scalar(self) -> int | float:
        """The value as `int` when integral (for `Param.value`), else `float`."""
        if self.integral and not self.percent and abs(self.value) < 1e15:
            return int(round(self.value))
        return self.value


def _int_exp(raw: str) -> int:
    cleaned = raw.translate(_SUPERSCRIPTS).replace(_MINUS, "-")
    return int(re.sub(r"[\s{}()^*]", "", cleaned))


def _mant(raw: str) -> float:
    return float(raw.replace(",", "").replace("_", ""))


def _is_int_text(raw: str) -> bool:
    return "." not in raw


def _evaluate(m: re.Match[str]) -> tuple[float, bool] | None:
    """Value and integrality of a NUMBER_RE / _FULL_RE match."""
    g = m.groupdict()
    try:
        if g["fnum"] is not None or g["inum"] is not None:
            num, den = (g["fnum"], g["fden"]) if g["fnum"] is not None else (g["inum"], g["iden"])
            value = _mant(num) / _mant(den) if _mant(den) else None
            if value is None:
                return None
            return (-value if (g["sign"] or "").strip() in ("-", _MINUS) else value), False
        mant = g["mant"].replace(",", "").replace("_", "")
        value = float(mant)
        integral = _is_int_text(mant)
        if g["e"] is not None or g["pow"] is not None:
            # Through the decimal string, so `3e-4` is exactly the float 0.0003.
            exp = _int_exp(g["e"] if g["e"] is not None else g["pow"])
            value = float(f"{mant}e{exp}")
            integral = integral and exp >= 0
        elif g["pow2"] is not None:
            exp = _int_exp(g["pow2"])
            value = value**exp
            integral = integral and exp >= 0
        scale = _MULT_LETTERS.get(g["mult"] or "") or _MULT_WORDS.get(g["multw"] or "", 1.0)
        if scale != 1.0:
            value *= scale
            integral = float(value).is_integer()
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    if g["sign"] and g["sign"].strip() in ("-", _MINUS):
        value = -value
    if not math.isfinite(value):
        return None
    return value, integral


def _quantity(m: re.Match[str], text: str, unit_word: str | None = None) -> Quantity | None:
    evaluated = _evaluate(m)
    if evaluated is None:
        return None
    number, integral = evaluated
    if m.group("pct"):
        return Quantity(number / 100.0, number, "%", True, text, integral)
    return Quantity(number, number, unit_word, False, text, integral)


def _strip_math(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == "$":
        text = text.strip("$")
    return re.sub(r"\\[,;!: ]|~", "", text).strip()


def parse_quantity(text: str) -> Quantity | None:
    """Parse a whole value string (`3e-4`, `5%`, `100 epochs`, `$10^{-3}$`); `None` if it is not one number."""
    if not isinstance(text, str) or len(text) > 200:
        return None
    m = _FULL_RE.fullmatch(_strip_math(text))
    if m is None:
        return None
    return _quantity(m, text, m.group("unit"))


def parse_number(text: str | int | float) -> float | None:
    """The numeric value of `text` (percentages as fractions: `5%` -> 0.05); `None` if not a number."""
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, float)):
        return float(text) if math.isfinite(text) else None
    q = parse_quantity(text)
    return q.value if q else None


_LIST_LEFT = re.compile(r"\[[\d,\s]*$")
_LIST_RIGHT = re.compile(r"[\d,\s]*\]")
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+")


def _bracket_list(text: str, m: re.Match[str]) -> bool:
    """`[81,120]`, `[20,40,50,100,200]`: digits and commas alone between square brackets are a list,
    not one number with thousands separators (`[1,000]`, a group starting with 0, stays one number)."""
    if not _GROUPED.search(m.group(0)) or ",0" in m.group(0):
        return False
    return bool(_LIST_LEFT.search(text, max(0, m.start() - 40), m.start())) and bool(_LIST_RIGHT.match(text, m.end()))


def find_quantities(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int, Quantity]]:
    """Every number token in `text[start:end]` as `(start, end, Quantity)` with offsets into `text`."""
    found: list[tuple[int, int, Quantity]] = []
    for m in NUMBER_RE.finditer(text, start, len(text) if end is None else end):
        if _bracket_list(text, m):
            pos = m.start()
            for part in m.group(0).split(","):
                found += find_quantities(text, pos, pos + len(part))
                pos += len(part) + 1
            continue
        q = _quantity(m, m.group(0))
        if q is not None:
            found.append((m.start(), m.end(), q))
    return found


def _as_quantity(x: object) -> Quantity | str | bool | None:
    if isinstance(x, Quantity) or isinstance(x, bool):
        return x
    if isinstance(x, (int, float, str)):
        return _scalar_quantity(type(x), x)
    return None


@lru_cache(maxsize=1 << 16)
def _scalar_quantity(kind: type, x: int | float | str) -> Quantity | str:
    # The type is part of the key: `1 == 1.0 == True` would otherwise share an entry.
    if kind is str:
        return parse_quantity(x) or x  # type: ignore[arg-type]
    return Quantity(float(x), float(x), None, False, str(x), kind is int)


def _close(a: float, b: float, rel_tol: float) -> bool:
    return math.isclose(a, b, rel_tol=rel_tol, abs_tol=1e-12)


def values_equal(a: object, b: object, rel_tol: float = 1e-6) -> bool:
    """Percent-aware equality of two values (numbers, numeric strings or `Quantity`); see module docstring."""
    qa, qb = _as_quantity(a), _as_quantity(b)
    if qa is None or qb is None:
        return False
    if isinstance(qa, bool) or isinstance(qb, bool):
        return isinstance(qa, bool) and isinstance(qb, bool) and qa == qb
    if isinstance(qa, str) or isinstance(qb, str):
        return isinstance(qa, str) and isinstance(qb, str) and qa.strip().casefold() == qb.strip().casefold()
    if qa.percent == qb.percent:
        return _close(qa.value, qb.value, rel_tol)
    pct, plain = (qa, qb) if qa.percent else (qb, qa)
    return _close(pct.value, plain.value, rel_tol) or _close(pct.number, plain.value, rel_tol)
