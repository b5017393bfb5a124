"""Tribe sync: what a database learned, out as a content-addressed bundle and into another.

A bundle is a directory: ``manifest.json`` (the SyncManifest: id, from, to, timestamp, the
policy applied, and each object's kind, id and SHA-256) and ``objects/<sha256>.json``, each
object as canonical JSON (sorted keys, no spaces, UTF-8) whose hash is its name. Import
verifies every hash before it writes anything, then merges (``store/sync_merge.py``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from xdb.errors import InvalidRequest, NotFound, XdbError, path_error
from xdb.learning.sync_models import (
    SYNC_KINDS,
    SyncConflict,
    SyncExportRequest,
    SyncExportResponse,
    SyncImportRequest,
    SyncImportResponse,
)
from xdb.models.common import Caller
from xdb.ops.listing_pages import every_member
from xdb.ops.registry import Context, Operation
from xdb.paths import place, root_of
from xdb.policy.access_rules import both, policy_named
from xdb.policy.access_rules import readable as access_readable
from xdb.policy.disclosure import Visibility
from xdb.policy.load import visibility
from xdb.store.access import Readable
from xdb.store.graph_edges import CONCEPT_NODE
from xdb.timeutil import from_us, now_us

FORMAT = "xdb-sync/1"
_SHA256 = re.compile(r"[0-9a-f]{64}")
ALL = 1 << 62


def canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _receiver(ctx: Context, req: SyncExportRequest) -> tuple[Visibility | None, str | None]:
    """What the receiving tribe may see, and the disclosure policy applied (None: all)."""
    objects = ctx.policy_objects
    policy = req.disclosure_policy_id
    if policy is not None and policy not in objects["disclosure_policy"]:
        raise NotFound(
            f"disclosure_policy_id: no disclosure policy {policy!r}", field="disclosure_policy_id"
        )
    if req.treaty_id is not None:
        treaty = objects["treaty"].get(req.treaty_id)
        if treaty is None:
            raise NotFound(f"treaty_id: no treaty {req.treaty_id!r}", field="treaty_id")
        policy = policy or treaty.disclosure_policy_id
    if policy is None:
        return None, None
    receiver = Caller(
        id=f"sync:{req.to or 'bundle'}", roles=("partner",), disclosure_policy_id=policy
    )
    return visibility(ctx.store, receiver, objects), policy


def _partner_reads(ctx: Context, req: SyncExportRequest) -> Readable | None:
    """What a bundle for a treaty may hold: the objects its partner reads through the API
    (a caller of the treaty; its access policies, as ``Database.run`` applies them), of
    those the caller itself reads. Without a treaty the receiver is unknown: the caller's."""
    if req.treaty_id is None:
        return ctx.store.reading
    partner = Caller(id=f"sync:{req.to or 'bundle'}", roles=("partner",),
                     treaty_ids=(req.treaty_id,))  # fmt: skip
    return both(ctx.store.reading, access_readable(ctx.policy_objects, partner))


def _gather(ctx: Context, req: SyncExportRequest) -> tuple[list[dict[str, Any]], dict[str, int]]:
    vis, _ = _receiver(ctx, req)
    kinds = set(req.kinds or SYNC_KINDS)
    unknown = kinds - set(SYNC_KINDS)
    if unknown:
        raise InvalidRequest(
            f"kinds: {', '.join(sorted(unknown))} unknown; use {', '.join(SYNC_KINDS)}",
            field="kinds",
        )
    left: dict[str, int] = {}

    def leave(reason: str) -> None:
        left[reason] = left.get(reason, 0) + 1

    def shareable(policy_id: str | None) -> bool:
        try:
            ok = policy_named(ctx.policy_objects, policy_id, "access_policy_id").allow_export
        except XdbError:
            ok = False
        if not ok:
            leave("access policy does not allow export")
        return ok

    def seen(concept: str | None, candidate: bool = False) -> bool:
        ok = vis is None or concept is None or vis.visible(concept, candidate)
        if not ok:
            leave("the receiver's disclosure policy hides its concept")
        return ok

    def episodes_shared(ids: list[str]) -> set[str]:
        """Those of ``ids`` the caller reads and whose access policy allows export."""
        found = ctx.store.access_policies_of("episode", [(i,) for i in set(ids)]) if ids else {}
        return {key[0] for key, policy in found.items() if shareable(policy)}

    def visible(concepts: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [c for c in concepts if vis is None or vis.visible(c["concept_id"])]

    out: list[dict[str, Any]] = []
    if "candidate_concept" in kinds:
        tags = ctx.store.list_tags("bud", None)
        policies = ctx.store.access_policies_of("tag", [(t.id,) for t in tags]) if tags else {}
        for tag in tags:
            if not (shareable(policies.get((tag.id,))) and seen(tag.name, True)):
                continue
            from xdb.learning.buds import details

            facts = dict(details(ctx, tag).body)
            facts["related"] = visible(facts.get("related", []))
            initial = facts.get("initial_episode_ids") or []
            shared = episodes_shared(initial)
            facts["initial_episode_ids"] = [e for e in initial if e in shared]
            status = str(tag.bud_status or "collecting")
            bud = {"description": tag.description, "status": status, "details": facts}
            out.append({"kind": "candidate_concept", "id": tag.name, "body": bud})
    if "exemplar" in kinds:
        rows, _ = ctx.store.list_exemplars(None, None, None, None, ALL)
        shared = episodes_shared([r.episode_id for r in rows if r.episode_id])
        for row in rows:
            if row.episode_id is not None and row.episode_id not in shared:
                continue  # (counted by episodes_shared when its policy forbids export)
            if shareable(row.access_policy_id) and seen(row.concept_id):
                fields = {k: v for k, v in vars(row).items() if k != "access_policy_id"}
                out.append({"kind": "exemplar", "id": row.id, "body": fields})
    runs: set[str] = set()
    for kind in ("dataset", "training_run", "artifact"):
        if kind not in kinds:
            continue
        found, _ = ctx.store.list_learning_objects(kind, {}, None, ALL)
        for obj in found:
            concepts = obj.body.get("concept_ids") or [obj.concept_id]
            if not shareable(obj.access_policy_id) or not all(seen(c) for c in concepts):
                continue
            if kind == "training_run":
                runs.add(obj.id)
            if kind == "artifact" and obj.series not in runs and "training_run" in kinds:
                leave("its training run is not in the bundle")
                continue
            body: dict[str, Any] = {
                "series": obj.series, "version": obj.version, "concept_id": obj.concept_id,
                "status": obj.status, "body": obj.body, "created_us": obj.created_us,
                "created_by": obj.created_by,
            }  # fmt: skip
            if kind == "dataset":
                body["members"] = _members(ctx, obj.id, vis, shareable)
                request = obj.body.get("request") or {}
                for side in ("positive_filters", "negative_filters"):
                    if request.get(side):  # what built it, less what the receiver may not see
                        filters = visible(request[side].get("concept_filters", []))
                        request = {**request, side: {**request[side], "concept_filters": filters}}
                body["body"] = {**obj.body, "request": request}
            out.append({"kind": kind, "id": obj.id, "body": body})
    if "graph_fragment" in kinds:
        for fragment in ctx.store.graph_fragments():
            if not shareable(fragment["access_policy_id"]):
                continue
            edges = fragment["edges"]
            if vis is not None:  # an edge to a concept the receiver may not see stays here
                edges = [e for e in edges if all(_node_seen(vis, x) for x in (e["src"], e["dst"]))]
            body = {"node": fragment["node"], "edges": edges}
            out.append({"kind": "graph_fragment", "id": fragment["node"]["id"], "body": body})
    return out, left


def _node_seen(vis: Visibility, node: str) -> bool:
    return not node.startswith(CONCEPT_NODE) or vis.visible(node[len(CONCEPT_NODE) :])


def _members(ctx: Context, dataset_id: str, vis: Visibility | None, shareable: Any) -> list[Any]:
    kept: list[dict[str, Any]] = []
    for m in every_member(ctx, dataset_id):
        if not shareable(m.get("access_policy_id")):
            continue
        m = {k: v for k, v in m.items() if k not in ("access_policy_id", "position")}
        if vis is not None:
            m["concept_tags"] = [t for t in m["concept_tags"] if vis.visible(t["concept_id"])]
        kept.append(m)
    return kept


def sync_export(ctx: Context, req: SyncExportRequest) -> SyncExportResponse:
    # The store's views hold what the partner may read.
    partner = replace(ctx, store=ctx.store.reading_as(_partner_reads(ctx, req)))
    objects, left = _gather(partner, req)
    _, policy = _receiver(ctx, req)
    root = place(root_of(ctx.settings), "path", req.path, write=True)  # xdb.paths
    at = now_us()
    bundle_id = f"sync-{req.to or 'bundle'}-{from_us(at).strftime('%Y%m%dT%H%M%S%fZ')}"
    entries = []
    try:
        if root.exists() and any(root.iterdir()):
            raise InvalidRequest(
                f"path: {req.path!r} is not empty; give a new directory", field="path"
            )
        (root / "objects").mkdir(parents=True, exist_ok=True)
        for obj in objects:
            data = canonical(obj)
            digest = hashlib.sha256(data).hexdigest()
            (root / "objects" / f"{digest}.json").write_bytes(data)
            entries.append({"kind": obj["kind"], "id": obj["id"], "sha256": digest})
        manifest = {
            "format": FORMAT, "id": bundle_id, "from": ctx.caller.id, "to": req.to,
            "timestamp": from_us(at).isoformat(), "policy_applied": policy, "notes": req.notes,
            "object_ids": [e["id"] for e in entries], "objects": entries,
        }  # fmt: skip
        (root / "manifest.json").write_bytes(canonical(manifest))  # last: a bundle is whole
    except OSError as exc:
        raise path_error("path", req.path, exc) from None
    counts: dict[str, int] = {}
    for e in entries:
        counts[e["kind"]] = counts.get(e["kind"], 0) + 1
    return SyncExportResponse(bundle_id=bundle_id, path=str(root), objects=counts, left_out=left)


def _refuse(message: str) -> InvalidRequest:
    return InvalidRequest(f"path: {message}; nothing was imported", field="path")


def read_bundle(
    path: str, inside: Callable[[Path], Path] = lambda p: p
) -> tuple[str, list[dict[str, Any]]]:
    """The bundle's id and its objects, each verified against its hash. ``inside`` checks
    each file before it is read (a link in the bundle may not lead out of the data root)."""
    root = Path(path).expanduser()
    try:
        manifest = json.loads(inside(root / "manifest.json").read_bytes())
    except FileNotFoundError:
        raise _refuse(f"no manifest.json in {path!r} (give the bundle's directory)") from None
    except (ValueError, UnicodeDecodeError):
        raise _refuse("manifest.json is not valid JSON") from None
    except OSError as exc:
        raise path_error("path", path, exc) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _refuse(f"manifest.json is not an {FORMAT} manifest")
    objects = []
    for entry in manifest.get("objects") or []:
        digest = str(entry.get("sha256", ""))
        if not _SHA256.fullmatch(digest):  # a name like ../../x would read outside the bundle
            raise _refuse(f"object {entry.get('id')!r} has no SHA-256 (got {digest[:80]!r})")
        file = inside(root / "objects" / f"{digest}.json")
        try:
            data = file.read_bytes()
        except OSError:
            raise _refuse(f"object {entry.get('id')!r} ({digest}.json) is missing") from None
        actual = hashlib.sha256(data).hexdigest()
        if actual != digest:
            raise _refuse(f"object {entry.get('id')!r} does not match its hash (it reads {actual})")
        obj = json.loads(data)
        if (
            obj.get("kind") not in SYNC_KINDS
            or obj.get("kind") != entry.get("kind")
            or obj.get("id") != entry.get("id")
        ):
            raise _refuse(
                f"object {digest}.json is not the {entry.get('kind')} {entry.get('id')!r} the"
                " manifest lists"
            )
        objects.append(obj)
    order = {k: i for i, k in enumerate(SYNC_KINDS)}
    objects.sort(key=lambda o: order[o["kind"]])
    return str(manifest.get("id")), objects


def sync_import(ctx: Context, req: SyncImportRequest) -> SyncImportResponse:
    data_root = root_of(ctx.settings)
    bundle = place(data_root, "path", req.path)  # xdb.paths, as each file read below

    def inside(file: Path) -> Path:
        return place(data_root, "path", str(file))

    bundle_id, objects = read_bundle(str(bundle), inside)
    try:
        report = ctx.store.sync_merge(objects, now_us(), ctx.caller.id)
    except (KeyError, TypeError, ValueError) as exc:  # a well-hashed object of a bad shape
        raise _refuse(f"an object is malformed ({exc})") from None
    return SyncImportResponse(
        bundle_id=bundle_id,
        verified=len(objects),
        imported=report["imported"],
        unchanged=report["unchanged"],
        conflicts=[SyncConflict(**c) for c in report["conflicts"]],
    )


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="export",
        group="sync",
        request=SyncExportRequest,
        response=SyncExportResponse,
        handler=sync_export,
        readonly=False,  # it changes no row, but writes files where xdb runs
        summary="Write a content-addressed sync bundle of what this database learned.",
        cli_name="sync export",
        method="sync_export",
        positional="path",
        example="xdb sync export bundle-tribeA --to tribeA-repo",
        agent_tool=False,
    ),
    Operation(
        name="import",
        group="sync",
        request=SyncImportRequest,
        response=SyncImportResponse,
        handler=sync_import,
        readonly=False,
        summary="Merge a sync bundle: hashes verified, idempotent, conflicts reported.",
        cli_name="sync import",
        method="sync_import",
        positional="path",
        example="xdb sync import bundle-tribeA",
        idempotent=True,
        agent_tool=False,
    ),
)
