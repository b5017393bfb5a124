"""The README's picture of the explorer (docs/images/explorer.png), made again: the demo's
database (``xdb demo``) served in process, one page opened in the headless Chromium the
browser tests drive, and its first screen saved as a PNG. Run by ``make screenshot``, by
hand when the explorer's look changes (a minute; not part of the test suite)::

    python -m tests.explorer.screenshot docs/images/explorer.png [PAGE]

PAGE is the path shown (default ``/sessions/deploy``: the deploy session as a conversation,
its tool calls with the concepts each activated, tags and comments).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

PAGE = "/sessions/deploy"
WIDTH, HEIGHT = 1200, 760  # the first screen of a laptop's browser window
MOST_BYTES = 200_000  # the README's picture stays small


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not 1 <= len(args) <= 2:
        print(__doc__, file=sys.stderr)
        return 2
    target, page = Path(args[0]), args[1] if len(args) == 2 else PAGE
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("no chromium: 'make browser' installs Debian's", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    import xdb
    from tests.serving import served
    from xdb.demo.fill import fill
    from xdb.interfaces.http import create_app

    with (
        tempfile.TemporaryDirectory() as folder,
        xdb.connect(Path(folder) / "demo.sqlite3", embedder="hash") as db,
    ):
        fill(db)
        with served(create_app(db, mcp=False)) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            shown = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            shown.goto(url + page)
            target.parent.mkdir(parents=True, exist_ok=True)
            shown.screenshot(path=str(target), full_page=False)
            browser.close()
    size = target.stat().st_size
    print(f"{target}: {WIDTH}x{HEIGHT}, {size:,} bytes, of {page}")
    if size > MOST_BYTES:
        print(f"larger than {MOST_BYTES:,} bytes: keep the README's picture small", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
