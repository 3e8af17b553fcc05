# Two entry points: `make run` (server on SQLite) and `make test` (lint, types, all tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench bench-solver browser clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -q && apt-get install -y -q chromium; }

run: $(STAMP)
	mkdir -p data
	$(BIN)/alembic upgrade head
	$(BIN)/spider serve

lint: $(STAMP)
	$(BIN)/ruff check app tests bench
	$(BIN)/mypy app

test: $(STAMP) browser lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.engine_gc
	$(BIN)/python -m bench.rest
	$(BIN)/python -m bench.live
	$(BIN)/python -m bench.rooms
	$(BIN)/python -m bench.hint

# The solver's targets (issue 3); the full sets take minutes: SOLVER_BENCH='--one 50 --two 20 --four 5'
bench-solver: $(STAMP)
	$(BIN)/python -m bench.solver $(SOLVER_BENCH)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

# Load harness (issue 7): concurrent duels vs an echo baseline, 10,000 idle connections.
.PHONY: load
load: $(STAMP)
	$(BIN)/python -m bench.load --postgres
