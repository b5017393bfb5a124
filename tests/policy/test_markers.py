"""Every field that could carry a concept says how the policy treats it: a new model field
named like a concept, a concept list or a graph node fails here until it is marked
(``xdb.models.concept_markers``), so no operation's output can slip a concept past the release."""

from __future__ import annotations

import re
import typing
from collections.abc import Iterator
from enum import Enum
from typing import Any

from pydantic import BaseModel

from xdb.models.concept_markers import Marker
from xdb.ops.catalog import operations
from xdb.policy.release import names_concepts

CONCEPTISH = re.compile(
    r"concept|motive|activation|related|children|antonym|has_part|part_of|parent|node|overlap"
    r"|^src$|^dst$|^source$|^target$|seed_ids"
)
# Fields whose names say concept but whose values are counts, flags or numbers.
PLAIN_TYPES = (int, float, bool)


def models(model: type[BaseModel], seen: set[type[BaseModel]]) -> Iterator[type[BaseModel]]:
    if model in seen:
        return
    seen.add(model)
    yield model
    for info in model.model_fields.values():
        for inner in _inner(info.annotation):
            yield from models(inner, seen)


def _inner(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in typing.get_args(annotation):
        yield from _inner(arg)


def _plain(annotation: Any) -> bool:
    """Numbers, flags, enums and literals: values a concept cannot be."""
    if typing.get_origin(annotation) is typing.Literal:
        return True
    if isinstance(annotation, type) and issubclass(annotation, (*PLAIN_TYPES, Enum)):
        return True
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    return bool(args) and all(_plain(a) for a in args)


def test_every_concept_like_field_of_every_operation_is_marked() -> None:
    unmarked = []
    seen: set[type[BaseModel]] = set()
    for op in operations():
        for model in [*models(op.request, seen), *models(op.response, seen)]:
            for name, info in model.model_fields.items():
                if not CONCEPTISH.search(name) or _plain(info.annotation):
                    continue
                if any(isinstance(m, Marker) for m in info.metadata):
                    continue
                if list(_inner(info.annotation)):
                    continue  # a nested model: its own fields are checked
                unmarked.append(f"{model.__name__}.{name}")
    assert unmarked == [], "mark these fields (xdb.models.concept_markers)"


def test_the_responses_that_name_concepts_are_the_ones_released() -> None:
    naming = {f"{op.group}.{op.name}" for op in operations() if names_concepts(op.response)}
    assert {
        "xdb.query",
        "xdb.recent",
        "xdb.tags",
        "xdb.annotations",
        "xdb.concepts",
        "xdb.get_concept",
        "xdb.find_concept",
        "xdb.graph_neighborhood",
        "experience.search_episodes",
        "experience.get_episode_detail",
        "experience.similar_episodes",
        "experience.graph_neighborhood",
        "experience.concept_usage_summary",
    } <= naming
