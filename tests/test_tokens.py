"""Token counting: the Rust core against tiktoken (the oracle) and the Python reference.

Counts must equal tiktoken's ``len(enc.encode_ordinary(text))`` for ``o200k_base`` and
``cl100k_base`` on the real corpus, on adversarial hypothesis text, on every short string over
an alphabet that spans the pretokenizer's character classes, and on code points from the whole
Unicode range; ``approx`` must equal the reference; errors must carry the reference's class
and message.
"""

from __future__ import annotations

import functools
import gzip
import itertools
import json
import os
import sys
import threading
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from briefpack import reference
from briefpack.errors import InputError
from conftest import CORPUS, HAS_RUST, tiktoken_available

if HAS_RUST:
    from briefpack import _core as core
else:  # pragma: no cover - depends on the build
    core = None

pytestmark = pytest.mark.skipif(
    core is None or not hasattr(core, "count_tokens"),
    reason="the Rust extension is not built or lacks count_tokens",
)

BPE = ["o200k_base", "cl100k_base"]
ENCODINGS = [*BPE, "approx"]
DEFAULT_CAPACITY = 65_536


@functools.cache
def _tiktoken(name: str) -> Any:
    tiktoken = pytest.importorskip("tiktoken")
    if not tiktoken_available():
        pytest.skip("TIKTOKEN_CACHE_DIR is not set to the offline vocabularies")
    return tiktoken.get_encoding(name)


def tiktoken_counts(texts: list[str], name: str) -> list[int]:
    enc = _tiktoken(name)
    return [len(enc.encode_ordinary(t)) for t in texts]


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    """Every test starts and ends with an empty cache of the default capacity."""
    if core is not None and hasattr(core, "set_token_cache_capacity"):
        core.set_token_cache_capacity(DEFAULT_CAPACITY)
    yield
    if core is not None and hasattr(core, "set_token_cache_capacity"):
        core.set_token_cache_capacity(DEFAULT_CAPACITY)


# -- strategies -------------------------------------------------------------------------------

# Pieces that stress the pretokenizer: every kind of whitespace (with \r\n and \u2028), NUL,
# contractions in both cases (and with a long s, which folds to s), slashes (o200k keeps them
# with punctuation), digits of several scripts, cased and uncased letters, combining marks,
# CJK, right-to-left scripts, emoji with skin tones, ZWJ and flags, unassigned and the last
# code point.
ATOMS = [
    " ", "  ", "\t", "\n", "\r", "\r\n", "\n\n", "\x0b", "\x0c", "\x85", "\u00a0", "\u1680",
    "\u2000", "\u2028", "\u2029", "\u202f", "\u3000", "\x00", "'", "'s", "'S", "'ll", "'LL",
    "'re", "'ve", "'m", "'d", "'t", "'\u017f", "\u2019s", "/", "//", "\\", "-", "_", ".", ",",
    "!?", "...", "(", ")", "{", "}", "<", ">", "#", "@", "$", "%", "0", "1", "12", "123",
    "1234", "\u0663", "\u0967", "\uff11", "\u216b", "\u00bd", "\u00b2", "a", "A", "Ab", "aB",
    "hello", "HELLO", "Hello", "\u01c5", "\u02b0", "\u00df", "\u1e9e", "\ufb01", "\u00e9",
    "e\u0301", "\u0301", "\u0903", "\u0e01", "\u0e35", "中文", "日本語", "カタカナ", "한국어",
    "Привет", "مرحبا", "שלום", "हिन्दी", "😀", "👍🏽", "👨\u200d👩\u200d👧", "🇫🇷", "\u200d",
    "\ufe0f", "\ufeff", "\U0001f9d1", "\U000e0001", "\U0010ffff", "\ufffd", "\u0378",
    "\U00010d40",
]  # fmt: skip

_atom = st.sampled_from(ATOMS) | st.characters(exclude_categories=("Cs",)) | st.text(max_size=5)
_run = st.tuples(_atom, st.integers(1, 4) | st.integers(1, 300)).map(lambda p: p[0] * p[1])
adversarial_text = st.lists(_run, max_size=30).map("".join)
any_text = st.text() | adversarial_text
text_batches = st.lists(any_text, max_size=6)


# -- parity with tiktoken ---------------------------------------------------------------------


@functools.cache
def _corpus() -> list[str]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        return [json.loads(line)["text"] for line in f]


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared corpus is not present")
@pytest.mark.parametrize("name", BPE)
def test_corpus_matches_tiktoken(name: str) -> None:
    texts = _corpus()
    expected = tiktoken_counts(texts, name)
    cold = core.count_tokens(texts, name)  # counts every passage (and fills the cache)
    mismatches = [(i, a, b) for i, (a, b) in enumerate(zip(cold, expected)) if a != b]
    assert mismatches == []
    assert core.count_tokens(texts, name) == expected  # from the cache
    assert core.token_cache_info()["hits"] >= len(set(texts))


@pytest.mark.parametrize("name", BPE)
@given(texts=text_batches)
def test_matches_tiktoken(name: str, texts: list[str]) -> None:
    expected = tiktoken_counts(texts, name)
    assert core.count_tokens(texts, name) == expected
    assert core.count_tokens(texts, name) == expected  # the cached path
    assert [core.count_tokens([t], name)[0] for t in texts] == expected


# A text is counted segment by segment where both pretokenizers must cut (after "\n", before a
# character that is neither whitespace nor "/"), long segments through the cache: counts of
# texts built from already-counted text must still be tiktoken's.
_line = st.lists(_run, min_size=1, max_size=4).map("".join)
_lines = st.lists(_line, min_size=1, max_size=6)


@pytest.mark.parametrize("name", BPE)
@given(lines=_lines, heads=st.lists(_line, min_size=2, max_size=2))
def test_text_built_from_counted_segments_matches_tiktoken(
    name: str, lines: list[str], heads: list[str]
) -> None:
    body = "\n".join(lines)
    first = f'<source id="{heads[0]}">\n{body}\n</source>'
    second = f"[{heads[1]}]\n{body}\n</source>"
    texts = [first, second, f"{first}\n\n{second}", f"x\n{body}\n\n{first}"]
    expected = tiktoken_counts(texts, name)
    core.count_tokens([first], name, segments=True)  # caches the body's segments
    assert core.count_tokens(texts, name, segments=True) == expected
    assert core.count_tokens(texts, name) == expected
    limits = [0, 1, 10**9, 5]
    core.set_token_cache_capacity(DEFAULT_CAPACITY)
    core.count_tokens_limited([second], [10**9], name, segments=True)
    limited = core.count_tokens_limited(texts, limits, name, segments=True)
    for got, want, limit in zip(limited, expected, limits):
        assert got == want if want <= limit else got > limit


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared corpus is not present")
@pytest.mark.parametrize("name", BPE)
def test_corpus_blocks_under_new_labels_match_tiktoken(name: str) -> None:
    """The pipeline's pattern: blocks counted with one label, then again with others, then
    joined; every count must be tiktoken's."""
    texts = _corpus()[::10]
    wide = [f'<source id="999" title="t">\n{t}\n</source>' for t in texts]
    final = [f'<source id="{i}" title="t">\n{t}\n</source>' for i, t in enumerate(texts, 1)]
    joined = ["\n\n".join(final[i : i + 40]) for i in range(0, len(final), 40)]
    core.count_tokens_limited(wide, [10**9] * len(wide), name, segments=True)
    got = core.count_tokens(final + joined, name, segments=True)
    assert got == tiktoken_counts(final + joined, name)
    assert core.token_cache_info()["size"] > len(wide) + len(final) + len(joined)  # segments


@pytest.mark.parametrize("name", BPE)
def test_every_short_string_matches_tiktoken(name: str) -> None:
    # Each character stands for a class the pretokenizer distinguishes: space, newline, CR,
    # lower and upper letter, digit, apostrophe, 's' (contractions), punctuation, no-break
    # space (whitespace that is not ' '), '/' (o200k) and a combining mark.
    alphabet = [" ", "\n", "\r", "a", "A", "1", "'", "s", "!", "\u00a0", "/", "\u0301"]
    texts = ["".join(p) for n in range(1, 6) for p in itertools.product(alphabet, repeat=n)]
    assert core.count_tokens(texts, name) == tiktoken_counts(texts, name)


@pytest.mark.parametrize("name", BPE)
def test_code_points_match_tiktoken(name: str) -> None:
    # Every code point (the slow profile) or every 61st plus the first 4096, in contexts that
    # expose its class: letter case, digits, whitespace, punctuation and contractions.
    step = 1 if os.environ.get("HYPOTHESIS_PROFILE") == "slow" else 61
    cps = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and (c < 4096 or c % step == 0)]
    template = "{c}|a{c}b A{c}a {c}'s x{c}'S 1{c}2 !{c}! {c}{c}  {c}x\n{c}\r\n"
    texts = [template.format(c=chr(c)) for c in cps]
    assert core.count_tokens(texts, name) == tiktoken_counts(texts, name)


@pytest.mark.parametrize("name", BPE)
def test_long_runs_match_tiktoken(name: str) -> None:
    texts = [
        "a" * 20_000,
        "A" * 10_000 + "b",
        "1" * 20_001,
        " " * 20_000,
        " " * 20_000 + "x",
        "\n" * 10_000,
        "!" * 9_999,
        "\u00a0" * 5_000 + "y",
        "é" * 8_000,
        "😀" * 4_000,
        "ab" * 10_000,
        "\r\n" * 6_000,
        "\x00" * 3_000,
        "中" * 10_000,
        "x" + "\u0301" * 5_000,
        "word " * 5_000,
    ]
    assert core.count_tokens(texts, name) == tiktoken_counts(texts, name)


# -- approx and the reference -----------------------------------------------------------------


@given(texts=text_batches)
def test_approx_matches_reference(texts: list[str]) -> None:
    assert core.count_tokens(texts, "approx") == reference.count_tokens(texts, "approx")


@pytest.mark.parametrize("name", BPE)
@given(texts=st.lists(st.text(max_size=40), max_size=4))
def test_bpe_matches_reference(name: str, texts: list[str]) -> None:
    _tiktoken(name)
    assert core.count_tokens(texts, name) == reference.count_tokens(texts, name)


def test_default_encoding_is_o200k() -> None:
    texts = ["naïve café résumé", "مرحبا بالعالم"]
    assert core.count_tokens(texts) == core.count_tokens(texts, "o200k_base") == [5, 4]


def test_accepts_any_sequence() -> None:
    assert core.count_tokens(("a b", "c"), "approx") == [1, 1]
    assert core.count_tokens([], "o200k_base") == []


# -- the limited count ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ENCODINGS)
@given(
    texts=st.lists(any_text, min_size=1, max_size=5),
    limits=st.lists(st.integers(0, 400) | st.sampled_from([0, 1, 2**64, 10**30]), max_size=5),
)
def test_limited_contract(name: str, texts: list[str], limits: list[int]) -> None:
    limits = (limits + [3] * len(texts))[: len(texts)]
    core.set_token_cache_capacity(0)
    exact = core.count_tokens(texts, name)
    for cap in (0, DEFAULT_CAPACITY):
        core.set_token_cache_capacity(cap)
        got = core.count_tokens_limited(texts, limits, name)
        for n, limit, g in zip(exact, limits, got):
            if n <= limit:
                assert g == n
            else:
                assert limit < g <= n


def test_limited_uses_cached_counts_without_counting_hits() -> None:
    text = "The quick brown fox jumps over the lazy dog. " * 50
    n = core.count_tokens([text])[0]
    info = core.token_cache_info()
    assert core.count_tokens_limited([text], [5]) == [n]  # the cached exact count answers
    assert core.token_cache_info() == info
    core.set_token_cache_capacity(DEFAULT_CAPACITY)
    assert 5 < core.count_tokens_limited([text], [5])[0] < n  # stopped early, not cached
    assert core.token_cache_info()["size"] == 0
    assert core.count_tokens_limited([text], [n]) == [n]  # exact, so cached
    assert core.token_cache_info()["size"] == 1


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ("12", "limits must be a list of int, got str"),
        (5, "limits must be a list of int, got int"),
        ([1, -1], "limits[1] must be an int >= 0, got -1"),
        ([1, True], "limits[1] must be an int >= 0, got True"),
        ([1.5, 2], "limits[0] must be an int >= 0, got 1.5"),
        ([-(10**30), 2], f"limits[0] must be an int >= 0, got {-(10**30)}"),
        ([1], "limits has 1 items but texts has 2; pass one limit per text"),
        ([1, 2, 3], "limits has 3 items but texts has 2; pass one limit per text"),
    ],
)
def test_limited_rejects_bad_limits(limits: Any, message: str) -> None:
    with pytest.raises(InputError) as info:
        core.count_tokens_limited(["a", "b"], limits)
    assert str(info.value) == message


def test_limited_checks_texts_then_limits_then_encoding() -> None:
    with pytest.raises(InputError, match=r"^texts\[0\]: text must be a str, got int$"):
        core.count_tokens_limited([1], [-1], "nope")
    with pytest.raises(InputError, match=r"^limits\[0\] must be an int >= 0, got -1$"):
        core.count_tokens_limited(["a"], [-1], "nope")
    with pytest.raises(InputError, match=r"^encoding must be one of"):
        core.count_tokens_limited(["a"], [1], "nope")


# -- the cache --------------------------------------------------------------------------------


def test_cache_hits_grow_on_repeats() -> None:
    texts = [f"passage number {i}: some words" for i in range(10)]
    first = core.count_tokens(texts)
    assert core.token_cache_info() == {
        "hits": 0,
        "misses": 10,
        "size": 10,
        "capacity": DEFAULT_CAPACITY,
    }
    assert core.count_tokens(texts) == first
    assert core.token_cache_info()["hits"] == 10
    assert core.count_tokens(texts, "cl100k_base") == tiktoken_counts(texts, "cl100k_base")
    info = core.token_cache_info()
    assert (info["misses"], info["size"]) == (20, 20)  # keys differ by encoding
    core.count_tokens(texts, "approx")  # approx bypasses the cache
    assert core.token_cache_info() == info


def test_cache_is_bounded() -> None:
    core.set_token_cache_capacity(50)
    texts = [f"text {i}" for i in range(500)]
    expected = core.count_tokens(texts)
    info = core.token_cache_info()
    assert info["capacity"] == 50
    assert 0 < info["size"] <= 50
    assert core.count_tokens(texts) == expected
    assert core.token_cache_info()["size"] <= 50


def test_cache_disabled() -> None:
    texts = ["alpha beta", "gamma", "alpha beta"]
    core.set_token_cache_capacity(0)
    off = core.count_tokens(texts)
    assert core.token_cache_info() == {"hits": 0, "misses": 0, "size": 0, "capacity": 0}
    core.set_token_cache_capacity(DEFAULT_CAPACITY)
    assert core.count_tokens(texts) == off
    assert core.token_cache_info()["hits"] == 1


@given(texts=text_batches, capacity=st.integers(0, 5))
def test_results_do_not_depend_on_the_cache(texts: list[str], capacity: int) -> None:
    core.set_token_cache_capacity(0)
    expected = [core.count_tokens(texts, name) for name in ENCODINGS]
    core.set_token_cache_capacity(capacity)
    for _ in range(2):
        assert [core.count_tokens(texts, name) for name in ENCODINGS] == expected
    assert core.token_cache_info()["size"] <= capacity


@pytest.mark.parametrize("capacity", [-1, True, 1.5, "10", None, -(10**30)], ids=lambda v: repr(v))
def test_cache_capacity_rejects_bad_values(capacity: Any) -> None:
    with pytest.raises(InputError) as info:
        core.set_token_cache_capacity(capacity)
    assert str(info.value) == f"capacity must be an int >= 0, got {capacity!r}"


def test_huge_capacity_is_accepted() -> None:
    core.set_token_cache_capacity(10**30)
    assert core.token_cache_info()["capacity"] == sys.maxsize * 2 + 1  # size_t's maximum
    assert core.count_tokens(["x"]) == [1]


# -- threads ----------------------------------------------------------------------------------


def _mixed_texts() -> list[str]:
    base = [
        "The quick brown fox jumps over the lazy dog.",
        "日本語のテキストです。",
        "def f(x):\n    return x ** 2\n",
        "👨\u200d👩\u200d👧 family 🇫🇷",
        "Привет, мир! " * 30,
    ]
    return [f"{t} {i}" for i in range(40) for t in base]


def test_eight_threads_give_identical_results() -> None:
    texts = _mixed_texts()
    core.set_token_cache_capacity(0)
    expected = {name: core.count_tokens(texts, name) for name in ENCODINGS}
    core.set_token_cache_capacity(64)  # small: threads evict each other's entries
    barrier = threading.Barrier(8)
    results: list[dict[str, list[int]]] = [{} for _ in range(8)]
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            barrier.wait()
            for _ in range(3):
                for name in ENCODINGS:
                    results[k][name] = core.count_tokens(texts, name)
                    limited = core.count_tokens_limited(texts, [20] * len(texts), name)
                    assert all(
                        g == n if n <= 20 else g > 20 for g, n in zip(limited, expected[name])
                    )
        except BaseException as exc:  # pragma: no cover - only on failure
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(r == expected for r in results)


# -- errors: the reference's class and message ------------------------------------------------


BAD_TEXTS = [
    "abc",
    b"abc",
    5,
    None,
    {"a": 1},
    [b"x"],
    ["ok", 3],
    ("ok", None),
    ["a\ud800b"],
    ["ok", "xy\udfff"],
    ["\ud83d\ude00"],
    ["fine", "still fine", "x" * 10 + "\udc80" + "y"],
]


def _error(fn: Any, *args: Any) -> tuple[type, str]:
    with pytest.raises(InputError) as info:
        fn(*args)
    return type(info.value), str(info.value)


@pytest.mark.parametrize("texts", BAD_TEXTS, ids=repr)
@pytest.mark.parametrize("encoding", [*ENCODINGS, "nope"])
def test_bad_texts_match_reference(texts: Any, encoding: str) -> None:
    assert _error(core.count_tokens, texts, encoding) == _error(
        reference.count_tokens, texts, encoding
    )


@pytest.mark.parametrize(
    "encoding", ["x", "O200K_BASE", "", None, 5, b"o200k_base", 1.5, ["approx"], "approx "]
)
def test_bad_encoding_matches_reference(encoding: Any) -> None:
    got = _error(core.count_tokens, ["a"], encoding)
    assert got == _error(reference.count_tokens, ["a"], encoding)
    assert got[1] == (
        "encoding must be one of 'o200k_base', 'cl100k_base', 'approx' or a callable "
        f"str -> int, got {encoding!r}"
    )


def test_lone_surrogate_message() -> None:
    _, message = _error(core.count_tokens, ["ok", "ab\ud800"])
    assert message == (
        "texts[1]: text contains a lone surrogate U+D800 at offset 2; pass valid Unicode "
        "(decode with errors='replace')"
    )
