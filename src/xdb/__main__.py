"""``python -m xdb``: the ``xdb`` command line."""

import sys

from xdb.interfaces.cli import main

sys.exit(main())
