"""The store methods of the learning harness (buds, exemplars, datasets, training runs),
shared by both stores (``SharedMethods``): each runs a ``learning``/``exemplars`` function
on a reader or in one write transaction of its store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdb.errors import NotFound
from xdb.models.log_objects import Tag
from xdb.store import concepts as concept_sql
from xdb.store import exemplars, learning, row_models, tagging
from xdb.store.exemplars import ExemplarRow
from xdb.store.graph_edges import CONCEPT_NODE, EDGE_COLUMNS
from xdb.store.learning import LearningObject
from xdb.store.shared_methods import SharedMethods
from xdb.store.types import ConceptRow, PackRow


class LearningMethods(SharedMethods):
    # ------------------------------------------------------------------ buds

    def create_bud(
        self, tag: Tag, details: LearningObject, access_policy_id: str | None
    ) -> tuple[Tag, bool]:
        """A bud tag and its details in one transaction (details only for a new tag)."""
        d = self._flavor.d
        insert = (
            f"INSERT INTO tags ({row_models.TAG_COLUMNS}) VALUES ({d.marks(10)})"
            " ON CONFLICT DO NOTHING"
        )

        def job(c: Any) -> tuple[Tag, bool]:
            stored, created = tagging.insert_tag(c, tag, insert, d, access_policy_id)
            if created:
                learning.put(c, d, details)
            return stored, created

        return self._in_transaction(job)

    def update_bud(self, tag_id: str, status: str, details: LearningObject) -> None:
        d = self._flavor.d

        def job(c: Any) -> None:
            c.execute(
                f"UPDATE tags SET bud_status = {d.mark} WHERE id = {d.mark}", (status, tag_id)
            )
            learning.put(c, d, details)

        self._in_transaction(job)

    def promote_bud(
        self,
        tag_id: str,
        details: LearningObject,
        pack: PackRow,
        concept: ConceptRow,
        related: Sequence[str],
        by: str,
    ) -> None:
        """The bud promoted and its concept added to the local pack, in one transaction."""
        f = self._flavor
        d = f.d

        def job(c: Any) -> None:
            c.execute(f"UPDATE tags SET bud_status = 'promoted' WHERE id = {d.mark}", (tag_id,))
            learning.put(c, d, details)
            concept_sql.add_pack(c, d, pack)
            c.execute(
                f"INSERT INTO concepts ({concept_sql.CONCEPT_COLUMNS}) VALUES ({d.marks(13)})",
                concept_sql.concept_values(concept),
            )
            c.execute(
                "UPDATE concept_packs SET concept_count = concept_count + 1,"
                f" version = {d.mark} WHERE spec_id = {d.mark}",
                (pack.version, pack.spec_id),
            )
            if concept.parent_id is not None:
                c.execute(
                    f"UPDATE concepts SET child_count = child_count + 1 WHERE id = {d.mark}",
                    (concept.parent_id,),
                )
            for other in related:
                c.execute(
                    f"INSERT INTO graph_edges ({EDGE_COLUMNS}) VALUES ({d.marks(6)})"
                    " ON CONFLICT DO NOTHING",
                    (
                        CONCEPT_NODE + concept.id,
                        "RELATED_CONCEPT",
                        CONCEPT_NODE + other,
                        None,
                        details.updated_us,
                        by,
                    ),
                )

        self._in_transaction(job)

    # ------------------------------------------------------------------ exemplars

    def add_exemplar(self, row: ExemplarRow) -> None:
        """Store an exemplar (an episode's also becomes its label); NotFound for an
        episode that is not stored."""
        d = self._flavor.d

        def job(c: Any) -> None:
            exemplars.insert(c, d, [row])
            if row.episode_id is not None and not exemplars.sync_episode(
                c, d, row.episode_id, row.concept_id, row.label
            ):
                raise NotFound(f"unknown episode_id {row.episode_id!r}", field="episode_id")

        self._in_transaction(job)

    def get_exemplar(self, exemplar_id: str) -> ExemplarRow | None:
        d = self._flavor.d
        return self._on_reader(lambda c: exemplars.get(c, d, exemplar_id))

    def remove_exemplar(self, exemplar_id: str) -> ExemplarRow | None:
        d = self._flavor.d
        return self._in_transaction(lambda c: exemplars.remove(c, d, exemplar_id))

    def list_exemplars(
        self,
        concept_id: str | None,
        episode_id: str | None,
        label: str | None,
        after: tuple[int, str] | None,
        limit: int,
    ) -> tuple[list[ExemplarRow], int]:
        d = self._flavor.d
        return self._on_reader(
            lambda c: exemplars.listed(c, d, concept_id, episode_id, label, after, limit)
        )

    def episode_exemplars(self, episode_ids: Sequence[str], concept_id: str) -> list[ExemplarRow]:
        d = self._flavor.d
        return self._on_reader(lambda c: exemplars.for_episodes(c, d, episode_ids, concept_id))

    # ------------------------------------------------------------------ objects

    def put_learning_object(self, obj: LearningObject) -> None:
        d = self._flavor.d
        self._in_transaction(lambda c: learning.put(c, d, obj))

    def learning_object(self, kind: str, key: str) -> LearningObject | None:
        d = self._flavor.d
        return self._on_reader(lambda c: learning.get(c, d, kind, key))

    def learning_objects(self, kind: str, keys: Sequence[str]) -> dict[str, LearningObject]:
        d = self._flavor.d
        return self._on_reader(lambda c: learning.get_many(c, d, kind, keys))

    def list_learning_objects(
        self, kind: str, filters: dict[str, Any], after: tuple[int, str] | None, limit: int
    ) -> tuple[list[LearningObject], int]:
        d = self._flavor.d
        return self._on_reader(lambda c: learning.listed(c, d, kind, filters, after, limit))

    def create_dataset(
        self,
        make: Any,
        series: str,
        members: Sequence[dict[str, Any]],
        bud: Any = None,
    ) -> LearningObject:
        """Store the next version of a dataset ``series``: ``make(version)`` gives its
        object; its members go in with it, and ``bud(dataset_id)``'s details (a bud's that
        names its newest dataset), all in one transaction."""
        d = self._flavor.d

        def job(c: Any) -> LearningObject:
            obj: LearningObject = make(learning.latest_version(c, d, "dataset", series) + 1)
            learning.put(c, d, obj)
            learning.add_members(c, d, obj.id, members)
            if bud is not None:
                learning.put(c, d, bud(obj.id))
            return obj

        return self._in_transaction(job)

    def dataset_members(self, dataset_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        d = self._flavor.d
        return self._on_reader(lambda c: learning.members(c, d, dataset_id, after, limit))

    def dataset_member_counts(self, dataset_id: str) -> dict[str, int]:
        d = self._flavor.d
        return self._on_reader(lambda c: learning.member_counts(c, d, dataset_id))

    def episode_seq_span(self) -> tuple[int, int, int]:
        """(count, lowest seq, highest seq) of the episodes the caller reads."""

        def read(c: Any) -> tuple[int, int, int]:
            n, lo, hi = c.execute("SELECT count(*), min(seq), max(seq) FROM episodes").fetchone()
            return int(n), int(lo or 0), int(hi or 0)

        return self._on_reader(read)

    def protected_datasets(self) -> set[str]:
        d = self._flavor.d
        return self._on_reader(lambda c: learning.referenced_by_active_runs(c, d))
