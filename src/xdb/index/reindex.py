"""Re-embed every episode with the current model, and drop the vectors of other models.

What the background worker does lazily (``xdb.index.embedding``), done at once and to the
end: after a model change, ``xdb reindex`` makes every episode vector-searchable again
before the first search needs it, and reclaims the space of the old model's vectors.

The handle's own worker does the embedding, so nothing is embedded twice in one process. It
reads its work from the database ("episodes without a vector from this model"), so other
processes' workers (or reindexes) may run beside it: a vector one of them stored first is
skipped by the others (the store ignores a second vector for the same episode and model),
and the walk ends when no episode lacks one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xdb.errors import StoreError
from xdb.store.types import EpisodeFilter

if TYPE_CHECKING:
    from xdb.core import Database

__all__ = ["episode_count", "reindex"]


def episode_count(db: Database) -> int:
    """How many episodes the database holds (a progress bar's total)."""
    return len(db.store.episode_seqs(EpisodeFilter()))


def reindex(db: Database, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Embed every episode lacking a vector from ``db``'s embedder, then delete the vectors
    of every other model.

    The handle's worker does the embedding (it began at open, when it found the backlog),
    walking again from the first episode; this waits for it to the end. ``progress`` is
    called with the number of episodes the handle embedded so far (since it opened, or
    since its last reindex), then after each batch with the batch's. Returns ``{"model",
    "episodes", "embedded", "dropped"}``: the model's id, the episodes held at the end,
    how many vectors the handle stored over the same span (the other episodes already had
    one, some perhaps from another process), and how many vectors of other models it
    deleted. Raises what the embedder raised, if it failed.
    """
    indexer = db.indexer
    indexer.model_id  # noqa: B018  a bad embedder spec fails here, before any work
    visited, stored = indexer.reindexed  # what an earlier call reported
    if not indexer.wait(None, progress, rescan=True, counted=visited):
        if indexer.error is not None:
            raise indexer.error
        raise StoreError(f"embedding failed: {indexer.failure}")
    model = indexer.model_id  # the embedder's own, now that it is made
    # Only now: until every episode has a new vector, the old ones still serve searches
    # from processes that run the old model.
    dropped = db.store.drop_other_vectors(model)
    indexer.reindexed = (indexer.visited, indexer.stored)
    return {
        "model": model,
        "episodes": episode_count(db),
        "embedded": indexer.stored - stored,
        "dropped": dropped,
    }
