"""Read and write units files (YAML or JSON), and accept other benchmarks' unit files.

The files are meant to be edited by hand: block-style YAML, unicode kept as
written, keys in model order, fields at their default left out. Writing is
deterministic, so `save(load(save(units)))` gives the same bytes, and loading
what was saved gives equal units.

`load_units` also reads an SA-Bench `sau.json` or a PaperBench `rubric.json`,
recognised by content, not name.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from sa_align.errors import UnitsFileError
from sa_align.extract.importers import import_paperbench_rubric, import_sabench, is_score_file
from sa_align.models import SCHEMA_VERSION, Paper, Unit, UnitsFile

MAX_UNITS_FILE_BYTES = 50 * 1024 * 1024
"""Largest units file accepted."""
MAX_REPORTED_ERRORS = 20
"""Validation problems listed in one error message before the rest are counted."""
_YAML_EXT = (".yaml", ".yml")

FileKind = Literal["units", "sabench", "paperbench"]
_OUR_UNIT_KEYS = frozenset(Unit.model_fields)
_SABENCH_KEYS = frozenset(
    {"sau_id", "type", "category", "dimension", "description", "content", "evidence", "source_text", "novelty"}
)


def load_units(path: str | Path) -> list[Unit]:
    """Units from a units file, an SA-Bench `sau.json` or a PaperBench `rubric.json`."""
    return read_units_file(path).units


def read_units_file(path: str | Path) -> UnitsFile:
    """The whole units file (with its `paper` and `schema_version`); foreign formats are converted."""
    p = Path(path)
    data = _read_data(p)
    kind = detect_kind(data)
    if kind == "paperbench":
        return UnitsFile(units=import_paperbench_rubric(data))
    if kind == "sabench":
        title = data.get("paper") if isinstance(data, dict) else None
        return UnitsFile(paper=title if isinstance(title, str) else None, units=import_sabench(data))
    return validate_units_data(data, p.name)


def save_units(units: list[Unit], path: str | Path, *, paper: Paper | str | None = None) -> Path:
    """Write `units` as YAML (`.yaml`/`.yml`) or JSON (`.json`); returns the path written."""
    p = Path(path)
    _check_unique([u.id for u in units], p.name)
    if isinstance(paper, Paper):
        paper = paper.source or paper.title
    doc = UnitsFile(paper=paper, units=list(units))
    p.write_text(dumps_units_file(doc, "json" if p.suffix.lower() == ".json" else "yaml"), encoding="utf-8")
    return p


def dumps_units_file(doc: UnitsFile, fmt: Literal["yaml", "json"] = "yaml") -> str:
    """The text `save_units` writes for `doc`."""
    data: dict[str, Any] = {"schema_version": doc.schema_version}
    if doc.paper is not None:
        data["paper"] = doc.paper
    data["units"] = [u.model_dump(mode="json", exclude_defaults=True) for u in doc.units]
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    import yaml

    return yaml.dump(data, Dumper=_yaml_classes()[1], sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=100)


def detect_kind(data: Any) -> FileKind:
    """Which format parsed file content is in: ours, SA-Bench or PaperBench."""
    if isinstance(data, dict) and "sub_tasks" in data and "requirements" in data:
        return "paperbench"
    items: Any = data
    if isinstance(data, dict):
        if isinstance(data.get("saus"), list) or _score_file(data):
            return "sabench"
        items = data.get("units")
    if isinstance(items, list):
        dicts = [x for x in items if isinstance(x, dict)]
        foreign = [x for x in dicts if not {"kind", "claim"} <= x.keys() and x.keys() & _SABENCH_KEYS]
        if dicts and len(foreign) == len(dicts):
            return "sabench"
    return "units"


def _score_file(data: dict) -> bool:
    return is_score_file(data)


def validate_units_data(data: Any, name: str) -> UnitsFile:
    """Validate parsed units-file content; errors name the file, the unit (index and id) and the field."""
    if isinstance(data, list):
        data = {"units": data}
    if not isinstance(data, dict):
        raise UnitsFileError(f"{name}: expected a mapping with `units:` (or a list of units), got {type(data).__name__}")
    problems: list[str] = []
    header = {k: v for k, v in data.items() if k != "units"}
    raw_units = data.get("units") or []
    if not isinstance(raw_units, list):
        raise UnitsFileError(f"{name}: units: expected a list, got {type(raw_units).__name__}")
    try:
        head = UnitsFile.model_validate(header)
    except ValidationError as exc:
        problems.extend(f"{name}: {line}" for line in _error_lines(exc))
        head = UnitsFile()
    _check_version(head.schema_version, name)
    units = _validate_units(raw_units, name, problems)
    if problems:
        raise UnitsFileError(_summarize(problems))
    return UnitsFile(schema_version=head.schema_version, paper=head.paper, units=units)


def _validate_units(raw_units: list[Any], name: str, problems: list[str]) -> list[Unit]:
    units: list[Unit] = []
    first_index: dict[str, int] = {}
    for index, raw in enumerate(raw_units):
        uid = raw.get("id") if isinstance(raw, dict) else None
        where = f"{name}: unit #{index}" + (f" ({uid})" if isinstance(uid, str) else "")
        if not isinstance(raw, dict):
            problems.append(f"{where}: expected a mapping of fields, got {type(raw).__name__}")
            continue
        try:
            unit = Unit.model_validate(raw)
        except ValidationError as exc:
            problems.extend(f"{where}: {line}" for line in _error_lines(exc))
            continue
        if unit.id in first_index:
            problems.append(f"{where}: id: duplicate of unit #{first_index[unit.id]}; unit ids must be unique")
            continue
        first_index[unit.id] = index
        units.append(unit)
    return units


def _check_unique(ids: list[str], name: str) -> None:
    seen: dict[str, int] = {}
    for index, uid in enumerate(ids):
        if uid in seen:
            raise UnitsFileError(f"{name}: unit #{index} ({uid}): id: duplicate of unit #{seen[uid]}; unit ids must be unique")
        seen[uid] = index


def _check_version(version: str, name: str) -> None:
    ours, theirs = SCHEMA_VERSION.split(".")[0], str(version).split(".")[0]
    if theirs != ours:
        raise UnitsFileError(
            f"{name}: schema_version {version!r} is not readable by this sa_align (format {SCHEMA_VERSION}); "
            "upgrade sa_align or re-extract the units"
        )


_UNION_TAGS = frozenset({"bool", "int", "float", "str", "list", "dict", "none", "CharSpan", "Gold"})


def _error_lines(exc: ValidationError) -> list[str]:
    """One line per invalid field: `params.0.value: ...`; the per-type errors of a union become one line."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for err in exc.errors():
        loc = list(err["loc"])
        tags: list[str] = []
        # pydantic reports a union failure once per member type, with the type name appended to loc.
        while loc and isinstance(loc[-1], str) and (loc[-1] in _UNION_TAGS or "[" in loc[-1]):
            tags.append(str(loc.pop()))
        grouped.setdefault(".".join(str(p) for p in loc) or "unit", []).append({**err, "tags": tags})
    lines: list[str] = []
    for loc, errs in grouped.items():
        if len(errs) == 1:
            lines.append(f"{loc}: {errs[0]['msg']}")
            continue
        types = ", ".join(dict.fromkeys(t for e in errs for t in e["tags"][-1:]))
        lines.append(f"{loc}: expected one of {types}, got {type(errs[0].get('input')).__name__}")
    return lines


def _summarize(problems: list[str]) -> str:
    shown = problems[:MAX_REPORTED_ERRORS]
    more = len(problems) - len(shown)
    return "\n".join(shown + ([f"... and {more} more problems"] if more > 0 else []))


def _read_data(p: Path) -> Any:
    if not p.exists():
        raise UnitsFileError(f"{p}: no such units file")
    if not p.is_file():
        raise UnitsFileError(f"{p}: not a file")
    if p.stat().st_size > MAX_UNITS_FILE_BYTES:
        raise UnitsFileError(f"{p}: larger than the {MAX_UNITS_FILE_BYTES // 2**20} MB limit for a units file")
    try:
        text = p.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnitsFileError(f"{p.name}: not UTF-8 text (byte {exc.start}); save the file as UTF-8") from exc
    if not text.strip():
        raise UnitsFileError(f"{p.name}: the file is empty")
    if p.suffix.lower() == ".json" or (p.suffix.lower() not in _YAML_EXT and text.lstrip()[:1] in "[{"):
        return _parse_json(text, p.name)
    return _parse_yaml(text, p.name)


def _parse_json(text: str, name: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UnitsFileError(f"{name}: line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}") from exc


def _parse_yaml(text: str, name: str) -> Any:
    import yaml

    try:
        return yaml.load(text, Loader=_yaml_classes()[0])  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        raise UnitsFileError(f"{name}: {where}invalid YAML: {exc.problem}") from exc
    except yaml.YAMLError as exc:
        raise UnitsFileError(f"{name}: invalid YAML: {exc}") from exc


_EXP_FLOAT = r"^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"
"""`1e-3` is a float in YAML 1.2 and to every reader of a paper, but a string to PyYAML's YAML 1.1 rules."""


@cache
def _yaml_classes() -> tuple[type, type]:
    """Safe loader and dumper that agree on `1e-3` being a float and write multi-line strings as `|` blocks."""
    import re

    import yaml

    class _Loader(yaml.SafeLoader):
        pass

    class _Dumper(yaml.SafeDumper):
        pass

    for cls in (_Loader, _Dumper):
        cls.add_implicit_resolver("tag:yaml.org,2002:float", re.compile(_EXP_FLOAT), list("-+0123456789"))

    def str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    _Dumper.add_representer(str, str_representer)
    return _Loader, _Dumper
