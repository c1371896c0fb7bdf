"""Time ``compress="all"`` with and without ``compress_bridge``, side by side, in one run.

Usage (from the repository root)::

    python scripts/bridge_cost.py [--sources 20] [--size 50000] [--runs 5]

The sources are generated (seeded) sentences of 14 words drawn from a small vocabulary of
names, numbers with units and function words, so most sentences are relevant and name
entities: a worst case for the bridge pass. Prints the median and minimum of each setting,
alternating the two so that load on a shared machine falls on both. Not a benchmark.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import briefpack as bp

WORDS = [
    "Alpha",
    "Beta",
    "the",
    "of",
    "and",
    "Gamma",
    "river",
    "city",
    "12",
    "km",
    "film",
    "star",
    "Anna",
    "Cruz",
    "sang",
    "played",
    "in",
    "1990",
    "was",
]
QUESTION = "Which film did Anna Cruz star in?"


def text(rng: random.Random, size: int) -> str:
    out: list[str] = []
    total = 0
    while total < size:
        sentence = " ".join(rng.choice(WORDS) for _ in range(14)).capitalize() + "."
        out.append(sentence)
        total += len(sentence) + 1
    return " ".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--sources", type=int, default=20)
    p.add_argument("--size", type=int, default=50_000)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--backend", default="auto")
    args = p.parse_args(argv)
    rng = random.Random(1)
    chunks = [
        {"id": str(i), "title": f"Doc {i}", "text": text(rng, args.size)}
        for i in range(args.sources)
    ]
    times: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(args.runs):
        for bridge in (True, False):
            started = time.perf_counter()
            bp.assemble(
                QUESTION,
                chunks,
                budget=1_000_000,
                tokenizer="approx",
                compress="all",
                compress_bridge=bridge,
                backend=args.backend,
            )
            times[bridge].append(time.perf_counter() - started)
    for bridge, ts in times.items():
        print(
            f"compress_bridge={bridge}: median {1000 * statistics.median(ts):.0f} ms, "
            f"min {1000 * min(ts):.0f} ms ({args.sources} sources of {args.size} characters)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
