"""Tokenizers as users hold them: ``assemble(tokenizer=...)``, ``Assembler``,
``count_tokens(encoding=...)`` and the adapters take model names (as tiktoken maps them),
tiktoken ``Encoding`` objects and their bound ``encode`` (counted by the core when they are
ours), callables returning token lists, Haystack ``TokenCounter``s, and ``claude-...`` names
(the documented ``approx`` rule); a built-in vocabulary is recorded and serialised by name."""

from __future__ import annotations

import json
from typing import Any

import pytest

import briefpack as bp
from briefpack._tokenizers import MODEL_PREFIX_TO_ENCODING, MODEL_TO_ENCODING, resolve
from briefpack.kernels import count_tokens
from conftest import tiktoken_available

TEXTS = ["Hello, world!", "The relocation cap for Berlin is 4000 EUR.", "東京 2024-06-30"]
CHUNKS = ["The relocation cap for Berlin is 4000 EUR.", "Parental leave is 14 weeks."]


def _settings(tokenizer: Any) -> dict[str, Any]:
    return bp.assemble("Cap?", CHUNKS, budget=500, tokenizer=tokenizer).settings


@pytest.mark.parametrize(
    ("model", "encoding"),
    [
        ("gpt-4o", "o200k_base"), ("gpt-4o-mini", "o200k_base"), ("gpt-4.1", "o200k_base"),
        ("gpt-4.1-mini", "o200k_base"), ("o1", "o200k_base"), ("o3", "o200k_base"),
        ("o3-mini", "o200k_base"), ("o4-mini", "o200k_base"), ("gpt-5", "o200k_base"),
        ("gpt-5-nano", "o200k_base"), ("gpt-4", "cl100k_base"), ("gpt-4-turbo", "cl100k_base"),
        ("gpt-3.5-turbo", "cl100k_base"), ("text-embedding-3-small", "cl100k_base"),
        ("claude-sonnet-4-5", "approx"), ("claude-3-haiku-20240307", "approx"),
    ],
)  # fmt: skip
def test_model_names_count_with_their_encoding(model: str, encoding: str) -> None:
    assert count_tokens(TEXTS, encoding=model) == count_tokens(TEXTS, encoding=encoding)
    assert _settings(model)["tokenizer"] == encoding  # recorded as what it is
    assert bp.Assembler(tokenizer=model).options.tokenizer == encoding


def test_our_table_is_tiktokens() -> None:
    tiktoken_model = pytest.importorskip("tiktoken.model")
    for name, enc in tiktoken_model.MODEL_TO_ENCODING.items():
        if enc in ("o200k_base", "cl100k_base"):
            assert MODEL_TO_ENCODING.get(name) == enc, name
    for prefix, enc in tiktoken_model.MODEL_PREFIX_TO_ENCODING.items():
        assert MODEL_PREFIX_TO_ENCODING.get(prefix) == enc, prefix


@pytest.mark.parametrize("bad", ["text-davinci-003", "gpt2", "gpt-oss-20b", "llama-3", None, 3.5])
def test_refusals_name_what_to_pass(bad: Any) -> None:
    with pytest.raises(bp.InputError, match="must be one of 'o200k_base', 'cl100k_base'") as info:
        bp.assemble("Cap?", CHUNKS, tokenizer=bad)
    assert info.value.option == "tokenizer"


def test_a_callable_returning_tokens_counts_their_number() -> None:
    def words(text: str) -> list[str]:
        return text.split()

    assert count_tokens(TEXTS, encoding=words) == [len(t.split()) for t in TEXTS]
    a = bp.assemble("Cap?", CHUNKS, budget=500, tokenizer=words)
    assert a.settings["tokenizer"] == "callable"
    assert a.tokens["question"] == len(["Question:", "Cap?"])
    # a callable returning an int keeps working; the same function makes equal options
    assert count_tokens(TEXTS, encoding=len) == [len(t) for t in TEXTS]
    assert bp.Options(tokenizer=words) == bp.Options(tokenizer=words)


def test_a_callable_returning_neither_is_refused() -> None:
    with pytest.raises(bp.InputError, match=r"must return a token count .* or the tokens"):
        bp.assemble("Cap?", CHUNKS, tokenizer=lambda t: {"n": 1})
    with pytest.raises(bp.InputError, match=r"must return an int >= 0, got 0\.5"):
        bp.assemble("Cap?", CHUNKS, tokenizer=lambda t: 0.5)


class _FakeEncoding:
    """Says it is o200k_base but is not: counted by its own encode_ordinary."""

    name = "o200k_base"
    n_vocab = 200019

    def encode_single_token(self, piece: bytes) -> int:
        return 7

    def encode_ordinary(self, text: str) -> list[int]:
        return [0] * len(text)


def test_an_encoding_that_is_not_ours_counts_by_its_encode_ordinary() -> None:
    fake = _FakeEncoding()
    assert resolve(fake) != "o200k_base"
    assert count_tokens(TEXTS, encoding=fake) == [len(t) for t in TEXTS]


@pytest.mark.skipif(not tiktoken_available(), reason="tiktoken vocabularies not at hand")
@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_a_tiktoken_encoding_of_ours_is_counted_by_the_core(name: str) -> None:
    import tiktoken

    enc = tiktoken.get_encoding(name)
    for form in (enc, enc.encode, enc.encode_ordinary):
        assert resolve(form) == name
        assert count_tokens(TEXTS, encoding=form) == [len(enc.encode_ordinary(t)) for t in TEXTS]
        assert _settings(form)["tokenizer"] == name


def test_haystack_token_counters() -> None:
    counters = pytest.importorskip("haystack.token_counters")
    assert resolve(counters.TiktokenCounter("cl100k_base")) == "cl100k_base"
    approx = counters.ApproximateTokenCounter(chars_per_token=4.0)
    got = count_tokens(TEXTS, encoding=approx)
    assert all(isinstance(n, int) and n >= 0 for n in got)
    assert _settings(approx)["tokenizer"] == "callable"


@pytest.mark.skipif(not tiktoken_available(), reason="tiktoken vocabularies not at hand")
def test_adapters_serialise_a_bound_encode_of_ours_by_name() -> None:
    import tiktoken

    enc = tiktoken.get_encoding("o200k_base")
    pytest.importorskip("llama_index.core")
    from briefpack.integrations.llamaindex import BriefpackPostprocessor

    post = BriefpackPostprocessor(tokenizer=enc.encode)
    assert json.loads(post.to_json())["tokenizer"] == "o200k_base"
    pytest.importorskip("haystack")
    from briefpack.integrations.haystack import BriefpackPromptBuilder

    data = BriefpackPromptBuilder(tokenizer=enc.encode).to_dict()
    assert data["init_parameters"]["tokenizer"] == "o200k_base"
    pytest.importorskip("langchain_core")
    from briefpack.integrations.langchain import BriefpackCompressor

    c = BriefpackCompressor(tokenizer=enc)
    assert c.model_dump(mode="json")["tokenizer"] == "o200k_base"
