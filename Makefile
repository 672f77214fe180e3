# Everything a fresh machine needs: `make run` (the web app) and `make test` (all tests).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run demo test lint typecheck chromium bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "minesolver needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/minesolver serve

demo: $(STAMP)
	$(BIN)/minesolver demo

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy src
	$(BIN)/mypy --strict benchmarks/*.py
	cd benchmarks/studies && MYPYPATH=.. ../../$(BIN)/mypy --strict --cache-dir ../../.mypy_cache *.py

chromium:
	@./scripts/ensure-chromium.sh

test: $(STAMP) chromium lint typecheck
	$(BIN)/pytest -q -n auto --dist worksteal

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_bench.py

clean:
	rm -rf $(VENV) build *.egg-info
