"""Blind lessons for the JVM / .NET / Ruby / PHP / Swift / C / Elixir / Dart patterns name
their pattern by their words, and lessons about something else name none of them."""

from __future__ import annotations

import pytest

from tests.engine.known.lessons_code2 import LESSONS
from xdb.engine.known import code_jvm_dotnet as _jvm
from xdb.engine.known import code_jvm_dotnet_cs as _cs
from xdb.engine.known import code_jvm_dotnet_spring as _spring
from xdb.engine.known import code_more_jvm as _more
from xdb.engine.known import code_other as _other
from xdb.engine.known import code_other_native as _native
from xdb.engine.known import named_in

AREA = frozenset(p.name for m in (_jvm, _cs, _spring, _other, _native, _more) for p in m.PATTERNS)


def test_every_area_pattern_has_lessons() -> None:
    taught = {name for name, _, _ in LESSONS}
    assert taught >= AREA, sorted(AREA - taught)


@pytest.mark.parametrize(
    "lesson", [x for x in LESSONS if x[0]], ids=lambda x: f"{x[0]}:{x[1][:30]}"
)
def test_lesson_names_its_pattern(lesson: tuple[str, str, str]) -> None:
    name, question, answer = lesson
    assert name in AREA, name
    assert name in named_in(question + "\n" + answer)


@pytest.mark.parametrize("lesson", [x for x in LESSONS if not x[0]], ids=lambda x: x[1][:40])
def test_other_lesson_names_none_of_the_area(lesson: tuple[str, str, str]) -> None:
    _, question, answer = lesson
    assert not named_in(question + "\n" + answer) & AREA
