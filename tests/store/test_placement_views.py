"""The views restricted callers read through (``xdb.store.access_views.views``), in the shape they
take where Citus is installed, are queries Citus can plan by the places declared for the
tables (``xdb.store.postgres.citus.PLACES``), and hold the rows their plain correlated
shape holds (the one SQLite and plain PostgreSQL read through), on both stores.

Citus plans a subquery that refers to the outer row (a correlated one) only when it reads
tables co-located with the outer row's, joined to it on the distribution column, or
reference tables; an uncorrelated subquery it evaluates on its own and ships the result
(recursive planning); a join of a local (coordinator) table with a distributed one it
plans by shipping one side; a join of two distributed tables of different groups it does
not plan without repartitioning, which xdb does not ask of it.

How the shapes are read: not from the text ``views`` writes, but from PostgreSQL's own
reading of it. The test makes the views as ``access_views.pg_views`` does on a database with
Citus (stub functions of Citus's names stand in for it) and reads each back with
``pg_get_viewdef``, which prints every column of a subquery with the name of the relation
it was resolved to, the outer query's included: a column written without a table name
that resolves to the outer row shows up as the outer row's. A small tokeniser over that
text (whose form PostgreSQL fixes, not us) finds each (sub)query, the relations it reads
(what follows FROM, JOIN or a FROM list's comma) and their aliases, the columns it reads
through each alias, and the ``alias.column = alias.column`` equalities in it. A
subquery is correlated when it reads a column through an alias it does not define; that
alias is the outer relation. Anything the reader cannot place (an alias it cannot
resolve, a relation without a declared place, a correlated subquery over a derived
table) is reported as a problem rather than passed. The reader is checked against the
correlated shape and a few made-up views: it must flag each. Reading PostgreSQL's
resolution rather than records kept as ``views`` builds each subquery is the point: a
record says what its author meant, the resolution what the text does (a bare column that
binds to the outer row, a subquery added by hand without a record).

The same rows: random logs (hidden, missing and compacted ticks; reply and other records
over ranges, some without a session or an end; exemplars with ranges open, empty or
reversed; edges to nodes, episodes and nothing), each read through both shapes for every
combination of readable policies, on both stores; the scenarios must make each view hold
different rows for different readers, so a view that held nothing would not pass.
"""

from __future__ import annotations

import itertools
import random
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.store import _citus_stub
from xdb.store import access, access_views
from xdb.store.placement import DISTRIBUTED, LOCAL, REFERENCE, Place
from xdb.store.postgres import citus
from xdb.store.sqlite import SQLiteStore

PLACES = {p.table: p for p in citus.PLACES}


# ---------------------------------------------------------------------- reading a view


_TOKEN = re.compile(
    r"""\s+|(?P<t>'(?:[^']|'')*'|"(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_$]*|\d+(?:\.\d+)?"""
    r"""|::|<=|>=|<>|!=|\|\||\S)"""
)
# Words that follow a relation or a derived table where an alias would.
_NOT_ALIAS = {
    "AND", "AS", "CROSS", "EXCEPT", "FULL", "GROUP", "HAVING", "INNER", "INTERSECT", "JOIN",
    "LEFT", "LIMIT", "NATURAL", "OFFSET", "ON", "OR", "ORDER", "RIGHT", "UNION", "USING",
    "WHERE", "WINDOW",
}  # fmt: skip
# Words that end a query's FROM list.
_AFTER_FROM = {
    "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "WINDOW", "UNION", "EXCEPT",
    "INTERSECT",
}  # fmt: skip


def _tokens(sql: str) -> list[str]:
    return [m.group("t") for m in _TOKEN.finditer(sql) if m.group("t")]


def _is_name(tok: str) -> bool:
    return tok[0] == '"' or tok[0].isalpha() or tok[0] == "_"


def _name(tok: str) -> str:
    return tok[1:-1].replace('""', '"') if tok[0] == '"' else tok.lower()


@dataclass
class Query:
    """One SELECT of a view: what it reads, through which aliases, and its equalities."""

    parent: Query | None
    relations: dict[str, str | None] = field(default_factory=dict)  # alias: table (None: derived)
    columns: list[tuple[str, str]] = field(default_factory=list)  # (alias, column) read here
    equal: list[tuple[tuple[str, str], tuple[str, str]]] = field(default_factory=list)
    children: list[Query] = field(default_factory=list)

    def all(self) -> Iterator[Query]:
        yield self
        for c in self.children:
            yield from c.all()

    def defining(self, alias: str) -> Query | None:
        """The nearest query, this one or one around it, that defines ``alias``."""
        q: Query | None = self
        while q is not None and alias not in q.relations:
            q = q.parent
        return q

    def joined(self, a: tuple[str, str], b: tuple[str, str]) -> bool:
        return (a, b) in self.equal or (b, a) in self.equal


def read_view(sql: str) -> Query:
    """``sql`` as ``pg_get_viewdef`` prints it. A relation is what follows ``FROM``,
    ``JOIN``, a comma of a FROM list or the parenthesis of a join; a derived table is a
    subquery there; anything else written ``a.b`` is a column ``b`` read through alias
    ``a`` (or, before a parenthesis, a function)."""
    toks = _tokens(sql)
    root = Query(None)
    # Per open parenthesis: the query it opens, "join" (a parenthesised join) or "group".
    frames: list[Query | str] = []
    derived: list[bool] = []  # per query frame: whether it is a derived table
    q = root
    in_from = {id(root): False}
    expect = False  # the next name is a relation
    i = 0

    def at(j: int) -> str:
        return toks[j] if j < len(toks) else ""

    def alias_at(j: int) -> tuple[str | None, int]:
        if at(j).upper() == "AS":
            j += 1
        if at(j) and _is_name(at(j)) and at(j).upper() not in _NOT_ALIAS:
            return _name(at(j)), j + 1
        return None, j

    def own_level() -> bool:
        return not frames or isinstance(frames[-1], Query) or frames[-1] == "join"

    while i < len(toks):
        tok, word = toks[i], toks[i].upper()
        if tok == "(":
            if at(i + 1).upper() == "SELECT":
                child = Query(q)
                q.children.append(child)
                frames.append(child)
                derived.append(expect)
                in_from[id(child)] = False
                q, expect = child, False
            else:
                frames.append("join" if expect else "group")
            i += 1
        elif tok == ")":
            closed = frames.pop()
            i += 1
            if isinstance(closed, Query):
                assert closed.parent is not None
                q = closed.parent
                if derived.pop():
                    alias, i = alias_at(i)
                    q.relations[alias or f"?{i}"] = None
        elif word == "FROM" and own_level():
            in_from[id(q)], expect = True, True
            i += 1
        elif word in _AFTER_FROM and own_level():
            in_from[id(q)], expect = False, False
            i += 1
        elif word == "JOIN" or (tok == "," and in_from[id(q)] and own_level()):
            expect = True
            i += 1
        elif expect and _is_name(tok):
            j = i + 2 if at(i + 1) == "." else i  # schema.table or table
            table = _name(at(j))
            alias, i = alias_at(j + 1)
            q.relations[alias or table] = table
            expect = False
        elif _is_name(tok) and at(i + 1) == "." and _is_name(at(i + 2)) and at(i + 3) != "(":
            first, second = _name(tok), _name(at(i + 2))
            q.columns.append((first, second))
            rest = toks[i + 3 : i + 7]
            if len(rest) == 4 and rest[0] == "=" and _is_name(rest[1]) and rest[2] == ".":
                q.equal.append(((first, second), (_name(rest[1]), _name(rest[3]))))
            i += 3
        else:
            expect = False
            i += 1
    assert not frames, "unbalanced parentheses"
    return root


@dataclass(frozen=True)
class Link:
    """A correlated subquery's read: of table ``inner`` for a row of table ``outer`` (None:
    a derived table's row)."""

    outer: str | None
    inner: str


def shape_problems(view: str, root: Query) -> tuple[list[str], set[Link]]:
    """What in ``view`` Citus would not plan, by the declared places; and each correlated
    subquery's (outer, inner) pairs, to show what was found."""
    out: list[str] = []
    links: set[Link] = set()
    for q in root.all():
        own = {a: t for a, t in q.relations.items() if t is not None}
        for t in own.values():
            if t not in PLACES:
                out.append(f"{view}: reads {t}, which has no declared place")
        if any(t not in PLACES for t in own.values()):
            continue
        # Two distributed tables in one query: one group, joined on its column.
        spread = [(a, PLACES[t]) for a, t in own.items() if PLACES[t].kind == DISTRIBUTED]
        for (a1, p1), (a2, p2) in itertools.combinations(spread, 2):
            if citus.group(p1) != citus.group(p2) or not q.joined(
                (a1, str(p1.column)), (a2, str(p2.column))
            ):
                out.append(
                    f"{view}: joins {p1.table} and {p2.table}, not co-located on their"
                    " distribution column"
                )
        outer: dict[str, str | None] = {}
        for alias, _ in q.columns:
            where = q.defining(alias)
            if where is None:
                out.append(f"{view}: reads through {alias}, which no query defines")
            elif where is not q:
                outer[alias] = where.relations[alias]
        if not outer:
            continue  # uncorrelated: Citus evaluates it on its own
        if len(own) < len(q.relations):
            out.append(f"{view}: a correlated subquery reads a derived table")
        for oa, ot in outer.items():
            for ia, it in own.items():
                links.add(Link(ot, it))
                why = _correlated(q, oa, None if ot is None else PLACES.get(ot), ia, PLACES[it])
                if why:
                    out.append(f"{view}: a subquery reads {it} for each row of {ot}: {why}")
    return out, links


def _correlated(q: Query, oa: str, outer: Place | None, ia: str, inner: Place) -> str:
    """Why Citus would not plan ``inner`` read for each row of ``outer`` ('' where it would)."""
    if inner.kind == REFERENCE:
        return ""  # on every node
    if outer is None:
        return "the outer row is a derived table's"
    if inner.kind == LOCAL:
        return "" if outer.kind in (LOCAL, REFERENCE) else "a local table for a shard's row"
    if outer.kind != DISTRIBUTED or citus.group(outer) != citus.group(inner):
        return "not co-located"
    if not q.joined((ia, str(inner.column)), (oa, str(outer.column))):
        return f"not joined on {inner.column} = {outer.column}"
    return ""


# ---------------------------------------------------------------------- on PostgreSQL


@pytest.fixture
def conn(postgres_url: str) -> Iterator[psycopg.Connection]:
    with psycopg.connect(postgres_url, autocommit=True) as c:
        yield c


def _schema(conn: psycopg.Connection) -> str:
    return str(conn.execute("SELECT current_schema()").fetchone()[0])  # type: ignore[index]


def _deparsed(conn: psycopg.Connection, schema: str) -> dict[str, str]:
    """Each view of ``schema`` as PostgreSQL reads it (with only pg_catalog on the search
    path, so that xdb's relations print with their schemas)."""
    conn.execute("SET search_path TO pg_catalog")
    try:
        rows = conn.execute(
            "SELECT c.relname, pg_get_viewdef(c.oid, true) FROM pg_class c"
            " WHERE c.relnamespace = %s::regnamespace AND c.relkind = 'v'",
            (schema,),
        ).fetchall()
    finally:
        conn.execute("RESET search_path")
    return {str(name): str(text) for name, text in rows}


def _make_views(conn: psycopg.Connection, base: str) -> None:
    for statement in access_views.pg_views(base):
        conn.execute(statement.encode())


def _problems(viewed: dict[str, str]) -> tuple[list[str], set[Link]]:
    found: list[str] = []
    links: set[Link] = set()
    for name, text in sorted(viewed.items()):
        problems, seen = shape_problems(name, read_view(text))
        found += problems
        links |= seen
    return found, links


def test_where_citus_is_the_views_are_queries_it_plans(conn: psycopg.Connection) -> None:
    base = _schema(conn)
    restricted = access_views.pg_schema(base)
    try:
        for statement in _citus_stub.STATEMENTS:  # create_distributed_table, and the rest
            conn.execute(statement.encode())
        _make_views(conn, base)
        viewed = _deparsed(conn, restricted)
    finally:
        conn.execute(f"DROP SCHEMA IF EXISTS {_citus_stub.SCHEMA} CASCADE".encode())
        _make_views(conn, base)  # as they were, for the next test lent this database
    assert set(viewed) == {*access_views.views("{col}", ""), "sessions"}
    found, links = _problems(viewed)
    assert found == []
    # What the reader saw correlated, all allowed: a tick's rows with its timestep (one
    # group, on session_id), an edge with its nodes (reference tables).
    assert links == {
        Link("comments", "timesteps"),
        Link("tag_applications", "timesteps"),
        Link("timestep_holds", "timesteps"),
        Link("graph_edges", "graph_nodes"),
    }


def test_elsewhere_they_keep_the_correlated_shape_which_the_check_refuses(
    conn: psycopg.Connection,
) -> None:
    """Without Citus (this server), the views keep the correlated tests, which an index
    answers row by row; the check names each one Citus would not plan, and what else it
    must refuse."""
    base = _schema(conn)
    restricted = access_views.pg_schema(base)
    found, _ = _problems(_deparsed(conn, restricted))
    expected = [
        "comments: a subquery reads memory_records for each row of comments: not co-located",
        "exemplars: a subquery reads memory_records for each row of exemplars: not co-located",
        "exemplars: a subquery reads timesteps for each row of exemplars: not co-located",
        "graph_edges: a subquery reads episodes for each row of graph_edges: not co-located",
        "tag_applications: a subquery reads memory_records for each row of tag_applications:"
        " not co-located",
    ]
    assert sorted(found) == expected
    probe = "probe_views"
    made = {
        # Two groups joined in a subquery, on a column neither is placed by.
        "joined": f"SELECT * FROM {base}.comments WHERE (session_id, tick) IN (SELECT"
        f" k.session_id, k.tick FROM {base}.comments k JOIN {base}.memory_records r ON"
        " r.session_id = k.session_id)",
        # One group, but not joined on its column.
        "askew": f"SELECT * FROM {base}.comments c WHERE EXISTS (SELECT 1 FROM"
        f" {base}.timesteps t WHERE t.tick = c.tick)",
        # Unqualified in the text, the outer row's by resolution.
        "hidden": f"SELECT * FROM {base}.exemplars x WHERE EXISTS (SELECT 1 FROM"
        f" {base}.timesteps t WHERE t.tick = tick_start)",
        # A correlated subquery over a derived table.
        "derived": f"SELECT * FROM {base}.comments c WHERE EXISTS (SELECT 1 FROM (SELECT"
        f" session_id FROM {base}.timesteps) d WHERE d.session_id = c.session_id)",
        # A relation without a place.
        "unplaced": "SELECT * FROM pg_catalog.pg_class",
    }
    conn.execute(f"CREATE SCHEMA {probe}".encode())
    try:
        for name, body in made.items():
            conn.execute(f"CREATE VIEW {probe}.{name} AS {body}".encode())
        viewed = _deparsed(conn, probe)
    finally:
        conn.execute(f"DROP SCHEMA {probe} CASCADE".encode())
    found, _ = _problems(viewed)
    assert sorted(found) == [
        "askew: a subquery reads timesteps for each row of comments: not joined on"
        " session_id = session_id",
        "derived: a correlated subquery reads a derived table",
        "hidden: a subquery reads timesteps for each row of exemplars: not co-located",
        "joined: joins comments and memory_records, not co-located on their distribution column",
        "unplaced: reads pg_class, which has no declared place",
    ]


# ---------------------------------------------------------------------- the same rows

POLICIES = [None, "p1", "p2"]
SESSIONS = ["s0", "s1", "s2"]


def _scenario(seed: int) -> dict[str, list[dict[str, Any]]]:
    """Rows of every table the views with two shapes read, drawn at random: hidden and missing
    ticks, reply records and other records over ranges (some without a session or an
    end), exemplars with ranges empty, reversed or open, edges to nodes, episodes and
    nothing at all."""
    rnd = random.Random(seed)

    def policy() -> str | None:
        return rnd.choice(POLICIES)

    def tick(top: int = 8, none: float = 0.15) -> int | None:
        return None if rnd.random() < none else rnd.randint(0, top)

    common = {"created_us": 1, "created_by": "t"}
    out: dict[str, list[dict[str, Any]]] = {}
    out["timesteps"] = [
        {"session_id": s, "tick": k, "ts_us": k, "event_type": "input", "role": "user",
         "content": "x", "access_policy_id": policy()}
        for s in SESSIONS for k in range(7) if rnd.random() < 0.6
    ]  # fmt: skip
    records = []
    for i in range(rnd.randint(2, 12)):
        start = tick(7, 0.1)
        end = None if start is None or rnd.random() < 0.1 else start + rnd.randint(-1, 3)
        records.append(
            {"id": f"r{i}", "level": rnd.choice(["reply", "reply", "session"]),
             "namespace": rnd.choice(["n0", "n1"]),
             "session_id": rnd.choice([*SESSIONS, None]), "tick_start": start,
             "tick_end": end, "start_us": 1, "end_us": 2, "tokens": 1, "timesteps": 1,
             "body": "{}", "created_us": 1, "access_policy_id": policy()}
        )  # fmt: skip
    out["memory_records"] = records
    out["tags"] = [
        {"id": f"g{i}", "name": f"g{i}", "tag_type": "topic", "access_policy_id": policy(),
         **common}
        for i in range(3)
    ]  # fmt: skip
    out["comments"] = [
        {"id": f"c{i}", "session_id": rnd.choice(SESSIONS), "target_type": "timestep",
         "tick": tick(), "content": "x", "updated_us": 1, "access_policy_id": policy(),
         **common}
        for i in range(16)
    ]  # fmt: skip
    out["tag_applications"] = [
        {"id": f"a{i}", "session_id": rnd.choice(SESSIONS), "tag_id": f"g{rnd.randint(0, 2)}",
         "target_type": "timestep", "tick": tick(), "confidence": 1.0, "source": "t",
         **common}
        for i in range(16)
    ]  # fmt: skip
    out["episodes"] = [
        {"id": f"e{i}", "namespace": rnd.choice(["n0", "n1"]), "kind": "k", "summary": "x",
         "content": "x", "start_us": 1, "end_us": 2, "concept_tags": "[]", "labels": "[]",
         "motive_profile": "{}", "metadata": "{}", "provenance": "{}",
         "access_policy_id": policy(), **common}
        for i in range(5)
    ]  # fmt: skip
    exemplars = []
    for i in range(24):
        start = tick()
        end = None if start is None and rnd.random() < 0.5 else (start or 0) + rnd.randint(-1, 4)
        if rnd.random() < 0.1:
            end = None
        exemplars.append(
            {"id": f"x{i}", "concept_id": "c", "label": "positive", "label_source": "t",
             "confidence": 1.0, "episode_id": rnd.choice(["e0", "e1", "e2", "e9", None]),
             "session_id": rnd.choice([*SESSIONS, None]), "tick_start": start,
             "tick_end": end, "access_policy_id": policy(), **common}
        )  # fmt: skip
    out["exemplars"] = exemplars
    out["graph_nodes"] = [
        {"id": f"n{i}", "node_type": "entity", "name": f"n{i}", "namespace": "n0",
         "metadata": "{}", "access_policy_id": policy(), **common}
        for i in range(3)
    ]  # fmt: skip
    ends = ["n0", "n1", "n2", "e0", "e1", "e2", "e3", "e4", "nothing"]
    edges = {(rnd.choice(ends), rnd.choice(["a", "b"]), rnd.choice(ends)) for _ in range(14)}
    out["graph_edges"] = [
        {"src": s, "relation": r, "dst": d, "access_policy_id": policy(), **common}
        for s, r, d in sorted(edges)
    ]
    return out


KEYS = {
    "comments": "id",
    "tag_applications": "session_id, id",
    "graph_edges": "src, relation, dst",
    "exemplars": "id",
}
READABLE = [
    access.Readable(frozenset(p for p in ps if p), None in ps)
    for n in range(len(POLICIES) + 1)
    for ps in itertools.combinations(POLICIES, n)
]
SEEDS = range(20)


def _insert(execute: Any, mark: str, rows: dict[str, list[dict[str, Any]]]) -> None:
    for table, items in rows.items():
        for item in items:
            names = ", ".join(item)
            marks = ", ".join([mark] * len(item))
            execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", list(item.values()))


def _compare(execute: Any, ok: str, base: str, held: dict[str, set[int]]) -> list[str]:
    """Where the views' two shapes hold different rows, read with
    ``execute`` (after the readable ids were set); adds how many rows each view held to
    ``held``."""
    out = []
    now, before = access_views.views(ok, base, citus=True), access_views.views(ok, base)
    for name, keys in KEYS.items():
        rows = [
            execute(f"SELECT {keys} FROM ({body}) v ORDER BY {keys}").fetchall()
            for body in (now[name], before[name])
        ]
        if rows[0] != rows[1]:
            out.append(f"{name}: {rows[0]} != {rows[1]}")
        held.setdefault(name, set()).add(len(rows[0]))
    return out


def _varied(held: dict[str, set[int]]) -> None:
    """The scenarios did test something: each view held more rows for some readers than
    for others."""
    assert set(held) == set(KEYS)
    assert all(len(counts) > 3 for counts in held.values()), held


def test_both_shapes_hold_the_same_rows_on_sqlite(tmp_path: Path) -> None:
    held: dict[str, set[int]] = {}
    for seed in SEEDS:
        path = tmp_path / f"{seed}.sqlite3"
        SQLiteStore(path).close()
        db = sqlite3.connect(path)
        try:
            rows = _scenario(seed)
            # SQLite's row keeps the summary's own text as own_summary; summary is computed
            # from it (schema version 20).
            rows["episodes"] = [
                {("own_summary" if k == "summary" else k): v for k, v in ep.items()}
                for ep in rows["episodes"]
            ]
            _insert(db.execute, "?", rows)
            db.execute("CREATE TEMP TABLE xdb_readable (id TEXT PRIMARY KEY)")
            for readable in READABLE:
                db.execute("DELETE FROM temp.xdb_readable")
                db.executemany(
                    "INSERT INTO temp.xdb_readable VALUES (?)", [(i,) for i in readable.ids]
                )
                found = _compare(db.execute, access_views.SQLITE_OK, "main.", held)
                assert found == [], (seed, readable, found)
        finally:
            db.close()
    _varied(held)


def test_both_shapes_hold_the_same_rows_on_postgres(
    conn: psycopg.Connection,
) -> None:
    base = f'"{_schema(conn)}".'
    tables = ", ".join(_scenario(0))
    held: dict[str, set[int]] = {}
    for seed in SEEDS:
        conn.execute(f"TRUNCATE {tables} CASCADE".encode())
        _insert(conn.execute, "%s", _scenario(seed))
        for readable in READABLE:
            conn.execute(
                "SELECT set_config(%s, %s, false)",
                (access_views.PG_SETTING, access_views.pg_array(readable.ids)),
            )
            found = _compare(conn.execute, access_views.PG_OK, base, held)
            assert found == [], (seed, readable, found)
    _varied(held)
