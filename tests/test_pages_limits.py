"""Pages wired into the pipeline: the dedupe stage hashes previews, the decoding limits are
options read once per request, page-hash drops and second looks are in the record, and a
caller's ``image_tokens`` callable is wrapped like every callback; on both backends.
"""

from __future__ import annotations

import functools
import io
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("PIL")

from PIL import Image, ImageDraw

import briefpack as bp
import pagegen
from briefpack import pages
from briefpack._backend import Kernels
from briefpack._stages import images as images_stage
from briefpack.integrations import to_anthropic, to_openai
from briefpack.options import DEFAULTS, Options
from briefpack.pages import PageImage


@functools.cache
def small(seed: int) -> bytes:
    """A generated text page scaled to 340x440, as PNG."""
    buf = io.BytesIO()
    pagegen.text_page(seed).resize((340, 440)).save(buf, "PNG")
    return buf.getvalue()


@functools.cache
def bomb() -> bytes:
    """A small PNG (about 60 KB) that declares 7000x7000 gray pixels (49 MP)."""
    buf = io.BytesIO()
    Image.new("L", (7000, 7000), 255).save(buf, "PNG", optimize=True)
    return buf.getvalue()


def fate(a: bp.Assembly, cid: str) -> dict[str, Any]:
    return next(f for f in a.fates if f["id"] == cid)


@pytest.fixture
def no_full_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a page's full pixels fails the test: the request must work from previews."""

    def refuse(self: PageImage) -> bytes:
        raise AssertionError(f"{self!r}: the full pixels were decoded")

    monkeypatch.setattr(PageImage, "pixels", property(refuse))


# --- the stage hashes previews ------------------------------------------------------------------


def test_dedupe_hashes_the_previews_and_never_the_full_pixels(
    backend: str, no_full_pixels: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[list[int], list[int], list[int]]] = []
    real = Kernels.page_hashes

    def spy(self: Any, pixels: bytes, offsets: Any, widths: Any, heights: Any, ch: Any) -> Any:
        seen.append((list(widths), list(heights), list(ch)))
        return real(self, pixels, offsets, widths, heights, ch)

    monkeypatch.setattr(Kernels, "page_hashes", spy)
    big = pagegen.png(pagegen.rgb(pagegen.text_page(3)))  # 1700x2200 RGB
    cands = [
        bp.Chunk(image=big, id="a"),
        bp.Chunk(image=big, id="a-again"),
        bp.Chunk(image=small(5), id="b"),
    ]
    a = bp.assemble("q", cands, backend=backend, tokenizer="approx", budget=20_000)
    assert sorted(s.chunk.id for s in a.sources) == ["a", "b"]
    assert fate(a, "a-again")["reason"] == "duplicate"
    # one kernel call; the 1700x2200 page went in as its 850x1100 gray preview
    assert seen == [([850, 850, 340], [1100, 1100, 440], [1, 1, 1])]


def test_each_image_is_hashed_once_per_request(backend: str, monkeypatch: Any) -> None:
    calls: list[int] = []
    real = images_stage.kernel_batch

    def counting(todo: Any) -> Any:
        calls.append(len(todo))
        return real(todo)

    monkeypatch.setattr(images_stage, "kernel_batch", counting)
    one = pages.decode_page(small(1))
    cands = [bp.Chunk(image=one, id="x"), bp.Chunk(image=one, id="y"), {"image": small(2)}]
    bp.assemble("q", cands, backend=backend, tokenizer="approx", budget=20_000)
    assert calls == [2]  # the shared PageImage once, the other page once


def test_the_chat_formats_send_the_placed_pages_bytes_without_decoding_them(
    backend: str, no_full_pixels: None
) -> None:
    cands = [bp.Chunk(image=small(i), page=i, id=f"p{i}") for i in range(1, 5)]
    a = bp.assemble(
        "q", cands, backend=backend, tokenizer="approx", budget=bp.Budget(20_000, images=2)
    )
    placed = [s.chunk.images[0] for s in a.sources]
    assert len(placed) == 2
    body = to_openai(a)[-1]["content"]
    urls = [p["image_url"]["url"] for p in body if p["type"] == "image_url"]
    assert urls == [p.data_url() for p in placed]  # the encoded bytes as given, placed only
    blocks = to_anthropic(a)["messages"][-1]["content"]
    assert [b["source"]["data"] for b in blocks if b["type"] == "image"] == [
        p.base64() for p in placed
    ]
    assert all(isinstance(m["content"], str) for m in a.messages)


# --- the two options ----------------------------------------------------------------------------


def test_the_limits_are_options_with_the_pages_defaults() -> None:
    assert DEFAULTS["max_page_pixels"] == pages.MAX_PAGE_PIXELS == 50_000_000
    assert DEFAULTS["max_decoded_bytes"] == pages.MAX_DECODED_BYTES == 2**31
    for name in ("max_page_pixels", "max_decoded_bytes"):
        for bad in (0, -1, 1.5, True, "10"):
            with pytest.raises(bp.InputError) as info:
                Options(**{name: bad})
            assert info.value.option == name
        assert getattr(Options(**{name: np.int64(7)}), name) == 7
    settings = Options().settings("jaccard", 0.7, "python", pages=True)
    assert "max_page_pixels" not in settings["pages"]  # a successful request is the same
    assert "max_decoded_bytes" not in settings  # under any limit: nothing to record


def test_a_small_png_declaring_49_megapixels_is_refused_from_its_header(backend: str) -> None:
    cands = [{"text": "a", "id": "t"}, bp.Chunk(image=bomb(), id="bomb")]
    with pytest.raises(bp.InputError) as info:
        bp.assemble("q", cands, backend=backend, max_page_pixels=40_000_000, tokenizer="approx")
    exc = info.value
    assert (exc.index, exc.id, exc.field) == (1, "bomb", "image")
    assert str(exc).startswith("candidate 1 (id='bomb'): the image is 7000x7000 = 49000000 ")
    assert "max_page_pixels" in str(exc)


def test_the_decode_budget_is_one_per_request_across_its_pages(backend: str) -> None:
    # each 340x440 gray PNG decodes to 149,600 bytes of pixels: 3 fit in 500,000, not 4
    cands = [bp.Chunk(image=small(i), id=f"p{i}") for i in range(6)]
    asm = bp.Assembler(backend=backend, max_decoded_bytes=500_000, tokenizer="approx")
    assert len(asm("q", cands[:3]).sources) == 3
    with pytest.raises(bp.InputError) as info:
        asm("q", cands)
    assert (info.value.index, info.value.id, info.value.field) == (3, "p3", "image")
    assert "past max_decoded_bytes=500000 (448800 used)" in str(info.value)
    # the next request has a budget of its own
    assert len(asm("q", cands[3:6]).sources) == 3
    # and one request of assemble_many may raise its own limit
    out = bp.assemble_many(
        [{"question": "q", "candidates": cands}, {"question": "q", "candidates": cands[:2]}],
        backend=backend,
        max_decoded_bytes=500_000,
        tokenizer="approx",
        return_exceptions=True,
    )
    assert isinstance(out[0], bp.InputError)
    assert isinstance(out[1], bp.Assembly)


def test_the_cli_reads_rows_under_the_limit_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from briefpack import cli

    (tmp_path / "big.png").write_bytes(bomb())
    for i in range(3):
        (tmp_path / f"p{i}.png").write_bytes(small(i))
    hits = tmp_path / "hits.jsonl"
    rows = [{"id": "a", "text": "x"}, {"id": "big", "image": "big.png"}]
    hits.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    args = ["assemble", str(hits), "-q", "q", "--tokenizer", "approx"]
    assert cli.main([*args, "--max-page-pixels", "40000000"]) != 0
    err = capsys.readouterr().err
    assert f"{hits}:2:" in err
    assert "7000x7000 = 49000000 pixels" in err
    rows = [{"id": f"p{i}", "image": f"p{i}.png"} for i in range(3)]
    hits.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    assert cli.main([*args, "--max-decoded-bytes", "300000"]) != 0
    err = capsys.readouterr().err
    assert f"{hits}:3:" in err
    assert "max_decoded_bytes=300000" in err
    assert cli.main([*args, "--max-decoded-bytes", "500000", "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["sources"]) == 3


# --- the record ---------------------------------------------------------------------------------


def _edited_pages() -> list[bp.Chunk]:
    """A page, its exact copy and a one-number edit: the copy is a drop, the edit a near page."""
    im = pagegen.text_page(4)
    edit = im.copy()
    draw = ImageDraw.Draw(edit)
    draw.rectangle((400, 800, 560, 830), fill=255)
    draw.text((400, 800), "48,117", fill=0, font_size=26)
    return [
        bp.Chunk(image=pagegen.png(im), page=1, id="orig"),
        bp.Chunk(image=pagegen.png(im), page=1, id="copy"),
        bp.Chunk(image=pagegen.png(edit), page=1, id="edit"),
    ]


def test_a_page_drop_says_the_second_look_decided_and_a_kept_near_page_says_how(
    backend: str,
) -> None:
    cands = _edited_pages()
    a = bp.assemble("q", cands, backend=backend, tokenizer="approx", budget=20_000)
    assert fate(a, "copy")["detail"] == {
        "of": "orig",
        "similarity": 1.0,
        "method": "page_hash",
        "check": "second_look",
    }
    look = fate(a, "edit")["second_look"]
    hashes = pages.hash_pages([c.image for c in cands], backend=backend)
    r = pages.dedupe_pages(hashes, backend=backend)
    assert r.near_of == [None, None, 0]
    assert r.near_look[2] is not None
    distance, worst, typical = r.near_look[2]
    assert look == {
        "near": "orig",
        "distance": distance,
        "worst": worst,
        "typical": typical,
        "check": "grid",
    }
    assert r.near_check[2] == "grid"
    assert worst > pages.DEFAULT_FACTOR * typical + pages.DEFAULT_MARGIN * 16  # why it was kept
    assert "second_look" not in fate(a, "orig")
    record = a.record()
    assert record["candidates"][2]["second_look"] == look
    assert bp.Assembly.from_dict(a.to_dict()).fates == a.fates


def test_a_near_page_that_is_dropped_later_keeps_its_second_look(backend: str) -> None:
    cands = _edited_pages()
    a = bp.assemble(
        "q", cands, backend=backend, tokenizer="approx", budget=bp.Budget(20_000, images=1)
    )
    edit = fate(a, "edit")
    assert edit["reason"] == "over_budget"
    assert edit["second_look"]["near"] == "orig"


def test_text_requests_and_pages_far_apart_have_no_second_look(backend: str) -> None:
    a = bp.assemble("q", ["a b c", "a b c"], backend=backend, tokenizer="approx")
    assert all("second_look" not in f for f in a.fates)
    assert "check" not in a.fates[1]["detail"]
    b = bp.assemble(
        "q", [bp.Chunk(image=small(1)), bp.Chunk(image=small(2))], backend=backend,
        tokenizer="approx",
    )  # fmt: skip
    assert all("second_look" not in f for f in b.fates)


def test_the_backend_gives_the_second_look_columns_by_name(backend: str) -> None:
    k = pages.get_kernels(backend)
    hashes = pages.hash_pages([c.image for c in _edited_pages()], backend=backend)
    cols = k.dedupe_pages_details(hashes, 66, factor=4, margin=4, level=22)
    assert cols[:3] == ([0, 2], [None, 0, None], [None, 1.0, None])
    assert cols[3] == [None, None, 0]
    assert cols[5:] == ([None, None, "grid"], [None, None, None])
    assert pages.dedupe_pages(hashes, backend=backend) == pages.PageDedupeResult(*cols)


def test_ocr_texts_that_differ_in_a_number_keep_a_pixel_copy_and_the_record_says_so(
    backend: str,
) -> None:
    im = pagegen.text_page(5)
    cands = [
        bp.Chunk("Net sales 4,210 in 2024.", image=pagegen.png(im), page=1, id="orig"),
        bp.Chunk("Net sales 4,210 in 2024.", image=pagegen.png(im), page=1, id="copy"),
        bp.Chunk("Net sales 4,810 in 2024.", image=pagegen.png(im), page=1, id="other"),
        bp.Chunk("  ", image=pagegen.png(im), page=1, id="blank"),  # no text: the pixels decide
    ]
    a = bp.assemble("q", cands, backend=backend, tokenizer="approx", budget=20_000)
    assert fate(a, "copy")["detail"]["of"] == "orig"
    assert fate(a, "blank")["detail"]["of"] == "orig"
    assert fate(a, "other")["second_look"] == {
        "near": "orig",
        "distance": 0,
        "check": "text",
        "kept_because": "differs in '210' / '810'",
    }
    assert "detail" not in fate(a, "other")
    assert bp.Assembly.from_dict(a.to_dict()).fates == a.fates


# --- image_tokens, a caller's callable ----------------------------------------------------------


def _boom(width: int, height: int) -> int:
    raise RuntimeError("no price list")


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        (_boom, "the image_tokens callable raised RuntimeError: no price list"),
        (lambda w, h: -1, "the image_tokens callable returned -1 for a 340x440 image"),
        (lambda w, h: 85.0, "returned 85.0 for a 340x440 image"),
        (lambda w, h: None, "returned None for a 340x440 image"),
        (lambda w, h: True, "returned True for a 340x440 image"),
        (lambda w, h: 10**40, "returned 10000000000000000000000000000000000000000 for a"),
        (lambda w, h: 2**31, "it must return an int in [0, 2147483647]"),
    ],
)
def test_a_bad_image_tokens_callable_is_an_input_error_naming_the_candidate(
    backend: str, rule: Any, said: str
) -> None:
    cands = [{"text": "t", "id": "t"}, bp.Chunk(image=small(1), id="p")]
    with pytest.raises(bp.InputError) as info:
        bp.assemble("q", cands, backend=backend, image_tokens=rule, tokenizer="approx")
    assert str(info.value).startswith("candidate 1 (id='p'): ")
    assert said in str(info.value)
    assert info.value.option == "image_tokens"


def test_assemble_many_keeps_the_good_requests_when_image_tokens_raises(backend: str) -> None:
    requests = [
        {"question": "q", "candidates": ["only text"]},
        {"question": "q", "candidates": [bp.Chunk(image=small(1), id="p")]},
    ]
    out = bp.assemble_many(
        requests, backend=backend, image_tokens=_boom, tokenizer="approx", return_exceptions=True
    )
    assert isinstance(out[0], bp.Assembly)
    assert isinstance(out[1], bp.InputError)
    assert str(out[1]).startswith("requests[1]: candidate 0 (id='p'): the image_tokens callable")


def test_a_numpy_int_from_image_tokens_is_an_int() -> None:
    a = bp.assemble(
        "q", [bp.Chunk(image=small(1))], image_tokens=lambda w, h: np.int64(12), tokenizer="approx"
    )
    assert a.tokens["images"] == 12


def test_a_device_or_fifo_path_is_refused_without_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "page.png"
    os.mkfifo(fifo)  # reading it would block for ever
    with pytest.raises(bp.InputError, match="is not a regular file"):
        pages.decode_page(fifo)
    with pytest.raises(bp.InputError, match="is not a regular file"):
        pages.decode_page("/dev/zero")  # reading it would never end
    with pytest.raises(bp.InputError, match="is not a valid path"):
        pages.decode_page("page\x00.png")


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_pages_an_expansion_brings_count_against_the_request_budget(backend: str) -> None:
    png = small(1)
    parents = {"P": {"text": "the parent page", "image": png, "id": "P"}}
    child = {"text": "a child", "id": "c", "parent": "P"}
    ok = bp.assemble("q", [child], parents=parents, tokenizer="approx", backend=backend)
    assert [s.chunk.id for s in ok.sources] == ["P"]
    with pytest.raises(bp.InputError, match="max_decoded_bytes"):
        bp.assemble(
            "q", [child], parents=parents, tokenizer="approx", backend=backend,
            max_decoded_bytes=1000,
        )  # fmt: skip
