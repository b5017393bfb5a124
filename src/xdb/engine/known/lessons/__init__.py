"""Lessons written blind, as engineers write them after being bitten: from each known
mistake's name and examples, before its phrases were read (and lessons about other
mistakes, named ""). They test that the phrases name their pattern, and they are what
``known.similar`` compares a lesson naming no pattern with: the other ways people tell
the same mistake."""

from __future__ import annotations

from xdb.engine.known.lessons import (
    code1,
    code2,
    infra,
    shell_commands,
    wave5_c1,
    wave5_c2,
    wave5_i1,
    wave5_s1,
    wave5_s2,
)

__all__ = ["LESSONS"]

# (pattern name or "", question, answer), every area's.
LESSONS: tuple[tuple[str, str, str], ...] = (
    *shell_commands.LESSONS, *code1.LESSONS, *code2.LESSONS, *infra.LESSONS, *wave5_s1.LESSONS,
    *wave5_s2.LESSONS, *wave5_c1.LESSONS, *wave5_c2.LESSONS, *wave5_i1.LESSONS,
)  # fmt: skip
