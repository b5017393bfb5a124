"""Embeds episodes off the write path and keeps the vector index current.

``add_episode`` only writes the row (text-searchable at once) and wakes this worker. The
worker embeds every episode that has no vector from the current model, oldest first, in
batches, stores the vectors in the database, then adds them to the in-memory index. Because
the work to do is read from the database ("episodes without a vector from this model"), a
crash between writing an episode and embedding it loses nothing: the next worker finds it.
A model change works the same way: episodes lacking the new model's vectors get embedded,
and searches only ever use the current model's vectors.

The rule for a handle's life (``Database`` starts and closes its ``Indexer``):

- **Open resumes.** The worker starts with the handle and first looks for a backlog, any
  process's: two counts over indexes (``Store.vector_counts``: episodes, and those with a
  vector from the model), with the model's id worked out from its spec
  (``xdb.embed.model_id``), so neither numpy nor the model loads unless there is work.
  The backlog's episodes can be anywhere (new episodes go first, below), so its walk
  starts at the first episode, once; each batch goes on from where the last one ended.
- **New episodes first.** Episodes written since the handle opened (seq above the newest
  one it found at open: its own, and any other process's meanwhile) are embedded before
  the backlog it found, so that a script's own episodes never queue behind an old backlog.
- **Close waits for what the handle wrote, within a bound.** A handle that added episodes
  waits in ``close`` until every episode written since it opened has a vector, for at most
  ``embed_wait`` seconds (``XDB_EMBED_WAIT``, default 30), then stops the worker. A handle
  that added none (``xdb status``, a search) does not wait for a backlog someone else left:
  the worker stops after the step in flight. ``close`` returns how many episodes it left
  without a vector, and warns when a handle that wrote leaves some (the next process to
  open the database resumes them, or ``xdb reindex`` embeds them now).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdb.errors import InvalidRequest

if TYPE_CHECKING:
    from xdb.embed.embedder import Embedder
    from xdb.index.in_memory_vectors import VectorIndex
    from xdb.index.tantivy_index import TextIndex
    from xdb.store.protocol import Store
    from xdb.store.types import EpisodeFilter

logger = logging.getLogger(__name__)

BATCH = 64
PREFIX_CHARS = 2000  # what gets embedded: MiniLM reads 256 tokens, ~1,000-1,500 characters
# How long close() waits for the episodes a handle wrote to get vectors. MiniLM embeds
# ~70 episodes/s on a 2-core machine, so 30 s covers a script's ~2,000 episodes (loading
# the model takes ~1 s of it), while a process stopped by a huge backlog is not mistaken
# for a hung one; the rest is picked up by the next process that opens the database.
DEFAULT_WAIT = 30.0
WAIT_VARIABLE = "XDB_EMBED_WAIT"


def embedding_text(summary: str, content: str) -> str:
    """The text a vector is made from: the summary, then the content, as a bounded prefix."""
    if content.startswith(summary):
        return content[:PREFIX_CHARS]
    return f"{summary}\n{content}"[:PREFIX_CHARS]


def embed_wait(given: float | None = None) -> float:
    """Seconds close() waits for embeddings: ``given``, else ``XDB_EMBED_WAIT``, else 30."""
    field, shown, value = "embed_wait", repr(given), math.nan
    if given is None:
        text = os.environ.get(WAIT_VARIABLE, "").strip()
        if not text:
            return DEFAULT_WAIT
        field, shown = WAIT_VARIABLE, repr(text)
        with contextlib.suppress(ValueError):
            value = float(text)
    elif isinstance(given, int | float) and not isinstance(given, bool):
        value = float(given)
    if not value >= 0:  # NaN too
        raise InvalidRequest(
            f"{field} must be a number of seconds >= 0, or inf (got {shown})", field=field
        )
    return value


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class Indexer:
    """The embedding worker of one handle (see the module's docstring for its rule)."""

    def __init__(
        self,
        store: Store,
        embedder: Callable[[], Embedder],
        model_id: Callable[[], str] | None = None,
    ) -> None:
        self._store = store.unbound  # every row, whoever's call wakes it
        self._make_embedder = embedder
        # The model's id without making the embedder (``xdb.embed.model_id``); without
        # one, the embedder is made to ask it.
        self._model_id_of = model_id
        self._model: str | None = None
        self._embedder: Embedder | None = None
        self._index: VectorIndex | None = None
        self._lock = threading.Lock()
        self._wake = threading.Condition()
        self._pending = False  # there may be episodes to embed
        self._busy = False
        self._looking = False  # the worker's first look for a backlog is under way
        self._closed = False
        self.stopping = threading.Event()  # set when close() stops the worker
        self._thread: threading.Thread | None = None
        self.failure: str | None = None  # the last embedding error, for status
        self.error: Exception | None = None  # that error itself, for a caller to raise
        self._text: TextIndex | None = None
        self._text_failed = False
        # Per model: where the forward walk goes on from (every episode up to it has a
        # vector). Resuming sets it from the store; ``rescan`` starts again from 0.
        self._cursor: dict[str, int] = {}
        # The newest episode when the worker first looked (None until then, 0 when it could
        # not look): the episodes above it are new since open and are embedded first, from
        # their own cursor; ``_fresh_done`` says none of them lacks a vector.
        self._opened_newest: int | None = None
        self._fresh_cursor: dict[str, int] = {}
        self._fresh_done = False
        self._notified = 0  # writes announced (``notify``): a look begun before may miss one
        self._rescan = False
        self._wrote = False  # episodes were written through this handle: close waits
        self._caught_up = False  # the worker's last look found no episode without a vector
        self._interrupted = False  # a wait was interrupted (Ctrl-C): close does not wait
        self.visited = 0  # episodes this worker has embedded (a progress bar's count)
        # ``visited`` after each batch, so that a waiter that wakes late still reports the
        # batches one by one rather than as one lump.
        self._batch_ends: deque[int] = deque(maxlen=4096)
        self.stored = 0  # vectors it stored (less when another process stored some first)
        self.reindexed = (0, 0)  # (visited, stored) when the last reindex returned
        self.left: int | None = None  # set by close(): episodes it left without a vector

    @property
    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                self._embedder = self._make_embedder()
                self._model = self._embedder.model_id  # the embedder's own word wins
            return self._embedder

    @property
    def model_id(self) -> str:
        """The current model's id, found without loading it (or numpy). Raises what making
        the embedder would (a bad ``XDB_EMBEDDER``, an ``openai`` spec without its URL)."""
        model = self._model
        if model is None:
            model = self._model_id_of() if self._model_id_of is not None else None
            if model is None:
                model = self.embedder.model_id
            self._model = model
        return model

    def index(self) -> VectorIndex:
        """The vector index of the current model, loaded on first use and caught up."""
        # numpy: only once episodes are searched
        from xdb.index.in_memory_vectors import VectorIndex

        embedder = self.embedder
        with self._lock:
            if self._index is None:
                self._index = VectorIndex(embedder.model_id, embedder.dimension)
            index = self._index
        # The index serves every caller: it loads every vector, whoever's search loads it
        # (a restricted caller's ranking is cut to what it reads by SQL's allowlist).
        # (``_store`` is the database's, bound to no call: it reads every row.)
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
                    from xdb.index.tantivy_index import TextIndex

                    # Without a path (PostgreSQL) each process keeps its own index in
                    # memory, caught up from the shared, commit-ordered change log.
                    self._text = TextIndex(self._store, self._store.text_index_path)
                except Exception as exc:  # e.g. another process holds the index's writer
                    self._text_failed = True
                    logger.warning("text index unavailable, searching with FTS5: %s", exc)
            return self._text

    def forget(self, seq: int) -> None:
        """An episode was deleted: drop its row from the loaded index, if any."""
        if self._index is not None:
            self._index.remove(seq)

    # ------------------------------------------------------------------ the worker's life

    def start(self) -> None:
        """Start the worker: it looks for episodes any process left without a vector and
        embeds them in the background (at open; cheap when there are none)."""
        try:
            # Here, not in the worker: an episode this handle writes must count as new.
            newest = self._store.episode_max_seq()
        except Exception as exc:  # a failing store: every episode counts as new
            logger.debug("no newest episode at open: %s", _describe(exc))
            newest = 0
        with self._wake:
            self._opened_newest = newest
            self._start()

    def notify(self) -> None:
        """Episodes were written: start or wake the worker. ``close`` waits for them."""
        self._wrote = True
        with self._wake:
            self._notified += 1
            self._fresh_done = False
        self._kick()

    def _kick(self, rescan: bool = False) -> None:
        with self._wake:
            if self._closed:
                return
            self._pending = True
            self._caught_up = False
            self._rescan = self._rescan or rescan
            self._start()
            self._wake.notify_all()

    def _start(self) -> None:  # under self._wake
        if self._thread is None and not self._closed:
            self._looking = True
            self._thread = threading.Thread(target=self._run, name="xdb-embedder", daemon=True)
            self._thread.start()

    def wait(
        self,
        timeout: float | None = None,
        progress: Callable[[int], None] | None = None,
        *,
        rescan: bool = False,
        counted: int | None = None,
        wake: bool = True,
        fresh: bool = False,
    ) -> bool:
        """Block until the worker has nothing left to do (or the timeout). True when every
        episode has a vector; False on timeout or when embedding failed (see ``failure``).

        ``progress`` is called from this thread with the number of episodes embedded since
        its last call, after each batch; ``counted``: how many of the episodes this worker
        embedded before (``visited``) it has heard of already (default: all). ``rescan``:
        walk from the first episode instead of from where the worker is, so that an
        episode skipped by any means gets its vector (``xdb reindex``). ``wake=False``
        only watches the worker (what it found at open, what it was woken for) without
        waking it, so that it does no more than it would have done anyway. ``fresh``: wait
        only until the episodes written since open have vectors, not the older backlog."""
        if timeout is not None and math.isinf(timeout):
            timeout = None
        deadline = None if timeout is None else time.monotonic() + timeout
        if wake:
            self._kick(rescan)
        cond = self._wake
        try:
            with cond:
                seen = self.visited if counted is None else counted
                began = self.visited  # what was done before is reported as one number

                def finished() -> bool:
                    return self._fresh_caught_up() if fresh else self._idle()

                def ready() -> bool:
                    moved = progress is not None and self.visited != seen
                    return self._closed or finished() or moved

                while True:
                    left = None if deadline is None else max(0.0, deadline - time.monotonic())
                    in_time = cond.wait_for(ready, left)
                    if progress is not None and self.visited != seen:
                        ends = [began] if seen < began else []
                        ends += [e for e in self._batch_ends if max(seen, began) < e < self.visited]
                        ends.append(self.visited)
                        cond.release()
                        try:
                            for end in ends:
                                progress(end - seen)
                                seen = end
                        finally:
                            cond.acquire()
                    idle = finished()
                    if not in_time or self._closed or idle:
                        return in_time and (self._closed or idle) and self.failure is None
        except BaseException:
            self._interrupted = True  # e.g. Ctrl-C: close() then leaves at once
            raise

    def _idle(self) -> bool:  # under self._wake
        return not (self._pending or self._busy or self._looking)

    def _fresh_caught_up(self) -> bool:  # under self._wake
        return self._idle() or (not self._looking and self._fresh_done)

    def close(self, wait: float = 0.0) -> int:
        """Stop the worker; return how many episodes are left without a vector.

        When episodes were written through this indexer, first wait up to ``wait`` seconds
        for every episode to get one (``inf``: as long as it takes). Otherwise the worker
        stops after the step in flight: a handle that only read leaves the backlog it found
        to the next process. Warns when episodes this handle wrote are left."""
        with self._wake:
            if self._closed:
                return self.left or 0
            owed = self._wrote and not self._interrupted
        started = time.monotonic()
        try:
            if owed and wait > 0:
                self.wait(wait, fresh=True)
        finally:
            with self._wake:
                self._closed = True
                self.stopping.set()
                self._wake.notify_all()
            if self._thread is not None:
                self._thread.join()
            if self._text is not None:
                self._text.close()
        self.left = self.count_left()
        if self.left:
            self._say_left(owed, time.monotonic() - started, wait)
        return self.left

    def count_left(self, store: Store | None = None) -> int:
        """Episodes without a vector from the current model: none if the worker's last
        look found none, else two counts over indexes, through ``store`` (a call's: what it
        may read; by default the database's, every episode)."""
        if self._caught_up and self.failure is None:
            return 0
        try:
            try:
                model = self.model_id
            except Exception:
                model = ""  # no model can be made: no episode can get a vector
            episodes, vectors = (store or self._store).vector_counts(model)
            return int(episodes - vectors)
        except Exception as exc:  # the store failed: nothing to count with
            logger.warning("could not count the episodes left without vectors: %s", exc)
            return 0

    def _say_left(self, owed: bool, waited: float, wait: float) -> None:
        why = f" (embedding failed: {self.failure})" if self.failure else ""
        if not owed:
            # Someone else's backlog, or this handle's wait was interrupted: no warning
            # for a handle that wrote nothing (every `xdb status` would print one).
            level, how = (logging.INFO, "this handle added none, so close did not wait")
            if self._interrupted:
                level, how = logging.WARNING, "the wait for them was interrupted"
        else:
            level = logging.WARNING
            how = f"close waited {waited:.1f} s of at most {wait:g} s ({WAIT_VARIABLE})"
        logger.log(
            level,
            "%d episode(s) left without a vector%s; %s. The next process that opens %s embeds"
            " them in the background, or run `xdb reindex` to embed them now",
            self.left,
            why,
            how,
            self._store.location,
        )

    def coverage(self, store: Store) -> tuple[str | None, int, int, str | None]:
        """(model, episodes, episodes with its vector, last failure) for status, counted
        through ``store`` (a call's: what it may read): counts over indexes, the model's id
        without loading it; model None when none can be made."""
        failure = self.failure
        try:
            model: str | None = self.model_id
        except Exception as exc:
            model, failure = None, _describe(exc)
        episodes, vectors = store.vector_counts(model or "")
        return model, int(episodes), int(vectors) if model else 0, failure

    def _resume(self) -> None:
        """The worker's first step: is there a backlog, left by any process?"""
        found: tuple[str, int, int] | None = None
        try:
            if not self._closed:
                model = self.model_id
                found = (model, *self._store.vector_counts(model))
        except Exception as exc:
            # A misconfigured embedder or a failing store: the first add, search or wait
            # meets it again and says so.
            logger.debug("not resuming embedding: %s", _describe(exc))
        with self._wake:
            self._looking = False
            if found is not None:
                model, episodes, vectors = found
                if episodes > vectors:
                    self._pending = True
                elif not self._pending:
                    self._caught_up = True
            self._wake.notify_all()

    def _run(self) -> None:
        self._resume()
        while True:
            with self._wake:
                while not self._pending and not self._closed:
                    self._wake.wait()
                if self._closed:
                    return
                self._pending = False
                self._busy = True
                self._caught_up = False
            caught_up = False
            try:
                text = self._text
                if text is None and self._wrote and self._store.text_index_path is not None:
                    # Episodes written here (an import's 100k, say) go into the file's text
                    # index now, in bulk, rather than at the first search, which paid ~40 s
                    # for 1M. (Without a file, PostgreSQL's, each process builds its own
                    # index in memory: only one that searches needs it.)
                    text = self._text_index()
                if text is not None:
                    text.sync()  # keep searches from paying for the commit
                while not self._closed:
                    if not self._embed_batch():
                        caught_up = True
                        break
                self.failure = self.error = None
            except Exception as exc:
                # The database keeps the episodes; the next add, search or wait retries.
                self.error = exc
                self.failure = _describe(exc)
                logger.warning("embedding episodes failed, will retry: %s", self.failure)
            finally:
                with self._wake:
                    self._busy = False
                    self._caught_up = caught_up and not self._pending
                    self._wake.notify_all()

    def _embed_batch(self) -> bool:
        """Embed the next batch; False when no episode lacks a vector. Returns True without
        embedding when close() came while the embedder was being made."""
        model = self.model_id
        with self._wake:
            if self._rescan:
                self._rescan = False
                self._cursor[model] = 0
            opened, looked_after = self._opened_newest or 0, self._notified
            fresh_after = max(self._fresh_cursor.get(model, opened), opened)
        # Walk forward from the last episode embedded: new episodes always get higher seqs,
        # and rescanning from the first one made a 1M-episode backlog quadratic. Episodes
        # new since open first, then the backlog found at open.
        todo = self._store.missing_vectors(model, BATCH, fresh_after)
        fresh = bool(todo)
        if not fresh:
            with self._wake:
                if self._notified == looked_after:  # else close would leave a new one out
                    self._fresh_done = True
                    self._wake.notify_all()
            todo = self._store.missing_vectors(model, BATCH, self._cursor.get(model, 0))
        if not todo:
            return False
        embedder = self.embedder  # the first time: numpy and the model's code load
        if self._closed:
            return True
        if embedder.model_id != model:
            return True  # the spec's id was not the embedder's: walk again with the latter
        vectors = embedder.embed([embedding_text(summary, content) for _, summary, content in todo])
        rows = [(seq, vectors[i].astype("float32").tobytes()) for i, (seq, _, _) in enumerate(todo)]
        vseqs = self._store.store_vectors(model, rows)
        with self._wake:
            # Only once stored: a failure retries.
            (self._fresh_cursor if fresh else self._cursor)[model] = todo[-1][0]
            self.visited += len(todo)
            self._batch_ends.append(self.visited)
            self.stored += sum(1 for vseq in vseqs if vseq)
            self._wake.notify_all()
        if self._index is not None:
            self.index()  # pull the new vectors into the loaded index
        return True
