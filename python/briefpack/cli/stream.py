"""Counting the tokens of text that arrives in pieces, exactly as if it were one string.

A tiktoken count is not additive in general ("a" + "b" may count 1, not 2), but both BPE
encodings must cut after a newline that is followed by a character that is neither whitespace
nor ``/`` (see docs/semantics.md "Budget" and the lemma in the Rust core's token segments):
counts add up exactly there. ``TokenStream`` keeps the text after the last such place, counts
what is before it, and so holds one line's worth of text (plus a read) at a time. ``approx``
(``max(1, len // 4)``) is not additive either: it counts characters and applies the rule once.
"""

from __future__ import annotations

from collections.abc import Iterable


def starts_segment(ch: str) -> bool:
    """Whether a tokenizer cut is certain before ``ch`` when a newline precedes it.

    Decided conservatively, as in the Rust core: an ASCII graphic character other than ``/``,
    or a non-ASCII letter or digit.

    >>> [starts_segment(c) for c in "a /\\t("]
    [True, False, False, False, True]
    """
    if ch < "\x80":
        return "!" <= ch <= "~" and ch != "/"
    return ch.isalnum()


class TokenStream:
    """Add text piece by piece with ``feed``; ``total()`` is the count of all of it.

    >>> from briefpack.kernels import count_tokens
    >>> text = "Hello\\n  world\\nfoo/bar\\n/x\\nend"
    >>> s = TokenStream("approx")
    >>> for ch in text:
    ...     s.feed(ch)
    >>> s.total() == count_tokens([text], "approx")[0]
    True
    """

    def __init__(self, tokenizer: str) -> None:
        self.tokenizer = tokenizer
        self._tokens = 0
        self._chars = 0
        self._held: list[str] = []  # the text after the last certain cut, not counted yet
        self._after_newline = False  # the text so far ends with a newline

    def _count(self, text: str) -> int:
        from ..kernels import count_tokens

        return count_tokens([text], encoding=self.tokenizer)[0] if text else 0

    def feed(self, piece: str) -> None:
        """Take the next piece of the text."""
        if not piece:
            return
        if self.tokenizer == "approx":
            self._chars += len(piece)
            return
        cut = -1  # the last certain cut inside this piece (earlier text was searched before)
        i = piece.rfind("\n", 0, len(piece) - 1)  # a newline with a character after it
        while i != -1:
            if starts_segment(piece[i + 1]):
                cut = i + 1
                break
            i = piece.rfind("\n", 0, i)
        if cut == -1 and self._after_newline and starts_segment(piece[0]):
            cut = 0
        if cut == -1:
            self._held.append(piece)
        else:
            self._tokens += self._count("".join(self._held) + piece[:cut])
            self._held = [piece[cut:]]
        self._after_newline = piece.endswith("\n")

    def total(self) -> int:
        """The count of everything fed: equal to counting the whole text at once."""
        if self.tokenizer == "approx":
            return max(1, self._chars // 4)
        return self._tokens + self._count("".join(self._held))


def count_pieces(pieces: Iterable[str], tokenizer: str) -> int:
    """The token count of ``"".join(pieces)``, holding only about one line of it at a time.

    >>> count_pieces(["Hel", "lo\\nwor", "ld\\n"], "o200k_base") == count_pieces(
    ...     ["Hello\\nworld\\n"], "o200k_base")
    True
    """
    stream = TokenStream(tokenizer)
    for piece in pieces:
        stream.feed(piece)
    return stream.total()
