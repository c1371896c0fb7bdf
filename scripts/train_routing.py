"""Train the fallback model that ``briefpack.route`` uses when no rule fires.

    python scripts/train_routing.py            # train, print the dev sweep, write the weights
    python scripts/train_routing.py --check    # retrain and compare with the shipped weights
    python scripts/train_routing.py --sweep    # only print the threshold sweep on the dev split

Training rows (kind, question), every one labelled in this repository:

* ``tests/data/routing_train_{en,de,fr,es}.tsv``, split ``train`` (written for the model);
* the author's sets ``routing_en.tsv`` and ``routing_de.tsv`` (rows without a corpus);
* blind set 1 (``routing_blind1_en.tsv``, development data since the rules were revised on it);
* the four-language blind set of 2026-12-01 (``routing_blind_2026-12-01.jsonl``, 400 rows by an
  independent author, scored once and development data since), with the labels of
  ``CONVENTION`` replaced: its author counts "What's new in release 5.1?" as recency, this
  repository (and the two earlier blind authors) as a lookup of that release's notes.

The dev split (choices only: the threshold, the options) is the ``dev`` rows of the training
files and blind set 2 (``routing_blind2_en.tsv``). The threshold written into the weights is
the lowest in ``THRESHOLDS`` at which rules + model send at most ``MAX_FALSE_ALARM`` of the
dev split's ordinary questions away, counting only those the model sent.

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
MAX_FALSE_ALARM = 0.01
OPTIONS = {"epochs": 30, "rate": 0.5, "l2": 1e-4, "seed": 0}

BLIND_2026_12_01 = DATA / "routing_blind_2026-12-01.jsonl"
CONVENTION = {
    "What's new in release 5.1?": "retrieve",
    "Quoi de neuf dans la version 2.8 ?": "retrieve",
    "Was ist neu in Version 3.4?": "retrieve",
    "¿Qué hay de nuevo en la versión 6.2?": "retrieve",
}
"""Rows of the 2026-12-01 blind set whose label differs from this repository's convention
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
        rows += _rows(DATA / f"routing_train_{lang}.tsv", lang, ("train",))
    rows += _rows(DATA / "routing_en.tsv", "en", ("dev", "held"))
    rows += _rows(DATA / "routing_de.tsv", "de", ("dev", "held"))
    rows += _rows(DATA / "routing_blind1_en.tsv", "en", ("all",))
    for lang, (kind, _, _, q) in eval_routing.load_jsonl(BLIND_2026_12_01):
        rows.append((lang, CONVENTION.get(q, kind), q))
    return rows


def dev_rows() -> list[Labelled]:
    """The dev split: held back from training, used for the threshold."""
    rows: list[Labelled] = []
    for lang in LANGS:
        rows += _rows(DATA / f"routing_train_{lang}.tsv", lang, ("dev",))
    rows += _rows(DATA / "routing_blind2_en.tsv", "en", ("all",))
    return rows


def sweep(model: Model, rows: list[Labelled]) -> float:
    """Print rules + model accuracy and false alarms on ``rows`` per threshold; return the
    threshold chosen by the rule in the module doc."""
    decided = []
    for lang, kind, q in rows:
        r = bp.route(q, lang=lang, model=None)
        guess, p = model.predict(normalize(q)[: bp.routing.MAX_CHARS])
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


def build() -> Model:
    """Train on the training rows; choose the threshold on the dev rows."""
    rows = training_rows()
    model = train([(k, q) for _, k, q in rows], **OPTIONS)  # type: ignore[arg-type]
    print(f"trained on {len(rows)} rows")
    return dataclasses.replace(model, threshold=sweep(model, dev_rows()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped weights")
    parser.add_argument("--sweep", action="store_true", help="print the dev sweep only")
    parser.add_argument("--out", type=Path, default=OUT, help=f"default {OUT.relative_to(ROOT)}")
    args = parser.parse_args()
    if args.sweep:
        sweep(bp.routing.default_model(), dev_rows())
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
