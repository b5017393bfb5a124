"""The stores every fidelity test runs on (the operations' fixtures), and an admin to set
resource contracts."""

from __future__ import annotations

from typing import Any

import xdb
from tests.ops.conftest import is_postgres, module_target, new_target, target

__all__ = ["ADMIN", "contract", "is_postgres", "module_target", "new_target", "target"]

ADMIN = xdb.Caller(id="admin", roles=("admin",))


def contract(db: xdb.Database, **fields: Any) -> None:
    """Set the database's resource contract as an admin."""
    db.as_caller(ADMIN).set_resource_contract(**fields)
