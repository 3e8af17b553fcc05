# Two entry points: `make run` (server on SQLite) and `make test` (lint, types, all tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test screenshots lint bench bench-solver browser haproxy cluster clean

# constraints.txt: the releases the suite was last run with (a new uvicorn broke a fresh
# clone's tests once: app/runtime/lean_ws.py is written for named releases).
$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c constraints.txt -e '.[dev]'
	touch $(STAMP)

browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -q && apt-get install -y -q chromium; }

# The load balancer of `make cluster` and of tests/cluster/test_failover.py (Debian's package).
haproxy:
	@command -v haproxy >/dev/null 2>&1 || test -x /usr/sbin/haproxy || { apt-get update -q && apt-get install -y -q haproxy; }

run: $(STAMP)
	mkdir -p data
	$(BIN)/alembic upgrade head
	$(BIN)/spider serve

# N workers behind HAProxy (deploy/haproxy.cfg) on the local PostgreSQL and Redis
# (docs/operations.md, "A cluster on one machine"): `make cluster WORKERS=4 PORT=8000`.
WORKERS ?= 2
PORT ?= 8000
CLUSTER_DB ?= spider
CLUSTER_PG ?= postgresql+asyncpg://postgres@127.0.0.1/$(CLUSTER_DB)
cluster: $(STAMP) haproxy
	@command -v redis-server >/dev/null 2>&1 || { apt-get update -q && apt-get install -y -q redis-server; }
	@command -v pg_isready >/dev/null 2>&1 || { apt-get update -q && apt-get install -y -q postgresql; }
	@pg_isready -q -h 127.0.0.1 || { echo "PostgreSQL is not answering on 127.0.0.1:5432 (service postgresql start)"; exit 1; }
	@redis-cli -h 127.0.0.1 ping >/dev/null || { echo "Redis is not answering on 127.0.0.1:6379 (service redis-server start)"; exit 1; }
	@psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$(CLUSTER_DB)'" | grep -q 1 \
		|| createdb -h 127.0.0.1 -U postgres $(CLUSTER_DB)
	SPIDER_DATABASE_URL=$(CLUSTER_PG) $(BIN)/alembic upgrade head
	SPIDER_DATABASE_URL=$(CLUSTER_PG) SPIDER_PUBSUB_BACKEND=redis $(BIN)/spider cluster --workers $(WORKERS) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check app tests bench
	$(BIN)/mypy app

# Tests on several pytest-xdist workers: 3 on the machine's 2 cores beat 1 (servers and
# databases are waited on) and 4 (the browser tests keep both cores busy): README, "Tests".
# TEST_WORKERS=0 runs them one by one, in one process.
TEST_WORKERS ?= 3
test: $(STAMP) browser haproxy lint
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal

# The browser tests again, each screen photographed to tests/artifacts/ (make test takes no
# screenshots: nothing reads them back, and they cost a sixth of the browser tests' time).
screenshots: $(STAMP) browser
	SPIDER_SCREENSHOTS=1 $(BIN)/pytest tests/web -n $(TEST_WORKERS) --dist worksteal

bench: $(STAMP) haproxy
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.engine_gc
	$(BIN)/python -m bench.rest
	$(BIN)/python -m bench.live
	$(BIN)/python -m bench.rooms
	$(BIN)/python -m bench.solo_play
	$(BIN)/python -m bench.hint
	$(BIN)/python -m bench.hintbot
	$(BIN)/python -m bench.failover
	$(BIN)/python -m bench.db_session
	$(BIN)/python -m bench.floor

# The solver's targets (issue 3); the full sets take minutes: SOLVER_BENCH='--one 50 --two 20 --four 5'
bench-solver: $(STAMP)
	$(BIN)/python -m bench.solver $(SOLVER_BENCH)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

# Load harness (issue 7): concurrent duels vs an echo baseline, 10,000 idle connections.
.PHONY: load
load: $(STAMP)
	$(BIN)/python -m bench.load --postgres
