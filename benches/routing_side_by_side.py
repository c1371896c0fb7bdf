"""Routing, this tree against an older one, in one process: same decisions, and the time.

    python benches/routing_side_by_side.py OLD_PYTHON_DIR [--rounds N]

``OLD_PYTHON_DIR`` is the ``python/`` directory of an older checkout (its ``briefpack`` is
copied to a temporary directory as ``briefpack_old``, so both import side by side). First
every question of ``tests/data/routing_*`` is routed by both, with language detection and
with each shipped language given: kind, rule, matched span, model kind and score, language
and reason must be equal. Then the questions of ``benches/bench_routing.py`` are timed,
alternating old and new call by call so a loaded machine slows both alike; the table gives
each one's min and median in µs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "benches"))

import bench_routing  # noqa: E402
import briefpack  # noqa: E402


def _old(python_dir: Path, into: Path) -> ModuleType:
    shutil.copytree(python_dir / "briefpack", into / "briefpack_old")
    for path in (into / "briefpack_old").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if 'files("briefpack")' in text:  # its own data files, not this tree's
            path.write_text(text.replace('files("briefpack")', 'files("briefpack_old")'), "utf-8")
    sys.path.insert(0, str(into))
    return importlib.import_module("briefpack_old")


def _questions() -> list[str]:
    out: list[str] = []
    for path in sorted((ROOT / "tests" / "data").glob("routing_*")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if path.suffix == ".tsv":
            rows = [x for x in lines if x.strip() and not x.startswith(("#", "kind\t"))]
            out += [x.split("\t")[-1] for x in rows]
        elif path.suffix == ".jsonl":
            out += [json.loads(x)["question"] for x in lines if x.strip()]
    return out


def _decision(bp: Any, question: str, lang: str | None) -> tuple[Any, ...]:
    r = bp.route(question, lang=lang)
    return (r.kind, r.rule_index, r.match, r.model_kind, r.model_score, r.lang, r.why)


def _same(a: Any, b: Any) -> bool:
    """The same path: kind, rule and span, and who decided (a retrained model's score may
    differ)."""
    return (a.kind, a.rule_index, a.match, a.decided_by) == (
        b.kind, b.rule_index, b.match, b.decided_by,
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old", type=Path, help="the python/ directory of the older tree")
    parser.add_argument("--rounds", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = _old(args.old, Path(tmp))
        questions = _questions()
        differ = [
            (q, lang)
            for q in questions
            for lang in (None, "en", "de", "fr", "es")
            if _decision(old, q, lang) != _decision(briefpack, q, lang)
        ]
        print(f"{len(questions)} questions x 5 language choices: {len(differ)} decisions differ")
        for q, lang in differ[:10]:
            print(f"  differs: {q!r} lang={lang}")
        print(f"{'case':<14}{'old min':>9}{'old med':>9}{'new min':>9}{'new med':>9}{'ratio':>7}")
        caller = {"rules": bench_routing.CALLER_RULES}
        cases = [(k, q, {}) for k, q in bench_routing.CASES.items()]
        cases += [(k, q, caller) for k, q in bench_routing.CALLER_CASES.items()]
        for (lang, path), q, kw in cases:
            times: dict[str, list[float]] = {"old": [], "new": []}
            assert _same(old.route(q, **kw), briefpack.route(q, **kw)), q
            for _ in range(args.rounds):
                for name, route in (("old", old.route), ("new", briefpack.route)):
                    start = time.perf_counter()
                    route(q, **kw)
                    times[name].append(time.perf_counter() - start)
            o, n = (sorted(times[k]) for k in ("old", "new"))
            om, nm = statistics.median(o) * 1e6, statistics.median(n) * 1e6
            row = f"{lang + '-' + path:<14}{o[0] * 1e6:9.1f}{om:9.1f}{n[0] * 1e6:9.1f}{nm:9.1f}"
            print(f"{row}{om / nm:7.2f}")
        if differ:
            sys.exit(1)


if __name__ == "__main__":
    main()
