"""``briefpack.sentences.embedding_scorer``: one ``embed`` call per request, cached vectors,
cosine scores, and the caller's errors and bad answers as ``InputError``s."""

from __future__ import annotations

from typing import Any

import pytest

import briefpack as bp
from briefpack.sentences import embedding_scorer

VOCAB = ["sso", "pro", "billing", "seats"]


class Embedder:
    """Counts of the vocabulary's words; records every batch it was called with."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return [[float(t.lower().count(w)) for w in VOCAB] for t in texts]


def test_one_call_per_request_and_cached_sentences_are_not_embedded_again() -> None:
    embed = Embedder()
    score = embedding_scorer(embed)
    sentences = ["SSO on Pro.", "Billing is monthly.", "SSO on Pro."]
    got = score("Is SSO in Pro?", sentences)
    assert embed.calls == [["Is SSO in Pro?", "SSO on Pro.", "Billing is monthly."]]
    assert got == pytest.approx([1.0, 0.0, 1.0])
    again = score("Billing?", [*sentences, "Seats and SSO."])
    assert embed.calls[1] == ["Billing?", "Seats and SSO."]  # only the new sentence
    assert again == pytest.approx([0.0, 1.0, 0.0, 0.0])


def test_the_cache_is_bounded() -> None:
    embed = Embedder()
    score = embedding_scorer(embed, cache_size=1)
    score("q", ["sso", "pro"])
    score("q", ["sso", "pro"])
    assert embed.calls[1] == ["q", "sso"]  # "pro" was kept (most recent), "sso" dropped


def test_it_compresses_as_a_sentence_scorer() -> None:
    embed = Embedder()
    text = "SSO is on Pro. Billing is monthly. Seats cost extra."
    result = bp.assemble(
        "Is SSO on Pro?",
        [{"id": "a", "text": text}],
        budget=400,
        tokenizer="approx",
        compress="all",
        sentence_scorer=embedding_scorer(embed),
    )
    assert result.sources[0].chunk.text == "SSO is on Pro."
    assert len(embed.calls) == 1


def test_the_callers_error_is_wrapped() -> None:
    def broken(texts: list[str]) -> list[list[float]]:
        raise RuntimeError("model offline")

    with pytest.raises(bp.InputError, match="raised RuntimeError: model offline") as info:
        embedding_scorer(broken)("q", ["a"])
    assert isinstance(info.value, bp.BriefpackError)
    assert isinstance(info.value.__cause__, RuntimeError)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("vectors", "must return a list of vectors"),
        ([[1.0]], "returned 1 vectors for 2 texts"),
        ([[1.0], [float("nan")]], "finite numbers"),
        ([[1.0], "ab"], "finite numbers"),
        ([[1.0], []], "finite numbers"),
        ([[1.0], [1.0, 2.0]], "same length"),
    ],
)
def test_bad_answers_are_input_errors(answer: Any, message: str) -> None:
    with pytest.raises(bp.InputError, match=message):
        embedding_scorer(lambda texts: answer)("q", ["a"])


def test_bad_arguments_are_input_errors() -> None:
    with pytest.raises(bp.InputError, match="needs a callable embed"):
        embedding_scorer(3)  # type: ignore[arg-type]
    with pytest.raises(bp.InputError, match="cache_size"):
        embedding_scorer(Embedder(), cache_size=-1)
