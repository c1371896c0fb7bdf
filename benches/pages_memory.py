"""Peak memory of page requests, each measured in a fresh subprocess (VmHWM of /proc/self/status).

    python benches/pages_memory.py            # 100 real-size pages, Budget(images=4); the bomb

* ``pages100``: 100 different 1700x2200 RGB PNG pages (generated text pages, tests/pagegen.py,
  written under /tmp) in one ``bp.assemble`` request with ``Budget(images=4)``: once as the
  dedupe stage is (it hashes each page's preview, ``pages.kernel_batch``), once with the stage
  replaced by the old one that joined every page's full pixels, for comparison.
* ``twice``: the first half of those pages, each twice (two candidates of one file): every page
  is in a near pair that the second look finds alike, so each gets its fine grid (256 KB) and
  every pair the fine look: the fine look's most memory.
* ``bomb``: thirty small PNGs that each declare 7000x7000 RGB pixels (49 MP, 147 MB decoded):
  decoded one at a time to a preview, so memory stays bounded; the request's one
  ``DecodeBudget`` (``max_decoded_bytes``, 2 GiB by default) stops it with a clear
  ``InputError`` naming the candidate, and ``max_page_pixels=40_000_000`` refuses the first page
  from its header.

Each line prints the peak resident set size of the subprocess, and, for the request, the time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = Path("/tmp/briefpack-pages-memory")

CHILD = """
import sys, time
sys.path.insert(0, {tests!r})
import briefpack as bp
from briefpack import pages
from briefpack._stages import images

if not {previews!r}:  # the stage as it was: every page's full pixels joined for the kernel
    def _hashes(items, req):
        seen = req.scratch.page_hashes
        todo = [it.chunk.images[0] for it in items if id(it.chunk.images[0]) not in seen]
        full = [p.pixels for p in todo]
        offsets = [0]
        for f in full:
            offsets.append(offsets[-1] + len(f))
        got = req.kernels.page_hashes(
            b"".join(full), offsets, [p.width for p in todo], [p.height for p in todo],
            [p.channels for p in todo],
        )
        for p, h in zip(todo, got):
            seen[id(p)] = h
        return [seen[id(it.chunk.images[0])] for it in items]
    images._hashes = _hashes

paths = {paths!r}
cands = [bp.Chunk(image=p, page=i, id=f"p{{i}}", doc="d") for i, p in enumerate(paths)]
start = time.perf_counter()
try:
    a = bp.assemble(
        "q", cands, budget=bp.Budget(window=200_000, images=4), tokenizer="approx", **{options!r}
    )
    outcome = f"{{len(a.sources)}} sources placed"
except bp.InputError as exc:
    outcome = f"InputError: {{str(exc)[:110]}}"
took = time.perf_counter() - start
peak = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
print(f"{{int(peak) / 1024:.0f}} MB peak RSS, {{took:.1f}} s: {{outcome}}")
"""


def _pages(n: int) -> list[str]:
    sys.path.insert(0, str(ROOT / "tests"))
    import pagegen

    FOLDER.mkdir(exist_ok=True)
    out = []
    for i in range(n):
        path = FOLDER / f"page-{i}.png"
        if not path.exists():  # written whole then renamed: a killed run leaves no short file
            part = path.with_suffix(".part")
            pagegen.rgb(pagegen.text_page(1000 + i)).save(part, "PNG")
            part.replace(path)
        out.append(str(path))
    return out


def _bomb(n: int) -> list[str]:
    from PIL import Image

    FOLDER.mkdir(exist_ok=True)
    path = FOLDER / "bomb-49mp.png"
    if not path.exists():
        part = path.with_suffix(".part")
        Image.new("RGB", (7000, 7000), (255, 255, 255)).save(part, "PNG", optimize=True)
        part.replace(path)
    return [str(path)] * n


def run(label: str, paths: list[str], previews: bool, **options: int) -> None:
    code = CHILD.format(tests=str(ROOT / "tests"), previews=previews, paths=paths, options=options)
    env = {"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    print(f"{label}: {out.stdout.strip() or out.stderr.strip()[-400:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--old", action="store_true", help="also run the old full-pixel stage")
    args = parser.parse_args()
    paths = _pages(args.pages)
    run(f"pages{args.pages}, the stage (hashing previews)", paths, previews=True)
    if args.old:
        run(f"pages{args.pages}, the old stage (full pixels)", paths, previews=False)
    half = paths[: args.pages // 2]
    run(f"{len(half)} pages twice (every page in a near pair: fine grids)", half * 2, True)
    bomb = _bomb(30)
    size = Path(bomb[0]).stat().st_size
    run(f"bomb ({size} bytes x 30), default limits", bomb, previews=True)
    run(f"bomb ({size} bytes x 30), max_page_pixels=40e6", bomb, True, max_page_pixels=40_000_000)


if __name__ == "__main__":
    main()
