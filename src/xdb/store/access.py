"""Access policies in the store: a restricted caller reads through views that hold only the
rows it may read, so every read (result, count, page, statistic, export) leaves out the
rest without a line of its own.

Every object a policy covers (timesteps, episodes, tags, comments, graph nodes and edges)
carries ``access_policy_id``; null means "the database's default policy". Which policies a
caller may read is a ``Readable``: the ids, and whether the default is among them. An
operation runs on the store bound to its call (``store.for_call(readable, pending)``, made
by ``Database.run``: ``store.binding``); that store reads on a connection where each
covered table, and each table derived from one, is shadowed by a view of the same name and
columns (``xdb.store.access_views`` makes them):

- SQLite: TEMP views on a reader connection of its own (the temp schema is searched before
  ``main``), over a temp table of the readable ids;
- PostgreSQL: views in a schema of their own, first on the search path of a second pool's
  connections, over the session setting ``xdb.readable``.

Derived rows follow what they derive from: an episode's concept tags, labels and vectors
its episode; a tag application its tag and (for a tick) its timestep; a session's totals
are counted from the visible timesteps. Writes never run on these connections. A caller
who reads every policy in use reads the tables themselves (``None``: no restriction).

Known limit: full-text statistics (BM25's document frequencies) are the index's, over all
rows; which rows match and rank is decided after the views have filtered them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from xdb.store.sqlbuild import Connection, Dialect, chunks
from xdb.store.types import NewTimestep, ResolvedTarget

DEFAULT = ""  # how the default policy is named among the readable ids (null in the rows)


@dataclass(frozen=True)
class Readable:
    """The access policies a caller may read; ``default``: the database's default one."""

    policies: frozenset[str]
    default: bool

    @property
    def ids(self) -> list[str]:
        """The readable ids as the views compare them (the default as ``DEFAULT``)."""
        return sorted(self.policies | ({DEFAULT} if self.default else set()))


# The tables a policy covers; each has an ``access_policy_id`` column.
COVERED = ("timesteps", "episodes", "tags", "comments", "graph_nodes", "graph_edges")


# Migration (both stores): null is the default policy, so existing rows need no value.
COLUMNS = [f"ALTER TABLE {t} ADD COLUMN access_policy_id TEXT" for t in COVERED]
# The episodes under a policy (a search checks its candidates against it).
EPISODE_POLICIES = (
    "CREATE INDEX episodes_access ON episodes (seq, access_policy_id)"
    " WHERE access_policy_id IS NOT NULL"
)


# ---------------------------------------------------------------------- rows' policies

# What ``assign`` finds objects by, per kind: the table and its key columns.
KEYS: dict[str, tuple[str, tuple[str, ...]]] = {
    "timestep": ("timesteps", ("session_id", "tick")),
    "session": ("timesteps", ("session_id",)),
    "episode": ("episodes", ("id",)),
    "tag": ("tags", ("id",)),
    "comment": ("comments", ("id",)),
    "node": ("graph_nodes", ("id",)),
    "edge": ("graph_edges", ("src", "relation", "dst")),
}


def assign(
    conn: Connection, d: Dialect, kind: str, keys: Sequence[Sequence[Any]], policy_id: str | None
) -> int:
    """Put the objects of ``kind`` named by ``keys`` under ``policy_id`` (None: the default);
    how many rows changed policy."""
    table, columns = KEYS[kind]
    m = d.mark
    where = " AND ".join(f"{c} = {m}" for c in columns)
    changed = 0
    for key in keys:
        cur = conn.execute(
            f"UPDATE {table} SET access_policy_id = {m} WHERE {where} AND"
            f" coalesce(access_policy_id, '') <> coalesce({m}, '')",
            [policy_id, *key, policy_id],
        )
        changed += max(cur.rowcount, 0)
        # A COLD record goes with its episode; a session's records (and their episodes)
        # with its timesteps, which they stand for.
        if kind == "episode":
            conn.execute(
                f"UPDATE memory_records SET access_policy_id = {m} WHERE id = {m}",
                [policy_id, *key],
            )
        elif kind == "session":
            for sql in (
                f"UPDATE episodes SET access_policy_id = {m} WHERE id IN (SELECT id FROM"
                f" memory_records WHERE session_id = {m} AND merged_into IS NULL)",
                f"UPDATE memory_records SET access_policy_id = {m} WHERE session_id = {m}",
            ):
                changed += max(conn.execute(sql, [policy_id, *key]).rowcount, 0)
    return changed


def assign_recorded(
    conn: Connection, d: Dialect, items: Sequence[NewTimestep], made: Sequence[tuple[str, int]]
) -> None:
    """Put just recorded timesteps (``made``: their ids and ticks) under the policies their
    requests named, in the recording transaction."""
    named: dict[str, list[tuple[str, int]]] = {}
    for it, (_, tick) in zip(items, made, strict=True):
        if it.access_policy_id is not None:
            named.setdefault(it.access_policy_id, []).append((it.session_id, tick))
    for policy_id, keys in named.items():
        assign(conn, d, "timestep", keys, policy_id)


def ended_events(items: Sequence[NewTimestep]) -> dict[tuple[str, str], str | None]:
    """The events these timesteps end, each with the policy its episode is stored under
    (its closing timestep's)."""
    return {
        (it.session_id, it.event_id): it.access_policy_id
        for it in items
        if it.event_end and it.event_id is not None
    }


def policies_of(
    conn: Connection, d: Dialect, kind: str, keys: Sequence[Sequence[Any]]
) -> dict[tuple[Any, ...], str | None]:
    """The policy of each object of ``kind`` named by ``keys`` that exists (and, on a
    restricted reader, that the caller reads)."""
    table, columns = KEYS[kind]
    m = d.mark
    where = " AND ".join(f"{c} = {m}" for c in columns)
    out: dict[tuple[Any, ...], str | None] = {}
    for key in keys:
        row = conn.execute(
            f"SELECT access_policy_id FROM {table} WHERE {where} LIMIT 1", list(key)
        ).fetchone()
        if row is not None:
            out[tuple(key)] = row[0]
    return out


def episode_policies(conn: Connection, d: Dialect, seqs: Sequence[int]) -> dict[int, str]:
    """The access policy of each of ``seqs`` that has one, from the table itself (run it
    unrestricted). An index holds exactly these (``EPISODE_POLICIES``): a look costs no
    episode row (SQLite keeps the column at the end of ~2 KB rows, in overflow pages)."""
    out: dict[int, str] = {}
    hint = " INDEXED BY episodes_access" if d.mark == "?" else ""
    for part in chunks(list(seqs)):
        params: list[Any] = []
        sql = (
            f"SELECT seq, access_policy_id FROM episodes{hint} WHERE access_policy_id IS NOT"
            f" NULL AND {d.one_of('seq', part, params, 'bigint')}"
        )
        out.update((int(r[0]), str(r[1])) for r in conn.execute(sql, params))
    return out


def in_use(conn: Connection, d: Dialect, policy_id: str) -> list[str]:
    """The tables holding objects under ``policy_id``."""
    m = d.mark
    return [
        t
        for t in (*COVERED, "exemplars", "learning_objects")
        if conn.execute(
            f"SELECT 1 FROM {t} WHERE access_policy_id = {m} LIMIT 1", [policy_id]
        ).fetchone()
    ]


def covered(conn: Connection, d: Dialect, target: ResolvedTarget) -> set[str | None]:
    """The policies of the timesteps a tag or comment target covers (a session: all of
    its timesteps); empty when the caller reads none of them (this runs through its views)."""
    m = d.mark
    where, params = f"session_id = {m}", list[Any]([target.session_id])
    if target.target_type == "timestep":
        where += f" AND tick = {m}"
        params.append(target.tick)
    elif target.target_type == "event":
        where += f" AND event_id = {m}"
        params.append(target.event_id)
    elif target.target_type == "range":
        where += f" AND tick BETWEEN {m} AND {m}"
        params += [target.range_start, target.range_end]
    sql = f"SELECT DISTINCT access_policy_id FROM timesteps WHERE {where}"
    return {r[0] for r in conn.execute(sql, params).fetchall()}


# ---------------------------------------------------------------------- export and import

# Which rows carry a policy, as export records after every object (each names its object by
# the kind and key ``assign`` takes): {"kind": "access", "object": ..., "key": [...],
# "access_policy_id": ...}. Rows under the default carry none.
EXPORTED = ("timestep", "episode", "tag", "comment", "node", "edge")


def export_records(read: Any) -> Iterator[dict[str, Any]]:
    """``read`` runs a query in the export's snapshot (see ``records.export_records``)."""
    for kind in EXPORTED:
        table, columns = KEYS[kind]
        keys = ", ".join(columns)
        sql = (
            f"SELECT {keys}, access_policy_id FROM {table}"
            f" WHERE access_policy_id IS NOT NULL ORDER BY {keys}"
        )
        for row in read(sql):
            yield {
                "kind": "access",
                "object": kind,
                "key": list(row[:-1]),
                "access_policy_id": row[-1],
            }


def import_record(conn: Connection, d: Dialect, body: dict[str, Any], number: int) -> int:
    """Apply an ``access`` record; 1 when a row changed policy."""
    from xdb.errors import InvalidRequest

    kind, key, policy_id = body.get("object"), body.get("key"), body.get("access_policy_id")
    if (
        kind not in EXPORTED
        or not isinstance(key, list)
        or len(key) != len(KEYS[str(kind)][1])
        or not (policy_id is None or isinstance(policy_id, str))
    ):
        raise InvalidRequest(
            f"record {number} (access): needs object (one of {', '.join(EXPORTED)}), its key"
            " as a list and access_policy_id"
        )
    return assign(conn, d, str(kind), [key], policy_id)
