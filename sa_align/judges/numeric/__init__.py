"""The numeric judge's room: does the value that takes effect equal the value the paper states?

- `judge.py`: the judge (compare each site's value, decide by precedence);
- `sites.py`: which sites of a parameter take effect, and which ones a unit is about;
- `combine.py`: the unit's verdict from its parameters' decisions;
- `counts.py`: count parameters (seeds, runs, folds), loops included.
"""

from sa_align.judges.numeric.judge import numeric_judge

__all__ = ["numeric_judge"]
