"""The ``xdb`` commands of the experience engine's hooks: ``xdb hook AGENT EVENT`` (one
call of a coding agent; ``xdb.launch`` usually answers it before the command line loads)
and ``xdb hooks install|uninstall AGENT`` (docs/engine.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from xdb.errors import XdbError
from xdb.interfaces import cli_help


@click.command(
    "hook",
    short_help="Answer one hook call of a coding agent (its JSON on stdin; docs/engine.md).",
    epilog=cli_help.epilog(
        """echo '{"tool_name": "Bash", "tool_input": {"command": "ls"}}' """
        "| xdb hook claude pre-tool-use"
    ),
)
@click.argument("agent", type=click.Choice(["claude", "codex", "gemini"]))
@click.argument(
    "event",
    type=click.Choice(["pre-tool-use", "post-tool-use", "stop", "session-start", "user-prompt"]),
)
def hook_command(agent: str, event: str) -> None:
    """Answer one hook call of a coding agent: its JSON on stdin, the answer in its dialect on
    stdout (docs/engine.md). Fails open: any problem is exit 0 and no output."""
    from xdb.engine import hook
    from xdb.interfaces.hook_client import answer

    db_path = click.get_current_context().find_root().obj.get("db_path")
    if db_path:  # the database the hook opens when no serve answers (and its workers)
        os.environ["XDB_DB"] = db_path
    hook.main([agent, event], full=answer)


@click.group(
    "hooks",
    cls=cli_help.ListingGroup,
    epilog=cli_help.epilog(
        "xdb hooks install claude --project", "xdb hooks uninstall claude --project"
    ),
)
def hooks_group() -> None:
    """Install or remove xdb's hooks in Claude Code, the Codex CLI or Gemini CLI."""


_AGENT = click.argument("agent", type=click.Choice(["claude", "codex", "gemini"]))
_PROJECT = click.option(
    "--project",
    is_flag=True,
    help="This project's settings (.claude/, .codex/, .gemini/) rather than the user's.",
)


@hooks_group.command(
    "install",
    short_help="Merge xdb's hook entries into the agent's settings file.",
    epilog=cli_help.epilog("xdb hooks install claude --project"),
)
@_AGENT
@_PROJECT
@click.option(
    "--http",
    "url",
    metavar="URL",
    default=None,
    help="Claude Code only: http hooks posting to the xdb serve at URL (e.g."
    " http://127.0.0.1:8765) instead of a command per call.",
)
def hooks_install(agent: str, project: bool, url: str | None) -> None:
    """Merge xdb's hook entries into the agent's settings file (others stay as they are):
    this xdb by absolute path, with the database when --db is given."""
    from xdb.engine.install import install

    db = click.get_current_context().find_root().obj["given"].get("db_path")  # --db: named
    try:
        path = install(agent, Path.cwd() if project else None, url=url, db=db)
    except (OSError, ValueError) as exc:
        raise XdbError(f"cannot install the {agent} hooks: {exc}") from None
    click.echo(json.dumps({"agent": agent, "settings": str(path), "installed": True}))


@hooks_group.command("uninstall", epilog=cli_help.epilog("xdb hooks uninstall claude --project"))
@_AGENT
@_PROJECT
def hooks_uninstall(agent: str, project: bool) -> None:
    """Remove exactly the hook entries xdb added to the agent's settings file."""
    from xdb.engine.install import uninstall

    try:
        path, removed = uninstall(agent, Path.cwd() if project else None)
    except (OSError, ValueError) as exc:
        raise XdbError(f"cannot uninstall the {agent} hooks: {exc}") from None
    click.echo(json.dumps({"agent": agent, "settings": str(path), "removed": removed}))
