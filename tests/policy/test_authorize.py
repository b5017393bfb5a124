"""The authorization matrix: each role against each operation. Reads are open to every
caller, writes to the agent and admins, managing policy to admins; a refused call changes
nothing and says which roles it needs."""

from __future__ import annotations

from pathlib import Path

import pytest

import xdb
from xdb.ops.catalog import operations

ROLES = {
    "self": xdb.Caller(),
    "admin": xdb.Caller(id="ops", roles=("admin",)),
    "auditor": xdb.Caller(id="audit", roles=("auditor",)),
    "partner": xdb.Caller(id="acme", roles=("partner",), treaty_ids=("t",)),
    "nobody": xdb.Caller(id="anon", roles=()),
}


def expected(group: str, readonly: bool, role: str) -> bool:
    if group == "policy":
        return role == "admin"
    if group == "audit":
        return role == "auditor"  # reading it and its retention: no one else, not even admins
    return readonly or role in ("self", "admin")


@pytest.mark.parametrize("role", sorted(ROLES))
def test_each_role_against_each_operation(role: str, tmp_path: Path) -> None:
    with xdb.connect(tmp_path / "x.sqlite3", embedder="hash") as db:
        before = db.export_records()
        snapshot = list(before)
        for op in operations():
            allowed = expected(op.group, op.readonly, role)
            try:
                db.run(op, {}, caller=ROLES[role])  # {}: most requests are then invalid
            except xdb.PermissionDenied as exc:
                assert not allowed, (op.name, role, exc)
                assert "needs one of the roles" in exc.message
                continue
            except xdb.XdbError:
                pass  # allowed in, then refused for its input
            assert allowed, (op.name, role)
        if role not in ("self", "admin", "auditor"):
            assert list(db.export_records()) == snapshot  # refused writes changed nothing
