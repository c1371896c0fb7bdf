"""The built-in example behind ``briefpack demo --pages``: page images drawn at run time.

Four pages of an annual report and one text chunk, as a page-image retriever might return them
for "What was the revenue in 2024?": page 14 (the revenue table), the same page again as a
JPEG (a near-copy from a second copy of the PDF), page 15 (where the table continues), page 3
(the contents page) and a text chunk from the press release. Pages are drawn with Pillow's
default bitmap font, so no file or font is needed; ``example`` returns the same pixels every
time on one Pillow version (a JPEG's bytes may differ between Pillow and libjpeg versions,
so the near-copy's exact hash distance may too).
"""

from __future__ import annotations

import io
import random
from typing import Any

from .pages import _pil
from .types import Budget, Chunk

__all__ = ["PAGES_BUDGET", "PAGES_OPTIONS", "PAGES_QUESTION", "example", "page_png"]

PAGES_QUESTION = "What was the revenue in 2024?"
PAGES_BUDGET = Budget(context=4000, images=2)
"""4000 tokens and at most two page images: the cap leaves the contents page out."""
PAGES_OPTIONS: dict[str, Any] = {"image_tokens": "openai"}

_W, _H = 425, 550  # a letter page at 50 dpi: small, still legible to a model at this size

_WORDS = (  # noqa: SIM905 - a line of words reads better than a list
    "the group revenue segment growth year report cost margin market share results staff "
    "customers orders energy plant europe america asia outlook dividend board notes total"
).split()

_PAGES: dict[int, list[str]] = {
    3: [
        "ACME GROUP ANNUAL REPORT 2024",
        "",
        "Contents",
        "1  Letter to shareholders ........ 4",
        "2  The year in review ............ 8",
        "3  Financial statements ......... 14",
        "4  Notes ........................ 22",
    ],
    14: [
        "3  FINANCIAL STATEMENTS",
        "",
        "Table 3.1  Revenue by segment (EUR m)",
        "",
        "Segment            2023      2024",
        "Industrial         412.0     455.3",
        "Consumer           298.4     301.9",
        "Services           120.7     151.2",
        "(continued on page 15)",
    ],
    15: [
        "Table 3.1 (continued)",
        "",
        "Segment            2023      2024",
        "Licensing           31.5      36.6",
        "Total revenue      862.6     945.0",
        "",
        "Revenue grew 9.6% on 2023, led by Services.",
    ],
}


def page_png(page: int, *, jpeg_quality: int | None = None) -> bytes:
    """Page ``page`` of the example report (3, 14 or 15) as PNG bytes, or JPEG bytes at
    ``jpeg_quality``.

    >>> page_png(14)[:4], page_png(14, jpeg_quality=70)[:3]
    (b'\\x89PNG', b'\\xff\\xd8\\xff')
    """
    pil = _pil()
    from PIL import ImageDraw, ImageFont

    im = pil.new("L", (_W, _H), 255)
    draw = ImageDraw.Draw(im)
    font = ImageFont.load_default_imagefont()
    y = 36
    for line in _PAGES[page]:
        draw.text((36, y), line, font=font, fill=0)
        y += 14
    rng = random.Random(page)  # body text: the same words for the same page, every time
    y += 14
    while y < _H - 60:
        words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(6, 9)))
        draw.text((36, y), words[:58], font=font, fill=0)
        y += 14
    draw.line((36, _H - 40, _W - 36, _H - 40), fill=0)
    draw.text((_W // 2 - 6, _H - 32), str(page), font=font, fill=0)
    buf = io.BytesIO()
    if jpeg_quality is None:
        im.save(buf, "PNG")
    else:
        im.save(buf, "JPEG", quality=jpeg_quality)
    return buf.getvalue()


def example() -> tuple[str, list[Chunk]]:
    """The question and the candidates, best first.

    >>> question, chunks = example()
    >>> [(c.id, c.page) for c in chunks]  # doctest: +NORMALIZE_WHITESPACE
    [('report.pdf#p14', 14), ('report-copy.pdf#p14', 14), ('report.pdf#p15', 15),
     ('press/2025-03', None), ('report.pdf#p3', 3)]
    """
    title, updated, url = "ACME annual report 2024", "2025-03-01", "https://acme.example/ar24.pdf"
    report: dict[str, Any] = {"title": title, "updated": updated, "url": url, "doc": "report.pdf"}
    chunks = [
        Chunk(id="report.pdf#p14", image=page_png(14), page=14, score=0.91, **report),
        Chunk(
            id="report-copy.pdf#p14",
            image=page_png(14, jpeg_quality=70),
            page=14,
            score=0.90,
            title=title,
            doc="report-copy.pdf",
        ),
        Chunk(id="report.pdf#p15", image=page_png(15), page=15, score=0.84, **report),
        Chunk(
            "ACME's revenue rose to EUR 945 million in 2024, up 9.6%.",
            id="press/2025-03",
            title="Press release: ACME results 2024",
            updated="2025-03-05",
            score=0.80,
        ),
        Chunk(id="report.pdf#p3", image=page_png(3), page=3, score=0.55, **report),
    ]
    return PAGES_QUESTION, chunks
