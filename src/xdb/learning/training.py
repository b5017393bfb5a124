"""Training runs and their artifacts: how a lens, patch or graft was trained and from what
(references and hashes; weights live elsewhere). A running run protects its datasets."""

from __future__ import annotations

from typing import Any

from xdb.errors import Conflict, NotFound
from xdb.ids import new_id
from xdb.learning.dataset_reads import find_dataset
from xdb.learning.training_models import (
    Artifact,
    RecordArtifactRequest,
    RecordArtifactResponse,
    RecordTrainingRunRequest,
    RecordTrainingRunResponse,
    RunStatus,
    TrainingRun,
    TrainingRunRequest,
    TrainingRunResponse,
    TrainingRunsRequest,
    TrainingRunsResponse,
)
from xdb.ops import cursor
from xdb.ops.registry import Context, Operation
from xdb.policy.access_rules import check_create
from xdb.store.learning import LearningObject
from xdb.timeutil import from_us, now_us

RUN = "training_run"
ARTIFACT = "artifact"


def run_model(obj: LearningObject) -> TrainingRun:
    return TrainingRun(
        **obj.body,
        id=obj.id,
        status=obj.status or RunStatus.RUNNING.value,
        created_at=from_us(obj.created_us),
        updated_at=from_us(obj.updated_us),
        created_by=obj.created_by,
    )


def find_run(ctx: Context, run_id: str, field: str = "training_run_id") -> LearningObject:
    obj = ctx.store.learning_object(RUN, run_id)
    if obj is None or not all(ctx.view.visible(c) for c in obj.body.get("concept_ids", [])):
        raise NotFound(f"unknown {field} {run_id!r} (xdb training-runs lists them)", field=field)
    return obj


def _stored(ctx: Context, kind: str, key: str, field: str) -> LearningObject | None:
    """The object an upsert by ``key`` would replace; a Conflict when one is stored that
    the caller may not read (it is not the caller's to overwrite)."""
    stored = ctx.store.unrestricted().learning_object(kind, key)
    if stored is not None and ctx.store.learning_object(kind, key) is None:
        raise Conflict(f"{field}: {key!r} is taken; choose another id", field=field)
    return stored


def record_training_run(ctx: Context, req: RecordTrainingRunRequest) -> RecordTrainingRunResponse:
    check_create(ctx, req.access_policy_id, "record_training_run")
    for dataset_id in req.dataset_ids:
        find_dataset(ctx, dataset_id)
    run_id = req.id or new_id("trainrun")
    before = _stored(ctx, RUN, run_id, "id")
    at = now_us()
    body = req.model_dump(mode="json", exclude={"id", "status", "access_policy_id"})
    obj = LearningObject(
        RUN,
        run_id,
        None,
        None,
        req.concept_ids[0],
        req.status.value,
        body,
        before.created_us if before else at,
        at,
        before.created_by if before else ctx.caller.id,
        req.access_policy_id if before is None else before.access_policy_id,
    )
    ctx.store.put_learning_object(obj)
    return RecordTrainingRunResponse(
        training_run_id=run_id, created=before is None, status=req.status
    )


def training_runs(ctx: Context, req: TrainingRunsRequest) -> TrainingRunsResponse:
    digest = cursor.digest(req.model_dump(mode="json", exclude={"page"}))
    status = None if req.status is None else req.status.value
    found, _ = ctx.store.list_learning_objects(RUN, {"status": status}, None, 1_000_000)
    runs = [run_model(o) for o in found]
    if req.concept_id is not None:
        runs = [r for r in runs if req.concept_id in r.concept_ids]
    runs = [r for r in runs if all(ctx.view.visible(c) for c in r.concept_ids)]
    keys = {o.id: o.created_us for o in found}
    total = len(runs)  # every match, whichever page this is
    if req.page.cursor is not None:
        at, key = cursor.decode(req.page.cursor, digest, "page.cursor")
        runs = [r for r in runs if (keys[r.id], r.id) > (int(at), str(key))]
    size = req.page.page_size
    page = runs[:size]
    nxt = cursor.encode([keys[page[-1].id], page[-1].id], digest) if len(runs) > size else None
    return TrainingRunsResponse(training_runs=page, total_count=total, next_cursor=nxt)


def artifact_model(obj: LearningObject) -> Artifact:
    return Artifact(
        **obj.body,
        id=obj.id,
        training_run_id=obj.series or "",
        concept_id=obj.concept_id,
        created_at=from_us(obj.created_us),
        created_by=obj.created_by,
    )


def training_run(ctx: Context, req: TrainingRunRequest) -> TrainingRunResponse:
    obj = find_run(ctx, req.training_run_id)
    found, _ = ctx.store.list_learning_objects(ARTIFACT, {"series": obj.id}, None, 1_000_000)
    return TrainingRunResponse(
        training_run=run_model(obj), artifacts=[artifact_model(a) for a in found]
    )


def record_artifact(ctx: Context, req: RecordArtifactRequest) -> RecordArtifactResponse:
    run = find_run(ctx, req.training_run_id)
    artifact_id = req.id or new_id(req.kind.value)
    before = _stored(ctx, ARTIFACT, artifact_id, "id")
    at = now_us()
    body = req.model_dump(mode="json", exclude={"id", "training_run_id", "concept_id"})
    ctx.store.put_learning_object(
        LearningObject(
            ARTIFACT,
            artifact_id,
            run.id,
            None,
            req.concept_id,
            None,
            body,
            before.created_us if before else at,
            at,
            before.created_by if before else ctx.caller.id,
            run.access_policy_id,
        )
    )
    return RecordArtifactResponse(artifact_id=artifact_id, created=before is None)


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="record_training_run",
        group="experience",
        request=RecordTrainingRunRequest,
        response=RecordTrainingRunResponse,
        handler=record_training_run,
        readonly=False,
        summary="Record (or update) a training run: type, concepts, datasets, metrics, status.",
        example="xdb record-training-run --type lens --concept-ids Deception --status running",
    ),
    Operation(
        name="training_runs",
        group="experience",
        request=TrainingRunsRequest,
        response=TrainingRunsResponse,
        handler=training_runs,
        readonly=True,
        summary="List training runs by status or concept.",
        example="xdb training-runs --status running",
    ),
    Operation(
        name="training_run",
        group="experience",
        request=TrainingRunRequest,
        response=TrainingRunResponse,
        handler=training_run,
        readonly=True,
        summary="One training run with its artifacts.",
        positional="training_run_id",
        example=(
            'RUN=$(xdb training-runs | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['training_runs'][0]['id'])\")\n"
            'xdb training-run "$RUN"'
        ),
    ),
    Operation(
        name="record_artifact",
        group="experience",
        request=RecordArtifactRequest,
        response=RecordArtifactResponse,
        handler=record_artifact,
        readonly=False,
        summary="Record a lens, graft or patch artifact of a run (a reference and a checksum).",
        example=(
            'RUN=$(xdb training-runs | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['training_runs'][0]['id'])\")\n"
            'xdb record-artifact --kind lens --training-run-id "$RUN" --location blob://lens-1'
            " --checksum sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        ),
    ),
)
