"""The audit log's timestep bodies: each timestep as recorded, in compact JSON, written from
the row the SQLite store just inserted where its text needs no escaping (the encoder's
bytes, at about half their cost), else by the encoder."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from xdb.store.audit import AuditEntry, canonical


def timestep_entries(
    items: Sequence[Any],
    ids: Sequence[tuple[str, int]],
    by: tuple[str, str],
    at_us: int,
    rows: Sequence[Sequence[Any]] | None = None,
) -> list[AuditEntry]:
    """The audit record of timesteps just recorded in one transaction (``NewTimestep``
    each, with the id and tick the store gave it): everything as recorded, every
    activation. One timestep is a ``timestep`` record; a batch one ``timesteps`` record
    holding them all in order (one row and one hash, not one per token).

    ``rows``: each timestep's row as the SQLite store inserted it (``ROW``),
    its activations encoded already: the body is written from it, the same JSON at about
    half the cost of encoding the timestep again."""
    caller, operation = by
    steps = _steps(items, ids, rows)
    if not steps:
        return []  # (nothing recorded: nothing to audit)
    if len(steps) == 1:
        return [AuditEntry(at_us, "timestep", caller, operation, steps[0])]
    # The wrapping on the first and last step, then one join: a batch's body is made in one
    # piece (~0.8 MB for 1000 tokens), not joined and then copied into its wrapping (that
    # second copy, page faults of a fresh allocation included, cost ~0.6 ms a batch).
    steps[0] = '{"timesteps":[' + steps[0]
    steps[-1] += "]}"
    return [AuditEntry(at_us, "timesteps", caller, operation, ",".join(steps))]


def _steps(
    items: Sequence[Any],
    ids: Sequence[tuple[str, int]],
    rows: Sequence[Sequence[Any]] | None = None,
) -> list[str]:
    """Each timestep's body (``NewTimestep`` each, with the id and tick the store gave it);
    from ``rows`` (``ROW``, activations encoded) where given."""
    if rows is None:
        return [step_body(it, tid, tick, None) for it, (tid, tick) in zip(items, ids, strict=True)]
    return plain_steps(ids, rows) or [
        _row_body(it, *at, row) for it, at, row in zip(items, ids, rows, strict=True)
    ]


# The columns of a timesteps row as the SQLite store inserts it, which ``row_step`` reads.
ROW = (
    "seq, session_id, tick, ts_us, event_type, role, content, token_id, event_id, event_start,"
    " event_end, activations"
)
_QUOTE = '"'  # (3.11: an f-string's expression may not hold the f-string's own quote)


def row_step(tid: str, row: Sequence[Any]) -> str | None:
    """``step_body`` written from a timestep's row (``ROW``; its activations JSON, or None for
    none): the same JSON, in about half the encoder's time. None when a text needs escaping
    (a control character, a quote or a backslash: the encoder writes it then) or a field is
    not of the store's type (``_STORE_TYPES``)."""
    if all(type(row[at]) in kinds for at, kinds in _STORE_TYPES) and _unescaped(
        f"{tid}{row[1]}{row[4]}{row[5]}{row[6]}{row[8] or ''}"
    ):
        return _written(tid, row)
    return None


def _unescaped(text: str) -> bool:
    """Whether JSON writes ``text`` as it is: no control character, lone surrogate, quote
    or backslash."""
    return text.isprintable() and '"' not in text and "\\" not in text


def _written(tid: str, row: Sequence[Any]) -> str:
    """A row's step in JSON, written by hand (``row_step`` says when it may be)."""
    _, session, tick, ts_us, kind, role, content, token, event, start, end, acts = row
    return (
        f'{{"timestep_id":"{tid}","session_id":"{session}","tick":{tick},"ts_us":{ts_us},'
        f'"event_type":"{kind}","role":"{role}","content":"{content}",'
        f'"token_id":{"null" if token is None else token},'
        f'"event_id":{"null" if event is None else f"{_QUOTE}{event}{_QUOTE}"},'
        f'"event_start":{"true" if start else "false"},'
        f'"event_end":{"true" if end else "false"},'
        f'"activations":{"{}" if acts is None else acts}}}'
    )


_STORE_TYPES = (  # per column of ``ROW`` (but seq and activations), the types row_step writes
    (1, {str}), (2, {int}), (3, {int}), (4, {str}), (5, {str}), (6, {str}),
    (7, {int, type(None)}), (8, {str, type(None)}), (9, {bool}), (10, {bool}),
)  # fmt: skip


def plain_steps(ids: Sequence[tuple[str, int]], rows: Sequence[Sequence[Any]]) -> list[str]:
    """``row_step`` of each of many rows, its checks made once over them all (~0.5 us a row
    less); empty when some row needs the encoder (each row is then asked)."""
    if not rows:
        return []
    columns = list(zip(*rows, strict=True))
    if any(not set(map(type, columns[at])) <= kinds for at, kinds in _STORE_TYPES):
        return []
    texts = ["".join(columns[at]) for at in (1, 4, 5, 6)]  # (each join is one call in C)
    texts += ["".join(map(itemgetter(0), ids)), "".join(filter(None, columns[8]))]
    if not _unescaped("".join(texts)):
        return []
    return [_written(tid, row) for (tid, _), row in zip(ids, rows, strict=True)]


def _row_body(it: Any, tid: str, tick: int, row: Sequence[Any]) -> str:
    """A timestep's body from its inserted row, else the encoder's (the row's activations)."""
    return row_step(tid, row) or step_body(it, tid, tick, row[-1])


def step_body(it: Any, tid: str, tick: int, encoded: str | None) -> str:
    """One timestep's body: its fields, then its activations (``encoded``, when the store
    has them as JSON already), as compact JSON."""
    head = {
        "timestep_id": tid,
        "session_id": it.session_id,
        "tick": tick,
        "ts_us": it.ts_us,
        "event_type": it.event_type,
        "role": it.role,
        "content": it.content,
        "token_id": it.token_id,
        "event_id": it.event_id,
        "event_start": it.event_start,
        "event_end": it.event_end,
    }
    acts = it.activations
    if encoded is None or not acts:
        head["activations"] = acts
        return canonical(head)
    return f'{canonical(head)[:-1]},"activations":{encoded}}}'
