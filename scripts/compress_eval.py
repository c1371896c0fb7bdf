"""Measure compression: evidence kept against tokens spent, on a single-hop and a multi-hop set.

Usage (from the repository root; the data files are not in the repository, see
docs/compression.md for where they come from)::

    python scripts/compress_eval.py --xquad xquad.en.json --hotpot dev.json test.json \\
        --split dev [--cuts 0.2,0.3,0.5] [--only fixed|budgets] [--limit N]

Single-hop: XQuAD's English file (1,190 SQuAD v1.1 development questions). Each question's
candidates are its article's chunks ranked by BM25 (``benches/make_qa.py``), the evidence its
gold answer strings (recall: a gold string is in the placed text). Multi-hop: HotpotQA records
in the distractor setting (question, answer, the 10 ``context`` paragraphs, the
``supporting_facts``), one record per line or a JSON list. Each paragraph is one candidate
(its title is the id), ranked by BM25 against the question over title and text; recall is the
share of the supporting-fact sentences whose text is in the placed text.

Splits: XQuAD by article (even = dev, odd = held-back, as ``benches/make_qa.py``); HotpotQA by
the parity of the first byte of SHA-1 of the record's ``_id``. Choices are made on ``dev``;
``heldout`` is for one final run.

What is run, per question:

* *fixed top-k*: the ``--k`` best candidates with room for all of them (budget 1,000,000):
  ``compress=None``, ``"all"`` with each ``compress_cut`` of ``--cuts`` (and the rule without
  one), the modes of ``--modes`` that name ``embed`` (``"all embed cut=0.6"``:
  ``sentence_scorer=embedding_scorer(<--model>, cut=0.6)``; no ``cut=``, its default), and
  the baselines;
* *budgets* 100-2000 (``--budgets``): ``None``, ``"overflow"``, ``"all"`` (with the default
  ``compress_cut``; a mode ``"overflow global=N"`` runs it with global ranking below the N
  best sources, ``global=0``: without it) and the best baseline at each budget (a baseline
  cuts every candidate to ``k`` sentences before packing, for k = 1, 2, 3; the best k at
  each budget is shown).

Baselines (sentences from ``briefpack.split_sentences``, so every method cuts at the same
places; non-adjacent kept sentences joined by the same `` … `` as briefpack's cuts):
``first-k`` (a source's first k sentences), ``bm25-k`` (its k best by Okapi BM25, k1 = 1.2,
b = 0.75, IDF over the request's sentences) and ``tfidf-k`` (its k best by the cosine of
TF-IDF vectors, IDF over the request's sentences), each in text order. Token counts are
o200k_base, of the rendered source blocks (``Source.tokens``) summed.

Everything is deterministic; the output is Markdown tables on stdout.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import logging
import math
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import briefpack as bp
from briefpack._stages import compress as compress_stage
from briefpack.sentences import EMBEDDING_CUT, embedding_scorer, sentence_spans

ROOT = Path(__file__).resolve().parent.parent
ELISION = " \u2026 "
UNLIMITED = 1_000_000
BUDGETS = [100, 150, 200, 300, 500, 800, 1200, 2000]
TOKENIZER = "o200k_base"
EXTRA: dict[str, Any] = {}  # options every briefpack run gets (``--no-bridge``)
_WORD = re.compile(r"\w+")


def _make_qa() -> Any:
    spec = importlib.util.spec_from_file_location("make_qa", ROOT / "benches" / "make_qa.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_qa = _make_qa()


@dataclass
class Question:
    """One labelled request: ranked candidates and the evidence that should stay placed."""

    id: str
    question: str
    candidates: list[dict[str, Any]]
    answers: list[str] = field(default_factory=list)  # single-hop: any one suffices
    facts: list[str] = field(default_factory=list)  # multi-hop: the share present counts

    def recall(self, placed: str) -> float:
        if self.facts:
            return sum(1 for f in self.facts if f in placed) / len(self.facts)
        return 1.0 if any(a in placed for a in self.answers) else 0.0


# ---------------------------------------------------------------------------------- data


def xquad(path: Path, split: str, unit: str = "paragraph") -> list[Question]:
    """XQuAD's questions of ``split``; candidates are the article's paragraphs (``unit`` =
    "paragraph", as SQuAD's passages) or ``benches/make_qa.py``'s chunks ("chunk")."""
    articles = json.loads(path.read_text(encoding="utf-8"))["data"]
    out: list[Question] = []
    limit = 10**9 if unit == "paragraph" else make_qa.CHUNK_WORDS
    for i, article in enumerate(articles):
        if (i % 2 == 0) != (split == "dev"):
            continue
        rows, _ = _article_requests(article, limit)
        for r in rows:
            cands = [{k: c[k] for k in ("id", "text", "title", "score")} for c in r["candidates"]]
            out.append(Question(r["id"], r["question"], cands, answers=r["answers"]))
    return out


def _article_requests(article: dict[str, Any], limit: int) -> tuple[list[dict[str, Any]], int]:
    old = make_qa.CHUNK_WORDS
    make_qa.chunks.__defaults__ = (limit,)
    try:
        return make_qa.article_requests(article)  # type: ignore[no-any-return]
    finally:
        make_qa.chunks.__defaults__ = (old,)


def _complete(text: str, start: int) -> list[Any]:
    """The complete JSON values of the array whose first value is at ``start``, up to the
    first one cut off (some public copies are a file's first megabytes)."""
    decoder, i = json.JSONDecoder(), start
    out: list[Any] = []
    while True:
        while i < len(text) and text[i] in " \t\r\n,":
            i += 1
        if i >= len(text) or text[i] == "]":
            return out
        try:
            value, i = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            return out
        out.append(value)


def _records(path: Path) -> Iterable[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        yield from _complete(text, text.index("[") + 1)
        return
    for line in text.splitlines():
        if line.strip():
            yield json.loads(line)


def _hotpot_layout(rec: dict[str, Any]) -> dict[str, Any]:
    """``rec`` in the original layout (``context`` as ``[title, sentences]`` pairs,
    ``supporting_facts`` as ``[title, k]``) from the dataset-hub layout (columns of lists,
    no ``_id``: the question's SHA-1 stands in)."""
    ctx, facts = rec["context"], rec["supporting_facts"]
    if isinstance(ctx, dict):
        ctx = [list(pair) for pair in zip(ctx["title"], ctx["sentences"], strict=True)]
    if isinstance(facts, dict):
        facts = [list(pair) for pair in zip(facts["title"], facts["sent_id"], strict=True)]
    qid = rec.get("_id") or rec.get("id") or hashlib.sha1(rec["question"].encode()).hexdigest()
    return {**rec, "_id": qid, "context": ctx, "supporting_facts": facts}


def _columns(path: Path) -> Iterable[dict[str, Any]]:
    """Records of a table stored as columns (``{"question": {"0": ..., "1": ...}, ...}``,
    as pandas writes one), one per row, in row order; ``_1`` (pandas' name for ``_id``)
    is ``_id``."""
    table = json.loads(path.read_text(encoding="utf-8"))
    rows = sorted(table["question"], key=int)
    for row in rows:
        rec = {name: column[row] for name, column in table.items()}
        rec["_id"] = rec.pop("_1", None) or rec.get("_id") or str(rec.get("id"))
        yield rec


def _join_sentences(sents: list[str]) -> str:
    """A paragraph from its sentences: a space between two where neither side has one
    (2WikiMultihopQA's sentences carry no leading space, HotpotQA's do)."""
    out = ""
    for s in sents:
        if out and s and not out[-1].isspace() and not s[0].isspace():
            out += " "
        out += s
    return out.strip()


def hotpot(
    paths: Sequence[Path],
    split: str,
    used: Sequence[Path] = (),
    records: Callable[[Path], Iterable[dict[str, Any]]] | None = None,
    complete: bool = False,
) -> list[Question]:
    """HotpotQA questions of ``split`` (``dev`` / ``heldout``: by the parity of SHA-1 of the
    ``_id``; ``heldout3`` to ``heldout5``: every question of ``paths`` whose ``_id`` and
    question text are in none of the ``used`` files). ``records`` reads a file (default:
    a JSON list or JSON lines); with ``_columns`` (2WikiMultihopQA as a column table) the
    paragraphs are joined with ``_join_sentences``. ``complete``: only a record whose every
    supporting fact is a sentence of its context (a fullwiki-setting record, whose 10
    paragraphs were retrieved, may lack one; ``heldout5``)."""
    out: list[Question] = []
    seen: set[str] = set()
    read = records or _records
    join = "".join if records is None else _join_sentences
    for path in used:
        for rec in _records(path):
            seen.update((_hotpot_layout(rec)["_id"], rec["question"].strip()))
    for path in paths:
        for rec in map(_hotpot_layout, read(path)):
            qid = rec["_id"]
            if qid in seen or rec["question"].strip() in seen:
                continue
            seen.update((qid, rec["question"].strip()))
            odd = hashlib.sha1(qid.encode()).digest()[0] % 2 == 1
            if split in ("dev", "heldout") and odd != (split == "heldout"):
                continue
            paragraphs = dict(rec["context"])
            facts: list[str] = []
            for fact in rec["supporting_facts"]:
                title, k = fact[0], fact[1]
                k = k[0] if isinstance(k, list) else k  # some copies hold [k]
                sents = paragraphs.get(title, [])
                if isinstance(k, int) and 0 <= k < len(sents) and sents[k].strip():
                    facts.append(sents[k].strip())
            if not facts or (complete and len(facts) < len(rec["supporting_facts"])):
                continue
            pool = [
                {"id": title, "title": title, "text": join(sents).strip()}
                for title, sents in rec["context"]
            ]
            scores = make_qa.bm25(rec["question"], [f"{c['title']} {c['text']}" for c in pool])
            ranked = sorted(range(len(pool)), key=lambda i: -scores[i])
            cands = [{**pool[i], "score": round(scores[i], 4)} for i in ranked]
            out.append(Question(qid, rec["question"], cands, facts=facts))
    return out


def _articles(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    return _complete(text, text.index("[", text.index('"data"')) + 1)


def squad(
    path: Path, exclude: Path | None, group: int = 5, used: Sequence[Path] = ()
) -> list[Question]:
    """SQuAD-format questions (v1.1, or v2.0's answerable ones) of the articles of ``path``
    that are not among ``exclude``'s (XQuAD's 48, from SQuAD v1.1 dev) nor the complete
    articles of the ``used`` files (an earlier held-back set), as the held-back splits
    ``heldout3`` / ``heldout4``. Each article's paragraphs are taken ``group`` at a time (as
    XQuAD's articles have about 5), each group one article for the candidates; a cut-off
    file keeps its complete articles. Question ids in ``exclude`` or ``used`` are skipped
    too."""
    articles = _articles(path)
    titles: set[str] = set()
    ids: set[str] = set()
    seen = [json.loads(exclude.read_text(encoding="utf-8"))["data"]] if exclude else []
    seen += [_articles(u) for u in used]
    for group_of in seen:
        for article in group_of:
            titles.add(article.get("title", ""))
            ids.update(qa["id"] for p in article["paragraphs"] for qa in p["qas"])
    out: list[Question] = []
    for article in articles:
        if article.get("title") in titles:
            continue
        paragraphs = [
            {
                **p,
                "qas": [
                    qa for qa in p["qas"] if not qa.get("is_impossible") and qa["id"] not in ids
                ],
            }
            for p in article["paragraphs"]
        ]
        for g in range(0, len(paragraphs), group):
            part = {"title": article["title"], "paragraphs": paragraphs[g : g + group]}
            rows, _ = _article_requests(part, 10**9)
            for r in rows:
                cands = [
                    {k: c[k] for k in ("id", "text", "title", "score")} for c in r["candidates"]
                ]
                out.append(Question(r["id"], r["question"], cands, answers=r["answers"]))
    return out


def _norm_title(title: str) -> str:
    return title.replace("_", " ").strip().lower()


def _add_wikiqa(path: Path, titles: set[str], asked: set[str]) -> None:
    """Add a WikiQA TSV's document titles and questions to ``titles`` and ``asked`` (the
    overlap a fresh single-hop set leaves out)."""
    with path.open(encoding="utf-8", newline="") as fh:
        header = fh.readline().rstrip("\n").split("\t")
        for line in fh:
            row = dict(zip(header, line.rstrip("\n").split("\t"), strict=True))
            titles.add(_norm_title(row["DocumentTitle"]))
            asked.add(row["Question"].strip().lower())


def _used_single_hop(xquad_path: Path | None, used: Sequence[Path]) -> tuple[set[str], set[str]]:
    """Article titles and question texts (both lowercased) of XQuAD and the SQuAD-format
    ``used`` files (the earlier single-hop sets)."""
    titles: set[str] = set()
    questions: set[str] = set()
    groups = [json.loads(xquad_path.read_text(encoding="utf-8"))["data"]] if xquad_path else []
    groups += [_articles(u) for u in used]
    for group_of in groups:
        for article in group_of:
            titles.add(_norm_title(article.get("title", "")))
            for para in article["paragraphs"]:
                questions.update(qa["question"].strip().lower() for qa in para["qas"])
    return titles, questions


def wikiqa(
    path: Path, xquad_path: Path | None, used: Sequence[Path] = (), distractors: int = 4
) -> list[Question]:
    """WikiQA's questions with at least one answer sentence (``Label`` 1), from its TSV
    (``QuestionID``, ``Question``, ``DocumentID``, ``DocumentTitle``, ``SentenceID``,
    ``Sentence``, ``Label``): the single-hop set of ``heldout5``. A question's document is
    its sentences joined with a space; its candidates are that document and the
    ``distractors`` other documents of the file ranked best by BM25 (over every document's
    title and text), all in BM25 order. Evidence: its answer sentences (any one suffices).
    Questions whose document title is an article of XQuAD or of the ``used`` SQuAD-format
    files, or whose text is one of their questions, are left out."""
    titles, asked = _used_single_hop(xquad_path, used)
    docs: dict[str, tuple[str, list[str]]] = {}
    byq: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()
    with path.open(encoding="utf-8", newline="") as fh:
        header = fh.readline().rstrip("\n").split("\t")
        for line in fh:
            row = dict(zip(header, line.rstrip("\n").split("\t"), strict=True))
            _, sents = docs.setdefault(row["DocumentID"], (row["DocumentTitle"], []))
            if row["SentenceID"] not in seen:
                seen.add(row["SentenceID"])
                sents.append(row["Sentence"].strip())
            q = byq.setdefault(
                row["QuestionID"],
                {"question": row["Question"], "doc": row["DocumentID"], "answers": []},
            )
            if row["Label"] == "1":
                q["answers"].append(row["Sentence"].strip())
    ids = sorted(docs, key=lambda d: int(d[1:]) if d[1:].isdigit() else 0)
    texts = {d: " ".join(docs[d][1]) for d in ids}
    corpus = [f"{docs[d][0]} {texts[d]}" for d in ids]  # what BM25 ranks, once for all questions
    out: list[Question] = []
    for qid, q in byq.items():
        own = q["doc"]
        if not q["answers"] or _norm_title(docs[own][0]) in titles:
            continue
        if q["question"].strip().lower() in asked:
            continue
        scores = make_qa.bm25(q["question"], corpus)
        by_id = dict(zip(ids, scores, strict=True))
        others = sorted(
            (d for d in ids if d != own and docs[d][0] != docs[own][0]), key=lambda d: -by_id[d]
        )
        pool = sorted([own, *others[:distractors]], key=lambda d: -by_id[d])
        cands = [
            {"id": d, "title": docs[d][0], "text": texts[d], "score": round(by_id[d], 4)}
            for d in pool
        ]
        out.append(Question(qid, q["question"], cands, answers=q["answers"]))
    return out


def selqa(
    path: Path,
    xquad_path: Path | None,
    used: Sequence[Path] = (),
    wikiqa_path: Path | None = None,
    distractors: int = 4,
) -> list[Question]:
    """SelQA's answer-sentence-selection questions (its JSON: ``question``, ``article``,
    ``section``, ``candidates``, the section's sentences, and ``answers``, the indices of
    those holding the answer): the single-hop set of ``heldout6``. A question's document is
    its section (the sentences joined with a space, titled ``article: section``); its
    candidates are that section and the ``distractors`` other sections of the file ranked
    best by BM25 (over every section's title and text), all in BM25 order. Evidence: its
    answer sentences (any one suffices). Questions whose article is an article of XQuAD, of
    the ``used`` SQuAD-format files or a WikiQA document title (``wikiqa_path``), or whose
    text is one of their questions, are left out."""
    titles, asked = _used_single_hop(xquad_path, used)
    if wikiqa_path:
        _add_wikiqa(wikiqa_path, titles, asked)
    records = json.loads(path.read_text(encoding="utf-8"))
    docs: dict[tuple[str, str], list[str]] = {}
    for rec in records:
        docs.setdefault((rec["article"], rec["section"]), [s.strip() for s in rec["candidates"]])
    keys = list(docs)
    texts = {k: " ".join(docs[k]) for k in keys}
    names = {k: f"{k[0]}: {k[1]}" for k in keys}
    corpus = [f"{names[k]} {texts[k]}" for k in keys]
    out: list[Question] = []
    for n, rec in enumerate(records):
        own = (rec["article"], rec["section"])
        answers = [docs[own][i] for i in rec["answers"] if 0 <= i < len(docs[own])]
        if not answers or _norm_title(rec["article"]) in titles:
            continue
        if rec["question"].strip().lower() in asked:
            continue
        scores = make_qa.bm25(rec["question"], corpus)
        by_key = dict(zip(keys, scores, strict=True))
        others = sorted((k for k in keys if k != own), key=lambda k: -by_key[k])
        pool = sorted([own, *others[:distractors]], key=lambda k: -by_key[k])
        cands = [
            {"id": names[k], "title": names[k], "text": texts[k], "score": round(by_key[k], 4)}
            for k in pool
        ]
        out.append(Question(f"selqa-{n}", rec["question"], cands, answers=answers))
    return out


def _bm25_index(docs: list[str]) -> Callable[[str], list[float]]:
    """``make_qa.bm25`` against a fixed ``docs``, its bags counted once (the same sums in
    the same order, so the same scores)."""
    bags = [Counter(make_qa.terms(d)) for d in docs]
    lengths = [sum(b.values()) for b in bags]
    avg = sum(lengths) / len(lengths)
    df = Counter(t for b in bags for t in b)
    n, k1, b = len(docs), make_qa.K1, make_qa.B

    def score(query: str) -> list[float]:
        qterms = set(make_qa.terms(query))
        out = []
        for bag, length in zip(bags, lengths, strict=True):
            s = 0.0
            for t in qterms:
                tf = bag.get(t, 0)
                if tf:
                    idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                    s += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avg))
            out.append(s)
        return out

    return score


SHIFTS_SAMPLE, SHIFTS_SEED = 2000, 8  # heldout8: a seeded sample keeps a full run short


def squad_shifts(
    path: Path,
    xquad_path: Path | None,
    used: Sequence[Path] = (),
    wikiqa_path: Path | None = None,
    selqa_path: Path | None = None,
    distractors: int = 4,
    sample: int = SHIFTS_SAMPLE,
) -> list[Question]:
    """SQuAD-shifts' new Wikipedia test set (SQuAD v1.1 layout): the single-hop set of
    ``heldout8``. Left out first: a question whose article title is an article of XQuAD, of
    the ``used`` SQuAD-format files, a WikiQA document title (``wikiqa_path``) or a SelQA
    article (``selqa_path``), or whose text is one of their questions. Of the rest,
    ``sample`` questions drawn with ``random.Random(SHIFTS_SEED)``, kept in file order. A
    question's candidates are its paragraph and the ``distractors`` other paragraphs of the
    file ranked best by BM25 (over every paragraph's title and text; another paragraph of
    the same article may be one), all in BM25 order. Evidence: the sentence
    (``briefpack.sentences.sentence_spans``) holding each gold answer span (the sentences
    from the first to the last it touches, as in the text), any one of which counts."""
    titles, asked = _used_single_hop(xquad_path, used)
    if wikiqa_path:
        _add_wikiqa(wikiqa_path, titles, asked)
    if selqa_path:
        for rec in json.loads(selqa_path.read_text(encoding="utf-8")):
            titles.add(_norm_title(rec["article"]))
            asked.add(rec["question"].strip().lower())
    paras: list[tuple[str, str]] = []  # (title, text)
    rows: list[tuple[int, dict[str, Any]]] = []  # (paragraph, qa) of the eligible questions
    for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
        title = unquote(article["title"]).replace("_", " ").strip()
        for para in article["paragraphs"]:
            paras.append((title, para["context"]))
            if _norm_title(title) in titles:
                continue
            for qa in para["qas"]:
                if qa["question"].strip().lower() not in asked and qa["answers"]:
                    rows.append((len(paras) - 1, qa))
    picked = sorted(random.Random(SHIFTS_SEED).sample(range(len(rows)), min(sample, len(rows))))
    spans = sentence_spans([text for _, text in paras])
    score = _bm25_index([f"{title} {text}" for title, text in paras])
    out: list[Question] = []
    for i in picked:
        own, qa = rows[i]
        text, sp = paras[own][1], spans[own]
        answers: list[str] = []
        for a in qa["answers"]:
            start, end = a["answer_start"], a["answer_start"] + len(a["text"])
            hit = [j for j, (x, y) in enumerate(sp) if x < end and start < y]
            if hit and text[start:end] == a["text"]:
                sentence = text[sp[hit[0]][0] : sp[hit[-1]][1]]
                if sentence not in answers:
                    answers.append(sentence)
        if not answers:
            continue
        scores = score(qa["question"])
        others = sorted((j for j in range(len(paras)) if j != own), key=lambda j: -scores[j])
        pool = sorted([own, *others[:distractors]], key=lambda j: -scores[j])
        cands = [
            {
                "id": f"{paras[j][0]}/p{j}",
                "title": paras[j][0],
                "text": paras[j][1],
                "score": round(scores[j], 4),
            }
            for j in pool
        ]
        out.append(Question(qa["id"], qa["question"], cands, answers=answers))
    return out


# ------------------------------------------------------------------------------ baselines


def _terms(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _bm25_sentences(question: str, sentences: list[str]) -> list[float]:
    return make_qa.bm25(question, sentences) if sentences else []


def _tfidf_sentences(question: str, sentences: list[str]) -> list[float]:
    bags = [Counter(_terms(s)) for s in sentences]
    n = len(sentences)
    df = Counter(t for b in bags for t in b)

    def vec(bag: Counter[str]) -> dict[str, float]:
        return {
            t: (1 + math.log(c)) * math.log((1 + n) / (1 + df.get(t, 0))) for t, c in bag.items()
        }

    q = vec(Counter(_terms(question)))
    qn = math.sqrt(sum(x * x for x in q.values()))
    out = []
    for bag in bags:
        v = vec(bag)
        vn = math.sqrt(sum(x * x for x in v.values()))
        dot = sum(w * v.get(t, 0.0) for t, w in q.items())
        out.append(dot / (qn * vn) if qn > 0 and vn > 0 else 0.0)
    return out


def _join(sentences: list[str], keep: list[int], text: str, spans: list[tuple[int, int]]) -> str:
    pieces: list[str] = []
    start = prev = keep[0]
    for k in [*keep[1:], -1]:
        if k == prev + 1:
            prev = k
            continue
        pieces.append(text[spans[start][0] : spans[prev][1]])
        start = prev = k
    return ELISION.join(pieces)


def baseline(q: Question, cands: list[dict[str, Any]], method: str, k: int) -> list[dict[str, Any]]:
    """``cands`` with each text cut to ``k`` sentences by ``method``."""
    texts = [c["text"] for c in cands]
    spans = bp.sentence_spans(texts) if hasattr(bp, "sentence_spans") else None
    if spans is None:
        from briefpack.sentences import sentence_spans

        spans = sentence_spans(texts)
    per = [[t[a:b] for a, b in sp] for t, sp in zip(texts, spans, strict=True)]
    flat = [s for ss in per for s in ss]
    if method == "first":
        scores = [0.0] * len(flat)
    elif method == "bm25":
        scores = _bm25_sentences(q.question, flat)
    else:
        scores = _tfidf_sentences(q.question, flat)
    out, at = [], 0
    for c, ss, sp in zip(cands, per, spans, strict=True):
        mine = scores[at : at + len(ss)]
        at += len(ss)
        if len(ss) <= k:
            out.append(c)
            continue
        best = sorted(range(len(ss)), key=lambda i: (-mine[i], i))[:k]
        out.append({**c, "text": _join(ss, sorted(best), c["text"], sp)})
    return out


# ------------------------------------------------------------------------------- running


@dataclass
class Tally:
    recall: float = 0.0
    tokens: int = 0
    sources: int = 0
    n: int = 0

    def add(self, recall: float, tokens: int, sources: int) -> None:
        self.recall += recall
        self.tokens += tokens
        self.sources += sources
        self.n += 1

    @property
    def mean_recall(self) -> float:
        return 100.0 * self.recall / max(self.n, 1)

    @property
    def mean_tokens(self) -> float:
        return self.tokens / max(self.n, 1)


EMBED: list[Callable[[list[str]], list[list[float]]]] = []  # ``--model``'s embedding
_VECTORS: dict[str, list[float]] = {}  # every text embedded, shared by every cut


def _embed(texts: list[str]) -> list[list[float]]:
    """``--model``'s embedding, each text embedded once per run."""
    todo = [t for t in dict.fromkeys(texts) if t not in _VECTORS]
    if todo:
        _VECTORS.update(zip(todo, EMBED[0](todo), strict=True))
    return [_VECTORS[t] for t in texts]


def run_one(
    q: Question, cands: list[dict[str, Any]], budget: int, **options: Any
) -> tuple[float, int, int]:
    options = {**EXTRA, **options} if options.get("compress") else options
    top = options.pop("global_top", None)
    old = compress_stage.GLOBAL_TOP
    if top is not None:  # a "<mode> global=N" row: global ranking below the N best (0: off)
        compress_stage.GLOBAL_TOP = top
    try:
        a = bp.assemble(q.question, cands, budget=budget, tokenizer=TOKENIZER, **options)
    finally:
        compress_stage.GLOBAL_TOP = old
    placed = "\n".join(s.chunk.text for s in a.sources)
    return q.recall(placed), sum(s.tokens for s in a.sources), len(a.sources)


Method = tuple[
    str, Callable[[Question, list[dict[str, Any]]], tuple[list[dict[str, Any]], dict[str, Any]]]
]


def methods(
    cuts: Sequence[float | None], with_baselines: bool, modes: Sequence[str]
) -> list[Method]:
    out: list[Method] = []
    for mode in modes:
        if mode.endswith(" skip"):  # e.g. "overflow skip": that mode with overflow="skip"
            inner = methods(cuts, False, [mode[: -len(" skip")]])
            for name, make in inner:
                out.append(
                    (
                        f"{name} skip",
                        lambda q, c, f=make: (f(q, c)[0], {**f(q, c)[1], "overflow": "skip"}),
                    )
                )
        elif " global=" in mode:  # e.g. "overflow global=2": GLOBAL_TOP for that row
            which, top = mode.split(" global=")
            out.append(
                (mode, lambda q, c, w=which, t=int(top): (c, {"compress": w, "global_top": t}))
            )
        elif mode == "none":
            out.append(("None", lambda q, c: (c, {})))
        elif mode == "overflow":
            out.append(("overflow", lambda q, c: (c, {"compress": "overflow"})))
        elif mode == "all":
            for cut in cuts:
                name = "all" if cut is None else f"all cut={cut:g}"
                out.append(
                    (name, lambda q, c, cut=cut: (c, {"compress": "all", "compress_cut": cut}))
                )
        elif mode.startswith(("overflow embed", "all embed")):  # "all embed cut=0.6"
            which, _, rest = mode.partition(" embed")
            cut = float(rest.split("cut=")[1]) if "cut=" in rest else EMBEDDING_CUT
            out.append(
                (
                    mode,
                    lambda q, c, w=which, x=cut: (
                        c,
                        {"compress": w, "sentence_scorer": embedding_scorer(_embed, cut=x)},
                    ),
                )
            )
        elif mode.startswith(("overflow cut=", "all cut=")):
            which, value = mode.split(" cut=")
            out.append(
                (
                    mode,
                    lambda q, c, w=which, x=float(value): (c, {"compress": w, "compress_cut": x}),
                )
            )
    if with_baselines:
        for method in ("first", "bm25", "tfidf"):
            for k in (1, 2, 3):
                out.append(
                    (f"{method}-{k}", lambda q, c, m=method, k=k: (baseline(q, c, m, k), {}))
                )
    return out


def sweep(
    questions: list[Question], budgets: Sequence[int], ms: list[Method], top_k: int | None
) -> dict[tuple[str, int], Tally]:
    tallies: dict[tuple[str, int], Tally] = {}
    for q in questions:
        cands = q.candidates[:top_k] if top_k else q.candidates
        for name, make in ms:
            prepared, options = make(q, cands)
            for budget in budgets:
                r, t, s = run_one(q, prepared, budget, **options)
                tallies.setdefault((name, budget), Tally()).add(r, t, s)
    return tallies


# ------------------------------------------------------------------------------ printing


def fixed_table(title: str, tallies: dict[tuple[str, int], Tally]) -> str:
    base = tallies[("None", UNLIMITED)]
    lines = [
        f"### {title}: fixed top-k, everything fits",
        "",
        "| method | evidence recall | of None's | source tokens | of None's |",
        "|---|---:|---:|---:|---:|",
    ]
    for (name, _), t in tallies.items():
        lines.append(
            f"| {name} | {t.mean_recall:.1f}% | {100 * t.recall / max(base.recall, 1e-9):.1f}% "
            f"| {t.mean_tokens:.0f} | {100 * t.tokens / max(base.tokens, 1):.1f}% |"
        )
    return "\n".join(lines)


def budget_table(title: str, tallies: dict[tuple[str, int], Tally], budgets: Sequence[int]) -> str:
    names = list(dict.fromkeys(name for name, _ in tallies))
    ours = [n for n in names if not re.match(r"(first|bm25|tfidf)-\d$", n)]
    lines = [
        f"### {title}: evidence recall under a budget (mean source tokens in brackets)",
        "",
        "| budget | " + " | ".join(ours) + " | best baseline |",
        "|---:|" + "---:|" * (len(ours) + 1),
    ]
    for b in budgets:
        cells = [
            f"{tallies[(n, b)].mean_recall:.1f}% ({tallies[(n, b)].mean_tokens:.0f})" for n in ours
        ]
        base = [(tallies[(n, b)].mean_recall, n) for n in names if n not in ours]
        if base:
            r, n = max(base)
            cells.append(f"{r:.1f}% ({n})")
        else:
            cells.append("-")
        lines.append(f"| {b} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--xquad", type=Path, help="xquad.en.json")
    p.add_argument("--hotpot", type=Path, nargs="*", default=[], help="HotpotQA distractor records")
    p.add_argument("--unit", choices=["paragraph", "chunk"], default="paragraph")
    p.add_argument(
        "--split",
        choices=["dev", "heldout", "heldout3", "heldout4", "heldout5", "heldout6", "heldout8"],
        default="dev",
    )
    p.add_argument(
        "--squad", type=Path, help="SQuAD-format file: the single-hop set of --split heldout3"
    )
    p.add_argument(
        "--hotpot-used",
        type=Path,
        nargs="*",
        default=[],
        help="HotpotQA files whose questions --split heldout3 leaves out (the dev/held-back ones)",
    )
    p.add_argument(
        "--squad-used",
        type=Path,
        nargs="*",
        default=[],
        help="SQuAD-format files whose articles --split heldout4 / heldout5 leave out",
    )
    p.add_argument(
        "--twowiki",
        type=Path,
        nargs="*",
        default=[],
        help="2WikiMultihopQA records as a column table: the multi-hop set of --split heldout4",
    )
    p.add_argument(
        "--wikiqa", type=Path, help="WikiQA's TSV: the single-hop set of --split heldout5"
    )
    p.add_argument(
        "--selqa", type=Path, help="SelQA's answer sentence selection JSON: --split heldout6"
    )
    p.add_argument(
        "--squad-shifts", type=Path, help="SQuAD-shifts' new_wiki_v1.0.json: --split heldout8"
    )
    p.add_argument(
        "--hotpot-columns",
        type=Path,
        nargs="*",
        default=[],
        help="HotpotQA records as a column table: the multi-hop set of --split heldout5",
    )
    p.add_argument("--count", action="store_true", help="print the sets' sizes and stop")
    p.add_argument(
        "--no-bridge", action="store_true", help="compress_bridge=False in every compress mode"
    )
    p.add_argument("--cuts", default="", help="compress_cut values for the fixed top-k table")
    p.add_argument("--cut", type=float, default=None, help="compress_cut of the budget table's all")
    p.add_argument("--only", choices=["fixed", "budgets"], default=None)
    p.add_argument("--k", type=int, default=None, help="top-k candidates (default 5 / 10)")
    p.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    p.add_argument("--modes", default="none,overflow,all")
    p.add_argument("--no-baselines", action="store_true")
    p.add_argument(
        "--model",
        help="for the modes 'all embed [cut=X]' / 'overflow embed [cut=X]': a sentence-"
        "transformers model directory or package (scripts/compress_caveats.py), or 'hashed'",
    )
    p.add_argument("--limit", type=int, default=None, help="first N questions of each set")
    args = p.parse_args(argv)
    logging.disable(logging.WARNING)  # empty contexts at tiny budgets are expected here
    if args.no_bridge:
        EXTRA["compress_bridge"] = False
    if args.model:
        import compress_caveats  # scripts/ is on the path when this runs as a script

        model = args.model
        EMBED.append(
            compress_caveats.hashed_ngrams
            if model == "hashed"
            else compress_caveats.load_model(model)
        )
    cuts: list[float | None] = [None] + [float(x) for x in args.cuts.split(",") if x]
    budgets = [int(x) for x in args.budgets.split(",") if x]
    modes = [m for m in args.modes.split(",") if m]
    sets: list[tuple[str, list[Question], int]] = []
    if args.split == "heldout8":  # --xquad, --squad-used, --wikiqa and --selqa only exclude
        if args.squad_shifts:
            questions = squad_shifts(
                args.squad_shifts, args.xquad, args.squad_used, args.wikiqa, args.selqa
            )
            sets.append(("single-hop (SQuAD-shifts new Wikipedia)", questions, args.k or 5))
    elif args.split == "heldout6":  # --xquad, --squad-used and --wikiqa only exclude
        if args.selqa:
            questions = selqa(args.selqa, args.xquad, args.squad_used, args.wikiqa)
            sets.append(("single-hop (SelQA test)", questions, args.k or 5))
    elif args.split == "heldout5":  # --xquad, --squad-used and --hotpot-used only exclude
        if args.wikiqa:
            questions = wikiqa(args.wikiqa, args.xquad, args.squad_used)
            sets.append(("single-hop (WikiQA test)", questions, args.k or 5))
        if args.hotpot_columns:
            questions = hotpot(
                args.hotpot_columns, args.split, args.hotpot_used, records=_columns, complete=True
            )
            sets.append(("multi-hop (HotpotQA dev, sampled)", questions, args.k or 10))
    elif args.split == "heldout4":  # --xquad, --squad-used and --hotpot-used only exclude
        if args.squad:
            questions = squad(args.squad, args.xquad, used=args.squad_used)
            sets.append(("single-hop (SQuAD 2.0 train, answerable)", questions, args.k or 5))
        if args.twowiki:
            questions = hotpot(args.twowiki, args.split, args.hotpot_used, records=_columns)
            sets.append(("multi-hop (2WikiMultihopQA)", questions, args.k or 10))
    elif args.split == "heldout3":  # fresh questions: --xquad and --hotpot-used only exclude
        if args.squad:
            sets.append(("single-hop (SQuAD v1.1)", squad(args.squad, args.xquad), args.k or 5))
        if args.hotpot:
            questions = hotpot(args.hotpot, args.split, args.hotpot_used)
            sets.append(("multi-hop (HotpotQA distractor)", questions, args.k or 10))
    else:
        if args.xquad:
            questions = xquad(args.xquad, args.split, args.unit)
            sets.append(("single-hop (XQuAD en)", questions, args.k or 5))
        if args.hotpot:
            questions = hotpot(args.hotpot, args.split)
            sets.append(("multi-hop (HotpotQA distractor)", questions, args.k or 10))
    if args.count:
        for title, questions, _ in sets:
            print(f"{title}, {args.split}: {len(questions)} questions")
        return 0
    for title, questions, k in sets:
        questions = questions[: args.limit] if args.limit else questions
        head = f"{title}, {args.split}: {len(questions)} questions"
        print(f"## {head}\n")
        started = time.perf_counter()
        if args.only != "budgets":
            fixed = ["none", "all", *(m for m in modes if " embed" in m)]
            ms = methods(cuts, not args.no_baselines, fixed)
            print(fixed_table(f"{title} (top {k})", sweep(questions, [UNLIMITED], ms, k)), "\n")
        if args.only != "fixed":
            ms = methods([args.cut], not args.no_baselines, modes)
            print(budget_table(title, sweep(questions, budgets, ms, None), budgets), "\n")
        print(f"({time.perf_counter() - started:.0f} s)\n", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
