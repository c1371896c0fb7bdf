"""Root pytest setup, shared by the tests, the doctests in the package and README.md.

The optional ``../shared/`` folder beside the checkout holds tiktoken's vocabularies for offline
use; when it is there, point tiktoken at it (the reference backend counts with tiktoken).
"""

from __future__ import annotations

import os
from pathlib import Path

_TIKTOKEN_DIR = Path(__file__).resolve().parent.parent / "shared" / "tiktoken"
if "TIKTOKEN_CACHE_DIR" not in os.environ and _TIKTOKEN_DIR.is_dir():
    os.environ["TIKTOKEN_CACHE_DIR"] = str(_TIKTOKEN_DIR)
