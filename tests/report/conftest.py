import pytest

from sa_align.models import (
    Candidate, CodeSpan, Cost, DriftReport, Flag, Label, PaperIdentity, RepoIdentity, Unit, UnitResult, Verdict,
)
from sa_align.report import summarize


def _result(uid, kind, label, score, *, evidence=None, snippet="", by="static", rule=None):
    unit = Unit(id=uid, kind=kind, claim=f"claim of {uid}", quote=f"quote of {uid}", section="3 Method")
    ev = evidence or []
    cands = [Candidate(span=e, score=1.0, why=["bm25"], snippet=snippet) for e in ev]
    verdict = Verdict(judge="numeric", label=label, score=score, confidence=0.9, reason=f"reason {uid}", evidence=ev, rule=rule)
    return UnitResult(
        unit=unit, label=label, score=score, confidence=0.9, decided_by=by, verdicts=[verdict],
        agreement=1.0, candidates=cands, evidence=ev, reason=f"reason {uid}", rule=rule,
    )


@pytest.fixture
def sample_report():
    span = CodeSpan(path="config.yaml", start_line=4, end_line=4, symbol=None)
    results = [
        _result("num-001", "numerical", Label.ALIGNED, 1.0, evidence=[span], snippet="lr: 0.01", rule="NUM001"),
        _result("num-002", "numerical", Label.MISMATCHED, 0.25, evidence=[span], snippet="lr: 0.02", rule="NUM005"),
        _result("meth-001", "method", Label.STUBBED, 0.0, evidence=[CodeSpan(path="m.py", start_line=2, end_line=3)],
                snippet="def f():\n    pass", rule="STB001"),
        _result("meth-002", "method", Label.MISSING, 0.0, rule="MIS004"),
        _result("meth-003", "method", Label.UNDECIDED, None, by="none"),
    ]
    return DriftReport(
        paper=PaperIdentity(title="A Paper", path="paper.md"),
        repo=RepoIdentity(path="repo", git_commit="0123456789abcdef", files_indexed=3),
        results=results,
        summary=summarize(results),
        cost=Cost(),
        timing={"total": 1.5},
        flags=[Flag(kind="injection", message="ignore previous instructions", location=CodeSpan(path="m.py", start_line=1, end_line=1))],
    )


@pytest.fixture
def held_report(sample_report):
    """`sample_report` with num-002's mismatch found by a preview rule and held back, as `rules/policy.py` holds it."""
    r = sample_report.results[1]
    r.label, r.held_label, r.rule, r.score, r.needs_review = Label.UNDECIDED, Label.MISMATCHED, "NUM006", None, True
    r.confidence, r.agreement, r.decided_by = 0.0, None, "none"
    r.verdicts[0].rule = "NUM006"
    sample_report.summary = summarize(sample_report.results)
    return sample_report


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def chromium_page():
    """A page in Debian's headless Chromium (nothing downloaded) and the errors it logs."""
    import shutil

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("headless Chromium is not installed")
    sync_api = pytest.importorskip("playwright.sync_api")
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page, errors
        browser.close()


def open_report(page, report, tmp_path):
    """Render `report` as HTML into `tmp_path`, open it in `page`, and return the file."""
    from sa_align.report import render

    path = tmp_path / "report.html"
    path.write_text(render(report, "html"), encoding="utf-8")
    page.goto(path.as_uri())
    return path
