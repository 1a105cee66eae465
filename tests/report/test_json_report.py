import json

import pytest

from sa_align.errors import InputError
from sa_align.report import load_report, render, validate_report_json, write_reports


def test_json_validates_against_the_shipped_schema_and_reloads(sample_report, tmp_path):
    data = json.loads(render(sample_report, "json"))
    validate_report_json(data)
    assert data["schema_version"] == "1.4"
    (path,) = write_reports(sample_report, tmp_path, ["json"])
    assert load_report(path) == sample_report


def test_schema_rejects_a_broken_report(sample_report):
    import jsonschema

    data = json.loads(render(sample_report, "json"))
    data["results"][0]["label"] = "great"
    with pytest.raises(jsonschema.ValidationError):
        validate_report_json(data)


def test_load_report_errors(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        load_report(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(InputError, match="not a valid sa_align report"):
        load_report(bad)


def test_unknown_format_is_an_input_error(sample_report):
    with pytest.raises(InputError, match="unknown report format"):
        render(sample_report, "docx")
