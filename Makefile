# `make run` and `make test` work on a fresh machine with only Python 3.11+, pip and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run demo test lint bench screenshot clean browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	@echo "xdb is $(CURDIR)/$(BIN)/xdb (to have it on PATH: pipx install . -- see README.md)"
	$(BIN)/xdb serve

# Four agent sessions in demo.sqlite3, served by the explorer (README.md, "A tour").
demo: $(STAMP)
	@echo "xdb is $(CURDIR)/$(BIN)/xdb (to have it on PATH: pipx install . -- see README.md)"
	$(BIN)/xdb demo

# Tests run in parallel (pytest-xdist), one worker more than the cores: with a worker a
# core, a third of the CPU waited on subprocesses and servers (2 cores, session 30: 10:41
# with 2 workers, 9:38 with 3). Each worker has its own temporary directories and its own
# PostgreSQL server (tests/conftest.py).
WORKERS = $(shell $(PYTHON) -c 'import os; print((os.cpu_count() or 1) + 1)')

test: $(STAMP) browser
	$(BIN)/python -m pytest -q -n $(WORKERS)

# The explorer's browser tests drive Debian's chromium; without it (no apt, no root) they
# are skipped with the reason printed, and everything else still runs.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo -n ); \
	    ( $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium ) >/dev/null 2>&1 \
	    || echo "chromium could not be installed: the browser tests will be skipped"; }

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m bench.ingest

# docs/images/explorer.png: the explorer on the demo, in the browser tests' headless Chromium.
screenshot: $(STAMP) browser
	$(BIN)/python -m tests.explorer.screenshot docs/images/explorer.png

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
