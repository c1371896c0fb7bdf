"""Prototype: a higher-resolution look where two pages differ, for pages without text.

    python scripts/pages_fine.py tune      # the tuning set only (see scripts/pages_eval.py)

For a pair that the kernel's checks find alike (hash within ``max_distance``, second look
passed), the prototype takes the ``TOP`` blocks with the largest second-look scores and compares
them again on a ``FINE`` x ``FINE`` grid of the content box (from the preview, box-averaged),
each region matched at the best shift within ``SHIFT`` fine cells (the other grid padded with
white, so regions at an edge shift too); a region's score is its
largest ``PEAK`` x ``PEAK`` window of absolute differences at that shift (both ways, the larger).
The reference is the same score of the blocks ranked ``TOP`` to ``TOP + REF`` (what a copy's
noise gives on this pair). It prints, for the tuning set, the ratio ``top / reference`` of every
pair of copies of one page that the kernel finds alike and of every edit it drops: a rule
``ratio > t`` keeps the edits above ``t`` and rejects the copies above it. Floating point and
numpy: a prototype for measuring, not the kernel.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).parent))

import pages_eval
from briefpack import pages

FINE = 512
SHIFT = 8
PEAK = 4
TOP = 4
REF = 8
CELLS = 128
BLOCK = 4


def fine_grid(page: pages.PageImage) -> np.ndarray:
    """The content box of the preview (the kernel's rule), box-averaged to FINE x FINE."""
    p = page.preview
    g = np.frombuffer(p.pixels, dtype=np.uint8).reshape(p.height, p.width)
    ink = g < 160
    rows = np.flatnonzero(ink.sum(axis=1) >= 2)
    cols = np.flatnonzero(ink.sum(axis=0) >= 2)
    if len(rows) and len(cols):
        g = g[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
    im = Image.fromarray(g).resize((FINE, FINE), Image.Resampling.BOX)
    return np.asarray(im, dtype=np.int32)


def block_scores(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per 4x4 block of the 128 grid: the least SAD over shifts within 2 cells (both ways)."""

    def one_way(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        n = CELLS // BLOCK
        best = np.full((n, n), np.iinfo(np.int64).max, dtype=np.int64)
        pad = np.pad(y, 2, constant_values=-10_000)
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                s = pad[2 + dy : 2 + dy + CELLS, 2 + dx : 2 + dx + CELLS]
                d = np.abs(x - s).reshape(n, BLOCK, n, BLOCK).sum(axis=(1, 3))
                best = np.minimum(best, d)
        return best

    return np.maximum(one_way(a, b), one_way(b, a))


def region_peak(x: np.ndarray, y: np.ndarray, bi: int, bj: int) -> int:
    size = FINE // (CELLS // BLOCK)
    y0, x0 = bi * size, bj * size
    r = x[y0 : y0 + size, x0 : x0 + size]
    pad = np.pad(y, SHIFT, constant_values=255)  # white past the box: shifts at the edges too
    best = None
    for dy in range(-SHIFT, SHIFT + 1):
        for dx in range(-SHIFT, SHIFT + 1):
            ys, xs = y0 + dy + SHIFT, x0 + dx + SHIFT
            d = np.abs(r - pad[ys : ys + size, xs : xs + size])
            total = int(d.sum())
            if best is None or total < best[0]:
                best = (total, d)
    assert best is not None
    d = best[1]
    c = d.cumsum(0).cumsum(1)
    c = np.pad(c, ((1, 0), (1, 0)))
    win = c[PEAK:, PEAK:] - c[:-PEAK, PEAK:] - c[PEAK:, :-PEAK] + c[:-PEAK, :-PEAK]
    return int(win.max())


def ratio(sa: bytes, sb: bytes, fa: np.ndarray, fb: np.ndarray) -> float:
    ga = np.frombuffer(sa[32:], dtype=np.uint8).reshape(CELLS, CELLS).astype(np.int64)
    gb = np.frombuffer(sb[32:], dtype=np.uint8).reshape(CELLS, CELLS).astype(np.int64)
    order = np.argsort(-block_scores(ga, gb), axis=None, kind="stable")
    n = CELLS // BLOCK
    peaks = []
    for flat in order[: TOP + REF]:
        bi, bj = divmod(int(flat), n)
        peaks.append(max(region_peak(fa, fb, bi, bj), region_peak(fb, fa, bi, bj)))
    top = max(peaks[:TOP])
    ref = float(np.median(peaks[TOP:]))
    return top / (ref + 16 * PEAK * PEAK)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("split", choices=["tune"])
    args = parser.parse_args()
    items = pages_eval.build(args.split)
    decoded = {i.path: pages.decode_page(i.path) for i in items}
    sigs = dict(zip(decoded, pages.hash_pages(list(decoded.values()))))
    fine = {p: fine_grid(d) for p, d in decoded.items()}
    groups: dict[int, list[pages_eval.Item]] = {}
    for it in items:
        groups.setdefault(it.group, []).append(it)
    copy_ratios: list[tuple[float, str]] = []
    edit_ratios: dict[str, list[float]] = {k: [] for k in pages_eval.EDITS}
    kept_before = dict.fromkeys(pages_eval.EDITS, 0)
    for members in groups.values():
        ref = [m for m in members if m.kind == "original" or m.kind in pages_eval.COPIES]
        for a_i, a in enumerate(ref):  # every pair of copies of the page the kernel finds alike
            for b in ref[a_i + 1 :]:
                r = pages.dedupe_pages([sigs[a.path], sigs[b.path]])
                if r.duplicate_of[1] == 0:
                    q = ratio(sigs[a.path], sigs[b.path], fine[a.path], fine[b.path])
                    copy_ratios.append((q, f"{a.path.name} / {b.path.name}"))
        base = pages.dedupe_pages([sigs[m.path] for m in ref])
        for m in members:
            if m.kind not in pages_eval.EDITS:
                continue
            r = pages.dedupe_pages([*(sigs[x.path] for x in ref), sigs[m.path]])
            k = r.duplicate_of[-1]
            if k is None:
                kept_before[m.kind] += 1
                continue
            assert k in base.kept
            edit_ratios[m.kind].append(
                ratio(sigs[ref[k].path], sigs[m.path], fine[ref[k].path], fine[m.path])
            )
    copy_ratios.sort(reverse=True)
    worst = copy_ratios[0][0]
    out = {
        "copy_pairs_alike": len(copy_ratios),
        "worst_copy_ratios": [(round(q, 3), n) for q, n in copy_ratios[:5]],
        "edits_kept_by_the_kernel": kept_before,
        "edits_dropped_by_the_kernel": {k: len(v) for k, v in edit_ratios.items()},
        "edit_ratios_sorted": {k: sorted(round(q, 3) for q in v) for k, v in edit_ratios.items()},
    }
    for t in (worst, 1.25 * worst, 1.5 * worst):
        gained = sum(q > t for v in edit_ratios.values() for q in v)
        total = sum(len(v) for v in edit_ratios.values()) + sum(kept_before.values())
        out[f"kept_at_ratio>{t:.3f}"] = f"{sum(kept_before.values()) + gained}/{total}"
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
