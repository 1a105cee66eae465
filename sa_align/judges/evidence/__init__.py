"""Evidence machinery several judges share: what they look up in the repository, below the judges.

No judge owns these, so they are no judge's room; they import no judge module
(not `judges/base.py` either: `tables.Judged` spells out the part of a judge's
context they read), so any judge, and the benchmark generator, can build on them:

- `tables.py`: per-index tables (code vocabulary, docstring lines, entity keys,
  number sites, definitions by name) and the candidate functions a unit relates to;
- `words.py`: generic words, crude stems and a claim's distinctive words;
- `classes.py`: the repository's class hierarchy;
- `placeholders.py`: placeholder forms and their strength (is this function a stand-in?);
- `ownership.py`: which candidate function is the unit's own implementation;
- `liveness/`: which functions code that runs uses, and dead code.
"""
