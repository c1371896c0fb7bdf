"""Peak memory of page requests, each measured in a fresh subprocess (VmHWM of /proc/self/status).

    python benches/pages_memory.py            # 100 real-size pages, Budget(images=4); the bomb

* ``pages100``: 100 different 1700x2200 RGB PNG pages (generated text pages, tests/pagegen.py,
  written under /tmp) in one ``bp.assemble`` request with ``Budget(images=4)``: once through the
  dedupe stage as it is, once with the stage hashing the previews (``pages.kernel_batch``).
* ``bomb``: thirty small PNGs that each declare 7000x7000 RGB pixels (49 MP, 147 MB decoded):
  decoded one at a time, memory stays bounded; with one ``DecodeBudget`` for the request the
  request fails with a clear ``InputError`` (``max_decoded_bytes``) instead.

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

if {previews!r}:
    def _hashes(items, ctx):
        todo = [it.chunk.images[0] for it in items if id(it.chunk.images[0]) not in ctx.page_hashes]
        for p, h in zip(todo, ctx.kernels.page_hashes(*pages.kernel_batch(todo))):
            ctx.page_hashes[id(p)] = h
        return [ctx.page_hashes[id(it.chunk.images[0])] for it in items]
    images._hashes = _hashes

if {shared_budget!r}:  # one DecodeBudget per request, as the candidate check should pass it
    budget = pages.DecodeBudget()
    decode = pages.decode_page
    pages.decode_page = lambda image, **kw: decode(image, budget=budget, **kw)

paths = {paths!r}
cands = [bp.Chunk(image=p, page=i, id=f"p{{i}}", doc="d") for i, p in enumerate(paths)]
start = time.perf_counter()
try:
    a = bp.assemble("q", cands, budget=bp.Budget(window=200_000, images=4), tokenizer="approx")
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
        if not path.exists():
            pagegen.rgb(pagegen.text_page(1000 + i)).save(path, "PNG")
        out.append(str(path))
    return out


def _bomb(n: int) -> list[str]:
    from PIL import Image

    FOLDER.mkdir(exist_ok=True)
    path = FOLDER / "bomb-49mp.png"
    if not path.exists():
        Image.new("RGB", (7000, 7000), (255, 255, 255)).save(path, "PNG", optimize=True)
    return [str(path)] * n


def run(label: str, paths: list[str], previews: bool, shared_budget: bool = False) -> None:
    code = CHILD.format(
        tests=str(ROOT / "tests"), previews=previews, paths=paths, shared_budget=shared_budget
    )
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
    args = parser.parse_args()
    paths = _pages(args.pages)
    run(f"pages{args.pages}, stage hashing previews", paths, previews=True)
    run(f"pages{args.pages}, stage as it is (full pixels)", paths, previews=False)
    bomb = _bomb(30)
    size = Path(bomb[0]).stat().st_size
    run(f"bomb ({size} bytes x 30), a budget per image", bomb, previews=True)
    run(f"bomb ({size} bytes x 30), one budget per request", bomb, True, shared_budget=True)


if __name__ == "__main__":
    main()
