"""What ``query`` finds of compressed experience: the COLD records standing for timesteps
compacted away, matched by the same filters at their lower fidelity (a record carries the
tags, concept activations, event types and text of what it replaced, aggregated)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xdb.fidelity.fidelity_models import Level, MemoryRecord
from xdb.store.cold_records import RecordRow
from xdb.store.types import TimestepFilter
from xdb.timeutil import from_us

if TYPE_CHECKING:
    from xdb.store.protocol import FidelityStore

SCAN = 5000  # records read to find a page of matches
_WORD = re.compile(r"\w+", re.UNICODE)


def _shown(visible: Callable[[str, list[str]], set[str]], kind: str, ids: list[str]) -> list[str]:
    if not ids:
        return ids
    seen = visible(kind, ids)
    return [i for i in ids if i in seen]


def _matches(row: RecordRow, flt: TimestepFilter) -> bool:
    body = row.body
    if flt.tag_ids and not set(flt.tag_ids) <= set(body.get("tag_ids", {})):
        return False
    if flt.event_types and not set(flt.event_types) & set(body.get("event_types", [])):
        return False
    scores = {c["concept_id"]: float(c["score"]) for c in body.get("concepts", [])}
    for concept, (lo, hi) in flt.activations.items():
        if concept not in scores or not lo <= scores[concept] <= hi:
            return False
    if flt.text:
        words = set(_WORD.findall(str(body.get("text", "")).casefold()))
        if not set(_WORD.findall(flt.text.casefold())) <= words:
            return False
    return True


def matching_records(
    store: FidelityStore,
    flt: TimestepFilter,
    limit: int,
    visible: Callable[[str, list[str]], set[str]],
) -> list[MemoryRecord]:
    """``visible(kind, ids)``: those of ``ids`` (tags, comments, exemplars) the caller reads."""
    rows = store.memory_records(
        flt.session_ids,
        (flt.tick_start, flt.tick_end),
        (flt.time_start_us, flt.time_end_us),
        flt.descending,
        SCAN,
    )
    kept = []
    for row in rows:
        if _matches(row, flt):
            kept.append(row)
            if len(kept) >= limit:
                break
    # What the caller reads of the records' tags, comments and exemplars: one question a
    # kind for the whole page, not three a record (a long session's page holds hundreds).
    shown = {
        kind: set(_shown(visible, kind, list(dict.fromkeys(i for r in kept for i in ids(r.body)))))
        for kind, ids in _ANNOTATIONS.items()
    }
    return [
        MemoryRecord(
            record_id=row.id,
            level=Level(row.level),
            session_id=row.session_id,
            tick_start=row.tick_start,
            tick_end=row.tick_end,
            start_time=from_us(row.start_us),
            end_time=from_us(row.end_us),
            summary=str(row.body.get("text", ""))[:300],
            concept_activations={
                c["concept_id"]: float(c["score"]) for c in row.body.get("concepts", [])
            },
            tag_ids=[i for i in _ANNOTATIONS["tag"](row.body) if i in shown["tag"]],
            comment_ids=[i for i in _ANNOTATIONS["comment"](row.body) if i in shown["comment"]],
            exemplar_ids=[i for i in _ANNOTATIONS["exemplar"](row.body) if i in shown["exemplar"]],
            tokens=row.tokens,
            timesteps=row.timesteps,
        )
        for row in kept
    ]


_ANNOTATIONS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "tag": lambda body: list(body.get("tag_ids", {})),
    "comment": lambda body: list(body.get("comment_ids", [])),
    "exemplar": lambda body: list(body.get("exemplar_ids", [])),
}
