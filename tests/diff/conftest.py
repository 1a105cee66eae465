import pytest

from sa_align.models import CodeSpan, DriftReport, Label, PaperIdentity, RepoIdentity, Unit, UnitResult
from sa_align.report import summarize


def result(uid, claim, label, score, *, quote=None, evidence=(), kind="numerical"):
    unit = Unit(id=uid, kind=kind, claim=claim, quote=quote if quote is not None else f"We state that {claim.lower()}")
    return UnitResult(unit=unit, label=label, score=score, evidence=list(evidence), reason=f"because {uid}")


def report(results, *, title="Focal loss", sha="aa" * 32, commit="1" * 40, version="1.0"):
    return DriftReport(schema_version=version, paper=PaperIdentity(title=title, sha256=sha),
                       repo=RepoIdentity(path="repo", git_commit=commit), results=list(results),
                       summary=summarize(list(results)))


def span(path, line):
    return CodeSpan(path=path, start_line=line, end_line=line)


@pytest.fixture
def old_new():
    """An old and a new report of one paper: a value regressed, a stub was fixed, a unit was inserted
    in front (shifting ids), one removed, one undecided, one whose evidence moved."""
    old = report([
        result("num-001", "The learning rate is 0.01.", Label.ALIGNED, 1.0, evidence=[span("config.yaml", 4)]),
        result("num-002", "Gamma is 2.", Label.ALIGNED, 1.0, evidence=[span("loss.py", 5)]),
        result("num-003", "Momentum is 0.9.", Label.ALIGNED, 1.0, evidence=[span("config.yaml", 6)]),
        result("meth-001", "The loss is normalized by positive anchors.", Label.STUBBED, 0.0, kind="method"),
        result("meth-002", "Anchors use three scales.", Label.ALIGNED, 1.0, kind="method"),
        result("meth-003", "Heads share weights.", Label.ALIGNED, 1.0, kind="method"),
    ], commit="1" * 40)
    new = report([
        result("num-001", "Weight decay is 0.0001.", Label.ALIGNED, 1.0, evidence=[span("config.yaml", 7)]),
        result("num-002", "The learning rate is 0.01.", Label.MISMATCHED, 0.25, evidence=[span("config.yaml", 4)]),
        result("num-003", "Gamma is 2.", Label.ALIGNED, 1.0, evidence=[span("loss.py", 9)]),
        result("num-004", "Momentum is 0.9.", Label.ALIGNED, 1.0, evidence=[span("config.yaml", 6)]),
        result("meth-001", "The loss is normalized by positive anchors.", Label.ALIGNED, 1.0, kind="method"),
        result("meth-002", "Anchors use three scales.", Label.UNDECIDED, None, kind="method"),
    ], commit="2" * 40)
    return old, new
