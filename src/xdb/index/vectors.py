"""An exact in-memory vector index over episode embeddings, with the filters search needs.

Rows hold unit vectors (float32) and, beside them, each episode's seq, namespace, time
window and kind, so a filtered search masks rows with numpy instead of asking SQL for an
allowlist. It is a cache of the ``episode_vectors`` table: built when first needed, then
fed by the embedding worker; after a crash it is simply rebuilt.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from xdb.store.protocol import EpisodeFilter

Vector = npt.NDArray[np.float32]


class VectorIndex:
    def __init__(self, model: str, dimension: int) -> None:
        self.model = model
        self.dimension = dimension
        self._lock = threading.Lock()
        self._n = 0
        self._matrix: npt.NDArray[Any] = np.zeros((0, dimension), dtype=np.float32)
        self._seq: npt.NDArray[Any] = np.zeros(0, dtype=np.int64)
        self._vseq: npt.NDArray[Any] = np.zeros(0, dtype=np.int64)
        self._start: npt.NDArray[Any] = np.zeros(0, dtype=np.int64)
        self._end: npt.NDArray[Any] = np.zeros(0, dtype=np.int64)
        self._namespace: npt.NDArray[Any] = np.zeros(0, dtype=np.int32)
        self._kind: npt.NDArray[Any] = np.zeros(0, dtype=np.int32)
        self._alive: npt.NDArray[Any] = np.zeros(0, dtype=bool)
        self._codes: dict[str, int] = {}
        self.max_vseq = 0  # the newest vector loaded

    def __len__(self) -> int:
        return int(self._alive[: self._n].sum())

    def _code(self, name: str) -> int:
        return self._codes.setdefault(name, len(self._codes))

    def _grow(self, extra: int) -> None:
        need = self._n + extra
        if need <= len(self._seq):
            return
        size = max(need, 2 * len(self._seq), 1024)

        def grown(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
            out = np.zeros((size, *a.shape[1:]), dtype=a.dtype)
            out[: self._n] = a[: self._n]
            return out

        self._matrix = grown(self._matrix)
        self._seq, self._vseq = grown(self._seq), grown(self._vseq)
        self._start, self._end = grown(self._start), grown(self._end)
        self._namespace, self._kind = grown(self._namespace), grown(self._kind)
        self._alive = grown(self._alive)

    def add(self, rows: Iterable[tuple[int, int, bytes, str, int, int, str]]) -> int:
        """Add (vseq, seq, vector bytes, namespace, start_us, end_us, kind) rows."""
        batch = list(rows)
        if not batch:
            return 0
        with self._lock:
            self._grow(len(batch))
            lo, hi = self._n, self._n + len(batch)
            vectors = np.frombuffer(b"".join(r[2] for r in batch), dtype=np.float32)
            self._matrix[lo:hi] = vectors.reshape(len(batch), self.dimension)
            self._vseq[lo:hi] = [r[0] for r in batch]
            self._seq[lo:hi] = [r[1] for r in batch]
            self._namespace[lo:hi] = [self._code(r[3]) for r in batch]
            self._start[lo:hi] = [r[4] for r in batch]
            self._end[lo:hi] = [r[5] for r in batch]
            self._kind[lo:hi] = [self._code(r[6]) for r in batch]
            self._alive[lo:hi] = True
            self._n = hi
            self.max_vseq = max(self.max_vseq, max(r[0] for r in batch))
        return len(batch)

    def remove(self, seq: int) -> None:
        with self._lock:
            self._alive[: self._n][self._seq[: self._n] == seq] = False

    def search(
        self,
        query: Vector,
        k: int,
        flt: EpisodeFilter,
        *,
        max_vseq: int | None = None,
        allowed: Sequence[int] | None = None,
    ) -> list[tuple[int, float]]:
        """The ``k`` most similar (seq, cosine) among rows passing ``flt``'s namespace, time,
        kinds and snapshot, ``max_vseq`` and the ``allowed`` seqs (SQL's part of ``flt``)."""
        namespace, start_us, end_us = flt.namespace, flt.start_us, flt.end_us
        kinds, max_seq = flt.kinds, flt.max_seq
        with self._lock:
            n = self._n
            mask = self._alive[:n].copy()
            if namespace is not None:
                code = self._codes.get(namespace)
                mask &= self._namespace[:n] == (-1 if code is None else code)
            if start_us is not None:
                mask &= self._end[:n] >= start_us
            if end_us is not None:
                mask &= self._start[:n] <= end_us
            if kinds:
                codes = [self._codes[kd] for kd in kinds if kd in self._codes]
                mask &= np.isin(self._kind[:n], codes)
            if max_seq is not None:
                mask &= self._seq[:n] <= max_seq
            if max_vseq is not None:
                mask &= self._vseq[:n] <= max_vseq
            if allowed is not None:
                mask &= np.isin(self._seq[:n], np.asarray(allowed, dtype=np.int64))
            rows = np.flatnonzero(mask)
            if rows.size == 0 or k <= 0:
                return []
            sims = self._matrix[rows] @ query if rows.size < n else self._matrix[:n] @ query
            picked = rows if rows.size < n else np.arange(n)
            k = min(k, picked.size)
            top = np.argpartition(-sims, k - 1)[:k]
            order = top[np.lexsort((-self._seq[picked[top]], -sims[top]))]
            return [(int(self._seq[picked[i]]), float(sims[i])) for i in order]
