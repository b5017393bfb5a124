"""Copy a database from one store to another (SQLite to PostgreSQL and back).

The copy streams the source's export records (sessions, tags, timesteps, tag applications,
comments, episodes: the same records ``xdb export`` writes) into the target's import, which
runs in one transaction: a failed copy leaves the target as it was, and objects the target
already holds are skipped, so running a copy twice changes nothing. Afterwards the target is
exported and counted again, kind by kind, and the copy fails loudly if a count falls short.

The episodes' vectors travel with them (``vectors``, the default): each episode record
carries its vectors by model id, and the target stores them with the episode it inserts
(under the sequence number it assigns afresh), so its embedding worker embeds only the
episodes that had no vector from its model. Without them, the target's worker (or ``xdb
reindex``) makes them again: hours for a million episodes with the default model on CPU.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from xdb.core import Database
from xdb.errors import StoreError
from xdb.models.common import DeferredModel

HEADER = "xdb-export"


class MigrateResult(DeferredModel):
    source: str
    target: str
    copied: dict[str, int]  # records read from the source, per kind
    verified: dict[str, int]  # records the target holds afterwards, per kind


def _counts(db: Database) -> Counter[str]:
    counts: Counter[str] = Counter()
    for record in db.export_records():
        kind = str(record.get("kind"))
        if kind != HEADER:
            counts[kind] += 1
    return counts


def copy(
    source: Database,
    target: Database,
    on_record: Callable[[], None] | None = None,
    vectors: bool = True,
) -> MigrateResult:
    """Copy every record of ``source`` into ``target``; verify by counting both sides.
    ``on_record`` is called once per record read (a progress bar's update); ``vectors``:
    the episodes' vectors too (the source's whole export, as its file holder reads it)."""
    copied: Counter[str] = Counter()

    def records() -> Iterator[dict[str, Any]]:
        for record in source.export_records(vectors=vectors):
            kind = str(record.get("kind"))
            if kind != HEADER:
                copied[kind] += 1
            if on_record is not None:
                on_record()
            yield record

    target.import_records(records())
    verified = _counts(target)
    short = {kind: (n, verified[kind]) for kind, n in copied.items() if verified[kind] < n}
    if short:
        detail = ", ".join(f"{kind}: {have} of {n}" for kind, (n, have) in sorted(short.items()))
        raise StoreError(f"the copy is incomplete ({detail}); the target holds fewer records")
    return MigrateResult(
        source=source.store.location,
        target=target.store.location,  # a URL's password shows as ***
        copied=dict(copied),
        verified=dict(verified),
    )


def record_count(db: Database) -> int:
    """About how many records a copy of ``db`` reads: a progress bar's total."""
    stats = db.store.stats()
    sessions, _ = db.store.sessions(1)
    return int(
        sessions
        + sum(stats["tags_by_type"].values())
        + sum(stats["timesteps_by_fidelity"].values())
        + stats["tag_applications"]
        + stats["comments"]
        + db.store.episode_max_seq()  # deleted episodes make it an upper bound
        + sum(p.concept_count + 1 for p in db.store.concept_packs())
    )
