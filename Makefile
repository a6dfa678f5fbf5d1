# Two commands matter: `make book` and `make test`.  Both create the
# environment (.venv) from the pinned requirements if it is missing.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ENV_STAMP := $(VENV)/.installed
JS_STAMP := book/node_modules/.installed
HTML := _build/html

.PHONY: env book test lab bench accuracy data-check clean

env: $(ENV_STAMP) $(JS_STAMP)

$(ENV_STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

# Vega, Vega-Lite, vega-embed, RequireJS and the ipywidgets HTML manager, pinned
# in book/package-lock.json and served from the book's own static files.
$(JS_STAMP): book/package.json book/package-lock.json
	cd book && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $@

book: env
	$(BIN)/jupyter-book build . --config book/_config.yml --toc book/_toc.yml -W --keep-going
	@echo "The book is at $(abspath $(HTML))/index.html"

test: env
	$(BIN)/python -m pytest

# Chapters open as notebooks (Jupytext) and widgets run live in the kernel.
lab: env
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp scripts/jupyterlab-overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	$(BIN)/jupyter lab --notebook-dir=. $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

bench: env
	$(BIN)/python scripts/bench.py

accuracy: env
	$(BIN)/python -m perfstudies.accuracy

data-check: env
	$(BIN)/python -m perfstudies.data check

clean:
	rm -rf _build
