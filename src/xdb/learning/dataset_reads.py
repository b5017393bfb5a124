"""Concept datasets: list, show (with their frozen members) and export for training."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from xdb.episodes.episode_models import ConceptTag
from xdb.errors import InvalidRequest, NotFound, PermissionDenied, path_error
from xdb.learning.dataset_build import build_dataset
from xdb.learning.dataset_models import (
    BuildDatasetRequest,
    BuildDatasetResponse,
    ConceptDataset,
    DatasetMember,
    DatasetRequest,
    DatasetResponse,
    DatasetsRequest,
    DatasetsResponse,
    ExportDatasetRequest,
    ExportDatasetResponse,
    ExportFormat,
    member_rows,
)
from xdb.ops import cursor
from xdb.ops.listing_pages import every_member, made_order_page
from xdb.ops.registry import Context, Operation
from xdb.paths import place, refuse_existing, root_of
from xdb.policy.access_rules import policy_named
from xdb.progress import report
from xdb.store.learning import LearningObject
from xdb.timeutil import from_us


def dataset_model(ctx: Context, obj: LearningObject, protected: set[str]) -> ConceptDataset:
    b = obj.body
    counts = ctx.store.dataset_member_counts(obj.id)  # of the members this caller reads
    mix, note = b["source_mix"], b.get("balance_note")
    if (counts.get("positive", 0), counts.get("negative", 0)) != (
        b["positive_count"],
        b["negative_count"],
    ):  # some members are hidden from this caller: nothing computed from them is shown
        mix, note = _visible_mix(ctx, obj.id), None
    return ConceptDataset(
        id=obj.id,
        series=obj.series or "",
        version=obj.version or 1,
        concept_id=obj.concept_id or "",
        positive_count=counts.get("positive", 0),
        negative_count=counts.get("negative", 0),
        source_mix=mix,
        balance_note=note,
        notes=b.get("notes"),
        request=BuildDatasetRequest.model_validate(b["request"]),
        protected=obj.id in protected,
        created_at=from_us(obj.created_us),
        created_by=obj.created_by,
    )


def _visible_mix(ctx: Context, dataset_id: str) -> dict[str, float]:
    counts: dict[str, int] = {}
    for m in every_member(ctx, dataset_id):
        counts[m["label_source"]] = counts.get(m["label_source"], 0) + 1
    total = sum(counts.values())
    return {k: round(v / total, 4) for k, v in sorted(counts.items())} if total else {}


def find_dataset(ctx: Context, dataset_id: str) -> LearningObject:
    """A dataset the caller may see; NotFound (as for an id never used) otherwise."""
    obj = ctx.store.learning_object("dataset", dataset_id)
    if obj is None or not ctx.view.visible(obj.concept_id or ""):
        raise NotFound(
            f"unknown dataset_id {dataset_id!r} (xdb datasets lists them)", field="dataset_id"
        )
    return obj


def member_model(m: dict[str, Any]) -> DatasetMember:
    return DatasetMember(
        exemplar_id=m["exemplar_id"],
        episode_id=m["episode_id"],
        polarity=m["polarity"],
        label=m["label"],
        label_source=m["label_source"],
        confidence=m["confidence"],
        text=m["text"],
        summary=m["summary"],
        concept_tags=[ConceptTag.model_validate(t) for t in m["concept_tags"]],
        content_sha256=m["content_sha256"],
        start_time=from_us(m["start_us"]),
        end_time=from_us(m["end_us"]),
    )


def datasets(ctx: Context, req: DatasetsRequest) -> DatasetsResponse:
    filters = {"concept_id": req.concept_id, "series": req.series}

    def fetch(after: tuple[int, str] | None, limit: int) -> tuple[list[LearningObject], int]:
        return ctx.store.list_learning_objects("dataset", filters, after, limit)

    found, total, nxt = made_order_page(
        ctx, req.page, req.model_dump(mode="json", exclude={"page"}), fetch,
        lambda o: o.concept_id or "",
    )  # fmt: skip
    protected = ctx.store.protected_datasets()
    return DatasetsResponse(
        datasets=[dataset_model(ctx, o, protected) for o in found],
        total_count=total,
        next_cursor=nxt,
    )


def dataset(ctx: Context, req: DatasetRequest) -> DatasetResponse:
    obj = find_dataset(ctx, req.dataset_id)
    digest = cursor.digest({"dataset": obj.id})
    after = -1
    if req.cursor is not None:
        (after,) = cursor.decode(req.cursor, digest)
    members = ctx.store.dataset_members(obj.id, int(after), req.limit + 1) if req.limit else []
    more = len(members) > req.limit
    members = members[: req.limit]
    nxt = cursor.encode([members[-1]["position"]], digest) if more and members else None
    return DatasetResponse(
        dataset=dataset_model(ctx, obj, ctx.store.protected_datasets()),
        members=[member_model(m) for m in members],
        next_cursor=nxt,
    )


def export_dataset(ctx: Context, req: ExportDatasetRequest) -> ExportDatasetResponse:
    obj = find_dataset(ctx, req.dataset_id)
    if not policy_named(ctx.policy_objects, obj.access_policy_id, "dataset_id").allow_export:
        raise PermissionDenied(
            f"dataset_id: {obj.id!r} is under an access policy that does not allow export",
            field="dataset_id",
        )
    fmt = req.format
    # Only inside the data root, unless the person at the terminal asks (xdb.paths).
    path = place(root_of(ctx.settings), "path", req.path, write=True)
    refuse_existing("path", path, req.path, req.overwrite)
    if fmt is None:
        suffix = path.suffix.lower().lstrip(".")
        if suffix not in ("jsonl", "parquet"):
            raise InvalidRequest(
                f"format: say jsonl or parquet (the path {req.path!r} does not end in either)",
                field="format",
            )
        fmt = ExportFormat(suffix)
    model = dataset_model(ctx, obj, set())
    members: list[DatasetMember] = []
    expected = model.positive_count + model.negative_count  # of the members the caller reads
    for found in every_member(ctx, obj.id):
        members.append(member_model(found))
        report(len(members), expected)
    rows = member_rows(model, members)
    for row, m in zip(rows, members, strict=True):
        row["provenance"] = json.dumps(
            {"episode_id": m.episode_id, "label_source": m.label_source, "summary": m.summary},
            ensure_ascii=False,
        )
    try:
        folder = path.parent
        fd, tmp = tempfile.mkstemp(prefix=".xdb-export-", dir=folder)
        os.close(fd)
        try:
            if fmt is ExportFormat.JSONL:
                with open(tmp, "w", encoding="utf-8") as out:
                    for row in rows:
                        out.write(json.dumps(row, ensure_ascii=False) + "\n")
            else:
                import pyarrow as pa
                import pyarrow.parquet as pq

                names = list(rows[0]) if rows else ["text", "label", "confidence"]
                table = pa.table({n: [r.get(n) for r in rows] for n in names})
                pq.write_table(table, tmp)
            _put(tmp, path, req.overwrite)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except FileExistsError:  # made by someone else since the check above
        refuse_existing("path", path, req.path, False)
        raise
    except OSError as exc:
        raise path_error("path", req.path, exc) from None
    report(len(rows), len(rows))
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return ExportDatasetResponse(path=str(path), format=fmt, rows=len(rows), sha256=digest)


def _put(tmp: str, path: Path, overwrite: bool) -> None:
    """Move the finished file into place; without ``overwrite`` a hard link, which fails
    rather than replace a file made meanwhile (where links are not supported, the check
    before writing stands alone)."""
    if overwrite:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:
        os.replace(tmp, path)


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="build_dataset",
        group="experience",
        request=BuildDatasetRequest,
        response=BuildDatasetResponse,
        handler=build_dataset,
        readonly=False,
        summary="Construct a ConceptDataset (positives and negatives) for a concept.",
        positional="target_concept_id",
        example="xdb build-dataset Deception --max-positive 200 --max-negative 200",
    ),
    Operation(
        name="datasets",
        group="experience",
        request=DatasetsRequest,
        response=DatasetsResponse,
        handler=datasets,
        readonly=True,
        summary="List concept datasets (every version) by concept or series.",
        example="xdb datasets --concept-id Deception",
    ),
    Operation(
        name="dataset",
        group="experience",
        request=DatasetRequest,
        response=DatasetResponse,
        handler=dataset,
        readonly=True,
        summary="One dataset with a page of its frozen members.",
        cli_name="dataset show",
        positional="dataset_id",
        example="xdb dataset show dataset-deception-174550-v1 --limit 20",
    ),
    Operation(
        name="export_dataset",
        group="experience",
        request=ExportDatasetRequest,
        response=ExportDatasetResponse,
        handler=export_dataset,
        readonly=False,  # it changes no row, but writes a file where xdb runs
        summary="Write a dataset as JSON lines or parquet for a training script.",
        cli_name="dataset export",
        positional="dataset_id",
        example="xdb dataset export dataset-deception-174550-v1 --path train.parquet",
    ),
)
