"""Tune and evaluate page dedupe on generated pages (tests/pagegen.py).

    python scripts/pages_eval.py tune     # distances on the tuning set and the threshold they give
    python scripts/pages_eval.py eval     # precision/recall of dedupe_pages on the held-out set

The tuning set is pages with seeds 0..39 (4 layouts shared by 10 pages each), the held-out set
seeds 100000..100059 (6 layouts, 10 pages each): no page, no layout in common. Each page comes
with its 7 near-copies (pagegen.near_copies). ``tune`` prints the largest near-copy distance,
the smallest distance between different pages, and the threshold half way between them.
``eval`` lists every page and its copies in a seeded shuffled order, runs ``dedupe_pages`` at
the default threshold and counts: a copy whose ``duplicate_of`` is a page of its own group is a
true positive, one marked as a copy of another group (or a first-of-its-group page marked at
all) a false positive, a copy left unmarked a false negative.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import pagegen
from briefpack import pages
from briefpack.reference.pages import hamming

SETS = {"tune": (range(40), 4), "eval": (range(100_000, 100_060), 6)}


def build(name: str) -> tuple[list[bytes], list[int], list[str]]:
    """Hashes, group (original page) and kind of every page and copy of a set."""
    seeds, layouts = SETS[name]
    hashes: list[bytes] = []
    groups: list[int] = []
    kinds: list[str] = []
    for g, seed in enumerate(seeds):
        page = pagegen.text_page(seed, layout=seeds.start + g % layouts)
        images = {"original": page, **pagegen.near_copies(page, seed)}
        decoded = [pages.decode_page(pagegen.png(im)) for im in images.values()]
        hashes += pages.hash_pages(decoded)
        groups += [g] * len(images)
        kinds += list(images)
    return hashes, groups, kinds


def tune() -> None:
    hashes, groups, kinds = build("tune")
    originals = [i for i, k in enumerate(kinds) if k == "original"]
    near = {}
    for i, k in enumerate(kinds):
        if k != "original":
            o = originals[groups[i]]
            near[k] = max(near.get(k, 0), hamming(hashes[i], hashes[o]))
    far = min(
        hamming(hashes[i], hashes[j])
        for i in range(len(hashes))
        for j in range(i)
        if groups[i] != groups[j]
    )
    worst = max(near.values())
    print(f"largest near-copy distance by kind: {near}")
    print(f"largest near-copy distance: {worst} bits; smallest between different pages: {far}")
    print(f"threshold half way: {(worst + far) // 2}")


def evaluate() -> None:
    hashes, groups, _ = build("eval")
    order = list(range(len(hashes)))
    random.Random(7).shuffle(order)
    result = pages.dedupe_pages([hashes[i] for i in order])
    seen: set[int] = set()
    tp = fp = fn = 0
    for pos, i in enumerate(order):
        dup = result.duplicate_of[pos]
        is_copy = groups[i] in seen
        seen.add(groups[i])
        if dup is None:
            fn += is_copy
        elif is_copy and groups[order[dup]] == groups[i]:
            tp += 1
        else:
            fp += 1
            fn += is_copy
    print(
        f"{len(hashes)} images ({len(set(groups))} pages and their copies), "
        f"max_distance={pages.DEFAULT_MAX_DISTANCE}: TP {tp}, FP {fp}, FN {fn}, "
        f"precision {tp / max(1, tp + fp):.3f}, recall {tp / max(1, tp + fn):.3f}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("split", choices=["tune", "eval"])
    args = parser.parse_args()
    tune() if args.split == "tune" else evaluate()
