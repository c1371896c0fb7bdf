"""Parity of the Rust normalisation (``_core.words``, ``_core.word_counts``,
``_core.exact_keys``) with the reference.

Every code point is checked (in chunks), then hypothesis over full Unicode, then the argument
errors (same class, same message as ``briefpack._checks.check_texts``).
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import strategies
from briefpack._checks import check_texts
from briefpack.errors import InputError
from briefpack.reference import text as ref
from conftest import HAS_RUST, param_id

if not HAS_RUST:
    pytest.skip("the Rust extension is not built", allow_module_level=True)

from briefpack import _core

if not hasattr(_core, "words"):
    pytest.skip("_core has no text kernels", allow_module_level=True)

ALL_CODE_POINTS = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
CHUNK = 4096
CHUNKS = [ALL_CODE_POINTS[i : i + CHUNK] for i in range(0, len(ALL_CODE_POINTS), CHUNK)]


def _chunk_texts(cps: list[int]) -> list[str]:
    chars = [chr(cp) for cp in cps]
    return [
        "\x01".join(chars),  # each character alone: its class and its lowercase
        "".join(chars),  # runs: which neighbours join into one word
        "A".join(chars),  # word or ideograph (joins "A" or not); exact_key: whitespace or not
        " ".join(chars) + " ",  # whitespace next to whitespace
    ]


def test_every_code_point_words_and_exact_key() -> None:
    texts = [t for cps in CHUNKS for t in _chunk_texts(cps)]
    want = [ref.words(t) for t in texts]
    assert _core.words(texts) == want
    assert _core.word_counts(texts) == [len(w) for w in want]
    assert _core.exact_keys(texts) == [ref.exact_key(t) for t in texts]


@pytest.mark.parametrize("ch", list(strategies.NEWER_THAN_UNICODE_14))
def test_characters_newer_than_the_table_are_separators(ch: str) -> None:
    assert _core.words([f"Ab{ch}Cd"]) == [["ab", "cd"]] == [ref.words(f"Ab{ch}Cd")]


@given(texts=st.lists(strategies.unicode_text(max_size=80), max_size=8))
@example(texts=["", " ", "\x00", "Ünïcode-ready: 東京 2024!", "  Hello,\u00a0\n world  "])
@example(texts=["İSTANBUL ΣΟΦΊΑΣ Straße", "e\u0301te\u0301", "a\u200bb\u3000c\x85d"])
def test_words_and_exact_keys_match_reference(texts: list[str]) -> None:
    assert _core.words(texts) == [ref.words(t) for t in texts]
    assert _core.exact_keys(texts) == [ref.exact_key(t) for t in texts]


@given(texts=st.lists(strategies.wordy_text(), max_size=8))
def test_wordy_text_matches_reference(texts: list[str]) -> None:
    assert _core.words(texts) == [ref.words(t) for t in texts]
    assert _core.exact_keys(texts) == [ref.exact_key(t) for t in texts]


_ASCII_RUN = st.text(
    st.sampled_from("abcxyzABCXYZ0189"), min_size=0, max_size=70
)  # around the Rust core's 64-byte stride
_ASCII_GAP = st.text(st.sampled_from(" .,-_\t\n\r\x0b\x0c\x1c\x1f\x00\x7f"), min_size=1, max_size=3)


@given(
    pieces=st.lists(
        st.one_of(_ASCII_RUN, _ASCII_GAP, strategies.unicode_text(max_size=6)), max_size=30
    ),
    lead=st.integers(0, 64),
)
def test_long_mixed_text_matches_reference(pieces: list[str], lead: int) -> None:
    # ASCII runs of every length next to non-ASCII characters, shifted by 0..64 bytes so
    # that every boundary meets every offset of the core's 64-byte blocks.
    text = "x" * lead + " " + "".join(pieces)
    want = ref.words(text)
    assert _core.words([text, text[lead:]]) == [want, ref.words(text[lead:])]
    assert _core.word_counts([text]) == [len(want)]


class _Seq:
    """A user-defined Sequence (not a list or tuple)."""

    def __init__(self, items: list[object]) -> None:
        self.items = items

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> object:
        return self.items[i]


def _register_seq() -> None:
    from collections.abc import Sequence

    Sequence.register(_Seq)


_register_seq()

GOOD_INPUTS = [
    ("a", "b c"),
    _Seq(["A b", " c "]),
    [],
]
BAD_INPUTS = [
    "a string",
    b"bytes",
    None,
    42,
    {"a": 1},
    {"a"},
    (t for t in ["a"]),
    ["ok", b"bytes"],
    ["ok", None],
    [1],
    ["ok", "x\ud800y"],
    ["\udfff"],
    ["fine", "ab\U0001f600c\udc80"],
    _Seq(["a", 3]),
]


@pytest.mark.parametrize("texts", GOOD_INPUTS)
def test_accepts_any_sequence_of_str(texts: object) -> None:
    texts_list = list(texts)  # type: ignore[call-overload]
    assert _core.words(texts) == [ref.words(t) for t in texts_list]
    assert _core.word_counts(texts) == [len(ref.words(t)) for t in texts_list]
    assert _core.exact_keys(texts) == [ref.exact_key(t) for t in texts_list]
    assert _core.nfc(texts) == [ref.nfc(t) for t in texts_list]
    assert _core.nfkc(texts) == [ref.nfkc(t) for t in texts_list]


@pytest.mark.parametrize("texts", BAD_INPUTS, ids=param_id)
@pytest.mark.parametrize("func", ["words", "word_counts", "exact_keys", "nfc", "nfkc"])
def test_bad_texts_same_error_as_reference(func: str, texts: object) -> None:
    with pytest.raises(InputError) as want:
        check_texts(texts)
    with pytest.raises(InputError) as got:
        getattr(_core, func)(texts)
    assert str(got.value) == str(want.value)
