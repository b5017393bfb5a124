"""An in-memory vector index over episode embeddings, with the filters search needs.

Each row holds an episode's unit vector as 8-bit codes (one byte per dimension, uniform over
-1..1, in a faiss ``IndexScalarQuantizer``) and, beside it, the episode's seq, namespace,
time window, kind and session, so a filtered search masks rows with numpy instead of asking
SQL, and a search places the episodes it ranks (``places``) without reading their rows.
At 384 dimensions a row costs 384 + 45 bytes instead of 1,536 + 45 in float32; the 8-bit
step (2/255) moves a cosine by about 0.002, far below the gaps that order results.

Scoring is exact over the codes: a few thousand rows are decoded and scored in numpy (the
decode is linear, so one matrix product does it); more rows are scanned by faiss's SIMD
kernel with a bitmap of the allowed rows. It is a cache of the ``episode_vectors`` table:
built when first needed, then fed by the embedding worker; after a crash it is rebuilt.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from xdb.store.types import Place

if TYPE_CHECKING:
    from xdb.store.types import EpisodeFilter

Vector = npt.NDArray[np.float32]

LOW, HIGH = -1.0, 1.0  # the codes' range: a unit vector's components lie within it
STEPS = 255
# Below this many allowed rows numpy decodes and scores them (0.2 ms for 1,000 at 100k);
# above it the faiss scan with a bitmap is faster (4.5 ms for 20,000, 6.5 ms for all 100k).
NUMPY_ROWS = 4000


log = logging.getLogger(__name__)


class VectorIndex:
    def __init__(self, model: str, dimension: int) -> None:
        import faiss  # only once episodes are searched: the import costs ~0.1 s

        self.model = model
        self.dimension = dimension
        self._faiss = faiss
        self._codes = faiss.IndexScalarQuantizer(
            dimension, faiss.ScalarQuantizer.QT_8bit_uniform, faiss.METRIC_INNER_PRODUCT
        )
        # Training only sets the range; a fixed -1..1 keeps codes independent of the data.
        self._codes.train(np.array([[LOW] * dimension, [HIGH] * dimension], dtype=np.float32))
        self._lock = threading.Lock()
        self._n = 0
        self._seq: npt.NDArray[Any] = np.zeros(0, dtype=np.int64)
        self._vseq: npt.NDArray[Any] = np.zeros(0, dtype=np.int64)
        self._start: npt.NDArray[Any] = np.zeros(0, dtype=np.int64)
        self._end: npt.NDArray[Any] = np.zeros(0, dtype=np.int64)
        self._namespace: npt.NDArray[Any] = np.zeros(0, dtype=np.int32)
        self._kind: npt.NDArray[Any] = np.zeros(0, dtype=np.int32)
        self._session: npt.NDArray[Any] = np.zeros(0, dtype=np.int32)  # -1: none
        self._alive: npt.NDArray[Any] = np.zeros(0, dtype=bool)
        self._dead = 0  # rows removed (not alive)
        self._top_seq = 0  # the largest seq loaded
        self._codes_of: dict[str, int] = {}
        self._names: list[str] = []  # code -> name
        # Rows arrive in seq order almost always; when one does not, an argsort (kept until
        # the next add) maps seqs to rows instead.
        self._in_seq_order = True
        self._order: npt.NDArray[Any] | None = None
        self.max_vseq = 0  # the newest vector loaded
        self._warned_width = False

    def __len__(self) -> int:
        return self._n - self._dead

    def memory_bytes(self) -> int:
        """What the index holds in memory: the codes, the row arrays (with their spare
        capacity) and the seq order when one is kept."""
        arrays = [self._seq, self._vseq, self._start, self._end, self._namespace, self._kind]
        arrays.append(self._session)
        total = self._n * self._codes.code_size + sum(a.nbytes for a in arrays)
        total += self._alive.nbytes
        return total + (0 if self._order is None else self._order.nbytes)

    def _code(self, name: str) -> int:
        code = self._codes_of.get(name)
        if code is None:
            code = self._codes_of[name] = len(self._names)
            self._names.append(name)
        return code

    def _grow(self, extra: int) -> None:
        need = self._n + extra
        if need <= len(self._seq):
            return
        size = max(need, len(self._seq) + len(self._seq) // 4, 1024)

        def grown(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
            out = np.zeros(size, dtype=a.dtype)
            out[: self._n] = a[: self._n]
            return out

        self._seq, self._vseq = grown(self._seq), grown(self._vseq)
        self._start, self._end = grown(self._start), grown(self._end)
        self._namespace, self._kind = grown(self._namespace), grown(self._kind)
        self._session = grown(self._session)
        self._alive = grown(self._alive)

    def add(self, rows: Iterable[tuple[int, int, bytes, str, int, int, str, str | None]]) -> int:
        """Add (vseq, seq, vector bytes, namespace, start_us, end_us, kind, session_id) rows.
        A vector of another length than the model's (an import's, made by another
        configuration of the same model id) is left out, and said once: the episode ranks by
        its text alone, and the index never stops on it."""
        width = self.dimension * 4
        given = list(rows)
        batch = [r for r in given if len(r[2]) == width]
        if len(batch) < len(given):
            if not self._warned_width:
                self._warned_width = True
                log.warning(
                    "%d stored vector(s) of model %s are not %d float32 values: those"
                    " episodes rank by their text alone",
                    len(given) - len(batch), self.model, self.dimension,
                )  # fmt: skip
            with self._lock:
                self.max_vseq = max(self.max_vseq, max(r[0] for r in given))
        if not batch:
            return 0
        vectors = np.frombuffer(b"".join(r[2] for r in batch), dtype=np.float32)
        vectors = vectors.reshape(len(batch), self.dimension)
        seqs = np.array([r[1] for r in batch], dtype=np.int64)
        with self._lock:
            self._grow(len(batch))
            lo, hi = self._n, self._n + len(batch)
            self._codes.add(vectors)
            ordered = bool(np.all(seqs[1:] > seqs[:-1]))
            if not ordered or (lo > 0 and seqs[0] <= self._seq[lo - 1]):
                self._in_seq_order = False
            self._order = None
            self._vseq[lo:hi] = [r[0] for r in batch]
            self._seq[lo:hi] = seqs
            self._namespace[lo:hi] = [self._code(r[3]) for r in batch]
            self._start[lo:hi] = [r[4] for r in batch]
            self._end[lo:hi] = [r[5] for r in batch]
            self._kind[lo:hi] = [self._code(r[6]) for r in batch]
            self._session[lo:hi] = [-1 if r[7] is None else self._code(r[7]) for r in batch]
            self._alive[lo:hi] = True
            self._n = hi
            self.max_vseq = max(self.max_vseq, max(r[0] for r in batch))
            self._top_seq = max(self._top_seq, int(seqs.max()))
        return len(batch)

    def embedded(self, seqs: Iterable[int], max_vseq: int | None) -> set[int]:
        """Those of ``seqs`` that have a live vector here, within the snapshot ``max_vseq``."""
        wanted = np.array(sorted(seqs), dtype=np.int64)
        with self._lock:
            rows = self._rows_of(wanted)
            rows = rows[self._alive[rows]]
            if max_vseq is not None:
                rows = rows[self._vseq[rows] <= max_vseq]
            return {int(s) for s in self._seq[rows]}

    def places(self, seqs: Iterable[int]) -> dict[int, Place]:
        """Where those of ``seqs`` with a live row sit, from their rows: what the store's
        ``episode_places`` reads (an episode's session, window and namespace never change)."""
        wanted = np.array(sorted(seqs), dtype=np.int64)
        with self._lock:
            rows = self._rows_of(wanted)
            rows = rows[self._alive[rows]]
            names, sessions = self._names, self._session[rows].tolist()
            return {
                seq: Place(None if s < 0 else names[s], end, names[ns], start)
                for seq, s, end, ns, start in zip(
                    self._seq[rows].tolist(),
                    sessions,
                    self._end[rows].tolist(),
                    self._namespace[rows].tolist(),
                    self._start[rows].tolist(),
                    strict=True,
                )
            }

    def remove(self, seq: int) -> None:
        with self._lock:
            rows = self._rows_of(np.array([seq], dtype=np.int64))
            self._dead += int(self._alive[rows].sum())
            self._alive[rows] = False

    def _rows_of(self, seqs: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The rows holding ``seqs`` (those that have one), by binary search."""
        n = self._n
        if n == 0 or seqs.size == 0:
            return np.zeros(0, dtype=np.int64)
        if self._in_seq_order:
            order, keys = None, self._seq[:n]
            first = int(keys[0])
            if int(keys[n - 1]) - first == n - 1:
                # Every seq from the first to the last, once, in order: a seq's row is its
                # distance from the first (no binary search: ~0.3 ms a call at 1M rows).
                inside = (seqs >= first) & (seqs < first + n)
                dense: npt.NDArray[np.int64] = seqs[inside] - first
                return dense
        else:
            if self._order is None:
                self._order = np.argsort(self._seq[:n], kind="stable")
            order, keys = self._order, self._seq[:n][self._order]
        at = np.searchsorted(keys, seqs)
        inside = at < n
        at = at[inside]
        at = at[keys[at] == seqs[inside]]
        rows: npt.NDArray[np.int64] = at if order is None else order[at]
        return rows

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
        kinds and snapshot and ``max_vseq``; or, when SQL has already applied the whole
        filter, among the ``allowed`` seqs."""
        with self._lock:
            n = self._n
            if n == 0 or k <= 0:
                return []
            rows: npt.NDArray[np.int64] | None
            if allowed is not None:
                rows = self._rows_of(np.unique(np.asarray(allowed, dtype=np.int64)))
                keep = self._alive[rows]
                if max_vseq is not None:
                    keep &= self._vseq[rows] <= max_vseq
                rows = rows[keep]
            elif n > NUMPY_ROWS and self._every_row(flt, max_vseq):
                rows = None  # (at 1M rows, making the mask and its row list took ~3 ms)
            else:
                rows = np.flatnonzero(self._mask(flt, max_vseq))
            if rows is None:
                found_rows, found_sims = self._scan(query, k, None)
            elif rows.size == 0:
                return []
            elif rows.size <= NUMPY_ROWS:
                sims = self._decoded_scores(rows, query)
                k = min(k, rows.size)
                top = np.argpartition(-sims, k - 1)[:k]
                found_rows, found_sims = rows[top], sims[top]
            else:
                found_rows, found_sims = self._scan(query, k, rows if rows.size < n else None)
            order = np.lexsort((-self._seq[found_rows], -found_sims))
            return [(int(self._seq[found_rows[i]]), float(found_sims[i])) for i in order]

    def _every_row(self, flt: EpisodeFilter, max_vseq: int | None) -> bool:
        """Whether every row passes ``flt`` and the snapshot: none removed, no condition
        that can leave one out."""
        if self._dead or flt.namespace is not None or flt.kinds:
            return False
        if flt.start_us is not None or flt.end_us is not None:
            return False
        if flt.max_seq is not None and flt.max_seq < self._top_seq:
            return False
        return max_vseq is None or max_vseq >= self.max_vseq

    def _mask(self, flt: EpisodeFilter, max_vseq: int | None) -> npt.NDArray[np.bool_]:
        n = self._n
        mask = self._alive[:n].copy()
        if flt.namespace is not None:
            code = self._codes_of.get(flt.namespace)
            mask &= self._namespace[:n] == (-1 if code is None else code)
        if flt.start_us is not None:
            mask &= self._end[:n] >= flt.start_us
        if flt.end_us is not None:
            mask &= self._start[:n] <= flt.end_us
        if flt.kinds:
            codes = [self._codes_of[kd] for kd in flt.kinds if kd in self._codes_of]
            mask &= np.isin(self._kind[:n], codes)
        if flt.max_seq is not None:
            mask &= self._seq[:n] <= flt.max_seq
        if max_vseq is not None:
            mask &= self._vseq[:n] <= max_vseq
        return mask

    def _decoded_scores(self, rows: npt.NDArray[np.int64], query: Vector) -> Vector:
        """Exact inner products of ``query`` with the decoded codes of ``rows``: a code c
        stands for LOW + (c + 0.5) * (HIGH - LOW) / STEPS, so the product is affine in c."""
        codes = self._faiss.rev_swig_ptr(self._codes.codes.data(), self._n * self.dimension)
        matrix = codes.reshape(self._n, self.dimension)[rows].astype(np.float32)
        q = np.asarray(query, dtype=np.float32)
        step = (HIGH - LOW) / STEPS
        total = float(q.sum())
        scores: Vector = (matrix @ q) * step + (LOW + 0.5 * step) * total
        return scores

    def _scan(
        self, query: Vector, k: int, rows: npt.NDArray[np.int64] | None
    ) -> tuple[npt.NDArray[np.int64], Vector]:
        """faiss's scan of every code, restricted to ``rows`` (None: all) by a bitmap."""
        faiss = self._faiss
        params = None
        if rows is not None:
            bits = np.zeros(self._n, dtype=bool)
            bits[rows] = True
            bitmap = np.packbits(bits, bitorder="little")
            selector = faiss.IDSelectorBitmap(self._n, faiss.swig_ptr(bitmap))
            params = faiss.SearchParameters(sel=selector)
        q = np.asarray(query, dtype=np.float32).reshape(1, self.dimension)
        sims, found = self._codes.search(q, min(k, self._n), params=params)
        valid = found[0] >= 0
        return found[0][valid].astype(np.int64), sims[0][valid]
