"""The one module every output leaves through, and every request of a restricted caller
enters through.

``release`` walks a response by its models' field markers (``models.concept_markers``) and leaves
out what the caller may not see: an object about a hidden concept is left out of its list
(never a redacted stub), hidden keys and ids are left out of mappings and lists.
``admit`` rewrites a request before its handler runs: each hidden concept it names becomes
a stand-in that names nothing, so the handler computes exactly the answer for an unknown
concept (no score, rank, count or cursor is computed from the hidden one); ``release`` then
writes the caller's own words back where the answer echoes them. Which answer that is, per
operation, is in docs/policy.md.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pydantic import BaseModel

from xdb.errors import XdbError
from xdb.models.concept_markers import (
    ConceptKeys,
    ConceptList,
    ConceptRef,
    Marker,
    NoConcept,
    NodeRef,
)
from xdb.policy.disclosure import Visibility
from xdb.store.graph_edges import CONCEPT_NODE

if typing.TYPE_CHECKING:
    from xdb.ops.registry import Context

STAND_IN = "xdb:unknown-concept:"  # + a number: names no concept, matches no rule
_DROP = object()


@dataclass(frozen=True)
class FieldPlan:
    name: str
    marker: Marker | None
    nested: bool  # holds models (directly, in a list, or as mapping values)


@dataclass(frozen=True)
class ModelPlan:
    fields: tuple[FieldPlan, ...]
    session: bool  # has a session_id: hush by session applies beneath it
    marked: bool  # it or a model beneath it names concepts


def _models_in(annotation: Any) -> Iterable[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in typing.get_args(annotation):
        yield from _models_in(arg)


@cache
def plan(model: type[BaseModel]) -> ModelPlan:
    fields = []
    marked = hasattr(model, "disclosed_concepts")
    for name, info in model.model_fields.items():
        markers = [m for m in info.metadata if isinstance(m, Marker)]
        marker = markers[0] if markers else None
        inner = list(_models_in(info.annotation))
        nested = any(plan(m).marked for m in inner if m is not model)
        if marker is not None and not isinstance(marker, NoConcept):
            marked = True
        if nested or (marker is not None and not isinstance(marker, NoConcept)):
            fields.append(FieldPlan(name, marker, nested))
        elif inner:
            fields.append(FieldPlan(name, None, False))
        marked = marked or nested
    return ModelPlan(tuple(fields), "session_id" in model.model_fields, marked)


def names_concepts(model: type[BaseModel]) -> bool:
    """Whether any field of ``model`` (or beneath it) names a concept."""
    return plan(model).marked


@dataclass
class Release:
    """One call's walk: the caller's visibility (read on first use) and the stand-ins its
    request got."""

    ctx: Context
    stand_ins: dict[str, str] = field(default_factory=dict)  # stand-in -> caller's words
    _given: dict[str, str] = field(default_factory=dict)  # caller's words -> stand-in

    @property
    def vis(self) -> Visibility:
        return self.ctx.view

    # ------------------------------------------------------------------ requests

    def admit(self, request: BaseModel) -> BaseModel:
        """``request`` with each hidden concept it names replaced by a stand-in."""
        if not names_concepts(type(request)) or not self.vis.restricted:
            return request
        out = self._admit(request)
        return request if out is None else out

    def _stand_in(self, value: str) -> str:
        found = self._given.get(value)
        if found is None:
            found = f"{STAND_IN}{len(self._given) + 1}"
            self._given[value] = found
            self.stand_ins[found] = value
        return found

    def _hidden_in_request(self, value: str, node: bool) -> bool:
        if node:
            if value.startswith(CONCEPT_NODE):
                return not self.vis.visible(value[len(CONCEPT_NODE) :])
            # A bare node id is a concept only when it names one (resolve_nodes' rule).
            return bool(self.vis.index.named(value)) and not self.vis.visible(value)
        return not self.vis.visible(value)

    def _admit_value(self, value: str, node: bool) -> str:
        if not self._hidden_in_request(value, node):
            return value
        if node and value.startswith(CONCEPT_NODE):
            return CONCEPT_NODE + self._stand_in(value[len(CONCEPT_NODE) :])
        return self._stand_in(value)

    def _admit(self, obj: BaseModel) -> BaseModel | None:
        changes: dict[str, Any] = {}
        for f in plan(type(obj)).fields:
            value = getattr(obj, f.name)
            if value is None:
                continue
            new = value
            node = isinstance(f.marker, NodeRef)
            if isinstance(f.marker, (ConceptRef, NodeRef, ConceptList)):
                if isinstance(value, str):
                    new = self._admit_value(value, node)
                elif isinstance(value, list):
                    new = [self._admit_value(v, node) for v in value]
            elif isinstance(f.marker, ConceptKeys):
                new = {self._admit_value(k, False): v for k, v in value.items()}
            elif f.nested:
                new = self._admit_nested(value)
            if new != value:
                changes[f.name] = new
        return obj.model_copy(update=changes) if changes else None

    def _admit_nested(self, value: Any) -> Any:
        if isinstance(value, BaseModel):
            out = self._admit(value)
            return value if out is None else out
        if isinstance(value, list):
            return [self._admit_nested(v) for v in value]
        if isinstance(value, dict):
            return {k: self._admit_nested(v) for k, v in value.items()}
        return value

    # ------------------------------------------------------------------ responses

    def release(self, response: BaseModel) -> BaseModel:
        """``response`` without what the caller may not see, echoing its own words."""
        if not self.stand_ins and (not names_concepts(type(response)) or not self.vis.restricted):
            return response
        out = self._model(response, None)
        if out is _DROP:
            # A handler answered with an object about a hidden concept where no list can
            # leave it out: the request should have been refused. Never let it through.
            raise RuntimeError(f"policy: {type(response).__name__} is about a hidden concept")
        return typing.cast(BaseModel, out)

    def release_record(self, record: BaseModel) -> BaseModel | None:
        """One object leaving on its own (an export's record), walked as a response is;
        None when it is about a concept the caller may not see (left out whole)."""
        out = self._model(record, None)
        return None if out is _DROP else typing.cast(BaseModel, out)

    def _visible(self, value: str, candidate: bool, session: str | None) -> bool:
        if value in self.stand_ins:
            return self.vis.unknown_visible()
        return self.vis.visible(value, candidate, session)

    def _node_visible(self, value: str, session: str | None) -> bool:
        if value.startswith(CONCEPT_NODE):
            return self._visible(value[len(CONCEPT_NODE) :], False, session)
        return True

    def _model(self, obj: BaseModel, session: str | None) -> Any:
        p = plan(type(obj))
        if p.session:
            own = getattr(obj, "session_id", None)
            session = own if isinstance(own, str) else session
        about = getattr(obj, "disclosed_concepts", None)
        if about is not None and any(
            not self._visible(value, candidate, session) for value, candidate in about()
        ):
            return _DROP
        changes: dict[str, Any] = {}
        for f in p.fields:
            value = getattr(obj, f.name)
            if value is None:
                continue
            new = self._field(obj, f, value, session)
            if new is _DROP:
                return _DROP
            if new is not value:
                changes[f.name] = new
        if self.stand_ins:
            for name in type(obj).model_fields:
                value = changes.get(name, getattr(obj, name))
                echoed = self._echo(value)
                if echoed is not value:
                    changes[name] = echoed
        return obj.model_copy(update=changes) if changes else obj

    def _field(self, obj: BaseModel, f: FieldPlan, value: Any, session: str | None) -> Any:
        m = f.marker
        if isinstance(m, ConceptRef):
            candidate = (
                m.candidate_if is not None
                and _plain(getattr(obj, m.candidate_if[0])) == (m.candidate_if[1])
            )
            if self._visible(value, candidate, session):
                return value
            return _DROP if m.on_hidden == "drop" else None
        if isinstance(m, NodeRef):
            if isinstance(value, list):
                kept = [v for v in value if self._node_visible(v, session)]
                return value if len(kept) == len(value) else kept
            return value if self._node_visible(value, session) else _DROP
        if isinstance(m, ConceptList):
            kept = [v for v in value if self._visible(v, False, session)]
            return value if len(kept) == len(value) else kept
        if isinstance(m, ConceptKeys):
            kept_keys = {k: v for k, v in value.items() if self._visible(k, False, session)}
            return value if len(kept_keys) == len(value) else kept_keys
        if f.nested:
            return self._nested(value, session)
        return value

    def _nested(self, value: Any, session: str | None) -> Any:
        if isinstance(value, BaseModel):
            out = self._model(value, session)
            if out is _DROP:
                return _DROP
            return out
        if isinstance(value, list):
            items = [self._nested(v, session) for v in value]
            kept = [v for v in items if v is not _DROP]
            same = len(kept) == len(value) and all(a is b for a, b in zip(kept, value, strict=True))
            return value if same else kept
        if isinstance(value, dict):
            pairs = {k: self._nested(v, session) for k, v in value.items()}
            return {k: v for k, v in pairs.items() if v is not _DROP}
        return value

    def _echo(self, value: Any) -> Any:
        """``value`` with stand-ins written back as the caller's words."""
        if isinstance(value, str):
            if STAND_IN not in value:
                return value
            for stand_in, words in sorted(self.stand_ins.items(), key=lambda kv: -len(kv[0])):
                value = value.replace(stand_in, words)
            return value
        if isinstance(value, list):
            items = [self._echo(v) for v in value]
            return value if all(a is b for a, b in zip(items, value, strict=True)) else items
        if isinstance(value, dict):
            out = {self._echo(k): self._echo(v) for k, v in value.items()}
            same = list(out) == list(value) and all(out[k] is value[k] for k in value)
            return value if same else out
        return value

    def echo_error(self, error: XdbError) -> XdbError:
        """``error`` in the caller's words (an unknown concept's error names what it sent)."""
        echoed = type(error)(typing.cast(str, self._echo(error.message)), field=error.field)
        return echoed


def _plain(value: Any) -> Any:
    return getattr(value, "value", value)
