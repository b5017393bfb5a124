"""``xdb hook AGENT EVENT``: one hook call, read from stdin and answered on stdout in the
agent's dialect (``dialects``). Fail open: whatever goes wrong (malformed stdin, a missing
or locked database, a slow brain), the agent gets exit 0 and no output, as if there were
no hook. A read-only tool call (``readonly``) is answered before anything else is loaded.
"""

from __future__ import annotations

import sys

from xdb.engine.dialects import AGENTS, EVENTS, HookEvent, parse
from xdb.engine.readonly import is_read_only

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TextIO

    # What the full path answers a hook call: the output, in the agent's dialect ("": none).
    FullPath = Callable[[HookEvent], str]

__all__ = ["answer", "main"]


def answer(agent: str, event: str, text: str, full: FullPath | None) -> str:
    """The hook's stdout for the call ``text`` ("" for none); never raises."""
    try:
        call = parse(agent, event, text)
        if event == "pre-tool-use" and is_read_only(call.tool_name or "", call.tool_input):
            return ""
        if full is None:
            return ""
        return full(call)
    except Exception:  # fail open: the agent must never be blocked by its memory
        return ""


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    full: FullPath | None = None,
) -> int:
    """``AGENT EVENT`` from ``argv``; always exit 0 (a usage error says so on stderr)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] not in AGENTS or args[1] not in EVENTS:
        print(f"usage: xdb hook {{{'|'.join(AGENTS)}}} {{{'|'.join(EVENTS)}}}", file=sys.stderr)
        return 0
    try:
        text = (stdin or sys.stdin).read()
    except Exception:
        return 0
    out = answer(args[0], args[1], text, full)
    if out:
        try:  # as UTF-8 whatever the locale says; a closed pipe is the agent's business
            target = stdout or sys.stdout
            buffer = getattr(target, "buffer", None)
            if buffer is not None:
                buffer.write(out.encode("utf-8") + b"\n")
                buffer.flush()
            else:
                target.write(out + "\n")
        except Exception:
            return 0
    return 0
