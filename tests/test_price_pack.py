"""price_pack: the budget stage's one-pass kernel (render, count, pack) in both backends.

Contract: each block is byte for byte ``prompt.render_source(widest, chunk, labels)``; the
decisions, kept costs and misfit details are those of pricing every block in full (or with
``count_tokens_limited``) and calling ``pack``; the Rust core and the reference agree; and the
budget stage's one-pass path leaves the same placed items, drops and labelled blocks as its
general loop.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import briefpack as bp
import briefpack.reference as ref
import strategies
from briefpack import _core
from briefpack.errors import InputError
from briefpack.prompt import render_source

# What the escaping and the label look-alike rule react to, in pieces a text is made of.
PIECES = [
    *"[［【〔〖〘〚⟦⁅]］】〕〗〙〛⟧⁆",
    "[3]", "［1, 2］", "【4】", "〔7〕", "[\u200b3]", "[2-4]", "[1][2]", "m[1][2]", "argv[1]",
    "f(x)[0]", "_[5]", "\u3164[6]", "[٣]", "[１]", "[ ]", "[a]", "`a [9]`", "``[1]``",
    "\n```\n[1]\n```\n", "\n~~~\n[2]", "&", "<", ">", '"', "'", "(", ")", "&amp;", "&#91;",
    "\x00", "\n", "\r", "\t", "\x1f", "\x7f", "\x85", "\x9f", "\xa0", "\u2028", "\u2029",
    "</source>", '<source id="9">', " ", "a", "Z", "9", "é", "中", "\U0001f600", "\u200d",
    "page", "; ",
    # the head's separators and their look-alikes, a text's leading parenthesis
    ";", "(Official; updated 2099)", "\u3000(", *"（）；﹙﹚⁽⁾₍₎﹔",
    # invisible characters: bidi controls, zero-width, tags, variation selectors, fillers
    *"\u202a\u202e\u2066\u2069\u200b\u200c\u2060\ufeff\u00ad\u061c\ufe0f\ufff9\u3164",
    "\U000e0001", "\U000e0069\U000e0067", "\U000e0100", "\U0001f3f4\U000e0067\U000e0062"
    "\U000e0073\U000e0063\U000e0074\U000e007f", "👨\u200d👩", "می\u200cخ", "❤\ufe0f\ufe0f",
    # look-alike labels and tags
    *"⦋⦌⦍⦐⦗⦘⟬⟭﹝﹞", "[³]", "[⑦]", "⦋1⦌", "[1.]", "[^1]", "⁽2⁾", "₍3₎", "[２．]", "\n[4] x",
    *"＜﹤〈〈⟨‹❮❬⧼ᐸ˂《", "＜/source＞", '﹤source id="7"﹥', "＜ ／ＳＯＵＲＣＥＳ＞",
    "〈history", "‹q",
    "《红", "〈한", "‹中", "＜ｓource", "《 source",
    "\U0001f3f4", "\U0001f3f4\U000e0067\U000e0062", "\U000e0065\U000e006e\U000e0067\U000e007f",
    "\U000e0077\U000e006c\U000e0073", "\U000e0080", "\U000e01f0", "\u202b\u202c", "\u2067",
    "❤\ufe0f", "1\ufe0f\u20e3", "→\ufe0e", "☺\ufe0f\ufe0f", "😀\U000e0100", "\u27bf\ufe0f",
    "\u2800\ufe0f",
]  # fmt: skip

adversarial = st.lists(
    st.one_of(st.sampled_from(PIECES), st.text(max_size=3), strategies.unicode_text(max_size=4)),
    max_size=12,
).map("".join)
pages = st.one_of(st.none(), st.integers(0, 10**6), adversarial)
tokens = st.one_of(st.none(), st.integers(0, 60))


@st.composite
def chunks(draw: Any, max_size: int = 8) -> list[bp.Chunk]:
    n = draw(st.integers(0, max_size))
    return [
        bp.Chunk(
            draw(adversarial),
            id=f"c{i}",
            title=draw(adversarial),
            url=draw(st.one_of(st.just(""), adversarial)),
            updated=draw(st.one_of(st.just(""), adversarial)),
            page=draw(pages),
            tokens=draw(st.one_of(st.none(), tokens)),
        )
        for i in range(n)
    ]


styles = st.sampled_from(["xml", "brackets"])
widests = st.integers(1, 10**4).map(str)
encodings = st.sampled_from(["approx", "o200k_base", "cl100k_base"])
overflows = st.sampled_from(["stop", "skip"])


@given(chunks(), styles, widests)
def test_every_block_is_render_source_byte_for_byte(
    cs: list[bp.Chunk], labels: str, widest: str
) -> None:
    r = bp._types.PricedPack(*_core.price_pack(cs, labels, widest, 10**12, 0, "stop", "approx"))
    assert r.kept == list(range(len(cs)))
    assert r.blocks == [render_source(widest, c, labels) for c in cs]


def current_path(
    cs: list[bp.Chunk], labels: str, widest: str, budget_: int, n_sep: int, overflow: str, enc: str
) -> tuple[list[int], list[int], list[int], list[int]]:
    """What the budget stage did before: render, count_tokens_limited, pack, and its details."""
    texts = [
        render_source(widest, c if c.tokens is None else c.replace(text=""), labels) for c in cs
    ]
    limits = [max(0, budget_ - n_sep - (c.tokens or 0)) for c in cs]
    counted = _core.count_tokens_limited(texts, limits, enc, segments=True)
    costs = [n + n_sep + (c.tokens or 0) for n, c in zip(counted, cs)]
    kept, _ = _core.pack(costs, budget_, overflow)
    misfits: list[int] = []
    remaining: list[int] = []
    used = 0
    for i, cost in enumerate(costs):
        if i in kept:
            used += cost
        elif not misfits or overflow == "skip":
            misfits.append(i)
            remaining.append(budget_ - used)
    return kept, [costs[i] for i in kept], misfits, remaining


@given(chunks(), styles, widests, st.integers(0, 400), st.integers(0, 3), overflows, encodings)
def test_decisions_costs_and_details_are_the_current_paths_and_the_references(
    cs: list[bp.Chunk],
    labels: str,
    widest: str,
    budget_: int,
    n_sep: int,
    overflow: str,
    enc: str,
) -> None:
    args = (cs, labels, widest, budget_, n_sep, overflow, enc)
    rust = bp._types.PricedPack(*_core.price_pack(*args))
    oracle = ref.price_pack(*args)
    assert rust == oracle
    assert (rust.kept, rust.costs, rust.misfits, rust.remaining) == current_path(
        cs, labels, widest, budget_, n_sep, overflow, enc
    )
    if overflow == "stop":
        assert len(rust.misfits) <= 1
        assert rust.kept == list(range(len(rust.kept)))


class Reads(list[bp.Chunk]):
    """A list that records which positions were read."""

    def __init__(self, items: list[bp.Chunk]) -> None:
        super().__init__(items)
        self.read: set[int] = set()

    def __getitem__(self, i: Any) -> Any:
        self.read.add(i)
        return super().__getitem__(i)


def test_a_walk_that_stops_never_reads_the_rest() -> None:
    cs = Reads([bp.Chunk("x" * 40, id=str(i)) for i in range(1000)])
    r = _core.price_pack(cs, "xml", "1000", 30, 1, "stop", "approx")
    assert (r[0], r[3]) == ([0], [1])
    assert max(cs.read) < 16  # the first batch only


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([bp.Chunk("a")], "html", "1", 9, 0, "stop", "approx"), "labels must be one of"),
        (([bp.Chunk("a")], "xml", "1", 9, 0, "stop", "gpt2"), "encoding must be one of"),
        (([bp.Chunk("a")], "xml", "1", 9, 0, "cut", "approx"), "overflow must be one of"),
        (([bp.Chunk("a")], "xml", "1", -1, 0, "stop", "approx"), "budget must be an int >= 0"),
        (([bp.Chunk("a")], "xml", "x", 9, 0, "stop", "approx"), "widest must be a label's"),
        (("abc", "xml", "1", 9, 0, "stop", "approx"), "chunks must be a list of Chunk"),
        (
            ([bp.Chunk(image=object())], "xml", "1", 9, 0, "stop", "approx"),
            r"chunks\[0\] has a page image",
        ),
    ],
)
def test_bad_arguments_are_the_same_input_error_in_both_backends(
    args: tuple[Any, ...], message: str
) -> None:
    for fn in (_core.price_pack, ref.price_pack):
        with pytest.raises(InputError, match=message):
            fn(*args)
