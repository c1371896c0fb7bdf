"""The commands: ``demo``, ``assemble``, ``count``, ``dedupe``, ``cite`` and ``route``.

Each takes the parsed arguments and returns an exit status; user errors are raised as
``UserError`` (or a briefpack error) and printed by ``main``.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from typing import Any

from .._types import DedupeResult
from ..errors import BriefpackError, CitationError
from ..types import Chunk
from .budget import _budget
from .common import EXIT_CHECK_FAILED, EXIT_OK, PROG, STDIN, UserError
from .demo import _demo_explain, _demo_pages, _demo_tokenizer, _emitted_as_data, _messages
from .explain import (
    dropped_summary,
    num,
    require_tokenizer,
)
from .files import (
    Row,
    Rows,
    display,
    dumps,
    emit,
    json_pieces,
    locate,
    parse_json,
    read_chunks,
    read_json,
    read_jsonl,
    read_pieces,
    read_text,
    rows_to_chunks,
    write_atomic,
)
from .options import api_kwargs, name_the_flag
from .progress import file_size, progress
from .route import cmd_route as cmd_route
from .screen import Screen
from .stream import count_pieces


def cmd_demo(args: argparse.Namespace) -> int:
    """Run the whole pipeline on the built-in help-center example and explain every decision."""
    from ..assembler import Assembler
    from ..demo import DEMO_BUDGET, DEMO_OPTIONS, example

    tokenizer, note = _demo_tokenizer(args)
    if args.pages:
        return _demo_pages(args, tokenizer, note)
    question, chunks = example()
    budget = DEMO_BUDGET if args.budget is None else args.budget
    asm = Assembler(
        budget=budget, order=args.order, labels=args.labels, tokenizer=tokenizer, **DEMO_OPTIONS
    )
    result = asm.replace(compress=args.compress)(question, chunks)
    if _emitted_as_data(result, args):
        return EXIT_OK
    buffer = io.StringIO() if args.output not in (None, STDIN) else None
    screen = Screen("never" if buffer is not None else args.color, buffer)
    settings = result.settings
    screen.line(f'briefpack demo: {len(chunks)} help-center candidates for "{question}"', "bold")
    screen.line(
        f"budget {budget} tokens, order {settings['order']}, labels {settings['labels']}, "
        f"dedupe {settings['dedupe']} {settings['threshold']}, supersede "
        f"{settings['supersede']}, tokenizer {tokenizer}, backend {settings['backend']}"
        + (f", compress {args.compress}" if args.compress else "")
    )
    if note is not None:
        screen.line(note, "yellow")
    screen.line()
    whole = asm(question, chunks) if args.compress else result  # what fits without cutting
    _demo_explain(screen, args, result, chunks, tokenizer, whole)
    if buffer is not None:
        write_atomic(args.output, buffer.getvalue())
    screen.flush()
    return EXIT_OK


def _minhash(args: argparse.Namespace, uses_minhash: bool, flag: str) -> dict[str, int]:
    """``--num-perm``, ``--shingle`` and ``--seed`` as the API's ``minhash`` mapping."""
    given = {k: getattr(args, k) for k in ("num_perm", "shingle", "seed")}
    given = {k: v for k, v in given.items() if v is not None}
    if given and not uses_minhash:
        shown = ", ".join("--" + k.replace("_", "-") for k in given)
        raise UserError(f"{shown} only appl{'y' if len(given) > 1 else 'ies'} to {flag} minhash")
    return given


def _query_vector(args: argparse.Namespace) -> Any:
    if args.query_vector is not None and args.query_vector_file is not None:
        raise UserError("pass --query-vector or --query-vector-file, not both")
    if args.query_vector_file is not None:
        return read_json(args.query_vector_file)
    if args.query_vector is None:
        return None
    try:
        return parse_json(args.query_vector)
    except ValueError as exc:
        raise UserError(f"--query-vector: invalid JSON: {exc}") from None


def _assemble_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of ``assemble`` from the flags; flag combinations checked here."""
    options = api_kwargs(args, "assemble")
    if args.mmr is None:
        for flag, value in (
            ("--mmr-k", args.mmr_k),
            ("--query-vector", args.query_vector),
            ("--query-vector-file", args.query_vector_file),
        ):
            if value is not None:
                raise UserError(f"{flag} only applies with --mmr LAMBDA; pass --mmr too")
    if args.threshold is not None and args.dedupe in ("none", "exact"):
        raise UserError(f"--threshold does not apply to --dedupe {args.dedupe}")
    minhash = _minhash(args, args.dedupe == "minhash", "--dedupe")
    if minhash:
        options["minhash"] = minhash
    if args.history is not None:
        options["history"] = read_json(args.history)
    query_vector = _query_vector(args)
    if query_vector is not None:
        options["query_vector"] = query_vector
    options.update(
        budget=_budget(args, 12_000),
        dedupe=None if args.dedupe == "none" else args.dedupe,
        threshold=args.threshold,
    )
    return options


def cmd_assemble(args: argparse.Namespace) -> int:
    """Assemble the prompt from candidates in a JSONL file."""
    from ..assembler import Assembler
    from ..pages import DecodeBudget

    name = display(args.file)
    options = _assemble_options(args)
    request = {k: options.pop(k) for k in ("history", "query_vector") if k in options}
    try:
        asm = Assembler(**options)  # the options are checked before any row is read
    except BriefpackError as exc:
        raise UserError(name_the_flag(exc)) from None
    opts = asm.options
    decoded = DecodeBudget(opts.max_decoded_bytes)  # the request's, as assemble's own
    with Rows(args.file) as rows:
        with progress(
            f"reading {os.path.basename(name)}", file_size(args.file), args.color
        ) as rows.on_read:
            # a row at a time (each dict goes once its Chunk exists), pages within the limits
            chunks = read_chunks(rows, max_pixels=opts.max_page_pixels, budget=decoded)
        require_tokenizer(args.tokenizer, args.backend, "--tokenizer")
        try:
            with progress(f"assembling {len(chunks)} candidates", None, args.color):
                result = asm(args.question, chunks, **request)
        except BriefpackError as exc:
            raise UserError(locate(name_the_flag(exc), rows, name, chunks)) from None
    if args.format == "json":
        emit(json_pieces(result.record(include_prompt=True)), args.output)
    elif args.format == "messages":
        emit(dumps(_messages(result)), args.output)
    elif args.output not in (None, STDIN):
        write_atomic(
            args.output, f"--- system ---\n{result.system}\n\n--- user ---\n{result.user}\n"
        )
    else:
        screen = Screen(args.color)
        screen.section("system", result.system)
        screen.section("user", result.user)
        screen.flush()
    t = result.tokens
    print(
        f"{PROG}: {len(result.sources)} sources from {len(chunks)} candidates "
        f"({dropped_summary(result)}); sources {t['sources']} of {t['context_budget']} "
        f"tokens, prompt {t['total']} tokens ({args.tokenizer})",
        file=sys.stderr,
    )
    return EXIT_OK


def cmd_count(args: argparse.Namespace) -> int:
    """Count the tokens of each file, and the total, reading each a piece at a time."""
    require_tokenizer(args.tokenizer, "auto", "--tokenizer")
    sizes = [file_size(path) for path in args.files]
    total = None if None in sizes else sum(size or 0 for size in sizes)
    with progress(f"counting {args.tokenizer} tokens", total, args.color) as advance:
        counts = [
            count_pieces(read_pieces(path, on_read=advance), args.tokenizer) for path in args.files
        ]
    rows = [[str(n), display(path)] for n, path in zip(counts, args.files)]
    if len(rows) > 1:
        rows.append([str(sum(counts)), "total"])
    screen = Screen(args.color)
    if screen.console is None:
        for row in rows:  # wc-style, stable for scripts
            screen.stream.write(f"{row[0].rjust(max(len(r[0]) for r in rows))}  {row[1]}\n")
    else:
        styles = ["" for _ in counts] + (["bold"] if len(rows) > len(counts) else [])
        screen.table("", [(args.tokenizer, "right"), ("file", "left")], rows, styles)
    screen.flush()
    return EXIT_OK


_VECTOR_AT = re.compile(r"vectors\[(\d+)\]")


def _dedupe_group(
    method: str,
    rows: list[Row],
    chunks: list[Chunk],
    name: str,
    threshold: float,
    minhash: dict[str, int],
) -> DedupeResult:
    """One kernel call over ``chunks`` (rows of one scope); a problem names file:line."""
    from .. import kernels

    try:
        if method == "exact":
            return kernels.dedupe_exact([c.text for c in chunks])
        if method == "jaccard":
            return kernels.dedupe_jaccard([c.text for c in chunks], threshold=threshold)
        if method == "minhash":
            return kernels.dedupe_minhash([c.text for c in chunks], threshold=threshold, **minhash)  # type: ignore[arg-type]  # minhash: num_perm, shingle, seed only
        for row, chunk in zip(rows, chunks):
            if chunk.vector is None:
                raise UserError(
                    f"{name}:{row.line}:1: --method cosine needs a 'vector' on every row; "
                    "this one has none"
                )
        return kernels.dedupe_cosine([c.vector for c in chunks], threshold=threshold)
    except BriefpackError as exc:
        message = name_the_flag(exc)
        m = _VECTOR_AT.match(message)
        if m and int(m.group(1)) < len(rows):
            row = rows[int(m.group(1))]
            message = f"{name}:{row.line}:1: vector{message[m.end() :]}"
        raise UserError(message) from None


def _scopes(chunks: list[Chunk], scope: str) -> list[list[int]]:
    """Row indices compared together: all of them, or one list per document (in file order).

    A row without ``doc`` is a document of its own.
    """
    if scope == "global":
        return [list(range(len(chunks)))]
    groups: dict[object, list[int]] = {}
    for i, chunk in enumerate(chunks):
        groups.setdefault(("doc", chunk.doc) if chunk.doc is not None else ("row", i), []).append(i)
    return list(groups.values())


def cmd_dedupe(args: argparse.Namespace) -> int:
    """Drop near-duplicate rows of a JSONL file; the first (best-ranked) copy wins."""
    from ..pipeline import DEFAULT_THRESHOLDS

    name = display(args.file)
    threshold = args.threshold
    if args.method == "exact" and threshold is not None:
        raise UserError("--threshold does not apply to --method exact (copies must be equal)")
    minhash = _minhash(args, args.method == "minhash", "--method")
    if threshold is None and args.method != "exact":
        threshold = DEFAULT_THRESHOLDS[args.method]
    with progress(f"reading {os.path.basename(name)}", file_size(args.file), args.color) as advance:
        rows = read_jsonl(args.file, on_read=advance)
        chunks = rows_to_chunks(rows, name)
    duplicate_of: list[int | None] = [None] * len(rows)
    similarity: list[float | None] = [None] * len(rows)
    groups = _scopes(chunks, args.scope)
    with progress("deduplicating", len(rows), args.color, unit="rows") as advance:
        for group in groups:
            got = _dedupe_group(
                args.method,
                [rows[i] for i in group],
                [chunks[i] for i in group],
                name,
                1.0 if threshold is None else threshold,
                minhash,
            )
            for j, (of, sim) in enumerate(zip(got.duplicate_of, got.similarity)):
                if of is not None:
                    duplicate_of[group[j]], similarity[group[j]] = group[of], sim
            advance(len(group))
    kept = [i for i, of in enumerate(duplicate_of) if of is None]
    emit("".join(rows[i].raw + "\n" for i in kept), args.output)
    dropped = len(rows) - len(kept)
    how = args.method if threshold is None else f"{args.method} >= {threshold}"
    if args.scope == "document":
        how += ", within each document"
    print(
        f"{PROG}: kept {len(kept)} of {len(rows)} rows from {name}, dropped {dropped} "
        f"duplicate{'' if dropped == 1 else 's'} ({how})",
        file=sys.stderr,
    )
    if args.verbose:
        for i, (of, sim) in enumerate(zip(duplicate_of, similarity)):
            if of is not None:
                print(
                    f"  {name}:{rows[i].line} (id {chunks[i].id!r}) duplicates line "
                    f"{rows[of].line} (id {chunks[of].id!r}), similarity {num(sim)}",
                    file=sys.stderr,
                )
    return EXIT_OK


def _check_record(record: Any, name: str) -> dict[str, Any]:
    ok = isinstance(record, dict) and isinstance(record.get("sources"), list)
    if ok:
        ok = all(
            isinstance(s, dict)
            and isinstance(s.get("label"), int)
            and not isinstance(s.get("label"), bool)
            for s in record["sources"]
        )
    if not ok:
        raise UserError(
            f"{name}: not a briefpack record (it needs a 'sources' list of objects with an int "
            "'label'); write one with: briefpack assemble FILE.jsonl -q QUESTION --format json"
        )
    return record  # type: ignore[no-any-return]


def _source_name(source: dict[str, Any]) -> str:
    title = f" {source['title']!r}" if source.get("title") else ""
    return f"[{source['label']}] {source.get('id')}{title}"


def cmd_cite(args: argparse.Namespace) -> int:
    """Check the citations in a model's answer against the sources of a record."""
    from ..citations import cite

    if args.answer == STDIN and args.record == STDIN:
        raise UserError("ANSWER and --record cannot both be read from stdin")
    answer = read_text(args.answer)
    record = _check_record(read_json(args.record), display(args.record))
    found = cite(answer, record, strict=False)
    problem = None
    if args.strict and found.unknown:
        try:
            cite(answer, record, strict=True)
        except CitationError as exc:
            problem = str(exc)
    if args.format == "json":
        sys.stdout.write(
            dumps(
                {
                    "ok": problem is None,
                    "cited": found.sources,
                    "unknown": found.unknown,
                    "uncited": found.uncited,
                    "unsupported_sentences": found.unsupported_sentences,
                }
            )
        )
    else:
        screen = Screen(args.color)
        n = len(found.unsupported_sentences)
        rows = [
            ["cited", ", ".join(_source_name(s) for s in found.sources) or "none"],
            ["unknown", ", ".join(f"[{x}]" for x in found.unknown) or "none"],
            ["uncited", ", ".join(_source_name(s) for s in found.uncited) or "none"],
            ["unsupported", f"{n} sentence{'' if n == 1 else 's'} without a citation"],
        ]
        styles = ["green", "bold red" if found.unknown else "", "yellow" if found.uncited else ""]
        screen.table("", [("", "left"), ("", "left")], rows, [*styles, ""])
        for sentence in found.unsupported_sentences:
            screen.line(f"  - {sentence}")
        screen.flush()
    if problem is not None:
        print(f"{PROG} cite: error: {problem}", file=sys.stderr)
        return EXIT_CHECK_FAILED
    return EXIT_OK
