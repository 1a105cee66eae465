"""The missing judge's room: nothing in the code addresses the claim.

- `judge.py`: the judge (absent names, values and claim words);
- `dangling.py`: code still reads what the unit's implementation produced, but nothing defines it.
"""

from sa_align.judges.missing.judge import missing_judge

__all__ = ["missing_judge"]
