"""The log's tags, comments and reads that both stores run with the same SQL (issue 35: one
SQL store, two dialects): written once here, each store giving its dialect and statements
(``_flavor``) and its read and write (``_on_reader``, ``_in_transaction``). What differs stays
with the store: recording (the episodes its ended events become are ``event_episodes``), the
first session's lock and transaction (``_claim`` decides it), a page of the log (SQLite
catches its text index up first) and the session listings (SQLite's counts are settled
lazily, ``store/sqlite/sessions.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from xdb.models.log_objects import Comment, Tag, TagApplication, Timestep
from xdb.store import row_models, tagging
from xdb.store.sqlbuild import Flavor
from xdb.store.types import ResolvedTarget

T = TypeVar("T")


class LogQueries:
    # What the store provides.
    _flavor: Flavor
    _on_reader: Callable[[Callable[[Any], Any]], Any]
    _in_transaction: Callable[[Callable[[Any], Any]], Any]

    def _insert_tag(self) -> str:
        # A tag whose id, or type and name, is taken is skipped (``tagging.insert_tag``).
        marks = self._flavor.d.marks(10)
        return (
            f"INSERT INTO tags ({row_models.TAG_COLUMNS}) VALUES ({marks}) ON CONFLICT DO NOTHING"
        )

    def create_tag(self, tag: Tag, access_policy_id: str | None = None) -> tuple[Tag, bool]:
        d, sql = self._flavor.d, self._insert_tag()
        made: tuple[Tag, bool] = self._in_transaction(
            lambda conn: tagging.insert_tag(conn, tag, sql, d, access_policy_id)
        )
        return made

    def apply_tag(
        self, application: TagApplication, target: ResolvedTarget, new_tag: Tag | None
    ) -> tuple[Tag, bool, int]:
        d, sql = self._flavor.d, self._insert_tag()
        made: tuple[Tag, bool, int] = self._in_transaction(
            lambda conn: tagging.apply_tag(conn, application, target, new_tag, sql, d)
        )
        return made

    def add_comment(
        self, comment: Comment, target: ResolvedTarget | None, access_policy_id: str | None = None
    ) -> None:
        d = self._flavor.d
        self._in_transaction(
            lambda conn: tagging.add_comment(conn, comment, target, d, access_policy_id)
        )

    def get_tag(self, tag_id: str) -> Tag | None:
        sql = f"SELECT {row_models.TAG_COLUMNS} FROM tags WHERE id = {self._flavor.d.mark}"
        row = self._on_reader(lambda c: c.execute(sql, (tag_id,)).fetchone())
        return None if row is None else row_models.tag(row)

    def find_tags(self, name: str, tag_type: str | None = None) -> list[Tag]:
        sql, params = tagging.find_tags_sql(name, tag_type, self._flavor.d)
        found = self._on_reader(lambda c: c.execute(sql, params).fetchall())
        return [row_models.tag(r) for r in found]

    def list_tags(self, tag_type: str | None, bud_status: str | None) -> list[Tag]:
        sql, params = tagging.list_tags_sql(tag_type, bud_status, self._flavor.d)
        found = self._on_reader(lambda c: c.execute(sql, params).fetchall())
        return [row_models.tag(r, application_count=int(r[10])) for r in found]

    def latest_session(self) -> str | None:
        sql = self._flavor.latest_session
        row = self._on_reader(lambda c: c.execute(sql).fetchone())
        return None if row is None else str(row[0])

    def _claim(self, conn: Any, candidate: str, ts_us: int) -> str:
        """``claim_session``'s decision, which each store runs in a write transaction that
        holds its lock on first sessions: the latest session, or ``candidate`` made."""
        row = conn.execute(self._flavor.latest_session).fetchone()
        if row is not None:
            return str(row[0])
        conn.execute(self._flavor.new_session, (candidate, ts_us, ts_us))
        return candidate

    def recent(self, session_id: str, n: int) -> list[Timestep]:
        m = self._flavor.d.mark
        sql = (
            f"SELECT {self._flavor.timesteps} FROM timesteps WHERE session_id = {m}"
            f" ORDER BY tick DESC LIMIT {m}"
        )
        found = self._on_reader(lambda c: c.execute(sql, (session_id, n)).fetchall())
        return [row_models.timestep(r) for r in reversed(found)]

    def annotations(
        self, session_id: str, ticks: tuple[int, int] | None, limit: int
    ) -> tuple[list[tuple[TagApplication, Tag]], list[Comment]]:
        d = self._flavor.d
        found: tuple[list[tuple[TagApplication, Tag]], list[Comment]] = self._on_reader(
            lambda c: tagging.session_annotations(c, d, session_id, ticks, limit)
        )
        return found
