.DEFAULT_GOAL := help
export HYPOTHESIS_PROFILE ?= fast

.PHONY: help install build-dev build-prod format lint typecheck test test-fast test-ci bench report

help: ## show this help
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

install: ## install the package in editable mode with every dev extra (builds the extension)
	python3 -m pip install -e '.[dev]'

build-dev: ## rebuild the extension quickly (debug profile), editable install
	MATURIN_PEP517_ARGS="--profile dev" python3 -m pip install --no-deps -e .

build-prod: ## rebuild the extension with the release profile (lto, one codegen unit)
	python3 -m pip install --no-deps -e .

format: ## format Rust and Python
	cargo fmt --all
	python3 -m ruff format .
	python3 -m ruff check --fix .

lint: ## cargo fmt --check, clippy -D warnings, ruff
	cargo fmt --all --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --all-targets --features python -- -D warnings
	python3 -m ruff check .
	python3 -m ruff format --check .

typecheck: ## mypy --strict on the package and stubtest on the extension
	python3 -m mypy
	python3 -m mypy.stubtest briefpack._core

test: ## cargo test and pytest (HYPOTHESIS_PROFILE=fast|ci|slow)
	cargo test
	python3 -m pytest -n auto

test-fast: ## pytest without the tests marked slow (whole corpora, every code point, Ray), fast profile
	HYPOTHESIS_PROFILE=fast python3 -m pytest -q -m "not slow" -n auto

test-ci: ## exactly what CI runs
	bash .ci/run

bench: ## run the benchmarks with timing on (release build first)
	python3 -m pytest benches --benchmark-enable --benchmark-only

report: ## write benches/RESULTS.md
	python3 benches/report.py
