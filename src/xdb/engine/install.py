"""``xdb hooks install|uninstall AGENT [--project]``: xdb's entries in an agent's hook
settings, merged in without disturbing what is there, and removed exactly.

| agent | user file | project file |
|---|---|---|
| claude | ``~/.claude/settings.json`` | ``.claude/settings.json`` |
| codex | ``~/.codex/hooks.json`` | ``.codex/hooks.json`` |
| gemini | ``~/.gemini/settings.json`` | ``.gemini/settings.json`` |

Each file keeps ``{"hooks": {EVENT: [{"matcher": ..., "hooks": [{"type": "command",
"command": ...}]}]}}``. xdb adds one matcher group per event whose command runs this xdb by
its absolute path, so the agent finds it whatever its ``PATH`` (``/abs/.venv/bin/xdb [--db
/abs/x.sqlite3] hook AGENT EVENT``, quoted for the shell; ``command``), or, with Claude Code's
``http`` hook type, whose URL ends ``/v1/hook/claude/EVENT``. Installing again writes the
same entries (a group of an older install, such as a bare ``xdb hook ...``, is replaced in
place), and uninstalling removes xdb's groups, by any path or database and with or
without ``--db`` (and an event, or the ``hooks`` key, left empty by it): the file's other
keys, events and groups stay as they were. Installing keeps the file's bytes beside it
(``settings.json.xdb-before``, or ``.xdb-absent`` when there was no file), and uninstalling
puts them back when nothing else changed meanwhile, so a file installed and uninstalled is
the file it was, byte for byte (its layout, line endings and empty entries included);
otherwise the file is written back with the indentation it had.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

from xdb.engine.dialects import AGENTS, EVENTS, NATIVE

__all__ = ["command", "install", "settings_path", "uninstall"]

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


def xdb_executable() -> list[str]:
    """The words that run this xdb by absolute path: the ``xdb`` script beside the running
    interpreter, else the script this process was started as, else ``python -m xdb``."""
    here = Path(os.path.abspath(sys.executable))
    for name in ("xdb", "xdb.exe"):
        script = here.with_name(name)
        if script.is_file() and os.access(script, os.X_OK):
            return [str(script)]
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name in ("xdb", "xdb.exe") and started.is_file():
        return [str(started.resolve())]
    return [str(here), "-m", "xdb"]


def database_word(db: str) -> str:
    """``--db``'s value as the hook command names it: a file by its absolute path (the agent
    runs the hook in its own directory), a URL or ``:memory:`` as given."""
    if "://" in db or db == ":memory:" or db.startswith("file:"):
        return db
    return os.path.abspath(os.path.expanduser(db))


def command(agent: str, event: str, db: str | None = None, xdb: list[str] | None = None) -> str:
    """The shell command of xdb's hook for ``event``: ``/abs/xdb [--db DB] hook AGENT EVENT``."""
    words = [*(xdb_executable() if xdb is None else xdb)]
    if db is not None:
        words += ["--db", database_word(db)]
    return shlex.join([*words, "hook", agent, event])


def is_hook_command(line: str) -> bool:
    """Whether ``line`` is a command xdb's install wrote, of this version or an older one:
    ``xdb`` (by any path, or ``PYTHON -m xdb``), an optional ``--db DB``, then ``hook AGENT
    EVENT``."""
    try:
        words = shlex.split(line)
    except ValueError:
        return False
    if len(words) < 4 or words[-3] != "hook" or words[-2] not in AGENTS:
        return False
    if words[-1] not in EVENTS:
        return False
    head = words[:-3]
    if len(head) >= 3 and head[-2] == "--db":
        head = head[:-2]
    elif head and head[-1].startswith("--db="):
        head = head[:-1]
    if len(head) == 1:
        return Path(head[0]).name in ("xdb", "xdb.exe")
    return len(head) == 3 and head[1:] == ["-m", "xdb"]


def _ours(group: Any) -> bool:
    hooks = group.get("hooks") if isinstance(group, dict) else None
    return isinstance(hooks, list) and any(
        isinstance(h, dict)
        and (
            is_hook_command(str(h.get("command", "")))
            or bool(HTTP_MARK.search(str(h.get("url", ""))))
        )
        for h in hooks
    )


def install(
    agent: str,
    project: Path | None = None,
    xdb: list[str] | None = None,
    url: str | None = None,
    db: str | None = None,
) -> Path:
    """Add xdb's hook for every event; return the file. Installing again changes nothing;
    an older install's entries are replaced. ``xdb``: the words that run xdb (default: this
    one, by absolute path); ``db``: the database the hook opens (``--db``; default: the
    hook's ``XDB_DB``, else the default file). ``url``: Claude Code's ``http`` hooks,
    posting to the ``xdb serve`` at that address (which answers from its own database)."""
    if url is not None and agent != "claude":
        raise ValueError("only Claude Code has an http hook type; install command hooks")
    if url is not None and not re.match(r"https?://[^/\s]+", url):
        raise ValueError(f"url {url!r} is not an http(s) address such as http://127.0.0.1:8765")
    if url is not None and db is not None:
        raise ValueError(
            "an http hook reaches the serve's own database: give --db to 'xdb serve' instead"
        )
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
        if not isinstance(groups, list):
            raise ValueError(f"{path}: hooks.{native} is not a list")
        entry: dict[str, Any] = {
            "type": "command",
            "command": command(agent, event, db, xdb),
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
        mine = [i for i, g in enumerate(groups) if _ours(g)]
        if not mine:
            groups.append(group)
        elif [groups[i] for i in mine] != [group]:  # an older install's: this one, in place
            groups[mine[0]] = group
            groups[:] = [g for i, g in enumerate(groups) if i not in mine[1:]]
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
