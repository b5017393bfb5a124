"""The shared store: PostgreSQL with pgvector, for several processes and machines at once.

Distribution (ready for Citus, not yet distributed): every table declares its place beside
its DDL (``xdb.store.placement``): distributed by ``session_id`` (the log), by
``namespace`` (episodes and what hangs on them) or by ``dataset_id``, a reference table, or
local to the coordinator. Each distributed table carries its column in every unique key,
so ``create_distributed_table`` shards it without a schema change, and rows read together
share it. ``citus`` checks a live schema against the places and writes the plan into
docs/scaling.md; ``seq`` and ``id`` stay unique by construction (sequences, ULIDs) rather
than by a global unique index.

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
