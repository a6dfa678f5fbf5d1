# Two commands matter: `make book` and `make test`.  Both create the
# environment (.venv) from the pinned requirements if it is missing.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ENV_STAMP := $(VENV)/.installed
JS_STAMP := book/node_modules/.installed
HTML := _build/html
CHROMIUM ?= /usr/bin/chromium

# Python's bytecode caches for every process make starts (pytest's workers, the kernels, Sphinx, the sweeps'
# children), kept in _build/pycache even when the machine sets PYTHONDONTWRITEBYTECODE: without them each
# process compiles pandas, altair, Sphinx and the library from source again (a chapter's imports measured
# 5.7-7.8 s of CPU that way against 2.0-2.2 s from the caches; pytest's collection 17 s against 8 s).
# Under _build, so neither the sources nor the environment are written, and `make clean` removes them.
export PYTHONPYCACHEPREFIX := $(abspath _build/pycache)
unexport PYTHONDONTWRITEBYTECODE

# When make started: `make test` reports its wall time from here (the environment included).
STARTED := $(shell date +%s)
# Both cores, never more than two workers, a test file at a time: test_book.py (the book build and its
# Chromium pass) starts at once in one worker, the other takes the files in the order tests/conftest.py
# sets.  (Not --dist loadgroup: xdist 3.8 names grouped tests through Item._nodeid, which pytest 9.2
# no longer reads, so every test would be scheduled alone and both workers would build the book.)
PARALLEL := -n 2 --dist loadfile --no-loadscope-reorder

.PHONY: env browser tex book student teacher pdf test check lab bench accuracy runs data-check clean

# The Python environment and the JavaScript packages install side by side (both mostly wait on the disk and
# the registries): `make env` in a fresh clone took 16 s this way, 34 s one after the other.
env:
	@{ $(MAKE) -q --no-print-directory $(JS_STAMP) || $(MAKE) --no-print-directory $(JS_STAMP); } & javascript=$$!; \
	$(MAKE) -q --no-print-directory $(ENV_STAMP) || $(MAKE) --no-print-directory $(ENV_STAMP); python=$$?; \
	wait $$javascript && exit $$python

# The pins go in with uv (itself pinned, installed by pip): it fetches and unpacks in parallel, 27 s
# against pip's 4 min 25 s for the same 169 pins on this machine (fresh venv, no cache); bytecode is
# compiled on first import and kept in _build/pycache (above).
UV_PIN := uv==0.9.30

# Last, perfstudies_lazy.pth starts every Python process of the environment with perfstudies imported
# (0.01 s), which defers building jsonschema's RFC 3987 parser until an iri is checked (perfstudies._lazy):
# 2.0-2.2 s of CPU off each process that imports nbformat or jsonschema first (Sphinx, JupyterLab, nbclient,
# pytest).  The stamp follows the Makefile too, so a change to this recipe reaches environments made before it.
$(ENV_STAMP): requirements.txt pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check $(UV_PIN)
	$(BIN)/uv pip install --quiet --python $(BIN)/python -r requirements.txt
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e .
	$(BIN)/python -c "import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()['purelib'], \
	  'perfstudies_lazy.pth').write_text('import perfstudies\n')"
	touch $@

# Vega, Vega-Lite, vega-embed, RequireJS and the ipywidgets HTML manager, pinned
# in book/package-lock.json and served from the book's own static files.
$(JS_STAMP): book/package.json book/package-lock.json
	cd book && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error --prefer-offline
	touch $@

book: env
	$(BIN)/jupyter-book build . --config book/_config.yml --toc book/_toc.yml -W --keep-going
	@echo "The book is at $(abspath $(HTML))/index.html"

# A course's two editions (scripts/edition.py): the student's in _build/student/html, with no
# solution in any page, page source or notebook download; the teacher's in _build/teacher/html, with
# every solution and a solutions appendix.  After `make book` they execute no notebook again.
student: env
	$(BIN)/python scripts/edition.py student

teacher: env
	$(BIN)/python scripts/edition.py teacher

# The print edition (scripts/pdf.py): the book, or one chapter (CHAPTER=mdf), as an A4 PDF in _build/pdf/,
# typeset offline by Debian's XeLaTeX from the notebooks `make book` executed (charts drawn by
# vl-convert, nothing executed again); EDITION=student or teacher prints that edition.
pdf: book tex
	$(BIN)/python scripts/pdf.py $(if $(CHAPTER),--chapter $(CHAPTER)) $(if $(EDITION),--edition $(EDITION))

# The whole suite, as CI runs it, on two workers; at the end the five slowest tests and the wall time
# since make started.
test: env browser tex
	PERFSTUDIES_MAKE_STARTED=$(STARTED) PERFSTUDIES_MAKE_TARGET=$@ $(BIN)/python -m pytest $(PARALLEL) --durations=5

# The quick inner loop: everything but the book build, the browser suites and the chapters in kernels.
check: env
	PERFSTUDIES_MAKE_STARTED=$(STARTED) PERFSTUDIES_MAKE_TARGET=$@ $(BIN)/python -m pytest $(PARALLEL) --durations=5 \
	  -m "not book and not browser"

# The browser tests drive Debian's Chromium.  When it is missing, install it
# (as root, or through sudo: without a password, or asking for it at a
# terminal); otherwise stop at once with the one command to run.
browser:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  if [ "$$(id -u)" -eq 0 ]; then as_root=""; \
	  elif command -v sudo > /dev/null && { sudo -n true 2> /dev/null || [ -t 0 ]; }; then as_root="sudo"; \
	  else echo "$(CHROMIUM) is missing for the browser tests; run: sudo apt-get install -y chromium" >&2; exit 1; fi; \
	  echo "Installing Debian's chromium for the browser tests ($(CHROMIUM) is missing)"; \
	  $$as_root apt-get update -qq && \
	  $$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null && \
	  test -x "$(CHROMIUM)" || { echo "could not install chromium; run: sudo apt-get install -y chromium" >&2; exit 1; }; \
	fi

# The print edition's TeX: the Debian packages Sphinx's LaTeX builder and sphinx-jupyterbook-latex need
# with XeLaTeX, without their recommendations.  Installed when one is missing, as for `browser`.
TEX_PACKAGES := latexmk texlive-xetex texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended \
  fonts-freefont-otf
tex:
	@missing=$$(for package in $(TEX_PACKAGES); do \
	  dpkg-query -W -f='$${db:Status-Status}' $$package 2> /dev/null | grep -qx installed || echo $$package; done); \
	if [ -n "$$missing" ]; then \
	  install="apt-get install -y --no-install-recommends $(TEX_PACKAGES)"; \
	  if [ "$$(id -u)" -eq 0 ]; then as_root=""; \
	  elif command -v sudo > /dev/null && { sudo -n true 2> /dev/null || [ -t 0 ]; }; then as_root="sudo"; \
	  else echo "TeX for the PDF is missing ($$missing); run: sudo $$install" >&2; exit 1; fi; \
	  echo "Installing Debian's TeX for the PDF (missing: $$(echo $$missing))"; \
	  $$as_root apt-get update -qq && \
	  $$as_root env DEBIAN_FRONTEND=noninteractive $$install -qq > /dev/null && \
	  command -v latexmk > /dev/null || { echo "could not install TeX; run: sudo $$install" >&2; exit 1; }; \
	fi

# Chapters open as notebooks (Jupytext) and widgets run live in the kernel.
# Localhost only, with a token; the first free port from 8888 up; open the URL it
# prints.  LAB_ARGS adds options (the browser test passes its own port and token).
lab: env
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp scripts/jupyterlab-overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	# The cell toolbar's overlap check fails on jupyterlab-myst's rendered Markdown (a TypeError in the page)
	$(BIN)/jupyter labextension disable --level=sys_prefix @jupyterlab/cell-toolbar-extension > /dev/null 2>&1
	# Glued numbers show their values after Run All, and save back as {glue:text} roles (perfstudies.lab_glue;
	# the overrides attach every cell, so jupyterlab-myst finds each cell's lookups when Run All runs it)
	$(BIN)/jupyter lab --ServerApp.ip=127.0.0.1 --no-browser --notebook-dir=. \
	  --ServerApp.contents_manager_class=perfstudies.lab_glue.GlueContentsManager \
	  $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

bench: env
	$(BIN)/python scripts/bench.py

accuracy: env
	$(BIN)/python -m perfstudies.accuracy

# After a model change: rewrite data/runs/<study>.json for every study whose stored comparison runs
# no longer reproduce (tests/test_stored_runs.py fails until then).  RUNS_ARGS=--full simulates every
# study from scratch and compares all of it instead.  Then diag44's calibration runs whole and its
# states are rewritten if they changed (data/runs/diag44-calibration.json, which its tests replay).
runs: env
	$(BIN)/python -m perfstudies.stored_runs $(RUNS_ARGS)
	$(BIN)/python -c "from perfstudies.models.diag44.calibration import store_iterates; print(store_iterates())"

data-check: env
	$(BIN)/python -m perfstudies.data check

clean:
	rm -rf _build
