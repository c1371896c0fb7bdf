"""Write the BPE vocabularies that the Rust core compiles in (``src/tokens/data/*.bpe``).

Reads tiktoken's own files for ``o200k_base`` and ``cl100k_base`` (offline: point
``TIKTOKEN_CACHE_DIR`` at ``../shared/tiktoken``; tiktoken checks their SHA-256) and writes
each as a compact binary the Rust side reads without parsing:

    b"BPV1" | n: u32 little-endian | n token lengths: u8 each | the n tokens' bytes, concatenated

Tokens are in rank order (rank = token id = merge priority, lowest first); the script checks
that the ranks are exactly 0..n-1 and that no token is longer than 255 bytes. Run it and commit
the output:

    TIKTOKEN_CACHE_DIR=../shared/tiktoken python scripts/gen_vocab.py
"""

from __future__ import annotations

import struct
from pathlib import Path

import tiktoken

OUT = Path(__file__).resolve().parents[1] / "src" / "tokens" / "data"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in ("o200k_base", "cl100k_base"):
        ranks = tiktoken.get_encoding(name)._mergeable_ranks
        tokens = sorted(ranks, key=ranks.__getitem__)
        if [ranks[t] for t in tokens] != list(range(len(tokens))):
            raise SystemExit(f"{name}: ranks are not 0..n-1")
        if max(map(len, tokens)) > 255:
            raise SystemExit(f"{name}: a token is longer than 255 bytes")
        blob = b"BPV1" + struct.pack("<I", len(tokens)) + bytes(map(len, tokens)) + b"".join(tokens)
        (OUT / f"{name}.bpe").write_bytes(blob)
        print(f"{name}: {len(tokens)} tokens, {len(blob)} bytes")


if __name__ == "__main__":
    main()
