"""SQL for timestep filters: one WHERE clause serves the page, the count and the cursor."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from xdb.store.protocol import TimestepFilter

_WORD = re.compile(r"\w+", re.UNICODE)

# A tag covers a timestep when it was applied to it, to its event, or to a range of ticks
# containing it, always within the timestep's own session.
_TAG_CLAUSE = (
    "EXISTS (SELECT 1 FROM tag_applications a WHERE a.tag_id = %s"
    " AND a.session_id = t.session_id"
    " AND ((a.target_type = 'timestep' AND a.tick = t.tick)"
    " OR (a.target_type = 'event' AND a.event_id = t.event_id)"
    " OR (a.target_type = 'range' AND t.tick BETWEEN a.range_start AND a.range_end)))"
)
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


def where(flt: TimestepFilter) -> tuple[list[str], list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if flt.session_ids is not None:
        clauses.append("t.session_id = ANY(%s::text[])")
        params.append(list(flt.session_ids))
    if flt.tick_start is not None:
        clauses.append("t.tick >= %s")
        params.append(flt.tick_start)
    if flt.tick_end is not None:
        clauses.append("t.tick <= %s")
        params.append(flt.tick_end)
    if flt.time_start_us is not None:
        clauses.append("t.ts_us >= %s")
        params.append(flt.time_start_us)
    if flt.time_end_us is not None:
        clauses.append("t.ts_us <= %s")
        params.append(flt.time_end_us)
    if flt.event_types:
        clauses.append("t.event_type = ANY(%s::text[])")
        params.append(list(flt.event_types))
    for tag_id in flt.tag_ids:
        clauses.append(_TAG_CLAUSE)
        params.append(tag_id)
    for concept, (lo, hi) in flt.activations.items():
        clauses.append(_ACTIVATION_CLAUSE)
        params.extend((concept, lo, hi))
    if flt.text is not None:
        words = _WORD.findall(flt.text)
        if not words:
            clauses.append("FALSE")
        else:
            query, query_params = tsquery("simple", words, "&&")
            clauses.append(f"t.tsv @@ {query}")
            params.extend(query_params)
    return clauses, params


def page_sql(
    columns: str, flt: TimestepFilter, after: tuple[int, int] | None, limit: int
) -> tuple[str, list[Any], str, list[Any]]:
    """(page SQL, page params, count SQL, count params) for a filter and keyset position."""
    clauses, params = where(flt)
    count_sql = "SELECT count(*) FROM timesteps t" + (
        " WHERE " + " AND ".join(clauses) if clauses else ""
    )
    page_clauses = list(clauses)
    page_params = list(params)
    if after is not None:
        page_clauses.append(
            "(t.ts_us, t.seq) < (%s, %s)" if flt.descending else "(t.ts_us, t.seq) > (%s, %s)"
        )
        page_params.extend(after)
    direction = "DESC" if flt.descending else "ASC"
    sql = (
        f"SELECT {columns} FROM timesteps t"
        + (" WHERE " + " AND ".join(page_clauses) if page_clauses else "")
        + f" ORDER BY t.ts_us {direction}, t.seq {direction} LIMIT %s"
    )
    page_params.append(limit)
    return sql, page_params, count_sql, params
