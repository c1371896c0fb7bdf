"""Measure briefpack against the reference and its peers side by side; write benches/RESULTS.md.

Every row is timed in this one run, on this machine, as the median of several repeats (after a
warm-up), so the ratios compare like with like. Peers that are not installed are left out and
the report says so. Run from the repository root after a release build:

    maturin develop --release   # or: pip install -e .
    python benches/report.py            # about fifteen minutes on 2 cores
    python benches/report.py --quick    # smaller sizes, for a smoke run

The workloads come from ``benches/workload.py``: real passages from ``../shared/corpus`` when it
is there (else generated text), with ~10% exact copies, ~10% near copies and ~20% overlapping
windows.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import briefpack as bp
import briefpack._core
import workload
from briefpack import reference
from briefpack.kernels import dedupe_cosine, dedupe_minhash
from briefpack.reference import text as ref_text

HERE = Path(__file__).resolve().parent


def median_time(
    fn: Callable[[], Any],
    *,
    repeat: int,
    warmup: int = 1,
    setup: Callable[[], Any] | None = None,
) -> tuple[float, Any]:
    """Median wall time of ``fn()`` over ``repeat`` runs (``setup()`` untimed before each), and
    its last result."""
    out = None
    for _ in range(warmup):
        if setup is not None:
            setup()
        out = fn()
    times = []
    for _ in range(repeat):
        gc.collect()
        if setup is not None:
            setup()
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def fmt(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


class Report:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str, str]] = []
        self.notes: list[str] = []
        # (candidates, inputs, cold ratio wall / CPU, warm ratio wall / CPU) of each floor row
        # and the CPU medians behind them (cold, floor, warm, dedupe alone)
        self.floors: list[
            tuple[int, str, float, float, float, float, float, float, float, float]
        ] = []
        self.v: dict[str, Any] = {}  # the figures the README's table is written from

    def add(self, work: str, ours: float, ref: float | None, peer: str, note: str = "") -> None:
        ref_s = f"{fmt(ref)} ({ref / ours:.0f}x)" if ref is not None else "–"
        self.rows.append((work, fmt(ours), ref_s, peer, note))
        print(f"{work:55s} {fmt(ours):>10s}  ref {ref_s:>18s}  {peer} {note}", flush=True)


def bench_tokens(r: Report, n: int) -> None:
    texts = [str(c["text"]) for c in workload.corpus_rows(n)]
    for enc in ("cl100k_base", "o200k_base"):
        core = bp.count_tokens  # Rust when built
        if hasattr(bp, "_core") and hasattr(bp._core, "set_token_cache_capacity"):
            bp._core.set_token_cache_capacity(0)
        t_ours, counts = median_time(lambda enc=enc, core=core: core(texts, enc), repeat=3)
        total = sum(counts)
        found: dict[str, tuple[float, int]] = {}
        peer = "; ".join(_token_peers(enc, texts, counts, t_ours, found))
        r.v[f"tokens {enc}"] = (t_ours, total, found)
        r.add(
            f"count tokens {enc}, {n:,} passages ({total / 1e6:.2f} M tokens)",
            t_ours,
            None,
            peer,
            f"{total / t_ours / 1e6:.1f} M tok/s",
        )
        if hasattr(bp, "_core") and hasattr(bp._core, "set_token_cache_capacity"):
            bp._core.set_token_cache_capacity(65536)


def _token_peers(
    enc: str,
    texts: list[str],
    counts: list[int],
    t_ours: float,
    found: dict[str, tuple[float, int]],
) -> list[str]:
    """Time each installed exact counter (a loop of single-text calls) on ``texts``: tiktoken
    (its loop beats its batch call on one thread), quicktok ``count`` (the ``bench`` extra) and
    riptoken; each entry gives its time, throughput, our speed relative to it, and mismatches
    against our counts. A missing or broken peer is reported, not fatal."""
    total = sum(counts)

    def tiktoken_counter() -> Callable[[str], int]:
        import tiktoken

        tk = tiktoken.get_encoding(enc)
        return lambda t: len(tk.encode_ordinary(t))

    def quicktok_counter() -> Callable[[str], int]:
        import quicktok

        counter: Callable[[str], int] = quicktok.get_encoding(enc).count
        return counter

    def riptoken_counter() -> Callable[[str], int]:
        import riptoken

        rt = riptoken.get_encoding(enc)
        return lambda t: len(rt.encode_ordinary(t))

    out = []
    for name, make in (
        ("tiktoken", tiktoken_counter),
        ("quicktok", quicktok_counter),
        ("riptoken", riptoken_counter),
    ):
        try:
            count = make()
            t_peer, peer_counts = median_time(
                lambda count=count: [count(t) for t in texts], repeat=3
            )
        except Exception as exc:  # a missing or broken peer is reported, not fatal
            out.append(f"{name} unavailable ({type(exc).__name__})")
            continue
        mism = sum(a != b for a, b in zip(counts, peer_counts))
        found[name] = (t_peer, mism)
        out.append(
            f"{name} {fmt(t_peer)} ({total / t_peer / 1e6:.1f} M tok/s; ours {t_peer / t_ours:.2f}x"
            f" its speed; mismatches {mism})"
        )
    return out


def _decisions_wrong(approx_kept: set[int], exact_kept: list[int]) -> int:
    return len(approx_kept.symmetric_difference(exact_kept))


def _ours_and_reference(
    kernel: str, texts: list[str], threshold: float, with_reference: bool
) -> tuple[float, Any, float | None]:
    """Time ``bp.<kernel>`` (median of 3) and, when asked, the reference once; they must agree."""
    ours, ref = getattr(bp, kernel), getattr(reference, kernel)
    t_ours, res = median_time(lambda: ours(texts, threshold), repeat=3)
    if not with_reference:
        return t_ours, res, None
    t_ref, ref_res = median_time(lambda: ref(texts, threshold), repeat=1, warmup=0)
    assert tuple(ref_res) == tuple(res), f"parity failure: {kernel}"
    return t_ours, res, t_ref


def bench_words(r: Report, limit: int | None = None) -> None:
    """Word splitting (NFKC quick check, normalisation where needed, words) on the corpus.

    Times ``_core.word_counts``: the splitting every text kernel shares, run over every text
    and counted, without building Python lists of words (``_core.words`` would mostly time
    the ``str`` objects). Checked against ``_core.words`` and, on a sample, the reference."""
    core = briefpack._core
    if not hasattr(core, "word_counts"):
        print("word splitting: this build has no _core.word_counts", flush=True)
        return
    texts = [str(c["text"]) for c in workload.corpus_rows(limit)]
    t, counts = median_time(lambda: core.word_counts(texts), repeat=7)
    sample = texts[:: max(1, len(texts) // 200)]
    assert core.word_counts(sample) == [len(ref_text.words(x)) for x in sample]
    assert counts == [len(w) for w in core.words(texts)], "parity failure: word_counts"
    size = sum(len(x.encode()) for x in texts)
    r.v["words"] = (t, size)
    r.add(
        f"split words, {len(texts):,} passages ({size / 1e6:.1f} MB, "
        f"{sum(counts) / 1e6:.1f} M words)",
        t,
        None,
        "",
        f"{size / t / 1e6:.0f} MB/s",
    )


def bench_jaccard(r: Report, sizes: list[int], ref_limit: int) -> None:
    for n in sizes:
        texts = workload.texts(n)
        t_ours, res, t_ref = _ours_and_reference("dedupe_jaccard", texts, 0.7, n <= ref_limit)
        peers = []
        try:
            from datasketch import MinHash, MinHashLSH

            def ds(texts: list[str] = texts) -> set[int]:
                lsh = MinHashLSH(threshold=0.7, num_perm=128)
                kept = set()
                for i, t in enumerate(texts):
                    m = MinHash(num_perm=128)
                    m.update_batch([w.encode() for w in set(t.lower().split())])
                    if not lsh.query(m):
                        lsh.insert(str(i), m)
                        kept.add(i)
                return kept

            t_ds, kept = median_time(ds, repeat=1, warmup=0)
            peers.append(f"datasketch {fmt(t_ds)} ({_decisions_wrong(kept, res.kept)} wrong)")
        except ImportError:
            peers.append("datasketch not installed")
        try:
            from rensa import RMinHash, RMinHashLSH

            def rs(texts: list[str] = texts) -> set[int]:
                lsh = RMinHashLSH(threshold=0.7, num_perm=128, num_bands=16)
                kept = set()
                for i, t in enumerate(texts):
                    m = RMinHash(num_perm=128, seed=42)
                    m.update(list(set(t.lower().split())))
                    if not lsh.query(m):
                        lsh.insert(i, m)
                        kept.add(i)
                return kept

            t_rs, kept = median_time(rs, repeat=3)
            r.v[f"rensa jaccard {n}"] = (t_rs, _decisions_wrong(kept, res.kept))
            peers.append(f"rensa {fmt(t_rs)} ({_decisions_wrong(kept, res.kept)} wrong)")
        except ImportError:
            peers.append("rensa not installed")
        r.add(f"jaccard dedupe 0.7, {n:,} chunks (exact)", t_ours, t_ref, "; ".join(peers))
        r.v[f"jaccard {n}"] = (t_ours, t_ref)


def bench_jaccard_serving(r: Report, sizes: list[int]) -> None:
    """Jaccard at request sizes: the kernel alone, many calls per timing (p50 of the calls)."""
    for n in sizes:
        texts = workload.texts(n)
        calls = max(1, 20_000 // n)

        def run(texts: list[str] = texts, calls: int = calls) -> Any:
            for _ in range(calls):
                out = bp._core.dedupe_jaccard(texts, 0.7)
            return out

        t, res = median_time(run, repeat=7)
        assert tuple(res) == tuple(reference.dedupe_jaccard(texts, 0.7)), "parity failure"
        size = sum(len(x.encode()) for x in texts)
        r.add(
            f"jaccard dedupe 0.7, {n:,} candidates (kernel, per request)",
            t / calls,
            None,
            "",
            f"{size / (t / calls) / 1e6:.0f} MB/s",
        )


def bench_minhash(r: Report, sizes: list[int], ref_limit: int) -> None:
    for n in sizes:
        texts = workload.texts(n)
        t_ours, res, t_ref = _ours_and_reference("dedupe_minhash", texts, 0.8, n <= ref_limit)
        r.add(
            f"minhash dedupe 0.8, 128 perms, {n:,} chunks",
            t_ours,
            t_ref,
            minhash_peer(texts, res, r.v, f"minhash {n}"),
        )


def shingle_strings(texts: list[str], k: int = 3) -> list[list[str]]:
    """Each text's ``k``-word shingles as strings, from our words (as ``dedupe_minhash``)."""
    out = []
    for w in briefpack._core.words(texts):
        k_ = min(k, len(w))
        out.append([" ".join(w[i : i + k_]) for i in range(len(w) - k_ + 1)] if w else [])
    return out


def minhash_peer(
    texts: list[str], res: Any, found: dict[str, Any], key: str, repeat: int = 5
) -> str:
    """rensa doing the same job: 128 permutations, our bands, shingles of our words.

    rensa's timed region starts from prebuilt shingle strings (kernel against kernel; ours
    starts from the raw texts); the time to build them is reported apart. Ours and rensa
    run alternately, ``repeat`` times each, so both medians see the same machine load.
    """
    try:
        from rensa import RMinHash, RMinHashLSH
    except ImportError:
        return "rensa not installed"
    from briefpack.reference.dedupe import lsh_bands

    bands, _ = lsh_bands(128, 0.8)
    t_build, shingles = median_time(lambda: shingle_strings(texts), repeat=3)

    def rs() -> set[int]:
        lsh = RMinHashLSH(threshold=0.8, num_perm=128, num_bands=bands)
        kept = set()
        for i, sh in enumerate(shingles):
            if not sh:
                continue
            m = RMinHash(num_perm=128, seed=42)
            m.update(sh)
            if not lsh.query(m):
                lsh.insert(i, m)
                kept.add(i)
        return kept

    ours: list[float] = []
    theirs: list[float] = []
    kept = rs()
    dedupe_minhash(texts, 0.8)
    for _ in range(repeat):
        t_o, _ = median_time(lambda: dedupe_minhash(texts, 0.8), repeat=1, warmup=0)
        t_r, kept = median_time(rs, repeat=1, warmup=0)
        ours.append(t_o)
        theirs.append(t_r)
    t_o, t_r = statistics.median(ours), statistics.median(theirs)
    found[key] = (t_o, t_r, t_build)
    return (
        f"alternating x{repeat}: ours {fmt(t_o)} vs rensa {fmt(t_r)} from prebuilt shingles "
        f"(ours {t_r / t_o:.2f}x rensa's speed; +{fmt(t_build)} to build the shingles); "
        f"rensa: {_decisions_wrong(kept, res.kept)} decisions differ from the reference"
    )


def numpy_gram_greedy(mat: Any, threshold: float) -> list[int]:
    """The numpy peer of cosine dedupe: normalise, one Gram matrix (BLAS), greedy in rank order."""
    import numpy as np

    x = mat / np.linalg.norm(mat, axis=1, keepdims=True)
    g = x @ x.T
    kept: list[int] = []
    for i in range(len(x)):
        if not kept or g[i, kept].max() < threshold:
            kept.append(i)
    return kept


def bench_cosine(r: Report, n: int, dim: int, ref_n: int) -> None:
    import numpy as np

    cands = workload.candidates(n, vectors=dim)
    mat = np.stack([c["vector"] for c in cands]).astype(np.float32)
    t_ours, res = median_time(lambda: dedupe_cosine(mat, 0.97), repeat=3)

    t_np, kept_np = median_time(lambda: numpy_gram_greedy(mat, 0.97), repeat=3)
    r.v["cosine"] = (n, dim, t_ours, t_np)
    small = mat[:ref_n]
    t_ref, _ = median_time(lambda: reference.dedupe_cosine(small, 0.97), repeat=1, warmup=0)
    t_ours_small, _ = median_time(lambda: dedupe_cosine(small, 0.97), repeat=3)
    r.add(
        f"cosine dedupe 0.97, {n:,} x {dim} float32",
        t_ours,
        None,
        f"numpy Gram greedy {fmt(t_np)} (ours {t_np / t_ours:.1f}x faster; same kept: "
        f"{kept_np == res.kept})",
    )
    r.add(f"cosine dedupe 0.97, {ref_n:,} x {dim} float32", t_ours_small, t_ref, "")


def _cold() -> None:
    """Empty the token-count cache (a request whose chunks were never seen before)."""
    core = getattr(bp, "_core", None)
    if core is not None and hasattr(core, "set_token_cache_capacity"):
        core.set_token_cache_capacity(0)
        core.set_token_cache_capacity(65_536)


FLOOR_QUESTION = "How do I configure the network interface?"


def _floor_configs(n: int) -> list[tuple[str, bp.Assembler, list[Any]]]:
    """The requests the floor rows time: ``n`` candidates as ``Chunk``s, and as plain dicts
    (what the CLI and JSON callers pass) with ``max_per_doc``; o200k, 12k budget, jaccard."""
    rows = workload.candidates(n)
    base = {"budget": 12_000, "tokenizer": "o200k_base", "dedupe": "jaccard"}
    return [
        ("Chunks", bp.Assembler(**base), [bp.Chunk(**c) for c in rows]),  # type: ignore[arg-type]
        ("dicts + max_per_doc=3", bp.Assembler(**base, max_per_doc=3), [dict(c) for c in rows]),
    ]


def bench_floor(r: Report, sizes: list[int], repeat: int = 9) -> None:
    """``assemble`` next to its kernel floor, alternating, one median each.

    The floor of a request is what no pipeline can avoid: the same dedupe kernel over all its
    candidates, plus a cold exact count of the sources block it ends up placing. Cold rows
    empty the count cache before each call (floor included, outside the timing); warm rows
    make the same call twice, time the second (the cache full) and compare with the dedupe
    kernel alone (the count of a recurring block is a hash). Every timing of a size runs in
    turn, ``repeat`` times, so all see the same load; each is taken as wall time and as the
    calling thread's CPU time (every kernel here runs on the calling thread, so CPU time is
    the same work without the waits that other processes on a shared machine cause).
    """
    from briefpack.prompt import SOURCE_SEPARATOR, render_source

    for n in sizes:
        configs = _floor_configs(n)
        jobs: dict[str, tuple[Callable[[], Any] | None, Callable[[], Any]]] = {}
        for name, asm, cands in configs:
            a = asm(FLOOR_QUESTION, cands)
            block = SOURCE_SEPARATOR.join(
                render_source(s.label, s.chunk, asm.options.labels) for s in a.sources
            )
            assert f"<sources>\n{block}\n</sources>" in a.user, "floor: not the placed block"
            texts = [str(c.text if isinstance(c, bp.Chunk) else c["text"]) for c in cands]

            def call(asm: bp.Assembler = asm, cands: list[Any] = cands) -> Any:
                return asm(FLOOR_QUESTION, cands)

            def floor(texts: list[str] = texts, block: str = block) -> Any:
                bp._core.dedupe_jaccard(texts, 0.7)
                return bp._core.count_tokens([block], "o200k_base")

            def floor_warm(texts: list[str] = texts) -> Any:
                return bp._core.dedupe_jaccard(texts, 0.7)

            jobs.update({f"{name} cold": (_cold, call), f"{name} floor": (_cold, floor)})
            # warm: the same call just before (untimed), so every count is in the cache
            jobs.update({f"{name} warm": (call, call), f"{name} floor warm": (None, floor_warm)})
        wall: dict[str, list[float]] = {k: [] for k in jobs}
        cpu: dict[str, list[float]] = {k: [] for k in jobs}
        for _setup, fn in jobs.values():  # warm-up
            fn()
        for _ in range(repeat if n <= 1_000 else max(3, repeat // 3)):
            for k, (setup, fn) in jobs.items():
                gc.collect()
                if setup is not None:
                    setup()
                c0, t0 = time.thread_time(), time.perf_counter()
                fn()
                wall[k].append(time.perf_counter() - t0)
                cpu[k].append(time.thread_time() - c0)
        med = {k: statistics.median(v) for k, v in wall.items()}
        mcpu = {k: statistics.median(v) for k, v in cpu.items()}
        for name, _, _ in configs:
            goal_cold = 1.3 if name == "Chunks" else 1.6
            keys = (f"{name} cold", f"{name} floor", f"{name} warm", f"{name} floor warm")
            c, f, w, fw = (med[k] for k in keys)
            cc, cf, cw, cfw = (mcpu[k] for k in keys)
            r.add(
                f"assemble vs floor, {n:,} candidates as {name}, o200k, 12k, jaccard",
                c,
                None,
                f"cold: floor {fmt(f)} (dedupe + cold count of the placed block), ratio "
                f"{c / f:.2f}x wall / {cc / cf:.2f}x CPU (goal {goal_cold}x); warm {fmt(w)} vs "
                f"dedupe alone {fmt(fw)}, ratio {w / fw:.2f}x wall / {cw / cfw:.2f}x CPU "
                "(goal 1.2x)",
                "alternating, medians",
            )
            r.floors.append((n, name, c / f, cc / cf, w / fw, cw / cfw, cc, cf, cw, cfw))


def bench_assemble(r: Report, sizes: list[int], ref_limit: int) -> None:
    q = "How do I configure the network interface?"
    for n in sizes:
        cands = [bp.Chunk(**c) for c in workload.candidates(n)]  # type: ignore[arg-type]

        def ours(cands: list[bp.Chunk] = cands) -> bp.Assembly:
            return bp.assemble(q, cands, budget=12_000, tokenizer="cl100k_base")

        t_ours, a = median_time(ours, repeat=5 if n <= 10_000 else 1, setup=_cold)
        t_warm, _ = median_time(
            lambda cands=cands: bp.assemble(q, cands, budget=12_000, tokenizer="cl100k_base"),
            repeat=5 if n <= 10_000 else 1,
        )
        t_ref = None
        if n <= ref_limit:
            t_ref, b = median_time(
                lambda cands=cands: bp.assemble(
                    q, cands, budget=12_000, tokenizer="cl100k_base", backend="python"
                ),
                repeat=1,
                warmup=0,
            )
            assert (a.system, a.user, a.fates) == (b.system, b.user, b.fates), "parity: assemble"
        r.add(
            f"assemble, {n:,} candidates, 12k budget, jaccard, edges (cold cache)",
            t_ours,
            t_ref,
            "no peer does the whole job",
            f"warm cache {fmt(t_warm)}",
        )
        r.v[f"assemble {n}"] = (t_ours, t_ref)


def bench_assemble_vectors(r: Report, n: int, dim: int) -> None:
    """The whole pipeline with cosine dedupe on numpy vectors, next to the peer's dedupe alone."""
    import numpy as np

    q = "How do I configure the network interface?"
    cands = [bp.Chunk(**c) for c in workload.candidates(n, vectors=dim)]  # type: ignore[arg-type]

    def ours() -> bp.Assembly:
        return bp.assemble(q, cands, budget=12_000, tokenizer="cl100k_base", dedupe="cosine")

    t_ours, a = median_time(ours, repeat=3, setup=_cold)
    mat = np.stack([c.vector for c in cands])

    t_np, _ = median_time(lambda: numpy_gram_greedy(mat, 0.97), repeat=3)
    r.v["assemble vectors"] = (n, dim, t_ours, t_np)
    r.add(
        f"assemble, {n:,} candidates with {dim}-d float32 vectors, cosine dedupe (cold cache)",
        t_ours,
        None,
        f"numpy Gram greedy, the dedupe alone: {fmt(t_np)} (whole assemble {t_np / t_ours:.1f}x "
        "faster)",
        f"{sum(d.reason == 'duplicate' for d in a.dropped):,} duplicates dropped",
    )


def bench_batch(r: Report, requests: int, n: int, repeat: int = 5) -> None:
    """assemble_many on 1 and 2 threads (and 2 processes): the same results, and the speedup.

    Each round runs 1 thread, 2 threads and 2 processes in turn, cold, so the three see the same
    load; the speedup is the median of the rounds' ratios (a shared machine's load moves between
    rounds more than within one). Process CPU time is printed too: the same CPU time on 2
    threads means the threads do not slow each other down, only wait (for the GIL or for the
    machine's other tenants).
    """
    reqs = [
        (f"question {s}?", [bp.Chunk(**c) for c in workload.candidates(n, seed=s)])  # type: ignore[arg-type]
        for s in range(requests)
    ]

    def many(workers: int, executor: str = "threads") -> list[bp.Assembly]:
        return bp.assemble_many(
            reqs,
            workers=workers,
            executor=executor,  # type: ignore[arg-type]
            budget=12_000,
            tokenizer="cl100k_base",
        )

    runs: dict[str, Callable[[], list[bp.Assembly]]] = {
        "1": lambda: many(1),
        "2": lambda: many(2),
        "p": lambda: many(2, "processes"),
    }
    wall: dict[str, list[float]] = {k: [] for k in runs}
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    users: dict[str, list[str]] = {}
    many(1)  # warm-up: vocabularies, imports
    for _ in range(repeat):
        for k, fn in runs.items():
            gc.collect()
            _cold()
            c0, t0 = time.process_time(), time.perf_counter()
            out = fn()
            wall[k].append(time.perf_counter() - t0)
            cpu[k].append(time.process_time() - c0)
            users[k] = [a.user for a in out]
    assert users["1"] == users["2"], "assemble_many is not deterministic"
    assert users["1"] == users["p"], "assemble_many is not deterministic"
    t1, t2, tp = (statistics.median(wall[k]) for k in runs)
    ratio = statistics.median(a / b for a, b in zip(wall["1"], wall["2"]))
    ratio_p = statistics.median(a / b for a, b in zip(wall["1"], wall["p"]))
    c1, c2 = statistics.median(cpu["1"]), statistics.median(cpu["2"])
    r.v["many"] = (requests, n, t2, ratio)
    r.add(
        f"assemble_many, {requests} requests x {n} candidates, 2 threads",
        t2,
        None,
        f"1 thread {fmt(t1)} ({requests / t1:.0f} req/s); 2 threads {requests / t2:.0f} req/s "
        f"({ratio:.2f}x); 2 processes {fmt(tp)} ({requests / tp:.0f} req/s, {ratio_p:.2f}x, "
        "with their start-up)",
        f"identical results every way; CPU time 1 thread {fmt(c1)}, 2 threads {fmt(c2)}",
    )


def bench_memory(r: Report, n: int) -> None:
    """Peak RSS of one assemble over ``n`` candidates, in a fresh process (benches/stress.py)."""
    import json
    import subprocess

    out = subprocess.run(
        [sys.executable, str(HERE / "stress.py"), "--only", "large", "--candidates", str(n)],
        capture_output=True,
        text=True,
        check=True,
    )
    res = json.loads(out.stdout.strip().splitlines()[-1])
    r.v["memory"] = (n, float(res["input_mb"]), float(res["peak_rss_mb"]))
    r.add(
        f"memory: assemble {n:,} candidates ({res['input_mb']} MB of text)",
        float(res["assemble_s"]),
        None,
        "",
        f"peak RSS {res['peak_rss_mb']} MB; {res['rss_before_mb']} MB with the input loaded, "
        "before the call",
    )


def write(r: Report, path: Path, args: argparse.Namespace) -> None:
    core = getattr(bp, "_core", None)
    lines = [
        "# briefpack benchmark results",
        "",
        f"Written by `python benches/report.py{' --quick' if args.quick else ''}` on "
        f"{time.strftime('%Y-%m-%d')}.",
        "",
        f"- machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}",
        f"- Python {platform.python_version()}, briefpack {bp.__version__}, Rust core "
        f"{'built' if core else 'missing'}",
        f"- workload: {'real corpus passages' if workload.CORPUS.is_file() else 'generated text'}"
        " with ~10% exact copies, ~10% near copies, ~20% overlapping windows",
        "- one thread per call; medians of 3-5 runs after a warm-up (reference: one run)",
        "",
        "| work | briefpack | reference (ratio) | peers | note |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {' | '.join(row)} |" for row in r.rows]
    lines += [
        "",
        "What these numbers do not show: tail latency under concurrent load, the cold-start "
        "cost of loading the vocabularies (paid once per process), and run-to-run variance: on "
        "a shared 2-core machine two runs of this script can differ by a third, so compare the "
        "ratios within one run. Memory is the one row measured in a fresh process "
        "(`benches/stress.py`). Every briefpack result above was checked equal to the "
        "reference where the reference ran (parity failures found: 0; the script stops on the "
        "first).",
        *r.notes,
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {path}")


def _ms(seconds: float) -> str:
    """A time for the README's table: ms below a second, else s."""
    return f"{seconds * 1e3:.3g} ms" if seconds < 1 else f"{seconds:.2f} s"


def readme_table(r: Report) -> list[str]:
    """The README's numbers table, from this run's figures (rows whose figures are missing
    are left out)."""
    v = r.v
    rows = [
        "| work (x86_64, 2 cores, one thread per call) | briefpack (Rust) | reference (pure "
        "Python) | peer |",
        "|---|---|---|---|",
    ]
    encs = ("cl100k_base", "o200k_base")
    if all(f"tokens {e}" in v for e in encs):
        tok = [v[f"tokens {e}"] for e in encs]
        mism = sum(t[2].get(p, (0, 0))[1] for t in tok for p in ("tiktoken", "quicktok"))
        peers = "; ".join(
            f"{p} {' / '.join(_ms(t[2][p][0]) for t in tok)}"
            for p in ("tiktoken", "quicktok")
            if all(p in t[2] for t in tok)
        )
        rows.append(
            f"| count tokens, cl100k / o200k, 10k passages ({tok[0][1] / 1e6:.1f} M tokens), "
            f"{mism} mismatches | {' / '.join(_ms(t[0]) for t in tok)} "
            f"({' / '.join(f'{t[1] / t[0] / 1e6:.1f}' for t in tok)} M tok/s) | – | {peers} |"
        )
    sizes = [n for n in (1_000, 10_000, 100_000) if f"jaccard {n}" in v]
    if sizes:
        ref = v[f"jaccard {sizes[0]}"][1]
        rensa = [v[f"rensa jaccard {n}"] for n in sizes if f"rensa jaccard {n}" in v]
        peer = (
            f"rensa MinHash-LSH {' / '.join(_ms(t) for t, _ in rensa)}, with "
            f"{' / '.join(f'{w:,}' for _, w in rensa)} wrong decisions"
            if len(rensa) == len(sizes)
            else "–"
        )
        rows.append(
            f"| exact Jaccard dedupe 0.7, {' / '.join(f'{n // 1000}k' for n in sizes)} chunks | "
            f"{' / '.join(_ms(v[f'jaccard {n}'][0]) for n in sizes)} | "
            f"{_ms(ref) + f' ({sizes[0] // 1000}k)' if ref else '–'} | {peer} |"
        )
    if "minhash 10000" in v:
        ours, theirs, build = v["minhash 10000"]
        rows.append(
            f"| MinHash + LSH 0.8, 128 permutations, 10k chunks, from text | {_ms(ours)} | – | "
            f"rensa {_ms(theirs)} from prebuilt shingles + {_ms(build)} to build them |"
        )
    if "cosine" in v:
        n, dim, ours, np_ = v["cosine"]
        rows.append(
            f"| cosine dedupe 0.97, {n // 1000}k x {dim} float32 | {_ms(ours)} | – | numpy Gram "
            f"matrix + greedy {_ms(np_)} |"
        )
    if "assemble 200" in v and "assemble 1000" in v:
        a, b = v["assemble 200"], v["assemble 1000"]
        ref = f"{_ms(a[1])} / {_ms(b[1])}" if a[1] and b[1] else "–"
        rows.append(
            "| `assemble`, 200 / 1,000 candidates, 12k budget, cold count cache | "
            f"{_ms(a[0])} / {_ms(b[0])} | {ref} | – |"
        )
    if r.floors:
        for kind, cold_goal in (("Chunks", 1.3), ("dicts + max_per_doc=3", 1.6)):
            got = [f for f in r.floors if f[1] == kind]
            sizes_ = " / ".join(f"{f[0]:,}" for f in got)
            rows.append(
                f"| `assemble` over its kernel floor (dedupe + cold count of the placed block), "
                f"{sizes_} candidates as {kind}, cold; warm over the dedupe alone | "
                f"{' / '.join(f'{f[3]:.2f}x' for f in got)} cold; "
                f"{' / '.join(f'{f[5]:.2f}x' for f in got)} warm (CPU time; goals "
                f"{cold_goal}x / 1.2x) | – | – |"
            )
    if "assemble 100000" in v and "memory" in v:
        n, mb, rss = v["memory"]
        rows.append(
            f"| `assemble`, {n // 1000}k candidates ({mb:.0f} MB of text) | "
            f"{_ms(v['assemble 100000'][0])}; peak RSS {rss:.0f} MB (in a fresh process) | – | – |"
        )
    if "assemble vectors" in v:
        n, dim, ours, np_ = v["assemble vectors"]
        rows.append(
            f"| `assemble`, {n // 1000}k candidates with {dim}-d vectors, cosine | {_ms(ours)} | "
            f"– | numpy's dedupe alone {_ms(np_)} |"
        )
    if "many" in v:
        reqs, n, t2, ratio = v["many"]
        rows.append(
            f"| `assemble_many`, {reqs} requests x {n} candidates, 2 threads | {_ms(t2)} "
            f"({ratio:.2f}x one thread) | – | – |"
        )
    return rows


def write_between(path: Path, name: str, lines: list[str]) -> None:
    """Replace what stands between ``<!-- name:start -->`` and ``<!-- name:end -->``."""
    text = path.read_text(encoding="utf-8")
    start, end = f"<!-- {name}:start -->\n", f"<!-- {name}:end -->"
    a, b = text.index(start) + len(start), text.index(end)
    path.write_text(text[:a] + "\n".join(lines) + "\n" + text[b:], encoding="utf-8")
    print(f"wrote {path} ({name})")


def floor_table(r: Report) -> list[str]:
    """The floor rows as a table for docs/performance.md."""
    lines = [
        f"Measured by `python benches/report.py` on {time.strftime('%Y-%m-%d')} (o200k, 12k "
        "budget, jaccard; medians, alternating; wall / calling thread's CPU time):",
        "",
        "| candidates | inputs | cold: `assemble` / floor | warm: `assemble` / dedupe alone "
        "| CPU: cold, floor, warm, dedupe alone |",
        "|---|---|---|---|---|",
    ]
    for n, kind, cw, cc, ww, wc, *cpu in r.floors:
        times = ", ".join(fmt(t) for t in cpu)
        lines.append(
            f"| {n:,} | {kind} | {cw:.2f}x / {cc:.2f}x | {ww:.2f}x / {wc:.2f}x | {times} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--out", type=Path, default=HERE / "RESULTS.md")
    parser.add_argument(
        "--floor-only", action="store_true", help="only the assemble-vs-floor rows, printed"
    )
    parser.add_argument(
        "--json", action="store_true", help="with --floor-only: also print the rows as JSON"
    )
    args = parser.parse_args()
    r = Report()
    if args.floor_only:
        bench_floor(r, [200] if args.quick else [200, 1_000, 10_000])
        if args.json:  # for benches/compare.py
            print("FLOORS " + json.dumps(r.floors), flush=True)
        return
    if args.quick:
        bench_tokens(r, 500)
        bench_words(r, 2_000)
        bench_jaccard(r, [200], 200)
        bench_minhash(r, [200], 200)
        bench_cosine(r, 500, 256, 100)
        bench_assemble(r, [50, 200], 200)
        bench_floor(r, [200], repeat=3)
        bench_assemble_vectors(r, 500, 256)
        bench_batch(r, 8, 200)
    else:
        bench_tokens(r, 10_000)
        bench_words(r)
        bench_jaccard(r, [1_000, 10_000, 100_000], 1_000)
        bench_jaccard_serving(r, [50, 200, 1_000])
        bench_minhash(r, [1_000, 10_000], 1_000)
        bench_cosine(r, 10_000, 1024, 300)
        bench_assemble(r, [50, 200, 1_000, 10_000, 100_000], 1_000)
        bench_floor(r, [200, 1_000, 10_000])
        bench_assemble_vectors(r, 10_000, 1024)
        bench_batch(r, 64, 200)
        bench_memory(r, 100_000)
    write(r, args.out, args)
    if not args.quick and args.out == HERE / "RESULTS.md":
        write_between(HERE.parent / "README.md", "numbers", readme_table(r))
        write_between(HERE.parent / "docs" / "performance.md", "floor", floor_table(r))


if __name__ == "__main__":
    main()
