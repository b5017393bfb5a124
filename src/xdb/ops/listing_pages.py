"""Pages of stored objects in the order they were made, (created_us, id), for listings whose
rows each name a concept: a restricted caller's page and count leave out the rows about
concepts it may not see (the whole listing is read and filtered, so that the count carries
nothing of them); anyone else pages in SQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

from xdb.models.common import Page
from xdb.ops import cursor
from xdb.ops.registry import Context

EVERY = 1 << 62


class Made(Protocol):
    created_us: int
    id: str


T = TypeVar("T", bound=Made)


def made_order_page(
    ctx: Context,
    page: Page,
    filters: dict[str, Any],
    fetch: Callable[[tuple[int, str] | None, int], tuple[list[T], int]],
    concept_of: Callable[[T], str],
) -> tuple[list[T], int, str | None]:
    """(the page, how many match in all, the next cursor). ``fetch(after, limit)`` reads
    rows after a (created_us, id) position and the count; ``filters`` are what the cursor is
    bound to."""
    digest = cursor.digest(filters)
    after = None
    if page.cursor is not None:
        at, key = cursor.decode(page.cursor, digest, "page.cursor")
        after = (int(at), str(key))
    size = page.page_size
    if ctx.view.restricted:
        every, _ = fetch(None, EVERY)
        shown = [r for r in every if ctx.view.visible(concept_of(r))]
        total = len(shown)
        if after is not None:
            shown = [r for r in shown if (r.created_us, r.id) > after]
        rows = shown[: size + 1]
    else:
        rows, total = fetch(after, size + 1)
    more = len(rows) > size
    rows = rows[:size]
    nxt = cursor.encode([rows[-1].created_us, rows[-1].id], digest) if more and rows else None
    return rows, total, nxt


def every_member(ctx: Context, dataset_id: str, batch: int = 5000) -> Iterator[dict[str, Any]]:
    """A dataset's members (of those the caller reads), in order, a batch at a time."""
    after = -1
    while page := ctx.store.dataset_members(dataset_id, after, batch):
        after = page[-1]["position"]
        yield from page
