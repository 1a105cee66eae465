"""The HTML report, loaded in real headless Chromium (Debian's build; nothing is downloaded)."""

import pytest

from sa_align.models import Unit, UnitResult
from sa_align.report import render, summarize
from tests.report.conftest import open_report


def test_html_is_self_contained_and_escapes_untrusted_text(sample_report):
    evil = Unit(id="x-1", kind="method", claim="</script><script>alert(1)</script>", quote="<img src=x onerror=alert(1)>")
    sample_report.results.append(UnitResult(unit=evil, label="missing", score=0.0))
    sample_report.summary = summarize(sample_report.results)
    page = render(sample_report, "html")
    assert "<script>alert(1)</script>" not in page and "<img src=x" not in page
    assert "http://" not in page and "https://" not in page  # no network assets
    assert page.count("<svg") == 2


def test_html_lists_run_and_unit_errors_escaped(sample_report):
    sample_report.results[1].error = "numeric: <script>alert(1)</script>"
    sample_report.errors = ["retrieval failed for u-9: <img src=x onerror=alert(1)>"]
    sample_report.summary = summarize(sample_report.results)
    page = render(sample_report, "html")
    section = page.split('<ul class="errors" id="errors">')[1].split("</ul>")[0]
    assert "<code>num-002</code> (mismatched): numeric: &lt;script&gt;alert(1)&lt;/script&gt;" in section
    assert "retrieval failed for u-9: &lt;img src=x onerror=alert(1)&gt;" in section
    assert "judge errors<b" in page
    assert "<script>alert(1)</script>" not in page and "<img src=x" not in page


def test_html_without_errors_has_no_error_section(sample_report):
    page = render(sample_report, "html")
    assert 'id="errors"' not in page and "judge errors" not in page


@pytest.mark.browser
def test_unit_detail_shows_its_judge_error(sample_report, tmp_path, chromium_page):
    page, errors = chromium_page
    sample_report.results[1].error = "numeric: <b>bold</b> failure"
    sample_report.summary = summarize(sample_report.results)
    open_report(page, sample_report, tmp_path)
    row = page.locator('#units-body tr.unit[data-id="num-002"]')
    assert "error" in row.inner_text()
    row.click()
    detail = page.locator("#units-body tr.detail")
    assert "Judge error: numeric: <b>bold</b> failure" in detail.inner_text()  # shown as text, not markup
    assert page.locator("#units-body tr.detail b").count() == 0
    assert "num-002" in page.locator("#errors").inner_text()
    assert errors == []


@pytest.mark.browser
def test_page_loads_filters_sorts_and_expands(sample_report, tmp_path, chromium_page):
    page, errors = chromium_page
    open_report(page, sample_report, tmp_path)
    rows = page.locator("#units-body tr.unit")
    assert rows.count() == 5
    page.select_option("#filter-label", "mismatched")
    assert rows.count() == 1 and rows.first.get_attribute("data-id") == "num-002"
    rows.first.click()
    detail = page.locator("#units-body tr.detail")
    assert "config.yaml:4" in detail.inner_text() and "lr: 0.02" in detail.inner_text()
    page.select_option("#filter-label", "")
    page.fill("#filter-text", "meth-00")
    assert rows.count() == 3
    page.fill("#filter-text", "")
    page.click("th[data-key=score]")
    page.click("th[data-key=score]")
    assert rows.first.get_attribute("data-id") == "num-001"  # highest score first
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert errors == []
    assert (tmp_path / "report.png").stat().st_size > 10_000


def test_html_counts_units_per_rule_and_names_held_findings(held_report):
    page = render(held_report, "html")
    table = page.split('<table id="by-rule">')[1].split("</table>")[0]
    assert "<tr><td><code>NUM006</code></td><td>preset-differs</td><td>held mismatched</td><td>1</td></tr>" in table
    assert "<tr><td>none</td><td></td><td>undecided</td><td>1</td></tr>" in table
    held = page.split('<p id="held">')[1].split("</p>")[0]
    assert held.startswith("Held for review: 1 finding of preview rules (num-002 mismatched by NUM006)")
    assert "<code>--preview</code>" in held and "`" not in held  # the sentence's code spans, not backticks


@pytest.mark.browser
def test_each_row_shows_its_rule_code_and_a_held_finding(held_report, tmp_path, chromium_page):
    page, errors = chromium_page
    open_report(page, held_report, tmp_path)
    label = lambda uid: page.locator(f'#units-body tr.unit[data-id="{uid}"] td').nth(2).inner_text()  # noqa: E731
    assert label("num-001") == "aligned (NUM001)"
    assert label("num-002") == "undecided (held: mismatched by NUM006, preview) review"
    assert label("meth-003") == "undecided"  # no rule decided it
    page.fill("#filter-text", "NUM006")  # the rule is searchable like the claim
    rows = page.locator("#units-body tr.unit")
    assert rows.count() == 1 and rows.first.get_attribute("data-id") == "num-002"
    rows.first.click()
    assert "numeric: mismatched [NUM006] (confidence 0.90)" in page.locator("#units-body tr.detail").inner_text()
    assert errors == []
