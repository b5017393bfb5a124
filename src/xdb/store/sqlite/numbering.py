"""How SQLite numbers episodes (seq) and vectors (vseq): never reusing a number, so caches
that keep a watermark over them stay right (``schema``'s migration 5 keeps the floors).

Its own module, not ``schema``'s: ``episodes`` and ``vectors`` number their rows at import,
and ``schema`` runs ``episodes`` in a migration; this kept the two in an import circle.
"""

from __future__ import annotations


def next_number(table: str, column: str) -> str:
    """SQL for the next number of ``table.column`` (a rowid): above every number it holds
    and every number it held (migration 5)."""
    return (
        f"(SELECT max(coalesce((SELECT max({column}) FROM {table}), 0), floor) + 1"
        f" FROM number_floors WHERE name = '{table}.{column}')"
    )
