"""The shared store: PostgreSQL with pgvector, for several processes and machines at once.

Distribution (ready for Citus, not yet distributed): every large table carries its
distribution column in its primary key, so ``create_distributed_table`` can shard it
without a schema change, and rows that are read together live on one shard.

- ``sessions``, ``timesteps``, ``tag_applications``, ``comments``: by ``session_id``. The
  log is written and read per session (ticks, events, ranges, tag coverage all stay inside
  one session), so a record, a tag check and a session's query stay on one shard.
- ``episodes``, ``episode_concepts``, ``episode_labels``, ``episode_vectors``,
  ``episode_text_changes``: by ``namespace`` (an agent's memory), co-located, with the
  foreign keys and cascades on (namespace, seq).
- ``tags``: small and shared by every session, a reference table.

Searches without a namespace or session filter fan out to every shard; ``seq`` and ``id``
stay unique by construction (sequences, ULIDs) rather than by a global unique index.

Where answers differ from the SQLite store's (the contract suite in ``tests/store`` holds
both to the same answers everywhere else):

- text ranking: ``ts_rank`` with Snowball stemming, not FTS5's BM25 with Porter's: the
  same episodes match, in a possibly different order (``unaccent`` also folds ß and æ);
- values PostgreSQL cannot hold (NUL characters, integers beyond 64 bits, NaN or empty
  vectors) are an InvalidRequest, where SQLite stores them (or raises OverflowError);
- a rolled-back write or a skipped import row may leave a gap in the numbers (seq, vseq,
  change) that SQLite's would not have; neither store ever hands a number out twice;
- vector search: this store ranks in SQL (pgvector HNSW, ``vector_search``: exact
  float32 cosine, approximate candidates), SQLite's searches use the in-memory index
  (8-bit codes, exact scan); the same episodes come back, near ties may swap; a model's
  vectors must all have one dimension here;
- ``stats()["bytes"]`` is the whole database, PostgreSQL's catalogs included.
"""

from xdb.store.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
