"""The known mistakes (``xdb.engine.known``) a lesson's trigger keeps: those its words name,
else those they resemble, and of a lesson learned on a call the ones that call made (where
its words name and resemble none that it made, the one its fix stopped making)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from xdb.engine.calls import ToolCall
from xdb.engine.calls.programs import _SAME
from xdb.engine.known import CATALOGUE, HIT, named_in, programs, similar, verdict

if TYPE_CHECKING:
    from xdb.engine.triggers import Form

_BACKTICK = re.compile(r"`([^`]+)`")


def kept_known(
    question: str,
    answer: str,
    failing: ToolCall | None,
    forms: list[Form],
    fixed: ToolCall | None = None,
) -> tuple[frozenset[str], frozenset[str]]:
    """The known mistakes the lesson names, and where it names none, those its words
    resemble (``known.similar``). Of a lesson learned on a call, those that call makes (its
    question holds the error output too, whose words are no lesson's); of a lesson that
    names commands, the mistakes of shell commands only of those programs (a lesson on
    ``npm install --force`` that says "pin versions" is not about ``pip``)."""
    # Not a mistake the answer itself advises doing (a lesson on ``chmod -R 777`` whose
    # answer runs ``chown -R www-data`` is not about recursive chowns).
    advised = [answer, *_BACKTICK.findall(answer)]
    text = f"{question}\n{answer}"

    def kept(names: Iterable[str]) -> frozenset[str]:
        names = [n for n in names if not any(CATALOGUE[n].judge(t) == HIT for t in advised)]
        if failing is not None:
            return frozenset(n for n in names if verdict(frozenset((n,)), failing) == HIT)
        told = {_SAME.get(f.program, f.program) for f in forms}
        return frozenset(n for n in names if not told or not programs(n) or programs(n) & told)

    named = kept(named_in(text))
    if named or (failing is None and named_in(text)):
        return named, frozenset()
    if failing is not None:
        resembled = kept(similar.nearest(text, similar.CALL_NEAREST, similar.CALL_FLOOR))
        if resembled or fixed is None:
            return named, resembled
        # Where its words name and resemble none that the call made, what the fix stopped
        # doing is the lesson: the known mistake the failing call made and its fix does not
        # (``def f(acc={})``, then ``acc=None``: the mutable default, where the question
        # tells of a failed test); where exactly one is: a fix given as an edit is only the
        # part it replaced, so of several mistakes the failing call made, the ones outside
        # that part would look fixed too, and a lesson learned on a call needs each of its
        # mistakes made again (``KNOWN_ALL``).
        fixed_ones = [n for n in kept(CATALOGUE) if verdict(frozenset((n,)), fixed) != HIT]
        return frozenset(fixed_ones if len(fixed_ones) == 1 else ()), frozenset()
    return named, kept(similar.nearest(text))
