"""The store methods of concepts, shared by both stores (``SharedMethods``): concept packs
and the hierarchy (``store.concepts``), and concept usage over episodes and timesteps
(``store.usage``)."""

from __future__ import annotations

from collections.abc import Sequence

from xdb.store import concepts as concept_sql
from xdb.store import usage
from xdb.store.shared_methods import SharedMethods
from xdb.store.types import ConceptRow, EpisodeFilter, HierarchyStep, PackRow


class ConceptMethods(SharedMethods):
    # ------------------------------------------------------------------ concept packs

    def import_concept_pack(
        self,
        pack: PackRow,
        concepts: Sequence[ConceptRow],
        related: Sequence[tuple[str, str]],
        created_by: str,
    ) -> bool:
        f = self._flavor
        return self._in_transaction(
            lambda c: concept_sql.import_pack(c, f, pack, concepts, related, created_by)
        )

    def concept_packs(self) -> list[PackRow]:
        return self._on_reader(concept_sql.packs)

    def concepts_by_ids(self, ids: Sequence[str]) -> list[ConceptRow]:
        return self._on_reader(lambda c: concept_sql.concepts_by_ids(c, self._flavor, ids))

    def concept_names(self) -> list[tuple[str, str, str, int, list[str], str]]:
        return self._on_reader(concept_sql.concept_names)

    def concept_children(
        self, parent_id: str | None, spec_ids: Sequence[str] | None, limit: int
    ) -> tuple[list[ConceptRow], int]:
        return self._on_reader(
            lambda c: concept_sql.concept_children(c, self._flavor, parent_id, spec_ids, limit)
        )

    def concepts_by_term(self, term: str, layer: int | None) -> list[tuple[str, str, int]]:
        return self._on_reader(lambda c: concept_sql.concepts_by_term(c, self._flavor, term, layer))

    def concept_episode_counts(self, concept_ids: Sequence[str]) -> dict[str, int]:
        return self._on_reader(lambda c: concept_sql.episode_counts(c, self._flavor, concept_ids))

    def concepts_carried(self, values: Sequence[str]) -> set[str]:
        return self._on_reader(lambda c: concept_sql.carried(c, self._flavor, values))

    def concept_subtree(self, concept_id: str) -> list[str]:
        return self._on_reader(lambda c: concept_sql.subtree(c, self._flavor.d, concept_id))

    def concept_walk(
        self, seeds: Sequence[str], max_depth: int, up: bool, down: bool
    ) -> list[HierarchyStep]:
        return self._on_reader(
            lambda c: concept_sql.walk(c, self._flavor.d, seeds, max_depth, up, down)
        )

    # ------------------------------------------------------------------ usage

    def concept_carriers(
        self, flt: EpisodeFilter, concept_ids: Sequence[str]
    ) -> list[tuple[int, int, float, bool]]:
        return self._on_reader(lambda c: usage.carrying(c, self._flavor, flt, concept_ids))

    def episode_span(self, flt: EpisodeFilter) -> tuple[int, int | None, int | None]:
        return self._on_reader(lambda c: usage.span(c, self._flavor, flt))

    def episode_buckets(self, flt: EpisodeFilter, lo: int, width: int, count: int) -> list[int]:
        return self._on_reader(lambda c: usage.buckets(c, self._flavor, flt, lo, width, count))

    def cooccurring_concepts(
        self, flt: EpisodeFilter, group: Sequence[str], min_count: int, limit: int
    ) -> list[tuple[str, int, int]]:
        return self._on_reader(
            lambda c: usage.cooccurring(c, self._flavor, flt, group, min_count, limit)
        )

    def activation_stats(
        self, concept_ids: Sequence[str], start_us: int | None, end_us: int | None
    ) -> tuple[int, float | None, float | None, float | None]:
        return self._on_reader(
            lambda c: usage.activations(c, self._flavor, concept_ids, start_us, end_us)
        )
