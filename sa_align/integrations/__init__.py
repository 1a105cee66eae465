"""Adapters for the harnesses that call sa_align: `inspect` (an Inspect AI scorer, the `inspect` extra)."""
