"""The oracle runs offline: tiktoken's encodings built from the vocabularies compiled into the
core, checked against the SHA-256 tiktoken publishes for its files.

When ``tiktoken.get_encoding`` cannot load a vocabulary (no network, no cache), the python
backend builds the ``tiktoken.Encoding`` itself from ``_core.vocabulary(name)``: tiktoken's own
pattern and special tokens, the core's bytes once their hash is tiktoken's. These tests check the
bytes against the published hashes, the built encoding against tiktoken's own, the fallback in a
process with no network and an empty cache, and that a wrong file is refused.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile

import pytest

from briefpack.errors import BriefpackError, InputError
from briefpack.reference import tokens as ref_tokens
from conftest import HAS_RUST, tiktoken_files_present

pytestmark = pytest.mark.skipif(not HAS_RUST, reason="the Rust extension is not built")
tiktoken = pytest.importorskip("tiktoken")

# The expected_hash values of tiktoken_ext/openai_public.py (the published .tiktoken files).
PUBLISHED_SHA256 = {
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
}
NAMES = sorted(PUBLISHED_SHA256)
TEXT = "Résumé: 12345 tokens,\n\n  naïve café's 東京 🙂 <|endoftext|> end"


@pytest.mark.parametrize("name", NAMES)
def test_the_built_in_vocabulary_is_the_published_file(name: str) -> None:
    from briefpack import _core

    assert hashlib.sha256(_core.vocabulary(name)).hexdigest() == PUBLISHED_SHA256[name]


@pytest.mark.parametrize("bad", ["approx", "gpt2", "", 3, None, b"o200k_base"])
def test_only_the_built_in_names_have_a_vocabulary(bad: object) -> None:
    from briefpack import _core

    with pytest.raises(InputError, match="name must be 'o200k_base' or 'cl100k_base'"):
        _core.vocabulary(bad)  # type: ignore[arg-type]


@pytest.mark.skipif(not tiktoken_files_present(), reason="tiktoken's own files are not here")
@pytest.mark.parametrize("name", NAMES)
def test_the_built_encoding_is_tiktokens_own(name: str) -> None:
    from tiktoken_ext import openai_public

    built = ref_tokens._built_in_encoding(tiktoken, name)
    own = tiktoken.get_encoding(name)
    assert built is not own
    assert built.name == own.name
    assert built._pat_str == own._pat_str
    assert built._special_tokens == own._special_tokens
    assert built._mergeable_ranks == own._mergeable_ranks
    assert built.encode_ordinary(TEXT) == own.encode_ordinary(TEXT)
    # tiktoken's loader is back in place for everyone else
    assert openai_public.load_tiktoken_bpe is tiktoken.load.load_tiktoken_bpe


def test_a_file_with_another_hash_is_refused() -> None:
    data = b"IQ== 0\nIg== 1\n"
    with pytest.raises(BriefpackError, match=r"has SHA-256 .* not the 0{64} tiktoken publishes"):
        ref_tokens._verified_ranks("o200k_base", data, "0" * 64)
    with pytest.raises(BriefpackError, match="SHA-256"):
        ref_tokens._verified_ranks("o200k_base", data, None)


OFFLINE = """
import tiktoken
from briefpack import _core
from briefpack.reference.tokens import count_tokens

for name in ("o200k_base", "cl100k_base"):
    try:
        tiktoken.get_encoding(name)
    except Exception as exc:
        print("tiktoken alone cannot load", name, type(exc).__name__)
    else:
        raise SystemExit(f"tiktoken loaded {name}: the test is not offline")
    texts = [TEXT, "", "hello world"]
    assert count_tokens(texts, name) == _core.count_tokens(texts, name), name
print("ok")
"""


def test_the_oracle_counts_with_no_network_and_no_cache() -> None:
    blocked = "http://127.0.0.1:9"  # nothing listens on the discard port: refused at once
    env = {
        **os.environ,
        "HTTPS_PROXY": blocked,
        "HTTP_PROXY": blocked,
        "https_proxy": blocked,
        "http_proxy": blocked,
    }
    env.pop("NO_PROXY", None)
    env.pop("no_proxy", None)
    with tempfile.TemporaryDirectory() as empty:
        env["TIKTOKEN_CACHE_DIR"] = empty
        proc = subprocess.run(
            [sys.executable, "-c", f"TEXT = {TEXT!r}\n{OFFLINE}"],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=False,
        )
        assert os.listdir(empty) == []  # nothing was written to the cache either
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("tiktoken alone cannot load") == 2
    assert proc.stdout.endswith("ok\n")
