"""The done-means measurement of the difference guard, through the real kernels.

    python scripts/guard_kernel_eval.py            # markdown table, every method and threshold
    python scripts/guard_kernel_eval.py cost       # the Jaccard kernel's time, guard off / on
    python scripts/guard_kernel_eval.py cost 10000 # the same at 10,000 candidates (7 rounds)
    perf record python scripts/guard_kernel_eval.py loop 1000 on 60  # the kernel alone, to profile

Runs ``briefpack.kernels.dedupe_jaccard`` and ``dedupe_minhash`` (the Rust core when built)
with ``guard=False`` and ``guard=True`` over the corpus's 14,646 English, man-page and code
passages in file (rank) order, and labels each drop by its pair in
``tests/data/guard_pairs.jsonl`` (a drop whose pair the file lacks is labelled by
``guard_pairs.label_rule``). *precision*: drops that are copies or near copies; *copies kept*:
of today's copy drops (jaccard 0.7, no guard), the share still dropped. Per split (tune,
heldback) and over both.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import guard_eval as ge
import guard_pairs as gp
from briefpack import kernels

DUP = ("copy", "near_copy")


def cost(runs: int = 21, sizes: tuple[int, ...] = (200, 1_000)) -> None:
    """Median time of the Jaccard kernel at 0.7, guard off / on, interleaved, same inputs.

    Two kinds of candidate sets over the corpus's en + code passages, 200 and 1,000 each:
    *mix*, ``benches/workload.py``'s retrieval mix (10% copies, 10% near copies, 20%
    overlapping windows) drawn from those passages (seeds 0-2), and *windows*, consecutive
    passages of the file in rank order (three windows), as the corpus holds them. Per set,
    ``runs`` rounds of off then on; the table gives the medians over all rounds and sets and
    the best of each (on a loaded machine the medians carry the other processes' stalls).
    """
    import statistics

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benches"))
    import workload  # type: ignore[import-not-found]  # benches/, put on the path above

    rows = tuple(gp.load_corpus())
    workload.corpus_rows = lambda limit=None: rows  # the mix over en + code passages only
    texts_all = [str(r["text"]) for r in rows]
    print(
        "| candidates | sets | guard off | guard on | ratio | median of per-round ratios "
        "| best off / on (ratio) | kept by the guard |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for kind in ("mix", "windows"):
        for n in sizes:
            if kind == "mix":
                sets = [[str(t) for t in workload.texts(n, seed=seed)] for seed in range(3)]
            else:
                sets = [texts_all[s : s + n] for s in (0, len(rows) // 3, 2 * len(rows) // 3)]
            off: list[float] = []
            on: list[float] = []
            ratios: list[float] = []
            saved = 0
            for texts in sets:
                res = kernels.dedupe_jaccard(texts, 0.7, guard=True)
                saved += sum(x is not None for x in res.kept_because)
                kernels.dedupe_jaccard(texts, 0.7, guard=False)
                for _ in range(runs):
                    t0 = time.perf_counter()
                    kernels.dedupe_jaccard(texts, 0.7, guard=False)
                    t1 = time.perf_counter()
                    kernels.dedupe_jaccard(texts, 0.7, guard=True)
                    t2 = time.perf_counter()
                    off.append(t1 - t0)
                    on.append(t2 - t1)
                    ratios.append((t2 - t1) / (t1 - t0))
            a, b = statistics.median(off), statistics.median(on)
            lo, hi = min(off), min(on)
            print(
                f"| {n:,} | {kind} ({len(sets)}) | {a * 1e3:.2f} ms | {b * 1e3:.2f} ms | "
                f"{b / a:.2f}x | {statistics.median(ratios):.2f}x | {lo * 1e3:.2f} / "
                f"{hi * 1e3:.2f} ms ({hi / lo:.2f}x) | {saved} |"
            )


def loop(n: int, guard: bool, reps: int) -> None:
    """Only the Jaccard kernel at 0.7 over the three mix sets of ``cost``, ``reps`` times.

    For a profiler (``perf record``): the same inputs as ``cost``'s mix rows, guard on or off,
    with nothing else in the loop; prints the mean time per set.
    """
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benches"))
    import workload  # type: ignore[import-not-found]  # benches/, put on the path above

    rows = tuple(gp.load_corpus())
    workload.corpus_rows = lambda limit=None: rows
    sets = [[str(t) for t in workload.texts(n, seed=seed)] for seed in range(3)]
    t0 = time.perf_counter()
    for _ in range(reps):
        for texts in sets:
            kernels.dedupe_jaccard(texts, 0.7, guard=guard)
    per_set = (time.perf_counter() - t0) / (reps * len(sets))
    print(f"{n:,} candidates, guard {'on' if guard else 'off'}: {per_set * 1e3:.2f} ms per set")


def main() -> int:
    if sys.argv[1:] == ["cost"]:
        cost()
        return 0
    if sys.argv[1:2] == ["cost"]:
        cost(runs=7, sizes=tuple(int(a) for a in sys.argv[2:]))
        return 0
    if sys.argv[1:2] == ["loop"] and len(sys.argv) == 5 and sys.argv[3] in ("on", "off"):
        loop(int(sys.argv[2]), sys.argv[3] == "on", int(sys.argv[4]))
        return 0
    rows = gp.load_corpus()
    texts = [str(r["text"]) for r in rows]
    ids = [str(r["id"]) for r in rows]
    labels: dict[tuple[str, str], tuple[str, str]] = {}
    for p in ge.load_pairs():
        if p["kind"] == "real":
            labels[(p["a"], p["b"])] = (p["label"], p["split"])

    def label(k: int, i: int) -> tuple[str, str]:
        got = labels.get((ids[k], ids[i]))
        if got is None:
            got = (gp.label_rule(texts[k], texts[i])[0], "unpaired")
        return got

    def drops(method: str, t: float, guard: bool) -> dict[int, tuple[str, str]]:
        fn = kernels.dedupe_jaccard if method == "jaccard" else kernels.dedupe_minhash
        res = fn(texts, t, guard=guard)
        return {i: label(k, i) for i, k in enumerate(res.duplicate_of) if k is not None}

    base = drops("jaccard", 0.7, False)
    base_copies = {i for i, (lab, _) in base.items() if lab == "copy"}
    print(
        "| method | t | drops today | precision today | drops, guard | copies | near copies | "
        "siblings | precision, guard | held-back precision | copies kept |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for method in ("jaccard", "minhash"):
        for t in gp.THRESHOLDS:
            off, on = drops(method, t, False), drops(method, t, True)

            def prec(d: dict[int, tuple[str, str]], split: str | None = None) -> str:
                lab = [x for x, s in d.values() if split is None or s == split]
                good = sum(x in DUP for x in lab)
                return f"{good / len(lab):.1%} ({good}/{len(lab)})" if lab else "-"

            lab = [x for x, _ in on.values()]
            cop, near = lab.count("copy"), lab.count("near_copy")
            kept = len(base_copies & set(on)) / len(base_copies)
            print(
                f"| {method} | {t} | {len(off)} | {prec(off)} | {len(on)} | {cop} | {near} | "
                f"{len(lab) - cop - near} | {prec(on)} | {prec(on, 'heldback')} | {kept:.1%} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
