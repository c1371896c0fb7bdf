"""``briefpack count`` streams its input and counts exactly what counting the whole text gives.

Cuts happen only where both BPE encodings must cut (after a newline, before a character that
is neither whitespace nor ``/``), so the streamed count equals the whole-text count for any
read size; ``approx`` counts characters and applies ``max(1, n // 4)`` once.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from briefpack import cli
from briefpack.cli import files
from briefpack.cli.stream import TokenStream, count_pieces
from briefpack.kernels import count_tokens
from conftest import CORPUS, tiktoken_available
from test_tokens import adversarial_text

needs_vocab = pytest.mark.skipif(not tiktoken_available(), reason="no tiktoken vocabulary")
BPE = ["o200k_base", "cl100k_base"]


def count_cli(capsys: pytest.CaptureFixture[str], path: Path, tokenizer: str) -> int:
    code = cli.main(["count", str(path), "--tokenizer", tokenizer, "--color", "never"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return int(out.split()[0])


def _passages(n: int | None = None) -> list[str]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        return [json.loads(line)["text"] for i, line in enumerate(f) if n is None or i < n]


@needs_vocab
@pytest.mark.skipif(not CORPUS.exists(), reason="the shared corpus is not present")
@pytest.mark.parametrize("name", BPE)
def test_the_corpus_joined_counts_as_one_text(name, tmp_path, monkeypatch, capsys):
    whole = "\n".join(_passages())
    path = tmp_path / "corpus.txt"
    path.write_text(whole, encoding="utf-8")
    expected = count_tokens([whole], encoding=name)[0]
    monkeypatch.setattr(files, "READ_SIZE", 4096)
    assert count_cli(capsys, path, name) == expected
    some = "\n".join(_passages(150))  # every boundary a read can fall on: one byte at a time
    path.write_text(some, encoding="utf-8")
    monkeypatch.setattr(files, "READ_SIZE", 1)
    assert count_cli(capsys, path, name) == count_tokens([some], encoding=name)[0]


@needs_vocab
@pytest.mark.parametrize("name", BPE)
@given(text=adversarial_text, seed=st.integers(0, 2**32 - 1))
def test_any_split_of_adversarial_text_counts_as_the_whole(name, text, seed):
    rng = random.Random(seed)
    pieces, i = [], 0
    while i < len(text):
        j = i + rng.choice([1, 1, 2, 3, 7, 50])
        pieces.append(text[i:j])
        i = j
    assert count_pieces(pieces, name) == count_tokens([text], encoding=name)[0]


@needs_vocab
@pytest.mark.parametrize("name", BPE)
def test_the_places_that_must_not_be_cut(name):
    # a newline followed by whitespace or "/" is not a certain cut: the pieces must stay whole
    for text in ["a\n\n\nb", "x\n /y\n//z", "1\n 2\n\t3", "é\n\u3000東", "a\r\nb", "'s\n's"]:
        for size in range(1, 4):
            pieces = [text[i : i + size] for i in range(0, len(text), size)]
            assert count_pieces(pieces, name) == count_tokens([text], encoding=name)[0], text


@given(text=st.text(max_size=80), size=st.integers(1, 9))
def test_approx_counts_characters_once(text, size):
    pieces = [text[i : i + size] for i in range(0, len(text), size)]
    assert count_pieces(pieces, "approx") == max(1, len(text) // 4)
    assert count_pieces(pieces, "approx") == count_tokens([text], encoding="approx")[0]


def test_count_holds_a_line_at_a_time_not_the_file(tmp_path, monkeypatch, capsys):
    lines = [f"line {i}: the quick brown fox\n" for i in range(2000)]
    path = tmp_path / "big.txt"
    path.write_text("".join(lines), encoding="utf-8")
    seen: list[int] = []
    real = count_tokens

    def spy(texts, encoding="o200k_base"):
        seen.extend(len(t) for t in texts)
        return real(texts, encoding=encoding)

    monkeypatch.setattr("briefpack.kernels.count_tokens", spy)
    monkeypatch.setattr(files, "READ_SIZE", 512)
    assert count_cli(capsys, path, "approx") == max(1, sum(map(len, lines)) // 4)
    assert seen == []  # approx is arithmetic on the characters streamed
    if tiktoken_available():
        assert count_cli(capsys, path, "o200k_base") == real(["".join(lines)])[0]
        assert seen
        assert max(seen) <= 512 + max(map(len, lines))  # never the whole file at once


@pytest.mark.parametrize("size", [1, 2, 3, 1 << 20])
def test_a_bad_byte_is_reported_at_the_same_place_for_any_read_size(
    size, tmp_path, monkeypatch, capsys
):
    path = tmp_path / "bad.txt"
    path.write_bytes("\ufeffé1\n東京x\n".encode() + b"ab\xffc\n")
    monkeypatch.setattr(files, "READ_SIZE", size)
    code = cli.main(["count", str(path), "--tokenizer", "approx"])
    assert code == 2
    assert capsys.readouterr().err == (
        f"briefpack count: error: {path}:3:3: not valid UTF-8 (byte 0xff); save the file as UTF-8\n"
    )


def test_stdin_and_a_bom_are_streamed_too(monkeypatch, capsys):
    import io
    import sys

    data = "\ufeff" + "word " * 1000
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode())))
    monkeypatch.setattr(files, "READ_SIZE", 3)
    assert cli.main(["count", "-", "--tokenizer", "approx"]) == 0
    assert capsys.readouterr().out == f"{(len(data) - 1) // 4}  <stdin>\n"


def test_stream_total_before_any_text():
    assert TokenStream("approx").total() == 1
    assert TokenStream("o200k_base").total() == 0
