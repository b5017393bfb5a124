"""The context an episode is text-indexed with besides its own words, in both stores.

A turn of a conversation rarely repeats what it answers: "Yes, last Tuesday!" is found by
the question before it. Indexing each episode with its date words and its session
neighbours' words (measured on LoCoMo: BM25 turn recall@10 0.678 -> 0.803) lets a
question find the turn that answers it. Both stores keep the text in ``episodes.context``
so a later re-index or delete touches exactly what was indexed.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdb.timeutil import from_us

# How much of a neighbour's content joins an episode's context in the text index.
CONTEXT_CHARS = 1000


def date_words(us: int) -> str:
    """ "8 May 2023": how people ask about dates ("when did ... in May?")."""
    day = from_us(us)
    return f"{day.day} {day:%B} {day.year}"


def context(start_us: int, neighbours: Iterable[str]) -> str:
    """An episode's context: its date words, then each neighbour's content, cut short."""
    return " ".join([date_words(start_us), *(text[:CONTEXT_CHARS] for text in neighbours)])
