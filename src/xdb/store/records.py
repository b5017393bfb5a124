"""The export format both stores read and write: record models, their validation, and the
export's order, so an export from either store imports into the other.

Records carry a ``kind`` (session, tag, timestep, tag_application, comment, episode, and
concept_pack, concept, graph_node, graph_edge from ``graph_transfer``) and the
same fields the API shows, so an export is readable, diffable, and portable between stores.
Import is idempotent: an object whose id (or session and tick) exists is skipped.

An episode record holds add_episode's fields plus ``episode_id``, ``created_at`` and
``created_by``; since ``kind`` names the record, the episode's own kind is ``episode_kind``.
It may carry the episode's vectors, ``"vectors": {"<model id>": "<base64 of little-endian
float32>"}`` (model ids as the store records them, ``xdb.embed.model_id``): an export
writes them only when asked (``read_vectors`` given) and only when it is whole (not
``restricted``: a vector is derived from content a release may redact). The
import stores each given vector with the episode it inserts (not with one skipped as
present, which keeps its own), so the importing database embeds only the episodes that
came without a vector from its model; a vector whose length disagrees with the model's
stored ones (or with the import's earlier ones) is refused, and the import with it.

How rows are read and written stays in each store's ``transfer``: both insert runs of
episodes in batches (each store's ``episodes.insert_many``, the contexts planned once per
batch by ``xdb.store.context.plan_inserts``); PostgreSQL streams its export through
server-side cursors and inserts timesteps in batches too.
"""

from __future__ import annotations

import base64
import binascii
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from functools import partial
from itertools import islice
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, Field, ValidationError, field_validator

from xdb.errors import InvalidRequest, from_validation_errors
from xdb.ids import new_id, parse_timestep_id
from xdb.models.common import DeferredModel, NonEmpty
from xdb.models.episode_objects import AddEpisodeRequest
from xdb.models.log_objects import Comment, TagApplication, Timestep
from xdb.store import access, fidelity_transfer, learning_transfer, policy_objects, row_models
from xdb.store.episode_row import episode_row
from xdb.store.sqlbuild import Connection, Dialect
from xdb.store.types import Made, NewEpisode
from xdb.timeutil import as_utc, from_us, now_us, to_us

# Records after the objects: policy objects, then which objects carry which access policy.
POLICY_KINDS: dict[str, Callable[[Any, Dialect, dict[str, Any], int], int]] = {
    "policy_object": policy_objects.import_record,
    "access": access.import_record,
    # (the learning harness's rows come before the episodes; imported the same way)
    **{
        kind: partial(learning_transfer.import_record, kind=kind)
        for kind in learning_transfer.KINDS
    },
    **{
        kind: partial(fidelity_transfer.import_record, kind=kind)
        for kind in fidelity_transfer.KINDS
    },
}

FORMAT = "xdb-export"
VERSION = 1

C = TypeVar("C", bound=Connection)

# Episodes read together when an export carries vectors: their vectors in one query.
VECTOR_BATCH = 2000
# A store's reader of vectors: (seq, model, little-endian float32 bytes) of the episodes
# given as (seq, namespace).
ReadVectors = Callable[[list[tuple[int, str]]], Iterable[tuple[int, str, bytes]]]


class SessionRecord(DeferredModel):
    session_id: str
    next_tick: int
    created_at: datetime
    last_at: datetime


def _vector(value: Any) -> bytes:
    """A record's vector: base64 of little-endian float32 values, none of them NaN or
    infinite (what either store can hold), at least one."""
    if not isinstance(value, str):
        raise ValueError("expected a base64 string of little-endian float32 values")
    try:
        # What base64.b64decode(value, validate=True) does, without its copy to bytes
        # first (a str of ASCII is taken as it is; any other character is a ValueError).
        blob = binascii.a2b_base64(value, strict_mode=True)
    except (binascii.Error, ValueError):
        raise ValueError(
            "not base64; give the vector's little-endian float32 bytes base64-encoded"
        ) from None
    if not blob:
        raise ValueError("empty; give at least one float32 value, or leave the model out")
    if len(blob) % 4:
        raise ValueError(
            f"{len(blob)} bytes is not a whole number of float32 values (a multiple of 4)"
        )
    # One vectorised test (an import checks every vector it is given: testing 384 values
    # one by one in Python cost ~5 us a vector, more than decoding it). numpy is imported
    # here, by the first record carrying a vector: opening a database must not load it.
    import numpy as np

    if not np.isfinite(np.frombuffer(blob, dtype="<f4")).all():
        raise ValueError("holds NaN or infinity; give finite float32 values")
    return blob


Vector = Annotated[bytes, BeforeValidator(_vector)]


class EpisodeRecord(AddEpisodeRequest):
    """An episode as exported: add_episode's fields, with what the store made kept, and
    the vectors an export carries (``vectors``: by model id)."""

    # The record's "kind" says "episode"; the episode's own kind needs another name.
    kind: NonEmpty = Field(default="other", alias="episode_kind")
    episode_id: NonEmpty | None = Field(default=None, description="Default: a new id.")
    created_at: datetime | None = Field(default=None, description="Default: the import's time.")
    created_by: NonEmpty = "import"
    vectors: dict[NonEmpty, Vector] = Field(
        default_factory=dict,
        description="The episode's vectors by model id, each base64 of little-endian float32.",
    )

    @field_validator("created_at")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)


def export_records(
    read: Callable[[str], Iterable[Sequence[Any]]],
    order: str,
    timestep_columns: str,
    episode_columns: str,
    sessions: str = "sessions",
    restricted: bool = False,
    read_vectors: ReadVectors | None = None,
) -> Iterator[dict[str, Any]]:
    """Every stored object as a record, in a restorable order: ``read`` runs a query in the
    export's one snapshot; ``order`` is the column keeping sessions, tags, applications and
    comments in the order they were made; ``sessions`` the table (or view) whose rows hold
    each session's current totals, with that column. ``read_vectors`` reads episodes'
    vectors in the same snapshot, given when the export carries them (never when it is
    ``restricted``)."""
    yield {"kind": FORMAT, "version": VERSION}
    for sid, next_tick, cus, lus in read(
        f"SELECT session_id, next_tick, created_us, last_us FROM {sessions} ORDER BY {order}"
    ):
        yield {
            "kind": "session",
            "session_id": sid,
            "next_tick": next_tick,
            "created_at": from_us(cus).isoformat(),
            "last_at": from_us(lus).isoformat(),
        }
    for row in read(f"SELECT {row_models.TAG_COLUMNS} FROM tags ORDER BY {order}"):
        yield {
            "kind": "tag",
            **row_models.tag(row).model_dump(mode="json", exclude={"application_count"}),
        }
    for row in read(f"SELECT {timestep_columns} FROM timesteps ORDER BY seq"):
        yield {"kind": "timestep", **row_models.timestep(row).model_dump(mode="json")}
    for row in read(
        f"SELECT {row_models.APPLICATION_COLUMNS} FROM tag_applications ORDER BY {order}"
    ):
        yield {"kind": "tag_application", **row_models.application(row).model_dump(mode="json")}
    for row in read(f"SELECT {row_models.COMMENT_COLUMNS} FROM comments ORDER BY {order}"):
        yield {"kind": "comment", **row_models.comment(row).model_dump(mode="json")}
    # Before the episodes: an episode's import then finds its labels' exemplars.
    yield from learning_transfer.export_records(read, restricted)
    yield from fidelity_transfer.export_records(read, restricted)
    stored = map(row_models.episode, read(f"SELECT {episode_columns} FROM episodes ORDER BY seq"))
    if read_vectors is None or restricted:
        for one in stored:
            yield episode_record(one.episode)
        return
    while batch := list(islice(stored, VECTOR_BATCH)):
        found: dict[int, dict[str, str]] = {}
        for seq, model, blob in read_vectors([(one.seq, one.episode.namespace) for one in batch]):
            found.setdefault(seq, {})[model] = base64.b64encode(blob).decode("ascii")
        for one in batch:
            record = episode_record(one.episode)
            if one.seq in found:
                record["vectors"] = dict(sorted(found[one.seq].items()))
            yield record


def parse(model: type[BaseModel], record: dict[str, Any], number: int, kind: str) -> Any:
    """``record`` (the ``number``-th) as ``model``; InvalidRequest naming it if it is not."""
    try:
        return model.model_validate(record)
    except ValidationError as exc:
        err = from_validation_errors(exc.errors())
        raise InvalidRequest(f"record {number} ({kind}): {err.message}") from exc


def episode_record(ep: NewEpisode) -> dict[str, Any]:
    return {
        "kind": "episode",
        "episode_id": ep.id,
        "episode_kind": ep.kind,
        "namespace": ep.namespace,
        "session_id": ep.session_id,
        "summary": ep.summary,
        "content": ep.content,
        "time_window": {
            "start_time": from_us(ep.start_us).isoformat(),
            "end_time": from_us(ep.end_us).isoformat(),
        },
        "concept_tags": ep.concept_tags,
        "motive_profile": ep.motive_profile,
        "metadata": ep.metadata,
        "labels": ep.labels,
        "provenance": ep.provenance,
        "created_at": from_us(ep.created_us).isoformat(),
        "created_by": ep.created_by,
    }


def new_episode(record: EpisodeRecord, episode_id: str) -> NewEpisode:
    """The row an imported episode record makes (without a provenance: the record's
    session, source ``import``)."""
    created = to_us(record.created_at) if record.created_at else now_us()
    return episode_row(
        record,
        episode_id=episode_id,
        created_us=created,
        created_by=record.created_by,
        source="import",
    )


StoreVectors = Callable[[str, list[tuple[int, bytes]]], Any]


def insert_new_episodes(
    batch: list[EpisodeRecord],
    stored: Callable[[list[str]], set[str]],
    insert_many: Callable[[list[NewEpisode]], Sequence[int]],
    store_vectors: StoreVectors | None = None,
) -> int:
    """Insert the episodes whose ids are not stored (``stored(ids)``: those of ``ids`` the
    store holds) nor earlier in the batch, in order, as inserting them one after another
    would, then the vectors they carry (``store_vectors(model, [(seq, bytes)])``, once per
    model in the batch: only episodes inserted here, each once); how many were inserted
    (both stores' imports). A skipped episode's vectors are not stored: the stored episode
    keeps its own."""
    ids = [record.episode_id or new_id("episode") for record in batch]
    held = stored(ids)
    fresh: dict[str, tuple[EpisodeRecord, NewEpisode]] = {}
    for record, episode_id in zip(batch, ids, strict=True):
        if episode_id not in held and episode_id not in fresh:
            fresh[episode_id] = (record, new_episode(record, episode_id))
    seqs = insert_many([ep for _, ep in fresh.values()])
    if store_vectors is not None:
        by_model: dict[str, list[tuple[int, bytes]]] = {}
        for (record, _), seq in zip(fresh.values(), seqs, strict=True):
            for model, blob in record.vectors.items():
                by_model.setdefault(model, []).append((seq, blob))
        for model, given in by_model.items():
            store_vectors(model, given)
    return len(fresh)


def timestep(body: dict[str, Any], number: int) -> Timestep:
    """A timestep record as ``Timestep``; its activations finite (JSON has no NaN, and
    SQLite's JSON functions, which compaction reads them with, refuse the text
    ``json.dumps`` makes of one)."""
    ts: Timestep = parse(Timestep, body, number, "timestep")
    for concept, value in ts.concept_activations.items():
        if not math.isfinite(value):
            raise InvalidRequest(
                f"record {number} (timestep): concept_activations.{concept}: {value} is not a"
                " finite number; give activations as finite numbers",
                field=f"concept_activations.{concept}",
            )
    return ts


class VectorDimensions:
    """An import's check of the vectors its records carry: one length per model, that of
    the vectors the database's embedder makes for it (``made``), else of the model's
    stored vectors (``stored(model)``: their dimension, None when there are none), else of
    the import's first; a record with another is refused, naming it, before anything of
    its batch is written (the import is one transaction: nothing of it stays). The same
    model id configured otherwise (an OpenAI model at another ``XDB_EMBED_DIM``) makes
    vectors the database's vector index could not hold."""

    def __init__(self, stored: Callable[[str], int | None], made: Made | None = None) -> None:
        self._stored = stored
        self._made = made
        self._dimension: dict[str, tuple[int | None, bool]] = {}  # (length, the embedder's)

    def _known(self, model: str) -> tuple[int | None, bool]:
        made = self._made(model) if self._made is not None else None
        return (made, True) if made is not None else (self._stored(model), False)

    def check(self, record: EpisodeRecord, number: int) -> None:
        for model, blob in record.vectors.items():
            given = len(blob) // 4
            if model not in self._dimension:
                self._dimension[model] = self._known(model)
            known, embedder = self._dimension[model]
            if known is None:
                self._dimension[model] = (given, False)
            elif known != given and embedder:
                raise InvalidRequest(
                    f"record {number} (episode): vectors.{model}: {given} values, but this"
                    f" database's {model} makes vectors of {known}; export without --vectors"
                    " (this database embeds the episodes itself) or import into a database"
                    " configured as the source was",
                    field=f"vectors.{model}",
                )
            elif known != given:
                raise InvalidRequest(
                    f"record {number} (episode): vectors.{model}: {given} dimensions, but"
                    f" {model!r}'s vectors have {known} here; give vectors of the same model"
                    " alike, or leave this one out and the database embeds the episode",
                    field="vectors",
                )


def check_version(raw: dict[str, Any], number: int) -> None:
    """Refuse an export header of a format version this code cannot read."""
    if raw.get("version") != VERSION:
        raise InvalidRequest(f"record {number}: unsupported export version {raw.get('version')!r}")


def unknown_kind(kind: Any, number: int) -> InvalidRequest:
    return InvalidRequest(
        f"record {number}: unknown kind {kind!r}; expected one of session, tag,"
        " timestep, tag_application, comment, episode, concept_pack, concept, graph_node,"
        " graph_edge, policy_object, access",
        field="kind",
    )


def tick(timestep_id: str | None, number: int) -> int | None:
    """The tick a record's ``timestep_id`` names (None for none)."""
    if timestep_id is None:
        return None
    parsed = parse_timestep_id(timestep_id)
    if parsed is None:
        raise InvalidRequest(f"record {number}: malformed timestep_id {timestep_id!r}")
    return parsed[1]


def annotation_row(
    kind: str,
    body: dict[str, Any],
    number: int,
    tag_ids: dict[str, str],
    has_tag: Callable[[str], bool],
) -> tuple[str, str, tuple[Any, ...]]:
    """(table, columns, values) of a ``tag_application`` or ``comment`` record, validated;
    an application's tag is the stored one its imported id maps to (``tag_ids``), and must
    exist. Each store inserts the row unless its id is stored, in its own words."""
    if kind == "comment":
        c = parse(Comment, body, number, kind)
        return (
            "comments",
            row_models.COMMENT_COLUMNS,
            (
                c.id,
                c.session_id,
                c.target_type.value,
                tick(c.timestep_id, number),
                c.event_id,
                c.range_start,
                c.range_end,
                c.content,
                to_us(c.created_at),
                to_us(c.updated_at),
                c.created_by,
            ),
        )
    a = parse(TagApplication, body, number, kind)
    tag_id = tag_ids.get(a.tag_id, a.tag_id)
    if not has_tag(tag_id):
        raise InvalidRequest(f"record {number}: tag_id {a.tag_id!r} names no tag")
    return (
        "tag_applications",
        row_models.APPLICATION_COLUMNS,
        (
            a.id,
            tag_id,
            a.target_type.value,
            a.session_id,
            tick(a.timestep_id, number),
            a.event_id,
            a.range_start,
            a.range_end,
            a.confidence,
            a.source.value,
            a.note,
            to_us(a.created_at),
            a.created_by,
        ),
    )
