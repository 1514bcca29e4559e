# endpoints-checker: the two commands that matter are `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed

.PHONY: demo test install docs schemas golden bench fixtures clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

## demo: install into a fresh virtual environment and check the bundled example package
demo: $(STAMP)
	$(VENV)/bin/endpoints-checker check fixtures/valid -f text -f json -f html -o - -o report.json -o report.html; \
	  rc=$$?; echo "wrote report.json and report.html (exit code $$rc)"; exit $$rc

## test: the whole test suite (what CI runs)
test: $(STAMP)
	$(PY) -m pytest -p no:cacheprovider tests

## docs: regenerate the rule list in README.md from the registry
docs: $(STAMP)
	$(VENV)/bin/endpoints-checker docs

## schemas: regenerate schemas/ from the pydantic models
schemas: $(STAMP)
	$(PY) -m checker.cli.schemagen

## golden: regenerate the golden reports under tests/golden/
golden: $(STAMP)
	$(PY) tests/support/golden_update.py

## fixtures: regenerate fixtures/valid from fixtures/make_valid.py
fixtures: $(STAMP)
	$(PY) fixtures/make_valid.py

## bench: speed benchmarks (compares with the official checker when BENCH_OFFICIAL points at it)
bench: $(STAMP)
	$(PY) bench/html_bench.py
	$(PY) bench/run.py
	$(PY) bench/cohort_bench.py
	$(PY) bench/events_bench.py

clean:
	rm -rf $(VENV) report.json report.html build *.egg-info
