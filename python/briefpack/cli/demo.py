"""What ``demo`` shows: the help-center walk-through and ``demo --pages``.

Also the ``--format messages`` payload, which ``assemble`` writes the same way.
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from ..assembly import Assembly
from ..types import Budget, Chunk
from .common import EXIT_OK, STDIN, UserError
from .explain import (
    FATE_COLUMNS,
    TOKEN_COLUMNS,
    describe_fate,
    dropped_summary,
    fate_rows,
    token_rows,
    tokenizer_problem,
)
from .files import dumps, emit, json_pieces, write_atomic
from .screen import Screen


def _messages(result: Assembly) -> Any:
    """``--format messages``: the chat messages; with page images, ``to_openai``'s content
    parts (each image a data URL in its place), since text alone would lose the pages."""
    if any(s.chunk.images for s in result.sources):
        from ..integrations.chat import to_openai

        return to_openai(result)
    return result.messages


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _where_is(result: Assembly, candidate: int) -> str:
    n = len(result.sources)
    for s in result.sources:
        if candidate in s.member_indices:
            if s.label == n and n > 1:
                return f"source [{s.label}] of {n}, the last one"
            if s.label == 1:
                return f"source [1] of {n}, the first one"
            return f"source [{s.label}] of {n}, in the middle"
    fate = result.fates[candidate]
    return f"not in the prompt ({describe_fate(fate)})"


def _emitted_as_data(result: Assembly, args: argparse.Namespace) -> bool:
    """Write the demo's record (``--format json``) or messages (``messages``); False for text."""
    if args.format == "json":
        emit(json_pieces(result.record(include_prompt=True)), args.output)
        return True
    if args.format == "messages":
        emit(dumps(_messages(result)), args.output)
        return True
    return False


def _demo_tokenizer(args: argparse.Namespace) -> tuple[str, str | None]:
    """The demo's tokenizer, or ``approx`` with a note when its vocabulary cannot be loaded."""
    tokenizer = args.tokenizer
    problem = tokenizer_problem(tokenizer, "auto")
    if problem is None:
        return tokenizer, None
    note = (
        f"note: the {tokenizer} vocabulary could not be loaded ({problem}); counting with "
        "'approx' (characters / 4) instead, so the token numbers are estimates. For exact "
        "counts set TIKTOKEN_CACHE_DIR to a folder that holds the tiktoken files or install "
        "briefpack with its compiled core."
    )
    if args.format != "text" or args.output not in (None, STDIN):
        print(note, file=sys.stderr)  # the text on stdout carries it otherwise
    return "approx", note


def _demo_explain(
    screen: Screen,
    args: argparse.Namespace,
    result: Assembly,
    chunks: list[Chunk],
    tokenizer: str,
    whole: Assembly,
) -> None:
    """The demo's prompt, fates, accounting and what they show (``whole``: without compress)."""
    from ..demo import CAVEAT, CAVEAT_ID

    settings = result.settings
    screen.section("system", result.system)
    screen.section("user", result.user, highlight=CAVEAT)
    rows, styles = fate_rows(result, chunks)
    caveat_index = next(i for i, c in enumerate(chunks) if c.id == CAVEAT_ID)
    styles[caveat_index] = "bold " + styles[caveat_index]
    screen.table("every candidate's fate", FATE_COLUMNS, rows, styles)
    screen.table(f"token accounting ({tokenizer})", TOKEN_COLUMNS, token_rows(result))
    screen.line(
        f"{len(chunks)} candidates -> {len(result.sources)} sources; {dropped_summary(result)}.",
        "bold",
    )
    if args.compress:
        cut = [s for s in result.sources if s.compression is not None]
        screen.line(
            f"compress={args.compress} cut {len(cut)} source(s) to the sentences relevant to the "
            f"question ({', '.join(str(s.chunk.id) for s in cut) or 'none'}), so "
            f"{len(result.sources)} distinct sources fit where {len(whole.sources)} fit whole; "
            "the record lists every removed sentence."
        )
    where = _where_is(result, caveat_index)
    screen.line(
        f'The caveat "{CAVEAT}" ({CAVEAT_ID}) was retrieved {_ordinal(caveat_index + 1)} of '
        f"{len(chunks)}, behind a duplicate FAQ, an outdated version and an overlapping chunk, "
        "so a plain concatenation of the results buries it in the middle. "
        f"With order={settings['order']} it is {where}."
    )
    if settings["order"] == "edges" and where.endswith(("the last one", "the first one")):
        screen.line(
            "order=edges puts the best source first and the second best last, where models "
            "read most reliably; the weakest sources go in the middle."
        )
    elif "in the middle" in where:
        screen.line("Try --order edges to move it to an edge.")


def _demo_pages(args: argparse.Namespace, tokenizer: str, note: str | None) -> int:
    """``demo --pages``: page images drawn at run time, through the same pipeline."""
    from ..assembler import Assembler
    from ..demo_pages import PAGES_BUDGET, PAGES_OPTIONS, example

    try:
        question, chunks = example()
    except ModuleNotFoundError as exc:  # Pillow draws the pages
        raise UserError(str(exc)) from None
    budget = PAGES_BUDGET
    if args.budget is not None:
        budget = Budget(context=args.budget, images=PAGES_BUDGET.images)
    asm = Assembler(
        budget=budget, order=args.order, labels=args.labels, tokenizer=tokenizer, **PAGES_OPTIONS
    )
    result = asm(question, chunks)
    if _emitted_as_data(result, args):
        return EXIT_OK
    buffer = io.StringIO() if args.output not in (None, STDIN) else None
    screen = Screen("never" if buffer is not None else args.color, buffer)
    settings = result.settings
    pages = settings["pages"]
    screen.line(
        f"briefpack demo --pages: {len(chunks)} candidates ({sum(1 for c in chunks if c.image)} "
        f'page images, drawn now) for "{question}"',
        "bold",
    )
    screen.line(
        f"budget {budget.context} tokens and at most {budget.images} page images, image tokens "
        f"{pages['image_tokens']}, dedupe {pages['dedupe']} (max distance "
        f"{pages['page_max_distance']} bits) and {settings['dedupe']} for text, order "
        f"{settings['order']}, labels {settings['labels']}, tokenizer {tokenizer}, backend "
        f"{settings['backend']}"
    )
    if note is not None:
        screen.line(note, "yellow")
    screen.line()
    screen.section("user (a chat request carries each image at its <page-image/>)", result.user)
    rows, styles = fate_rows(result, chunks)
    screen.table("every candidate's fate", FATE_COLUMNS, rows, styles)
    screen.table(f"token accounting ({tokenizer})", TOKEN_COLUMNS, token_rows(result))
    screen.line(
        f"{len(chunks)} candidates -> {len(result.sources)} sources; {dropped_summary(result)}.",
        "bold",
    )
    _pages_left_out(screen, result)
    screen.line(
        f"Each page image costs tokens by the {pages['image_tokens']} rule "
        f"({result.tokens['images']} for the pages placed); to_openai and to_anthropic send "
        "each image right after its label."
    )
    if buffer is not None:
        write_atomic(args.output, buffer.getvalue())
    screen.flush()
    return EXIT_OK


def _pages_left_out(screen: Screen, result: Assembly) -> None:
    """Why each page left out was: a near-copy by page hash, or over the image budget."""
    for d in result.dropped:
        detail: Any = d.detail
        if d.reason == "duplicate" and detail["method"] == "page_hash":
            bits = round((1 - detail["similarity"]) * 256)
            screen.line(
                f"{d.chunk.id} (page {d.chunk.page}) is a near-copy of "
                f"{detail['of']}: their page hashes differ in {bits} of 256 bits."
            )
        elif d.reason == "over_budget" and "images" in detail:
            screen.line(
                f"{d.chunk.id} (page {d.chunk.page}) was left out: the budget allows "
                f"{detail['images']} page images."
            )
