"""The ``xdb`` commands generated from the registry: one per operation (``record_batch``
-> ``xdb record-batch``), its options from the request model's fields. Values go to
``Database.run`` as typed and the pydantic models validate them, so an error reads the same
here as over MCP or HTTP. An operation named ``GROUP SUB`` (``audit list``) is a subcommand
of its group (``cli_subgroups``)."""

from __future__ import annotations

import json
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import click
from pydantic import ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import to_jsonable_python

from xdb.errors import InvalidRequest, from_validation_errors
from xdb.interfaces import cli_help, cli_progress
from xdb.interfaces.cli_database import database, emit
from xdb.interfaces.fields import choices, describe, field_kind, json_example, value_metavar
from xdb.ops.registry import Operation
from xdb.paths import at_terminal


def _plain(value: Any) -> str:
    """A default as a user would type it: an enum's value, an object as JSON."""
    plain = to_jsonable_python(value)
    return plain if isinstance(plain, str) else json.dumps(plain, ensure_ascii=False)


def _option(name: str, info: FieldInfo, positional: bool = False) -> click.Option:
    """The option for a request field; ``positional``: the command's argument gives it too."""
    flag = "-" + name if len(name) == 1 else "--" + name.replace("_", "-")
    kind = field_kind(info)
    text = describe(info)
    allowed = choices(info)
    if kind == "flag":
        return click.Option([f"{flag}/--no-{flag[2:]}", name], default=None, help=text)
    metavar = f"[{'|'.join(allowed)}]" if allowed else "JSON" if kind == "json" else None
    if metavar is None:
        # Values travel as text for pydantic to parse; the metavar still says what fits.
        metavar = value_metavar(info)
    default = None if info.is_required() else info.get_default(call_default_factory=True)
    if default not in (None, False, [], {}):
        text = f"{text} Default: {_plain(default)}."
    if kind == "json":
        text = f"{text} A JSON value, e.g. '{json_example(name, info)}'."
    if kind == "list":
        text = f"{text} Repeat the option for several values."
    if positional:
        # The argument stands in for the option, so the option alone is never required.
        need = "Required: give" if info.is_required() else "Or give"
        text = f"{text} {need} it as the argument {name.upper()} or as {flag}."
    elif info.is_required():
        # Marked as click marks its own required options, but not enforced by click: the
        # request model says what is missing, in the same words as on every interface.
        text = f"{text.strip()}  [required]"
    # Default None (or an empty tuple) marks "not given": only given fields reach the model,
    # so its own defaults and validators apply exactly as on every other interface.
    return click.Option(
        [flag, name], default=None, multiple=kind == "list", metavar=metavar, help=text.strip()
    )


def _parse_json(name: str, info: FieldInfo, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidRequest(
            f"{name}: not valid JSON ({exc.msg} at column {exc.colno}); "
            f"give e.g. '{json_example(name, info)}'",
            field=name,
        ) from None


def payload(op: Operation[Any, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The request mapping for the options the user actually gave."""
    out: dict[str, Any] = {}
    positional = op.positional
    if positional and values.get("argument") is not None:
        if values.get(positional) not in (None, ()):
            option = "--" + positional.replace("_", "-")
            raise InvalidRequest(
                f"{positional}: give it as the argument or as {option}, not both",
                field=positional,
            )
        values = {**values, positional: values["argument"]}
    for name, info in op.request.model_fields.items():
        value = values.get(name)
        if value is None or value == ():
            continue
        kind = field_kind(info)
        out[name] = (
            _parse_json(name, info, value)
            if kind == "json"
            else list(value)
            if kind == "list"
            else value
        )
    return out


def op_command(op: Operation[Any, Any]) -> click.Command:
    """The command of ``op``: an option per request field (and the positional argument,
    ``--file``, ``--jsonl`` or ``--progress`` where the operation has them)."""
    clash = {"argument", "file", "jsonl", "progress"} & op.request.model_fields.keys()
    if clash:  # the CLI's own parameter names would shadow these fields
        raise RuntimeError(f"{op.name}: request field(s) {clash} clash with CLI parameters")
    positional = op.positional
    fields = op.request.model_fields
    params: list[click.Parameter] = [_option(n, f, n == positional) for n, f in fields.items()]
    if positional:
        # Not required by click (--FIELD may give it instead), but shown bare when the
        # request needs it: `xdb record [OPTIONS] CONTENT`.
        metavar = positional.upper()
        if not fields[positional].is_required():
            metavar = f"[{metavar}]"
        params.insert(0, click.Argument(["argument"], required=False, metavar=metavar))
    if op.bulk and "timesteps" in fields:  # a token stream: from a file as well as --FIELD
        params.append(
            click.Option(
                ["--file", "file"],
                type=click.Path(exists=True, dir_okay=False, allow_dash=True),
                help="Read the timesteps from FILE ('-' for stdin): JSON Lines or a JSON list.",
            )
        )
    listing = "timesteps" in op.response.model_fields and op.readonly
    if listing:
        params.append(
            click.Option(["--jsonl", "jsonl"], is_flag=True, help="Print one timestep per line.")
        )
    counts = cli_progress.REPORTING.get(f"{op.group}.{op.name}")  # a long one: a bar
    if counts is not None:
        params.append(cli_progress.option())

    def callback(**values: Any) -> None:
        source = values.pop("file", None)
        jsonl = values.pop("jsonl", False)
        progress = values.pop("progress", None)
        request = payload(op, values)
        if source is not None:
            if "timesteps" in request:
                raise InvalidRequest(
                    "timesteps: give --file or --timesteps, not both", field="timesteps"
                )
            from xdb.interfaces.jsonl import read_timesteps

            request["timesteps"] = read_timesteps(_read_text(source))
        try:
            # Validated before the database opens: bad input names its field and leaves no
            # new file behind, and a typo in --db does not hide it.
            model = op.request.model_validate(request)
        except ValidationError as exc:
            if click.get_current_context().find_root().obj.get("caller") is not None:
                # A named caller who may not run it is told so, whatever it typed: the core
                # authorizes (and audits a refusal) before it validates (docs/policy.md).
                database(create=False).run(op, request)
            raise from_validation_errors(exc.errors()) from None
        bar = nullcontext() if counts is None else cli_progress.reported(progress, counts)
        with at_terminal(), bar:  # the person at the terminal names any path (xdb.paths)
            response = database(create=not op.readonly).run(op, model)
        data = response.model_dump(mode="json")
        if not jsonl:
            emit(data)
            return
        for item in data["timesteps"]:
            click.echo(json.dumps(item, ensure_ascii=False))
        if data.get("next_cursor"):
            # stdout stays pure JSON Lines; the hint for the next page goes to stderr.
            click.echo(f"more: pass --cursor {data['next_cursor']} for the next page", err=True)

    extra = ""
    if positional:
        extra = f"Argument {positional.upper()} is the same as --{positional.replace('_', '-')}. "
    routes = f"MCP tool {op.tool_name()}, HTTP POST {op.http_path}."
    return click.Command(
        op.command,
        params=params,
        callback=callback,
        short_help=op.summary,
        help=f"{op.description}\n\n{extra}Also: {routes}",
        epilog=cli_help.epilog(*op.example.splitlines()) if op.example else None,
    )


def _read_text(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    return Path(source).read_text(encoding="utf-8")
