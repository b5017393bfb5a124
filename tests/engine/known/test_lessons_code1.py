"""The code1 area's blind lessons name their known mistake, and lessons about other
mistakes name none of the area's."""

from __future__ import annotations

import pytest

from tests.engine.known.lessons_code1 import LESSONS
from xdb.engine.known import named_in
from xdb.engine.known.catalogue import (
    code_go_rust,
    code_go_rust_rs,
    code_more,
    code_python,
    code_sql,
    code_web,
    code_web_js,
    code_web_node,
    py_frameworks,
    py_security,
)

_AREA = frozenset(
    p.name
    for m in (code_python, py_security, py_frameworks, code_sql, code_web, code_web_js,
              code_web_node, code_go_rust, code_go_rust_rs, code_more)
    for p in m.PATTERNS
)  # fmt: skip


@pytest.mark.parametrize(("name", "question", "answer"), LESSONS, ids=lambda v: str(v)[:40])
def test_blind_lesson_names_its_mistake(name: str, question: str, answer: str) -> None:
    named = named_in(question + "\n" + answer)
    if name:
        assert name in _AREA, name
        assert name in named, (name, question, answer)
    else:
        assert not named & _AREA, (sorted(named & _AREA), question)
