"""Prototype (numpy, not in the kernels): the fine look at every block, on a box that follows
the other page's scale.

    python scripts/pages_fine_all.py collect tune heldout4 heldout heldout2 heldout3  # first
    python scripts/pages_scale.py collect tune heldout4 heldout heldout2 heldout3
    python scripts/pages_scale.py rules tune heldout4 heldout heldout2 heldout3 --rule ink75,500,16

``scripts/pages_fine_all.py`` aligns every block of the two fine grids on its own, each grid
made on its page's own content box. An edit that moves the box (a redrawn row or number at an
edge) resamples every block at another scale, and its residuals everywhere rise to a
re-render's. This script measures one remedy: model the map between the two pages as a scale
and an offset per axis, fitted robustly to the per-block shifts that the coarse-to-fine search
already finds, and make the second page's fine grid again on the box that map gives (the first
page's box carried into the second page's pixels, rounded to whole pixels, white past the
image), then compute the same residuals on that pair of grids.

``collect`` reads the pairs of ``pages_fine_all.py``'s cache (``<set>-fine-all.npz``, which holds
each pair's kind, whether the hash and the second look find it alike, and the prototype's
residuals) and, for each pair that reaches the fine look (an edit the second look keeps is
kept whatever this finds):

* the per-block shifts of the first grid against the second (``pages_fine_all``'s
  coarse-to-fine search, one way), on the blocks with ink and an edge energy of at least
  ``MIN_ENERGY``;
* per axis, the least-squares line ``shift = c0 + c1 (centre - 256) + c2 (other centre - 256)``
  (the cross term absorbs a scan's rotation), refitted twice without the blocks whose shift is
  more than ``REJECT`` fine cells off the line (an edited block does not pull it);
* the second page's box from its own: ``height' = height (1 + c1)``, ``top' = top + (c0 - 256
  c1) height / 512`` (each edge rounded to a whole pixel), and the same across;
* when that box is the page's own, the residuals are the prototype's; otherwise the second
  page's fine grid is made again on it (area-weighted as the kernels', white past the image),
  the fine rows and columns that cover a pixel past the second image are made white in both
  grids (only what both pages show is compared: a 2% crop cuts content that reaches the page's
  edge), and the residuals (``peakp``, both ways, every block aligned on its own) are computed
  again.

It writes ``<set>-scale.npz``: per pair the residuals on the fitted box, the fit and the two
boxes. ``rules`` scores the prototype's rule family (``100 max > a (ref + b)``) on them, beside
the prototype's own residuals. The held-back set ``heldout5`` is refused.
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import pages_eval
import pages_fine_all as fa_mod
from briefpack import pages

_search_row_major = fa_mod._search  # kept before --ties centre replaces fa_mod._search

FINE = fa_mod.FINE
SIZE = fa_mod.SIZE
N = FINE // SIZE  # 32 blocks a side
MIN_ENERGY = 2000
REJECT = 2.0
REACH = 2
REFINE = True
SUFFIX = "scale"  # the cache's name: <set>-<SUFFIX>.npz
ALWAYS = False  # compute the residuals of every pair (not the prototype's where the boxes are)
_weights = lru_cache(maxsize=512)(fa_mod._weights)


def search_centre_first(
    ga: np.ndarray,
    gb: np.ndarray,
    size: int,
    ctx: int,
    centre: np.ndarray,
    radius: int,
) -> np.ndarray:
    """``pages_fine_all._search`` with the centre shift tried first on ties."""
    return _search_row_major(ga, gb, size, ctx, centre, radius, centre_first=True)


def shifts(fa: np.ndarray, fb: np.ndarray) -> np.ndarray:
    """(1024, 2): each block of ``fa``'s best shift into ``fb`` (fine cells), coarse to fine as
    ``pages_fine_all.one_way_pyramid``."""
    nb = N * N
    q = fa_mod._search(
        fa_mod._reduce(fa, 4), fa_mod._reduce(fb, 4), 4, 4, np.zeros((nb, 2), np.int64), 3
    )
    h = fa_mod._search(fa_mod._reduce(fa, 2), fa_mod._reduce(fb, 2), 8, 4, 2 * q, 1)
    return fa_mod._search(fa.astype(np.int16), fb.astype(np.int16), SIZE, 0, 2 * h, 1)


def fit(f: np.ndarray, use: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Per axis (rows, columns) the line ``c0 + c1 (own - 256) + c2 (other - 256)`` through the
    blocks ``use``, refitted twice without the blocks more than ``REJECT`` cells off it."""
    centre = np.arange(N) * SIZE + (SIZE - 1) / 2 - FINE / 2
    cy = np.repeat(centre, N)
    cx = np.tile(centre, N)
    out = []
    kept = use.copy()
    for axis, own, other in ((0, cy, cx), (1, cx, cy)):
        m = use.copy()
        c = np.zeros(3)
        for _ in range(3):
            if m.sum() < 8:
                c = np.zeros(3)
                break
            x = np.stack([np.ones(int(m.sum())), own[m], other[m]], 1)
            c = np.linalg.lstsq(x, f[m, axis].astype(np.float64), rcond=None)[0]
            pred = c[0] + c[1] * own + c[2] * other
            m = use & (np.abs(f[:, axis] - pred) <= REJECT)
        out.append(c)
        kept &= m
    return out[0], out[1], int(kept.sum())


def fitted_box(
    box: tuple[int, int, int, int], cy: np.ndarray, cx: np.ndarray
) -> tuple[int, int, int, int]:
    """The second page's box (top, bottom, left, right, in its pixels) whose fine grid the fit
    maps onto the first page's, from the second page's own box ``box``."""
    top, bottom, left, right = box
    h, w = bottom - top, right - left
    nh = h * (1 + cy[1])
    nt = top + (cy[0] - FINE / 2 * cy[1]) * h / FINE
    nw = w * (1 + cx[1])
    nl = left + (cx[0] - FINE / 2 * cx[1]) * w / FINE
    t, b = int(np.floor(nt + 0.5)), int(np.floor(nt + nh + 0.5))
    lf, r = int(np.floor(nl + 0.5)), int(np.floor(nl + nw + 0.5))
    return t, max(b, t + 1), lf, max(r, lf + 1)


def _ink_rows(g: np.ndarray, lo: int, hi: int, across: tuple[int, int]) -> np.ndarray:
    """Per pixel row of ``[lo, hi)`` of ``g`` (white past the image): its ink (255 - value)
    summed over the columns ``across``, over the columns' count."""
    c0, c1 = max(0, across[0]), min(g.shape[1], across[1])
    ink = np.zeros(hi - lo)
    r0, r1 = max(lo, 0), min(hi, g.shape[0])
    if r1 > r0 and c1 > c0:
        ink[r0 - lo : r1 - lo] = (255.0 - g[r0:r1, c0:c1]).sum(1)
    return ink / (across[1] - across[0])


def _bins(ink: np.ndarray) -> np.ndarray:
    """A profile averaged area-weighted to ``FINE`` bins."""
    return _weights(ink.size) @ ink / ink.size


def refine(
    ga: np.ndarray,
    box_a: tuple[int, int, int, int],
    gb: np.ndarray,
    box: tuple[int, int, int, int],
) -> tuple[int, int, int, int]:
    """The box within ``REACH`` pixels of each edge of ``box`` whose row and column projection
    profiles (each axis on its own, in ``FINE`` bins) are nearest the first page's (the least
    sum of absolute differences; the fitted box on ties)."""
    top, bottom, left, right = box
    out = []
    for axis in (0, 1):
        a = ga if axis == 0 else ga.T
        b = gb if axis == 0 else gb.T
        ab = box_a[:2] if axis == 0 else box_a[2:]
        across_a = box_a[2:] if axis == 0 else box_a[:2]
        lo, hi = (top, bottom) if axis == 0 else (left, right)
        across = (left, right) if axis == 0 else (top, bottom)
        pa = _bins(_ink_rows(a, ab[0], ab[1], (across_a[0], across_a[1])))
        inkb = _ink_rows(b, lo - REACH, hi + REACH, across)
        best = (np.inf, lo, hi)
        for d0 in range(-REACH, REACH + 1):
            for d1 in range(-REACH, REACH + 1):
                if hi + d1 - lo - d0 < 2:
                    continue
                pb = _bins(inkb[REACH + d0 : inkb.size - REACH + d1])
                cost = float(np.abs(pb - pa).sum())
                if cost < best[0] - 1e-9 or (abs(cost - best[0]) <= 1e-9 and d0 == d1 == 0):
                    best = (cost, lo + d0, hi + d1)
        out.extend(best[1:])
    return out[0], out[1], out[2], out[3]


def grid_on(g: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The fine grid of ``g`` on ``box`` (which may reach past the image: white there)."""
    top, bottom, left, right = box
    ph, pw = g.shape
    pad_t, pad_l = max(0, -top), max(0, -left)
    pad_b, pad_r = max(0, bottom - ph), max(0, right - pw)
    if pad_t or pad_l or pad_b or pad_r:
        g = np.pad(g, ((pad_t, pad_b), (pad_l, pad_r)), constant_values=255)
        top, bottom, left, right = top + pad_t, bottom + pad_t, left + pad_l, right + pad_l
    box_px = g[top:bottom, left:right].astype(np.float64)
    h, w = box_px.shape
    s = _weights(h) @ box_px @ _weights(w).T
    return (np.rint(s).astype(np.int64) // (h * w)).astype(np.uint8)


def outside(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """The fine rows and columns of a grid on ``box`` that cover a pixel past the image."""
    out = []
    for lo, hi, n in ((box[0], box[1], shape[0]), (box[2], box[3], shape[1])):
        k = np.arange(FINE)
        start = lo * FINE + k * (hi - lo)
        out.append((start < 0) | (start + (hi - lo) > n * FINE))
    return out[0], out[1]


def past(box: np.ndarray, shape: tuple[int, ...]) -> bool:
    return bool(box[0] < 0 or box[2] < 0 or box[1] > shape[0] or box[3] > shape[1])


def common(
    box_a: tuple[int, int, int, int],
    own_b: tuple[int, int, int, int],
    new_b: tuple[int, int, int, int],
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two boxes the grids are made on: the first page's box grown (per edge) to hold the
    second page's own box carried back by the fitted map (a redrawn row or number that reaches
    past the first page's box is then inside both grids), and that box carried into the second
    page's pixels (each edge rounded to a whole pixel)."""
    ua: list[int] = []
    ub: list[int] = []
    for axis in (0, 1):
        lo_a, hi_a = box_a[2 * axis : 2 * axis + 2]
        lo_n, hi_n = new_b[2 * axis : 2 * axis + 2]
        lo_o, hi_o = own_b[2 * axis : 2 * axis + 2]
        scale = (hi_n - lo_n) / (hi_a - lo_a)
        lo = min(lo_a, int(np.floor(lo_a + (lo_o - lo_n) / scale + 0.5)))
        hi = max(hi_a, int(np.floor(lo_a + (hi_o - lo_n) / scale + 0.5)))
        ua += [lo, hi]
        ub += [int(np.floor(lo_n + (x - lo_a) * scale + 0.5)) for x in (lo, hi)]
    return (ua[0], ua[1], ua[2], ua[3]), (ub[0], ub[1], ub[2], ub[3])


def collect(split: str, update: bool = False) -> None:
    """See the module docstring. ``update``: recompute only the pairs whose fitted box reaches
    past the second image (the rest as the last run wrote them)."""
    rows, feats = fa_mod.load(split)
    items = {i.path.name: i for i in pages_eval.build(split)}
    previews: dict[str, np.ndarray] = {}
    grids: dict[str, np.ndarray] = {}

    def preview(name: str) -> np.ndarray:
        if name not in previews:
            if len(previews) > 64:
                previews.clear()
                grids.clear()
            pv = pages.decode_page(items[name].path).preview
            previews[name] = np.frombuffer(pv.pixels, np.uint8).reshape(pv.height, pv.width)
        return previews[name]

    info: dict[str, tuple[tuple[int, int, int, int], tuple[int, ...]]] = {}

    def box_shape(name: str) -> tuple[tuple[int, int, int, int], tuple[int, ...]]:
        if name not in info:
            g = preview(name)
            info[name] = (fa_mod.content_box(g), g.shape)
        return info[name]

    def grid(name: str) -> np.ndarray:
        if name not in grids:
            grids[name] = fa_mod.fine_grid(preview(name))
        return grids[name]

    n = len(rows)
    peak = feats["peakp"].copy()
    ink = feats["ink"].copy()
    fits = np.zeros((n, 6))
    boxes = np.zeros((n, 16), np.int64)  # the second's own, fitted; the two grids' boxes
    used = np.zeros(n, np.int64)
    changed = np.zeros(n, bool)
    ms = np.zeros(n)
    if update:
        z = np.load(pages_eval.ROOT / f"{split}-{SUFFIX}.npz")
        peak, ink, fits = z["peakp"], z["ink"], z["fits"]
        boxes[:, : z["boxes"].shape[1]] = z["boxes"]
        used, changed, ms = z["used"], z["changed"], z["ms"]
    t0 = time.perf_counter()
    redone = 0
    for i, r in enumerate(rows):
        if not r["alike"]:
            continue  # an edit the second look keeps: kept whatever the fine look says
        a, b = str(r["a"]), str(r["b"])
        if update:
            (box_a, _), (_, shape_b) = box_shape(a), box_shape(b)
            own_u = (int(boxes[i][0]), int(boxes[i][1]), int(boxes[i][2]), int(boxes[i][3]))
            new_u = (int(boxes[i][4]), int(boxes[i][5]), int(boxes[i][6]), int(boxes[i][7]))
            ua, ub = common(box_a, own_u, new_u)
            boxes[i][8:] = ua + ub
            if ua == box_a and not past(np.array(ub), shape_b):
                continue  # as the last run computed it
        redone += 1
        t1 = time.perf_counter()
        ga, gb = preview(a), preview(b)
        fa, fb = grid(a), grid(b)
        use = (
            (fa_mod._blocks(fa, SIZE).min((1, 2)) < 200)
            & (fa_mod._blocks(fb, SIZE).min((1, 2)) < 200)
            & (fa_mod._energy(fa) >= MIN_ENERGY)
        )
        f = shifts(fa, fb)
        cy, cx, k = fit(f, use)
        own = fa_mod.content_box(gb)
        new = fitted_box(own, cy, cx) if k >= 8 else own
        if REFINE:
            new = refine(ga, fa_mod.content_box(ga), gb, new)
        box_a = fa_mod.content_box(ga)
        ua, ub = common(box_a, own, new)
        fits[i] = np.concatenate([cy, cx])
        boxes[i] = own + new + ua + ub
        used[i] = k
        if ALWAYS or (ua, ub) != (box_a, own):
            changed[i] = True
            # only what both pages show: the cells past either image are white in both grids
            ra, ca = outside(ua, ga.shape)
            rb, cb = outside(ub, gb.shape)
            fa2 = fa.copy() if ua == box_a else grid_on(ga, ua)
            fb2 = grid_on(gb, ub)
            for g in (fa2, fb2):
                g[ra | rb, :] = 255
                g[:, ca | cb] = 255
            res = fa_mod.residuals(fa2, fb2)
            peak[i] = res["peakp"]
            ink[i] = res["ink"]
        ms[i] = 1000 * (time.perf_counter() - t1)
    out = pages_eval.ROOT / f"{split}-{SUFFIX}.npz"
    np.savez_compressed(
        out, peakp=peak, ink=ink, fits=fits, boxes=boxes, used=used, changed=changed, ms=ms
    )
    alike = np.array([r["alike"] for r in rows])
    print(
        f"{split}: {int(alike.sum())} pairs ({redone} computed), "
        f"{int(changed.sum())} on new boxes, "
        f"{time.perf_counter() - t0:.0f} s, ms/pair median {np.median(ms[alike]):.0f} -> {out}",
        file=sys.stderr,
    )


def load(split: str) -> tuple[list[dict[str, object]], dict[str, np.ndarray]]:
    """The pairs and, per variant (``own``: the prototype's residuals on each page's own box;
    ``scale``: on the fitted box), the stats of ``pages_fine_all.stats``; plus the fits."""
    rows, feats = fa_mod.load(split)
    z = np.load(pages_eval.ROOT / f"{split}-{SUFFIX}.npz")
    out = {k: z[k] for k in z.files}
    for name, (r, ink) in {
        "own": (feats["peakp"], feats["ink"]),
        "scale": (z["peakp"], z["ink"]),
    }.items():
        for k, v in fa_mod.stats(r, ink).items():
            out[f"{name}.{k}"] = v
    return rows, out


def decide(st: dict[str, np.ndarray], variant: str, rule: tuple[str, int, int]) -> np.ndarray:
    """Different when ``100 max > a (ref + b)`` on ``variant`` (``own``, ``scale``, or ``both``:
    on both boxes)."""
    if variant == "both":
        return decide(st, "own", rule) & decide(st, "scale", rule)
    q, a, b = rule
    m = st[f"{variant}.max"].astype(np.int64)
    return 100 * m > a * (st[f"{variant}.{q}"].astype(np.int64) + b)


def table(splits: list[str], variant: str) -> None:
    """The rule grid of ``pages_fine_all``: per rule the copies kept apart over all sets and the
    edits kept (all sets, worst set), the 25 best with no copy apart first."""
    data = {s: load(s) for s in splits}
    out = []
    for rule in fa_mod.RULES:
        tot_c = tot_e = n_e = 0
        worst = 1.0
        line = []
        for rows, st in data.values():
            kinds = np.array([r["kind"] for r in rows])
            alike = np.array([r["alike"] for r in rows])
            d = decide(st, variant, rule)
            c = int((d & (kinds == "copy")).sum())
            ed = kinds == "edit"
            e = int((ed & (~alike | d)).sum())
            tot_c, tot_e, n_e = tot_c + c, tot_e + e, n_e + int(ed.sum())
            worst = min(worst, e / max(1, int(ed.sum())))
            line.append(f"{c}/{e}/{int(ed.sum())}")
        out.append((tot_c, -worst, rule, tot_e / max(1, n_e), line))
    out.sort(key=lambda t: (t[0], t[1]))
    for c, w, rule, rate, line in out[:25]:
        print(f" {rule}: copies apart {c}, edits {rate:.3f} (worst set {-w:.3f}) {line}")


def one_rule(splits: list[str], variant: str, rule: tuple[str, int, int]) -> None:
    """Per set: copies and different pairs kept apart, edits kept by kind (scale-following /
    the prototype / today), the worst copies' ratios and the edits missed."""
    for s in splits:
        rows, st = load(s)
        d = decide(st, variant, rule)
        d_own = decide(st, "own", rule)
        v = "own" if variant == "own" else "scale"
        ratio = 100 * st[f"{v}.max"] / (st[f"{v}.{rule[0]}"] + rule[2])
        kinds = np.array([r["kind"] for r in rows])
        alike = np.array([r["alike"] for r in rows])
        today = np.array([r["kept_today"] for r in rows])
        copy, diff, ed = kinds == "copy", kinds == "different", kinds == "edit"
        kept: dict[str, list[int]] = {}
        for i in np.flatnonzero(ed):
            k = kept.setdefault(str(rows[i]["edit"]), [0, 0, 0, 0])
            k[0] += bool(~alike[i] | d[i])
            k[1] += bool(~alike[i] | d_own[i])
            k[2] += bool(~alike[i] | today[i])
            k[3] += 1
        tot = [sum(x[j] for x in kept.values()) for j in range(4)]
        worst = np.argsort(-np.where(copy, ratio, -1))[:3]
        print(
            f"{s}: copies apart {int((d & copy).sum())}/{int(copy.sum())} (prototype "
            f"{int((d_own & copy).sum())}), different apart {int((d & diff).sum())}/"
            f"{int(diff.sum())}, edits kept {tot[0]}/{tot[3]} ({tot[0] / max(1, tot[3]):.3f}; "
            f"prototype {tot[1] / max(1, tot[3]):.3f}, today {tot[2] / max(1, tot[3]):.3f}); "
            f"by kind (new, prototype, today, of) {kept}; pairs on a new box "
            f"{int(st['changed'].sum())}, ms/pair median {np.median(st['ms'][alike]):.0f}"
        )
        print(
            "  worst copies (100 max / (ref + b)):",
            [(rows[i]["a"], rows[i]["b"], round(float(ratio[i]))) for i in worst],
        )
        for i in np.flatnonzero(ed & alike & ~d):
            b = st["boxes"][i]
            print(
                f"  missed {rows[i]['b']}: max {int(st[f'{v}.max'][i])}, ref "
                f"{int(st[f'{v}.{rule[0]}'][i])}, ratio {ratio[i]:.0f}, own box {b[:4].tolist()}"
                f" -> {b[4:].tolist()}, fitted blocks {int(st['used'][i])}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("collect", "rules"))
    parser.add_argument("splits", nargs="+", choices=sorted(pages_eval.SETS))
    parser.add_argument(
        "--variant", default="scale", choices=("scale", "own", "both"), help="rules: which boxes"
    )
    parser.add_argument(
        "--update", action="store_true", help="collect: only the pairs whose box is past the image"
    )
    parser.add_argument(
        "--ties",
        default="row-major",
        choices=("row-major", "centre"),
        help="the alignment's order on ties (centre: every pair computed, <set>-scale-centre.npz)",
    )
    parser.add_argument("--rule", help="REF,A,B: one rule's results per set (ink75,500,16)")
    args = parser.parse_args()
    if "heldout5" in args.splits:
        sys.exit("heldout5 is held back: score it with scripts/pages_eval.py once")
    if args.ties == "centre":
        global SUFFIX, ALWAYS
        SUFFIX, ALWAYS = "scale-centre", True
        fa_mod._search = search_centre_first
    if args.what == "collect":
        for s in args.splits:
            collect(s, args.update)
    elif args.rule:
        q, a, b = args.rule.split(",")
        one_rule(args.splits, args.variant, (q, int(a), int(b)))
    else:
        table(args.splits, args.variant)


if __name__ == "__main__":
    main()
