"""Page signature cost per 1700x2200 page: decoding to the preview, the kernel, the second look.

    python benches/pages_throughput.py [--runs 7]

A generated 1700x2200 text page (US letter at 200 dpi, tests/pagegen.py), as an RGB PNG and as
a JPEG (quality 90). Each figure is the median of ``--runs`` runs on one core (the kernels run
one page after another, without threads):

* decode: ``decode_page`` from the encoded bytes to its 850x1100 gray preview (Pillow; a JPEG
  is decoded at half scale);
* kernel: ``page_hashes`` on the preview (what ``hash_pages`` and the pipeline run), and on the
  full RGB pixels for comparison; Rust core and reference;
* second look: ``dedupe_pages`` of a page and its JPEG copy (a hash match, so the detail grids
  are compared);
* text check: the same pair with a page's text (about 3,000 characters, 450 words, numbers
  among them): the copy with the same text (the check passes, the second look runs), and an
  edit whose text differs in one number (the check decides, the second look does not run);
* fine look: the same pair with its previews (both 512 x 512 fine grids made, then the fine
  look at the regions where the two differ most: what a near pair without text costs);
* order check: the same pair, the edit's text the page's with ten words of one row in reverse
  order (same words: the guard lets it through, the order check decides).

Build the extension with the release profile first for numbers worth quoting.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import pagegen
from briefpack import _core, pages, reference


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    im = pagegen.rgb(pagegen.text_page(0))
    png = pagegen.png(im)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=90)
    jpeg = buf.getvalue()
    page = pages.decode_page(png)
    full = page.pixels
    batch = pages.kernel_batch([page])
    copy = pages.hash_pages([jpeg])[0]
    sig = pages.hash_pages([page])[0]
    previews = pages.previews([page, pages.decode_page(jpeg)])
    w, h = page.width, page.height
    words = [f"word{i % 37}" if i % 9 else str(1000 + 7 * i) for i in range(450)]
    text = " ".join(words)
    edit = text.replace(words[225], "9999", 1)
    reordered = " ".join([*words[:200], *words[209:199:-1], *words[210:]])
    rows = [
        ("decode PNG to preview", median_ms(lambda: pages.decode_page(png), args.runs)),
        ("decode JPEG to preview", median_ms(lambda: pages.decode_page(jpeg), args.runs)),
        ("kernel on the preview, Rust", median_ms(lambda: _core.page_hashes(*batch), args.runs)),
        (
            "kernel on the preview, reference",
            median_ms(lambda: reference.page_hashes(*batch), max(1, args.runs // 3)),
        ),
        (
            "kernel on full RGB pixels, Rust",
            median_ms(lambda: _core.page_hashes(full, [0, len(full)], [w], [h], [3]), args.runs),
        ),
        ("second look, Rust", median_ms(lambda: _core.dedupe_pages([sig, copy]), args.runs)),
        (
            "second look, reference",
            median_ms(lambda: reference.dedupe_pages([sig, copy]), max(1, args.runs // 3)),
        ),
        (
            "second + fine look, Rust",
            median_ms(lambda: _core.dedupe_pages([sig, copy], previews=previews), args.runs),
        ),
        (
            "second + fine look, reference",
            median_ms(
                lambda: reference.dedupe_pages([sig, copy], previews=previews),
                max(1, args.runs // 3),
            ),
        ),
        (
            "same text + second look, Rust",
            median_ms(lambda: _core.dedupe_pages([sig, copy], texts=[text, text]), args.runs),
        ),
        (
            "text check of an edit, Rust",
            median_ms(lambda: _core.dedupe_pages([sig, copy], texts=[text, edit]), args.runs),
        ),
        (
            "text check of an edit, reference",
            median_ms(lambda: reference.dedupe_pages([sig, copy], texts=[text, edit]), args.runs),
        ),
        (
            "order check of a reordered row, Rust",
            median_ms(lambda: _core.dedupe_pages([sig, copy], texts=[text, reordered]), args.runs),
        ),
        (
            "order check of a reordered row, ref.",
            median_ms(
                lambda: reference.dedupe_pages([sig, copy], texts=[text, reordered]), args.runs
            ),
        ),
    ]
    print(f"{w}x{h} page, median of {args.runs} runs, ms")
    for name, ms in rows:
        print(f"{name:<36} {ms:>8.2f}")


if __name__ == "__main__":
    main()
