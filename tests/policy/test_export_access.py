"""An export by a caller that access policies keep from some objects but that sees every
concept: the store leaves the objects out, and a COLD record names none of them (its
tags, comments and exemplars are those the export holds). On both stores."""

from __future__ import annotations

import json

import xdb

ADMIN = xdb.Caller(id="ops", roles=("self", "admin"))
GUEST = xdb.Caller(id="guest", roles=("guest",))


def test_a_cold_record_names_nothing_the_export_leaves_out(target: str) -> None:
    with xdb.connect(target, embedder="hash", session_id="s") as db:
        db.as_caller(ADMIN).set_access_policy(id="private", read_roles=["self"])
        for i in range(4):
            db.record(event_type="output", content=f"a cold report {i}")
        secret = db.comment(content="a private note", timestep_id="ts-s-1",
                            access_policy_id="private").comment_id  # fmt: skip
        seen = db.comment(content="an open note", timestep_id="ts-s-2").comment_id
        db.create_tag(name="private-tag", tag_type="custom", access_policy_id="private")
        db.create_tag(name="open-tag", tag_type="custom")
        db.tag(tag_name_or_id="private-tag", tick_range={"start": 1, "end": 2})
        db.tag(tag_name_or_id="open-tag", tick_range={"start": 1, "end": 2})
        db.compact(session_id="s", keep_tokens=0)
        whole = list(db.export_records())
        cold = [r for r in whole if r["kind"] == "memory_record"]
        assert secret in json.dumps(cold)  # the holder's records name it
    with xdb.connect(target, embedder="hash", caller=GUEST) as guest:
        records = list(guest.export_records())
    held = {r["id"] for r in records if isinstance(r.get("id"), str)}
    assert secret not in held and seen in held
    cold = [r for r in records if r["kind"] == "memory_record"]
    assert cold
    named = {i for r in cold for f in ("tag_ids", "comment_ids", "exemplar_ids")
             for i in r["body"].get(f, ())}  # fmt: skip
    assert seen in named and named <= held, named - held
