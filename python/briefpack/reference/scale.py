"""The scale-following fine look (reference kernel, pure Python, integers only).

The specification is the Rust module doc of ``src/pages/scale.rs``; this module computes the
same boxes, residuals and decision step by step (the step numbers are that doc's):

1. search: each block's least-SAD shift around a centre, the centre first on ties, then the
   other shifts row-major; grids are white (255) past their edges;
2. coarse to fine: the grids averaged 4 x 4 (blocks of 4, context 4, within 3), 2 x 2 (8, 4,
   within 1 of twice that), the fine grid (16, 0, within 1 of twice that);
3. the blocks with ink (a cell below ``INK_CELL``) in both fine grids and an edge energy of at
   least ``MIN_ENERGY`` in the first;
4. per axis the least-squares line ``shift = e0 + e1 u + e2 v`` (``u``, ``v`` twice a block
   centre less 256, own axis and other), exact by Cramer's rule, refitted twice without the
   blocks more than ``REJECT`` cells off it;
5. the second page's box from the fit (each edge rounded half up), guarded to sides within a
   factor 2 and edges within one image side of the image;
6. each edge moved by at most ``REACH`` pixels to the nearest ink profile (exact rational
   costs, the fitted box on ties);
7. the first page's box grown to hold the second's own box carried back, and carried over;
8. both grids on those boxes (white past the image), the fine rows and columns past either
   image white in both;
9. residuals: per block, both ways, the largest 4 x 4 window of differences at its
   coarse-to-fine shift;
10. different when ``100 worst > SCALE_RATIO (reference + SCALE_BIAS)``, ``reference`` the
    ``75 n // 100``-th smallest residual of the ``n`` ink blocks.
"""

from __future__ import annotations

from operator import sub

__all__ = ["MIN_FIT", "SCALE_BIAS", "SCALE_RATIO", "look"]

FINE = 512  # reference.pages' fine grid side and residual window (a test holds them equal)
PEAK = 4

SIZE = 16
NB = FINE // SIZE
INK_CELL = 200
MIN_ENERGY = 2000
REJECT = 2
MIN_FIT = 8
REACH = 2
SCALE_RATIO = 650
SCALE_BIAS = 16
SCALE_PERCENTILE = 75
PAD = 16
MAX_PIXELS = 1 << 31

Box = tuple[int, int, int, int]


def _overlaps(k: int, length: int) -> list[tuple[int, int]]:
    """The pixels (of a side of ``length``) that fine cell ``k`` overlaps, with the overlap in
    ``1 / FINE`` pixel units (as ``reference.pages``' fine grid)."""
    lo, hi = k * length, (k + 1) * length
    return [
        (p, min(hi, (p + 1) * FINE) - max(lo, p * FINE)) for p in range(lo // FINE, -(-hi // FINE))
    ]


class _Padded:
    """A square grid with ``PAD`` white cells around it."""

    def __init__(self, grid: bytes, side: int) -> None:
        full = side + 2 * PAD
        out = bytearray(b"\xff" * (full * full))
        for r in range(side):
            at = (r + PAD) * full + PAD
            out[at : at + side] = grid[r * side : (r + 1) * side]
        self.side = side
        self.full = full
        self.data = bytes(out)

    def row(self, y: int, x: int, n: int) -> bytes:
        at = (y + PAD) * self.full + x + PAD
        return self.data[at : at + n]


def _reduce(f: bytes, k: int) -> bytes:
    n = FINE // k
    out = bytearray(n * n)
    kk = k * k
    for i in range(n):
        rows = [f[(i * k + y) * FINE : (i * k + y + 1) * FINE] for y in range(k)]
        for j in range(n):
            out[i * n + j] = sum(sum(r[j * k : j * k + k]) for r in rows) // kk
    return bytes(out)


def _search(
    x: _Padded, y: _Padded, size: int, ctx: int, centres: list[tuple[int, int]], radius: int
) -> list[tuple[int, int]]:
    n = x.side // size
    sup = size + 2 * ctx
    offsets = [(0, 0)] + [
        (dy, dx)
        for dy in range(-radius, radius + 1)
        for dx in range(-radius, radius + 1)
        if (dy, dx) != (0, 0)
    ]
    out = []
    for bi in range(n):
        for bj in range(n):
            cy, cx = centres[bi * n + bj]
            oy, ox = bi * size - ctx, bj * size - ctx
            rows = [x.row(oy + r, ox, sup) for r in range(sup)]
            best = -1
            at = (cy, cx)
            for dy, dx in offsets:
                by, bx = oy + cy + dy, ox + cx + dx
                total = 0
                for r, ra in enumerate(rows):
                    total += sum(map(abs, map(sub, ra, y.row(by + r, bx, sup))))
                if best < 0 or total < best:
                    best, at = total, (cy + dy, cx + dx)
            out.append(at)
    return out


def _pyramid(x: bytes, y: bytes) -> list[tuple[int, int]]:
    nb = NB * NB
    q = _search(
        _Padded(_reduce(x, 4), FINE // 4), _Padded(_reduce(y, 4), FINE // 4), 4, 4, [(0, 0)] * nb, 3
    )
    h = _search(
        _Padded(_reduce(x, 2), FINE // 2),
        _Padded(_reduce(y, 2), FINE // 2),
        8,
        4,
        [(2 * a, 2 * b) for a, b in q],
        1,
    )
    return _search(_Padded(x, FINE), _Padded(y, FINE), SIZE, 0, [(2 * a, 2 * b) for a, b in h], 1)


def _block_min(g: bytes) -> list[int]:
    out = [255] * (NB * NB)
    for r in range(FINE):
        base = (r // SIZE) * NB
        for bj in range(NB):
            m = min(g[r * FINE + bj * SIZE : r * FINE + bj * SIZE + SIZE])
            if m < out[base + bj]:
                out[base + bj] = m
    return out


def _energy(g: bytes) -> list[int]:
    out = [0] * (NB * NB)
    for r in range(FINE):
        row = g[r * FINE : (r + 1) * FINE]
        below = g[(r + 1) * FINE : (r + 2) * FINE] if r % SIZE != SIZE - 1 else None
        base = (r // SIZE) * NB
        for bj in range(NB):
            cells = row[bj * SIZE : (bj + 1) * SIZE]
            e = sum(map(abs, map(sub, cells[:-1], cells[1:])))
            if below is not None:
                e += sum(map(abs, map(sub, cells, below[bj * SIZE : (bj + 1) * SIZE])))
            out[base + bj] += e
    return out


def _det3(m: list[list[int]]) -> int:
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


def _fit_axis(
    target: list[int], own: list[int], other: list[int], selected: list[bool]
) -> tuple[tuple[int, int, int], list[bool]]:
    m = list(selected)
    line = (0, 0, 1)
    for _ in range(3):
        if sum(m) < MIN_FIT:
            line = (0, 0, 1)
            break
        g = [[0] * 3 for _ in range(3)]
        rhs = [0] * 3
        for k in range(len(m)):
            if m[k]:
                row = (1, own[k], other[k])
                for a in range(3):
                    for b in range(3):
                        g[a][b] += row[a] * row[b]
                    rhs[a] += row[a] * target[k]
        d = _det3(g)
        if d == 0:
            line = (0, 0, 1)
            break
        n = []
        for j in range(3):
            gj = [list(r) for r in g]
            for a in range(3):
                gj[a][j] = rhs[a]
            n.append(_det3(gj))
        if d < 0:
            d, n = -d, [-v for v in n]
        line = (n[0], n[1], d)
        m = [
            selected[k]
            and abs(target[k] * d - (n[0] + n[1] * own[k] + n[2] * other[k])) <= REJECT * d
            for k in range(len(m))
        ]
    return line, m


def _round_div(p: int, q: int) -> int:
    """``p / q`` rounded half up (``q > 0``)."""
    return (2 * p + q) // (2 * q)


def _fitted_box(own: Box, lines: list[tuple[int, int, int]], sides: tuple[int, int]) -> Box:
    out = list(own)
    for axis in (0, 1):
        lo, hi = own[2 * axis], own[2 * axis + 1]
        length = hi - lo
        n0, n1, d = lines[axis]
        nlo = lo + _round_div((n0 - 512 * n1) * length, 512 * d)
        nhi = max(lo + length + _round_div((n0 + 512 * n1) * length, 512 * d), nlo + 1)
        side = nhi - nlo
        img = sides[axis]
        if 2 * side < length or side > 2 * length or nlo < -img or nhi > 2 * img:
            return own
        out[2 * axis], out[2 * axis + 1] = nlo, nhi
    return out[0], out[1], out[2], out[3]


def _ink_profile(
    p: tuple[int, int, bytes], axis: int, lo: int, hi: int, across: tuple[int, int]
) -> list[int]:
    width, height, px = p
    length, n_across = (height, width) if axis == 0 else (width, height)
    c0, c1 = max(across[0], 0), min(across[1], n_across)
    out = [0] * (hi - lo)
    if c1 <= c0:
        return out
    for o, v in enumerate(range(lo, hi)):
        if v < 0 or v >= length:
            continue
        if axis == 0:
            row = px[v * width + c0 : v * width + c1]
            out[o] = 255 * len(row) - sum(row)
        else:
            col = px[c0 * width + v : c1 * width + v : width]
            out[o] = 255 * len(col) - sum(col)
    return out


def _bins(ink: list[int]) -> list[int]:
    n = len(ink)
    return [sum(w * ink[p] for p, w in _overlaps(k, n)) for k in range(FINE)]


def _refine(a: tuple[int, int, bytes], box_a: Box, b: tuple[int, int, bytes], bx: Box) -> Box:
    out = list(bx)
    for axis in (0, 1):
        o = 1 - axis
        la = box_a[2 * axis + 1] - box_a[2 * axis]
        wa = box_a[2 * o + 1] - box_a[2 * o]
        pa = _bins(
            _ink_profile(
                a, axis, box_a[2 * axis], box_a[2 * axis + 1], (box_a[2 * o], box_a[2 * o + 1])
            )
        )
        lo, hi = bx[2 * axis], bx[2 * axis + 1]
        across = (bx[2 * o], bx[2 * o + 1])
        wb = across[1] - across[0]
        inkb = _ink_profile(b, axis, lo - REACH, hi + REACH, across)
        best: tuple[int, int, int, int] | None = None
        for d0 in range(-REACH, REACH + 1):
            for d1 in range(-REACH, REACH + 1):
                length = hi + d1 - lo - d0
                if length < 2:
                    continue
                start = REACH + d0
                pb = _bins(inkb[start : start + length])
                s = sum(abs(x * la * wa - y * length * wb) for x, y in zip(pb, pa))
                if best is None:
                    better = True
                else:
                    lhs, rhs = s * best[1], best[0] * length
                    better = lhs < rhs or (lhs == rhs and d0 == 0 and d1 == 0)
                if better:
                    best = (s, length, lo + d0, hi + d1)
        assert best is not None
        out[2 * axis], out[2 * axis + 1] = best[2], best[3]
    return out[0], out[1], out[2], out[3]


def _common(box_a: Box, own: Box, new: Box) -> tuple[Box, Box]:
    ua, ub = list(box_a), list(box_a)
    for axis in (0, 1):
        lo_a, hi_a = box_a[2 * axis], box_a[2 * axis + 1]
        lo_n, hi_n = new[2 * axis], new[2 * axis + 1]
        lo_o, hi_o = own[2 * axis], own[2 * axis + 1]
        sa, sn = hi_a - lo_a, hi_n - lo_n
        lo = min(lo_a, lo_a + _round_div((lo_o - lo_n) * sa, sn))
        hi = max(hi_a, lo_a + _round_div((hi_o - lo_n) * sa, sn))
        ua[2 * axis], ua[2 * axis + 1] = lo, hi
        ub[2 * axis] = lo_n + _round_div((lo - lo_a) * sn, sa)
        ub[2 * axis + 1] = lo_n + _round_div((hi - lo_a) * sn, sa)
    return (ua[0], ua[1], ua[2], ua[3]), (ub[0], ub[1], ub[2], ub[3])


def _grid_on(p: tuple[int, int, bytes], bx: Box) -> bytes:
    width, height, px = p
    top, bottom, left, right = bx
    h, w = bottom - top, right - left
    cols = [_overlaps(j, w) for j in range(FINE)]
    area = h * w
    x0 = max(-left, 0)
    x1 = max(min(width - left, w), x0)
    white = b"\xff" * w
    out = bytearray()
    for i in range(FINE):
        colsum = [0] * w
        for y, wy in _overlaps(i, h):
            yy = top + y
            if 0 <= yy < height and x1 > x0:
                s0 = left + x0
                row = white[:x0] + px[yy * width + s0 : yy * width + s0 + (x1 - x0)] + white[x1:]
            else:
                row = white
            colsum = [c + wy * v for c, v in zip(colsum, row)]
        out += bytes(sum(wx * colsum[x] for x, wx in col) // area for col in cols)
    return bytes(out)


def _outside(bx: Box, sides: tuple[int, int]) -> list[list[bool]]:
    out = []
    for axis in (0, 1):
        lo, hi = bx[2 * axis], bx[2 * axis + 1]
        n = sides[axis]
        out.append(
            [
                lo * FINE + k * (hi - lo) < 0 or lo * FINE + (k + 1) * (hi - lo) > n * FINE
                for k in range(FINE)
            ]
        )
    return out


def _one_way(x: bytes, y: bytes) -> list[int]:
    shifts = _pyramid(x, y)
    xp, yp = _Padded(x, FINE), _Padded(y, FINE)
    out = []
    for b, (dy, dx) in enumerate(shifts):
        oy, ox = (b // NB) * SIZE, (b % NB) * SIZE
        d = [
            list(map(abs, map(sub, xp.row(oy + r, ox, SIZE), yp.row(oy + dy + r, ox + dx, SIZE))))
            for r in range(SIZE)
        ]
        # Per row, the sums of PEAK consecutive cells; then PEAK consecutive rows of those.
        h = [[sum(row[c : c + PEAK]) for c in range(SIZE - PEAK + 1)] for row in d]
        peak = 0
        for r in range(SIZE - PEAK + 1):
            for c in range(SIZE - PEAK + 1):
                s = h[r][c] + h[r + 1][c] + h[r + 2][c] + h[r + 3][c]
                if s > peak:
                    peak = s
        out.append(peak)
    return out


def look(
    a: tuple[int, int, bytes],
    box_a: Box,
    fa: bytes,
    b: tuple[int, int, bytes],
    own: Box,
    fb: bytes,
    ratio: int = SCALE_RATIO,
) -> tuple[bool, int, int, int, Box, Box, Box, list[int], list[bool]]:
    """The look at gray previews ``a``, ``b`` (``(width, height, pixels)``) with their content
    boxes and fine grids (``reference.pages.content_box``, ``fine_grid``); ``ratio`` is the
    rule's ``SCALE_RATIO`` (the dedupe's ``fine_ratio``): ``(different, worst, reference,
    fitted, refined, box_a, box_b, residuals, ink)``."""
    nb = NB * NB
    if a[0] * a[1] >= MAX_PIXELS or b[0] * b[1] >= MAX_PIXELS:
        z = (0, 0, 0, 0)
        return False, 0, 0, 0, z, z, z, [0] * nb, [False] * nb
    min_a, min_b, en = _block_min(fa), _block_min(fb), _energy(fa)
    selected = [
        min_a[k] < INK_CELL and min_b[k] < INK_CELL and en[k] >= MIN_ENERGY for k in range(nb)
    ]
    f = _pyramid(fa, fb)
    rows = [32 * (k // NB) - 497 for k in range(nb)]
    cols = [32 * (k % NB) - 497 for k in range(nb)]
    ly, my = _fit_axis([s[0] for s in f], rows, cols, selected)
    lx, mx = _fit_axis([s[1] for s in f], cols, rows, selected)
    fitted = sum(1 for k in range(nb) if selected[k] and my[k] and mx[k])
    sides_a, sides_b = (a[1], a[0]), (b[1], b[0])
    new = _fitted_box(own, [ly, lx], sides_b) if fitted >= MIN_FIT else own
    refined = _refine(a, box_a, b, new)
    ua, ub = _common(box_a, own, refined)
    ga = bytearray(fa if ua == box_a else _grid_on(a, ua))
    gb = bytearray(fb if ub == own else _grid_on(b, ub))
    ra, ca = _outside(ua, sides_a)
    rb, cb = _outside(ub, sides_b)
    white_row = b"\xff" * FINE
    dead = [c for c in range(FINE) if ca[c] or cb[c]]
    for g in (ga, gb):
        for r in range(FINE):
            if ra[r] or rb[r]:
                g[r * FINE : (r + 1) * FINE] = white_row
            else:
                for c in dead:
                    g[r * FINE + c] = 255
    ga_b, gb_b = bytes(ga), bytes(gb)
    residuals = list(map(max, _one_way(ga_b, gb_b), _one_way(gb_b, ga_b)))
    ma, mb = _block_min(ga_b), _block_min(gb_b)
    ink = [ma[k] < INK_CELL or mb[k] < INK_CELL for k in range(nb)]
    worst = max(residuals)
    inked = sorted(residuals[k] for k in range(nb) if ink[k])
    reference = inked[SCALE_PERCENTILE * len(inked) // 100] if inked else 0
    different = 100 * worst > ratio * (reference + SCALE_BIAS)
    return different, worst, reference, fitted, refined, ua, ub, residuals, ink
