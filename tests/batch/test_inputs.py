"""Inputs by content: digests that ignore where a folder lives, archives of exactly what gets indexed."""

import io
import shutil
import tarfile

from sa_align.batch.inputs import pack, paper_bundle, repo_bundle, unpack
from sa_align.config import IndexConfig


def _repo(root):
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "train.py").write_text("LR = 0.1\n")
    (root / ".gitignore").write_text("checkpoints/\n")
    (root / "checkpoints").mkdir()
    (root / "checkpoints" / "w.txt").write_text("not shipped\n")
    return root


def test_digest_follows_content_and_archive_holds_what_is_indexed(tmp_path):
    a = repo_bundle(_repo(tmp_path / "a"), IndexConfig())
    b = repo_bundle(shutil.copytree(tmp_path / "a", tmp_path / "b"), IndexConfig())
    assert a.digest == b.digest and a.skipped == 1
    assert pack(a) == pack(b)  # equal content, equal bytes: stored once
    dest = unpack(pack(a), tmp_path / "copy")
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()) == [".gitignore", "pkg/train.py"]
    (tmp_path / "b" / "pkg" / "train.py").write_text("LR = 0.2\n")
    assert repo_bundle(tmp_path / "b", IndexConfig()).digest != a.digest


def test_latex_paper_brings_its_sources(tmp_path):
    (tmp_path / "sections").mkdir()
    (tmp_path / "main.tex").write_text("\\input{sections/method}\n")
    (tmp_path / "sections" / "method.tex").write_text("The learning rate is 0.1.\n")
    (tmp_path / "figure.png").write_bytes(b"\x89PNG")
    assert sorted(paper_bundle(tmp_path / "main.tex").files) == ["main.tex", "sections/method.tex"]
    (tmp_path / "notes.md").write_text("# notes\n")
    assert list(paper_bundle(tmp_path / "notes.md").files) == ["notes.md"]


def test_unpack_writes_only_regular_files_inside_the_destination(tmp_path):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in (("../escape.py", b"x"), ("/abs.py", b"y"), ("ok.py", b"z")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("link.py")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
    dest = unpack(buf.getvalue(), tmp_path / "in")
    assert [p.name for p in dest.iterdir()] == ["ok.py"] and not (tmp_path / "escape.py").exists()
