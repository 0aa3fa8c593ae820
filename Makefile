# make run: set up and serve on 127.0.0.1:8000 (PORT=8001 to change the port; HOST=0.0.0.0
# serves the local network and prints the address to open on a phone, with a QR code).
# make test: set up and run the whole suite. make lint: ruff check, format check and mypy.
# make bench: the cost of each request a table makes, as ratios to a constant page.
# make throughput: records per second under gunicorn against the constant page's (~2 min).
# make mutants: mutation testing of rules, services and progress (not part of make test).
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed
COMMA := ,

# A Python >= 3.12: python3.13/python3.12 on the PATH when they run (pyenv shims of versions
# that are not active do not), else pyenv's own 3.13 or 3.12.
define FIND_PYTHON
for c in python3.13 python3.12; do \
  if command -v $$c >/dev/null 2>&1 && $$c -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then \
    command -v $$c; exit 0; fi; \
done; \
if command -v pyenv >/dev/null 2>&1; then \
  for v in 3.13 3.12; do \
    p=$$(pyenv prefix $$v 2>/dev/null) && [ -x "$$p/bin/python$$v" ] && { echo "$$p/bin/python$$v"; exit 0; }; \
  done; \
fi; \
exit 1
endef

.PHONY: venv venv-test run test test-engine test-sqlite test-postgres scale-out lint format migrate strategy bench throughput mutants clean messages

HOST ?= 127.0.0.1
# Development: debug on, and a random secret key kept in .secret-key-development.
DEV := DJANGO_DEBUG=1
PIP_INSTALL = $(PY) -m pip install --disable-pip-version-check --progress-bar off
# This machine's pip lists local indexes that may be absent: drop only those warnings.
QUIET_INDEXES = { grep --line-buffered -v -e "is ignored: it is neither a file nor a directory" -e "^Requirement already satisfied" || true; }

# `make run` installs what running needs; `make test` adds the test tools. Both need the
# script minifier (uglify-js, pinned in package.json), which runs on Node.js.
NODE_TOOLS := node_modules/.package-lock.json
venv: $(STAMP) $(NODE_TOOLS)
venv-test: $(STAMP)-test $(NODE_TOOLS)

$(NODE_TOOLS): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "error: npm is needed to minify the scripts (Debian: apt-get install nodejs npm)" >&2; exit 1; }
	npm ci --no-audit --no-fund --ignore-scripts
	@touch $@

$(VENV)/.python:
	@if [ ! -x $(PY) ] || ! $(PY) -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then \
	  py=$$($(FIND_PYTHON)) || { echo "error: no Python 3.12 or newer found: tried python3.13 and python3.12 on the PATH and 'pyenv prefix 3.13/3.12'; install one (e.g. 'pyenv install 3.13') and run make again." >&2; exit 1; }; \
	  echo "Creating $(VENV) with $$py"; rm -rf $(VENV); "$$py" -m venv $(VENV) || exit 1; \
	fi
	@touch $@

$(STAMP): pyproject.toml $(VENV)/.python
	@echo "Installing the score card and what it runs on into $(VENV)..."
	$(PIP_INSTALL) -e . 2>&1 | $(QUIET_INDEXES)
	@touch $(STAMP)

$(STAMP)-test: $(STAMP)
	@echo "Installing the test tools into $(VENV)..."
	$(PIP_INSTALL) -e '.[test]' 2>&1 | $(QUIET_INDEXES)
	@touch $@

# Then settle any finished game an older version left unsettled: one query when none waits.
migrate: venv
	$(DEV) $(PY) manage.py migrate --noinput
	$(DEV) $(PY) manage.py settle_results

# The strategy tables advice needs, built once (about a minute) before the first serve.
strategy: venv
	$(DEV) $(PY) manage.py build_strategy --missing

# The first time, the standard rule's tables (box advice and the Win column) are built before
# the server starts, with their progress shown (21-26 s of CPU on two threads: some 12-15 s
# on a free 2-core machine, minutes on a loaded one); every other rule's are built beside the
# server (a few minutes in all), whose pages say advice is not ready until they are there.
run: migrate
	@$(DEV) $(PY) manage.py build_strategy --rule hasbro --missing
	@echo "Building the other rules' strategy tables in the background (log: .strategy-build.log)."
	@$(DEV) $(PY) manage.py build_strategy --missing > .strategy-build.log 2>&1 &
	@if [ "$(HOST)" != "127.0.0.1" ]; then $(DEV) $(PY) manage.py show_address $(PORT); fi
	$(DEV) DJANGO_ALLOWED_HOSTS=$(if $(filter 127.0.0.1,$(HOST)),127.0.0.1$(COMMA)localhost,*) \
	  $(PY) manage.py runserver $(HOST):$(PORT)

# The whole suite: the engine's tests, then the rest on SQLite.
test: test-engine test-sqlite

# The rules' own tests (tests/engine) cover every line and branch of rules.py, measured; they
# touch no database. CI runs them before the PostgreSQL pass, beside the SQLite pass.
test-engine: venv-test
	$(DEV) $(PY) -m pytest --cov=scorecard/engine --cov-report= tests/engine $(PYTEST_ARGS)
	$(PY) -m coverage report --include=scorecard/engine/rules.py --fail-under=100

# Everything but the engine's tests, on SQLite (browser tests included), unmeasured:
# measuring every line it runs made it half again as slow. MARKS="browser" (or "not
# browser") runs a part: CI runs the two at once, the second with TEST_DB_SUFFIX set.
test-sqlite: venv-test
	$(DEV) $(PY) manage.py makemigrations --check --dry-run >/dev/null || { echo "error: models changed without a migration (run: $(PY) manage.py makemigrations)" >&2; exit 1; }
	$(DEV) $(PY) -m pytest --ignore=tests/engine $(if $(MARKS),-m "$(MARKS)") $(PYTEST_ARGS)

# Everything that reads or writes the database; not the engine's tests, which touch none.
test-postgres: venv-test
	@[ -n "$$DATABASE_URL" ] || { echo "error: set DATABASE_URL=postgres://... for the PostgreSQL pass" >&2; exit 1; }
	$(DEV) $(PY) -m pytest -m "not browser" --ignore=tests/engine $(PYTEST_ARGS)

# Two app instances on one PostgreSQL and one Redis, one lost mid-load (needs DATABASE_URL
# and REDIS_URL; CI's PostgreSQL pass runs it).
scale-out: venv-test
	$(PY) bench/scale_out.py

# One table of request costs, each a ratio to a constant page measured in the same run.
bench: venv-test
	$(PY) -W ignore::UserWarning bench/requests_bench.py
	@echo
	@echo "The strategy tables (a rule; all four: bench/strategy_bench.py):"
	$(PY) bench/strategy_bench.py --rule hasbro
	@echo "Yatzy's tables, its stated rules and forced order (Maxi Yatzy has none: too large to solve here):"
	$(PY) bench/strategy_bench.py --family yatzy

# gunicorn as production runs it (5 workers): N clients hammer the constant page, then record
# boxes as the htmx page posts them, in turns; the ratio of the two rates beside issue 21's
# goal (bench/throughput.py --help). SQLite; DATABASE_URL=postgres://... for PostgreSQL.
throughput: venv-test
	$(PY) bench/throughput.py

# mutmut on rules, services and progress, each against its own tests only (tests/mutation/run.py,
# [tool.mutants] in pyproject.toml); fails when a module has under 90% of its mutants killed.
# On SQLite always: each mutant's tests get a test database file of their own.
mutants: venv-test
	$(DEV) env -u DATABASE_URL $(PY) tests/mutation/run.py

lint: venv-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(DEV) $(VENV)/bin/mypy

# The catalogs (locale/README.md): extract every text into each language's .po, then compile
# the .mo files, which are committed. tests/test_locale.py fails when either is out of step.
messages: venv
	$(DEV) $(PY) manage.py makemessages --all --no-obsolete --add-location=file \
	  --ignore='tests/*' --ignore='bench/*' --ignore='staticfiles/*' --ignore='mutants/*'
	$(DEV) $(PY) manage.py compilemessages --ignore='.venv/*'

format: venv-test
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis .coverage .test-db.sqlite3* .bench-db.sqlite3* mutants
