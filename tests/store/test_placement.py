"""Every table's place on Citus (``xdb.store.placement``) holds on the live PostgreSQL
schema, the generated script applies to it, and docs/scaling.md is what the declarations
generate."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import errors

from tests.conftest import PostgresServer
from tests.store import _citus_stub
from xdb.store import placement as declared
from xdb.store.placement import distributed, local, reference
from xdb.store.postgres import PostgresStore, citus, scaling_doc

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def conn(postgres_url: str) -> Iterator[psycopg.Connection]:
    with psycopg.connect(postgres_url, autocommit=True) as c:
        yield c


def test_the_live_schema_fits_every_declared_place(conn: psycopg.Connection) -> None:
    assert citus.problems(conn) == []
    # Every table is placed, once, and the script places each.
    placed = [p.table for p in citus.PLACES]
    assert len(placed) == len(set(placed))
    script = citus.script()
    assert all(script.count(f"('{t}'") == 1 for t in placed)


# Tables that break each rule, in a schema of their own, with the places they claim.
_PROBE = """
CREATE SCHEMA probe;
SET search_path TO probe;
CREATE TABLE roots (k text NOT NULL, id text NOT NULL, PRIMARY KEY (k, id));
CREATE TABLE kids (
    k text NOT NULL, id text NOT NULL, rid text NOT NULL, PRIMARY KEY (k, id),
    CONSTRAINT kids_fit FOREIGN KEY (k, rid) REFERENCES roots (k, id),
    CONSTRAINT kids_askew FOREIGN KEY (rid, k) REFERENCES roots (k, id));
CREATE TABLE loose (k text, id text PRIMARY KEY);
CREATE TABLE other (n bigint NOT NULL PRIMARY KEY);
CREATE TABLE numbered (k text NOT NULL, n integer GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (k, n));
CREATE TABLE apart (k text NOT NULL, id text NOT NULL, PRIMARY KEY (k, id),
    CONSTRAINT apart_fk FOREIGN KEY (k, id) REFERENCES roots (k, id));
CREATE TABLE refs (id text PRIMARY KEY, rk text, rid text,
    CONSTRAINT refs_fk FOREIGN KEY (rk, rid) REFERENCES roots (k, id));
CREATE TABLE counted (id text PRIMARY KEY);
CREATE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER counted_bump AFTER INSERT ON counted FOR EACH ROW EXECUTE FUNCTION bump();
CREATE TABLE stray (id text PRIMARY KEY)
"""
_PROBE_PLACES = (
    distributed("roots", "k", "fits"),
    distributed("kids", "k", "one key fits, one does not", colocate_with="roots"),
    distributed("loose", "k", "nullable, left out of its key", colocate_with="roots"),
    distributed("other", "n", "a bigint in a text group", colocate_with="roots"),
    distributed("numbered", "k", "an integer identity", colocate_with="roots"),
    distributed("apart", "k", "a group of its own, keyed into roots"),
    reference("refs", "a reference table naming a distributed one"),
    local("counted", "a trigger"),
    local("ghost", "no such table"),
)


def test_the_check_names_every_kind_of_problem(conn: psycopg.Connection) -> None:
    try:
        for statement in _PROBE.split(";\n"):
            conn.execute(statement.encode())
        found = citus.problems(conn, _PROBE_PLACES, schema="probe")
    finally:
        conn.execute("DROP SCHEMA IF EXISTS probe CASCADE")
    expected = [
        "stray: no stated place",
        "ghost: placed, but not in the schema",
        "numbered: n is numbered by a sequence as integer",
        "loose: k may be null",
        "other: n is bigint, roots.k text",
        "loose: unique key loose_pkey leaves out k",
        "kids: foreign key kids_askew to roots does not join k to k",
        "apart: foreign key apart_fk to roots joins tables that are neither co-located",
        "refs: foreign key refs_fk to roots joins tables that are neither co-located",
        "counted: trigger counted_bump",
    ]
    for fragment in expected:
        assert any(p.startswith(fragment) for p in found), (fragment, found)
    assert len(found) == len(expected), found  # roots, kids_fit: nothing to say


def test_a_place_goes_with_its_create_table() -> None:
    ddl = "CREATE TABLE a (id TEXT PRIMARY KEY);\nCREATE TABLE IF NOT EXISTS b (id TEXT)"
    assert declared.created(ddl) == ["a", "b"]
    with pytest.raises(ValueError, match="every CREATE TABLE needs one place"):
        declared.declared(ddl, local("a", "only one of two"))
    with pytest.raises(ValueError, match="every CREATE TABLE needs one place"):
        declared.declared(ddl, local("a", "x"), local("b", "y"), local("c", "no table"))
    with pytest.raises(ValueError, match="only a distributed table"):
        declared.declared("CREATE TABLE a (id TEXT)", declared.Place("a", "local", "x", "id"))
    assert citus.plan_problems(
        [distributed("a", "k", "x"), distributed("b", "k", "x", colocate_with="c")]
    ) == ["b: co-located with c, which does not start a distributed group"]
    assert citus.plan_problems(
        [distributed("b", "k", "x", colocate_with="a"), distributed("a", "k", "x")]
    ) == ["b: placed before a, the first of its group"]


@pytest.fixture
def stubbed(conn: psycopg.Connection) -> Iterator[psycopg.Connection]:
    """The connection, with Citus's placement functions stubbed on its search path."""
    schema = conn.execute("SELECT current_schema()").fetchone()[0]  # type: ignore[index]
    try:
        for statement in _citus_stub.STATEMENTS:
            conn.execute(statement.encode())
        conn.execute(f'SET search_path TO "{schema}", {_citus_stub.SCHEMA}'.encode())
        yield conn
    finally:
        conn.execute(f"DROP SCHEMA IF EXISTS {_citus_stub.SCHEMA} CASCADE".encode())


def test_the_script_applies_where_the_stubs_check_it(stubbed: psycopg.Connection) -> None:
    statements = [s for s in citus.script().splitlines() if s.startswith("SELECT")]
    for statement in statements:
        stubbed.execute(statement.encode())  # raises where a stub refuses it
    unplaced = stubbed.execute(
        "SELECT c.relname FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace"
        " AND c.relkind IN ('r', 'p') AND c.oid NOT IN (SELECT rel FROM citus_stub.placed)"
    ).fetchall()
    assert unplaced == []
    kinds: dict[str, str] = dict(
        stubbed.execute("SELECT rel::text, kind FROM citus_stub.placed").fetchall()
    )
    assert kinds == {p.table: p.kind for p in citus.PLACES}
    groups: dict[str, str] = dict(
        stubbed.execute("SELECT rel::text, grp::text FROM citus_stub.placed").fetchall()
    )
    assert {t: groups[t] for t in ("timesteps", "memory_records", "dataset_members")} == {
        "timesteps": "sessions",
        "memory_records": "episodes",
        "dataset_members": "dataset_members",
    }


@pytest.mark.parametrize(
    ("calls", "refused"),
    [
        (["create_distributed_table('episodes', 'kind')"], "not in its primary key"),
        (["create_distributed_table('episodes', 'no_such')"], "no column no_such"),
        (
            # Citus's own unique keys: tags (tag_type, name) leaves out id.
            ["create_distributed_table('tags', 'id')"],
            "a unique key leaves out id",
        ),
        (
            [
                "create_distributed_table('audit_log', 'seq', colocate_with => 'none')",
                "create_distributed_table('episodes', 'namespace', colocate_with => 'audit_log')",
            ],
            "namespace is text, but audit_log is distributed by bigint",
        ),
        (
            ["create_distributed_table('episode_concepts', 'namespace')"],
            "names episodes, which is not placed yet",
        ),
        (
            [
                "create_distributed_table('episodes', 'namespace', colocate_with => 'none')",
                "create_distributed_table('episode_labels', 'namespace', colocate_with => 'none')",
            ],
            "neither co-located nor a reference table",
        ),
        (
            ["create_reference_table('tags')", "create_reference_table('tags')"],
            "placed already",
        ),
        (
            [
                "create_distributed_table('concept_packs', 'spec_id')",
                "create_reference_table('concepts')",
            ],
            "names concept_packs, neither co-located nor a reference table",
        ),
    ],
)
def test_the_stubs_refuse_what_citus_would(
    stubbed: psycopg.Connection, calls: list[str], refused: str
) -> None:
    with pytest.raises(errors.RaiseException, match=refused):
        for call in calls:
            stubbed.execute(f"SELECT {call}".encode())


def test_docs_scaling_is_generated_from_the_declarations() -> None:
    text = (ROOT / "docs" / "scaling.md").read_text(encoding="utf-8")
    assert scaling_doc.render(text) == text, (
        "docs/scaling.md is out of date: run python -m xdb.store.postgres.scaling_doc"
    )
    assert citus.script() in text


def test_a_database_from_before_keys_its_records_by_namespace(
    postgres_server: PostgresServer,
) -> None:
    """A database migrated to version 17 opens, its records kept under the new key."""
    url = postgres_server.new_database()
    name = str(psycopg.conninfo.conninfo_to_dict(url)["dbname"])
    try:
        with psycopg.connect(url, autocommit=True) as c:
            for statement in (  # back to version 17's table
                "DROP INDEX memory_records_id",
                "ALTER TABLE memory_records DROP CONSTRAINT memory_records_pkey",
                "ALTER TABLE memory_records ADD PRIMARY KEY (id)",
                "DELETE FROM schema_migrations WHERE version = 18",
                "INSERT INTO memory_records (id, level, namespace, start_us, end_us, tokens,"
                " timesteps, body, created_us) VALUES ('r1', 'reply', 'ns', 1, 2, 3, 4, '{}', 5)",
            ):
                c.execute(statement.encode())
        PostgresStore(url).close()
        with psycopg.connect(url, autocommit=True) as c:
            key = c.execute(
                "SELECT pg_get_constraintdef(oid) FROM pg_constraint"
                " WHERE conname = 'memory_records_pkey'"
            ).fetchone()
            assert key == ("PRIMARY KEY (namespace, id)",)
            assert c.execute("SELECT id, namespace FROM memory_records").fetchall() == [
                ("r1", "ns")
            ]
            assert citus.problems(c) == []
    finally:
        postgres_server.admin(f'DROP DATABASE "{name}"')
