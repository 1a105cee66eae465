"""The protocol judge's room: are the stated datasets, metrics, baselines and counts what the code uses?

- `judge.py`: the judge;
- `entities.py`: where the code uses a dataset or metric, as opposed to merely naming it.
"""

from sa_align.judges.protocol.judge import protocol_judge

__all__ = ["protocol_judge"]
