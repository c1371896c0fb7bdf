"""Collection rules for the whole repository (tests/conftest.py holds the test fixtures).

``--doctest-modules`` imports every module under python/briefpack, and each framework adapter
in briefpack.integrations raises ImportError by design when its framework is not installed:
skip collecting those (their tests skip themselves with pytest.importorskip).
"""

from __future__ import annotations

import importlib.util
import os

# Haystack sends usage telemetry from Pipeline.run unless this is off when it is imported.
os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")

_FRAMEWORKS = {
    "langchain": "langchain_core",
    "llamaindex": "llama_index.core",
    "haystack": "haystack",
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
