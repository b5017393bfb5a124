"""Lessons written blind about shell-command mistakes (git, files, system, packages, docker,
helm, kubectl, terraform, cloud and database CLIs) name their pattern by their words;
lessons about other mistakes name none of the area's patterns."""

from __future__ import annotations

import pytest

from tests.engine.known.lessons_shell import LESSONS
from xdb.engine.known import (
    CATALOGUE,
    named_in,
    shell_more,
    shell_ops,
    shell_ops_cloud,
    shell_ops_data,
    shell_ops_k8s,
    shell_ops_tf,
    shell_vcs_files,
    shell_vcs_files_fs,
    shell_vcs_files_pkg,
    shell_vcs_files_sys,
)

MODULES = (
    shell_vcs_files,
    shell_vcs_files_fs,
    shell_vcs_files_sys,
    shell_vcs_files_pkg,
    shell_ops,
    shell_ops_k8s,
    shell_ops_tf,
    shell_ops_cloud,
    shell_ops_data,
    shell_more,
)
AREA = frozenset(p.name for m in MODULES for p in m.PATTERNS)


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
