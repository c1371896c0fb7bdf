"""Train the fallback model that ``briefpack.route`` uses when no rule fires.

    python scripts/train_routing.py            # choose the threshold, train, write
    python scripts/train_routing.py --check    # retrain and compare with the shipped weights
    python scripts/train_routing.py --loso     # leave one set out: sweep, language/kind, set
    python scripts/train_routing.py --sweep    # the 5-fold (fit) threshold sweep
    python scripts/train_routing.py --table    # the 5-fold sweep, then per language and kind

Training rows (kind, question), every one labelled in this repository and all of them
development data (nothing here is a held-out measure), grouped by who wrote them:

* the rules' author: ``tests/data/routing_train_{en,de,fr,es}.tsv`` (splits ``train`` and
  ``dev``) and the author's sets ``routing_en.tsv`` and ``routing_de.tsv`` (rows without a
  corpus);
* blind sets 1 and 2 (``routing_blind1_en.tsv``, ``routing_blind2_en.tsv``);
* the four-language blind sets 3 to 15 (``routing_blind_2026-12-01.jsonl``,
  ``routing_blind2_2026-12-01.jsonl``, ``routing_blind5_2026-12-02.jsonl``,
  ``routing_blind6_2026-12-02.jsonl``, ``routing_blind7_2026-12-03.jsonl``,
  ``routing_blind8_2026-12-07.jsonl``, ``routing_blind9_2026-12-07.jsonl``,
  ``routing_blind10_2026-12-07.jsonl``, ``routing_blind11_2026-12-07.jsonl``,
  ``routing_blind12_2026-12-07.jsonl``, ``routing_blind13_2026-12-07.jsonl``,
  ``routing_blind14_2026-12-08.jsonl``, ``routing_blind15_2026-12-08.jsonl``, by independent
  authors, each scored once and development data since), with the labels of ``CONVENTION``
  replaced: blind set 3's author counts "What's new in release 5.1?" as recency, this
  repository (and the other blind authors) as a lookup of that release's notes;
* every ``routing_train_author*.jsonl``: training rows written by further independent authors
  who saw only the label definitions.

The threshold written into the weights is chosen leaving one set out: each independent
author's set is scored by the rules and a model trained on every other set (the rules'
author's rows always among them), which estimates how the model does on an author it has not
read; the threshold is the lowest in ``THRESHOLDS`` at which those models send at most
``MAX_FALSE_ALARM`` of the held-out ordinary questions away (counting only those the model
sent; the rules' own false alarms do not depend on it). The shipped model is then trained on
every row with that threshold.

The same files give the same weights byte for byte (``briefpack.routing.train`` is seeded and
uses no randomness or parallelism beyond that seed).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import briefpack as bp  # noqa: E402
import eval_routing  # noqa: E402
from briefpack.routing import MODEL_KINDS, Model, normalize, train  # noqa: E402

DATA = ROOT / "tests" / "data"
OUT = ROOT / "python" / "briefpack" / "data" / "routing_model.bin"
LANGS = ("en", "de", "fr", "es")
THRESHOLDS = (0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)
MAX_FALSE_ALARM = 0.0025
OPTIONS = {"epochs": 30, "rate": 2.0, "l2": 1e-5, "seed": 0}

FOLDS = 5
BLIND_3 = DATA / "routing_blind_2026-12-01.jsonl"
BLIND_4 = DATA / "routing_blind2_2026-12-01.jsonl"
BLIND_5 = DATA / "routing_blind5_2026-12-02.jsonl"
BLIND_6 = DATA / "routing_blind6_2026-12-02.jsonl"
BLIND_7 = DATA / "routing_blind7_2026-12-03.jsonl"
BLIND_8 = DATA / "routing_blind8_2026-12-07.jsonl"
BLIND_9 = DATA / "routing_blind9_2026-12-07.jsonl"
BLIND_10 = DATA / "routing_blind10_2026-12-07.jsonl"
BLIND_11 = DATA / "routing_blind11_2026-12-07.jsonl"
BLIND_12 = DATA / "routing_blind12_2026-12-07.jsonl"
BLIND_13 = DATA / "routing_blind13_2026-12-07.jsonl"
BLIND_14 = DATA / "routing_blind14_2026-12-08.jsonl"
BLIND_15 = DATA / "routing_blind15_2026-12-08.jsonl"
CONVENTION = {
    "What's new in release 5.1?": "retrieve",
    "Quoi de neuf dans la version 2.8 ?": "retrieve",
    "Was ist neu in Version 3.4?": "retrieve",
    "¿Qué hay de nuevo en la versión 6.2?": "retrieve",
}
"""Rows of blind set 3 whose label differs from this repository's convention
(docs/routing.md, "What counts as recency"): what is new in one named release is a lookup."""

Labelled = tuple[str, str, str]
"""(lang, kind, question)"""


def _rows(path: Path, lang: str, splits: tuple[str, ...]) -> list[Labelled]:
    return [
        (lang, kind, q)
        for kind, split, corpus, q in eval_routing.load_file(path)
        if corpus == "-" and kind in MODEL_KINDS and (split in splits or split == "all")
    ]


def _jsonl(path: Path) -> list[Labelled]:
    return [
        (lang, CONVENTION.get(q, kind), q)
        for lang, (kind, _, _, q) in eval_routing.load_jsonl(path)
        if kind in MODEL_KINDS
    ]


def training_sets() -> dict[str, list[Labelled]]:
    """Every training row grouped by who wrote it, in a fixed order: the rules' author's rows
    first, then each independent author's set (the groups of the leave-one-set-out estimate)."""
    own: list[Labelled] = []
    for lang in LANGS:
        own += _rows(DATA / f"routing_train_{lang}.tsv", lang, ("train", "dev"))
    own += _rows(DATA / "routing_en.tsv", "en", ("dev", "held"))
    own += _rows(DATA / "routing_de.tsv", "de", ("dev", "held"))
    sets = {
        "rules author": own,
        "blind 1": _rows(DATA / "routing_blind1_en.tsv", "en", ("all",)),
        "blind 2": _rows(DATA / "routing_blind2_en.tsv", "en", ("all",)),
        "blind 3": _jsonl(BLIND_3),
        "blind 4": _jsonl(BLIND_4),
        "blind 5": _jsonl(BLIND_5),
        "blind 6": _jsonl(BLIND_6),
        "blind 7": _jsonl(BLIND_7),
        "blind 8": _jsonl(BLIND_8),
        "blind 9": _jsonl(BLIND_9),
        "blind 10": _jsonl(BLIND_10),
        "blind 11": _jsonl(BLIND_11),
        "blind 12": _jsonl(BLIND_12),
        "blind 13": _jsonl(BLIND_13),
        "blind 14": _jsonl(BLIND_14),
        "blind 15": _jsonl(BLIND_15),
    }
    for path in sorted(DATA.glob("routing_train_author*.jsonl")):
        sets["author " + path.name.split("_")[2][len("author") :]] = _jsonl(path)
    return sets


def training_rows() -> list[Labelled]:
    """Every training row, in a fixed order."""
    return [row for rows in training_sets().values() for row in rows]


def folds(rows: list[Labelled]) -> list[list[Labelled]]:
    """``rows`` dealt into ``FOLDS`` folds by position (row i to fold i mod FOLDS)."""
    return [rows[k::FOLDS] for k in range(FOLDS)]


def leave_one_set_out(
    sets: dict[str, list[Labelled]],
) -> list[tuple[str, Labelled, tuple[str, float]]]:
    """Each row of every independent author's set with the prediction of a model trained on
    every other set (the rules' author's rows are always trained on): how the model does on
    an author it has not read."""
    out = []
    for name, held in sets.items():
        if name == "rules author":
            continue
        rest = [(k, q) for other, rows in sets.items() if other != name for _, k, q in rows]
        model = train(rest, **OPTIONS)  # type: ignore[arg-type]
        out += [
            (name, row, model.predict(normalize(row[2])[: bp.routing.MAX_CHARS])) for row in held
        ]
    return out


def out_of_fold(rows: list[Labelled]) -> list[tuple[Labelled, tuple[str, float]]]:
    """Each row with the prediction of a model trained on the other folds."""
    out = []
    dealt = folds(rows)
    for k, held in enumerate(dealt):
        rest = [row for j, fold in enumerate(dealt) if j != k for row in fold]
        model = train([(kind, q) for _, kind, q in rest], **OPTIONS)  # type: ignore[arg-type]
        out += [(row, model.predict(normalize(row[2])[: bp.routing.MAX_CHARS])) for row in held]
    return out


def sweep(predicted: list[tuple[Labelled, tuple[str, float]]]) -> float:
    """Print rules + model accuracy and false alarms per threshold, given each row's model
    prediction; return the threshold chosen by the rule in the module doc."""
    decided = []
    for (lang, kind, q), (guess, p) in predicted:
        r = bp.route(q, lang=lang, model=None)
        decided.append((lang, kind, r.kind if r.decided_by == "rule" else None, guess, p))
    chosen = THRESHOLDS[-1]
    print("| threshold | right | by language | ordinary sent away (by the model) |")
    print("|---:|---:|---|---:|")
    for t in THRESHOLDS:
        right = 0
        per: dict[str, list[int]] = {lang: [0, 0] for lang in LANGS}
        ordinary = alarms = model_alarms = 0
        for lang, kind, by_rule, guess, p in decided:
            got = by_rule or (guess if guess != "retrieve" and p >= t else "retrieve")
            right += got == kind
            per[lang][0] += got == kind
            per[lang][1] += 1
            if kind == "retrieve":
                ordinary += 1
                alarms += got != "retrieve"
                model_alarms += by_rule is None and got != "retrieve"
        langs = " ".join(f"{k} {a}/{n}" for k, (a, n) in per.items() if n)
        print(
            f"| {t:.2f} | {right}/{len(decided)} | {langs} | {alarms}/{ordinary} ({model_alarms}) |"
        )
        if model_alarms <= MAX_FALSE_ALARM * ordinary and t < chosen:
            chosen = t
    print(f"\nchosen threshold: {chosen:.2f}")
    return chosen


def table(predicted: list[tuple[Labelled, tuple[str, float]]], threshold: float) -> None:
    """Print, per language, rules + model at ``threshold`` on the given predictions: routed as
    labelled, ordinary questions sent away, and recall per kind."""
    kinds = [k for k in MODEL_KINDS if k != "retrieve"]
    print("| language | routed as labelled | ordinary sent away | " + " | ".join(kinds) + " |")
    print("|---|---:|---:|" + "---:|" * len(kinds))
    tally: dict[str, dict[str, list[int]]] = {}
    for (lang, kind, q), (guess, p) in predicted:
        r = bp.route(q, lang=lang, model=None)
        by_rule = r.kind if r.decided_by == "rule" else None
        got = by_rule or (guess if guess != "retrieve" and p >= threshold else "retrieve")
        for key in (lang, "all"):
            cell = tally.setdefault(key, {}).setdefault(kind, [0, 0])
            cell[0] += got == kind
            cell[1] += 1

    def pct(a: int, n: int) -> str:
        return f"{100 * a / n:.0f}% ({a}/{n})" if n else "n/a"

    for key in (*LANGS, "all"):
        per = tally.get(key, {})
        right = sum(a for a, _ in per.values())
        n = sum(m for _, m in per.values())
        ok, ordinary = per.get("retrieve", [0, 0])
        cells = " | ".join(pct(*per.get(k, [0, 0])) for k in kinds)
        print(f"| {key} | {pct(right, n)} | {pct(ordinary - ok, ordinary)} | {cells} |")


def by_set(predicted: list[tuple[str, Labelled, tuple[str, float]]], threshold: float) -> None:
    """Print rules + model at ``threshold`` per held-out set: routed as labelled, ordinary
    questions sent away (by the rules, by the model)."""
    print("| held-out set | routed as labelled | ordinary sent away (by the model) |")
    print("|---|---:|---:|")
    tally: dict[str, list[int]] = {}
    for name, (lang, kind, q), (guess, p) in predicted:
        r = bp.route(q, lang=lang, model=None)
        by_rule = r.kind if r.decided_by == "rule" else None
        got = by_rule or (guess if guess != "retrieve" and p >= threshold else "retrieve")
        cell = tally.setdefault(name, [0, 0, 0, 0, 0])
        cell[0] += got == kind
        cell[1] += 1
        if kind == "retrieve":
            cell[2] += 1
            cell[3] += got != "retrieve"
            cell[4] += by_rule is None and got != "retrieve"
    for name, (right, n, ordinary, away, by_model) in tally.items():
        print(
            f"| {name} | {100 * right / n:.0f}% ({right}/{n}) | "
            f"{100 * away / ordinary:.1f}% ({away}/{ordinary}; {by_model}) |"
        )


def build() -> Model:
    """Choose the threshold on the leave-one-set-out predictions, then train on every row."""
    sets = training_sets()
    rows = [row for group in sets.values() for row in group]
    held = sum(len(group) for name, group in sets.items() if name != "rules author")
    print(
        f"leave-one-set-out over the {held} rows of {len(sets) - 1} independent authors' sets "
        "(rules, then a model trained on every other set)"
    )
    threshold = sweep([(row, guess) for _, row, guess in leave_one_set_out(sets)])
    model = train([(k, q) for _, k, q in rows], **OPTIONS)  # type: ignore[arg-type]
    print(f"trained on {len(rows)} rows")
    return dataclasses.replace(model, threshold=threshold)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped weights")
    parser.add_argument("--sweep", action="store_true", help="print the cross-validated sweep only")
    parser.add_argument(
        "--table", action="store_true", help="the cross-validated sweep and a per-language table"
    )
    parser.add_argument(
        "--loso",
        action="store_true",
        help="the leave-one-set-out sweep, then per language and kind, then per set",
    )
    parser.add_argument("--out", type=Path, default=OUT, help=f"default {OUT.relative_to(ROOT)}")
    args = parser.parse_args()
    if args.loso:
        loso = leave_one_set_out(training_sets())
        chosen = sweep([(row, guess) for _, row, guess in loso])
        print()
        table([(row, guess) for _, row, guess in loso], chosen)
        print()
        by_set(loso, chosen)
        return
    if args.sweep or args.table:
        predicted = out_of_fold(training_rows())
        chosen = sweep(predicted)
        if args.table:
            print()
            table(predicted, chosen)
        return
    model = build()
    data = model.to_bytes()
    if args.check:
        same = OUT.read_bytes() == data
        print("the shipped weights are " + ("reproduced byte for byte" if same else "DIFFERENT"))
        raise SystemExit(0 if same else 1)
    args.out.write_bytes(data)
    print(f"wrote {args.out} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
