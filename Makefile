# endpoints-checker: the two commands that matter are `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
# The official checker: the conformance suite's oracle (tests/conformance, docs/conformance.md)
OFFICIAL_VENV ?= .venv-official
OFFICIAL_PKG := endpoints-submission-cli==1.5.3.0
OFFICIAL_STAMP := $(OFFICIAL_VENV)/.installed-1.5.3.0
# the suite runs on every core (pytest-xdist; a module's tests stay together, so a module's fixtures are built
# once); PYTEST_WORKERS=0 runs it in this one process (docs/testing.md)
PYTEST_WORKERS ?= auto
PYTEST := $(PY) -m pytest -p no:cacheprovider -n $(PYTEST_WORKERS) --dist loadscope

.PHONY: demo test test-fast install official conformance conformance-table docs schemas golden bench fixtures clean

# uv installs the environment in about 10 s where pip takes minutes (it downloads in parallel); pip is the
# fallback where uv cannot be installed. setuptools' notice that an editable install is one ("Editable
# installation.") is information, not a warning
EXTRAS := .[test,lsp,dask,dask-test,week0]
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	@if $(PIP) install --quiet uv 2>/dev/null && $(VENV)/bin/uv pip install --quiet --python $(PY) -e '$(EXTRAS)'; then :; else \
	  echo "uv unavailable: installing with pip" >&2; \
	  $(PIP) install --quiet --upgrade pip && PYTHONWARNINGS="ignore:Editable installation" $(PIP) install --quiet -e '$(EXTRAS)'; \
	fi
	touch $(STAMP)

install: $(STAMP)

## demo: install into a fresh virtual environment and check the bundled example package
demo: $(STAMP)
	$(VENV)/bin/endpoints-checker check fixtures/valid -f text -f json -f html -o - -o report.json -o report.html; \
	  rc=$$?; echo "exit code $$rc"; exit $$rc

## official: install the official checker into .venv-official once (a warning, not an error, when it cannot be)
official: $(STAMP)
	@if [ ! -f $(OFFICIAL_STAMP) ]; then \
	  echo "installing $(OFFICIAL_PKG) into $(OFFICIAL_VENV) (the conformance suite's oracle) ..."; \
	  rm -rf $(OFFICIAL_VENV); \
	  if $(PYTHON) -m venv $(OFFICIAL_VENV) && { $(VENV)/bin/uv pip install --quiet --python $(OFFICIAL_VENV)/bin/python \
	      $(OFFICIAL_PKG) 2>/dev/null || $(OFFICIAL_VENV)/bin/pip install --quiet $(OFFICIAL_PKG); }; then \
	    touch $(OFFICIAL_STAMP); \
	  else \
	    rm -rf $(OFFICIAL_VENV); \
	    echo "WARNING: could not install $(OFFICIAL_PKG): the conformance suite will be SKIPPED (CI fails instead)" >&2; \
	  fi; \
	fi

## test: the whole test suite (what CI runs), conformance with the official checker included
test: $(STAMP) official
	$(PYTEST) tests

## test-fast: the suite without the tests marked slow (subprocesses, servers, the browser, the conformance suite): under a minute
test-fast: $(STAMP)
	$(PYTEST) -m "not slow" tests

## conformance: only the conformance suite (both checkers on every variant, the disagreement table)
conformance: $(STAMP) official
	$(PY) -m pytest -p no:cacheprovider tests/conformance -q

## conformance-table: print the current disagreements for review (tests/conformance/update_table.py)
conformance-table: $(STAMP) official
	$(PY) tests/conformance/update_table.py

## docs: regenerate the rule pages docs/rules/<family>.md from the rule catalogue (a maintainer command, not in the user's CLI), and the example outputs the pages mark (tests/support/doc_examples.py)
docs: $(STAMP)
	$(PY) -m checker.cli.maintainer docs
	$(PY) tests/support/doc_examples.py

## schemas: regenerate schemas/ from the pydantic models (checker.load.models, report_model, waivers, the policy models)
schemas: $(STAMP)
	$(PY) -m checker.cli.maintainer schemas

## golden: regenerate the golden reports under tests/golden/
golden: $(STAMP)
	$(PY) tests/support/golden_update.py

## fixtures: regenerate fixtures/valid, fixtures/agentic, fixtures/runs and fixtures/plans from their generators
fixtures: $(STAMP)
	$(PY) fixtures/make_valid.py
	$(PY) fixtures/make_agentic.py
	$(PY) fixtures/make_runs.py

## bench: speed benchmarks (compares with the official checker when BENCH_OFFICIAL points at it)
bench: $(STAMP)
	$(PY) bench/html_bench.py
	$(PY) bench/run.py
	$(PY) bench/cohort_bench.py
	$(PY) bench/report_memory_bench.py
	$(PY) bench/faults_bench.py
	$(PY) bench/events_bench.py
	$(PY) bench/dask_bench.py
	$(PY) bench/mcp_bench.py
	$(PY) bench/lsp_bench.py

clean:
	rm -rf $(VENV) $(OFFICIAL_VENV) report.json report.html build *.egg-info
