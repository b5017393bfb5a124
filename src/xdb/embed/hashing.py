"""A deterministic, dependency-free stand-in embedder for benchmarks and tests.

Benchmarks at a million episodes need vectors of the real shape (384 float32, unit length)
without paying a transformer per text. Feature hashing gives that in microseconds: each
lowercased word unigram and bigram lands in one of 384 buckets with a +1 or -1 sign (the
sign keeps unrelated features from only ever adding up), and the row is L2-normalised.
Texts that share words score higher than texts that do not; there is no notion of meaning,
so never store these vectors next to real model vectors (``model_id`` tells them apart).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

from xdb.embed.embedder import clip, normalise_rows

__all__ = ["HashEmbedder"]

_WORD = re.compile(r"\w+")
_MASK = np.uint64(0xFFFF_FFFF)
_EMPTY = ["\x00empty"]  # the one feature of a text without words: every row needs a unit norm
_CACHE_LIMIT = 1 << 18


def _mix(h: np.ndarray[Any, np.dtype[np.uint64]]) -> np.ndarray[Any, np.dtype[np.uint64]]:
    """murmur3's 32-bit finaliser: spreads every input bit over the bucket and sign bits."""
    h = h & _MASK
    h ^= h >> np.uint64(16)
    h = (h * np.uint64(0x85EB_CA6B)) & _MASK
    h ^= h >> np.uint64(13)
    h = (h * np.uint64(0xC2B2_AE35)) & _MASK
    return h ^ (h >> np.uint64(16))


class HashEmbedder:
    """Signed feature hashing of word unigrams and bigrams into ``dimension`` buckets."""

    def __init__(self, dimension: int = 384) -> None:
        self.dimension = dimension
        self.model_id = f"hash:{dimension}"
        self._hashes: dict[str, int] = {}

    def _word_hash(self, word: str) -> int:
        # crc32, not hash(): str hashes are salted per process, and stored vectors must
        # come out the same tomorrow. Remembered, since words repeat far more than they are
        # new; the cache starts over when full rather than growing with the corpus.
        if len(self._hashes) >= _CACHE_LIMIT:
            self._hashes = {}
        h = self._hashes[word] = zlib.crc32(word.encode())
        return h

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
        clipped = clip(texts)
        if not clipped:
            return np.zeros((0, self.dimension), dtype=np.float32)
        # Work on all texts' words at once: per-text numpy calls cost more than the hashing.
        per_text = [_WORD.findall(text.lower()) or _EMPTY for text in clipped]
        known, new = self._hashes, self._word_hash
        uni = np.array(
            [known[w] if w in known else new(w) for w in chain.from_iterable(per_text)],
            dtype=np.uint64,
        )
        rows = np.repeat(np.arange(len(clipped)), [len(words) for words in per_text])
        # A bigram's hash combines its words' hashes in order ("a b" is not "b a"): much
        # cheaper than building the pair's string. Pairs across two texts are dropped.
        same_text = rows[:-1] == rows[1:]
        bi = (uni[:-1] * np.uint64(0x9E37_79B1) + uni[1:] + np.uint64(1))[same_text]
        h = _mix(np.concatenate([uni, bi]))
        rows = np.concatenate([rows, rows[:-1][same_text]])
        buckets = ((h >> np.uint64(1)) % np.uint64(self.dimension)).astype(np.int64)
        signs = 1.0 - 2.0 * (h & np.uint64(1)).astype(np.float64)
        total = len(clipped) * self.dimension
        flat = np.bincount(rows * self.dimension + buckets, weights=signs, minlength=total)
        vectors = flat.reshape(len(clipped), self.dimension)
        # A text whose features cancel out exactly would be all zeros: nudge it onto the
        # first axis so every row keeps unit length, as the protocol promises.
        vectors[~vectors.any(axis=1), 0] = 1.0
        return normalise_rows(vectors)
