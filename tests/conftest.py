"""Shared fixtures: hypothesis profiles, the backend fixture and the shared/ folder."""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from briefpack.errors import BriefpackError

settings.register_profile("fast", max_examples=30, deadline=None)
settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "slow", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))

# ../shared/ sits beside the repository in development and CI, never on a user's machine;
# BRIEFPACK_SHARED points elsewhere (a checkout that does not sit beside it, e.g. a worktree).
SHARED = Path(
    os.environ.get("BRIEFPACK_SHARED") or Path(__file__).resolve().parents[1].parent / "shared"
)
TIKTOKEN_DIR = SHARED / "tiktoken"
CORPUS = SHARED / "corpus" / "passages.jsonl.gz"

if "TIKTOKEN_CACHE_DIR" not in os.environ and TIKTOKEN_DIR.is_dir():
    os.environ["TIKTOKEN_CACHE_DIR"] = str(TIKTOKEN_DIR)


def param_id(value: object) -> str:
    """A test id from ``repr(value)`` without memory addresses ("<... at 0x7f...>").

    Ids must be the same in every process that collects the suite (pytest-xdist's workers
    compare them), so an id never carries an address.
    """
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))[:60]


def _has_rust() -> bool:
    try:
        from briefpack import _core  # noqa: F401
    except ImportError:
        return False
    return True


HAS_RUST = _has_rust()
BACKENDS = ["python", "rust"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Run a test once per backend (the Rust one is skipped when the extension is missing)."""
    if request.param == "rust" and not HAS_RUST:
        pytest.skip("the Rust extension is not built")
    return str(request.param)


def tiktoken_files_present() -> bool:
    """Whether tiktoken's own vocabulary files are at hand (``TIKTOKEN_CACHE_DIR``)."""
    cache = os.environ.get("TIKTOKEN_CACHE_DIR")
    return bool(cache) and Path(cache).is_dir() and any(Path(cache).iterdir())


@functools.cache
def tiktoken_available() -> bool:
    """Whether tiktoken can give ``o200k_base`` and ``cl100k_base`` in this process.

    With its files at hand, yes. Otherwise the oracle's loader is asked (tiktoken's download,
    then the encodings built from the extension's vocabularies, checked against tiktoken's
    published hashes), and what it gives is registered with tiktoken for this test process, so
    the tests that call ``tiktoken.get_encoding`` themselves get the same encodings offline.
    """
    if tiktoken_files_present():
        return True
    try:
        import tiktoken
        import tiktoken.registry

        from briefpack.reference import tokens
    except ImportError:
        return False
    for name in ("o200k_base", "cl100k_base"):
        try:
            encoding = tokens._tiktoken(name)
        except BriefpackError:
            return False
        tiktoken.registry.ENCODINGS.setdefault(name, encoding)
    return True


# `make test-fast` deselects these (`-m "not slow"`): the tests that take the most time on two
# cores, each the long form of checks that also run in the fast set on fewer inputs: whole
# corpora, every code point, a cold mypy run over the chat SDKs, a local Ray cluster, the
# corpus-scale and long-text parity files, and the CLI's memory checks.
SLOW_FILES = {
    "tests/test_cli_memory.py",
    "tests/test_integrations_ray.py",
    "tests/test_parity_jaccard_scale.py",
    "tests/test_parity_minhash_long.py",
}
SLOW_TESTS = {
    "tests/test_cli_count.py::test_the_corpus_joined_counts_as_one_text",
    "tests/test_integrations_chat.py::test_the_documented_sdk_calls_type_check",
    "tests/test_normalise.py::test_corpus_and_its_decomposed_forms_equal_unicodedata",
    "tests/test_normalise.py::test_every_code_point_equals_unicodedata",
    "tests/test_normalise.py::test_every_code_point_same_in_both_backends",
    "tests/test_pages_pipeline.py::test_the_page_request_shapes_type_check_against_the_sdks",
    "tests/test_parity_dedupe.py::test_corpus_jaccard_matches_reference",
    "tests/test_parity_dedupe.py::test_corpus_minhash_matches_reference",
    "tests/test_parity_text.py::test_every_code_point_words_and_exact_key",
    "tests/test_parity_vectors.py::test_dedupe_cosine_on_corpus_embeddings",
    "tests/test_tokens.py::test_corpus_blocks_under_new_labels_match_tiktoken",
    "tests/test_tokens.py::test_corpus_matches_tiktoken",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of ``SLOW_FILES`` and ``SLOW_TESTS`` (every parametrisation) ``slow``."""
    for item in items:
        path, _, name = item.nodeid.partition("::")
        if path in SLOW_FILES or f"{path}::{name.split('[')[0]}" in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
