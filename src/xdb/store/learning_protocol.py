"""The learning harness's part of the ``Store`` protocol (``xdb.store.protocol``): buds'
details, exemplars, datasets, training runs and artifacts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from xdb.models.log_objects import Tag
from xdb.store.types import ConceptRow, PackRow

if TYPE_CHECKING:
    from xdb.store.exemplars import ExemplarRow
    from xdb.store.learning import LearningObject


class LearningStore(Protocol):
    """The learning harness: buds' details, exemplars, datasets, training runs, artifacts
    (``store/learning_methods.py``, shared by both stores)."""

    def create_bud(
        self, tag: Tag, details: LearningObject, access_policy_id: str | None
    ) -> tuple[Tag, bool]: ...

    def update_bud(self, tag_id: str, status: str, details: LearningObject) -> None: ...

    def promote_bud(
        self,
        tag_id: str,
        details: LearningObject,
        pack: PackRow,
        concept: ConceptRow,
        related: Sequence[str],
        by: str,
    ) -> None: ...

    def add_exemplar(self, row: ExemplarRow) -> None: ...

    def get_exemplar(self, exemplar_id: str) -> ExemplarRow | None: ...

    def remove_exemplar(self, exemplar_id: str) -> ExemplarRow | None: ...

    def list_exemplars(
        self,
        concept_id: str | None,
        episode_id: str | None,
        label: str | None,
        after: tuple[int, str] | None,
        limit: int,
    ) -> tuple[list[ExemplarRow], int]: ...

    def episode_exemplars(
        self, episode_ids: Sequence[str], concept_id: str
    ) -> list[ExemplarRow]: ...

    def put_learning_object(self, obj: LearningObject) -> None: ...

    def learning_object(self, kind: str, key: str) -> LearningObject | None: ...

    def learning_objects(self, kind: str, keys: Sequence[str]) -> dict[str, LearningObject]: ...

    def list_learning_objects(
        self, kind: str, filters: dict[str, Any], after: tuple[int, str] | None, limit: int
    ) -> tuple[list[LearningObject], int]: ...

    def create_dataset(
        self, make: Any, series: str, members: Sequence[dict[str, Any]], bud: Any = None
    ) -> LearningObject: ...

    def dataset_members(self, dataset_id: str, after: int, limit: int) -> list[dict[str, Any]]: ...

    def dataset_member_counts(self, dataset_id: str) -> dict[str, int]:
        """Members of each polarity, of those the current caller reads."""
        ...

    def episode_seq_span(self) -> tuple[int, int, int]:
        """(count, lowest seq, highest seq) of the episodes the caller reads."""
        ...

    def protected_datasets(self) -> set[str]: ...

    def graph_fragments(self) -> list[dict[str, Any]]:
        """Each Decision or Tool node with the stored edges touching it, as export records."""
        ...

    def sync_merge(self, objects: list[dict[str, Any]], at_us: int, by: str) -> dict[str, Any]:
        """Merge a verified sync bundle's objects in one transaction (store/sync_merge.py)."""
        ...
