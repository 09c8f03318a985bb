# The Fair Code Project. `make` sets up .venv, regenerates the pages and builds the site; `make test` runs the tests.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
JOBS ?= $(shell nproc)

.PHONY: all setup data pages durations site check format serve test bench benchmark lock clean

all: setup pages site

# A stamp file records that the venv matches requirements.lock and pyproject.toml.
$(VENV)/.installed: requirements.lock pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

setup: $(VENV)/.installed

# Rebuild the committed audit data from the raw files (UCI, ProPublica; checksums verified).
data: setup
	$(PY) scripts/build_data.py --source ../shared/data

pages: setup
	$(PY) -m scripts.pagebuild build -j $(JOBS)

# Commit the page run times the last build recorded: a fresh clone then starts the longest pages first.
durations: setup
	$(PY) -m scripts.pagebuild durations

# The sitemap's date comes from the last commit rather than the clock, so two builds of one commit are identical.
SITE_ENV := SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || echo 0) NO_MKDOCS_2_WARNING=1

# The build's INFO lines (one per notebook converted and copied, with their indented continuations) are left out
# unless V=1; warnings and errors show, and a summary line ends it (scripts/site/summary.py).
site: setup
ifeq ($(V),1)
	$(SITE_ENV) $(PY) -m mkdocs build --strict
else
	@set -o pipefail; start=$$(date +%s); echo "site: building with mkdocs (make site V=1 shows its log)"; \
	$(SITE_ENV) $(PY) -m mkdocs build --strict 2>&1 | awk '/^INFO /{skip=1; next} skip && /^  /{next} {skip=0; print}' && \
	$(PY) -m scripts.site.summary site $$start
endif

check: setup
	$(PY) -m scripts.pagebuild check
	$(PY) -m scripts.pagecode check

# Format the pages' Python blocks with ruff (line length in pyproject.toml); `make check` fails on unformatted code.
format: setup
	$(PY) -m scripts.pagecode format

serve: setup
	$(SITE_ENV) $(PY) -m mkdocs serve

# The tests, then the full re-execution check: every page re-run, its output compared with what is committed.
# The site's browser test needs Debian's Chromium, installed here when missing (as CI does; apt-get needs root).
# A machine that cannot have it opts out by name: `make test SITE_BROWSER_TEST=skip` (pytest -m "not browser").
ifeq ($(SITE_BROWSER_TEST),skip)
PYTEST_MARKS := -m "not browser"
endif

# The page check runs beside the tests, not after them: the tests mostly keep one core busy and the check uses
# every core, so side by side they finish minutes sooner (each part passes on a busy machine). The check's report
# is printed when both are done; either failing fails the target.
test: setup
ifneq ($(SITE_BROWSER_TEST),skip)
	bash .ci/install-browser
endif
	@log=$$(mktemp); trap 'kill $$pages 2>/dev/null; rm -f $$log' EXIT; \
	$(PY) -m scripts.pagebuild check --no-cache --quiet > $$log 2>&1 & pages=$$!; \
	echo "pagebuild check --no-cache runs beside the tests (its report follows them)"; \
	$(PY) -m pytest -q $(PYTEST_MARKS); tests=$$?; \
	wait $$pages; checked=$$?; pages=; \
	echo "--- pagebuild check --no-cache --quiet:"; cat $$log; \
	test $$tests -eq 0 && test $$checked -eq 0
	$(PY) -m scripts.pagecode check

bench: setup
	$(PY) scripts/bench.py

benchmark: setup
	$(PY) -m faircode.benchmark

lock: setup
	{ echo "# Exact pins for the project's environment (Python 3.11). Regenerate with: make lock"; \
	  $(PY) -m pip freeze --exclude-editable; } > requirements.lock.new && mv requirements.lock.new requirements.lock

clean:
	rm -rf site .cache
