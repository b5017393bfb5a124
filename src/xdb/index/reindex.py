"""Re-embed every episode with the current model, and drop the vectors of other models.

What the background worker does lazily (``xdb.index.embedding``), done at once and to the
end: after a model change, ``xdb reindex`` makes every episode vector-searchable again
before the first search needs it, and reclaims the space of the old model's vectors.

It reads its work from the database ("episodes without a vector from this model") exactly as
the worker does, so the two may run side by side: a vector one of them stored first is
skipped by the other (the store ignores a second vector for the same episode and model), and
the loop ends when no episode lacks one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xdb.index.embedding import BATCH, embedding_text
from xdb.store.protocol import EpisodeFilter

if TYPE_CHECKING:
    from xdb.core import Database

__all__ = ["episode_count", "reindex"]


def episode_count(db: Database) -> int:
    """How many episodes the database holds (a progress bar's total)."""
    return len(db.store.episode_seqs(EpisodeFilter()))


def reindex(db: Database, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Embed every episode lacking a vector from ``db``'s embedder, in batches, then delete
    the vectors of every other model.

    ``progress`` is called after each batch with the number of episodes it embedded.
    Returns ``{"model", "episodes", "embedded", "dropped"}``: the model's id, the episodes
    held at the end, how many this call embedded (the others already had a vector), and how
    many vectors of other models it deleted.
    """
    embedder = db.indexer.embedder
    model = embedder.model_id
    embedded = 0
    after = 0  # walk forward: new episodes always get higher seqs
    while todo := db.store.missing_vectors(model, BATCH, after):
        after = todo[-1][0]
        vectors = embedder.embed([embedding_text(summary, content) for _, summary, content in todo])
        rows = [(seq, vectors[i].astype("float32").tobytes()) for i, (seq, _, _) in enumerate(todo)]
        # A 0 vseq: the worker stored that episode's vector first, or it was deleted.
        stored = sum(1 for vseq in db.store.store_vectors(model, rows) if vseq)
        embedded += stored
        if progress is not None:
            progress(len(todo))
    # Only now: until every episode has a new vector, the old ones still serve searches
    # from processes that run the old model.
    dropped = db.store.drop_other_vectors(model)
    return {
        "model": model,
        "episodes": episode_count(db),
        "embedded": embedded,
        "dropped": dropped,
    }
