"""Client for any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint.

OpenAI itself, Ollama (``http://localhost:11434/v1``), vLLM and llama.cpp's server all speak
this. Every failure becomes a ``StoreError`` that names the server, the model and the likely
fix: the caller (an agent, often) cannot act on an httpx traceback.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import httpx
import numpy as np

from xdb.embed.embedder import MAX_CHARS, clip, normalise_rows
from xdb.errors import StoreError

__all__ = ["OpenAIEmbedder"]


class OpenAIEmbedder:
    """Embeds through a remote model; vectors are re-normalised locally, since not every
    server returns unit vectors."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        dimension: int | None = None,
        batch_size: int = 64,
        timeout: float = 60.0,
        max_chars: int = MAX_CHARS,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.batch_size = batch_size
        self.max_chars = max_chars
        self._url = f"{self.base_url}/embeddings"
        self._dimension = dimension
        self._lock = threading.Lock()
        # The host is part of the id: one model name served by two servers may be two
        # different quantisations, whose vectors should not be mixed unknowingly.
        try:
            host = urlsplit(self.base_url).hostname or self.base_url
        except ValueError as exc:  # e.g. an unclosed IPv6 bracket
            raise self._fail(f"not a valid URL ({exc})", "set XDB_EMBED_URL") from None
        self.model_id = f"openai:{model}@{host}"
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        # Connecting should be quick; a CPU server embedding 64 long texts may not be.
        self._client = httpx.Client(
            headers=headers, timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0))
        )

    @property
    def dimension(self) -> int:
        """Given, or learned from the server's first answer (asked for now if need be)."""
        if self._dimension is None:
            self.embed(["dimension probe"])
        assert self._dimension is not None  # set by embed(), or it raised
        return self._dimension

    def close(self) -> None:
        self._client.close()

    def _fail(self, problem: str, fix: str) -> StoreError:
        return StoreError(f"embeddings server {self._url} (model {self.model!r}): {problem}; {fix}")

    def _post(self, batch: list[str]) -> Any:
        try:
            resp = self._client.post(self._url, json={"model": self.model, "input": batch})
        except httpx.TimeoutException as exc:
            raise self._fail(
                f"timed out ({type(exc).__name__})", "check the server is not overloaded"
            ) from None
        except httpx.ConnectError as exc:
            raise self._fail(
                f"cannot connect ({exc})",
                "start the server or correct XDB_EMBED_URL (e.g. http://localhost:11434/v1)",
            ) from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:  # InvalidURL is not an HTTPError
            raise self._fail(
                f"request failed ({type(exc).__name__}: {exc})",
                "check XDB_EMBED_URL (e.g. http://localhost:11434/v1) and the server's log",
            ) from None
        if resp.status_code in (401, 403):
            raise self._fail(f"HTTP {resp.status_code}", "check XDB_EMBED_API_KEY")
        if resp.status_code == 404:
            raise self._fail(
                "HTTP 404", "check XDB_EMBED_URL ends in /v1 and XDB_EMBED_MODEL exists"
            )
        if not resp.is_success:
            raise self._fail(
                f"HTTP {resp.status_code}: {resp.text[:200]!r}", "see the server's log"
            )
        try:
            return resp.json()
        except ValueError:
            raise self._fail(
                f"answer is not JSON: {resp.text[:200]!r}", "check XDB_EMBED_URL"
            ) from None

    def _parse(self, body: Any, count: int) -> np.ndarray[Any, np.dtype[np.float64]]:
        fix = "is XDB_EMBED_URL an OpenAI-compatible /v1 endpoint?"
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list) or len(data) != count:
            raise self._fail(f"expected 'data' with {count} embeddings", fix)
        rows: list[Any] = [None] * count
        for item in data:
            index = item.get("index") if isinstance(item, dict) else None
            if not isinstance(index, int) or not 0 <= index < count or rows[index] is not None:
                raise self._fail(f"bad or repeated 'index' in {str(item)[:80]}", fix)
            rows[index] = item.get("embedding")
        try:
            vectors = np.array(rows, dtype=np.float64)
        except (TypeError, ValueError):
            raise self._fail("embeddings are not equal-length lists of numbers", fix) from None
        if vectors.ndim != 2 or vectors.shape[1] == 0 or not np.isfinite(vectors).all():
            raise self._fail("embeddings are not equal-length lists of finite numbers", fix)
        return vectors

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
        # OpenAI rejects empty strings outright; a space embeds as "nothing" everywhere.
        clipped = [t or " " for t in clip(texts, self.max_chars)]
        if not clipped:
            return np.zeros((0, self.dimension), dtype=np.float32)
        parts = []
        for start in range(0, len(clipped), self.batch_size):
            batch = clipped[start : start + self.batch_size]
            vectors = self._parse(self._post(batch), len(batch))
            with self._lock:  # concurrent first calls agree on a single dimension
                if self._dimension is None:
                    self._dimension = int(vectors.shape[1])
            if vectors.shape[1] != self._dimension:
                raise self._fail(
                    f"returned {vectors.shape[1]}-dimensional vectors, expected {self._dimension}",
                    "set XDB_EMBED_DIM to the model's dimension, or use the model "
                    "the stored vectors were made with",
                )
            parts.append(vectors)
        return normalise_rows(np.concatenate(parts))
