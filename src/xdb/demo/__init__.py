"""The demo: a database filled with a few realistic agent sessions, to see xdb at work in a
minute (``xdb demo``; README.md, "A tour").

``PACK`` is the bundled concept pack (a sample of HatCat's first-light, ``sample_pack``),
``script`` the sessions as data and ``fill`` what writes them. Importing this package loads
nothing but ``pathlib``.
"""

from __future__ import annotations

from pathlib import Path

PACK = Path(__file__).resolve().parent / "pack"
DEFAULT_DB = "demo.sqlite3"  # in the working directory, unless --db or XDB_DB names another
SEED = 20251103  # the activations' noise and the dataset's draw
BUD = "overclaiming"  # the candidate concept the demo's agents noticed
