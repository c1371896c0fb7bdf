"""Stress briefpack: large inputs, one huge chunk, many threads, many calls; report peak RSS.

    python benches/stress.py                 # everything (a few minutes on 2 cores)
    python benches/stress.py --only large    # one scenario: large | huge | threads | soak

Each scenario runs in a fresh subprocess so that its peak RSS (``ru_maxrss``) is its own, and
prints one line: what it ran, input size, wall time, peak RSS, and whether the results matched
the serial run (threads) or stayed flat (soak). Nothing here is asserted on timing.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def scenario_large(n: int) -> dict[str, object]:
    import briefpack as bp
    import workload
    from briefpack.kernels import dedupe_jaccard

    cands = workload.candidates(n)
    size = sum(len(str(c["text"]).encode()) for c in cands)
    base = rss_mb()
    t0 = time.perf_counter()
    a = bp.assemble("How do I configure the network?", cands, budget=12_000)
    t1 = time.perf_counter()
    k = dedupe_jaccard([str(c["text"]) for c in cands], 0.7)
    t2 = time.perf_counter()
    return {
        "scenario": f"assemble + dedupe_jaccard, {n:,} candidates",
        "input_mb": round(size / 2**20, 1),
        "assemble_s": round(t1 - t0, 2),
        "dedupe_jaccard_s": round(t2 - t1, 2),
        "sources": len(a.sources),
        "kept_by_jaccard": len(k.kept),
        "rss_before_mb": round(base),
        "peak_rss_mb": round(rss_mb()),
    }


def scenario_huge(mb: int) -> dict[str, object]:
    import briefpack as bp
    from briefpack.kernels import dedupe_jaccard, dedupe_minhash

    word = "context assembly budget tokens "
    text = word * (mb * 2**20 // len(word))
    base = rss_mb()
    t0 = time.perf_counter()
    n = bp.count_tokens([text])[0]
    t1 = time.perf_counter()
    a = bp.assemble("q", [text, "small chunk"], budget=12_000)
    t2 = time.perf_counter()
    dedupe_jaccard([text, text[:1000]])
    dedupe_minhash([text, text[:1000]])
    t3 = time.perf_counter()
    return {
        "scenario": f"one {mb} MB chunk",
        "tokens": n,
        "count_s": round(t1 - t0, 2),
        "assemble_s": round(t2 - t1, 2),
        "dedupe_s": round(t3 - t2, 2),
        "dropped": [d.reason for d in a.dropped],
        "rss_before_mb": round(base),
        "peak_rss_mb": round(rss_mb()),
    }


def scenario_threads(threads: int, calls: int) -> dict[str, object]:
    import briefpack as bp
    import workload

    cands = workload.candidates(300)
    serial = bp.assemble("q?", cands, budget=4000)
    mismatches = 0
    lock = threading.Lock()

    def work() -> None:
        nonlocal mismatches
        for _ in range(calls):
            got = bp.assemble("q?", cands, budget=4000)
            if (got.system, got.user) != (serial.system, serial.user):
                with lock:
                    mismatches += 1

    t0 = time.perf_counter()
    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return {
        "scenario": f"{threads} threads x {calls} assemble calls on shared inputs (300 candidates)",
        "wall_s": round(time.perf_counter() - t0, 2),
        "mismatches": mismatches,
        "peak_rss_mb": round(rss_mb()),
    }


def scenario_soak(calls: int) -> dict[str, object]:
    import briefpack as bp
    import workload

    cands = workload.candidates(50)
    samples = []
    t0 = time.perf_counter()
    for i in range(calls):
        # vary the question so the prompt changes; the chunks recur (as in serving)
        bp.assemble(f"question {i % 97}?", cands, budget=2000)
        if i % (calls // 10) == 0:
            samples.append(round(rss_mb(), 1))
    return {
        "scenario": f"{calls:,} assemble calls (50 candidates each)",
        "wall_s": round(time.perf_counter() - t0, 1),
        "rss_samples_mb": samples,
        "peak_rss_mb": round(rss_mb()),
    }


SCENARIOS = {
    "large": lambda a: scenario_large(a.candidates),
    "huge": lambda a: scenario_huge(a.mb),
    "threads": lambda a: scenario_threads(8, a.thread_calls),
    "soak": lambda a: scenario_soak(a.soak_calls),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(SCENARIOS))
    parser.add_argument("--candidates", type=int, default=100_000)
    parser.add_argument("--mb", type=int, default=10)
    parser.add_argument("--thread-calls", type=int, default=50)
    parser.add_argument("--soak-calls", type=int, default=100_000)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(SCENARIOS[args.only](args)))
        return
    for name in [args.only] if args.only else list(SCENARIOS):
        cmd = [sys.executable, __file__, "--child", "--only", name]
        cmd += ["--candidates", str(args.candidates), "--mb", str(args.mb)]
        cmd += ["--thread-calls", str(args.thread_calls), "--soak-calls", str(args.soak_calls)]
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if out.returncode:
            print(f"{name}: FAILED\n{out.stderr}")
            sys.exit(1)
        print(out.stdout.strip(), flush=True)


if __name__ == "__main__":
    main()
