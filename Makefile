# The two commands of the README: `make run` serves the site, `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/test

.PHONY: run test test-postgres quick lint format bench bench-web load arena mutants clean

$(BIN)/.installed: requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(BIN)/.installed-dev: $(BIN)/.installed requirements-dev.txt
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

# axe-core, which the browser tests run in each page (package.json pins it).
node_modules/.installed: package.json package-lock.json
	npm ci --silent --no-audit --no-fund
	touch $@

## Serve the site with gunicorn at http://$(HOST):$(PORT) on SQLite (db.sqlite3), with the
## worker that thinks of the computer's moves; Ctrl-C stops both.
run: $(BIN)/.installed
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py collectstatic --no-input --verbosity 0
	$(BIN)/python manage.py worker --no-reload & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT; \
	GUNICORN_BIND=$${GUNICORN_BIND:-$(HOST):$(PORT)} $(BIN)/gunicorn maerstanas_site.asgi

# The tests run in parallel workers, one a core (pytest-xdist), each on a test database
# of its own; then the tests marked `timing`, which hold code to the wall clock, run
# alone in one process, so that no other test's work slows them down.
PARALLEL := $(BIN)/python -m pytest -n auto
ALONE := $(BIN)/python -m pytest -p no:xdist
# Python keeps the test modules compiled between runs: pytest rewrites their asserts,
# some seconds of a core for each process that loads them.
test test-postgres quick: export PYTHONDONTWRITEBYTECODE :=

## The whole suite: lint, engine, Django, deep move counts, browser tests.
test: $(BIN)/.installed-dev node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python manage.py makemigrations --check --dry-run --verbosity 0
	$(PARALLEL) -m "not timing"
	$(ALONE) -m "timing"

## The same suite on PostgreSQL (POSTGRES_URL names a database the tests may create beside).
## slow: the engine only, no database.
test-postgres: $(BIN)/.installed-dev node_modules/.installed
	DATABASE_URL=$(POSTGRES_URL) $(PARALLEL) -m "not slow and not timing"
	DATABASE_URL=$(POSTGRES_URL) $(ALONE) -m "timing and not slow"

## The suite without the slow marks, for the edit-test loop.
QUICK := not slow and not browser and not live
quick: $(BIN)/.installed-dev
	$(PARALLEL) -m "$(QUICK) and not timing" -q
	$(ALONE) -m "$(QUICK) and timing" -q

lint: $(BIN)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(BIN)/.installed-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## Engine speed: random playouts a second through the public API, and the search's speed.
bench: $(BIN)/.installed
	$(BIN)/python -m bench.engine --all

## The computer players against each other and reference players (ARGS: pairings, --games…).
arena: $(BIN)/.installed
	$(BIN)/python -m bench.arena $(ARGS)

## Site speed: a poll and a move against a trivial view, under gunicorn.
bench-web: $(BIN)/.installed-dev
	$(BIN)/python -m bench.web

## Many live games at once: both players' pages hold a stream open, a move per game about
## every 20 s; the curve of 500 to 3,000 games (ARGS: --games, --seconds, --database-url,
## --servers, --workers; --clock 5+3: live games with clocks, made from lobby challenges).
## ARGS="--lobby": the lobby's scenario instead, 1,000 open challenges and 2,000 lobby pages
## open while challenges are posted and accepted (--challenges, --pages, --rate, --seconds).
load: $(BIN)/.installed-dev
	$(BIN)/python -m bench.load $(ARGS)

## Mutation score of the server side (mutmut, several minutes): the changes the tests miss.
mutants: $(BIN)/.installed-dev
	rm -rf mutants
	$(BIN)/mutmut run --max-children 2
	$(BIN)/python -m tests.support.mutants

clean:
	rm -rf mutants $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis
