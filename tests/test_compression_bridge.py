"""Bridges (``compress_bridge``): a sentence naming an entity that another source's relevant
sentences introduce is relevant too, so the second hop of a two-source answer stays placed.

Golden two-hop cases where the bridge sentence shares no term with the question, the title
rule, the question's own entities (no bridge), the bounds (entity count, characters read,
a hostile request) and the two backends agreeing.
"""

from __future__ import annotations

from typing import Any

import pytest

import briefpack as bp
from briefpack._stages import compress

QUESTION = "Which position did the star of Kiss and Tell hold?"
FILM = {
    "id": "film",
    "title": "Kiss and Tell",
    "text": "Kiss and Tell is a 1945 comedy film starring Shirley Temple. "
    "The shooting took place in winter. Critics praised the music.",
}
ACTRESS = {
    "id": "actress",
    "title": "Temple biography",
    "text": "She grew up in Santa Monica. As an adult, Shirley Temple served as Chief of "
    "Protocol. Rowdy was a dog.",
}


def _all(question: str, chunks: list[dict[str, Any]], backend: str, **options: Any) -> bp.Assembly:
    return bp.assemble(
        question,
        chunks,
        budget=1_000_000,
        tokenizer="approx",
        compress="all",
        backend=backend,
        **options,
    )


def _by_id(result: bp.Assembly) -> dict[str, bp.Source]:
    return {s.chunk.id: s for s in result.sources}


def test_bridge_keeps_the_second_hop_sharing_no_question_term(backend: str) -> None:
    on = _by_id(_all(QUESTION, [FILM, ACTRESS], backend))
    off = _by_id(_all(QUESTION, [FILM, ACTRESS], backend, compress_bridge=False))
    hop = "As an adult, Shirley Temple served as Chief of Protocol."
    assert on["actress"].chunk.text == hop
    c = on["actress"].compression
    assert c is not None
    assert c.kept == (1,)
    assert c.bridges == (1,)
    # without bridges the source keeps its best sentence (all score 0: its first)
    assert off["actress"].chunk.text == "She grew up in Santa Monica."
    assert off["actress"].compression is not None
    assert off["actress"].compression.bridges == ()
    # the source introducing the entity is cut by its scores alone
    assert on["film"].chunk.text == off["film"].chunk.text
    assert on["film"].compression is not None
    assert on["film"].compression.bridges == ()


def test_the_record_says_which_sentences_are_bridges(backend: str) -> None:
    on = _all(QUESTION, [FILM, ACTRESS], backend)
    sources = {s["id"]: s for s in on.record()["sources"]}
    assert sources["actress"]["compressed"]["bridges"] == [1]
    assert "bridges" not in sources["film"]["compressed"]
    assert "compress_bridge" not in on.record()["settings"]
    off = _all(QUESTION, [FILM, ACTRESS], backend, compress_bridge=False)
    assert off.record()["settings"]["compress_bridge"] is False


def test_a_title_named_by_a_relevant_sentence_bridges_that_sources_first_sentence(
    backend: str,
) -> None:
    actress = {
        "id": "actress",
        "title": "Shirley Temple (actress)",
        "text": "She was an American actress. Rowdy was a dog. Santa Monica was home.",
    }
    got = _by_id(_all(QUESTION, [FILM, actress], backend))["actress"]
    assert got.compression is not None
    assert got.compression.kept == (0,)
    assert got.compression.bridges == (0,)


def test_an_entity_the_question_names_is_no_bridge(backend: str) -> None:
    question = "Which position did Shirley Temple, the star of Kiss and Tell, hold?"
    other = {
        "id": "other",
        "title": "Other",
        "text": "Rowdy was a dog. The Shirley Temple fan club met monthly. Cats sleep.",
    }
    got = _by_id(_all(question, [FILM, other], backend))["other"]
    assert got.compression is not None
    assert got.compression.bridges == ()


def test_an_entity_named_by_several_other_sources_is_no_link(backend: str) -> None:
    # "Shirley Temple" named by two other sources: too common to link one of them
    twin = {
        "id": "twin",
        "title": "Another biography",
        "text": "Rowdy was a dog. Later Shirley Temple wrote a book. Cats sleep.",
    }
    got = _by_id(_all(QUESTION, [FILM, ACTRESS, twin], backend))
    for key in ("actress", "twin"):
        c = got[key].compression
        assert c is not None
        assert c.bridges == ()


def test_a_source_never_bridges_itself(backend: str) -> None:
    alone = {
        "id": "alone",
        "title": "Kiss and Tell",
        "text": FILM["text"] + " Shirley Temple was 17.",
    }
    got = _by_id(_all(QUESTION, [alone], backend))["alone"]
    assert got.compression is not None
    assert got.compression.bridges == ()


def test_both_backends_cut_and_bridge_identically() -> None:
    pytest.importorskip("briefpack._core")
    chunks = [
        FILM,
        ACTRESS,
        {"id": "x", "title": "Santa Monica", "text": "Santa Monica is a city."},
    ]
    results = [_all(QUESTION, chunks, b) for b in ("python", "rust")]
    a, b = ([(s.chunk.id, s.chunk.text, s.compression) for s in r.sources] for r in results)
    assert a == b


def test_entities_are_names_quoted_titles_and_numbers_with_units() -> None:
    got = compress._entities(
        'In 1998 Dr. Anna de la Cruz of the United Nations wrote "Blue Skies" 30 km away.'
    )
    assert "Anna de la Cruz of the United Nations" in got  # "de la", "of the" link names
    assert "Blue Skies" in got
    assert "30 km" in got
    assert all(not name.startswith(("In ", "The ")) for name in got)
    assert compress._entities("no names here at all.") == []


def test_words_fold_accents_and_case_as_the_scorer_does() -> None:
    assert compress._words("Édgar RAMÍREZ, Hork-Bajir") == ["edgar", "ramirez", "hork", "bajir"]


def test_entity_count_is_capped(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    monkeypatch.setattr(compress, "BRIDGE_ENTITIES", 2)
    names = " ".join(f"Name{i} Person{i} met Kiss." for i in range(10))
    intro = {"id": "intro", "title": "Intro", "text": f"Kiss and Tell star {names}"}
    early = {"id": "early", "title": "E", "text": "Dogs bark. Name0 Person0 sang."}
    late = {"id": "late", "title": "L", "text": "Dogs bark. Name9 Person9 sang."}
    got = _by_id(_all(QUESTION, [intro, early, late], backend))
    assert got["early"].compression is not None
    assert got["early"].compression.bridges == (1,)
    assert got["late"].compression is not None
    assert got["late"].compression.bridges == ()  # its entity is past the cap


def test_characters_read_are_capped(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    monkeypatch.setattr(compress, "BRIDGE_CHARS", 100)
    filler = {"id": "filler", "title": "F", "text": "Dogs bark loudly at night. " * 20}
    got = _by_id(_all(QUESTION, [FILM, filler, ACTRESS], backend))
    assert got["actress"].compression is not None
    assert got["actress"].compression.bridges == ()  # read past the cap: no bridge


def test_a_hostile_request_is_bounded(backend: str) -> None:
    # thousands of capitalised names in a relevant sentence, a huge title, long sources
    names = ", ".join(f"Aa{i} Bb{i}" for i in range(5000))
    chunks = [
        {"id": "a", "title": "T" * 100_000, "text": f"Kiss and Tell star {names}."},
        {"id": "b", "title": "(" * 50_000, "text": "Aa1 Bb1 sang. " + "Zz Yy. " * 20_000},
    ]
    result = _all(QUESTION, chunks, backend)
    b = _by_id(result)["b"]
    assert b.compression is not None
    assert b.compression.bridges == (0,)
    assert len(compress._entities(f"Kiss and Tell star {names}.")) == 5001


def test_compress_bridge_must_be_a_bool() -> None:
    with pytest.raises(bp.InputError, match="compress_bridge must be True or False") as e:
        bp.Assembler(compress="all", compress_bridge=1)
    assert e.value.option == "compress_bridge"


def test_relevant_sentences_read_for_entities_are_capped(
    monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    monkeypatch.setattr(compress, "BRIDGE_SENTENCES", 1)
    intro = {
        "id": "intro",
        "title": "Intro",
        "text": "Kiss and Tell star, Name0 Person0, sang. Kiss and Tell, Name1 Person1, sang.",
    }
    first = {"id": "first", "title": "A", "text": "Dogs bark. Name0 Person0 sang."}
    second = {"id": "second", "title": "B", "text": "Dogs bark. Name1 Person1 sang."}
    got = _by_id(_all(QUESTION, [intro, first, second], backend))
    assert got["first"].compression is not None
    assert got["first"].compression.bridges == (1,)  # from the best relevant sentence
    assert got["second"].compression is not None
    assert got["second"].compression.bridges == ()  # its sentence was not read
