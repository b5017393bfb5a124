"""Where the database lives when nobody says: ``--db``, else ``XDB_DB``, else a file in the
user's data directory."""

from __future__ import annotations

import os
from pathlib import Path


def default_db() -> str:
    env = os.environ.get("XDB_DB")
    if env:
        return env
    from platformdirs import user_data_dir

    return str(Path(user_data_dir("xdb", appauthor=False)) / "xdb.sqlite3")
