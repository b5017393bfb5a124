"""Lessons written blind about infrastructure and configuration mistakes name their pattern
by their words; lessons about other mistakes name none of the area's patterns."""

from __future__ import annotations

import pytest

from tests.engine.known.lessons_infra import LESSONS
from xdb.engine.known import (
    CATALOGUE,
    config_infra,
    config_infra_ci,
    config_infra_cloud,
    config_infra_k8s,
    config_more,
    named_in,
)

AREA = frozenset(
    p.name
    for m in (config_infra, config_infra_k8s, config_infra_cloud, config_infra_ci, config_more)
    for p in m.PATTERNS
)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson[0] or lesson[1][:40])
def test_lesson_names_its_pattern(lesson: tuple[str, str, str]) -> None:
    name, question, answer = lesson
    named = named_in(question + "\n" + answer)
    if name:
        assert name in CATALOGUE, name
        assert name in named, (name, sorted(named))
    else:
        assert not named & AREA, sorted(named & AREA)


def test_every_area_pattern_has_a_lesson() -> None:
    assert {name for name, _, _ in LESSONS} >= AREA, sorted(AREA - {n for n, _, _ in LESSONS})
