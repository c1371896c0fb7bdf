"""Precision and recall of briefpack.route's default rules on the labelled questions.

    python scripts/eval_routing.py --split dev            # while writing rules
    python scripts/eval_routing.py --split held           # once, after the rules are fixed
    python scripts/eval_routing.py --split dev --errors   # list the questions routed wrongly
    python scripts/eval_routing.py --external ../shared/corpus/passages.jsonl.gz
        # third-party questions (lines ending in "?" in a passage corpus): how many leave retrieval

Reads tests/data/routing_en.tsv and routing_de.tsv (kind, split, corpus, question). Rows marked
corpus "small" are routed with SMALL_CORPUS and BUDGET, a corpus that fits; the others without a
corpus. Prints one markdown table per language.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import briefpack as bp
from briefpack.routing import KINDS

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SMALL_CORPUS = [
    "Parental leave is 14 weeks in Germany.",
    "The relocation cap for Berlin is 4000 EUR.",
    "SSO is included in the Pro and Enterprise plans.",
    "Error 403 during sync means the API key lacks the write scope.",
]
BUDGET = 2000
TOKENIZER = "approx"


def load(lang: str) -> list[tuple[str, str, str, str]]:
    """The labelled rows of one language: (kind, split, corpus, question)."""
    rows = []
    for line in (DATA / f"routing_{lang}.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            kind, split, corpus, question = line.split("\t")
            assert kind in KINDS, line
            rows.append((kind, split, corpus, question))
    return rows


def predict(lang: str, corpus: str, question: str) -> str:
    """The kind ``route`` gives one labelled row."""
    rules = bp.ROUTE_RULE_SETS[lang]
    if corpus == "small":
        return bp.route(
            question, rules=rules, corpus=SMALL_CORPUS, budget=BUDGET, tokenizer=TOKENIZER
        ).kind
    return bp.route(question, rules=rules).kind


def evaluate(lang: str, split: str) -> dict[str, object]:
    """Per-kind precision and recall, and the false-positive rate on ordinary questions."""
    rows = [r for r in load(lang) if split == "all" or r[1] == split]
    pairs = [(kind, predict(lang, corpus, q), corpus, q) for kind, _, corpus, q in rows]
    table = {}
    for kind in KINDS:
        tp = sum(1 for want, got, _, _ in pairs if want == kind and got == kind)
        n_want = sum(1 for want, _, _, _ in pairs if want == kind)
        n_got = sum(1 for _, got, _, _ in pairs if got == kind)
        table[kind] = (n_want, n_got, tp)
    ordinary = [(w, g) for w, g, c, _ in pairs if w == "retrieve" and c == "-"]
    false_pos = sum(1 for _, g in ordinary if g != "retrieve")
    errors = [(w, g, q) for w, g, _, q in pairs if w != g]
    return {
        "table": table,
        "ordinary": (false_pos, len(ordinary)),
        "errors": errors,
        "n": len(pairs),
    }


def external(path: str) -> None:
    """Route every line ending in "?" of an en/de passage corpus; print those routed away."""
    import gzip
    import json
    import re

    questions = set()
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row.get("lang") in ("en", "de"):
                for q in re.findall(r"(?m)^[ \t]*([A-Z][^\n?]{10,150}\?)[ \t]*$", row["text"]):
                    questions.add((row["lang"], q.strip()))
    away = [(lang, q) for lang, q in sorted(questions) if predict(lang, "-", q) != "retrieve"]
    print(f"external questions routed away from retrieval: {_pct(len(away), len(questions))}")
    for lang, q in away:
        print(f"  {lang} {q}")


def _pct(num: int, den: int) -> str:
    return "n/a" if den == 0 else f"{100 * num / den:.0f}% ({num}/{den})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "held", "all"), default="dev")
    parser.add_argument("--errors", action="store_true", help="list the misrouted questions")
    parser.add_argument("--external", metavar="PASSAGES.jsonl.gz", help="see the module doc")
    args = parser.parse_args()
    if args.external:
        external(args.external)
        return
    for lang in ("en", "de"):
        res = evaluate(lang, args.split)
        print(f"\n{lang}, split {args.split}: {res['n']} questions\n")
        print("| kind | questions | precision | recall |")
        print("|---|---:|---:|---:|")
        for kind, (n_want, n_got, tp) in res["table"].items():  # type: ignore[attr-defined]
            print(f"| {kind} | {n_want} | {_pct(tp, n_got)} | {_pct(tp, n_want)} |")
        fp, n = res["ordinary"]  # type: ignore[misc]
        print(f"\nordinary questions routed away from retrieval: {_pct(fp, n)}")
        if args.errors:
            for want, got, q in res["errors"]:  # type: ignore[attr-defined]
                print(f"  want {want:<15} got {got:<15} {q}")


if __name__ == "__main__":
    main()
