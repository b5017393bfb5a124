"""``python -m xdb.interfaces.hook_worker``: the detached work a hook starts (the judge after a
tool call, extraction at the end of a session). Reads ``{"op": ..., "request": ...}`` on
stdin and asks the engine (``hook_client.ask``); whatever goes wrong, it exits quietly: nobody
waits for it."""

from __future__ import annotations

import json
import sys

from xdb.interfaces.hook_client import ask


def main() -> int:
    try:
        work = json.loads(sys.stdin.read())
        if isinstance(work, dict) and work.get("op") in ("judge", "extract"):
            ask(str(work["op"]), dict(work["request"]))
    except Exception:  # a judge that fails leaves the warning pending, nothing more
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
