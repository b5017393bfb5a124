"""xdb: an experience database for AI agents.

    import xdb
    with xdb.connect("agent.sqlite3") as db:
        db.record(event_type="input", content="hello")
        db.query(text_search="hello")

``import xdb`` stays light: no model, server or MCP library loads until it is used, and
the database itself (``Database``, ``connect``, ``Caller``: pydantic and the stores) loads
on first use, so what runs on every tool call of a coding agent (``xdb.engine``'s read-only
skip) starts at interpreter speed.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: the hooks start here
if TYPE_CHECKING:
    from typing import Any

    from xdb.core import Database, connect
    from xdb.errors import (
        Conflict,
        InvalidRequest,
        MigrationError,
        NotFound,
        NotReady,
        PermissionDenied,
        StoreError,
        Unauthorized,
        XdbError,
    )
    from xdb.models.common import Caller

__version__ = "0.1.0"

__all__ = [
    "Caller",
    "Conflict",
    "Database",
    "InvalidRequest",
    "MigrationError",
    "NotFound",
    "NotReady",
    "PermissionDenied",
    "StoreError",
    "Unauthorized",
    "XdbError",
    "__version__",
    "connect",
]


_ERRORS = frozenset(
    ("Conflict", "InvalidRequest", "MigrationError", "NotFound", "NotReady",
     "PermissionDenied", "StoreError", "Unauthorized", "XdbError")
)  # fmt: skip


def __getattr__(name: str) -> Any:
    # The heavy part of the public API, imported when first named.
    if name in ("Database", "connect"):
        from xdb import core

        return getattr(core, name)
    if name in _ERRORS:
        from xdb import errors

        return getattr(errors, name)
    if name == "Caller":
        from xdb.models.common import Caller

        return Caller
    raise AttributeError(f"module 'xdb' has no attribute {name!r}")
