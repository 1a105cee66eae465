"""The package version, in a module that imports nothing so any module can read it without import circles."""

__version__ = "0.1.0"
