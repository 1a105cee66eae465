"""The stub judge's room: is the located implementation a placeholder, or code nothing ever runs?

- `judge.py`: the judge, its rules in order;
- `named.py`: placeholders the unit names (a hinted definition or class that is a stand-in);
- `blocks.py`: deferred statements inside a longer function (a TODO, then `x = None` or `pass`);
- `verdict.py`: its `stubbed` verdict at a placeholder.

Machinery it shares with other judges lives in `judges/evidence/`: placeholder forms
(`judges/evidence/placeholders.py`), ownership of a candidate (`judges/evidence/ownership.py`),
the class hierarchy (`judges/evidence/classes.py`) and dead code (`judges/evidence/liveness/`).
"""

from sa_align.judges.stub.judge import stub_judge

__all__ = ["stub_judge"]
