"""What every embedder promises, and the small helpers they share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

__all__ = ["MAX_CHARS", "Embedder", "clip", "normalise_rows"]

# Texts are embedded from a bounded prefix. Models read a few hundred tokens at most
# (256 for MiniLM), so a megabyte of log output would only cost tokenizer time and memory:
# 8,000 characters is comfortably more than any supported model's window.
MAX_CHARS = 8_000


class Embedder(Protocol):
    """Turns texts into unit vectors whose dot product is their cosine similarity.

    ``model_id`` and ``dimension`` are read-only here so that an implementation may use a
    plain attribute or, like the OpenAI client, a property that asks its server.
    """

    @property
    def model_id(self) -> str:
        """Stable id stored with every vector, e.g. ``minilm:all-MiniLM-L6-v2``: vectors from
        different models are not comparable, so the store must know which made each one."""
        ...

    @property
    def dimension(self) -> int:
        """Length of every vector this embedder returns."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
        """float32 array of shape ``(len(texts), dimension)`` with L2-normalised rows, in
        input order; an empty input gives shape ``(0, dimension)``."""
        ...


def clip(texts: Sequence[str], max_chars: int = MAX_CHARS) -> list[str]:
    """The prefix of each text that is embedded."""
    if isinstance(texts, str):
        # A lone str is a Sequence[str] of characters: almost surely a caller's slip.
        raise TypeError("embed() takes a sequence of texts, not a single str")
    return [t[:max_chars] for t in texts]


def normalise_rows(vectors: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Rows scaled to unit length (all-zero rows stay zero rather than becoming NaN)."""
    out = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return np.ascontiguousarray(out / np.maximum(norms, 1e-12), dtype=np.float32)
