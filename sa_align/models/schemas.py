"""The shipped JSON Schemas of every file `sa_align` writes or reads: report, units file, diff, history."""

from __future__ import annotations

import json
from pathlib import Path

from sa_align.models.diff import diff_schema
from sa_align.models.history import history_schema
from sa_align.models.report import report_schema, units_file_schema


def write_schemas(folder: str) -> None:
    """Regenerate the shipped schemas: `python -m sa_align.models units/schema`."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for name, schema in (("report", report_schema()), ("units", units_file_schema()), ("diff", diff_schema()),
                         ("history", history_schema())):
        (out / f"{name}.schema.json").write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
