"""Where each table lives on a distributed PostgreSQL (Citus), declared beside its DDL.

A place is one of three: distributed by a column (hashed into shards; tables of one group
share the column's type and sit together, so their joins and cascades stay on one shard),
a reference table (a copy on every node: small, joined by every shard), or local to the
coordinator (one copy where clients connect: read by the coordinator alone, or needing one
global order). Each comes with a short reason.

``declared`` ties places to the DDL that creates the tables: a ``CREATE TABLE`` without a
place, or a place without its ``CREATE TABLE``, fails when the module is imported, so a
new table cannot be added without saying where it goes. What a place implies for the keys
and foreign keys is checked on a live database (``xdb.store.postgres.citus``), and the
plan Citus would be given is generated from these declarations (``docs/scaling.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DISTRIBUTED = "distributed"
REFERENCE = "reference"
LOCAL = "local"


@dataclass(frozen=True)
class Place:
    table: str
    kind: str  # DISTRIBUTED, REFERENCE or LOCAL
    why: str
    column: str | None = None  # the distribution column
    colocate_with: str | None = None  # the group's first table; None: it starts a group


def distributed(table: str, column: str, why: str, colocate_with: str | None = None) -> Place:
    return Place(table, DISTRIBUTED, why, column, colocate_with)


def reference(table: str, why: str) -> Place:
    return Place(table, REFERENCE, why)


def local(table: str, why: str) -> Place:
    return Place(table, LOCAL, why)


_CREATE = re.compile(r"\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.IGNORECASE)


def created(ddl: str) -> list[str]:
    """The tables a script creates, in order."""
    return _CREATE.findall(ddl)


def declared(ddl: str, *places: Place) -> tuple[Place, ...]:
    """``places``, once each of the tables ``ddl`` creates has exactly one and each place
    names one of them (else ValueError, raised as the declaring module is imported)."""
    tables = created(ddl)
    named = [p.table for p in places]
    if sorted(tables) != sorted(named) or len(set(named)) != len(named):
        raise ValueError(
            f"tables created {sorted(tables)} and tables placed {sorted(named)} differ:"
            " every CREATE TABLE needs one place (xdb.store.placement)"
        )
    for p in places:
        if (p.kind == DISTRIBUTED) != (p.column is not None) or (
            p.colocate_with is not None and p.kind != DISTRIBUTED
        ):
            raise ValueError(f"{p.table}: only a distributed table has a column and a group")
    return places
