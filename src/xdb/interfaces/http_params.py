"""Query and path parameters of the HTTP interface's GET routes (and path parameters of its
POST aliases): read into an operation's request mapping, and documented for OpenAPI by hand,
since the handlers read the query themselves (to accept aliases and forbid unknown names)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args, get_origin

from fastapi import Request

from xdb.errors import InvalidRequest
from xdb.ops.registry import Operation

__all__ = ["parameters", "query_payload"]


def _is_list(annotation: Any) -> bool:
    if get_origin(annotation) is list:
        return True
    return any(_is_list(arg) for arg in get_args(annotation))


def query_payload(op: Operation[Any, Any], request: Request) -> dict[str, Any]:
    """Build a request mapping from query and path parameters; validation happens in run."""
    fields = op.request.model_fields
    lists = {name for name, info in fields.items() if _is_list(info.annotation)}
    payload: dict[str, Any] = {}
    for key, value in request.query_params.multi_items():
        name = op.query_aliases.get(key, key)
        if name in lists:
            payload.setdefault(name, []).append(value)
        elif name in payload:
            raise InvalidRequest(f"{name}: is given more than once", field=name)
        else:
            payload[name] = value  # unknown names are left for the model to reject
    for name, value in request.path_params.items():
        if name == "session_id" and name not in fields:
            continue  # the XAPI's GET paths name the session even where nothing depends on it
        if payload.setdefault(name, value) != value:
            raise InvalidRequest(f"{name}: the path and the query disagree", field=name)
    return payload


def parameters(op: Operation[Any, Any], path: str) -> list[dict[str, Any]]:
    schema = op.request.model_json_schema()
    defs = schema.get("$defs", {})
    aliases: dict[str, list[str]] = {}
    for alias, name in op.query_aliases.items():
        aliases.setdefault(name, []).append(alias)
    params: list[dict[str, Any]] = []
    if "{session_id}" in path and "session_id" not in schema.get("properties", {}):
        params.append(
            {
                "name": "session_id",
                "in": "path",
                "required": True,
                "schema": {"type": "string"},
                "description": "The caller's session (the answer is the same for every one).",
            }
        )
    for name, prop in schema.get("properties", {}).items():
        if "{" + name + "}" in path:
            params.append(
                {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            )
            continue
        prop = inline(prop, defs)
        text = prop.pop("description", None) or prop.get("title", name)
        params.append({"name": name, "in": "query", "schema": prop, "description": text})
        for alias in aliases.get(name, []):
            params.append(
                {"name": alias, "in": "query", "schema": prop, "description": f"Same as {name}."}
            )
    return params


def inline(node: Any, defs: Mapping[str, Any]) -> Any:
    """Replace ``#/$defs/`` references, which mean nothing inside an OpenAPI parameter."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return inline(defs[ref.removeprefix("#/$defs/")], defs)
        return {key: inline(value, defs) for key, value in node.items()}
    if isinstance(node, list):
        return [inline(value, defs) for value in node]
    return node
