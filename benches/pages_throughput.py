"""Page hash throughput: pages per second, Rust core and reference side by side.

    python benches/pages_throughput.py [--runs 5] [--batch 20]

A generated 1700x2200 text page (US letter at 200 dpi, tests/pagegen.py) is decoded once, gray
and as RGB; each run hashes a batch of copies with ``hash_pages`` (one call: the pixels are
joined, sent across once and hashed without the GIL) and the median of the runs is printed.
The reference hashes fewer pages per run (it is pure Python). Decoding is not timed. Build the
extension with the release profile first (``make build-prod``) for numbers worth quoting.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import pagegen
from briefpack import pages


def rate(batch: list[pages.PageImage], backend: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        pages.hash_pages(batch, backend=backend)
        times.append(time.perf_counter() - start)
    return len(batch) / statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=20)
    args = parser.parse_args()
    page = pagegen.text_page(0)
    gray = pages.decode_page(np.asarray(page))
    color = pages.decode_page(np.asarray(pagegen.rgb(page)))
    print(f"{page.width}x{page.height} page, median of {args.runs} runs, pages per second")
    print(f"{'input':<6} {'rust':>10} {'reference':>10}")
    for name, p in (("gray", gray), ("RGB", color)):
        fast = rate([p] * args.batch, "rust", args.runs)
        slow = rate([p] * max(1, args.batch // 10), "python", args.runs)
        print(f"{name:<6} {fast:>10.1f} {slow:>10.2f}")


if __name__ == "__main__":
    main()
