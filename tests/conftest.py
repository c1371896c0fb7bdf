"""Shared fixtures: hypothesis profiles, the backend fixture and the shared/ folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

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


def tiktoken_available() -> bool:
    return (
        bool(os.environ.get("TIKTOKEN_CACHE_DIR"))
        and Path(os.environ["TIKTOKEN_CACHE_DIR"]).is_dir()
    )
