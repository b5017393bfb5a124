"""xdb: an experience database for AI agents.

    import xdb
    with xdb.connect("agent.sqlite3") as db:
        db.record(event_type="input", content="hello")
        db.query(text_search="hello")

``import xdb`` stays light: no model, server or MCP library loads until it is used.
"""

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
