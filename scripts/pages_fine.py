"""Tuning the fine look: its two scores on the pairs of real pages the second look finds alike.

    python scripts/pages_fine.py tune heldout3     # any sets of scripts/pages_eval.py

For every pair of one page's copies (original included) that the hash and the second look find
alike, every edit they drop, and every pair of different pages they find alike, the fine look's
``(top, reference)`` (``docs/pages.md``) is read from the kernel (``fine_ratio=0``: every pair
that reaches the fine look is then kept by it, with its scores in ``near_look``). It prints each
kind's worst cases and, for some values of ``fine_ratio``, the pairs of copies it would keep
apart, and the edits (against their original) and the pairs of different pages it keeps.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pages_eval
from briefpack import pages


def features(split: str) -> dict[str, list[tuple[int, int, str]]]:
    items = pages_eval.build(split)
    decoded = {i.path: pages.decode_page(i.path) for i in items}
    sigs = dict(zip(decoded, pages.hash_pages(list(decoded.values()))))

    def look(a: Path, b: Path) -> tuple[bool, tuple[int, int] | None]:
        """(alike by the hash and the second look, the fine look's scores when it ran)."""
        r = pages.dedupe_pages([sigs[a], sigs[b]], pages=[decoded[a], decoded[b]], fine_ratio=0)
        if r.duplicate_of[1] == 0:  # alike at the fine look too (its scores are 0)
            return True, (0, 0)
        if r.near_check[1] == "fine":
            lk = r.near_look[1]
            assert lk is not None
            return True, (lk[1], lk[2])
        return False, None

    out: dict[str, list[tuple[int, int, str]]] = {"copy": [], "edit": [], "different": []}
    groups = pages_eval.by_group(items)
    refs = {g: pages_eval.references(ms) for g, ms in groups.items()}
    for g, ref in refs.items():
        for x, a in enumerate(ref):
            for b in ref[x + 1 :]:
                alike, f = look(a.path, b.path)
                if alike and f:
                    out["copy"].append((*f, f"{a.path.name} / {b.path.name}"))
        for m in groups[g]:
            if m.kind in pages_eval.EDITS:
                for a in ref:  # the edit against each copy the kernel would drop it for
                    alike, f = look(a.path, m.path)
                    if alike and f:
                        out["edit"].append((*f, f"{m.path.name} / {a.path.name}"))
    flat = [(g, m) for g, ref in refs.items() for m in ref]
    ham = [int.from_bytes(sigs[m.path][:32], "big") for _, m in flat]
    for x, (ga, a) in enumerate(flat):
        for y in range(x):
            gb, b = flat[y]
            if ga != gb and (ham[x] ^ ham[y]).bit_count() <= pages.DEFAULT_MAX_DISTANCE:
                alike, f = look(b.path, a.path)
                if alike and f:
                    out["different"].append((*f, f"{a.path.name} / {b.path.name}"))
    return out


def different(top: int, ref: int, ratio: int) -> bool:
    return 100 * top > ratio * (ref + 256)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("splits", nargs="+", choices=sorted(pages_eval.SETS))
    parser.add_argument("--dump", type=Path, help="write the scores to this JSON file")
    args = parser.parse_args()
    res = {s: features(s) for s in args.splits}
    if args.dump:
        args.dump.write_text(json.dumps(res))
    for s, f in res.items():
        print(s, {k: len(v) for k, v in f.items()})
        for k, v in f.items():
            by_ratio = sorted(v, key=lambda t: -t[0] / (t[1] + 256))[:5]
            by_ref = sorted(v, key=lambda t: -t[1])[:5]
            print(
                f" {k} largest ratio:", [(a, b, round(a / (b + 256), 2), n) for a, b, n in by_ratio]
            )
            print(f" {k} largest reference:", [(a, b, n) for a, b, n in by_ref])
        originals = [(a, b) for a, b, n in f["edit"] if n.endswith("-original.png")]
        for ratio in (300, 320, 350, 370, 400):
            lost = sum(different(a, b, ratio) for a, b, _ in f["copy"])
            edits = sum(different(a, b, ratio) for a, b in originals)
            diff = sum(different(a, b, ratio) for a, b, _ in f["different"])
            print(
                f"  fine_ratio {ratio}: copy pairs kept apart {lost}/{len(f['copy'])}, edits "
                f"kept {edits}/{len(originals)}, different pairs kept {diff}/{len(f['different'])}"
            )


if __name__ == "__main__":
    main()
