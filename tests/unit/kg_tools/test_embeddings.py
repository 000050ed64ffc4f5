"""The embedder's backends (ONNX export vs torch) and the query micro-batcher. No Neo4j needed."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from kg_tools.embeddings import ONNX_FILE, Embedder, QueryBatcher, export_onnx, onnx_dir
from tests.support.tiny_models import tiny_sentence_transformer

TEXTS = [
    "Send my current location to john@example.com",
    "x",
    "convert twenty euros into dollars please",
    "What is the weather in Paris tomorrow and the day after?",
    "book a table",
]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    return tiny_sentence_transformer(tmp_path_factory.mktemp("tiny"), dimension=32)


def test_onnx_export_gives_the_torch_vectors(tiny_model, tmp_path):
    export_onnx(tiny_model, onnx_dir(tmp_path, tiny_model))
    onnx = Embedder(tiny_model, backend="onnx", models_dir=tmp_path, batch_size=2)
    torch = Embedder(tiny_model, backend="torch")
    assert (onnx.backend, torch.backend) == ("onnx", "torch")
    assert onnx.dimension == torch.dimension == 32
    a, b = onnx.embed(TEXTS), torch.embed(TEXTS)  # batches of 2 with mixed lengths: order must be kept
    assert a.shape == (len(TEXTS), 32)
    np.testing.assert_allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert (a * b).sum(axis=1).min() > 0.9999
    assert not np.allclose(a[0], a[1])


def test_missing_export_falls_back_to_torch_and_says_so(tiny_model, tmp_path):
    warnings = []
    e = Embedder(tiny_model, backend="onnx", models_dir=tmp_path / "empty", warn=warnings.append)
    assert e.backend == "torch"
    assert "kg-tools models export-onnx --model" in e.backend_note and warnings == [e.backend_note]
    assert not (onnx_dir(tmp_path / "empty", tiny_model) / ONNX_FILE).exists()


def test_unknown_backend_is_refused(tiny_model):
    with pytest.raises(ValueError, match="onnx, torch"):
        Embedder(tiny_model, backend="tensorflow")


def test_batcher_gives_each_caller_its_own_vector():
    release = threading.Event()
    batches = []

    def encode(texts, alone):
        batches.append(list(texts))
        release.wait(5)
        return np.array([[float(len(t)), float(t.count("a"))] for t in texts], dtype=np.float32)

    batcher = QueryBatcher(encode, window_ms=0, max_batch=8)
    texts = [f"query {'a' * i}" for i in range(12)]
    results = {}
    threads = [threading.Thread(target=lambda t=t: results.__setitem__(t, batcher.embed(t))) for t in texts]
    for t in threads:
        t.start()
    while not batches or len(batches[0]) + batcher.queue.qsize() < len(texts):  # first batch runs, rest wait
        threading.Event().wait(0.01)
    release.set()
    for t in threads:
        t.join(5)
    assert {t: tuple(v) for t, v in results.items()} == {t: (float(len(t)), float(t.count("a"))) for t in texts}
    assert batcher.queries == len(texts) and batcher.batches < len(texts)
    assert max(len(b) for b in batches) <= 8


def test_batcher_passes_errors_to_every_waiting_caller():
    def encode(texts, alone):
        raise RuntimeError("model failed")

    batcher = QueryBatcher(encode)
    with pytest.raises(RuntimeError, match="model failed"):
        batcher.embed("anything")


def test_a_lone_query_runs_alone_and_queries_that_pile_up_do_not():
    started, release, calls = threading.Event(), threading.Event(), []

    def encode(texts, alone):
        calls.append((list(texts), alone))
        started.set()
        release.wait(5)
        return np.ones((len(texts), 2), dtype=np.float32)

    batcher = QueryBatcher(encode, window_ms=0, max_batch=8, workers=2)
    release.set()
    batcher.embed("first")  # nothing else in flight
    assert calls == [(["first"], True)]
    calls.clear()
    started.clear()
    release.clear()
    threads = [threading.Thread(target=batcher.embed, args=(f"q{i}",)) for i in range(6)]
    threads[0].start()
    assert started.wait(5)  # q0 holds one worker in the model ...
    for t in threads[1:]:
        t.start()
    while len(calls) < 2:  # ... so the other worker takes the rest, which is not alone
        threading.Event().wait(0.01)
    release.set()
    for t in threads:
        t.join(5)
    assert calls[0] == (["q0"], True) and calls[1][1] is False  # taken while q0 was in the model
    assert sorted(q for texts, _ in calls for q in texts) == [f"q{i}" for i in range(6)]


def test_the_solo_session_gives_the_same_vectors(tiny_model, tmp_path):
    export_onnx(tiny_model, onnx_dir(tmp_path, tiny_model))
    e = Embedder(tiny_model, backend="onnx", models_dir=tmp_path, threads=1, solo_threads=2)
    assert e.encoder.solo_session is not None
    for text in TEXTS:
        solo = e.encoder.encode([text], 8, solo=True)
        shared = e.encoder.encode([text], 8, solo=False)
        np.testing.assert_allclose(solo, shared, atol=1e-5)
    bulk = Embedder(tiny_model, backend="onnx", models_dir=tmp_path)  # threads=0: no second session
    assert bulk.encoder.solo_session is None
