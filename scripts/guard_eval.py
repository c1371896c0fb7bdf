"""Candidate difference guards for near-duplicate dedupe, scored on the labelled pairs.

    python scripts/guard_eval.py tune              # every guard variant on the tune split
    python scripts/guard_eval.py heldback GUARD    # the chosen guard on the held-back split
    python scripts/guard_eval.py cost GUARD        # guard calls per 1k/10k candidates, cost
    python scripts/guard_eval.py show GUARD ...    # pairs the guard lets drop that are not copies
    python scripts/guard_eval.py fresh GUARD...    # unseen data: the de/fr/es handbook passages

The pairs are ``tests/data/guard_pairs.jsonl`` (scripts/guard_pairs.py); the passages come from
the corpus (``../shared/corpus``, or ``BRIEFPACK_CORPUS``). Two measurements per method
(jaccard, minhash) and threshold:

* **stream**: the kernel's greedy walk over the 14,646 passages in rank order with the guard
  inside it (a pair over the threshold that the guard keeps is not a duplicate; the item goes on
  to the next kept item, and stays kept if none matches), using the stored real pairs (every
  pair with Jaccard >= 0.5, and the MinHash decisions of each pair). Without a guard it gives
  exactly the kernels' drops (checked on every run). A drop is counted in the split of its pair.
  ``precision`` is the share of drops whose pair is a copy or near copy; ``copies kept`` the
  share of today's copy drops (jaccard 0.7, no guard) still dropped.
* **pairs**: every labelled pair of the split alone (real and synthetic): dropped when over the
  threshold (for minhash: when the two-text kernel run drops it) and not kept by the guard;
  precision as above, recall of copies and of copies + near copies.

The guard is the rule of docs/dedupe_guard.md; the variants switch its classes on and off.

``fresh`` scores guards on data no rule was designed on: the German, French and Spanish
passages of the corpus (the Debian handbook), real pairs built and labelled as for the pair
file (by the label rule only), every pair in one split; it prints the stream table and then the
drops that are not copies, for reading.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benches"))

import guard_pairs as gp
from briefpack import kernels
from briefpack.reference.text import LOWER, WORD, char_class, nfkc, words

THRESHOLDS = gp.THRESHOLDS
DUP = ("copy", "near_copy")

# -- the guard --------------------------------------------------------------------------------

JOINERS = frozenset("_.-'\u2019")
NEGATIONS = gp.NEGATIONS
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]{2}")
_CAPS = re.compile(r"[A-Z]{2,}")
_LOWER = {chr(k): chr(v) for k, v in LOWER.items()}


def _lower(s: str) -> str:
    return "".join(_LOWER.get(c, c) for c in s)


@dataclass(frozen=True)
class Token:
    """One raw token of a text: its form, first position and what marks its occurrences."""

    form: str
    first: int
    call: bool  # some occurrence is followed by "(" (a call or a definition)
    code: bool  # some occurrence touches a backtick, is on a "$ " or ">>> " command line, or
    # is all capitals (a placeholder or constant: DOMAIN, EOF)
    flag: bool  # some occurrence starts with "-" after a space (a command-line option)
    count: int = 1  # occurrences in the text
    marked: int = 0  # occurrences with a mark (call, code or flag)


def raw_tokens(text: str) -> dict[str, Token]:
    """The raw tokens of ``nfkc(text)`` keyed by their lowercase form (the table's lowercase).

    A raw token is a maximal run of word characters (the table's WORD class) and joiners
    ``_ . - ' ’``, with joiners stripped from both ends; a run with no word character is no
    token. IDEOGRAPH characters and separators end a run.

    >>> sorted(raw_tokens("Use `insort_left(a, x)`; see bisect.insort_right. Don't!"))
    ['a', 'bisect.insort_right', "don't", 'insort_left', 'see', 'use', 'x']
    """
    text = nfkc(text)
    out: dict[str, Token] = {}
    n = len(text)
    i = 0
    prompt = _prompt(text, 0)
    while i < n:
        c = text[i]
        if c == "\n":
            prompt = _prompt(text, i + 1)
        if char_class(c) != WORD and c not in JOINERS:
            i += 1
            continue
        j = i
        while j < n and (char_class(text[j]) == WORD or text[j] in JOINERS):
            j += 1
        s, e = i, j
        while s < e and text[s] in JOINERS:
            s += 1
        while e > s and text[e - 1] in JOINERS:
            e -= 1
        if s < e:
            form = text[s:e]
            key = _lower(form)
            before = text[i - 1] if i > 0 else " "
            after = text[e] if e < n else " "
            call = after == "("
            code = (
                prompt
                or before == "`"
                or bool(_CAPS.fullmatch(form))
                or after == "`"
                or (j < n and text[j] == "`")
            )
            flag = text[i:s].startswith("-") and before.isspace() and form[0].isalpha()
            old = out.get(key)
            mark = int(call or code or flag)
            if old is None:
                out[key] = Token(form, s, call, code, flag, 1, mark)
            else:
                out[key] = Token(
                    old.form,
                    old.first,
                    old.call or call,
                    old.code or code,
                    old.flag or flag,
                    old.count + 1,
                    old.marked + mark,
                )
        i = j
    return out


def _prompt(text: str, start: int) -> bool:
    """The line starting at ``start`` is a command line: after spaces, ``$ `` or ``>>> ``."""
    k = start
    while k < len(text) and text[k] in " \t":
        k += 1
    return text.startswith(("$ ", ">>> "), k)


@dataclass(frozen=True)
class Profile:
    """What the guard reads of a text: its words in order and its raw tokens."""

    words: tuple[str, ...]
    tokens: dict[str, Token]


def profile(text: str) -> Profile:
    """The guard's view of ``text``."""
    return Profile(tuple(words(text)), raw_tokens(text))


def token_class(tok: Token, classes: frozenset[str]) -> str | None:
    """The class of a differing token among ``classes``, or None (a plain word)."""
    f = tok.form
    if "number" in classes and any("0" <= c <= "9" for c in f):
        return "number"
    if "negation" in classes:
        low = _lower(f)
        if low in NEGATIONS or low.endswith(("n't", "n\u2019t")):
            return "negation"
    if "identifier" in classes:
        if "_" in f or _CAMEL.search(f):
            return "identifier"
        if "." in f and sum(len(p) >= 2 for p in f.split(".")) >= 1 and f.count(".") >= 1:
            parts = [p for p in f.split(".") if p]
            if len(parts) >= 2 and any(len(p) >= 2 for p in parts):
                return "identifier"
    if "marks" in classes and (tok.call or tok.code or tok.flag):
        return "identifier"
    if "kebab" in classes and "-" in f:
        return "identifier"
    return None


@dataclass(frozen=True)
class Guard:
    """A guard variant: which classes count, and how one-sided differences count."""

    name: str
    classes: frozenset[str]
    sides: str = "any"  # "any": a class token in either text's difference keeps the pair;
    # "paired": numbers and identifiers must differ on both sides (negations on either side)
    small: int = 0  # with sides="any": a one-sided difference counts only when that side has
    # at most this many differing tokens in all (0: no limit)
    swap: int = 0  # also keep a pair whose texts each have 1..swap raw tokens the other lacks
    # (and no class token differs) when the first of each are not spelling variants (edit
    # distance > 2): one name swapped for another, "gettextize" / "msgcmp"
    counts: bool = False  # a token differs when its number of occurrences differs (else: when
    # it occurs in one text only)

    def _side(self, a: dict[str, Token], b: dict[str, Token]) -> list[tuple[int, str, str]]:
        """The class tokens of ``a`` that differ from ``b``, in text order (first, form, class).

        Without ``counts`` a token differs when its key is not in ``b``. With ``counts`` when
        ``b`` has fewer occurrences of it; a token that is significant only by a mark (a plain
        word used as a call, in backticks, as an option) compares marked occurrences.
        """
        out = []
        for k, t in a.items():
            c = token_class(t, self.classes)
            if c is None:
                continue
            o = b.get(k)
            if o is not None:
                if not self.counts:
                    continue
                shape = token_class(t, self.classes - {"marks"}) is not None
                if (o.count >= t.count) if shape else (o.marked >= t.marked):
                    continue
            out.append((t.first, t.form, c))
        out.sort()
        return out

    def check(self, pa: Profile, pb: Profile) -> str | None:
        """``kept_because`` for two texts' profiles, or None when the guard lets them go.

        Texts whose words (``briefpack.reference.text.words``, in order) are equal never differ
        (the same text up to case, whitespace and punctuation: a copy).
        """
        if pa.words == pb.words:
            return None
        a, b = pa.tokens, pb.tokens
        ca = self._side(a, b)
        cb = self._side(b, a)
        if not ca and not cb and self.swap:
            only_a = sorted((t.first, t.form) for k, t in a.items() if k not in b)
            only_b = sorted((t.first, t.form) for k, t in b.items() if k not in a)
            if 1 <= len(only_a) <= self.swap and 1 <= len(only_b) <= self.swap:
                x, y = only_a[0][1], only_b[0][1]
                if levenshtein(_lower(x), _lower(y)) > 2:
                    return f"differs in {x!r} / {y!r}"
        if not ca and not cb:
            return None
        if self.sides == "paired":
            kinds_a = {c for _, _, c in ca}
            kinds_b = {c for _, _, c in cb}
            both = (kinds_a & kinds_b) | ((kinds_a | kinds_b) & {"negation"})
            if not both:
                return None
            ca = [x for x in ca if x[2] in both]
            cb = [x for x in cb if x[2] in both]
        elif self.small and (not ca or not cb):
            one, other = (a, b) if ca else (b, a)
            if sum(k not in other for k in one) > self.small:
                return None
        if ca and cb:
            return f"differs in {ca[0][1]!r} / {cb[0][1]!r}"
        return f"differs in {(ca or cb)[0][1]!r}"


def levenshtein(x: str, y: str) -> int:
    """Edit distance (insertions, deletions, substitutions of characters).

    >>> levenshtein("recieve", "receive"), levenshtein("gettextize", "msgcmp")
    (2, 10)
    """
    prev = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        cur = [i]
        for j, cy in enumerate(y, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (cx != cy)))
        prev = cur
    return prev[-1]


def _g(name: str, classes: str, **kw: Any) -> Guard:
    return Guard(name, frozenset(classes.split()), **kw)


GUARDS = {
    g.name: g
    for g in (
        _g("none", ""),
        _g("number", "number"),
        _g("negation", "negation"),
        _g("ident", "identifier"),
        _g("ident+marks", "identifier marks"),
        _g("num+ident", "number identifier"),
        _g("num+ident+neg", "number identifier negation"),
        _g("full", "number identifier marks negation"),
        _g("full+kebab", "number identifier marks negation kebab"),
        _g("full-paired", "number identifier marks negation", sides="paired"),
        _g("full-small3", "number identifier marks negation", small=3),
        _g("full-small10", "number identifier marks negation", small=10),
        _g("full+kebab-small10", "number identifier marks negation kebab", small=10),
        _g("full-counts", "number identifier marks negation", counts=True),
        _g("full+kebab-counts", "number identifier marks negation kebab", counts=True),
        _g("num+ident+neg-counts", "number identifier negation", counts=True),
        _g("num+ident+neg+kebab-counts", "number identifier negation kebab", counts=True),
        _g(
            "full+kebab-counts+swap2", "number identifier marks negation kebab", counts=True, swap=2
        ),
    )
}

# -- data -------------------------------------------------------------------------------------


def load_pairs(path: Path = gp.OUT) -> list[dict[str, Any]]:
    """The labelled pairs; a real pair gets its ``jaccard`` (``inter / union``, as the kernel)."""
    out = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for p in out:
        if p["kind"] == "real":
            p["jaccard"] = p["inter"] / p["union"]
    return out


class Data:
    """The corpus, the pairs and the texts of synthetic pairs, with cached raw tokens."""

    def __init__(
        self, rows: list[dict[str, Any]] | None = None, pairs: list[dict[str, Any]] | None = None
    ) -> None:
        self.rows = gp.load_corpus() if rows is None else rows
        self.texts = [str(r["text"]) for r in self.rows]
        self.index = {str(r["id"]): n for n, r in enumerate(self.rows)}
        self.pairs = load_pairs() if pairs is None else pairs
        for p in self.pairs:
            if p["kind"] == "real":
                p["jaccard"] = p["inter"] / p["union"]
        self.synth: dict[int, tuple[str, str]] = {}
        for n, p in enumerate(self.pairs):
            if p["kind"] == "synthetic":
                a = self.texts[self.index[p["a"]]]
                other = self.texts[self.index[p["recipe"]["from"]]] if "from" in p["recipe"] else ""
                b = gp.apply_recipe(a, p["recipe"], other)
                assert b is not None, p
                self.synth[n] = (a, b)
        self._tok: dict[int, Profile] = {}

    def tokens(self, i: int) -> Profile:
        if i not in self._tok:
            self._tok[i] = profile(self.texts[i])
        return self._tok[i]


# -- the stream -------------------------------------------------------------------------------


def stream(
    data: Data, method: str, t: float, guard: Guard
) -> tuple[dict[int, tuple[int, int]], int]:
    """Greedy dedupe of the corpus with the guard: dropped index -> (kept index, pair number),
    and how many times the guard ran (pairs over the threshold compared)."""
    earlier: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for n, p in enumerate(data.pairs):
        if p["kind"] != "real":
            continue
        hit = p["jaccard"] >= t if method == "jaccard" else t in p["minhash_at"]
        if hit:
            k, i = data.index[p["a"]], data.index[p["b"]]
            earlier[i].append((k, n))
    kept: set[int] = set()
    drops: dict[int, tuple[int, int]] = {}
    calls = 0
    for i in range(len(data.texts)):
        for k, n in sorted(earlier.get(i, ())):
            if k not in kept:
                continue
            calls += 1
            if guard.name == "none" or guard.check(data.tokens(k), data.tokens(i)) is None:
                drops[i] = (k, n)
                break
        if i not in drops:
            kept.add(i)
    return drops, calls


def _kernel_drops(data: Data, method: str, t: float) -> frozenset[tuple[int, int]]:
    fn = kernels.dedupe_jaccard if method == "jaccard" else kernels.dedupe_minhash
    res = fn(data.texts, t)
    return frozenset((i, k) for i, k in enumerate(res.duplicate_of) if k is not None)


def stream_table(data: Data, split: str, guards: Iterable[Guard], check: bool = True) -> list[str]:
    """Markdown rows: method, threshold, guard, drops, precision, copies still dropped."""
    base, _ = stream(data, "jaccard", 0.7, GUARDS["none"])
    base_copies = {i for i, (_, n) in base.items() if _in(data, n, split, ("copy",))}
    out = [
        "| method | t | guard | drops | copies | near | siblings | precision | copies kept | "
        "guard calls |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for method in ("jaccard", "minhash"):
        for t in THRESHOLDS:
            for g in guards:
                drops, calls = stream(data, method, t, g)
                if check and g.name == "none":
                    got = frozenset((i, k) for i, (k, _) in drops.items())
                    assert got == _kernel_drops(data, method, t), (method, t)
                mine = {i: n for i, (_, n) in drops.items() if data.pairs[n]["split"] == split}
                lab = [data.pairs[n]["label"] for n in mine.values()]
                cop, near = lab.count("copy"), lab.count("near_copy")
                sib = len(lab) - cop - near
                kept = len(base_copies & set(mine)) / len(base_copies) if base_copies else 1.0
                prec = (cop + near) / len(lab) if lab else 1.0
                out.append(
                    f"| {method} | {t} | {g.name} | {len(lab)} | {cop} | {near} | {sib} | "
                    f"{prec:.1%} | {kept:.1%} | {calls} |"
                )
    return out


def _in(data: Data, n: int, split: str, labels: tuple[str, ...]) -> bool:
    p = data.pairs[n]
    return bool(p["split"] == split and p["label"] in labels)


# -- pairs alone ------------------------------------------------------------------------------


def pair_hits(data: Data, split: str) -> list[tuple[int, dict[str, set[float]]]]:
    """Each pair of the split with the thresholds at which each kernel drops it."""
    out = []
    for n, p in enumerate(data.pairs):
        if p["split"] != split:
            continue
        if p["kind"] == "real":
            jac = {t for t in THRESHOLDS if p["jaccard"] >= t}
            mh = set(p["minhash_at"])
        else:
            a, b = data.synth[n]
            at = gp.pair_thresholds(a, b)
            jac, mh = set(at["jaccard"]), set(at["minhash"])
        out.append((n, {"jaccard": jac, "minhash": mh}))
    return out


def pair_tokens(data: Data, n: int) -> tuple[Profile, Profile]:
    p = data.pairs[n]
    if p["kind"] == "real":
        return data.tokens(data.index[p["a"]]), data.tokens(data.index[p["b"]])
    a, b = data.synth[n]
    return profile(a), profile(b)


def pair_table(data: Data, split: str, guards: Iterable[Guard]) -> list[str]:
    """Markdown rows: method, threshold, guard, dropped, precision, recall of copies and dups."""
    hits = pair_hits(data, split)
    toks = {n: pair_tokens(data, n) for n, _ in hits}
    labels = {n: data.pairs[n]["label"] for n, _ in hits}
    ncopy = sum(v == "copy" for v in labels.values())
    ndup = sum(v in DUP for v in labels.values())
    out = [
        f"pairs: {len(hits)} ({ncopy} copies, {ndup - ncopy} near copies, "
        f"{len(hits) - ndup} siblings)",
        "",
        "| method | t | guard | dropped | precision | copy recall | dup recall | "
        "siblings dropped |",
        "|---|---|---|---|---|---|---|---|",
    ]
    guards = list(guards)
    verdict = {g.name: {n: g.check(*toks[n]) is None for n, _ in hits} for g in guards}
    for method in ("jaccard", "minhash"):
        for t in THRESHOLDS:
            for g in guards:
                dropped = [n for n, at in hits if t in at[method] and verdict[g.name][n]]
                lab = [labels[n] for n in dropped]
                good = sum(x in DUP for x in lab)
                prec = good / len(lab) if lab else 1.0
                rc = lab.count("copy") / ncopy if ncopy else 1.0
                rd = good / ndup if ndup else 1.0
                out.append(
                    f"| {method} | {t} | {g.name} | {len(lab)} | {prec:.1%} | {rc:.1%} | "
                    f"{rd:.1%} | {len(lab) - good} |"
                )
    return out


def family_table(data: Data, split: str, guard: Guard) -> list[str]:
    """Per synthetic edit: pairs, share the guard keeps (for siblings: should be all)."""
    per: dict[str, list[bool]] = defaultdict(list)
    for n, p in enumerate(data.pairs):
        if p["split"] == split and p["kind"] == "synthetic":
            kept = guard.check(*pair_tokens(data, n)) is not None
            per[f"{p['recipe']['edit']} ({p['label']})"].append(kept)
    out = ["| edit (label) | pairs | kept by the guard |", "|---|---|---|"]
    for k in sorted(per):
        v = per[k]
        out.append(f"| {k} | {len(v)} | {sum(v)} ({sum(v) / len(v):.0%}) |")
    return out


# -- cost -------------------------------------------------------------------------------------


def cost(guard: Guard) -> list[str]:
    """Guard calls (the comparisons over 0.7 a guarded greedy Jaccard walk makes) per 1k/10k
    candidates of the benchmark workload (benches/workload.py) and of the corpus in order, the
    Rust kernel's time today, and the plain-Python guard's time per call."""
    import workload  # type: ignore[import-not-found]  # benches/, put on the path above

    out = [
        "| candidates | Rust kernel today | comparisons over 0.7 (guard calls) | kept by the "
        "guard | Python: profiles of both texts + check | check alone |",
        "|---|---|---|---|---|---|",
    ]
    rows = gp.load_corpus()
    makers: dict[str, Callable[[int], list[str]]] = {
        "workload": lambda n: [str(t) for t in workload.texts(n)],
        "corpus": lambda n: [str(r["text"]) for r in rows[:n]],
    }
    for name, make in makers.items():
        for n in (1_000, 10_000):
            texts = make(n)
            kernels.dedupe_jaccard(texts, 0.7)
            t0 = time.perf_counter()
            for _ in range(5):
                kernels.dedupe_jaccard(texts, 0.7)
            kern = (time.perf_counter() - t0) / 5
            pairs = over_threshold(texts, 0.7, guard)
            t0 = time.perf_counter()
            for i, k in pairs:
                guard.check(profile(texts[k]), profile(texts[i]))
            full = (time.perf_counter() - t0) / max(1, len(pairs))
            profs = {x: profile(texts[x]) for pair in pairs for x in pair}
            t0 = time.perf_counter()
            keptn = sum(guard.check(profs[k], profs[i]) is not None for i, k in pairs)
            alone = (time.perf_counter() - t0) / max(1, len(pairs))
            out.append(
                f"| {name} {n:,} | {kern * 1e3:.2f} ms | {len(pairs)} | {keptn} | "
                f"{full * 1e6:.0f} us | {alone * 1e6:.1f} us |"
            )
    return out


def over_threshold(texts: list[str], t: float, guard: Guard) -> list[tuple[int, int]]:
    """The (item, kept item) comparisons at or over ``t`` that a guarded greedy Jaccard walk
    makes: each is one guard call. Every pair over ``t`` comes from the exact join, then the
    walk runs as the kernel's (kept items in rank order, first match wins)."""
    sets = gp.word_sets(texts)
    join = gp.jaccard_join(sets, t)
    earlier: dict[int, list[int]] = defaultdict(list)
    for i, k in join:
        earlier[k].append(i)
    kept: set[int] = set()
    out: list[tuple[int, int]] = []
    profs: dict[int, Profile] = {}

    def pr(i: int) -> Profile:
        if i not in profs:
            profs[i] = profile(texts[i])
        return profs[i]

    for i in range(len(texts)):
        dup = False
        for k in sorted(earlier.get(i, ())):
            if k in kept:
                out.append((i, k))
                if guard.check(pr(k), pr(i)) is None:
                    dup = True
                    break
        if not dup:
            kept.add(i)
    return out


# -- main -------------------------------------------------------------------------------------


def show(data: Data, guard: Guard, method: str, t: float, split: str, limit: int) -> None:
    """Print the stream drops at ``t`` that are not copies (with the diff the guard saw)."""
    drops, _ = stream(data, method, t, guard)
    shown = 0
    for i, (k, n) in sorted(drops.items()):
        p = data.pairs[n]
        if p["split"] != split or p["label"] == "copy":
            continue
        a, b = data.tokens(k).tokens, data.tokens(i).tokens
        da = sorted(x for x in a if x not in b)[:12]
        db = sorted(x for x in b if x not in a)[:12]
        print(f"{p['a']} {p['b']} {p['jaccard']:.3f} {p['label']} ({p['rule']})")
        print(f"    only a: {da}\n    only b: {db}")
        shown += 1
        if shown >= limit:
            break


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("tune", "heldback", "cost", "show", "fresh"))
    ap.add_argument("guard", nargs="*", default=["full+kebab-counts"])
    ap.add_argument("--method", default="jaccard")
    ap.add_argument("--t", type=float, default=0.7)
    ap.add_argument("--split", default="tune")
    ap.add_argument("--limit", type=int, default=40)
    args = ap.parse_args(argv)
    guard = GUARDS[args.guard[0]]
    if args.what == "fresh":
        rows = gp.load_corpus(langs=("de", "fr", "es"))
        pairs = gp.real_pairs(rows)
        for p in pairs:
            p["split"] = "fresh"
        data = Data(rows, pairs)
        labels = [p["label"] for p in pairs]
        print(
            f"fresh: {len(rows)} passages, {len(pairs)} real pairs, labels "
            f"{ {x: labels.count(x) for x in sorted(set(labels))} }\n"
        )
        chosen = [GUARDS["none"], *(GUARDS[g] for g in args.guard)]
        print("\n".join(stream_table(data, "fresh", chosen)))
        for g in args.guard:
            print(f"\n## drops that are not copies, {g}, jaccard {args.t}\n")
            show(data, GUARDS[g], "jaccard", args.t, "fresh", args.limit)
        return 0
    if args.what == "cost":
        print("\n".join(cost(guard)))
        return 0
    data = Data()
    if args.what == "show":
        show(data, guard, args.method, args.t, args.split, args.limit)
        return 0
    split = "tune" if args.what == "tune" else "heldback"
    guards: list[Guard] = list(GUARDS.values()) if args.what == "tune" else [GUARDS["none"], guard]
    print(f"## {split}: stream over the corpus\n")
    print("\n".join(stream_table(data, split, guards)))
    print(f"\n## {split}: pairs alone\n")
    print("\n".join(pair_table(data, split, guards)))
    print(f"\n## {split}: synthetic families, guard {guard.name}\n")
    print("\n".join(family_table(data, split, guard)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
