"""The episode reads both stores run with the same SQL (issue 35: one SQL store, two
dialects): written once here, each store giving its dialect and columns (``_flavor``) and its
read (``_on_reader``). What differs stays with the store's own ``episodes`` module: writing
(PostgreSQL's rows carry the distribution column, SQLite's text index is FTS5) and text
ranking (BM25 against ``ts_rank``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdb.store import row_models, sqlbuild
from xdb.store.sqlbuild import Flavor
from xdb.store.types import EpisodeFilter, Place, StoredEpisode, TextChange


class EpisodeReads:
    # What the store provides.
    _flavor: Flavor
    _on_reader: Callable[[Callable[[Any], Any]], Any]

    def _rows_where(self, sql: str, column: str, values: Sequence[Any], kind: str) -> list[Any]:
        """Rows of ``sql`` (ending in WHERE) whose ``column`` is one of ``values``: one
        array parameter on PostgreSQL, chunks of placeholders on SQLite."""
        d = self._flavor.d
        found: list[Any]
        if d.arrays:
            params: list[Any] = []
            where = d.one_of(column, values, params, kind)
            found = self._on_reader(lambda c: c.execute(f"{sql} {where}", params).fetchall())
        else:
            template = f"{sql} {column} IN ({{marks}})"
            found = self._on_reader(lambda c: list(sqlbuild.rows_in(c, d, template, values)))
        return found

    def episodes_by_ids(self, ids: Sequence[str]) -> dict[str, StoredEpisode]:
        sql = f"SELECT {self._flavor.episodes} FROM episodes WHERE"
        return {r[1]: row_models.episode(r) for r in self._rows_where(sql, "id", ids, "text")}

    def episodes_by_seqs(self, seqs: Sequence[int]) -> dict[int, StoredEpisode]:
        sql = f"SELECT {self._flavor.episodes} FROM episodes WHERE"
        return {
            int(r[0]): row_models.episode(r) for r in self._rows_where(sql, "seq", seqs, "bigint")
        }

    def episode_places(self, seqs: Sequence[int]) -> dict[int, Place]:
        sql = "SELECT seq, session_id, end_us, namespace, start_us FROM episodes WHERE"
        found = self._rows_where(sql, "seq", seqs, "bigint")
        return {int(r[0]): Place(r[1], int(r[2]), r[3], int(r[4])) for r in found}

    def episode_neighbours(self, seq: int) -> tuple[str | None, str | None]:
        """The ids of the episodes just before and just after ``seq`` (NEXT): in its
        session, or among its namespace's nearby sessionless episodes
        (``row_models.neighbours``)."""
        d = self._flavor.d
        before, after = self._on_reader(lambda c: row_models.neighbours(c, d, seq, "id"))
        return before, after

    def episode_max_seq(self) -> int:
        # (Not max(seq): through a restricted caller's views max() reads every row; this
        # walks the seq index back from the newest to the first it may read.)
        sql = "SELECT seq FROM episodes ORDER BY seq DESC LIMIT 1"
        row = self._on_reader(lambda c: c.execute(sql).fetchone())
        return 0 if row is None else int(row[0])

    def episode_page(
        self,
        flt: EpisodeFilter,
        after: tuple[int, int] | None,
        limit: int,
        descending: bool,
        seed: int | None = None,
    ) -> list[tuple[int, int]]:
        d = self._flavor.d
        page: list[tuple[int, int]] = self._on_reader(
            lambda c: sqlbuild.ordered_page(c, flt, after, limit, descending, seed, d)
        )
        return page

    def episode_concept_ranking(
        self, flt: EpisodeFilter, concept_ids: Sequence[str], limit: int
    ) -> list[tuple[int, float]]:
        d, join = self._flavor.d, self._flavor.concept_join
        ranked: list[tuple[int, float]] = self._on_reader(
            lambda c: sqlbuild.concept_scores(c, flt, concept_ids, limit, join, d)
        )
        return ranked

    def episode_seqs(self, flt: EpisodeFilter) -> list[int]:
        d = self._flavor.d
        seqs: list[int] = self._on_reader(lambda c: sqlbuild.matching_seqs(c, flt, d))
        return seqs

    def text_changes(self, after: int, limit: int) -> list[TextChange]:
        flavor = self._flavor
        changes: list[TextChange] = self._on_reader(
            lambda c: row_models.text_changes(c, flavor, after, limit)
        )
        return changes

    def latest_text_change(self) -> int:
        sql = "SELECT coalesce(max(change), 0) FROM episode_text_changes"
        row = self._on_reader(lambda c: c.execute(sql).fetchone())
        return int(row[0]) if row else 0
