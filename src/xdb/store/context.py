"""The context an episode is text-indexed with besides its own words, in both stores.

A turn of a conversation rarely repeats what it answers: "Yes, last Tuesday!" is found by
the question before it. Indexing each episode with its date words and its session
neighbours' words (measured on LoCoMo: BM25 turn recall@10 0.678 -> 0.803) lets a
question find the turn that answers it. A context is a function of the episode and its
neighbours: PostgreSQL keeps it in ``episodes.context``; SQLite makes it when it needs it
(``sqlite/episode_texts``), telling its text index exactly what was indexed.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from xdb.timeutil import from_us

# How much of a neighbour's content joins an episode's context in the text index.
CONTEXT_CHARS = 1000

# Episodes without a session are each other's neighbours when they share a namespace and
# start within this of each other: the 30 minutes of inactivity that web analytics has long
# used to end a visit. A conversation logged turn by turn stays together; yesterday's does
# not join today's.
SESSION_GAP_US = 30 * 60 * 1_000_000


DAY_US = 86_400_000_000
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def date_words(us: int) -> str:
    """ "8 May 2023": how people ask about dates ("when did ... in May?")."""
    return _day_words(us // DAY_US)


@lru_cache(maxsize=4096)
def _day_words(day_number: int) -> str:
    """``date_words`` of a UTC day (days since the epoch): an import's episodes share days,
    and each context is made again for every neighbour that changes it."""
    day = from_us(day_number * DAY_US)
    # The month's English name whatever the locale: SQLite's view of contexts
    # (``sqlite/episode_texts``) writes the same words, and FTS5 must be told exactly them.
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def context(start_us: int, neighbours: Iterable[str]) -> str:
    """An episode's context: its date words, then each neighbour's content, cut short (and
    at a NUL, where SQLite's ``substr`` stops: its view of contexts must make the same)."""
    return " ".join(
        [date_words(start_us), *(text.partition("\0")[0][:CONTEXT_CHARS] for text in neighbours)]
    )


def place_key(namespace: str, session_id: str | None) -> tuple[str, str]:
    """What an episode's neighbours share: its session, or, without one, its namespace."""
    return ("session", session_id) if session_id is not None else ("namespace", namespace)


def close_enough(session_id: str | None, start_us: int, other_start_us: int) -> bool:
    """Whether two episodes next to each other in one place are neighbours: always in a
    session, within ``SESSION_GAP_US`` without one."""
    return session_id is not None or abs(start_us - other_start_us) <= SESSION_GAP_US


class Placed(NamedTuple):
    """An episode as the context planner sees it."""

    seq: int
    namespace: str
    session_id: str | None
    start_us: int
    content: str  # its first CONTEXT_CHARS characters suffice: a neighbour takes no more


class Plan(NamedTuple):
    """What inserting a batch does to contexts (``plan_inserts``)."""

    contexts: dict[int, str]  # by seq: the final context of each one whose context changed
    before: dict[int, str]  # by seq: a stored one of those, its context before the batch
    log: list[tuple[str, int]]  # the text changes to log, as (namespace, seq)


def plan_inserts(nearby: Iterable[Placed], new: Sequence[Placed]) -> Plan:
    """What inserting ``new`` one at a time, in order, does to contexts, without asking the
    database after each insert (``insert`` there costs ~10 round trips an episode).

    Each insert adds its episode, then refreshes the context of the episode and of its
    session neighbours (the episodes just before and after it by ``(start_us, seq)``;
    without a session, the sessionless episodes of its namespace within ``SESSION_GAP_US``).
    ``nearby`` are the stored episodes of the places involved that can be a new episode's
    neighbour or a neighbour's neighbour: the two stored episodes on either side of each
    new one. A context is a function of the episode and its neighbours (an episode's text,
    time and place never change), so a stored episode's context before the batch is made
    from its neighbours among ``nearby``: SQLite's text index is told exactly that old text
    when it takes the episode out (it keeps no copy).

    The log holds one change per episode added or whose context changed, in the order each
    was first touched (one whose context changed and changed back within the batch is not
    logged: its document is as it was). The batch is written in one transaction, so no
    reader of the log can see a state between two of its inserts.
    """
    episodes: dict[int, Placed] = {}
    order: dict[tuple[str, str], list[tuple[int, int]]] = {}  # per place: (start_us, seq)

    def place(ep: Placed) -> None:
        episodes[ep.seq] = ep
        insort(order.setdefault(place_key(ep.namespace, ep.session_id), []), (ep.start_us, ep.seq))

    def neighbours(seq: int) -> list[int]:
        ep = episodes[seq]
        keys = order[place_key(ep.namespace, ep.session_id)]
        at = bisect_left(keys, (ep.start_us, seq))
        return [
            keys[i][1]
            for i in (at - 1, at + 1)
            if 0 <= i < len(keys) and close_enough(ep.session_id, ep.start_us, keys[i][0])
        ]

    def made(seq: int, near: Iterable[int]) -> str:
        return context(episodes[seq].start_us, (episodes[n].content for n in near))

    for ep in nearby:
        place(ep)
    stored_near = {seq: neighbours(seq) for seq in episodes}  # before the batch
    # Each insert touches its episode and its neighbours of the moment; what an episode's
    # context is after the last insert depends only on the final order, so each touched
    # one's is made once, at the end (made after every insert, a batch cost three contexts
    # an episode of up to 2 kB each).
    touched: dict[int, None] = {}  # in the order first touched
    for ep in new:
        place(ep)
        touched[ep.seq] = None
        touched.update(dict.fromkeys(neighbours(ep.seq)))
    plan = Plan({}, {}, [])
    for seq in touched:
        now = made(seq, neighbours(seq))
        was = made(seq, stored_near[seq]) if seq in stored_near else None
        if now != was:
            plan.contexts[seq] = now
            if was is not None:
                plan.before[seq] = was
            plan.log.append((episodes[seq].namespace, seq))
    return plan
