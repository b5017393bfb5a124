"""A tantivy BM25 index over episodes: a cache of the database, caught up from a change log.

Why not FTS5 alone: a natural-language question's content words still match much of a large
corpus, and FTS5 scores every match (78 ms p50 at 100k episodes here, 87% of a search);
tantivy's block-max WAND skips what cannot reach the top (1.9 ms on such questions, measured).

Consistency: every change to what an episode's entry holds is appended to
``episode_text_changes`` in the episode's own transaction. ``sync`` applies the changes after
the index's watermark, then commits the documents together with a marker document holding
the last change applied, so index and watermark can never disagree; a crash only leaves
changes to apply again. A search first syncs, so it sees every episode added before it.
The index lives beside the database file (``<file>.text-index``), in memory for ``:memory:``.

One writer per index, any number of readers: a handle opens the index to read, and takes
tantivy's writer lock only when it has changes to apply (then keeps it until ``close``).
A handle that finds the lock held (a server, another process or handle) applies nothing:
it reloads to see what the holder applied, and a search it makes while the index is
behind the change log ranks with FTS5 instead (``ranking`` answers None); the holder's
next sync, or the next handle to take the lock, applies the changes from the log, so
nothing is lost and no caller sees the lock.
"""

from __future__ import annotations

import logging
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xdb.gcpause import collector_paused

if TYPE_CHECKING:
    from xdb.store.episode_protocol import EpisodeStore
    from xdb.store.types import EpisodeFilter, TextDocument

logger = logging.getLogger(__name__)

MARKER = "__watermark__"  # the kind of the one marker document
# Changes applied per commit: a commit (with its reload) cost ~60 ms at 5,000 here, and
# catching up after a 100k import made 40 of them; documents are ~1 kB of text.
BATCH = 50_000


EVERY_SEQ = 2**62  # a ``_top`` above every seq: delete before every add

UNION_IDS = 4096  # up to this many allowed ids, a union of term queries beats a term set
FEW_IDS = 256  # up to this many, the ids beat the index's own filter clauses


def _schema() -> Any:
    import tantivy

    sb = tantivy.SchemaBuilder()
    sb.add_integer_field("eid", stored=True, indexed=True, fast=True)
    sb.add_integer_field("change", stored=True)
    # Term frequencies without positions: questions are single terms (``text_ranking``: no
    # phrase), which BM25 scores from frequencies alone, and positions were ~47% of the
    # index's bytes (200k episodes here). An index made with positions is another schema:
    # ``TextIndex`` starts it again.
    sb.add_text_field("text", tokenizer_name="en_stem", index_option="freq")
    sb.add_text_field("ns", tokenizer_name="raw")
    sb.add_integer_field("start", indexed=True, fast=True)
    sb.add_integer_field("end", indexed=True, fast=True)
    sb.add_text_field("kind", tokenizer_name="raw")
    sb.add_text_field("concept", tokenizer_name="raw")  # concept_terms(): tags and labels
    return sb.build()


def concept_terms(doc: TextDocument) -> list[str]:
    """The ``concept`` field's terms: ``tag:<id>`` and ``tag:<kind>:<id>`` per concept tag,
    ``label:<id>`` per positive exemplar label."""
    out = [t for cid, kind in doc.tags for t in (f"tag:{cid}", f"tag:{kind}:{cid}")]
    return out + [f"label:{cid}" for cid in doc.positive]


def answers(flt: EpisodeFilter) -> bool:
    """Whether the index can apply all of ``flt`` itself: concept conditions at any score
    (a score threshold is SQL's), no label or session conditions."""
    labels = flt.label_concept or flt.label or flt.label_min_confidence
    return not (labels or flt.session_id) and all(c.min_score <= 0 for c in flt.concepts)


class TextIndex:
    def __init__(self, store: EpisodeStore, location: str | None) -> None:
        import tantivy

        self._store = store
        self._lock = threading.Lock()
        self.schema = _schema()
        if location is None:
            self._index = tantivy.Index(self.schema)
        else:
            path = Path(location)
            try:
                path.mkdir(parents=True, exist_ok=True)
                self._index = tantivy.Index(self.schema, path=str(path), reuse=True)
            except ValueError:
                # Unreadable or from another schema: it is a cache, so start it again.
                shutil.rmtree(path, ignore_errors=True)
                path.mkdir(parents=True)
                self._index = tantivy.Index(self.schema, path=str(path), reuse=False)
        self._writer: Any = None  # taken when there is something to apply
        # The highest episode seq the index holds, while this handle holds the writer (None:
        # not read yet). Seqs are never reused, so a seq above it was never indexed and
        # needs no delete before its add (an import's episodes: 100,000 deletes cost 0.4 s).
        self._top: int | None = None
        self._closed = False
        self._index.reload()
        self.applied = self._read_watermark()

    def close(self) -> None:
        """Release the index's writer lock, if held (another handle or process may take it)."""
        with self._lock:
            self._closed = True
            if self._writer is not None:
                self._writer.wait_merging_threads()  # consumes the writer, freeing the lock
                self._writer = None

    def _take_writer(self) -> bool:  # under self._lock
        """Hold the index's writer; False when another handle or process holds it."""
        if self._writer is not None:
            return True
        try:
            writer = self._index.writer(heap_size=64_000_000, num_threads=1)
        except ValueError as exc:  # "Failed to acquire Lockfile: LockBusy"
            logger.debug("text index writer held elsewhere: %s", exc)
            return False
        self._writer = writer
        writer.garbage_collect_files()
        # Whoever held it before may have applied changes since this handle last looked.
        self._index.reload()
        self.applied = self._read_watermark()
        self._top = None
        return True

    def _highest_seq(self) -> int:
        """The highest episode seq among the index's documents (0 when none)."""
        from tantivy import Query

        searcher = self._index.searcher()
        hits = searcher.search(Query.all_query(), 1, count=False, order_by_field="eid").hits
        return max(int(hits[0][0]), 0) if hits else 0

    def _read_watermark(self) -> int:
        from tantivy import Query

        searcher = self._index.searcher()
        hits = searcher.search(Query.term_query(self.schema, "kind", MARKER), 1).hits
        return int(searcher.doc(hits[0][1])["change"][0]) if hits else 0

    def sync(self, latest_change: int | None = None) -> int:
        """Apply the changes made before this call; how many were applied. (Changes that
        keep arriving meanwhile wait for the next sync: chasing them could never end.)
        ``latest_change``: the store's ``latest_text_change()``, when the caller has just
        read it with what it searches for (one round trip less on PostgreSQL)."""
        return self._synced(latest_change)[0]

    def _synced(self, latest_change: int | None) -> tuple[int, bool]:
        """``sync``, and whether the index is still behind the changes made before it (the
        writer is another's, which has not applied them yet)."""
        # The index serves every caller: it reads every episode's text, whoever's search
        # catches it up (through a restricted caller's views, a hidden episode would look
        # deleted).
        # (``_store`` is the database's, bound to no call: it reads every row.)
        return self._sync(latest_change)

    def _sync(self, latest_change: int | None) -> tuple[int, bool]:
        target = self._store.latest_text_change() if latest_change is None else latest_change
        with self._lock:
            if self._closed or self.applied >= target:
                return 0, False
            if not self._take_writer():
                # The holder applies the changes (it syncs before each of its searches, as
                # does the next handle to take the writer): see what it has applied so far.
                try:
                    self._index.reload()
                    self.applied = self._read_watermark()
                except ValueError as exc:  # a segment the holder merged away meanwhile
                    logger.debug("text index reload failed: %s", exc)
                return 0, self.applied < target
            try:
                with collector_paused():  # BATCH documents at a time (``xdb.gcpause``)
                    return self._apply(target), False
            except BaseException:
                # Adds of a failed commit may still be pending in the writer: delete before
                # every add again, as long as this handle holds it.
                self._top = EVERY_SEQ
                raise

    def _apply(self, target: int) -> int:  # under self._lock, holding the writer
        """Apply the changes up to ``target``; how many were applied."""
        import tantivy

        done = 0
        top = self._highest_seq() if self._top is None else self._top
        while self.applied < target:
            changes = [c for c in self._store.text_changes(self.applied, BATCH) if c[0] <= target]
            if not changes:
                return done
            latest: dict[int, Any] = {}
            for _, seq, doc in changes:
                latest[seq] = doc  # only an episode's last state matters
            for seq, doc in latest.items():
                if seq <= top:  # (above it, never indexed: nothing to delete)
                    self._writer.delete_documents_by_term("eid", seq)
                if doc is not None:
                    top = max(top, seq)
                    fields = {"concept": terms} if (terms := concept_terms(doc)) else {}
                    self._writer.add_document(
                        tantivy.Document(
                            eid=seq,
                            text=doc.text,
                            ns=doc.namespace,
                            start=doc.start_us,
                            end=doc.end_us,
                            kind=doc.kind,
                            **fields,
                        )
                    )
            last = changes[-1][0]
            self._writer.delete_documents_by_term("kind", MARKER)
            self._writer.add_document(tantivy.Document(eid=-1, change=last, kind=MARKER, text=""))
            self._writer.commit()
            self._index.reload()
            self.applied = last  # only now can a search see these changes
            self._top = top
            done += len(changes)
        return done

    def ranking(
        self,
        terms: Sequence[str],
        limit: int,
        flt: EpisodeFilter,
        allowed: Sequence[int] | None,
        latest_change: int | None = None,
    ) -> list[tuple[int, float]] | None:
        """Up to ``limit`` (seq, BM25) for episodes holding any of ``terms``, best first,
        among those passing ``flt``. ``allowed``, when given, is SQL's list of the episodes
        passing it: used when the index cannot apply ``flt`` itself, or when it is short.
        ``latest_change``: as for ``sync``. None when the index is behind the change log
        and another handle holds its writer (the caller ranks with FTS5 then)."""
        from tantivy import FieldType, Occur, Query

        # Waits for a sync in progress too, so the search sees what it applied.
        if self._synced(latest_change)[1]:
            return None
        words = " ".join(t for t in terms if t.isalnum())
        if not words:
            return []
        text = self._index.parse_query(words, ["text"])
        clauses = [(Occur.Must, text)]

        def only(query: Any) -> None:  # a condition that does not change the score
            clauses.append((Occur.Must, Query.const_score_query(query, 0.0)))

        if allowed is not None and (len(allowed) <= FEW_IDS or not answers(flt)):
            # SQL's allowlist already obeys every condition of the filter: the clauses
            # below would only add scans of the fast fields (about 1 ms at 100k).
            if not allowed:
                return []
            if len(allowed) <= UNION_IDS:
                # term_set_query walks the id field's term dictionary: 20 ms at 1M episodes
                # for 1,100 ids, against 11 ms for a union of one term query per id.
                ids = [(Occur.Should, Query.term_query(self.schema, "eid", s)) for s in allowed]
                only(Query.boolean_query(ids))
            else:
                only(Query.term_set_query(self.schema, "eid", list(allowed)))
        else:
            # The index applies the filter itself: a concept's posting list instead of a
            # union of the ids SQL found (that union took ~13 ms for 1,100 ids at 1M).
            for c in flt.concepts:
                wanted = []
                if c.as_tag:
                    kind = f"{c.kind}:" if c.kind else ""
                    wanted.append(f"tag:{kind}{c.concept_id}")
                if c.as_label:
                    wanted.append(f"label:{c.concept_id}")
                either = Query.boolean_query(
                    [(Occur.Should, Query.term_query(self.schema, "concept", t)) for t in wanted]
                )
                if c.absent:
                    clauses.append((Occur.MustNot, either))
                else:
                    only(either)
            if flt.namespace is not None:
                only(Query.term_query(self.schema, "ns", flt.namespace))
            if flt.start_us is not None:  # the episode's window overlaps [start_us, end_us]
                only(Query.range_query(self.schema, "end", FieldType.Integer, flt.start_us, 2**62))
            if flt.end_us is not None:
                only(
                    Query.range_query(self.schema, "start", FieldType.Integer, -(2**62), flt.end_us)
                )
            if flt.kinds:
                only(Query.term_set_query(self.schema, "kind", list(flt.kinds)))
            if flt.max_seq is not None:
                only(Query.range_query(self.schema, "eid", FieldType.Integer, 0, flt.max_seq))
        searcher = self._index.searcher()
        # The text alone when nothing filters: a disjunction at the top, which tantivy
        # prunes by block-max WAND (1M episodes, a bare question: 19 -> 16.5 ms). No count:
        # only the hits are read.
        query = text if len(clauses) == 1 else Query.boolean_query(clauses)
        hits = searcher.search(query, limit, count=False).hits
        seqs = searcher.fast_field_values("eid", [address for _, address in hits])
        return [(int(seq or 0), float(score)) for (score, _), seq in zip(hits, seqs, strict=True)]
