"""Generate docs/reference.md from the operation registry, the CLI and the error tree.

The reference is rendered from the same tables the skins are generated from, so it cannot
describe an operation, a field or a command that does not exist; ``tests/test_docs.py``
regenerates it in memory and fails when the committed file is stale::

    python -m xdb.interfaces.docs            # writes docs/reference.md
    python -m xdb.interfaces.docs --check    # exit 1 when docs/reference.md is out of date

(The MCP answers ``xdb mcp`` starts from are generated into the user's cache, not here:
``mcp_answers``.)
"""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Iterable, Sequence
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import click
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import to_jsonable_python

from xdb import errors
from xdb.interfaces.cli import cli
from xdb.interfaces.fields import describe, is_model
from xdb.interfaces.regenerate import write_or_check
from xdb.ops.catalog import operations
from xdb.ops.registry import Operation

DEFAULT_OUTPUT = Path("docs/reference.md")
HAND_WRITTEN = (
    "serve",
    "demo",
    "mcp",
    "mcp config",
    "import",
    "export",
    "migrate",
    "reindex",
    "concepts import",
    "hook",
    "hooks install",
    "hooks uninstall",
)
# Operations whose command is written by hand rather than generated.
CLI_BY_HAND = {"import_concepts": "`xdb concepts import DIRECTORY`"}
_WIDTH = 100  # help text is wrapped at a fixed width so the output never depends on a terminal

_BASE_TYPES: dict[Any, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    datetime: "ISO 8601 time",
    type(None): "null",
}


# --------------------------------------------------------------------------- types and tables


def _constraints(metadata: Iterable[Any]) -> str:
    flat: list[Any] = []
    for item in metadata:
        flat.extend(item.metadata if isinstance(item, FieldInfo) else [item])
    found = {k: getattr(m, k) for m in flat for k in ("ge", "le", "min_length") if hasattr(m, k)}
    if "ge" in found and "le" in found:
        return f" ({found['ge']}..{found['le']})"
    if "ge" in found:
        return f" (≥ {found['ge']})"
    if found.get("min_length") == 1:
        return " (non-empty)"
    return ""


def type_text(tp: Any, requests: dict[type, str]) -> str:
    """A readable type: ``list of string, non-empty``, ``one of `asc`, `desc```, a link."""
    origin, args = get_origin(tp), get_args(tp)
    if origin is Annotated:
        return type_text(args[0], requests) + _constraints(args[1:])
    if origin in (Union, types.UnionType):
        return " or ".join(type_text(a, requests) for a in args)
    if origin is list:
        return f"list of {type_text(args[0], requests)}"
    if origin is dict:
        return f"object: {type_text(args[0], requests)} → {type_text(args[1], requests)}"
    if origin is Literal:
        return "one of " + ", ".join(f"`{v}`" for v in args)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return "one of " + ", ".join(f"`{m.value}`" for m in tp)
    if is_model(tp):
        if tp in requests:
            return f"[`{requests[tp]}` request](#{requests[tp]})"
        return f"[{tp.__name__}](#{tp.__name__.lower()}-object)"
    return _BASE_TYPES.get(tp, getattr(tp, "__name__", str(tp)))


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _default(info: FieldInfo) -> str:
    if info.is_required():
        return "required"
    value = info.get_default(call_default_factory=True)
    return f"`{json.dumps(to_jsonable_python(value))}`"


def field_table(model: type[BaseModel], requests: dict[type, str], defaults: bool) -> list[str]:
    head = (
        "| Field | Type | Default | Description |" if defaults else "| Field | Type | Description |"
    )
    rows = [head, "|---|---|---|---|" if defaults else "|---|---|---|"]
    for name, info in model.model_fields.items():
        kind = type_text(info.annotation, requests) + _constraints(info.metadata)
        cells = [
            f"`{name}`",
            kind,
            *([_default(info)] if defaults else []),
            describe(info, choices_fallback=False),
        ]
        rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return rows


def nested_models(roots: Iterable[type[BaseModel]], skip: Iterable[type]) -> list[type[BaseModel]]:
    """Models used inside the roots' fields, depth first, each once, in order of first use."""
    seen: list[type[BaseModel]] = []
    skipped = set(skip)

    def visit(tp: Any) -> None:
        if is_model(tp):
            if tp not in seen and tp not in skipped:
                seen.append(tp)
                for info in tp.model_fields.values():
                    visit(info.annotation)
            return
        for arg in get_args(tp):
            visit(arg)

    for root in roots:
        for info in root.model_fields.values():
            visit(info.annotation)
    return seen


# --------------------------------------------------------------------------- sections


def _http_routes() -> list[tuple[str, str, str]]:
    """(method, path, summary) of every JSON route, read from the real app when it loads."""
    try:
        from fastapi.routing import APIRoute

        from xdb.core import connect
        from xdb.interfaces.http import create_app
    except ImportError:  # the HTTP extra is missing: fall back to what the registry declares
        return [
            (method, path, op.summary)
            for op in operations()
            for method, path in [("POST", op.http_path), *(("GET", p) for p in op.http_get)]
        ]
    with connect(":memory:") as db:
        app = create_app(db, mcp=False)
    return [
        (method, route.path, route.summary or "")
        for route in app.routes
        if isinstance(route, APIRoute)
        for method in sorted(route.methods or ())
    ]


def _operation(op: Operation[Any, Any], requests: dict[type, str]) -> list[str]:
    positional = op.positional
    usage = f"xdb {op.command}" + (f" [{positional.upper()}]" if positional else "") + " [OPTIONS]"
    cli_row = f"`{usage}`" if op.command else CLI_BY_HAND.get(op.name, "(MCP and HTTP only)")
    python = f'`db.{op.method_name}(...)` or `db.call("{op.group}.{op.name}", {{...}})`'
    routes = [f"`POST {op.http_path}`", *(f"`GET {path}`" for path in op.http_get)]
    out = [
        f"### `{op.group}.{op.name}`",
        "",
        op.summary,
        "",
        " ".join(op.description.split()),
        "",
        "| Interface | Name |",
        "|---|---|",
        f"| MCP tool | `{op.tool_name()}` (with `--dotted-names`: `{op.tool_name(dotted=True)}`) |",
        f"| HTTP | {', '.join(routes)} |",
        f"| CLI | {cli_row} |",
        f"| Python | {python} |",
        "",
    ]
    if op.readonly:
        out += ["Read-only: it changes nothing (the MCP tool carries `readOnlyHint`).", ""]
    if op.query_aliases:
        aliases = ", ".join(f"`{k}` = `{v}`" for k, v in op.query_aliases.items())
        out += [f"GET query parameters also accept the short names {aliases}.", ""]
    if op.example:
        out += ["```sh", op.example, "```", ""]
    out += ["**Request**", "", *field_table(op.request, requests, defaults=True), ""]
    out += ["**Response**", "", *field_table(op.response, requests, defaults=False), ""]
    return out


_FIXED: dict[str, Any] = {"terminal_width": _WIDTH, "max_content_width": _WIDTH}


def _root() -> click.Context:
    return click.Context(cli, info_name="xdb", **{**cli.context_settings, **_FIXED})


def _command_help(name: str) -> list[str]:
    ctx = _root()
    command: click.Command = cli
    for part in name.split():  # a subcommand ("concepts import") under its group
        assert isinstance(command, click.Group)
        command = command.commands[part]
        ctx = click.Context(command, info_name=part, parent=ctx, **_FIXED)
    return [f"### `xdb {name}`", "", "```text", command.get_help(ctx), "```", ""]


def _cli_section() -> list[str]:
    return [
        "## Command line",
        "",
        "`xdb COMMAND` runs one operation per command (above); a field `foo_bar` is the option "
        "`--foo-bar`, a boolean field is a flag pair (`--event-start/--no-event-start`), a list "
        "field is repeated (`--tags a --tags b`), and an object field takes JSON "
        '(`--tick-range \'{"start": 1, "end": 5}\'`). Only the options you give are sent, '
        "so the defaults are the operation's. Output is the response as JSON; `--jsonl` on "
        "`query` and `recent` prints one timestep per line.",
        "",
        "```text",
        cli.get_help(_root()),
        "```",
        "",
        *(line for name in HAND_WRITTEN for line in _command_help(name)),
    ]


def _errors_section() -> list[str]:
    classes = [getattr(errors, n) for n in errors.__all__]
    classes = [c for c in classes if isinstance(c, type) and issubclass(c, errors.XdbError)]
    rows = [
        f"| `{c.code}` | `{c.__name__}` | {c.status} | {_cell(c.__doc__ or '')} |"
        for c in sorted(classes, key=lambda c: (c.status, c.__name__))
        if c is not errors.XdbError
    ]
    return [
        "## Errors",
        "",
        "Every interface raises and reports the same errors. An `InvalidRequest` message names "
        "the field (`event_type: input should be 'input', 'output', ... (got 'speech')`) and "
        "nothing is written.",
        "",
        "| `type` | Python exception | HTTP status | Meaning |",
        "|---|---|---|---|",
        *rows,
        "",
        "- **Python**: the exception is raised; all derive from `xdb.XdbError` (`.code`, "
        "`.message`, `.field`, `.status`).",
        "- **HTTP**: the status above and the envelope "
        '`{"error": {"type": "invalid_request", "message": "...", "field": "content"}}`. '
        "Malformed JSON is a 400 `invalid_request`; an unknown route is a 404 `not_found`, a "
        "wrong method a 405 `method_not_allowed`, and an unexpected fault a 500 "
        "`internal_error`, all in the same envelope.",
        "- **MCP**: a tool result with `isError: true` whose text is `<type>: <message>`, "
        "the message starting with the field it is about (`invalid_request: event_type: is "
        "required`) or ending with ` (field <field>)` when it does not, so the model can "
        "correct the call.",
        "- **CLI**: one line `error: <message>` on stderr and exit code 2 (usage errors and "
        "malformed JSON in an option included); never a traceback.",
        "",
    ]


_NOTES = [
    "## Notes",
    "",
    "- **Times.** Every time is ISO 8601; a time without a zone is read as UTC. Responses "
    "give UTC times.",
    "- **Ids are unique forever.** A timestep id is `ts-<session>-<tick>`; ticks are never "
    "reused within a session, so neither are ids. Tags, tag applications and comments get "
    "ULID-style ids (`tag-…`, `ta-…`, `comment-…`) that sort by creation time.",
    "- **The current session.** An operation without `session_id` uses the current "
    "session: the one given to `connect(session_id=...)` (CLI `--session` or "
    "`XDB_SESSION`), else the most recently active session in the database, else a new "
    "one, created by its first record.",
    "- **Files: the data root.** The paths `export_dataset`, `sync.export`, `sync.import`, "
    "`import_concepts` and `engine.extract` take lead inside the database's data root for "
    "every caller over HTTP, MCP and Python (`connect(data_root=...)`, `xdb serve|mcp "
    "--data-root`, else `XDB_DATA_ROOT`, else `<stem>-files` beside the database file); the "
    "CLI's own commands take any path. A file that exists is replaced only with `overwrite`. "
    "See [policy.md](policy.md#files-the-data-root).",
    "- **Query ordering.** `query` returns timesteps ordered by time, then by insertion "
    'order; `order: "desc"` reverses it. Pages are keyset-based: pass `next_cursor` back as '
    "`cursor` with the same filters to get every match exactly once; `total_count` counts "
    "all pages.",
    "- **The `tags` filter.** A timestep matches when it carries *all* the listed tags, each "
    "applied to the timestep itself, to its event (`event_id`), or to a tick range that "
    "covers it. A tag is named by id, by name, or as `type:name`; an unknown tag matches "
    "nothing.",
    "- **Text search.** Every word of `text_search` must occur in the content; no search "
    "syntax is interpreted.",
    "- **Export format.** `xdb export` writes JSON Lines: first "
    '`{"kind": "xdb-export", "version": 1}`, then `session`, `tag`, `timestep`, '
    "`tag_application`, `comment` and `episode` records with the fields shown above. An "
    "`episode` record has `add_episode`'s fields with the episode's kind as `episode_kind` "
    "(`kind` names the record), plus `episode_id`, `created_at` and `created_by`, each "
    "optional on import (a new id, the import's time, `import`). `xdb import` restores "
    "them in one transaction and skips objects that already exist. `xdb export --vectors` "
    '(and `xdb migrate`, by default) adds each episode\'s stored vectors, `"vectors": '
    '{"<model id>": "<base64 of little-endian float32>"}`; the import stores them with the '
    "episodes it inserts (an episode skipped as present keeps its own) and refuses a vector "
    "whose length differs from that model's stored ones, so only episodes without a vector "
    "from the importing database's model are embedded. Only the file holder's whole export "
    "carries vectors: a restricted or `--sharing` export refuses `--vectors`, since a vector "
    "is derived from content such an export may redact.",
    "- **Changing the embedding model.** Searches use only the current model's vectors; "
    "episodes get new ones in the background as the database is used. `xdb reindex` "
    "embeds them all at once and deletes the other models' vectors.",
    "",
]


def render() -> str:
    """The whole reference as Markdown."""
    ops = operations()
    requests = {op.request: f"{op.group}.{op.name}" for op in ops}
    roots = [m for op in ops for m in (op.request, op.response)]
    objects = nested_models(roots, skip=requests)
    out = [
        "# xdb reference",
        "",
        "<!-- Generated by `python -m xdb.interfaces.docs` from the operation registry; "
        "do not edit by hand. -->",
        "",
        "Every operation is one entry in the registry and is served four ways with the same "
        "fields, the same validation and the same errors: the Python API, an MCP tool, an "
        "HTTP route and a CLI command. MCP tool names use underscores (`xdb_record`) because "
        "clients such as Claude Code require `mcp__<server>__<tool>` to match "
        "`^[a-zA-Z0-9_-]{1,64}$`; `--dotted-names` serves `xdb.record` instead.",
        "",
        "## Operations",
        "",
        *(f"- [`{op.group}.{op.name}`](#{op.group}{op.name}): {op.summary}" for op in ops),
        "",
    ]
    for op in ops:
        out += _operation(op, requests)
    out += ["## Objects", ""]
    for model in objects:
        doc = " ".join((model.__doc__ or "").split())
        out += [f"### `{model.__name__}` object", "", *([doc, ""] if doc else [])]
        out += [*field_table(model, requests, defaults=False), ""]
    out += ["## HTTP routes", "", "| Method | Path | Summary |", "|---|---|---|"]
    out += [f"| {m} | `{p}` | {_cell(s)} |" for m, p, s in _http_routes()]
    out += [
        "",
        "`xdb serve` also mounts MCP (streamable HTTP) at `/mcp` unless `--no-mcp`, and "
        "FastAPI serves the OpenAPI document at `/openapi.json` (browsable at `/docs`).",
        "",
    ]
    out += _cli_section() + _errors_section() + _NOTES
    return "\n".join(line.rstrip() for line in "\n".join(out).splitlines()).rstrip() + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    return write_or_check(
        argv,
        command="python -m xdb.interfaces.docs",
        description=__doc__,
        default=DEFAULT_OUTPUT,
        render=render,
    )


if __name__ == "__main__":
    sys.exit(main())
