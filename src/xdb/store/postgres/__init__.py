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
- numbers (seq, vseq, change) never come back after a delete, and a rolled-back write
  or skipped import row may leave a gap; query cursors stay opaque either way;
- ``stats()["bytes"]`` is the whole database, PostgreSQL's catalogs included.
"""

from xdb.store.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
