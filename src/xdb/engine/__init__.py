"""The experience engine: hooks that warn coding agents before they repeat a mistake (issue 21)."""
