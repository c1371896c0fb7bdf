"""Train the fallback model that ``briefpack.route`` uses when no rule fires.

    python scripts/train_routing.py            # cross-validate the threshold, train, write
    python scripts/train_routing.py --check    # retrain and compare with the shipped weights
    python scripts/train_routing.py --sweep    # only print the cross-validated threshold sweep
    python scripts/train_routing.py --table    # the sweep, then per language and kind

Training rows (kind, question), every one labelled in this repository and all of them
development data (nothing here is a held-out measure):

* ``tests/data/routing_train_{en,de,fr,es}.tsv``, splits ``train`` and ``dev`` (written for
  the model by the rules' author);
* the author's sets ``routing_en.tsv`` and ``routing_de.tsv`` (rows without a corpus);
* blind sets 1 and 2 (``routing_blind1_en.tsv``, ``routing_blind2_en.tsv``);
* the four-language blind sets 3 and 4 (``routing_blind_2026-12-01.jsonl``,
  ``routing_blind2_2026-12-01.jsonl``, by independent authors, each scored once and development
  data since), with the labels of ``CONVENTION`` replaced: blind set 3's author counts "What's
  new in release 5.1?" as recency, this repository (and the other blind authors) as a lookup of
  that release's notes.

The threshold written into the weights is chosen by ``FOLDS``-fold cross-validation over those
rows: each fold's rows are scored by a model trained on the other folds, and the threshold is
the lowest in ``THRESHOLDS`` at which rules + those out-of-fold models send at most
``MAX_FALSE_ALARM`` of the ordinary questions away, counting only those the model sent. The
shipped model is then trained on every row with that threshold.

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
MAX_FALSE_ALARM = 0.005
OPTIONS = {"epochs": 30, "rate": 0.5, "l2": 1e-4, "seed": 0}

FOLDS = 5
BLIND_3 = DATA / "routing_blind_2026-12-01.jsonl"
BLIND_4 = DATA / "routing_blind2_2026-12-01.jsonl"
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


def training_rows() -> list[Labelled]:
    """Every training row, in a fixed order."""
    rows: list[Labelled] = []
    for lang in LANGS:
        rows += _rows(DATA / f"routing_train_{lang}.tsv", lang, ("train", "dev"))
    rows += _rows(DATA / "routing_en.tsv", "en", ("dev", "held"))
    rows += _rows(DATA / "routing_de.tsv", "de", ("dev", "held"))
    rows += _rows(DATA / "routing_blind1_en.tsv", "en", ("all",))
    rows += _rows(DATA / "routing_blind2_en.tsv", "en", ("all",))
    for path in (BLIND_3, BLIND_4):
        for lang, (kind, _, _, q) in eval_routing.load_jsonl(path):
            rows.append((lang, CONVENTION.get(q, kind), q))
    return rows


def folds(rows: list[Labelled]) -> list[list[Labelled]]:
    """``rows`` dealt into ``FOLDS`` folds by position (row i to fold i mod FOLDS)."""
    return [rows[k::FOLDS] for k in range(FOLDS)]


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


def build() -> Model:
    """Choose the threshold by cross-validation, then train on every row."""
    rows = training_rows()
    print(f"{FOLDS}-fold cross-validation over {len(rows)} rows (rules, then out-of-fold models)")
    threshold = sweep(out_of_fold(rows))
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
    parser.add_argument("--out", type=Path, default=OUT, help=f"default {OUT.relative_to(ROOT)}")
    args = parser.parse_args()
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
