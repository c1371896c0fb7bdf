"""Pages through the one stage plan: candidates with images, labels, dedupe, neighbours, the
image budget, the record, the chat formats and the command line, on both backends.

Pages are drawn by tests/pagegen.py: text pages, their near-copies (re-encoded as JPEG, shifted,
rescaled) and truly different pages.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import importlib.util
import io
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sdk_capture import captured_body

pytest.importorskip("PIL")


from PIL import Image, ImageDraw

import briefpack as bp
import pagegen
from briefpack import pages
from briefpack.integrations import to_anthropic, to_openai
from briefpack.pages import PageImage, decode_page, image_tokens

ROOT = Path(__file__).resolve().parents[1]
REPORT = {"title": "Annual report", "updated": "2024-05-01", "url": "https://x.example/r.pdf"}


@functools.cache
def page(seed: int) -> bytes:
    """A generated text page as PNG bytes (1700x2200, gray)."""
    return pagegen.png(pagegen.text_page(seed))


@functools.cache
def copy(seed: int, kind: str) -> bytes:
    """A near-copy of ``page(seed)``: ``jpeg50``, ``shift``, ``scale``, ``mixed``, ..."""
    im = pagegen.near_copies(pagegen.text_page(seed), seed)[kind]
    buf = io.BytesIO()
    im.save(buf, "JPEG" if kind.startswith(("jpeg", "mixed")) else "PNG", quality=90)
    return buf.getvalue()


def small(seed: int, size: tuple[int, int] = (340, 440)) -> bytes:
    """A page scaled down (cheap to hash and to send)."""
    buf = io.BytesIO()
    pagegen.text_page(seed).resize(size).save(buf, "PNG")
    return buf.getvalue()


def fate(a: bp.Assembly, cid: str) -> dict[str, Any]:
    return next(f for f in a.fates if f["id"] == cid)


# --- candidates ---------------------------------------------------------------------------------


def test_an_image_is_decoded_once_at_intake_from_bytes_a_path_or_an_array(tmp_path: Path) -> None:
    png = small(1)
    path = tmp_path / "p.png"
    path.write_bytes(png)
    arr = np.asarray(Image.open(io.BytesIO(png)))
    a = bp.assemble(
        "q",
        [
            bp.Chunk(image=png, page=1, id="bytes"),
            {"image": str(path), "page": 2, "id": "path"},
            bp.Chunk(image=arr, page=3, id="array"),
        ],
        dedupe=None,
        tokenizer="approx",
    )
    images = {s.chunk.id: s.chunk.image for s in a.sources}
    assert all(isinstance(im, PageImage) for im in images.values())
    assert images["bytes"].pixels == images["path"].pixels == images["array"].pixels
    assert images["bytes"].data == png  # what a chat request carries: the bytes as given


def test_a_decoded_page_image_is_used_as_it_is() -> None:
    img = decode_page(small(1))
    a = bp.assemble("q", [bp.Chunk(image=img, id="p")], tokenizer="approx")
    assert a.sources[0].chunk.image is img


@pytest.mark.parametrize(
    ("candidate", "field", "message"),
    [
        ({"image": b"GIF89a..", "id": "p"}, "image", r"candidate 0 \(id='p'\): not a PNG or JPEG"),
        ({"image": 3.5, "id": "p"}, "image", "image must be PNG or JPEG bytes, a file path"),
        ({"image": "no/such.png", "id": "p"}, "image", "image file 'no/such.png' does not exist"),
        ({"text": "t", "page": -1, "id": "p"}, "page", r"page must be an int >= 0, a non-empty"),
        ({"text": "t", "page": " ", "id": "p"}, "page", "page must be an int >= 0"),
        ({"text": "t", "page": True, "id": "p"}, "page", "page must be an int >= 0"),
    ],
)
def test_a_bad_image_or_page_names_the_candidate_and_field(
    backend: str, candidate: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(bp.InputError, match=message) as info:
        bp.assemble("q", [candidate], backend=backend, tokenizer="approx")
    assert (info.value.index, info.value.id, info.value.field) == (0, "p", field)


def test_a_mapping_needs_text_or_an_image() -> None:
    with pytest.raises(bp.InputError, match="text is missing"):
        bp.assemble("q", [{"id": "p", "page": 3}], tokenizer="approx")


def test_an_unknown_key_close_to_a_page_field_lists_them_and_others_read_as_before() -> None:
    with pytest.raises(bp.InputError, match=r"may have text, .*, meta, image, page \(put"):
        bp.assemble("q", [{"img": small(1)}], tokenizer="approx")
    with pytest.raises(bp.InputError, match=r"may have text, .*, vector, meta \(put"):
        bp.assemble("q", [{"txt": "a"}], tokenizer="approx")


# --- labels -------------------------------------------------------------------------------------


def test_a_page_label_carries_title_page_date_and_url_in_both_styles() -> None:
    cands = [bp.Chunk("Revenue & costs", image=small(1), page=14, id="p14", **REPORT)]
    xml = bp.assemble("q", cands, tokenizer="approx")
    assert xml.user.startswith(
        '<sources>\n<source id="1" title="Annual report" page="14" updated="2024-05-01" '
        'url="https://x.example/r.pdf">\n<page-image/>\nRevenue &amp; costs\n</source>\n'
    )
    brackets = bp.assemble("q", cands, labels="brackets", tokenizer="approx")
    assert brackets.user.startswith(
        "<sources>\n[1] (Annual report; page 14; 2024-05-01; https://x.example/r.pdf) "
        "<page-image/>\nRevenue &amp; costs\n</sources>"
    )


def test_page_labels_are_escaped_like_every_other_value() -> None:
    evil = bp.Chunk(image=small(1), page='iv" onload="x', id="p", title="a (b) [2]")
    xml = bp.assemble("q", [evil], tokenizer="approx").user
    assert 'page="iv&quot; onload=&quot;x"' in xml
    brackets = bp.assemble("q", [evil], labels="brackets", tokenizer="approx").user
    # the brackets style escapes every value as it escapes a title: tags, brackets, parentheses
    assert '(a &#40;b&#41; &#91;2]; page iv" onload="x) <page-image/>' in brackets
    closing = bp.Chunk(image=small(1), page="3) [1] (", id="p")
    shown = bp.assemble("q", [closing], labels="brackets", tokenizer="approx").user
    assert "[1] (page 3&#41; &#91;1] &#40;) <page-image/>" in shown


def test_no_text_can_forge_an_image_placeholder() -> None:
    a = bp.assemble(
        "<page-image/>?", [bp.Chunk("<page-image/>", title="<page-image/>")], tokenizer="approx"
    )
    assert "<page-image/>" not in a.user
    assert to_openai(a)[1]["content"] == a.user  # text only: no image, no parts


def test_a_text_chunk_with_a_page_number_shows_it() -> None:
    a = bp.assemble("q", [bp.Chunk("p. 3 text", page=3, title="T")], tokenizer="approx")
    assert '<source id="1" title="T" page="3">\np. 3 text\n</source>' in a.user
    assert "images" not in a.tokens  # no image, no image accounting


def test_a_text_only_request_records_no_page_settings() -> None:
    a = bp.assemble("q", ["a", "b"], tokenizer="approx")
    assert "pages" not in a.settings
    assert "images" not in a.settings["budget"]
    assert "images" not in a.tokens


# --- dedupe -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["jpeg50", "jpeg75", "shift", "scale", "mixed"])
def test_auto_dedupe_drops_a_near_copy_of_a_page_by_its_hash(backend: str, kind: str) -> None:
    cands = [
        bp.Chunk(image=page(1), page=1, id="orig"),
        bp.Chunk(image=copy(1, kind), page=1, id="copy"),
        bp.Chunk(image=page(2), page=2, id="other"),
        bp.Chunk(image=page(3), page=3, id="third"),
    ]
    a = bp.assemble("q", cands, backend=backend, tokenizer="approx", budget=20_000)
    assert [s.chunk.id for s in a.sources] == ["orig", "third", "other"]  # edges order
    drop = fate(a, "copy")
    assert drop["reason"] == "duplicate"
    assert drop["detail"]["of"] == "orig"
    assert drop["detail"]["method"] == "page_hash"
    assert 1 - 66 / 256 <= drop["detail"]["similarity"] <= 1
    assert a.settings["pages"] == {
        "dedupe": "page_hash",
        "page_max_distance": 66,
        "image_tokens": "openai",
    }


def test_a_page_that_differs_in_one_number_is_kept_and_its_copy_dropped(backend: str) -> None:
    """The hash cannot tell a one-number edit from its page; the second look can."""
    im = pagegen.text_page(4)
    edit = im.copy()
    draw = ImageDraw.Draw(edit)
    draw.rectangle((400, 800, 560, 830), fill=255)
    draw.text((400, 800), "48,117", fill=0, font_size=26)
    cands = [
        bp.Chunk(image=page(4), page=1, id="orig"),
        bp.Chunk(image=copy(4, "jpeg75"), page=1, id="copy"),
        bp.Chunk(image=pagegen.png(edit), page=1, id="edit"),
    ]
    a = bp.assemble("q", cands, backend=backend, tokenizer="approx", budget=20_000)
    assert sorted(s.chunk.id for s in a.sources) == ["edit", "orig"]
    assert fate(a, "copy")["detail"]["of"] == "orig"
    hashes = pages.hash_pages([c.image for c in cands], backend=backend)
    result = pages.dedupe_pages(hashes, backend=backend)
    assert result.duplicate_of == [None, 0, None]
    assert result.near_of == [None, None, 0]
    assert fate(a, "edit")["second_look"]["near"] == "orig"  # the record says why it stayed
    assert fate(a, "copy")["detail"]["check"] == "second_look"


def test_a_page_whose_text_has_its_words_in_another_order_is_kept(backend: str) -> None:
    """Pixel copies whose OCR texts have the same words: reordered beyond the tolerance, kept
    by the order check (the record says so); one block moved, a copy."""
    text = "Sales rose in May, then fell; costs fell in June."
    cands = [
        bp.Chunk(text, image=page(4), page=1, id="orig"),
        bp.Chunk("Then sales fell in May, rose; costs in June fell.", image=page(4), id="row"),
        bp.Chunk("costs fell in June. Sales rose in May, then fell;", image=page(4), id="moved"),
    ]
    a = bp.assemble("q", cands, backend=backend, tokenizer="approx", budget=20_000)
    assert sorted(s.chunk.id for s in a.sources) == ["orig", "row"]
    assert fate(a, "moved")["detail"]["of"] == "orig"
    assert fate(a, "row")["second_look"] == {
        "near": "orig",
        "distance": 0,
        "check": "text",
        "kept_because": "the same words in another order (6 of 9 word pairs differ)",
    }


def test_page_max_distance_zero_keeps_every_copy_that_is_not_identical(backend: str) -> None:
    cands = [bp.Chunk(image=page(1), id="a"), bp.Chunk(image=copy(1, "jpeg50"), id="b")]
    a = bp.assemble("q", cands, backend=backend, page_max_distance=0, budget=20_000)
    assert len(a.sources) == 2
    same = [bp.Chunk(image=page(1), id="a"), bp.Chunk(image=page(1), id="b")]
    b = bp.assemble("q", same, backend=backend, page_max_distance=0, budget=20_000)
    assert fate(b, "b")["detail"] == {
        "of": "a",
        "similarity": 1.0,
        "method": "page_hash",
        "check": "second_look",
    }


def test_a_page_is_never_a_duplicate_of_text_and_text_keeps_its_method(backend: str) -> None:
    cands = [
        bp.Chunk("The cap is 4000 EUR.", id="t1"),
        bp.Chunk(image=small(1), id="p1"),
        bp.Chunk("The cap is 4000 EUR!", id="t2"),
        bp.Chunk(image=small(1), id="p2"),
    ]
    a = bp.assemble("q", cands, backend=backend, tokenizer="approx")
    assert fate(a, "t2")["detail"]["method"] == "jaccard"
    assert fate(a, "p2")["detail"] == {
        "of": "p1",
        "similarity": 1.0,
        "method": "page_hash",
        "check": "second_look",
    }
    assert a.settings["dedupe"] == "jaccard"


def test_an_explicit_text_method_compares_pages_by_their_ocr_text(backend: str) -> None:
    cands = [
        bp.Chunk("Revenue 945 EUR m in 2024", image=small(1), id="p1"),
        bp.Chunk("Revenue 945 EUR m in 2024", image=small(2), id="p2"),  # another scan
        bp.Chunk(image=small(3), id="blank1"),
        bp.Chunk(image=small(3), id="blank2"),  # the same pixels, but no text to compare
    ]
    a = bp.assemble("q", cands, backend=backend, dedupe="exact", tokenizer="approx")
    assert fate(a, "p2")["detail"] == {"of": "p1", "similarity": 1.0, "method": "exact"}
    assert fate(a, "blank2")["fate"] == "source"  # blank pages are not exact duplicates
    assert a.settings["pages"]["dedupe"] is None


def test_cosine_over_page_embeddings_works_as_for_text(backend: str) -> None:
    cands = [
        bp.Chunk(image=small(1), id="a", vector=[1.0, 0.0]),
        bp.Chunk(image=small(2), id="b", vector=[0.999, 0.01]),
        bp.Chunk(image=small(3), id="c", vector=[0.0, 1.0]),
    ]
    a = bp.assemble("q", cands, backend=backend, tokenizer="approx")
    assert a.settings["dedupe"] == "cosine"
    assert fate(a, "b")["detail"]["method"] == "cosine"
    assert a.settings["pages"]["dedupe"] is None


def test_scope_document_compares_pages_only_within_their_document(backend: str) -> None:
    cands = [
        bp.Chunk(image=small(1), id="a", doc="A"),
        bp.Chunk(image=small(1), id="b", doc="B"),
        bp.Chunk(image=small(1), id="a2", doc="A"),
    ]
    a = bp.assemble("q", cands, backend=backend, scope="document", tokenizer="approx")
    assert fate(a, "b")["fate"] == "source"
    assert fate(a, "a2")["detail"]["of"] == "a"


# --- neighbours ---------------------------------------------------------------------------------


def test_neighbours_grow_a_page_into_a_span_that_carries_every_image_in_order(
    backend: str,
) -> None:
    doc = [
        bp.Chunk(f"page {n} text", image=small(n), page=n, id=f"r#{n}", doc="r")
        for n in (1, 2, 3, 4)
    ]
    a = bp.assemble(
        "q",
        [doc[2], bp.Chunk(image=small(9), id="other")],
        neighbors=1,
        chunks_of={"r": doc},
        backend=backend,
        tokenizer="approx",
        order="relevance",
    )
    span = a.sources[0].chunk
    assert span.page == "2-4"
    assert [im.pixels for im in span.images] == [decode_page(small(n)).pixels for n in (2, 3, 4)]
    assert a.user.startswith(
        '<sources>\n<source id="1" page="2-4">\n<page-image/>\n<page-image/>\n<page-image/>\n'
        "page 2 text\npage 3 text\npage 4 text\n</source>"
    )
    assert a.tokens["images"] == 4 * image_tokens(340, 440)


def test_neighbours_of_text_chunks_with_pages_show_the_page_range() -> None:
    doc = [bp.Chunk(f"text of page {n}", page=n, id=f"d#{n}", doc="d") for n in (7, 8)]
    a = bp.assemble("q", [doc[0]], neighbors=1, chunks_of={"d": doc}, tokenizer="approx")
    assert '<source id="1" page="7-8">' in a.user
    assert a.sources[0].chunk.images == ()


# --- budget -------------------------------------------------------------------------------------


def test_budget_images_caps_the_pages_and_names_the_cap(backend: str) -> None:
    cands = [bp.Chunk(image=small(n), page=n, id=f"p{n}") for n in (1, 2, 3)]
    cands.append(bp.Chunk("a text chunk", id="t"))
    stop = bp.assemble(
        "q", cands, budget=bp.Budget(context=5000, images=2), backend=backend, tokenizer="approx"
    )
    assert [f["fate"] for f in stop.fates] == ["source", "source", "dropped", "dropped"]
    assert fate(stop, "p3")["detail"] == {"images": 2, "context_budget": 5000}
    assert fate(stop, "t")["detail"] == {"after": "p3", "context_budget": 5000}
    skip = bp.assemble(
        "q",
        cands,
        budget=bp.Budget(context=5000, images=2),
        overflow="skip",
        backend=backend,
        tokenizer="approx",
    )
    assert fate(skip, "p3")["detail"] == {"images": 2, "context_budget": 5000}
    assert fate(skip, "t")["fate"] == "source"
    assert skip.settings["budget"]["images"] == 2


def test_each_image_costs_its_rule_s_tokens_within_the_context_budget(backend: str) -> None:
    cost = image_tokens(340, 440)  # 255 by the openai rule: one tile
    cands = [bp.Chunk(image=small(n), page=n, id=f"p{n}") for n in (1, 2, 3)]
    a = bp.assemble("q", cands, budget=2 * cost + 40, backend=backend, tokenizer="approx")
    assert len(a.sources) == 2
    assert fate(a, "p3")["reason"] == "over_budget"
    assert a.tokens["images"] == 2 * cost
    assert a.tokens["sources"] <= a.tokens["context_budget"]
    assert a.tokens["total"] == a.tokens["system"] + len(a.user) // 4 + 2 * cost
    assert [s.tokens for s in a.sources] == [
        len(t) // 4 + cost
        for t in (bp.prompt.render_source(n, s.chunk) for n, s in enumerate(a.sources, 1))
    ]


@pytest.mark.parametrize(
    ("rule", "expected"),
    [("openai", 255), ("openai-low", 85), ("anthropic", 200), (lambda w, h: w + h, 780)],
)
def test_the_image_tokens_option_picks_the_rule(rule: Any, expected: int) -> None:
    a = bp.assemble("q", [bp.Chunk(image=small(1), id="p")], image_tokens=rule, tokenizer="approx")
    assert a.tokens["images"] == expected
    assert a.settings["pages"]["image_tokens"] == (rule if isinstance(rule, str) else "callable")


def test_bad_page_options_are_rejected_when_built() -> None:
    with pytest.raises(bp.InputError, match="image_tokens must be one of 'openai'"):
        bp.Assembler(image_tokens="gemini")
    with pytest.raises(bp.InputError, match="page_max_distance must be an int >= 0"):
        bp.Assembler(page_max_distance=-1)
    with pytest.raises(bp.InputError, match=r"budget.images must be an int >= 0"):
        bp.Assembler(budget=bp.Budget(context=10, images=-1))


def test_eviction_counts_the_images_of_the_placed_pages(backend: str) -> None:
    # a caller's tokens claim the text is free; the images still count, and eviction holds the
    # budget over text and images together
    cost = image_tokens(340, 440)
    cands = [bp.Chunk("x " * 200, image=small(n), tokens=0, id=f"p{n}") for n in (1, 2)]
    a = bp.assemble("q", cands, budget=2 * cost + 120, backend=backend, tokenizer="approx")
    assert fate(a, "p2")["detail"]["evicted"] is True
    assert a.tokens["sources"] <= a.tokens["context_budget"]


def test_a_window_budget_reserves_room_for_the_images(backend: str) -> None:
    cands = [bp.Chunk(image=small(n), id=f"p{n}") for n in (1, 2, 3)]
    budget = bp.Budget(window=900, max_output=100)
    a = bp.assemble("q", cands, budget=budget, backend=backend, tokenizer="approx")
    assert a.tokens["total"] + 8 <= 800
    assert len(a.sources) == 2


# --- both backends, the record, round trips -----------------------------------------------------


def test_both_backends_give_the_same_record_for_a_page_request() -> None:
    cands = [
        bp.Chunk(image=page(1), page=1, id="a", **REPORT),
        bp.Chunk(image=copy(1, "shift"), page=1, id="b"),
        bp.Chunk("text", id="t"),
        bp.Chunk(image=page(4), page=4, id="d"),
    ]
    records = [
        bp.assemble("q", cands, backend=b, budget=bp.Budget(context=3000, images=1)).record(
            include_prompt=True
        )
        for b in ("python", "rust")
        if b == "python" or bp.Assembler().backend == "rust"
    ]
    for r in records:
        r["settings"]["backend"] = "*"
    assert all(r == records[0] for r in records)


def test_the_record_names_each_image_by_size_and_sha256_not_its_bytes() -> None:
    png = small(1)
    a = bp.assemble("q", [bp.Chunk(image=png, page=14, id="p", **REPORT)], tokenizer="approx")
    record = a.record()
    [source] = record["sources"]
    assert source["page"] == 14
    assert source["images"] == [
        {
            "width": 340,
            "height": 440,
            "media_type": "image/png",
            "sha256": hashlib.sha256(png).hexdigest(),
        }
    ]
    assert base64.b64encode(png).decode()[:40] not in json.dumps(record)


def test_an_assembly_with_pages_round_trips_through_to_dict(backend: str) -> None:
    cands = [bp.Chunk("ocr", image=small(1), page="iv", id="p"), bp.Chunk("t", id="t")]
    a = bp.assemble("q", cands, backend=backend, tokenizer="approx")
    back = bp.Assembly.from_dict(json.loads(json.dumps(a.to_dict())))
    assert back == a
    assert back.sources[0].chunk.page == "iv"
    assert [im.data for s in back.sources for im in s.chunk.images] == [small(1)]
    assert to_anthropic(back) == to_anthropic(a)


# --- chat formats -------------------------------------------------------------------------------


def _pages_assembly(**options: Any) -> bp.Assembly:
    cands = [
        bp.Chunk("Table 3.1", image=small(1), page=14, id="p14", **REPORT),
        bp.Chunk("A text source.", id="t"),
        bp.Chunk(image=pagegen.png(pagegen.text_page(2).resize((100, 130))), page=15, id="p15"),
    ]
    return bp.assemble("What is revenue?", cands, tokenizer="approx", order="relevance", **options)


def test_to_openai_puts_each_image_right_after_its_label() -> None:
    a = _pages_assembly()
    system, user = to_openai(a)
    assert system == {"role": "system", "content": a.system}
    parts: Any = user["content"]
    assert [p["type"] for p in parts] == ["text", "image_url", "text", "image_url", "text"]
    assert parts[0]["text"].endswith(
        '<source id="1" title="Annual report" page="14" '
        'updated="2024-05-01" url="https://x.example/r.pdf">\n'
    )
    assert parts[2]["text"].endswith('<source id="3" page="15">\n')
    images = [im for s in a.sources for im in s.chunk.images]
    assert [p["image_url"] for p in parts[1::2]] == [
        {"url": im.data_url(), "detail": "high"} for im in images
    ]
    text = "".join(p["text"] if p["type"] == "text" else "<page-image/>" for p in parts)
    assert text == a.user


def test_to_openai_asks_for_the_detail_the_budget_counted() -> None:
    low = to_openai(_pages_assembly(image_tokens="openai-low"))[1]["content"]
    assert {p["image_url"]["detail"] for p in low if p["type"] == "image_url"} == {"low"}  # type: ignore[index, union-attr]
    other = to_openai(_pages_assembly(image_tokens="anthropic"))[1]["content"]
    assert all("detail" not in p["image_url"] for p in other if p["type"] == "image_url")  # type: ignore[index, union-attr, operator]


def test_to_anthropic_sends_base64_image_blocks_and_keeps_the_cached_prefix() -> None:
    a = _pages_assembly()
    request = to_anthropic(a)
    assert request["system"] == [
        {"type": "text", "text": a.system, "cache_control": {"type": "ephemeral"}}
    ]
    blocks = request["messages"][0]["content"]
    assert [b["type"] for b in blocks] == ["text", "image", "text", "image", "text"]
    images = [im for s in a.sources for im in s.chunk.images]
    assert [b["source"] for b in blocks[1::2]] == [
        {"type": "base64", "media_type": im.media_type, "data": im.base64()} for im in images
    ]
    assert base64.b64decode(blocks[1]["source"]["data"]) == small(1)


def test_two_images_in_a_row_send_no_blank_text_block() -> None:
    doc = [bp.Chunk(image=small(n), page=n, id=f"r#{n}", doc="r") for n in (1, 2)]
    a = bp.assemble("q", [doc[0]], neighbors=1, chunks_of={"r": doc}, tokenizer="approx")
    blocks = to_anthropic(a)["messages"][0]["content"]
    assert [b["type"] for b in blocks] == ["text", "image", "image", "text"]
    assert all(b["text"].strip() for b in blocks if b["type"] == "text")


def test_messages_stay_text_with_the_placeholders() -> None:
    a = _pages_assembly()
    assert a.messages[1] == {"role": "user", "content": a.user}
    assert a.user.count("<page-image/>") == 2


def test_the_openai_sdk_sends_the_page_parts_unchanged() -> None:
    openai = pytest.importorskip("openai")
    a = _pages_assembly()

    def call(http: Any) -> None:
        client = openai.OpenAI(api_key="test", http_client=http, max_retries=0)
        client.chat.completions.create(model="gpt-4o", messages=to_openai(a))

    assert captured_body(call)["messages"] == to_openai(a)


def test_the_anthropic_sdk_sends_the_image_blocks_unchanged() -> None:
    anthropic = pytest.importorskip("anthropic")
    a = _pages_assembly()
    request = to_anthropic(a)

    def call(http: Any) -> None:
        client = anthropic.Anthropic(api_key="test", http_client=http, max_retries=0)
        client.messages.create(model="claude-sonnet-4-5", max_tokens=100, **request)

    body = captured_body(call, "httpx2" if importlib.util.find_spec("httpx2") else "httpx")
    assert body["messages"] == request["messages"]
    assert body["system"] == request["system"]


TYPED_PAGES = """
import anthropic
import openai
from anthropic.types import ImageBlockParam, MessageParam, TextBlockParam
from openai.types.chat import (
    ChatCompletionContentPartImageParam,
    ChatCompletionContentPartTextParam,
    ChatCompletionUserMessageParam,
)

import briefpack as bp
from briefpack.integrations import to_anthropic, to_openai

a = bp.assemble("Why?", [bp.Chunk(image=b"...", page=3)], budget=100)
client = openai.OpenAI(api_key="test")
client.chat.completions.create(model="gpt-4o", messages=to_openai(a))
claude = anthropic.Anthropic(api_key="test")
claude.messages.create(model="claude-sonnet-4-5", max_tokens=100, **to_anthropic(a))

# the shapes briefpack builds, written against the SDKs' own request types
text: ChatCompletionContentPartTextParam = {"type": "text", "text": "<source id=\\"1\\">"}
image: ChatCompletionContentPartImageParam = {
    "type": "image_url",
    "image_url": {"url": "data:image/png;base64,iVBO", "detail": "high"},
}
user: ChatCompletionUserMessageParam = {"role": "user", "content": [text, image]}
block: ImageBlockParam = {
    "type": "image",
    "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"},
}
label: TextBlockParam = {"type": "text", "text": "<source id=\\"1\\">"}
message: MessageParam = {"role": "user", "content": [label, block]}
"""


def test_the_page_request_shapes_type_check_against_the_sdks(tmp_path: Path) -> None:
    pytest.importorskip("openai")
    pytest.importorskip("anthropic")
    api = pytest.importorskip("mypy.api")
    (tmp_path / "use_pages.py").write_text(TYPED_PAGES, encoding="utf-8")
    out, err, status = api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            str(tmp_path / "use_pages.py"),
        ]
    )
    assert status == 0, out + err


def test_what_to_openai_and_to_anthropic_build_has_the_sdk_shapes() -> None:
    """The built parts and blocks have exactly the keys of the SDKs' TypedDicts (checked by
    mypy above) and the literal values they allow."""
    pytest.importorskip("openai")
    pytest.importorskip("anthropic")
    from typing import get_type_hints

    from anthropic.types import Base64ImageSourceParam, ImageBlockParam, TextBlockParam
    from openai.types.chat import (
        ChatCompletionContentPartImageParam,
        ChatCompletionContentPartTextParam,
    )
    from openai.types.chat.chat_completion_content_part_image_param import ImageURL

    a = _pages_assembly()
    for p in to_openai(a)[1]["content"]:  # type: ignore[union-attr]
        kind: Any = (
            ChatCompletionContentPartTextParam
            if p["type"] == "text"
            # type: ignore[index]
            else (ChatCompletionContentPartImageParam)
        )
        assert set(p) <= set(get_type_hints(kind))  # type: ignore[arg-type]
        if p["type"] == "image_url":  # type: ignore[index]
            assert set(p["image_url"]) <= set(get_type_hints(ImageURL))  # type: ignore[index, arg-type]
    for b in to_anthropic(a)["messages"][0]["content"]:
        kind = TextBlockParam if b["type"] == "text" else ImageBlockParam
        assert set(b) <= set(get_type_hints(kind))
        if b["type"] == "image":
            assert set(b["source"]) == set(get_type_hints(Base64ImageSourceParam))


# --- the command line ---------------------------------------------------------------------------


def test_the_cli_reads_image_paths_relative_to_the_jsonl_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from briefpack import cli

    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "p1.png").write_bytes(small(1))
    (tmp_path / "pages" / "p2.png").write_bytes(small(2))
    rows = [
        {"id": "p1", "image": "pages/p1.png", "page": 1, "title": "R"},
        {"id": "p1b", "image": "pages/p1.png", "page": 1},
        {"id": "p2", "image": "pages/p2.png", "page": 2},
    ]
    hits = tmp_path / "hits.jsonl"
    hits.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code = cli.main(
        ["assemble", str(hits), "-q", "q", "--tokenizer", "approx", "--format", "json",
         "--max-images", "1", "--image-tokens", "anthropic"]
    )  # fmt: skip
    assert code == 0
    record = json.loads(capsys.readouterr().out)
    assert [c.get("reason") for c in record["candidates"]] == [None, "duplicate", "over_budget"]
    assert record["candidates"][2]["detail"] == {"images": 1, "context_budget": 12000}
    assert record["sources"][0]["images"][0]["sha256"] == hashlib.sha256(small(1)).hexdigest()
    assert record["settings"]["pages"]["image_tokens"] == "anthropic"


def test_the_cli_reports_a_missing_image_file_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from briefpack import cli

    hits = tmp_path / "hits.jsonl"
    hits.write_text('{"id": "a", "text": "x"}\n{"id": "b", "image": "gone.png"}\n', "utf-8")
    assert cli.main(["assemble", str(hits), "-q", "q", "--tokenizer", "approx"]) != 0
    err = capsys.readouterr().err
    assert f"{hits}:2:" in err
    assert "gone.png' does not exist" in err


def test_the_cli_messages_format_carries_the_page_images(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from briefpack import cli

    (tmp_path / "p.png").write_bytes(small(1))
    hits = tmp_path / "hits.jsonl"
    hits.write_text('{"id": "a", "image": "p.png", "page": 3}\n', "utf-8")
    assert cli.main(["assemble", str(hits), "-q", "q", "--format", "messages",
                     "--tokenizer", "approx"]) == 0  # fmt: skip
    messages = json.loads(capsys.readouterr().out)
    assert [p["type"] for p in messages[1]["content"]] == ["text", "image_url", "text"]


@pytest.mark.parametrize("fmt", ["text", "json", "messages"])
def test_demo_pages_shows_a_near_copy_deduplicated_and_the_image_cap(
    fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from briefpack import cli

    code = cli.main(["demo", "--pages", "--tokenizer", "approx", "--color", "never",
                     "--format", fmt])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    if fmt == "text":
        assert "report-copy.pdf#p14 (page 14) is a near-copy of report.pdf#p14" in out
        assert "report.pdf#p3 (page 3) was left out: the budget allows 2 page images." in out
        assert out.count("<page-image/>") >= 2
    elif fmt == "json":
        record = json.loads(out)
        fates = {c["id"]: c for c in record["candidates"]}
        assert fates["report-copy.pdf#p14"]["detail"]["method"] == "page_hash"
        assert fates["report.pdf#p3"]["detail"]["images"] == 2
        assert [s["id"] for s in record["sources"]] == [
            "report.pdf#p14",
            "press/2025-03",
            "report.pdf#p15",
        ]
    else:
        parts = json.loads(out)[1]["content"]
        assert [p["type"] for p in parts].count("image_url") == 2


# --- parity: any page request, both backends, the same record -----------------------------------

_HAS_RUST = bp.Assembler().backend == "rust"


@st.composite
def page_requests(draw: st.DrawFn) -> tuple[list[bp.Chunk], dict[str, Any]]:
    bases = draw(st.lists(st.binary(min_size=64, max_size=64), min_size=1, max_size=4))
    cands = []
    for i in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["page", "copy", "text"]))
        if kind == "text":
            cands.append(bp.Chunk(draw(st.sampled_from(["cap 4000", "cap 4000!", ""])), id=f"t{i}"))
            continue
        pixels = np.frombuffer(draw(st.sampled_from(bases)), dtype=np.uint8).reshape(8, 8)
        if kind == "copy":  # a near-copy: a few pixels nudged
            pixels = np.clip(pixels.astype(int) + draw(st.integers(-3, 3)), 0, 255).astype(np.uint8)
        text = draw(st.sampled_from(["", "ocr", "cap 4000"]))
        cands.append(bp.Chunk(text, image=pixels, page=draw(st.integers(0, 9)), id=f"p{i}"))
    options = {
        "budget": bp.Budget(
            context=draw(st.integers(0, 1200)), images=draw(st.none() | st.integers(0, 4))
        ),
        "overflow": draw(st.sampled_from(["stop", "skip"])),
        "labels": draw(st.sampled_from(["xml", "brackets"])),
        "image_tokens": draw(st.sampled_from(["openai", "openai-low", "anthropic"])),
        "dedupe": draw(st.sampled_from(["auto", "exact", "jaccard", None])),
        "page_max_distance": draw(st.integers(0, 300)),
        "order": draw(st.sampled_from(["edges", "relevance", "document"])),
        "tokenizer": "approx",
    }
    return cands, options


@pytest.mark.skipif(not _HAS_RUST, reason="the Rust extension is not built")
@given(request=page_requests())
def test_any_page_request_gives_the_same_record_on_both_backends(
    request: tuple[list[bp.Chunk], dict[str, Any]],
) -> None:
    cands, options = request
    records = []
    for backend in ("python", "rust"):
        r = bp.assemble("q", cands, backend=backend, **options).record(include_prompt=True)
        r["settings"]["backend"] = "*"
        records.append(r)
    assert records[0] == records[1]
    placed = sum(len(s["images"]) for s in records[0]["sources"] if "images" in s)
    cap = options["budget"].images
    assert cap is None or placed <= cap
    assert records[0]["tokens"]["sources"] <= records[0]["tokens"]["context_budget"]


def test_without_pillow_the_cli_names_the_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from briefpack import cli

    (tmp_path / "p.png").write_bytes(small(1))
    monkeypatch.setitem(sys.modules, "PIL", None)
    assert cli.main(["demo", "--pages", "--tokenizer", "approx"]) != 0
    assert "pip install 'briefpack[pages]'" in capsys.readouterr().err
    hits = tmp_path / "hits.jsonl"
    hits.write_text('{"id": "a", "image": "p.png"}\n', "utf-8")
    assert cli.main(["assemble", str(hits), "-q", "q", "--tokenizer", "approx"]) != 0
    err = capsys.readouterr().err
    assert f"{hits}:1:1: page images need Pillow" in err
    assert "Traceback" not in err


def test_a_one_glyph_edit_is_kept_by_the_fine_look_and_the_record_says_so(backend: str) -> None:
    """One glyph whited out and the page saved as JPEG q50: alike at the second look, kept
    apart by the fine look (the record's check is "fine"); the page's JPEG copy is dropped."""
    im = pagegen.text_page(0, layout=0)
    edit = im.copy()
    ImageDraw.Draw(edit).rectangle((409, 395, 421, 417), fill=255)
    cands = [
        bp.Chunk(image=pagegen.png(im), page=1, id="orig"),
        bp.Chunk(image=pagegen.png(pagegen.jpeg(im, 50)), page=1, id="copy"),
        bp.Chunk(image=pagegen.png(pagegen.jpeg(edit, 50)), page=1, id="edit"),
    ]
    a = bp.assemble("q", cands, backend=backend, tokenizer="approx", budget=20_000)
    assert sorted(s.chunk.id for s in a.sources) == ["edit", "orig"]
    assert fate(a, "copy")["detail"]["check"] == "second_look"
    look = fate(a, "edit")["second_look"]
    assert look["near"] == "orig"
    assert look["check"] == "fine"
    assert set(look) == {"near", "distance", "peak", "reference", "check"}
    assert 100 * look["peak"] > pages.DEFAULT_FINE_RATIO * (look["reference"] + 16)
    assert a.record()["candidates"][2]["second_look"] == look
