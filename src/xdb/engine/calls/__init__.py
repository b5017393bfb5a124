"""The structure of a tool call (issue 33): a shell command's programs, subcommands,
normalised flags, arguments and redirections; an edit's or write's file, its kind and role,
and what it adds and removes. Layer 1 (``xdb.engine.readonly``) decides read-only calls by
it, and lesson triggers are matched against it.

    from xdb.engine.calls import parse_call
    call = parse_call("Bash", {"command": "sudo rm -rf $DIR/*"}, cwd="/work/shop")
    call.commands[0].program, call.commands[0].flag_names  # 'rm', {'--recursive', '--force'}

Standard library only (``re``, ``posixpath``), and only ``model``, ``lexer``, ``kinds``,
``programs`` and ``shell`` load with it: the command hook's skip path imports this on every
tool call. ``files`` loads when an edit or write is parsed.
"""

from __future__ import annotations

from xdb.engine.calls.call_structure import Arg, Command, FileChange, Flag, Redirect, ToolCall
from xdb.engine.calls.shell import parse_shell

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from xdb.engine.dialects import HookEvent

__all__ = [
    "READ_TOOLS",
    "SHELL_TOOLS",
    "Arg",
    "Command",
    "FileChange",
    "Flag",
    "Redirect",
    "ToolCall",
    "command_text",
    "parse_call",
    "parse_event",
    "parse_shell",
]

# Tool names (Claude Code, Codex, Gemini CLI) that run a shell command / only read;
# matched case-insensitively.
SHELL_TOOLS = frozenset({"bash", "shell", "run_shell_command", "exec_command", "local_shell",
                         "container.exec"})  # fmt: skip
READ_TOOLS = frozenset(
    name.lower()
    for name in (
        "Read", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "NotebookRead", "TodoRead",
        "TodoWrite", "ExitPlanMode", "BashOutput", "ListMcpResourcesTool", "ReadMcpResourceTool",
        "read_file", "read_many_files", "list_directory", "glob", "search_file_content",
        "grep", "web_fetch", "google_web_search", "read_file_content", "view_image",
    )
)  # fmt: skip


def command_text(tool_input: Mapping[str, Any]) -> str | None:
    """A shell tool's command line (Codex passes argv: a ``bash -lc`` script is its
    script, other argv is quoted back into a line)."""
    command = tool_input.get("command", tool_input.get("cmd"))
    if isinstance(command, list):
        argv = [str(part) for part in command]
        if len(argv) == 3 and argv[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh") and (
            argv[1].startswith("-") and "c" in argv[1]
        ):  # fmt: skip
            return argv[2]
        import shlex  # only for argv (Codex): the skip path of a command line goes without

        return shlex.join(argv)
    return command if isinstance(command, str) else None


def parse_call(
    tool_name: str, tool_input: Mapping[str, Any] | None, cwd: str | None = None
) -> ToolCall:
    """The structure of a tool call (``cwd``: the project, for paths' kinds)."""
    data = tool_input or {}
    name = tool_name.lower()
    if name in SHELL_TOOLS:
        text = command_text(data) or ""
        commands, complete = parse_shell(text, cwd)
        files: tuple[FileChange, ...] = ()
        if "*** Begin Patch" in text or any(c.program == "apply_patch" for c in commands):
            from xdb.engine.calls.files import patch_changes  # only for a patch

            files = patch_changes(text, cwd)
        return ToolCall(tool_name, "shell", commands, files, text, complete)
    if name in READ_TOOLS:
        return ToolCall(tool_name, "read")
    from xdb.engine.calls.files import EDIT_TOOLS, PATCH_TOOLS, WRITE_TOOLS, file_changes

    changed = file_changes(tool_name, data, cwd)
    if name in WRITE_TOOLS:
        kind = "write"
    elif name in EDIT_TOOLS:
        kind = "edit"
    elif name in PATCH_TOOLS or changed:
        kind = "patch"
    else:
        kind = "other"
    return ToolCall(tool_name, kind, (), changed)


def parse_event(event: HookEvent) -> ToolCall:
    """The structure of a hook event's tool call (``xdb.engine.dialects.parse``)."""
    return parse_call(event.tool_name or "", event.tool_input, event.cwd)
