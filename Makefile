# make run: set up and serve on 127.0.0.1:8000 (PORT=8001 make run to change the port).
# make test: set up and run the whole suite. make lint: ruff check and format check.
# make bench: the cost of each request a table makes, as ratios to a constant page.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed

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

.PHONY: venv run test test-postgres lint format migrate bench clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@if [ ! -x $(PY) ] || ! $(PY) -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then \
	  py=$$($(FIND_PYTHON)) || { echo "error: no Python 3.12 or newer found: tried python3.13 and python3.12 on the PATH and 'pyenv prefix 3.13/3.12'; install one (e.g. 'pyenv install 3.13') and run make again." >&2; exit 1; }; \
	  echo "Creating $(VENV) with $$py"; rm -rf $(VENV); "$$py" -m venv $(VENV) || exit 1; \
	fi
	@# This machine's pip lists local indexes that may be absent: drop only those warnings.
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]' 2>&1 | { grep -v "is ignored: it is neither a file nor a directory" || true; }
	@touch $(STAMP)

migrate: venv
	$(PY) manage.py migrate --noinput

run: migrate
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

test: venv
	$(PY) manage.py makemigrations --check --dry-run >/dev/null || { echo "error: models changed without a migration (run: $(PY) manage.py makemigrations)" >&2; exit 1; }
	$(PY) -m pytest --cov --cov-report= $(PYTEST_ARGS)
	$(PY) -m coverage report --include=scorecard/rules.py --fail-under=100

test-postgres: venv
	@[ -n "$$DATABASE_URL" ] || { echo "error: set DATABASE_URL=postgres://... for the PostgreSQL pass" >&2; exit 1; }
	$(PY) -m pytest -m "not browser" $(PYTEST_ARGS)

# One table of request costs, each a ratio to a constant page measured in the same run.
bench: venv
	$(PY) -W ignore::UserWarning bench/requests_bench.py

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: venv
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .coverage
