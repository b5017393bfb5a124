"""What the skins need to know about a request field: its shape, allowed values and help.

Shared by the command line (options) and the reference generator (field tables), so both
describe a field the same way.
"""

from __future__ import annotations

import types
from datetime import datetime
from enum import Enum
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

# Examples shown when a JSON-valued option is malformed, keyed by field name.
JSON_EXAMPLES = {
    "tick_range": '{"start": 3, "end": 7}',
    "time_range": '{"start_time": "2025-01-01T00:00:00Z", "end_time": "2025-01-02T00:00:00Z"}',
    "timesteps": '[{"event_type": "output", "content": "Paris"}]',
    "concept_filters": '[{"concept_id": "Deception", "min_score": 0.5, "polarity": "absent"}]',
    "concept_tags": '[{"concept_id": "Deception", "score": 0.8, "kind": "stable"}]',
    "labels": '[{"concept_id": "Deception", "label": "negative", "confidence": 0.9}]',
    "label_filters": '{"concept_id": "Deception", "label": "positive", "min_confidence": 0.7}',
    "sort": '{"by": "relevance", "score_weight": 0.5, "recency_weight": 0.2}',
    "page": '{"page_size": 10, "cursor": null}',
    "time_window": '{"start_time": "2025-01-01T10:00:00Z", "end_time": "2025-01-01T10:05:00Z"}',
    "provenance": '{"session_id": "s1", "start_tick": 1, "end_tick": 40, "source": "log"}',
    "include_graph_neighbors": '{"depth": 2, "relation_filters": ["NEXT", "TAGGED_BY"]}',
    "motive_profile": '{"Care": 0.6}',
    "metadata": '{"source": "slack"}',
}


def unwrap(annotation: Any) -> Any:
    """The type under ``Annotated[...]`` and ``X | None``."""
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            rest = [a for a in get_args(annotation) if a is not type(None)]
            if len(rest) != 1:
                return annotation
            annotation = rest[0]
        else:
            return annotation


def is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def field_kind(info: FieldInfo) -> Literal["flag", "list", "json", "value"]:
    """How a field is typed on the command line."""
    tp = unwrap(info.annotation)
    origin = get_origin(tp)
    if tp is bool:
        return "flag"
    if origin is list:
        return "json" if is_model(unwrap(get_args(tp)[0])) else "list"
    if origin is dict or is_model(tp):
        return "json"
    return "value"


def choices(info: FieldInfo) -> list[str] | None:
    """The allowed values of an enum or Literal field (or of a list of them)."""
    tp = unwrap(info.annotation)
    if get_origin(tp) is list:
        tp = unwrap(get_args(tp)[0])
    if get_origin(tp) is Literal:
        return [str(v) for v in get_args(tp)]
    if isinstance(tp, type) and issubclass(tp, Enum):
        return [str(m.value) for m in tp]
    return None


def describe(info: FieldInfo, *, choices_fallback: bool = True) -> str:
    """A field's description; a nested model without one falls back to the model's docstring."""
    if info.description:
        return info.description
    tp = unwrap(info.annotation)
    doc = tp.__doc__ if is_model(tp) else None
    if isinstance(doc, str) and doc.strip():
        return doc.strip().splitlines()[0]
    if choices_fallback and (allowed := choices(info)) is not None:
        return f"One of {', '.join(allowed)}."
    return ""


def json_example(name: str, info: FieldInfo) -> str:
    if name in JSON_EXAMPLES:
        return JSON_EXAMPLES[name]
    args = get_args(unwrap(info.annotation))
    value = unwrap(args[-1]) if field_kind(info) == "json" and args else None
    return '{"concept-id": {"min": 0.5}}' if is_model(value) else '{"concept-id": 0.8}'


_METAVARS: dict[Any, str] = {int: "INTEGER", float: "NUMBER", datetime: "ISO-TIME", str: "TEXT"}


def value_metavar(info: FieldInfo) -> str:
    """What a plain value looks like; values travel as text for pydantic to parse."""
    tp = unwrap(info.annotation)
    if get_origin(tp) is list:
        tp = unwrap(get_args(tp)[0])
    return _METAVARS.get(tp, "TEXT")
