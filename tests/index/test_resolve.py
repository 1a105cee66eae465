"""Call resolution: calls that depend on the calling scope and calls that do not, in one file."""

from __future__ import annotations

from pathlib import Path

from sa_align.index import build_index

SOURCE = '''
def helper():
    return 1


class Reader:
    def step(self):
        return helper()

    def run(self):
        return self.step()


class Writer:
    def step(self):
        def helper():
            return 2
        return helper()

    def run(self):
        self.step()
        return helper()
'''


def test_each_call_resolves_in_its_own_scope(tmp_path: Path):
    (tmp_path / "loop.py").write_text(SOURCE)
    index = build_index(tmp_path)
    got = {(c.caller.split("::")[1], c.callee, c.line): c.resolved for c in index.calls if c.path == "loop.py"}
    assert got[("Reader.run", "self.step", 11)] == "loop.py::Reader.step"
    assert got[("Writer.run", "self.step", 21)] == "loop.py::Writer.step"
    # The same bare name: the module's function, except where a nested definition shadows it.
    assert got[("Reader.step", "helper", 8)] == "loop.py::helper"
    assert got[("Writer.run", "helper", 22)] == "loop.py::helper"
    assert got[("Writer.step", "helper", 18)] == "loop.py::Writer.step.helper"
