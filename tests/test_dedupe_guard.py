"""The difference guard of near-duplicate dedupe (docs/dedupe_guard.md), on both backends.

Each sibling family of the issue as literal texts, the pricing page, versions, dates and
negations are kept with their reason; near copies (case, whitespace, boilerplate, a typo) are
still dropped. The Rust core and the reference decide identically: on generated pairs with
numbers, identifiers and negations, and on the labelled corpus pairs (when the corpus is here).
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import briefpack as bp
from briefpack import _backend, kernels
from briefpack.errors import InputError
from briefpack.reference import dedupe as ref

ROOT = Path(__file__).resolve().parents[1]
HAVE_RUST = _backend.rust_core() is not None
BACKENDS = ["python", *(["rust"] if HAVE_RUST else [])]


def run(backend: str, method: str, texts: list[str], **kw: Any) -> Any:
    """The kernel ``method`` on ``backend``, with the guard on unless ``guard=False`` is given
    (it is an opt-in: off by default)."""
    kw.setdefault("guard", True)
    k = _backend.get_kernels(backend)
    if method == "cosine":  # one direction for all: every pair is over any threshold
        return k.dedupe("dedupe_cosine", [[1.0, 0.0]] * len(texts), texts=texts, **kw)
    return k.dedupe(f"dedupe_{method}", texts, **kw)


def pair(a: str, b: str, backend: str, method: str = "jaccard", **kw: Any) -> Any:
    kw.setdefault("threshold", 0.5 if method != "cosine" else 0.97)
    return run(backend, method, [a, b], **kw)


SIBLINGS = [
    (
        "Insert x in a, keeping it sorted: bisect.insort_left(a, x, lo=0, hi=len(a)) puts it "
        "before any existing entries equal to x.",
        "Insert x in a, keeping it sorted: bisect.insort_right(a, x, lo=0, hi=len(a)) puts it "
        "after any existing entries equal to x.",
        "differs in 'bisect.insort_left' / 'bisect.insort_right'",
    ),
    (
        "Log a message with severity INFO on the root logger: logging.info(msg, *args). The "
        "arguments are interpreted as for debug().",
        "Log a message with severity CRITICAL on the root logger: logging.critical(msg, *args). "
        "The arguments are interpreted as for debug().",
        "differs in 'INFO' / 'CRITICAL'",
    ),
    (
        "class pathlib.PureWindowsPath(*pathsegments): a subclass of PurePath, this path flavour "
        "represents file system paths of this kind.",
        "class pathlib.PurePosixPath(*pathsegments): a subclass of PurePath, this path flavour "
        "represents file system paths of this kind.",
        "differs in 'pathlib.PureWindowsPath' / 'pathlib.PurePosixPath'",
    ),
    (
        "ipaddress.ip_interface(address) returns an object of the right type for the address "
        "passed as argument; a ValueError is raised if it is not valid.",
        "ipaddress.ip_address(address) returns an object of the right type for the address "
        "passed as argument; a ValueError is raised if it is not valid.",
        "differs in 'ipaddress.ip_interface' / 'ipaddress.ip_address'",
    ),
    (
        "typing.NotRequired marks a key of a TypedDict as potentially missing; it is only valid "
        "inside a TypedDict body.",
        "typing.Required marks a key of a TypedDict as required; it is only valid inside a "
        "TypedDict body.",
        "differs in 'typing.NotRequired' / 'typing.Required'",
    ),
    (
        "inspect.getinnerframes(traceback, context=1) gets a list of frame records for a "
        "traceback's frame and all inner frames.",
        "inspect.getouterframes(frame, context=1) gets a list of frame records for a frame and "
        "all outer frames.",
        "differs in 'inspect.getinnerframes' / 'inspect.getouterframes'",
    ),
    (
        "The codec decodes UTF-16 input: the byte order mark is read first and removed, and "
        "the rest is decoded in that order.",
        "The codec decodes UTF-32 input: the byte order mark is read first and removed, and "
        "the rest is decoded in that order.",
        "differs in 'UTF-16' / 'UTF-32'",
    ),
]

PLAN = (
    "Pro plan: $49 per month, billed annually. Includes 5 seats and priority support. "
    "Cancel anytime."
)
PYTHON = (
    "Requires Python 3.11 or later, released on 2022-10-24; older interpreters are not "
    "supported by this package or its command line tools."
)
KEPT = [
    (PLAN, PLAN.replace("$49", "$59"), "differs in '49' / '59'"),
    (PYTHON, PYTHON.replace("3.11", "3.12"), "differs in '3.11' / '3.12'"),
    (PYTHON, PYTHON.replace("2022-10-24", "2023-10-02"), "differs in '2022-10-24' / '2023-10-02'"),
    (
        "The cache is shared between workers.",
        "The cache is not shared between workers.",
        "differs in 'not'",
    ),
    (
        "The cache is not shared between workers, and it is not copied.",
        "The cache is not shared between workers, and it is copied.",
        "differs in 'not'",
    ),
    (
        "It works on every platform we support today.",
        "It doesn't work on every platform we support today.",
        'differs in "doesn\'t"',
    ),
]

BASE = "We recieve the request, check the cache and answer. The answer is cached for later calls."
NEAR_COPIES = [
    BASE.upper(),
    BASE.replace(" ", "\n"),
    "Skip to main content\n\n" + BASE,
    BASE.replace("recieve", "receive"),
    "  " + BASE.replace(". ", ".\n\n"),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("method", ["jaccard", "cosine"])
@pytest.mark.parametrize(("a", "b", "why"), SIBLINGS + KEPT)
def test_siblings_are_kept_with_their_reason(a: str, b: str, why: str, backend: str, method: str):
    res = pair(a, b, backend, method)
    assert res.kept == [0, 1]
    assert res.near_of == [None, 0]
    assert res.kept_because == [None, why]
    assert res.near_similarity[1] is not None
    assert res.near_similarity[1] >= 0.5


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("method", ["jaccard", "minhash", "cosine"])
@pytest.mark.parametrize("b", NEAR_COPIES)
def test_near_copies_are_still_dropped(b: str, backend: str, method: str):
    res = pair(BASE, b, backend, method, **({"threshold": 0.3} if method == "minhash" else {}))
    assert res.kept == [0], res
    assert res.kept_because == [None, None]


@pytest.mark.parametrize("backend", BACKENDS)
def test_pricing_page_is_095_similar_and_both_are_kept(backend: str):
    plan = " ".join(f"feature{i}" for i in range(36)) + " price: $49 per month"
    other = plan.replace("$49", "$59")
    off = run(backend, "jaccard", [plan, other], threshold=0.7, guard=False)
    assert off.kept == [0]
    assert off.similarity[1] is not None
    assert off.similarity[1] >= 0.95
    on = run(backend, "jaccard", [plan, other], threshold=0.7)
    assert on.kept == [0, 1]
    assert on.kept_because[1] == "differs in '49' / '59'"
    mh = run(backend, "minhash", [plan, other], threshold=0.5)
    assert mh.kept == [0, 1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_saved_item_still_duplicates_a_later_kept_item(backend: str):
    a, b = KEPT[0][0], KEPT[0][1]
    res = run(backend, "jaccard", [a, b, b.lower(), a.replace("  ", " ")], threshold=0.7)
    assert res.kept == [0, 1]
    assert res.duplicate_of == [None, None, 1, 0]
    assert res.kept_because[:2] == [None, "differs in '49' / '59'"]


def test_guard_off_is_the_old_kernel_and_a_non_bool_is_refused():
    texts = [SIBLINGS[0][0], SIBLINGS[0][1]]
    res = kernels.dedupe_jaccard(texts, guard=False)
    assert res.kept == [0]
    assert res.kept_because == [None, None]
    with pytest.raises(InputError, match="guard must be True or False, got 1"):
        kernels.dedupe_jaccard(texts, guard=1)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="texts has 1 items but vectors has 2"):
        kernels.dedupe_cosine([[1.0, 0.0], [1.0, 0.0]], texts=["a"])


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_guard_is_on_by_default_and_the_record_explains_a_kept_pair(backend: str):
    # The contract changed: the guard is the default of `assemble` (DESIGN.md), recorded in
    # the settings only when turned off.
    a, b, why = SIBLINGS[0]
    chunks = [bp.Chunk(a, id="left", score=0.9), bp.Chunk(b, id="right", score=0.8)]
    on = bp.assemble("insort?", chunks, budget=2000, tokenizer="approx", backend=backend)
    assert [s.chunk.id for s in on.sources] == ["left", "right"]
    entry = on.record()["candidates"][1]
    assert entry["near"]["of"] == "left"
    assert entry["near"]["kept_because"] == why
    assert entry["near"]["method"] == "jaccard"
    assert entry["near"]["similarity"] >= 0.7
    assert "near" not in on.record()["candidates"][0]
    explicit = bp.assemble(
        "insort?", chunks, budget=2000, tokenizer="approx", backend=backend, dedupe_guard=True
    )
    assert explicit.record(include_prompt=True) == on.record(include_prompt=True)
    off = bp.assemble(
        "insort?", chunks, budget=2000, tokenizer="approx", backend=backend, dedupe_guard=False
    )
    assert [s.chunk.id for s in off.sources] == ["left"]
    assert "dedupe_guard" not in on.record()["settings"]
    assert off.record()["settings"]["dedupe_guard"] is False
    with pytest.raises(InputError, match="dedupe_guard must be True or False"):
        bp.assemble("q", chunks, dedupe_guard="no")


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_kernels_take_the_guard_when_asked_and_off_it_changes_nothing(backend: str):
    # The kernel functions stay the plain similarity test unless `guard=True`; `assemble`
    # turns it on by default and `dedupe_guard=False` gives the dedupe as it was before it.
    a, b, _ = SIBLINGS[0]
    texts = [a, b, KEPT[0][0], KEPT[0][1]]
    k = _backend.get_kernels(backend)
    for name, data, kw in (
        ("dedupe_jaccard", texts, {}),
        ("dedupe_minhash", texts, {"threshold": 0.3}),
        ("dedupe_cosine", [[1.0, 0.0]] * len(texts), {"texts": texts}),
    ):
        default, off = k.dedupe(name, data, **kw), k.dedupe(name, data, guard=False, **kw)
        assert type(default) is bp.kernels.DedupeResult, name  # never the guard's columns
        assert default == off, name
        assert default.kept_because == [None] * len(texts), name
        assert len(default.kept) < len(texts), name  # the siblings are dropped, as before
        assert k.dedupe(name, data, guard=True, **kw).kept != default.kept, name
    chunks = [bp.Chunk(t, id=f"c{i}", score=1.0 - i / 10) for i, t in enumerate(texts)]
    plain = bp.assemble("q", chunks, budget=2000, tokenizer="approx", backend=backend)
    off_run = bp.assemble(
        "q", chunks, budget=2000, tokenizer="approx", backend=backend, dedupe_guard=False
    )
    unguarded = k.dedupe("dedupe_jaccard", texts)
    assert [d.chunk.id for d in off_run.dropped] == [
        f"c{i}" for i, of in enumerate(unguarded.duplicate_of) if of is not None
    ]
    assert all("near" not in c for c in off_run.record()["candidates"])
    assert off_run.record()["settings"]["dedupe_guard"] is False
    assert len(plain.sources) > len(off_run.sources)  # the default keeps the siblings
    assert "dedupe_guard" not in plain.record()["settings"]


GUIDE = (
    "You need to be a workspace owner and an Entra ID application administrator. 1. In the "
    "Microsoft Entra admin center, open Enterprise applications, choose New application. "
    "2. Under Single sign-on choose SAML, set the reply URL. 3. In Relay, open Settings > "
    "Security > Single sign-on, upload the metadata and click Test connection."
)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "copy",
    [
        "Single sign-on with Microsoft Entra ID. " + GUIDE,  # a heading: one more of each
        GUIDE.replace("Settings > Security > Single sign-on", "Settings > Security"),  # one less
    ],
    ids=["heading added", "words dropped"],
)
def test_a_copy_that_adds_or_drops_a_heading_is_still_a_copy(backend: str, copy: str):
    """A hyphenated compound ("sign-on") and a marked word ("ID", in capitals) count by
    presence, not occurrences: one more or one fewer of them is no difference."""
    texts = [GUIDE, copy]
    k = _backend.get_kernels(backend)
    assert k.dedupe("dedupe_jaccard", texts, threshold=0.7, guard=True).kept == [0]
    # an occurrence still counts for numbers, negations and code names
    numbered = [GUIDE + " Retry 2 times.", GUIDE + " Retry 2 times, then 2 more."]
    assert k.dedupe("dedupe_jaccard", numbered, threshold=0.7, guard=False).kept == [0]
    assert k.dedupe("dedupe_jaccard", numbered, threshold=0.7, guard=True).kept == [0, 1]


# -- parity ---------------------------------------------------------------------------------

WORDS = ["the", "cache", "is", "shared", "between", "workers", "and", "copied", "plan", "seat"]
SPECIAL = [
    "not",
    "no",
    "never",
    "don't",
    "3.11",
    "3.12",
    "2024",
    "49",
    "59",
    "UTF-16",
    "insort_left",
    "insort_right",
    "getInner",
    "os.path",
    "e.g.",
    "EOF",
    "DOMAIN",
    "--sort-by",
    "-D",
    "call()",
    "`tick`",
    "$ run",
    ">>> x",
    "Ünïcode",
    "msgcmp",
    "gettextize",
    "caf\u00e9",
    "x\u00b2",
    "\u2019s",
    "isn\u2019t",
    "a.b.c",
    "_x_",
    "\n",
]
token = st.sampled_from(WORDS + SPECIAL)
text = st.lists(token, min_size=0, max_size=14).map(" ".join)


@pytest.mark.skipif(not HAVE_RUST, reason="the Rust core is not built")
@given(st.lists(text, min_size=1, max_size=6), st.sampled_from([0.0, 0.3, 0.5, 0.7, 1.0]))
def test_backends_decide_identically_on_generated_texts(texts: list[str], t: float):
    for method in ("jaccard", "minhash", "cosine"):
        kw: dict[str, Any] = {} if method == "cosine" else {"threshold": t}
        got, want = run("rust", method, texts, **kw), run("python", method, texts, **kw)
        assert got == want, method
        assert (got.near_of, got.near_similarity, got.kept_because) == (
            want.near_of,
            want.near_similarity,
            want.kept_because,
        ), method


@pytest.mark.skipif(not HAVE_RUST, reason="the Rust core is not built")
@given(text, text)
def test_backends_give_the_same_reason_for_a_pair(a: str, b: str):
    got, want = pair(a, b, "rust", threshold=0.0), pair(a, b, "python", threshold=0.0)
    assert (got, got.kept_because, got.near_of) == (want, want.kept_because, want.near_of)


CORPUS = Path(
    os.environ.get("BRIEFPACK_CORPUS") or ROOT.parent / "shared" / "corpus" / "passages.jsonl.gz"
)


@pytest.mark.skipif(not HAVE_RUST or not CORPUS.is_file(), reason="needs the corpus and Rust")
def test_backends_agree_on_every_labelled_corpus_pair():
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        texts = {r["id"]: r["text"] for r in map(json.loads, fh)}
    pairs = [
        json.loads(line)
        for line in (ROOT / "tests" / "data" / "guard_pairs.jsonl").read_text().splitlines()
    ]
    real = [p for p in pairs if p["kind"] == "real"]
    assert len(real) == 2905
    for p in real:
        two = [texts[p["a"]], texts[p["b"]]]
        got = run("rust", "jaccard", two, threshold=0.0)
        want = ref.dedupe_jaccard(two, 0.0, guard=True)
        assert (got, got.kept_because) == (want, want.kept_because), (p["a"], p["b"])
