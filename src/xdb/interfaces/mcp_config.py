"""``xdb mcp config CLIENT``: a ready config that makes CLIENT start this xdb as its MCP server.

Each client keeps its stdio servers in a file of its own, in a format of its own:

- ``claude-code``: ``.mcp.json`` at the project's root, ``{"mcpServers": {NAME: {"type":
  "stdio", "command": ..., "args": [...]}}}``;
- ``claude-desktop``: ``claude_desktop_config.json``, ``{"mcpServers": {NAME: {"command",
  "args"}}}``, as are ``cursor``'s ``.cursor/mcp.json`` (or ``~/.cursor/mcp.json``) and
  ``gemini``'s ``~/.gemini/settings.json`` (or ``.gemini/settings.json``);
- ``codex``: ``~/.codex/config.toml``, a table ``[mcp_servers.NAME]`` with ``command`` and
  ``args``;
- ``vscode``: ``.vscode/mcp.json``, ``{"servers": {NAME: {"type": "stdio", "command",
  "args"}}}``.

The command names this xdb and the database by absolute path, so the client, which starts
it from a directory and with a ``PATH`` of its own, finds both (``engine.install``'s
``xdb_executable``: the ``xdb`` script beside the interpreter, else ``python -m xdb``).
The config goes to stdout, where it goes (and the client's own command that adds it, where
it has one) to stderr, so ``xdb mcp config cursor > .cursor/mcp.json`` writes a whole file.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Sequence

__all__ = ["CLIENTS", "render", "server_command"]

CLIENTS = ("claude-code", "claude-desktop", "cursor", "codex", "vscode", "gemini")
# A server name every client takes as it is (Claude Code names tools mcp__NAME__tool).
NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")

_WHERE = {
    "claude-code": "Save as .mcp.json at the project's root (merge its mcpServers into an "
    "existing one), or run: claude mcp add --scope user {name} -- {line}",
    "claude-desktop": "Merge into claude_desktop_config.json (macOS: ~/Library/Application "
    "Support/Claude/, Windows: %APPDATA%\\Claude\\) and restart Claude Desktop.",
    "cursor": "Save as .cursor/mcp.json in the project, or ~/.cursor/mcp.json for every "
    "project (merge its mcpServers into an existing one).",
    "codex": "Append to ~/.codex/config.toml (or .codex/config.toml in a trusted project), "
    "or run: codex mcp add {name} -- {line}",
    "vscode": "Save as .vscode/mcp.json in the workspace (merge its servers into an existing one).",
    "gemini": "Merge into ~/.gemini/settings.json, or .gemini/settings.json in the project.",
}


def server_command(
    db: str,
    *,
    profile: str | None = None,
    toolsets: str | None = None,
    dotted_names: bool = False,
    data_root: str | None = None,
    caller: str | None = None,
) -> list[str]:
    """The words that start ``xdb mcp`` on ``db`` with the options given (paths absolute)."""
    from xdb.engine.install import database_word, xdb_executable

    words = [*xdb_executable(), "mcp", "--db", database_word(db)]
    if profile is not None:
        words += ["--profile", profile]
    if toolsets is not None:
        words += ["--toolsets", toolsets]
    if dotted_names:
        words.append("--dotted-names")
    if data_root is not None:
        words += ["--data-root", os.path.abspath(os.path.expanduser(data_root))]
    if caller is not None:
        words += ["--caller", caller]
    return words


def render(client: str, command: Sequence[str], name: str = "xdb") -> tuple[str, str]:
    """CLIENT's config starting ``command`` as the server ``name``, and where it goes."""
    if client not in CLIENTS:
        raise ValueError(f"unknown client {client!r}; known: {', '.join(CLIENTS)}")
    if NAME.fullmatch(name) is None:
        raise ValueError(f"name: {name!r} is not a server name (letters, digits, _ and -)")
    program, args = command[0], list(command[1:])
    where = _WHERE[client].format(name=name, line=shlex.join(command))
    if client == "codex":
        lines = [
            f"[mcp_servers.{name}]",
            f"command = {_toml_string(program)}",
            f"args = [{', '.join(_toml_string(a) for a in args)}]",
        ]
        return "\n".join(lines) + "\n", where
    server: dict[str, object] = {"command": program, "args": args}
    if client in ("claude-code", "vscode"):
        server = {"type": "stdio", **server}
    key = "servers" if client == "vscode" else "mcpServers"
    return json.dumps({key: {name: server}}, indent=2, ensure_ascii=False) + "\n", where


def _toml_string(text: str) -> str:
    # A TOML basic string takes JSON's escapes (\", \\, \n, \uXXXX, ...).
    return json.dumps(text, ensure_ascii=False)
