"""The learning harness's rows as export records, and back (``xdb export``/``import``,
``xdb migrate``): ``exemplar``, ``learning_object`` (a bud's details, a dataset, a training
run, an artifact) and ``dataset_member``, each row as it is stored, listed before the
episodes so that an episode's import finds its labels' exemplars and does not make them
again. An import skips a row whose key is stored. A restricted export leaves out the
objects' access policies (as it leaves out the other objects')."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from xdb.errors import InvalidRequest
from xdb.store import exemplars, learning
from xdb.store.sqlbuild import Connection, Dialect

KINDS = ("exemplar", "learning_object", "dataset_member")
_MEMBER_COLUMNS = "dataset_id, position, polarity, exemplar_id, episode_id, body, access_policy_id"


def _json(value: Any) -> Any:
    return value if isinstance(value, (dict, list)) else json.loads(value)


def export_records(
    read: Callable[[str], Iterable[Sequence[Any]]], restricted: bool
) -> Iterator[dict[str, Any]]:
    names = exemplars.COLUMNS.replace(" ", "").split(",")
    for row in read(f"SELECT {exemplars.COLUMNS} FROM exemplars ORDER BY created_us, id"):
        yield {"kind": "exemplar", **_policy(dict(zip(names, row, strict=True)), restricted)}
    names = learning.COLUMNS.replace(" ", "").split(",")
    for row in read(
        f"SELECT {learning.COLUMNS} FROM learning_objects ORDER BY kind, created_us, id"
    ):
        fields = dict(zip(names, row, strict=True))
        fields["object"] = fields.pop("kind")
        fields["body"] = _json(fields["body"])
        yield {"kind": "learning_object", **_policy(fields, restricted)}
    names = _MEMBER_COLUMNS.replace(" ", "").split(",")
    for row in read(f"SELECT {_MEMBER_COLUMNS} FROM dataset_members ORDER BY dataset_id, position"):
        fields = dict(zip(names, row, strict=True))
        fields["body"] = _json(fields["body"])
        yield {"kind": "dataset_member", **_policy(fields, restricted)}


def _policy(fields: dict[str, Any], restricted: bool) -> dict[str, Any]:
    if restricted:
        fields.pop("access_policy_id", None)
    return fields


def import_record(
    conn: Connection, d: Dialect, body: dict[str, Any], number: int, kind: str
) -> int:
    """Store one record unless its key is stored; 1 if new."""
    m = d.mark
    try:
        if kind == "exemplar":
            row = exemplars.ExemplarRow(**{"access_policy_id": None, **body})
            if exemplars.get(conn, d, row.id) is not None:
                return 0
            exemplars.insert(conn, d, [row])
            return 1
        if kind == "learning_object":
            fields = dict(body)
            obj = learning.LearningObject(
                kind=fields.pop("object"), access_policy_id=fields.pop("access_policy_id", None),
                **fields,
            )  # fmt: skip
            if learning.get(conn, d, obj.kind, obj.id) is not None:
                return 0
            learning.put(conn, d, obj)
            return 1
        if kind == "dataset_member":
            key = (body["dataset_id"], body["position"])
            if conn.execute(
                f"SELECT 1 FROM dataset_members WHERE dataset_id = {m} AND position = {m}", key
            ).fetchone():
                return 0
            member = {**body["body"], "access_policy_id": body.get("access_policy_id")}
            conn.execute(
                f"INSERT INTO dataset_members ({_MEMBER_COLUMNS}) VALUES ({d.marks(7)})",
                (*key, body["polarity"], body["exemplar_id"], body["episode_id"],
                 json.dumps(body["body"], ensure_ascii=False, sort_keys=True),
                 member["access_policy_id"]),
            )  # fmt: skip
            return 1
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidRequest(f"record {number} ({kind}): malformed ({exc})") from None
    raise InvalidRequest(f"record {number}: unknown kind {kind!r}")
