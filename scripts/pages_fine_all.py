"""Prototype (numpy, not in the kernels): a fine look at EVERY block of a near pair.

    python scripts/pages_fine_all.py collect tune heldout4 heldout heldout2 heldout3
    python scripts/pages_fine_all.py rules tune heldout4 --feature peakp

``collect`` reads the pairs of real pages of ``scripts/pages_eval.py``'s sets: every pair of one
page's copies (original included) and every pair of different pages within the hash distance
that the hash and the second look find alike, and every edit against its original; for each it
computes one residual per block of the fine grid (the kernels' 512 x 512 area-weighted grid of
the content box, computed here exactly; 1,024 blocks of 16 x 16 fine cells):

* each block of one grid is aligned on its own, coarse to fine: on the grids averaged 4 x 4
  (128 x 128) within 3 cells, matching the block and 4 cells around it; on the grids averaged
  2 x 2 within 1 cell of twice that, the block and 4 cells around; on the fine grid within 1
  cell of twice that, the block alone (least SAD, the first in row-major order on ties, white
  past the edges; so a block may move up to 15 fine cells);
* at that shift the block's residual is the largest sum over a 4 x 4 window of: the absolute
  differences (``peakp``); how far each cell lies outside the other grid's 3 x 3 range around
  it (``envp``); the ink of a cell beyond k times the darkest ink around it in the other grid
  (``dark2``, ``dark3``); both ways, the larger. ``ink`` marks the blocks with a cell darker
  than 200 in either grid, ``energy`` is a block's sum of adjacent-cell differences (the
  larger of the two grids').

``rules`` reads them back (``/tmp/briefpack-pages-eval/<set>-fine-all.npz``) and scores rules
``100 max > a (ref + b)``, the worst block against a percentile of the pair's own blocks (all
1,024, or those with ink), giving per set the pairs of copies and of different pages kept apart
and the edits kept (an edit the second look already keeps counts as kept). The held-back set
``heldout5`` is refused: it is scored once, by ``scripts/pages_eval.py``. Measured results are in
``docs/pages.md`` ("A fine look at every block, prototype").
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import pages_eval
from briefpack import pages

FINE = 512
DETAIL = 128
BLOCK = 4
SIZE = FINE // (DETAIL // BLOCK)  # 16 fine cells a block side
PEAK = 4


def content_box(g: np.ndarray) -> tuple[int, int, int, int]:
    ink = g < 160
    rows = np.flatnonzero(ink.sum(1) >= 2)
    cols = np.flatnonzero(ink.sum(0) >= 2)
    if rows.size == 0 or cols.size == 0:
        return 0, g.shape[0], 0, g.shape[1]
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def _weights(length: int) -> np.ndarray:
    """(FINE, length): the overlap of fine cell k with pixel p, in 1/FINE pixel units."""
    k = np.arange(FINE)[:, None]
    p = np.arange(length)[None, :]
    lo = np.maximum(k * length, p * FINE)
    hi = np.minimum((k + 1) * length, (p + 1) * FINE)
    return np.maximum(hi - lo, 0).astype(np.float64)


def fine_grid(g: np.ndarray) -> np.ndarray:
    """The kernels' fine grid, exactly (integer sums below 2**53 are exact in float64)."""
    top, bottom, left, right = content_box(g)
    box = g[top:bottom, left:right].astype(np.float64)
    h, w = box.shape
    s = _weights(h) @ box @ _weights(w).T
    return (np.rint(s).astype(np.int64) // (h * w)).astype(np.uint8)


def _window_peak(d: np.ndarray) -> np.ndarray:
    """(nb, 16, 16) -> (nb,): the largest PEAK x PEAK window sum."""
    c = np.zeros((d.shape[0], SIZE + 1, SIZE + 1), dtype=np.int64)
    c[:, 1:, 1:] = d.cumsum(1).cumsum(2)
    w = c[:, PEAK:, PEAK:] - c[:, :-PEAK, PEAK:] - c[:, PEAK:, :-PEAK] + c[:, :-PEAK, :-PEAK]
    return w.reshape(d.shape[0], -1).max(1)


def _blocks(g: np.ndarray, size: int) -> np.ndarray:
    n = g.shape[0] // size
    return g.reshape(n, size, n, size).transpose(0, 2, 1, 3).reshape(-1, size, size)


def _reduce(f: np.ndarray, k: int) -> np.ndarray:
    """The fine grid averaged k x k (floor of the mean)."""
    n = FINE // k
    return (f.astype(np.int32).reshape(n, k, n, k).sum((1, 3)) // (k * k)).astype(np.int16)


def _search(
    ga: np.ndarray,
    gb: np.ndarray,
    size: int,
    ctx: int,
    centre: np.ndarray,
    radius: int,
    centre_first: bool = False,
) -> np.ndarray:
    """Per block (row-major, blocks of ``size`` cells of grids ``ga``, ``gb``; both white past
    their edges): the shift within ``radius`` of ``centre`` (nb, 2) whose SAD over the block and
    ``ctx`` cells around it is least (the first in row-major order on ties; with
    ``centre_first``, the centre shift is tried first, so two identical grids align every block
    at its centre)."""
    offsets = [(dy, dx) for dy in range(-radius, radius + 1) for dx in range(-radius, radius + 1)]
    if centre_first:
        offsets.remove((0, 0))
        offsets.insert(0, (0, 0))
    n = ga.shape[0] // size
    reach = int(np.abs(centre).max()) + radius
    m = ctx + reach + 1
    pa = np.full((ga.shape[0] + 2 * m, ga.shape[0] + 2 * m), 255, dtype=np.int16)
    pa[m:-m, m:-m] = ga
    pb = np.full_like(pa, 255)
    pb[m:-m, m:-m] = gb
    sup = size + 2 * ctx
    org = np.arange(n) * size - ctx + m
    iy = org[:, None] + np.arange(sup)[None, :]
    a = pa[iy[:, None, :, None], iy[None, :, None, :]].reshape(-1, sup, sup)
    nb = a.shape[0]
    oy = np.repeat(org, n)
    ox = np.tile(org, n)
    best = np.full(nb, np.iinfo(np.int64).max, dtype=np.int64)
    at = np.zeros((nb, 2), dtype=np.int64)
    for dy, dx in offsets:
        sy = oy + centre[:, 0] + dy
        sx = ox + centre[:, 1] + dx
        ry = sy[:, None] + np.arange(sup)[None, :]
        rx = sx[:, None] + np.arange(sup)[None, :]
        sl = pb[ry[:, :, None], rx[:, None, :]]
        sad = np.abs(a - sl).sum((1, 2), dtype=np.int64)
        better = sad < best
        best = np.where(better, sad, best)
        at[better] = np.stack([centre[:, 0] + dy, centre[:, 1] + dx], 1)[better]
    return at


def one_way_pyramid(fa: np.ndarray, fb: np.ndarray) -> dict[str, np.ndarray]:
    """Per block of ``fa`` (1024,): residuals against ``fb`` after a coarse-to-fine alignment:
    on the 128 grid (4 x 4 means) within 3 cells, the block and 4 cells around it; on the 256
    grid within 1 cell of twice that, the block and 4 cells around; on the fine grid within 1
    cell of twice that, the block alone. Residuals at that shift as ``one_way``."""
    nb = (DETAIL // BLOCK) ** 2
    q = _search(_reduce(fa, 4), _reduce(fb, 4), 4, 4, np.zeros((nb, 2), np.int64), 3)
    h = _search(_reduce(fa, 2), _reduce(fb, 2), 8, 4, 2 * q, 1)
    f = _search(fa.astype(np.int16), fb.astype(np.int16), SIZE, 0, 2 * h, 1)
    n = DETAIL // BLOCK
    m = int(np.abs(f).max()) + 2
    pad = np.full((FINE + 2 * m, FINE + 2 * m), 255, dtype=np.int16)
    pad[m:-m, m:-m] = fb
    a = _blocks(fa.astype(np.int16), SIZE)
    org = np.arange(n) * SIZE + m
    oy = np.repeat(org, n) + f[:, 0]
    ox = np.tile(org, n) + f[:, 1]
    ry = oy[:, None] - 1 + np.arange(SIZE + 2)[None, :]
    rx = ox[:, None] - 1 + np.arange(SIZE + 2)[None, :]
    nbh = pad[ry[:, :, None], rx[:, None, :]]
    d = np.abs(a - nbh[:, 1:-1, 1:-1]).astype(np.int64)
    stack = np.stack(
        [nbh[:, 1 + u : 1 + u + SIZE, 1 + v : 1 + v + SIZE] for u in (-1, 0, 1) for v in (-1, 0, 1)]
    )
    lo = stack.min(0)
    env = np.maximum(np.maximum(a - stack.max(0), lo - a), 0).astype(np.int64)
    out = {"peakp": _window_peak(d), "envp": _window_peak(env)}
    for k in (2, 3):  # ink of a where b has less than 1/k of it in the cells around
        dark = np.maximum((255 - a) - k * (255 - lo), 0).astype(np.int64)
        out[f"dark{k}"] = _window_peak(dark)
    return out


def residuals(fa: np.ndarray, fb: np.ndarray) -> dict[str, np.ndarray]:
    """Both ways, the larger; and ``ink``: whether the block holds a cell darker than 200 in
    either grid."""
    x = one_way_pyramid(fa, fb)
    y = one_way_pyramid(fb, fa)
    out = {k: np.maximum(x[k], y[k]).astype(np.int32) for k in x}
    ink = (_blocks(fa, SIZE).min((1, 2)) < 200) | (_blocks(fb, SIZE).min((1, 2)) < 200)
    out["ink"] = ink.astype(np.int32)
    out["energy"] = np.maximum(_energy(fa), _energy(fb)).astype(np.int32)
    return out


def _energy(f: np.ndarray) -> np.ndarray:
    """Per block: the sum of the absolute differences of horizontally and vertically adjacent
    cells inside it (how much edge the block holds)."""
    g = f.astype(np.int32)
    n = DETAIL // BLOCK
    dx = np.abs(np.diff(g, axis=1))
    dy = np.abs(np.diff(g, axis=0))
    ex = np.zeros((FINE, FINE), np.int32)
    ey = np.zeros((FINE, FINE), np.int32)
    ex[:, :-1] = dx
    ey[:-1, :] = dy
    ex[:, SIZE - 1 :: SIZE] = 0  # pairs that straddle two blocks
    ey[SIZE - 1 :: SIZE, :] = 0
    return (ex + ey).reshape(n, SIZE, n, SIZE).sum((1, 3)).reshape(-1)


def collect(split: str, limit: int = 0) -> None:
    items = pages_eval.build(split)
    if limit:
        items = [i for i in items if i.group < limit]
    decoded = {i.path: pages.decode_page(i.path) for i in items}
    sigs = dict(zip(decoded, pages.hash_pages(list(decoded.values()))))
    fines: dict[Path, np.ndarray] = {}

    def grid(p: Path) -> np.ndarray:
        if p not in fines:
            pv = decoded[p].preview
            g = np.frombuffer(pv.pixels, np.uint8).reshape(pv.height, pv.width)
            fines[p] = fine_grid(g)
        return fines[p]

    def look(a: Path, b: Path) -> tuple[bool, bool]:
        """(alike by the hash and the second look, kept by today's fine look)."""
        r = pages.dedupe_pages([sigs[a], sigs[b]], pages=[decoded[a], decoded[b]], fine_ratio=0)
        if r.duplicate_of[1] == 0 or r.near_check[1] == "fine":
            t = pages.dedupe_pages([sigs[a], sigs[b]], pages=[decoded[a], decoded[b]])
            return True, t.duplicate_of[1] is None
        return False, False

    rows: list[dict[str, object]] = []
    feats: dict[str, list[np.ndarray]] = {}
    groups = pages_eval.by_group(items)
    refs = {g: pages_eval.references(ms) for g, ms in groups.items()}
    pairs: list[tuple[str, pages_eval.Item, pages_eval.Item]] = []
    for g, ref in refs.items():
        for x, a in enumerate(ref):
            for b in ref[x + 1 :]:
                pairs.append(("copy", a, b))
        orig = ref[0]
        assert orig.kind == "original"
        for m in groups[g]:
            if m.kind in pages_eval.EDITS:
                pairs.append(("edit", orig, m))
    flat = [m for ref in refs.values() for m in ref]
    ham = [int.from_bytes(sigs[m.path][:32], "big") for m in flat]
    for x, a in enumerate(flat):
        for y in range(x):
            b = flat[y]
            if a.group != b.group and (ham[x] ^ ham[y]).bit_count() <= 66:
                pairs.append(("different", b, a))
    t0 = time.perf_counter()
    n_looked = 0
    for kind, a, b in pairs:
        alike, kept_today = look(a.path, b.path)
        if kind != "edit" and not alike:
            continue
        fa, fb = grid(a.path), grid(b.path)
        t1 = time.perf_counter()
        res = residuals(fa, fb)
        n_looked += 1
        for k, v in res.items():
            feats.setdefault(k, []).append(v)
        rows.append(
            {
                "kind": kind,
                "a": a.path.name,
                "b": b.path.name,
                "edit": b.kind if kind == "edit" else "",
                "alike": alike,
                "kept_today": kept_today,
                "ms": round(1000 * (time.perf_counter() - t1), 1),
            }
        )
    out = pages_eval.ROOT / f"{split}-fine-all.npz"
    np.savez_compressed(out, **{k: np.stack(v) for k, v in feats.items()}, rows=json.dumps(rows))
    print(
        f"{split}: {n_looked} pairs in {time.perf_counter() - t0:.0f} s -> {out}", file=sys.stderr
    )


def load(split: str) -> tuple[list[dict[str, object]], dict[str, np.ndarray]]:
    z = np.load(pages_eval.ROOT / f"{split}-fine-all.npz")
    rows = json.loads(str(z["rows"]))
    return rows, {k: z[k] for k in z.files if k != "rows"}


QS = (50, 75, 90, 95, 98)


def stats(r: np.ndarray, ink: np.ndarray) -> dict[str, np.ndarray]:
    """Per pair: the worst block and integer percentiles of its blocks' residuals
    (``sorted[q n / 100]``), over all 1,024 blocks (``all90``) or over the blocks with ink in
    either page (``ink90``; 0 when none has)."""
    srt = np.sort(r, 1)
    n = r.shape[1]
    out = {"max": srt[:, -1]}
    for q in QS:
        out[f"all{q}"] = srt[:, q * n // 100]
        out[f"ink{q}"] = np.zeros(r.shape[0], dtype=np.int64)
    for i in range(r.shape[0]):
        v = np.sort(r[i][ink[i] > 0])
        for q in QS:
            out[f"ink{q}"][i] = v[q * v.size // 100] if v.size else 0
    return out


def judge(st: dict[str, np.ndarray], rule: tuple[str, int, int]) -> np.ndarray:
    """``(ref, a, b)``: different when ``100 max > a (ref + b)``."""
    q, a, b = rule
    return 100 * st["max"].astype(np.int64) > a * (st[q].astype(np.int64) + b)


RULES = [
    (q, a, b)
    for q in [f"{pool}{x}" for pool in ("all", "ink") for x in QS]
    for a in (150, 200, 250, 300, 350, 400, 500, 600, 800)
    for b in (16, 32, 64, 128, 256)
]


def report(splits: list[str], feature: str) -> None:
    data = {s: load(s) for s in splits}
    for s, (rows, f) in data.items():
        kinds = np.array([r["kind"] for r in rows])
        alike = np.array([r["alike"] for r in rows])
        today = np.array([r["kept_today"] for r in rows])
        ed = kinds == "edit"
        print(
            f"{s}: pairs copy {int((kinds == 'copy').sum())}, edit {int(ed.sum())} "
            f"(alike {int((ed & alike).sum())}), different {int((kinds == 'different').sum())}; "
            f"edits kept today {int((ed & (~alike | today)).sum())}/{int(ed.sum())}, ms/pair "
            f"{np.median([r['ms'] for r in rows]):.0f}"
        )
        st = stats(f[feature], f["ink"])
        for k in ("copy", "edit", "different"):
            m = kinds == k
            if k == "edit":
                m = m & alike
            if m.any():
                ratio = 100 * st["max"][m] / (st["all90"][m] + 64)
                worst = np.argsort(-ratio)[:3] if k == "copy" else np.argsort(ratio)[:3]
                names = [f"{rows[i]['a']}/{rows[i]['b']}" for i in np.flatnonzero(m)[worst]]
                print(
                    f"  {k}: max p50/p100 {int(np.median(st['max'][m]))}/{int(st['max'][m].max())};"
                    f" all90 p50/p100 {int(np.median(st['all90'][m]))}/{int(st['all90'][m].max())};"
                    f" extreme ratios {[round(float(x)) for x in ratio[worst]]} {names}"
                )
    print("rule (ref, a, b): per set copies kept apart / edits kept / edits / different kept apart")
    table = []
    sts = {s: stats(f[feature], f["ink"]) for s, (_, f) in data.items()}
    for rule in RULES:
        line = []
        tot_copy = tot_edit = n_edit = 0
        worst_edit = 1.0
        for s, (rows, _) in data.items():
            kinds = np.array([r["kind"] for r in rows])
            alike = np.array([r["alike"] for r in rows])
            d = judge(sts[s], rule)
            c = int((d & (kinds == "copy")).sum())
            ed = kinds == "edit"
            e = int((ed & (~alike | d)).sum())
            df = int((d & (kinds == "different")).sum())
            line.append(f"{c}/{e}/{int(ed.sum())}/{df}")
            tot_copy += c
            tot_edit += e
            n_edit += int(ed.sum())
            worst_edit = min(worst_edit, e / max(1, int(ed.sum())))
        table.append((tot_copy, -tot_edit, rule, line, tot_edit / max(1, n_edit), worst_edit))
    table.sort(key=lambda t: (t[0], t[1]))
    for tot_copy, _, rule, line, rate, worst in table[:40]:
        print(f" {rule}: copies apart {tot_copy}, edits {rate:.3f} (worst set {worst:.3f}) {line}")


def one_rule(splits: list[str], feature: str, rule: tuple[str, int, int]) -> None:
    """Per set: the pairs of copies and of different pages the rule keeps apart, the edits
    kept (by kind; today's kernel beside), the worst pairs of copies and the edits missed."""
    for s in splits:
        rows, f = load(s)
        st = stats(f[feature], f["ink"])
        d = judge(st, rule)
        ratio = 100 * st["max"] / (st[rule[0]] + rule[2])
        kinds = np.array([r["kind"] for r in rows])
        alike = np.array([r["alike"] for r in rows])
        today = np.array([r["kept_today"] for r in rows])
        copy, diff, ed = kinds == "copy", kinds == "different", kinds == "edit"
        kept: dict[str, list[int]] = {}
        for i in np.flatnonzero(ed):
            k = kept.setdefault(str(rows[i]["edit"]), [0, 0, 0])
            k[0] += bool(~alike[i] | d[i])
            k[1] += bool(~alike[i] | today[i])
            k[2] += 1
        n_new = sum(v[0] for v in kept.values())
        n_today = sum(v[1] for v in kept.values())
        n = sum(v[2] for v in kept.values())
        worst = np.argsort(-np.where(copy, ratio, -1))[:3]
        print(
            f"{s}: copies apart {int((d & copy).sum())}/{int(copy.sum())}, different apart "
            f"{int((d & diff).sum())}/{int(diff.sum())}, edits kept {n_new}/{n} "
            f"({n_new / max(1, n):.3f}; today {n_today}/{n}, {n_today / max(1, n):.3f}) by kind "
            f"(new, today, of) {kept}"
        )
        print(
            "  worst copies (100 max / (ref + b)):",
            [(rows[i]["a"], rows[i]["b"], round(float(ratio[i]))) for i in worst],
        )
        missed = np.flatnonzero(ed & alike & ~d)
        print(
            "  edits missed (max, ref):",
            [(rows[i]["b"], int(st["max"][i]), int(st[rule[0]][i])) for i in missed],
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("collect", "rules"))
    parser.add_argument("splits", nargs="+", choices=sorted(pages_eval.SETS))
    parser.add_argument("--feature", default="peakp", help="the residual the rules read")
    parser.add_argument(
        "--rule", help="REF,A,B: one rule's results per set (ink75,500,16), not the table"
    )
    parser.add_argument("--pages", type=int, default=0, help="collect: the first N pages only")
    args = parser.parse_args()
    if args.what == "collect":
        for s in args.splits:
            if s == "heldout5":
                sys.exit("heldout5 is held back: score it with scripts/pages_eval.py once")
            collect(s, args.pages)
    else:
        if args.rule:
            q, a, b = args.rule.split(",")
            one_rule(args.splits, args.feature, (q, int(a), int(b)))
        else:
            report(args.splits, args.feature)


if __name__ == "__main__":
    main()
