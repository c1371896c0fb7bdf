"""The scale-following fine look in the kernels against its numpy prototype, pair by pair.

    python scripts/pages_port_check.py tune            # every pair the fine look sees
    python scripts/pages_port_check.py tune --limit 50 # the first 50 of them

Reads the pairs of ``scripts/pages_fine_all.py``'s cache and the prototype's results with the
centre-first tie order (``scripts/pages_scale.py collect <set> --ties centre``, which writes
``<set>-scale-centre.npz``), runs the Rust kernel (``_core.page_scale_look``, one call per pair,
one core) on the same two previews, and prints the pairs whose decision, worst residual,
reference or boxes differ from the prototype's, the counts, and the kernel's median time per
pair. The held-back set ``heldout5`` is refused.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import pages_eval
import pages_fine_all as fa_mod
from briefpack import _core, pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("split", choices=sorted(pages_eval.SETS))
    parser.add_argument("--limit", type=int, default=0, help="the first N pairs only")
    args = parser.parse_args()
    if args.split == "heldout5":
        sys.exit("heldout5 is held back: score it with scripts/pages_eval.py once")
    rows, _ = fa_mod.load(args.split)
    z = np.load(pages_eval.ROOT / f"{args.split}-scale-centre.npz")
    st = fa_mod.stats(z["peakp"], z["ink"])
    proto = 100 * st["max"].astype(np.int64) > 650 * (st["ink75"].astype(np.int64) + 16)
    items = {i.path.name: i for i in pages_eval.build(args.split)}
    cache: dict[str, tuple[int, int, bytes]] = {}

    def preview(name: str) -> tuple[int, int, bytes]:
        if name not in cache:
            if len(cache) > 64:
                cache.clear()
            pv = pages.decode_page(items[name].path).preview
            cache[name] = (pv.width, pv.height, pv.pixels)
        return cache[name]

    times: list[float] = []
    n = same = 0
    kinds: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        if not r["alike"]:
            continue
        if args.limit and n >= args.limit:
            break
        pa, pb = preview(str(r["a"])), preview(str(r["b"]))
        t0 = time.perf_counter()
        got = _core.page_scale_look([pa, pb])
        times.append(time.perf_counter() - t0)
        n += 1
        different, worst, ref, fitted, refined, ua, ub, res, _ = got
        b = z["boxes"][i]
        agree = bool(different) == bool(proto[i])
        same += agree
        k = kinds.setdefault(str(r["kind"]), [0, 0, 0])
        k[0] += 1
        k[1] += agree
        k[2] += bool(different)
        boxes_same = list(refined) == b[4:8].tolist() and list(ua) + list(ub) == b[8:].tolist()
        res_same = list(res) == z["peakp"][i].tolist()
        if not agree or not boxes_same or not res_same:
            print(
                f"{r['kind']} {r['a']}/{r['b']}: kernel {different} ({worst}, {ref}), "
                f"prototype {bool(proto[i])} ({int(st['max'][i])}, {int(st['ink75'][i])}); "
                f"boxes {'same' if boxes_same else f'{refined} {ua} {ub} vs {b[4:].tolist()}'}; "
                f"residuals {'same' if res_same else 'differ'}; fitted {fitted} vs "
                f"{int(z['used'][i])}"
            )
    print(
        f"{args.split}: {n} pairs, decisions agree {same}/{n}; by kind (pairs, agree, kept "
        f"apart) {kinds}; kernel ms/pair median {1000 * float(np.median(times)):.1f}"
    )


if __name__ == "__main__":
    main()
