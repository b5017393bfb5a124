"""SQL for timestep filters in PostgreSQL: the shared conditions (``sqlbuild``) with the
generated ``tsv`` column for text and ``->>`` for activations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdb.store.sqlbuild import POSTGRES, timestep_page, timestep_where
from xdb.store.types import TimestepFilter

_ACTIVATION_CLAUSE = "(t.activations ->> %s)::float8 BETWEEN %s AND %s"


def tsquery(config: str, phrases: Sequence[str], operator: str) -> tuple[str, list[Any]]:
    """A tsquery joining each of ``phrases`` with ``operator`` (``&&`` all, ``||`` any).

    Each phrase is folded and parsed as the indexed text was, and its words must stand
    together (FTS5's quoted phrase: ``foo_bar`` is the phrase "foo bar"). A phrase with no
    words left is ignored, as FTS5 ignores an empty phrase; none left matches nothing.
    Phrases travel as parameters, so no query syntax can leak in.
    """
    part = f"phraseto_tsquery('{config}'::regconfig, xdb_fold(%s))"
    return "(" + f" {operator} ".join([part] * len(phrases)) + ")", list(phrases)


def _text(words: list[str]) -> tuple[str, list[Any]]:
    query, params = tsquery("simple", words, "&&")
    return f"t.tsv @@ {query}", params


def where(flt: TimestepFilter) -> tuple[list[str], list[Any]]:
    return timestep_where(flt, POSTGRES, _ACTIVATION_CLAUSE, _text)


def page_sql(
    columns: str, flt: TimestepFilter, after: tuple[int, int] | None, limit: int
) -> tuple[str, list[Any], str, list[Any]]:
    """(page SQL, page params, count SQL, count params) for a filter and keyset position."""
    return timestep_page(columns, where(flt), flt.descending, after, limit, POSTGRES)
