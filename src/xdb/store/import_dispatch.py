"""An import's walk over an export's records, both stores' (issue 35: one SQL store, two
dialects): each record parsed and handed to its kind's writer, runs of timesteps and of
episodes gathered into batches, and what was inserted or skipped counted. Written once
here; each store's ``transfer`` subclasses ``RecordImport`` with what really differs: its
dialect's statements (``_dialect``, ``_insert_ignore``, ``_greatest``), its batch sizes, the
work before and after the records (``_begin``, ``_finish``: locks, counters, indexes) and
its bulk inserts (``_insert_timesteps``, ``_insert_episodes``, ``_insert_annotation``). The
records themselves (models, validation, order) are ``xdb.store.records``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from xdb.gcpause import collector_paused
from xdb.models.log_objects import Tag, Timestep
from xdb.store import graph_transfer, row_models
from xdb.store.records import (
    FORMAT,
    POLICY_KINDS,
    EpisodeRecord,
    SessionRecord,
    VectorDimensions,
    annotation_row,
    check_version,
    parse,
    unknown_kind,
)
from xdb.store.records import timestep as timestep_record
from xdb.store.sqlbuild import Connection, Dialect
from xdb.store.types import Made
from xdb.timeutil import to_us

C = TypeVar("C", bound=Connection)

_SESSION_COLUMNS = "session_id, next_tick, created_us, last_us"


class RecordImport(ABC, Generic[C]):
    """One import, in the caller's write transaction: ``run`` restores the records and
    returns how many of each kind were inserted, and how many were skipped as stored."""

    # What the store provides.
    _dialect: Dialect
    # An insert that skips a row whose key is stored, with {table}, {columns} and {marks}
    # to fill. SQLite's keeps the INSERT OR IGNORE its import always had: that also skips a
    # row failing a NOT NULL or CHECK constraint, where ON CONFLICT DO NOTHING would fail.
    _insert_ignore: str
    _greatest: str  # the larger of two values: max() on SQLite, greatest() on PostgreSQL

    def __init__(self, conn: C, made: Made | None, timestep_batch: int, episode_batch: int) -> None:
        """``made``: the length of the vectors the database's embedder makes for a model
        (``records.VectorDimensions``); the batches: how many timesteps, and how many
        episodes, are inserted together (their records stay in memory till then)."""
        self.conn = conn
        self.made = made
        self.timestep_batch = timestep_batch
        self.episode_batch = episode_batch
        m, most = self._dialect.mark, self._greatest
        self._insert_session = self._insert_ignore.format(
            table="sessions", columns=_SESSION_COLUMNS, marks=self._dialect.marks(4)
        )
        # A session's record moves its next tick and last time on, never back.
        self._move_session = (
            f"UPDATE sessions SET next_tick = {most}(next_tick, {m}),"
            f" last_us = {most}(last_us, {m}) WHERE session_id = {m}"
        )
        self._insert_tag = self._insert_ignore.format(
            table="tags", columns=row_models.TAG_COLUMNS, marks=self._dialect.marks(10)
        )
        self._stored_tag = f"SELECT id FROM tags WHERE tag_type = {m} AND name = {m}"
        self._tag_exists = f"SELECT 1 FROM tags WHERE id = {m}"

    def _begin(self) -> None:
        """What the store does before the first record (none by default)."""

    def _finish(self) -> None:
        """What the store does after the last record is written (none by default)."""

    @abstractmethod
    def _dimension(self, model: str) -> int | None:
        """The length of ``model``'s stored vectors (None: none are stored)."""

    @abstractmethod
    def _insert_timesteps(self, batch: list[Timestep]) -> int:
        """Insert the timesteps not stored yet (by session and tick), in order, keeping each
        session's counters as recording them would; how many were inserted."""

    @abstractmethod
    def _insert_episodes(self, batch: list[EpisodeRecord]) -> int:
        """Insert the episodes not stored yet (``records.insert_new_episodes``); how many."""

    def _insert_annotation(self, table: str, columns: str, values: tuple[Any, ...]) -> int:
        """Insert a tag application or comment unless its id is stored; 1 if inserted."""
        sql = self._insert_ignore.format(
            table=table, columns=columns, marks=self._dialect.marks(len(values))
        )
        return int(self.conn.execute(sql, values).rowcount)

    def _has_tag(self, tag_id: str) -> bool:
        return self.conn.execute(self._tag_exists, (tag_id,)).fetchone() is not None

    def run(self, records: Iterable[dict[str, Any]]) -> dict[str, int]:
        with collector_paused():  # (``xdb.gcpause``: why)
            return self._run(records)

    def _run(self, records: Iterable[dict[str, Any]]) -> dict[str, int]:
        conn, d = self.conn, self._dialect
        self._begin()
        counts = {k: 0 for k in ("session", "tag", "timestep", "tag_application", "comment")}
        # Counted only when the input has episodes, so a log-only import reports what it did.
        episode_count: int | None = None
        skipped = 0
        tag_ids: dict[str, str] = {}  # imported tag id -> stored id (same name and type)
        graph = graph_transfer.GraphImport(conn, d)
        # A run of timestep records or of episode records (never both), inserted together.
        pending: list[Timestep] = []
        pending_episodes: list[EpisodeRecord] = []
        dimensions = VectorDimensions(self._dimension, self.made)

        def flush() -> None:
            nonlocal skipped, episode_count
            if pending:
                added = self._insert_timesteps(pending)
                counts["timestep"] += added
                skipped += len(pending) - added
                pending.clear()
            if pending_episodes:
                added = self._insert_episodes(pending_episodes)
                episode_count = (episode_count or 0) + added
                skipped += len(pending_episodes) - added
                pending_episodes.clear()

        for number, raw in enumerate(records, 1):
            kind = raw.get("kind")
            body = dict(raw)
            body.pop("kind", None)
            if kind == "timestep":
                if pending_episodes:
                    flush()
                pending.append(timestep_record(body, number))
                if len(pending) >= self.timestep_batch:
                    flush()
                continue
            if kind == "episode":
                if pending:
                    flush()
                record = parse(EpisodeRecord, body, number, kind)
                dimensions.check(record, number)
                pending_episodes.append(record)
                if len(pending_episodes) >= self.episode_batch:
                    flush()
                continue
            flush()  # keep the records' order: what follows may refer to those in a batch
            if kind == FORMAT:
                check_version(raw, number)
            elif kind == "session":
                s = parse(SessionRecord, body, number, kind)
                cus, lus = to_us(s.created_at), to_us(s.last_at)
                values = (s.session_id, s.next_tick, cus, lus)
                added = conn.execute(self._insert_session, values).rowcount
                conn.execute(self._move_session, (s.next_tick, lus, s.session_id))
                counts["session"] += added
                skipped += 1 - added
            elif kind == "tag":
                t = parse(Tag, body, number, kind)
                values = row_models.tag_values(t, to_us(t.created_at))
                added = conn.execute(self._insert_tag, values).rowcount
                stored = conn.execute(self._stored_tag, (t.tag_type.value, t.name)).fetchone()
                tag_ids[t.id] = stored[0] if stored else t.id
                counts["tag"] += added
                skipped += 1 - added
            elif kind in ("tag_application", "comment"):
                table, columns, values = annotation_row(kind, body, number, tag_ids, self._has_tag)
                added = self._insert_annotation(table, columns, values)
                counts[kind] += added
                skipped += 1 - added
            elif kind in graph_transfer.KINDS:
                skipped += 1 - graph.add(kind, body, number)
            elif kind in POLICY_KINDS:
                added = POLICY_KINDS[kind](conn, d, body, number)
                counts[kind] = counts.get(kind, 0) + added
                skipped += 1 - added
            else:
                raise unknown_kind(kind, number)
        flush()
        self._finish()
        if episode_count is not None:
            counts["episode"] = episode_count
        return {**counts, **graph.counts, "skipped": skipped}
