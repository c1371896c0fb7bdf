"""Root pytest setup, shared by the tests, the doctests in the package and README.md.

* The optional ``../shared/`` folder beside the checkout holds tiktoken's vocabularies for
  offline use; when it is there, point tiktoken at it (the reference backend counts with it).
* Offline, the oracle builds tiktoken's encodings from the extension's built-in vocabularies
  (checked against tiktoken's published hashes), so it runs wherever the extension is built;
  only a pure-Python checkout with no network and no cache skips the oracle tests. In CI
  (``BRIEFPACK_REQUIRE_ORACLE=1``, set by ``.ci/run``) the oracle must run: a vocabulary that
  cannot be loaded fails the test instead of skipping it.
* Every test and doctest runs with an event loop of its own set as the current one, closed
  after it: LlamaIndex's ``asyncio_run`` (its token counting in a synthesizer) calls
  ``asyncio.get_event_loop()`` and leaves the loop that creates open, and the ResourceWarning
  of that loop's garbage collection (an error here) would land in whichever later test runs
  when it is collected, which differs between one process and pytest-xdist's workers.
* ``--doctest-modules`` imports every module under python/briefpack, and each framework adapter
  in briefpack.integrations raises ImportError by design when its framework is not installed:
  skip collecting those (their tests skip themselves with pytest.importorskip).
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from briefpack.errors import BriefpackError

_TIKTOKEN_DIR = Path(__file__).resolve().parent.parent / "shared" / "tiktoken"
if "TIKTOKEN_CACHE_DIR" not in os.environ and _TIKTOKEN_DIR.is_dir():
    os.environ["TIKTOKEN_CACHE_DIR"] = str(_TIKTOKEN_DIR)

# Haystack sends usage telemetry from Pipeline.run unless this is off when it is imported.
os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")

_FRAMEWORKS = {
    "langchain": "langchain_core",
    "llamaindex": "llama_index.core",
    "haystack": "haystack",
    "ray": "ray",
}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


collect_ignore = [
    f"python/briefpack/integrations/{name}.py"
    for name, module in _FRAMEWORKS.items()
    if not _installed(module)
]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    """Skip, rather than fail, a test whose oracle needs tiktoken's vocabularies when they
    cannot be had (no cache, no network and no extension to take them from): the reference
    backend counts BPE tokens with tiktoken, the Rust core needs nothing. Not in CI, where the
    oracle must run."""
    try:
        return (yield)
    except Exception as exc:
        if os.environ.get("BRIEFPACK_REQUIRE_ORACLE") == "1":
            raise
        offline = type(exc).__module__.split(".")[0] in ("requests", "urllib3")
        if offline or (
            isinstance(exc, BriefpackError) and "vocabulary through tiktoken" in str(exc)
        ):
            pytest.skip(f"needs the tiktoken vocabularies, which cannot be loaded here: {exc}")
        raise


@pytest.fixture(autouse=True)
def _an_event_loop_closed_after() -> Iterator[None]:
    """A current event loop for the test, closed after it (see the module's docstring)."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        yield
    finally:
        asyncio.set_event_loop(None)
        loop.close()
