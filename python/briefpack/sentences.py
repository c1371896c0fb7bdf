"""Sentences: ``split_sentences`` and ``sentence_spans``, public, on the fast kernels.

The rule (abbreviations, decimals, URLs, ellipses, closing quotes, CJK and other full stops,
line-based text, list markers) is written out in ``docs/semantics.md`` ("Sentences"); both
backends implement it and the parity tests hold them equal.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ._backend import get_kernels

__all__ = ["sentence_spans", "split_sentences"]


def sentence_spans(texts: Sequence[str]) -> list[list[tuple[int, int]]]:
    """Each text's sentences as ``(start, end)`` character offsets, in order.

    ``text[start:end]`` is the sentence; the spans of a text do not overlap and together hold
    every non-whitespace character of it (the whitespace between sentences is in none).

    Raises:
        InputError: ``texts`` is not a list of str, or a text holds a lone surrogate.

    >>> sentence_spans(["Dr. Lee said so. It works.", ""])
    [[(0, 16), (17, 26)], []]
    """
    starts, ends, offsets = get_kernels("auto").split_sentences(texts)
    return [list(zip(starts[a:b], ends[a:b], strict=True)) for a, b in itertools.pairwise(offsets)]


def split_sentences(texts: Sequence[str]) -> list[list[str]]:
    """Split each text into sentences (whitespace between them dropped).

    Abbreviations ("e.g.", "Dr.", "U.S."), decimals and versions ("14.5%", "v2.0"), URLs and
    emails do not end a sentence; closing quotes and brackets after a stop belong to it;
    "。", "！", "？", "।", "؟" end one without a space; a line break always ends one, and a
    list marker ("1.", "2)") opening a sentence stays in it.

    Raises:
        InputError: ``texts`` is not a list of str, or a text holds a lone surrogate.

    >>> split_sentences(["SSO costs 14.5% more, e.g. on v2.0. It is new!", "1. Open it.\\n2. Go"])
    [['SSO costs 14.5% more, e.g. on v2.0.', 'It is new!'], ['1. Open it.', '2. Go']]
    """
    starts, ends, offsets = get_kernels("auto").split_sentences(texts)
    texts = list(texts)
    return [
        [texts[i][starts[j] : ends[j]] for j in range(offsets[i], offsets[i + 1])]
        for i in range(len(texts))
    ]
