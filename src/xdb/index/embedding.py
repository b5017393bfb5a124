"""Embeds episodes off the write path and keeps the vector index current.

``add_episode`` only writes the row (text-searchable at once) and wakes this worker. The
worker embeds every episode that has no vector from the current model, oldest first, in
batches, stores the vectors in the database, then adds them to the in-memory index. Because
the work to do is read from the database ("episodes without a vector from this model"), a
crash between writing an episode and embedding it loses nothing: the next worker finds it.
A model change works the same way: episodes lacking the new model's vectors get embedded,
and searches only ever use the current model's vectors.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xdb.embed.protocol import Embedder
    from xdb.index.text import TextIndex
    from xdb.index.vectors import VectorIndex
    from xdb.store.protocol import EpisodeFilter

logger = logging.getLogger(__name__)

BATCH = 64
PREFIX_CHARS = 2000  # what gets embedded: MiniLM reads 256 tokens, ~1,000-1,500 characters


def embedding_text(summary: str, content: str) -> str:
    """The text a vector is made from: the summary, then the content, as a bounded prefix."""
    if content.startswith(summary):
        return content[:PREFIX_CHARS]
    return f"{summary}\n{content}"[:PREFIX_CHARS]


class Indexer:
    def __init__(self, store: Any, embedder: Callable[[], Embedder]) -> None:
        self._store = store
        self._make_embedder = embedder
        self._embedder: Embedder | None = None
        self._index: VectorIndex | None = None
        self._lock = threading.Lock()
        self._wake = threading.Condition()
        self._pending = True  # there may be episodes to embed
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self.failure: str | None = None  # the last embedding error, for status
        self._text: TextIndex | None = None
        self._text_failed = False
        self._embedded_up_to: dict[str, int] = {}  # per model: the last seq given a vector

    @property
    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                self._embedder = self._make_embedder()
            return self._embedder

    def index(self) -> VectorIndex:
        """The vector index of the current model, loaded on first use and caught up."""
        from xdb.index.vectors import VectorIndex  # numpy: only once episodes are searched

        embedder = self.embedder
        with self._lock:
            if self._index is None:
                self._index = VectorIndex(embedder.model_id, embedder.dimension)
            index = self._index
        index.add(self._store.load_vectors(index.model, index.max_vseq))
        return index

    def text_ranking(
        self,
        flt: EpisodeFilter,
        terms: Sequence[str],
        limit: int,
        allowed: Sequence[int] | None,
        latest_change: int | None = None,
    ) -> list[tuple[int, float]] | None:
        """BM25 from the tantivy index, or None when it cannot serve (then FTS5 does).
        ``allowed``: the episodes SQL says match (see ``EpisodeFilter.needs_allowlist``);
        ``latest_change``: the store's text change-log head, when just read with them."""
        index = self._text_index()
        if index is None:
            return None
        return index.ranking(terms, limit, flt, allowed, latest_change)

    def _text_index(self) -> TextIndex | None:
        with self._lock:
            if self._text is None and not self._text_failed:
                try:
                    from xdb.index.text import TextIndex

                    # On PostgreSQL each process keeps its own index in memory, caught up
                    # from the shared change log (commit-ordered, so safe with many writers).
                    on_disk = self._store.backend == "sqlite" and not self._store.memory
                    location = f"{self._store.location}.text-index" if on_disk else None
                    self._text = TextIndex(self._store, location)
                except Exception as exc:  # e.g. another process holds the index's writer
                    self._text_failed = True
                    logger.warning("text index unavailable, searching with FTS5: %s", exc)
            return self._text

    def forget(self, seq: int) -> None:
        """An episode was deleted: drop its row from the loaded index, if any."""
        if self._index is not None:
            self._index.remove(seq)

    def notify(self) -> None:
        """New episodes may need vectors: start or wake the worker."""
        with self._wake:
            if self._closed:
                return
            self._pending = True
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="xdb-embedder", daemon=True)
                self._thread.start()
            self._wake.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the worker has nothing left to do (or the timeout). True when every
        episode has a vector; False on timeout or when embedding failed (see ``failure``)."""
        self.notify()
        with self._wake:
            idle = self._wake.wait_for(
                lambda: self._closed or not (self._pending or self._busy), timeout
            )
        return idle and self.failure is None

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join()
        if self._text is not None:
            self._text.close()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._pending and not self._closed:
                    self._wake.wait()
                if self._closed:
                    return
                self._pending = False
                self._busy = True
            try:
                if self._text is not None:
                    self._text.sync()  # keep searches from paying for the commit
                while not self._closed and self._embed_batch():
                    pass
                self.failure = None
            except Exception as exc:
                # The database keeps the episodes; the next add or search retries them.
                self.failure = f"{type(exc).__name__}: {exc}"
                logger.warning("embedding episodes failed, will retry: %s", self.failure)
            finally:
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()

    def _embed_batch(self) -> bool:
        embedder = self.embedder
        model = embedder.model_id
        # Walk forward from the last episode embedded: new episodes always get higher seqs,
        # and rescanning from the first one made a 1M-episode backlog quadratic.
        todo = self._store.missing_vectors(model, BATCH, self._embedded_up_to.get(model, 0))
        if not todo:
            return False
        vectors = embedder.embed([embedding_text(summary, content) for _, summary, content in todo])
        rows = [(seq, vectors[i].astype("float32").tobytes()) for i, (seq, _, _) in enumerate(todo)]
        self._store.store_vectors(model, rows)
        self._embedded_up_to[model] = todo[-1][0]  # only once stored: a failure retries
        if self._index is not None:
            self.index()  # pull the new vectors into the loaded index
        return True
