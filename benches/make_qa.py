"""Turn XQuAD's English file into labelled requests for ``briefpack eval``.

Usage (from the repository root, with ``xquad.en.json`` taken from
https://github.com/google-deepmind/xquad, CC BY-SA 4.0)::

    python benches/make_qa.py xquad.en.json benches/data

writes ``xquad_en_dev.jsonl.gz`` (the even-numbered articles, 0, 2, 4, ...) and
``xquad_en_heldout.jsonl.gz`` (the odd-numbered ones). Each line is one request in the format
``briefpack.evaluate`` reads:

- ``candidates``: every chunk of the question's article, ranked by BM25 against the question
  (best first; ties keep article order). A chunk is a run of whole sentences of one paragraph,
  at most ``CHUNK_WORDS`` words (a longer sentence is a chunk of its own); its ``doc`` is the
  paragraph, its ``position`` its place in the paragraph, its ``score`` the BM25 score.
- ``evidence``: the ids of the chunks whose text contains a gold answer string (so a short
  answer such as a year can also match a chunk that mentions it by chance);
- ``answers``: the gold answer strings.

A question whose answers occur in no chunk (an answer cut by a chunk boundary) is left out and
counted on stderr. The output is deterministic (sorted JSON keys, gzip without a timestamp).
"""

from __future__ import annotations

import gzip
import json
import math
import re
import sys
from collections import Counter
from pathlib import Path

CHUNK_WORDS = 60
K1, B = 1.2, 0.75  # the usual BM25 constants

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'“(\[]?[A-Z0-9])")
_WORD = re.compile(r"\w+")


def sentences(paragraph: str) -> list[str]:
    """Split at ``.``, ``!`` or ``?`` followed by space and a capital letter or digit."""
    return [s for s in _SENTENCE_END.split(paragraph.strip()) if s]


def chunks(paragraph: str, limit: int = CHUNK_WORDS) -> list[str]:
    """Whole sentences joined greedily while the chunk stays within ``limit`` words."""
    out: list[str] = []
    current: list[str] = []
    words = 0
    for sentence in sentences(paragraph):
        n = len(sentence.split())
        if current and words + n > limit:
            out.append(" ".join(current))
            current, words = [], 0
        current.append(sentence)
        words += n
    if current:
        out.append(" ".join(current))
    return out


def terms(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def bm25(query: str, docs: list[str]) -> list[float]:
    """Okapi BM25 of ``query`` against each of ``docs``, with IDF over ``docs`` themselves:
    ``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))``,
    ``score = sum idf(t) * tf * (K1 + 1) / (tf + K1 * (1 - B + B * len / avg_len))``
    over the query's distinct terms."""
    bags = [Counter(terms(d)) for d in docs]
    lengths = [sum(b.values()) for b in bags]
    avg = sum(lengths) / len(lengths)
    df = Counter(t for b in bags for t in b)
    n = len(docs)
    scores = []
    for bag, length in zip(bags, lengths):
        s = 0.0
        for t in set(terms(query)):
            tf = bag.get(t, 0)
            if tf:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                s += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / avg))
        scores.append(s)
    return scores


def article_requests(article: dict) -> tuple[list[dict], int]:
    title = article["title"]
    pool = []
    for p, paragraph in enumerate(article["paragraphs"]):
        for k, text in enumerate(chunks(paragraph["context"])):
            pool.append(
                {
                    "id": f"{title}/p{p}/c{k}",
                    "doc": f"{title}/p{p}",
                    "position": k,
                    "title": title.replace("_", " "),
                    "text": text,
                }
            )
    requests, skipped = [], 0
    for paragraph in article["paragraphs"]:
        for qa in paragraph["qas"]:
            answers = sorted({a["text"] for a in qa["answers"]})
            evidence = [c["id"] for c in pool if any(a in c["text"] for a in answers)]
            if not evidence:
                skipped += 1
                continue
            scores = bm25(qa["question"], [c["text"] for c in pool])
            ranked = sorted(range(len(pool)), key=lambda i: -scores[i])  # stable on ties
            requests.append(
                {
                    "id": qa["id"],
                    "question": qa["question"],
                    "candidates": [{**pool[i], "score": round(scores[i], 4)} for i in ranked],
                    "evidence": evidence,
                    "answers": answers,
                }
            )
    return requests, skipped


def write_jsonl_gz(path: Path, rows: list[dict]) -> None:
    data = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write(data.encode("utf-8"))


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    source, out = Path(argv[0]), Path(argv[1])
    articles = json.loads(source.read_text(encoding="utf-8"))["data"]
    splits: dict[str, list[dict]] = {"dev": [], "heldout": []}
    skipped = 0
    for i, article in enumerate(articles):
        rows, lost = article_requests(article)
        splits["dev" if i % 2 == 0 else "heldout"].extend(rows)
        skipped += lost
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in splits.items():
        write_jsonl_gz(out / f"xquad_en_{name}.jsonl.gz", rows)
        print(f"{name}: {len(rows)} requests", file=sys.stderr)
    print(f"left out (answer in no chunk): {skipped}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
