"""Access policies in the store: a restricted caller reads through views that hold only the
rows it may read, so every read (result, count, page, statistic, export) leaves out the
rest without a line of its own.

Every object a policy covers (timesteps, episodes, tags, comments, graph nodes and edges)
carries ``access_policy_id``; null means "the database's default policy". Which policies a
caller may read is a ``Readable``: the ids, and whether the default is among them. An
operation runs its reads ``reading_as(readable)`` (``Database.run``); the store then reads
on a connection where each covered table, and each table derived from one, is shadowed by
a view of the same name and columns:

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
from contextlib import contextmanager
from contextvars import ContextVar
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


READING_AS: ContextVar[Readable | None] = ContextVar("xdb_reading_as", default=None)


def reading() -> Readable | None:
    """What the current operation's reads may see (None: everything)."""
    return READING_AS.get()


@contextmanager
def reading_as(readable: Readable | None) -> Iterator[None]:
    token = READING_AS.set(readable)
    try:
        yield
    finally:
        READING_AS.reset(token)


# The tables a policy covers; each has an ``access_policy_id`` column.
COVERED = ("timesteps", "episodes", "tags", "comments", "graph_nodes", "graph_edges")


# Migration (both stores): null is the default policy, so existing rows need no value.
COLUMNS = [f"ALTER TABLE {t} ADD COLUMN access_policy_id TEXT" for t in COVERED]
# The episodes under a policy (a search checks its candidates against it).
EPISODE_POLICIES = (
    "CREATE INDEX episodes_access ON episodes (seq, access_policy_id)"
    " WHERE access_policy_id IS NOT NULL"
)


# A reply record (as h) that overlaps an exemplar's range (as {e}).
_OVERLAPS = "h.level = 'reply' AND h.tick_start <= {e}.tick_end AND h.tick_end >= {e}.tick_start"


def views(ok: str, base: str, citus: bool = False) -> dict[str, str]:
    """Each shadowed table's view body. ``ok`` is a condition template on ``{col}`` that
    holds when that policy column is readable; ``base`` qualifies the real tables
    (``main.`` or a schema's name and a dot).

    Three tests cross from a row to rows placed elsewhere on Citus (``docs/scaling.md``): a
    compacted tick to the reply record that replaced it (ticks by session, records by
    namespace), an exemplar (the coordinator's) to the ticks and records of its range, an
    edge (a reference row) to its episodes. Each is written two ways that hold the same
    rows:

    - correlated (the default; SQLite and plain PostgreSQL): a subquery per row, which an
      index answers in a few probes;
    - ``citus``: Citus plans a subquery that refers to the outer row only where it reads
      the outer row's co-location group, joined on its distribution column, or reference
      tables, so these tests become uncorrelated ``IN`` sets, which Citus evaluates once
      per statement and ships where they are needed. Each set holds the outer table's own
      keys for which the test holds, keyed by exactly what the test reads of the outer row
      (its tick, its range, its end) and drawn from the outer table itself, so a row's key
      is in the set exactly when the test holds for that row; keys are not null where they
      are compared, so ``IN`` and ``NOT IN`` take the two values ``EXISTS`` and ``NOT
      EXISTS`` did. The price: each set is worked out over the whole table, once per
      statement, where the correlated test looks at the rows read (one session's
      comments out of 5,000: 0.4-0.7 ms correlated, 34-39 ms as a set, on either store;
      ``docs/scaling.md``).

    ``tests/store/test_placement_views.py`` holds the two to the same rows on both stores
    and the ``citus`` bodies to the shapes Citus plans."""

    def readable(col: str) -> str:
        return ok.format(col=col)

    b = base
    out = {t: f"SELECT * FROM {b}{t} WHERE {readable('access_policy_id')}" for t in COVERED}

    def compacted(table: str, row: str) -> str:
        """A tick compacted away (no timestep left) is read with a readable reply record
        that covers it. ``row`` names the outer row of ``table``; its tick is not null."""
        gone = (
            f"NOT EXISTS (SELECT 1 FROM {b}timesteps t WHERE t.session_id = {row}.session_id"
            f" AND t.tick = {row}.tick)"
        )
        if not citus:
            return (
                f"({gone} AND EXISTS (SELECT 1 FROM {b}memory_records r WHERE"
                f" r.level = 'reply' AND r.session_id = {row}.session_id AND {row}.tick"
                f" BETWEEN r.tick_start AND r.tick_end AND {readable('r.access_policy_id')}))"
            )
        # The (session, tick) pairs of the table that such a record covers; the records
        # read in a subquery of their own, which Citus ships to the ticks' shards.
        return (
            f"({gone} AND ({row}.session_id, {row}.tick) IN (SELECT k.session_id, k.tick FROM"
            f" {b}{table} k JOIN (SELECT r.session_id, r.tick_start, r.tick_end FROM"
            f" {b}memory_records r WHERE r.level = 'reply' AND"
            f" {readable('r.access_policy_id')}) c ON c.session_id = k.session_id AND k.tick"
            " BETWEEN c.tick_start AND c.tick_end))"
        )

    # A comment on a tick is read with its tick.
    out["comments"] += (
        f" AND (tick IS NULL OR EXISTS (SELECT 1 FROM {b}timesteps t WHERE t.session_id ="
        f" {b}comments.session_id AND t.tick = {b}comments.tick AND"
        f" {readable('t.access_policy_id')}) OR {compacted('comments', f'{b}comments')})"
    )
    # A stored edge is read with its ends: a hidden node or episode hides its edges.
    out["graph_edges"] = (
        f"SELECT g.* FROM {b}graph_edges g WHERE {readable('g.access_policy_id')}"
        f" AND NOT EXISTS (SELECT 1 FROM {b}graph_nodes n WHERE n.id IN (g.src, g.dst)"
        f" AND NOT {readable('n.access_policy_id')}) AND "
    )
    if not citus:
        out["graph_edges"] += (
            f"NOT EXISTS (SELECT 1 FROM {b}episodes x WHERE x.id IN (g.src, g.dst) AND NOT"
            f" {readable('x.access_policy_id')})"
        )
    else:
        # The hidden episodes that are some edge's src (dst): one set for every edge.
        # ``src`` and ``dst`` are not null.
        hidden = {
            end: f"SELECT x.id FROM {b}episodes x JOIN {b}graph_edges e ON x.id = e.{end}"
            f" WHERE NOT {readable('x.access_policy_id')}"
            for end in ("src", "dst")
        }
        out["graph_edges"] += f"g.src NOT IN ({hidden['src']}) AND g.dst NOT IN ({hidden['dst']})"
    visible_episode = (
        f"episode_seq IN (SELECT seq FROM {b}episodes WHERE {readable('access_policy_id')})"
    )
    for derived in ("episode_concepts", "episode_labels", "episode_vectors"):
        out[derived] = f"SELECT * FROM {b}{derived} WHERE {visible_episode}"
    out["tag_applications"] = (
        f"SELECT a.* FROM {b}tag_applications a WHERE a.tag_id IN (SELECT id FROM {b}tags g"
        f" WHERE {readable('g.access_policy_id')}) AND (a.tick IS NULL OR EXISTS (SELECT 1"
        f" FROM {b}timesteps t WHERE t.session_id = a.session_id AND t.tick = a.tick AND"
        f" {readable('t.access_policy_id')}) OR {compacted('tag_applications', 'a')})"
    )

    # An exemplar's range against a hidden row of ``table`` (as h) in its session that
    # ``overlaps`` it.
    def clear(table: str, overlaps: str) -> str:
        if not citus:
            return (
                f"NOT EXISTS (SELECT 1 FROM {b}{table} h WHERE h.session_id = x.session_id AND"
                f" {overlaps.format(e='x')} AND NOT {readable('h.access_policy_id')})"
            )
        # The ranges some hidden row overlaps: one set for every exemplar, keyed by
        # (session, start, end), none null here (exemplars are the coordinator's, ticks
        # and records distributed: Citus ships the exemplars to the shards).
        return (
            f"(x.session_id, x.tick_start, x.tick_end) NOT IN (SELECT e.session_id,"
            f" e.tick_start, e.tick_end FROM {b}exemplars e JOIN {b}{table} h ON"
            f" h.session_id = e.session_id AND {overlaps.format(e='e')} AND NOT"
            f" {readable('h.access_policy_id')})"
        )

    # The learning harness's: an exemplar goes with its episode or every tick of its range,
    # a bud's details with its tag, a dataset's member with the dataset and the policy its
    # episode had when the dataset was built (a frozen copy stays as private as it was).
    # A range short of an end covers no tick (``citus`` says so; the correlated tests find
    # no row for it).
    ends = " OR x.tick_start IS NULL OR x.tick_end IS NULL" if citus else ""
    out["exemplars"] = (
        f"SELECT x.* FROM {b}exemplars x WHERE {readable('x.access_policy_id')} AND"
        f" (x.episode_id IS NULL OR x.episode_id IN (SELECT id FROM {b}episodes WHERE"
        f" {readable('access_policy_id')})) AND (x.session_id IS NULL{ends} OR"
        f" ({clear('timesteps', 'h.tick BETWEEN {e}.tick_start AND {e}.tick_end')} AND"
        f" {clear('memory_records', _OVERLAPS)}))"
    )
    out["learning_objects"] = (
        f"SELECT o.* FROM {b}learning_objects o WHERE {readable('o.access_policy_id')} AND"
        f" (o.kind <> 'bud' OR o.id IN (SELECT id FROM {b}tags g WHERE"
        f" {readable('g.access_policy_id')}))"
    )
    # Fidelity's: a record under its own policy, a hold with its tick.
    out["memory_records"] = f"SELECT * FROM {b}memory_records WHERE {readable('access_policy_id')}"
    out["timestep_holds"] = (
        f"SELECT h.* FROM {b}timestep_holds h WHERE EXISTS (SELECT 1 FROM {b}timesteps t"
        f" WHERE t.session_id = h.session_id AND t.tick = h.tick AND"
        f" {readable('t.access_policy_id')})"
    )
    out["dataset_members"] = (
        f"SELECT m.* FROM {b}dataset_members m WHERE {readable('m.access_policy_id')} AND"
        f" m.dataset_id IN (SELECT id FROM {b}learning_objects o WHERE o.kind = 'dataset' AND"
        f" {readable('o.access_policy_id')})"
    )
    return out


# ``views``'s condition on each store: the policy column is among the readable ids.
SQLITE_OK = "coalesce({col}, '') IN (SELECT id FROM temp.xdb_readable)"
PG_SETTING = "xdb.readable"
PG_OK = (
    "coalesce({col}, '') = ANY(coalesce(nullif(current_setting('"
    + PG_SETTING
    + "', true), ''), '{{}}')::text[])"
)

ROWID_ORDERED = ("tags", "tag_applications", "comments")
_ROWID = (
    ("SELECT a.* FROM", "SELECT a.rowid AS rowid, a.* FROM"),
    ("SELECT * FROM", "SELECT rowid AS rowid, * FROM"),
)


def sqlite_views() -> list[str]:
    """Statements that make a SQLite connection read as ``temp.xdb_readable`` allows."""
    out = ["CREATE TEMP TABLE xdb_readable (id TEXT PRIMARY KEY)"]
    for name, body in views(SQLITE_OK, "main.").items():
        if name in ROWID_ORDERED:  # the export lists them by rowid, which a view lacks
            for plain, with_rowid in _ROWID:
                if body.startswith(plain):  # the outer query's list, not a subquery's
                    body = with_rowid + body[len(plain) :]
        out.append(f"CREATE TEMP VIEW {name} AS {body}")
    # The sessions' totals, counted from the visible timesteps (the table's own counters
    # count every one, and its start may be a hidden timestep's); a session with none
    # visible is not listed.
    counted = (
        "FROM main.sessions s JOIN (SELECT session_id, count(*) AS n, max(tick) + 1 AS"
        " next_tick, min(ts_us) AS first_us, max(ts_us) AS last_us FROM timesteps"
        " GROUP BY session_id) v"
        " ON v.session_id = s.session_id"
    )
    out.append(
        "CREATE TEMP VIEW sessions AS SELECT s.session_id AS session_id, v.next_tick AS"
        " next_tick, v.first_us AS created_us, v.last_us AS last_us, v.n AS timesteps,"
        f" 0 AS pending {counted}"
    )
    # Each concept's episodes, counted from the visible rows (the table counts them all).
    out.append(
        "CREATE TEMP VIEW concept_counts AS SELECT concept_id, count(*) AS episodes"
        " FROM episode_concepts GROUP BY concept_id"
    )
    out.append(
        "CREATE TEMP VIEW session_totals AS SELECT s.rowid AS made, s.session_id AS session_id,"
        " v.n AS timesteps, v.next_tick AS next_tick, v.first_us AS created_us,"
        f" v.last_us AS last_us {counted}"
    )
    return out


def pg_schema(base: str) -> str:
    """The schema of the restricted views for tables in schema ``base``."""
    return f"{base}_xdb_restricted"


# Where a function of this name exists, the views are made in the shape Citus plans
# (``views``'s ``citus``): Citus installs it, and a database xdb makes after ``CREATE
# EXTENSION citus`` is one Citus will distribute.
CITUS = "SELECT 1 FROM pg_proc WHERE proname = 'create_distributed_table'"


def pg_views(base: str) -> list[str]:
    """Statements that (re)create the restricted views of the tables in schema ``base``.
    Run again by any migration that changes a shadowed table's columns (views keep the
    columns they were made with). The views take the shape Citus plans where Citus is
    installed (``CITUS``), and their plain correlated shape elsewhere."""
    schema = pg_schema(base)
    qualified = f'"{base}".'

    def made(citus: bool) -> str:
        quote = "$xdb_view$"
        creates = [
            f'CREATE VIEW "{schema}".{name} AS {body}'
            for name, body in views(PG_OK, qualified, citus).items()
        ]
        if any(quote in c for c in creates):
            raise ValueError(f"a view's text holds {quote}, which quotes it")
        return " ".join(f"EXECUTE {quote}{c}{quote};" for c in creates)

    out = [f'DROP SCHEMA IF EXISTS "{schema}" CASCADE', f'CREATE SCHEMA "{schema}"']
    out.append(
        f"DO $xdb$ BEGIN IF EXISTS ({CITUS}) THEN {made(True)} ELSE {made(False)} END IF; END $xdb$"
    )
    out.append(
        f'CREATE VIEW "{schema}".sessions AS SELECT s.session_id, v.next_tick,'
        f" v.first_us AS created_us, v.last_us, v.n AS timesteps, s.pos FROM {qualified}sessions"
        " s JOIN (SELECT session_id, count(*) AS n, max(tick) + 1 AS next_tick, min(ts_us) AS"
        " first_us, max(ts_us) AS last_us FROM"
        f' "{schema}".timesteps GROUP BY session_id) v ON v.session_id = s.session_id'
    )
    return out


def pg_array(ids: list[str]) -> str:
    """A text[] literal of ``ids`` (what ``xdb.readable`` holds)."""
    quoted = ('"' + i.replace("\\", "\\\\").replace('"', '\\"') + '"' for i in ids)
    return "{" + ",".join(quoted) + "}"


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
