"""``briefpack.sentences.embedding_scorer``: one ``embed`` call per request, cached vectors,
cosine scores with the request-relative cut (``cut``), and the caller's errors and bad
answers as ``InputError``s."""

from __future__ import annotations

from typing import Any

import pytest

import briefpack as bp
from briefpack.sentences import EMBEDDING_CUT, embedding_scorer

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
    score = embedding_scorer(embed, cut=0)  # the plain cosines
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


TEXT = "SSO is on Pro. Billing is monthly. Seats cost extra."


def _compressed(scorer: Any, backend: str = "auto") -> str:
    """The one source of "Is SSO on Pro?" (``TEXT``), compressed with ``scorer``."""
    result = bp.assemble(
        "Is SSO on Pro?",
        [{"id": "a", "text": TEXT}],
        budget=400,
        tokenizer="approx",
        compress="all",
        backend=backend,
        sentence_scorer=scorer,
    )
    return result.sources[0].chunk.text


def test_it_compresses_as_a_sentence_scorer() -> None:
    embed = Embedder()
    assert _compressed(embedding_scorer(embed)) == "SSO is on Pro."
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


def _fixed(vectors: dict[str, list[float]]) -> Any:
    return lambda texts: [vectors[t] for t in texts]


# cosines with the question [1, 0]: "a" 1.0, "b" 0.8, "c" 0.6, "d" 0.0, "e" -0.6
FIXED = {
    "q": [1.0, 0.0],
    "a": [1.0, 0.0],
    "b": [0.8, 0.6],
    "c": [0.6, 0.8],
    "d": [0.0, 1.0],
    "e": [-0.6, 0.8],
}


def test_cut_zero_scores_the_cosine() -> None:
    got = embedding_scorer(_fixed(FIXED), cut=0)("q", ["a", "b", "c", "d", "e"])
    assert got == pytest.approx([1.0, 0.8, 0.6, 0.0, -0.6])


def test_the_cut_is_relative_to_the_calls_best_and_keeps_the_order() -> None:
    score = embedding_scorer(_fixed(FIXED), cut=0.7)
    got = score("q", ["c", "a", "b", "d", "e"])  # floor 0.7 * 1.0
    assert got == pytest.approx([0.6 - 0.7, 1.0, 0.8, -0.7, -1.3])
    assert sorted(range(5), key=lambda i: -got[i]) == [1, 2, 0, 3, 4]  # the cosines' order
    # without "a" the best is "b" (0.8), so the floor is 0.56 and "c" is relevant
    assert score("q", ["c", "b", "d"]) == pytest.approx([0.6, 0.8, -0.56])
    # a best at or below 0: the floor is 0, nothing is relevant, the order stays
    assert score("q", ["d", "e"]) == pytest.approx([0.0, -0.6])
    assert embedding_scorer(_fixed(FIXED), cut=1)("q", ["a", "b"]) == pytest.approx([0.0, -0.2])


def test_the_default_cut() -> None:
    assert EMBEDDING_CUT == 0.5
    default = embedding_scorer(_fixed(FIXED))("q", ["a", "b", "c", "d"])
    assert default == embedding_scorer(_fixed(FIXED), cut=EMBEDDING_CUT)("q", ["a", "b", "c", "d"])


@pytest.mark.parametrize("cut", [-0.1, 1.5, float("nan"), True, "0.5", None])
def test_a_bad_cut_is_an_input_error(cut: Any) -> None:
    with pytest.raises(bp.InputError, match="cut must be a number in"):
        embedding_scorer(Embedder(), cut=cut)


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_compress_all_cuts_below_the_floor_on_both_backends(backend: str) -> None:
    vectors = {
        "Is SSO on Pro?": [1.0, 0.0],
        "SSO is on Pro.": [1.0, 0.1],
        "Billing is monthly.": [0.2, 1.0],
        "Seats cost extra.": [0.7, 0.7],
    }

    def cut(share: float) -> str:
        return _compressed(embedding_scorer(_fixed(vectors), cut=share), backend=backend)

    assert cut(0) == TEXT  # every cosine is above 0: nothing is cut
    assert cut(0.5) == "SSO is on Pro. … Seats cost extra."  # 0.71 > 0.5 * 0.995 > 0.20
    assert cut(0.8) == "SSO is on Pro."
