"""The stub judge's room: is the located implementation a placeholder, or code nothing ever runs?

- `judge.py`: the judge, its rules in order;
- `named.py`: placeholders the unit names (a hinted definition or class that is a stand-in);
- `blocks.py`: deferred statements inside a longer function (a TODO, then `x = None` or `pass`).

Machinery it shares with other judges stays outside: placeholder forms
(`judges/placeholders.py`), ownership of a candidate (`judges/ownership.py`),
the class hierarchy (`judges/classes.py`) and dead code (`judges/liveness/`).
"""

from sa_align.judges.stub.judge import stub_judge

__all__ = ["stub_judge"]
