"""Storage: one protocol (``Store``), a SQLite and a PostgreSQL implementation.

What both implementations do alike lives here, not in either: ``sqlbuild`` (filters and
pages), ``row_models`` (row converters), ``records`` (the export format), ``tagging`` (tags,
applications, comments) and ``context`` (an episode's indexed context).
"""

from xdb.store.protocol import Store
from xdb.store.types import NewTimestep, ResolvedTarget, TimestepFilter

__all__ = ["NewTimestep", "ResolvedTarget", "Store", "TimestepFilter"]
