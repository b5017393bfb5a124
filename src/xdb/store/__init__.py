"""Storage: one protocol (``Store``), a SQLite implementation, and (later) PostgreSQL."""

from xdb.store.protocol import NewTimestep, ResolvedTarget, Store, TimestepFilter

__all__ = ["NewTimestep", "ResolvedTarget", "Store", "TimestepFilter"]
