"""Precision and recall of briefpack.route (rules, then the fallback model) on labelled questions.

    python scripts/eval_routing.py --split dev            # the author's sets, while writing rules
    python scripts/eval_routing.py --split held           # the author's held rows
    python scripts/eval_routing.py --split dev --errors   # list the questions routed wrongly
    python scripts/eval_routing.py --file tests/data/routing_blind1_en.tsv
        # any TSV: per-kind table, false-positive rate, confusion matrix (the language is
        # detected; --lang de forces the German rules)
    python scripts/eval_routing.py --file tests/data/routing_blind_2026-12-01.jsonl
        # JSONL, one {"question", "kind", "lang"} per line: one table per language, then all;
        # the language is detected per question (the label's "lang" is only used to group)
    python scripts/eval_routing.py --file F --model none  # rules only (or --model WEIGHTS)
    python scripts/eval_routing.py --external ../shared/corpus/passages.jsonl.gz
        # third-party questions (lines ending in "?" in a passage corpus): how many leave retrieval

The author's sets are tests/data/routing_en.tsv and routing_de.tsv (kind, split, corpus,
question). Rows marked corpus "small" are routed with SMALL_CORPUS and BUDGET, a corpus that
fits; the others without a corpus. A ``--file`` TSV has either those four columns or two
(kind, question); a line starting with "kind" is a header, lines starting with "#" are
comments. Prints one markdown table per set.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import briefpack as bp
from briefpack import routing
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

Row = tuple[str, str, str, str]
"""(kind, split, corpus, question)"""


def load_file(path: str | Path) -> list[Row]:
    """The labelled rows of a TSV with columns (kind, split, corpus, question) or (kind, question).

    A two-column row has split ``"all"`` and corpus ``"-"``.
    """
    rows = []
    text = Path(path).read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if cells[0] == "kind":
            continue  # a header
        if len(cells) == 2:
            cells = [cells[0], "all", "-", cells[1]]
        if len(cells) != 4 or cells[0] not in KINDS:
            raise SystemExit(f"{path}:{number}: expected kind[, split, corpus], question: {line!r}")
        kind, split, corpus, question = cells
        rows.append((kind, split, corpus, question))
    return rows


def load_jsonl(path: str | Path) -> list[tuple[str, Row]]:
    """The labelled rows of a JSONL file, one ``{"question", "kind", "lang"}`` per line:
    ``(lang, (kind, "all", "-", question))``."""
    import json

    out = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("kind") not in KINDS or not isinstance(row.get("question"), str):
            raise SystemExit(f"{path}:{number}: expected question, kind and lang: {line!r}")
        out.append((str(row.get("lang", "en")), (row["kind"], "all", "-", row["question"])))
    return out


def load(lang: str) -> list[Row]:
    """The author's labelled rows of one language: (kind, split, corpus, question)."""
    return load_file(DATA / f"routing_{lang}.tsv")


MODEL: object = "default"
"""The fallback model ``predict`` passes to ``route`` ("default", None or a Model)."""


def decide(lang: str, corpus: str, question: str) -> bp.Route:
    """The route of one labelled row; ``lang`` "auto" detects the language."""
    chosen = None if lang == "auto" else lang
    if corpus == "small":
        return bp.route(
            question,
            lang=chosen,
            model=MODEL,  # type: ignore[arg-type]
            corpus=SMALL_CORPUS,
            budget=BUDGET,
            tokenizer=TOKENIZER,
        )
    return bp.route(question, lang=chosen, model=MODEL)  # type: ignore[arg-type]


def predict(lang: str, corpus: str, question: str) -> str:
    """The kind ``route`` gives one labelled row."""
    return decide(lang, corpus, question).kind


def score(lang: str, rows: list[Row]) -> dict[str, object]:
    """Per-kind (wanted, routed, right) counts, the false-positive rate on ordinary questions
    (retrieve rows without a corpus routed elsewhere), the confusion matrix, the errors, and
    how many were decided by a rule, by the model and by default; ``lang`` "auto" detects."""
    routes = [decide(lang, corpus, q) for _, _, corpus, q in rows]
    pairs = [(kind, r.kind, corpus, q) for (kind, _, corpus, q), r in zip(rows, routes)]
    table = {}
    for kind in KINDS:
        tp = sum(1 for want, got, _, _ in pairs if want == kind and got == kind)
        n_want = sum(1 for want, _, _, _ in pairs if want == kind)
        n_got = sum(1 for _, got, _, _ in pairs if got == kind)
        table[kind] = (n_want, n_got, tp)
    confusion = {(w, g): 0 for w in KINDS for g in KINDS}
    for want, got, _, _ in pairs:
        confusion[want, got] += 1
    ordinary = [(w, g) for w, g, c, _ in pairs if w == "retrieve" and c == "-"]
    false_pos = sum(1 for _, g in ordinary if g != "retrieve")
    errors = [(w, g, q) for w, g, _, q in pairs if w != g]
    return {
        "table": table,
        "ordinary": (false_pos, len(ordinary)),
        "confusion": confusion,
        "errors": errors,
        "n": len(pairs),
        "right": sum(1 for w, g, _, _ in pairs if w == g),
        "decided_by": {d: sum(1 for r in routes if r.decided_by == d) for d in DECIDERS},
        "langs": [r.lang for r in routes],
    }


DECIDERS = ("rule", "model", "default")


def evaluate(lang: str, split: str) -> dict[str, object]:
    """``score`` on one split (``"dev"``, ``"held"`` or ``"all"``) of the author's set."""
    return score(lang, [r for r in load(lang) if split == "all" or r[1] == split])


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


def report(title: str, res: dict[str, object], errors: bool) -> None:
    """Print the per-kind table, the false-positive rate and the confusion matrix."""
    print(f"\n{title}: {res['n']} questions, {_pct(res['right'], res['n'])} routed as labelled\n")  # type: ignore[arg-type]
    print("| kind | questions | precision | recall |")
    print("|---|---:|---:|---:|")
    for kind, (n_want, n_got, tp) in res["table"].items():  # type: ignore[attr-defined]
        if n_want or n_got:
            print(f"| {kind} | {n_want} | {_pct(tp, n_got)} | {_pct(tp, n_want)} |")
    fp, n = res["ordinary"]  # type: ignore[misc]
    print(f"\nordinary questions routed away from retrieval: {_pct(fp, n)}")
    by: dict[str, int] = res["decided_by"]  # type: ignore[assignment]
    print("decided by: " + ", ".join(f"{d} {by[d]}" for d in DECIDERS))
    confusion: dict[tuple[str, str], int] = res["confusion"]  # type: ignore[assignment]
    used = [k for k in KINDS if any(confusion[k, o] or confusion[o, k] for o in KINDS)]
    short = {k: k[:8] for k in KINDS}
    print("\nconfusion (rows: labelled, columns: routed)\n")
    print(f"{'':<16}" + "".join(f"{short[k]:>9}" for k in used))
    for want in used:
        print(f"{want:<16}" + "".join(f"{confusion[want, got]:>9}" for got in used))
    if errors:
        print()
        for want, got, q in res["errors"]:  # type: ignore[attr-defined]
            print(f"  want {want:<15} got {got:<15} {q}")


def main() -> None:
    global MODEL
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "held", "all"), default="dev")
    parser.add_argument("--file", metavar="TSV|JSONL", help="score this labelled file instead")
    parser.add_argument(
        "--lang",
        choices=("auto", *sorted(routing.ROUTE_RULE_SETS)),
        default="auto",
        help="the rule set for a TSV --file (default auto: detect each question's language)",
    )
    parser.add_argument("--model", default="default", help="default, none, or a weights file")
    parser.add_argument("--errors", action="store_true", help="list the misrouted questions")
    parser.add_argument("--external", metavar="PASSAGES.jsonl.gz", help="see the module doc")
    args = parser.parse_args()
    if args.model == "none":
        MODEL = None
    elif args.model != "default":
        MODEL = bp.routing.Model.load(args.model)
    if args.external:
        external(args.external)
        return
    if args.file and args.file.endswith(".jsonl"):
        labelled = load_jsonl(args.file)
        langs = list(dict.fromkeys(lang for lang, _ in labelled))
        for lang in langs:
            rows = [row for code, row in labelled if code == lang]
            res = score(args.lang, rows)
            detected = sum(1 for code in res["langs"] if code == lang)  # type: ignore[attr-defined]
            report(f"{args.file}, lang {lang}", res, args.errors)
            print(f"language detected as {lang}: {_pct(detected, len(rows))}")
        report(f"{args.file}, all languages", score(args.lang, [r for _, r in labelled]), False)
        return
    if args.file:
        report(f"{args.file} ({args.lang})", score(args.lang, load_file(args.file)), args.errors)
        return
    for lang in ("en", "de"):
        report(f"{lang}, split {args.split}", evaluate(lang, args.split), args.errors)


if __name__ == "__main__":
    main()
