"""``python -m xdb``: the ``xdb`` command line."""

import sys

from xdb.launch import main

sys.exit(main())
