"""Structured LLM calls: `LLMClient` sends chat messages to any litellm model and parses the
reply into a pydantic model, with a disk cache, retries, concurrency limits and budgets.

`client.py` is the only module of sa_align that imports litellm, and only on the first call
that needs it, so importing this package stays cheap for offline runs and `sa-align --help`.
`cache.py` (the reply cache), `errors.py` (provider error handling), `jsonparse.py` (JSON out
of replies) and `request.py` (request shaping) never import it.
"""

from __future__ import annotations

from sa_align.llm.client import LLMClient, LLMResult

__all__ = ["LLMClient", "LLMResult"]
