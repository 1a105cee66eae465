"""Typed exceptions. Every message says what went wrong and what to do about it."""

from __future__ import annotations

from typing import Any


class SaAlignError(Exception):
    """Base class of every error `sa_align` raises on purpose."""


class InputError(SaAlignError):
    """Bad user input: a file that is missing, empty, unreadable or of an unknown format."""


class PaperError(InputError):
    """The paper could not be loaded."""


class UnitsFileError(InputError):
    """A units file is malformed or fails validation."""


class RepoError(InputError):
    """The repository path is not a readable directory."""


class DatasetError(InputError):
    """A benchmark dataset folder is malformed."""


class CalibrationError(SaAlignError):
    """The calibrated judge's model file is missing, corrupt, or built for another feature set."""


class ConfigError(SaAlignError):
    """A data table that drives the judges (`units/`) contradicts itself, e.g. routes a judge that does not exist."""


class RetrievalError(SaAlignError):
    """Retrieval could not run as configured (e.g. embeddings required but the model cannot load)."""


class LLMError(SaAlignError):
    """A model call failed."""


class LLMConfigError(LLMError):
    """A model is misconfigured: bad credentials, unknown model, rejected request. Not retried."""


class LLMGiveUp(LLMError):
    """The model never produced a valid structured reply within the allowed attempts."""

    def __init__(self, message: str, *, attempts: int, usage: Any = None, last_raw: str | None = None):
        super().__init__(message)
        self.attempts = attempts
        self.usage = usage
        self.last_raw = last_raw


class BudgetExceeded(LLMError):
    """The run's dollar or token budget is spent; no new calls start."""


class ExecutorError(InputError):
    """A batch executor cannot start: its library is not installed or its cluster does not answer."""
