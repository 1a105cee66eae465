import numpy as np

from sa_align.retrieve import embed


class _CountingModel:
    """Stands in for the encoder: a vector per text from its length, and a log of what was encoded."""

    def __init__(self):
        self.seen: list[str] = []

    def encode(self, texts, **_):
        self.seen.extend(texts)
        return np.array([[len(t), 1.0] for t in texts], dtype=np.float32)


def _embedder(model, tmp_path):
    e = object.__new__(embed.Embedder)
    e.model_name, e.model, e.cache = "counting-test-model", model, tmp_path / "vectors"
    return e


def test_a_changed_file_re_encodes_only_its_changed_chunks(tmp_path, monkeypatch):
    monkeypatch.setattr(embed, "_CHUNK_VECTORS", {})
    model = _CountingModel()
    e = _embedder(model, tmp_path)
    first = e.encode_groups([["def a(): pass", "def b(): pass"], ["x = 1"]])
    assert sorted(model.seen) == ["def a(): pass", "def b(): pass", "x = 1"]
    model.seen.clear()
    second = e.encode_groups([["def a(): pass", "def b(): return 2"], ["x = 1"]])
    assert model.seen == ["def b(): return 2"]  # the unchanged file came from disk, the kept chunk from memory
    assert np.array_equal(first[0][0], second[0][0]) and np.array_equal(first[1], second[1])


def test_a_query_vector_is_encoded_once(tmp_path, monkeypatch):
    monkeypatch.setattr(embed, "_QUERY_VECTORS", {})
    model = _CountingModel()
    e = _embedder(model, tmp_path)
    assert np.array_equal(e.encode(["learning rate 0.01"]), e.encode(["learning rate 0.01"]))
    assert model.seen == ["learning rate 0.01"]
