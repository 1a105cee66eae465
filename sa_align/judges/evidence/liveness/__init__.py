"""Liveness: which functions code that runs uses, one definition (`units/liveness.yaml`).

Shared by the stub, missing, numeric, ordering and protocol judges (through
`dead.py`) and by the benchmark generator (`sa_align/bench/orphans.py`, through
`usage.py` and `facts.py`), so it is no one judge's room:

- `facts.py`: syntax facts behind "is this function used?", from file texts alone;
- `lookups.py`: calls that look a name up from a computed string;
- `usage.py`: which code uses each function, over a whole program, as a fixpoint;
- `dead.py`: dead code over the index: what nothing that runs can reach.
"""
