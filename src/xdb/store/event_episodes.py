"""The episodes a record's ended events become, written once for both stores (issue 35: one
SQL store, two dialects). Each store's ``record`` runs ``close_events`` in its own write
transaction, with the statement ``event_sql`` built in its dialect once (record is the hot
path) and its own episode insert; how it records the timesteps themselves differs too much
to share (PostgreSQL's one statement, SQLite's cached tail)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from xdb.models.log_objects import Timestep
from xdb.store import row_models
from xdb.store.sqlbuild import Connection, Dialect
from xdb.store.types import NewEpisode


def event_sql(columns: str, d: Dialect) -> str:
    """An event's timesteps (``columns``, as ``row_models.timestep`` reads them) in tick order."""
    m = d.mark
    return (
        f"SELECT {columns} FROM timesteps WHERE session_id = {m} AND event_id = {m} ORDER BY tick"
    )


def close_events(
    conn: Connection,
    sql: str,
    ended: Mapping[tuple[str, str], str | None],
    close_event: Callable[[Sequence[Timestep]], NewEpisode],
    insert: Callable[[Any, NewEpisode], int],
) -> None:
    """Insert, for each event ``ended`` (``access.ended_events``), the episode
    ``close_event`` makes of its timesteps (read with ``sql``), stored under its policy."""
    for (session, event_id), policy in ended.items():
        steps = [row_models.timestep(r) for r in conn.execute(sql, (session, event_id))]
        made = close_event(steps)
        made.access_policy_id = policy
        insert(conn, made)
