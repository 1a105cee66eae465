"""Import hygiene: litellm stays inside `sa_align.llm` and loads only when a call needs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_only_the_llm_client_imports_litellm() -> None:
    root = Path(__file__).resolve().parents[2] / "sa_align"
    importers = {f.relative_to(root).as_posix() for f in root.rglob("*.py")
                 if any(line.strip().startswith(("import litellm", "from litellm")) for line in f.read_text().splitlines())}
    assert importers == {"llm/client.py"}


def test_importing_sa_align_does_not_import_litellm() -> None:
    code = "import sys, sa_align, sa_align.llm; assert 'litellm' not in sys.modules, 'litellm imported'"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
