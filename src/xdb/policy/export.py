"""What leaves through an export leaves through the release: ``xdb export`` (and
``Database.export_records``) by a caller restricted by disclosure gives each record,
whatever its kind, to the same ``Release`` walk as the API's answers.

Each record kind that names concepts is read as a model below, whose fields carry the
markers of the API's own models (``models.concept_markers``): a record about a hidden concept is
left out whole (a tag, an exemplar, a dataset, a training run, a concept), and a hidden
entry of a list or mapping inside one is left out of it (activations, concept tags,
labels, a dataset's filters, a bud's relations). A record the walk leaves out takes what
belongs to it along (``owners``: a tag's applications and bud details, a dataset's
members, a training run's artifacts), as the API never reaches them. Counts and the
hierarchy are the caller's (``as_seen``): a pack counts the concepts the caller sees (one
with none is left out), a concept shows its nearest visible ancestor and its visible
children's count, and no raw ``details`` (they name other concepts in lists and prose), as
``get_concept`` answers a restricted caller. A COLD record names only the tags, comments
and exemplars the export holds (``among``), as ``query``'s records list them. Fields the
models do not declare pass as they are; the kinds with no model (sessions, comments, graph
nodes) name no concept, and a kind this module does not know is refused, never let out
unread.

Vectors (an episode record's ``vectors``) leave only in the file holder's whole export
(``vectors=True``: a backup, a migration): a vector is derived from the episode's content,
which a release may redact, and from everything the export leaves out, so an export that
leaves anything out or releases its records through a policy refuses them (``exported``)
rather than return an export that silently lacks what was asked for. The walk drops any
``vectors`` field too, whatever reaches it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from xdb.errors import InvalidRequest
from xdb.log.log_models import Tag, Timestep
from xdb.models.common import Caller, DeferredModel
from xdb.models.concept_markers import ConceptKeys, ConceptList, ConceptRef, NoConcept, NodeRef
from xdb.ops.registry import Context
from xdb.policy.access_rules import readable as access_readable
from xdb.policy.disclosure import Visibility
from xdb.policy.load import stored
from xdb.policy.release import Release
from xdb.store.protocol import Store

VECTORS_REFUSED = (
    "vectors: only the file holder's whole export carries vectors (a backup); this export"
    " {why}, and a vector is derived from content it may not show. Export without"
    " vectors; the importing database embeds the episodes itself"
)


class _Record(DeferredModel):
    """A record read for the walk: undeclared fields are kept as they are."""

    model_config = ConfigDict(extra="allow")

    def owners(self) -> list[str]:
        """Ids of records this one belongs to: it is left out when any of them is."""
        return []

    def as_seen(self, vis: Visibility) -> _Record | None:
        """The record with its counts and hierarchy as the caller sees them (None: none)."""
        return self

    def among(self, passed: Mapping[str, bool]) -> _Record:
        """The record naming only objects the export holds (``passed``: each id read
        before it, and whether its record was let out)."""
        return self


class _Scored(_Record):
    """An entry of a concept list: an episode's, a dataset member's, a COLD record's."""

    concept_id: Annotated[str, ConceptRef(candidate_if=("kind", "candidate"))]
    kind: str = "stable"


class _Named(_Record):
    """An entry naming one concept: a label, a filter, a bud's relation."""

    concept_id: Annotated[str, ConceptRef()]


class TagRecord(_Record, Tag):
    """A tag record is the API's tag (its ``disclosed_concepts``, its related concepts)."""


class TimestepRecord(_Record, Timestep):
    """A timestep record is the API's timestep (its activations, hushed by session)."""


class TagApplicationRecord(_Record):
    tag_id: str

    def owners(self) -> list[str]:
        return [self.tag_id]


class EpisodeRecord(_Record):
    session_id: str | None = None
    concept_tags: list[_Scored] = Field(default_factory=list)
    motive_profile: Annotated[dict[str, Any], ConceptKeys()] = Field(default_factory=dict)
    labels: list[_Named] = Field(default_factory=list)


class ExemplarRecord(_Record):
    session_id: str | None = None
    concept_id: Annotated[str, ConceptRef()]


class _Filters(_Record):
    concept_filters: list[_Named] = Field(default_factory=list)


class _DatasetRequest(_Record):
    target_concept_id: Annotated[str | None, ConceptRef()] = None
    positive_filters: _Filters | None = None
    negative_filters: _Filters | None = None


class _DatasetBody(_Record):
    request: _DatasetRequest | None = None


class DatasetRecord(_Record):
    concept_id: Annotated[str, ConceptRef()]
    body: _DatasetBody


class _RunBody(_Record):
    concept_ids: Annotated[list[str], ConceptList()] = Field(default_factory=list)


class TrainingRunRecord(_Record):
    concept_id: Annotated[str | None, ConceptRef()] = None
    body: _RunBody

    def disclosed_concepts(self) -> list[tuple[str, bool]]:
        """A run about a concept the caller may not see is left out whole (as the API's)."""
        return [(c, False) for c in self.body.concept_ids]


class ArtifactRecord(_Record):
    series: str | None = None  # its training run
    concept_id: Annotated[str | None, ConceptRef()] = None

    def owners(self) -> list[str]:
        return [] if self.series is None else [self.series]


class _BudBody(_Record):
    related: list[_Named] = Field(default_factory=list)
    promoted_concept_id: Annotated[str | None, ConceptRef(on_hidden="clear")] = None


class BudRecord(_Record):
    id: str  # its tag's id
    concept_id: Annotated[str | None, NoConcept()] = None  # its name; disclosed_concepts says
    body: _BudBody

    def disclosed_concepts(self) -> list[tuple[str, bool]]:
        """A bud is a candidate concept, named by its name and its tag id (as the API's)."""
        return [(self.concept_id or self.id, True), (self.id, True)]

    def owners(self) -> list[str]:
        return [self.id]


class _MemberBody(_Record):
    concept_tags: list[_Scored] = Field(default_factory=list)


class DatasetMemberRecord(_Record):
    dataset_id: str
    body: _MemberBody

    def owners(self) -> list[str]:
        return [self.dataset_id]


class _MemoryBody(_Record):
    concepts: list[_Scored] = Field(default_factory=list)
    tag_ids: dict[str, int] = Field(default_factory=dict)
    comment_ids: list[str] = Field(default_factory=list)
    exemplar_ids: list[str] = Field(default_factory=list)


class MemoryRecordRecord(_Record):
    session_id: str | None = None
    body: _MemoryBody

    def among(self, passed: Mapping[str, bool]) -> MemoryRecordRecord:
        """The tags, comments and exemplars its timesteps carried, of those the caller
        reads (as ``query``'s records list them): a hidden concept's tag, an object under a
        policy it may not read are named by no record (all are exported before these)."""
        body = self.body
        fields = {"tag_ids", "comment_ids", "exemplar_ids"} & body.model_fields_set
        if not fields:
            return self
        kept = {
            "tag_ids": {t: n for t, n in body.tag_ids.items() if passed.get(t)},
            "comment_ids": [c for c in body.comment_ids if passed.get(c)],
            "exemplar_ids": [e for e in body.exemplar_ids if passed.get(e)],
        }
        seen = body.model_copy(update={f: kept[f] for f in fields})
        return self.model_copy(update={"body": seen})


class ConceptPackRecord(_Record):
    spec_id: str
    concept_count: int

    def as_seen(self, vis: Visibility) -> ConceptPackRecord | None:
        facts = vis.index.facts
        seen = sum(1 for c in vis.hierarchy()[0] if facts[c].spec_id == self.spec_id)
        return self.model_copy(update={"concept_count": seen}) if seen else None


class ConceptRecord(_Record):
    id: Annotated[str, ConceptRef()]
    parent_id: Annotated[str | None, ConceptRef(on_hidden="clear")] = None
    child_count: int = 0
    details: dict[str, Any] = Field(default_factory=dict)

    def as_seen(self, vis: Visibility) -> ConceptRecord | None:
        parents, children = vis.hierarchy()
        if self.id not in parents:
            return None
        seen = {"parent_id": parents[self.id], "child_count": len(children.get(self.id, []))}
        return self.model_copy(update={**seen, "details": {}})


class GraphEdgeRecord(_Record):
    src: Annotated[str, NodeRef()]
    dst: Annotated[str, NodeRef()]


# The model each record is read as: by its kind, a learning object's by its own kind too.
MODELS: dict[str, type[BaseModel]] = {
    "tag": TagRecord,
    "timestep": TimestepRecord,
    "tag_application": TagApplicationRecord,
    "episode": EpisodeRecord,
    "exemplar": ExemplarRecord,
    "learning_object:bud": BudRecord,
    "learning_object:dataset": DatasetRecord,
    "learning_object:training_run": TrainingRunRecord,
    "learning_object:artifact": ArtifactRecord,
    "dataset_member": DatasetMemberRecord,
    "memory_record": MemoryRecordRecord,
    "concept_pack": ConceptPackRecord,
    "concept": ConceptRecord,
    "graph_edge": GraphEdgeRecord,
}


# The kinds that name no concept (what a restricted export holds besides the above).
PLAIN = frozenset({"xdb-export", "session", "comment", "graph_node"})


def model_of(record: dict[str, Any]) -> type[BaseModel] | None:
    """The model ``record`` is read as; None for a plain kind. A kind neither names (a new
    one) is refused rather than let out unread."""
    kind = str(record.get("kind"))
    found = MODELS.get(f"{kind}:{record.get('object')}") or MODELS.get(kind)
    if found is None and kind not in PLAIN:
        raise RuntimeError(f"policy: no release for export records of kind {kind!r}")
    return found


def exported(
    store: Store, caller: Caller, sharing: bool = False, vectors: bool = False
) -> Iterator[dict[str, Any]]:
    """Every stored object ``caller`` may read as an export record (``Database.
    export_records``): the store leaves out the objects it may not read (its access
    policies; ``sharing``: and those that may not leave), this module what it may not see.
    ``vectors``: episode records carry their vectors, which only a whole export may do
    (InvalidRequest otherwise, before anything is read)."""
    objects = stored(store)
    readable = access_readable(objects, caller, exporting=sharing)
    release = Release(Context(store, caller, lambda: "", _objects=objects))
    vis = release.vis
    if vectors and (vis.policies is not None or readable is not None):
        why = "releases its records through a policy" if vis.policies else "leaves objects out"
        raise InvalidRequest(VECTORS_REFUSED.format(why=why), field="vectors")
    if vis.policies is None and (readable is None or not vis.restricted):
        # The file holder's is whole (a backup); one kept from some objects gets the
        # store's views, whose COLD records name only what the caller reads.
        return store.export_records(readable, vectors=vectors)
    return released(store.export_records(readable, restricted=True), release)


def released(records: Iterable[dict[str, Any]], release: Release) -> Iterator[dict[str, Any]]:
    """``records`` (an export) without what the release's caller may not see. A record
    whose owner comes later (an artifact before its training run) waits for it; one whose
    owner never comes (not the caller's to read) stays out with it."""
    passed: dict[str, bool] = {}  # each id read so far: whether its record was kept
    waiting: dict[str, list[tuple[Any, dict[str, Any]]]] = {}  # by the owner they wait for
    for record in records:
        if "vectors" in record:  # (a restricted export reads none: never let one out)
            record = {k: v for k, v in record.items() if k != "vectors"}
        model = model_of(record)
        if model is None:
            if isinstance(record.get("id"), str):  # a comment: named by COLD records
                passed[record["id"]] = True
            yield record
        else:
            yield from _settle(model.model_validate(record), record, release, passed, waiting)


def _settle(
    read: Any,
    record: dict[str, Any],
    release: Release,
    passed: dict[str, bool],
    waiting: dict[str, list[tuple[Any, dict[str, Any]]]],
) -> Iterator[dict[str, Any]]:
    owners = read.owners()
    late = [o for o in owners if o not in passed]
    if late:
        waiting.setdefault(late[0], []).append((read, record))
        return
    kept = None
    if all(passed[o] for o in owners):
        seen = read.among(passed).as_seen(release.vis)
        kept = None if seen is None else release.release_record(seen)
    key = record.get("id")
    if isinstance(key, str):
        passed[key] = kept is not None
    if kept is not None:
        out = kept.model_dump(mode="json", exclude_unset=True)
        yield {k: out[k] for k in record if k in out}  # the record's own key order
    for later, raw in waiting.pop(key, []) if isinstance(key, str) else []:
        yield from _settle(later, raw, release, passed, waiting)
