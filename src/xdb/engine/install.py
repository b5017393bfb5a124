"""``xdb hooks install|uninstall AGENT [--project]``: xdb's entries in an agent's hook
settings, merged in without disturbing what is there, and removed exactly.

| agent | user file | project file |
|---|---|---|
| claude | ``~/.claude/settings.json`` | ``.claude/settings.json`` |
| codex | ``~/.codex/hooks.json`` | ``.codex/hooks.json`` |
| gemini | ``~/.gemini/settings.json`` | ``.gemini/settings.json`` |

Each file keeps ``{"hooks": {EVENT: [{"matcher": ..., "hooks": [{"type": "command",
"command": ...}]}]}}``. xdb adds one matcher group per event whose command starts
``xdb hook `` (or, with Claude Code's ``http`` hook type, whose URL ends
``/v1/hook/claude/EVENT``), and uninstalling removes those groups (and an event, or the
``hooks`` key, left empty by it): the file's other keys, events and groups stay as they
were. Installing keeps the file's bytes beside it (``settings.json.xdb-before``, or
``.xdb-absent`` when there was no file), and uninstalling puts them back when nothing else
changed meanwhile, so a file installed and uninstalled is the file it was, byte for byte
(its layout, line endings and empty entries included); otherwise the file is written back
with the indentation it had.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from xdb.engine.dialects import EVENTS, NATIVE

__all__ = ["MARK", "install", "settings_path", "uninstall"]

MARK = "xdb hook "
HTTP_MARK = re.compile(r"/v1/hook/(claude|codex|gemini)/[a-z-]+$")
FILES = {
    "claude": (".claude", "settings.json"),
    "codex": (".codex", "hooks.json"),
    "gemini": (".gemini", "settings.json"),
}
TIMEOUT = {"claude": 10, "codex": 10, "gemini": 10_000}  # seconds; Gemini CLI's are ms


def settings_path(agent: str, project: Path | None) -> Path:
    folder, name = FILES[agent]
    base = project if project is not None else Path(os.path.expanduser("~"))
    return base / folder / name


def _read(path: Path) -> tuple[dict[str, Any], str | int | None, str]:
    """The settings, the indentation they were written with, and their line ending."""
    if not path.exists():
        return {}, 2, "\n"
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if text.strip() else {}
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a JSON object")
    found = re.search(r"\n([ \t]+)\S", text)
    indent: str | int | None = None if found is None else found.group(1)
    if isinstance(indent, str) and set(indent) == {" "}:
        indent = len(indent)
    return data, indent, "\n" if text.endswith("\n") else ""


def _write(path: Path, data: dict[str, Any], indent: str | int | None, end: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    tmp = path.with_name(path.name + ".xdb-tmp")
    tmp.write_text(text + end, encoding="utf-8")
    tmp.replace(path)  # never a half-written settings file


def _ours(group: Any) -> bool:
    hooks = group.get("hooks") if isinstance(group, dict) else None
    return isinstance(hooks, list) and any(
        isinstance(h, dict)
        and (
            str(h.get("command", "")).startswith(MARK)
            or bool(HTTP_MARK.search(str(h.get("url", ""))))
        )
        for h in hooks
    )


def install(
    agent: str, project: Path | None = None, command: str = "xdb", url: str | None = None
) -> Path:
    """Add xdb's hook for every event; return the file. Installing again changes nothing.
    ``url``: Claude Code's ``http`` hooks, posting to the ``xdb serve`` at that address."""
    if url is not None and agent != "claude":
        raise ValueError("only Claude Code has an http hook type; install command hooks")
    if url is not None and not re.match(r"https?://[^/\s]+", url):
        raise ValueError(f"url {url!r} is not an http(s) address such as http://127.0.0.1:8765")
    path = settings_path(agent, project)
    data, indent, end = _read(path)
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ValueError(f"{path}: 'hooks' is not an object")
    if not any(_ours(g) for gs in hooks.values() if isinstance(gs, list) for g in gs):
        _keep_before(path)
    for event in EVENTS:
        native = NATIVE[agent][event]
        groups = hooks.setdefault(native, [])
        if any(_ours(g) for g in groups):
            continue
        entry: dict[str, Any] = {
            "type": "command",
            "command": f"{command} hook {agent} {event}",
            "timeout": TIMEOUT[agent],
        }
        if url is not None:
            entry = {
                "type": "http",
                "url": f"{url.rstrip('/')}/v1/hook/{agent}/{event}",
                "timeout": TIMEOUT[agent],
                # Filled from the environment by Claude Code; empty: no key (a local serve).
                "headers": {"Authorization": "Bearer $XDB_API_KEY"},
                "allowedEnvVars": ["XDB_API_KEY"],
            }
        if agent == "gemini":
            entry["name"] = f"xdb-{event}"
        group: dict[str, Any] = {"hooks": [entry]}
        if event in ("pre-tool-use", "post-tool-use"):
            group = {"matcher": ".*" if agent == "gemini" else "*", **group}
        groups.append(group)
    _write(path, data, indent, end)
    return path


def uninstall(agent: str, project: Path | None = None) -> tuple[Path, int]:
    """Remove exactly what ``install`` added; (the file, how many groups went)."""
    path = settings_path(agent, project)
    if not path.exists():
        return path, 0
    data, indent, end = _read(path)
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return path, 0
    removed = 0
    for native in list(hooks):
        groups = hooks[native]
        if not isinstance(groups, list):
            continue
        kept = [g for g in groups if not _ours(g)]
        removed += len(groups) - len(kept)
        if kept:
            hooks[native] = kept
        elif len(groups) != len(kept):
            del hooks[native]  # an event only xdb used
    if not hooks:
        del data["hooks"]
    if removed and not _put_back(path, data):
        _write(path, data, indent, end)
    return path, removed


def _before(path: Path) -> tuple[Path, Path]:
    return path.with_name(path.name + ".xdb-before"), path.with_name(path.name + ".xdb-absent")


def _keep_before(path: Path) -> None:
    kept, absent = _before(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        kept.write_bytes(path.read_bytes())
        absent.unlink(missing_ok=True)
    else:
        absent.write_bytes(b"")
        kept.unlink(missing_ok=True)


def _put_back(path: Path, now: dict[str, Any]) -> bool:
    """Restore the bytes kept at install when ``now`` (the file without xdb's entries) says
    what they said; True when done. The kept bytes go either way."""
    kept, absent = _before(path)
    try:
        if absent.exists():
            if now == {}:
                path.unlink(missing_ok=True)
                return True
            return False
        if kept.exists():
            raw = kept.read_bytes()
            before = json.loads(raw.decode("utf-8")) if raw.strip() else {}
            if isinstance(before, dict) and _bare(before) == _bare(now):
                tmp = path.with_name(path.name + ".xdb-tmp")
                tmp.write_bytes(raw)
                tmp.replace(path)
                return True
        return False
    except (OSError, ValueError):
        return False
    finally:
        kept.unlink(missing_ok=True)
        absent.unlink(missing_ok=True)


def _bare(data: dict[str, Any]) -> dict[str, Any]:
    """The settings without empty hook lists or an empty ``hooks`` (what uninstalling
    leaves out), for comparing."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    kept = {event: groups for event, groups in hooks.items() if groups != []}
    rest = {k: v for k, v in data.items() if k != "hooks"}
    return {**rest, "hooks": kept} if kept else rest
