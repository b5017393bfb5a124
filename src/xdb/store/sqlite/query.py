"""SQL for timestep filters in SQLite: the shared conditions (``sqlbuild``) with FTS5 for
text and ``json_each`` for activations."""

from __future__ import annotations

from typing import Any

from xdb.store.sqlbuild import SQLITE, timestep_page, timestep_where
from xdb.store.types import TimestepFilter

_ACTIVATION_CLAUSE = (
    "EXISTS (SELECT 1 FROM json_each(t.activations) j WHERE j.key = ? AND j.value BETWEEN ? AND ?)"
)


def _text(words: list[str]) -> tuple[str, list[Any]]:
    """Every word must occur; words are quoted, so no FTS5 syntax can leak in."""
    match = " ".join('"' + w.replace('"', '""') + '"' for w in words)
    return "t.seq IN (SELECT rowid FROM timesteps_fts WHERE timesteps_fts MATCH ?)", [match]


def where(flt: TimestepFilter) -> tuple[list[str], list[Any]]:
    return timestep_where(flt, SQLITE, _ACTIVATION_CLAUSE, _text)


def page_sql(
    columns: str, flt: TimestepFilter, after: tuple[int, int] | None, limit: int
) -> tuple[str, list[Any], str, list[Any]]:
    """(page SQL, page params, count SQL, count params) for a filter and keyset position."""
    return timestep_page(columns, where(flt), flt.descending, after, limit, SQLITE)
