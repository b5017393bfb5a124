"""Candidates by structure (issue 33): the lessons whose trigger names a program a call runs
or code it writes, whether or not the text search finds them. A repeat in other words
(another path, branch, namespace) shares few of a lesson's words, so the search may rank it
out of its page in a store of many lessons; its trigger still knows the form.

The index (program or code token -> lesson ids) is built from the lessons' stored
triggers and kept per store and per reader (what a restricted caller may read is part of
the key, so no caller gets another's lessons through it). It is rebuilt when the store's
episode text log moves (``latest_text_change``: every lesson added, changed or deleted moves
it), which costs one indexed ``max()`` a check; the lesson store is small (hundreds to a
few thousand lessons), so a rebuild is one pass over it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from xdb.engine import known, trigger_match, triggers
from xdb.engine.lesson_operations import KIND, _load
from xdb.ops.registry import Context

MAX_CANDIDATES = 50  # structural candidates at most per call (each is matched, then scored)


@dataclass
class _Index:
    store: Any  # the store it was built from (an id can be reused once a store is gone)
    version: int
    programs: dict[str, set[str]] = field(default_factory=dict)
    code: dict[str, set[str]] = field(default_factory=dict)
    known: dict[str, set[str]] = field(default_factory=dict)  # a known mistake's lessons


_GUARD = threading.Lock()
_INDEXES: dict[tuple[int, Any], _Index] = {}


def _trigger(meta: dict[str, Any]) -> triggers.Trigger:
    stored = triggers.Trigger.from_json(meta.get("trigger") or {})
    if stored is not None:
        return stored
    return triggers.derived(str(meta.get("question", "")), str(meta.get("answer", "")))


def _build(ctx: Context, version: int) -> _Index:
    index = _Index(ctx.store.unbound, version)
    states, _ = ctx.store.list_learning_objects(KIND, {}, None, 1_000_000)
    for lesson_id, (episode, state) in _load(ctx, [s.id for s in states]).items():
        if state.body.get("archived") or state.body.get("superseded"):
            continue  # (gated out by scoring anyway: no need to match them)
        trigger = _trigger(episode.metadata)
        for form in trigger.commands:
            index.programs.setdefault(trigger_match.program(form.program), set()).add(lesson_id)
        # Code that is plainly code (a dotted, snake or inner-capital name): a plain word
        # (``delete``, ``table``) or a flag alone would bring a lesson to every call that
        # says it, where only the search's words can tell.
        for token in trigger.code:
            if not token.isalpha():
                index.code.setdefault(token, set()).add(lesson_id)
        for name in trigger.known | trigger.resembles:
            index.known.setdefault(name, set()).add(lesson_id)
    return index


def _index(ctx: Context) -> _Index:
    version = ctx.store.latest_text_change()
    key = (id(ctx.store.unbound), ctx.store.reading)
    with _GUARD:
        found = _INDEXES.get(key)
    if found is not None and found.store is ctx.store.unbound and found.version == version:
        return found
    built = _build(ctx, version)
    with _GUARD:
        if len(_INDEXES) > 64:
            _INDEXES.clear()  # (stores and readers come and go in tests and long serves)
        _INDEXES[key] = built
    return built


def structural(ctx: Context, seen: trigger_match.Seen) -> list[str]:
    """The lessons whose trigger names a known mistake the call makes, a program it runs or
    code it writes, at most MAX_CANDIDATES, in that order (each kind sorted): past the cap,
    a lesson whose known mistake the call makes is the last to be left out (matching
    decides whether the call repeats the mistake)."""
    index = _index(ctx)
    made: set[str] = set()
    for name, ids in index.known.items():
        if known.verdict(frozenset((name,)), seen.call) == known.HIT:
            made |= ids
    ran: set[str] = set()
    for command in seen.commands:
        ran |= index.programs.get(trigger_match.program(command.program), set())
    wrote: set[str] = set()
    if seen.text:
        for token, ids in index.code.items():
            if token in seen.text:
                wrote |= ids
    out = sorted(made)
    out += sorted(ran - made)
    out += sorted(wrote - made - ran)
    return out[:MAX_CANDIDATES]
