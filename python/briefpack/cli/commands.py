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
from ..assembly import Assembly
from ..errors import BriefpackError, CitationError
from ..types import Budget, Chunk
from .common import EXIT_CHECK_FAILED, EXIT_OK, PROG, STDIN, UserError
from .explain import (
    FATE_COLUMNS,
    TOKEN_COLUMNS,
    describe_fate,
    dropped_summary,
    fate_rows,
    num,
    require_tokenizer,
    token_rows,
    tokenizer_problem,
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
from .screen import Screen
from .stream import count_pieces


def _budget(args: argparse.Namespace, default: int | None) -> int | Budget | None:
    """``--budget`` alone is the context budget; ``--window`` reserves answer and margin first."""
    images = getattr(args, "max_images", None)
    if args.window is None:
        if args.max_output is not None or args.margin is not None:
            raise UserError(
                "--max-output and --margin reserve room in the model's window; pass --window "
                "too (--budget alone caps the sources block directly)"
            )
        context = default if args.budget is None else int(args.budget)
        if images is None:
            return context
        return Budget(context=12_000 if context is None else context, images=images)
    return Budget(
        context=args.budget,
        window=args.window,
        max_output=args.max_output or 0,
        margin=args.margin or 0,
        images=images,
    )


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
    screen.line(
        f"Each page image costs tokens by the {pages['image_tokens']} rule "
        f"({result.tokens['images']} for the pages placed); to_openai and to_anthropic send "
        "each image right after its label."
    )
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


def cmd_route(args: argparse.Namespace) -> int:
    """Say whether a question is for top-k retrieval or for another tool, and why."""
    from ..routing import ROUTE_RULE_SETS, Model, load_rows, route, train

    lang = None if args.lang == "auto" else args.lang
    rules = ROUTE_RULE_SETS[lang or "en"]
    screen = Screen(args.color)
    if args.train is not None:
        if args.model in (None, "none"):
            raise UserError("--train needs --model FILE: the weights file to write")
        if args.question is not None:
            raise UserError("--train writes a model; route the question in a second call")
        try:
            model = train(load_rows(args.train))
        except BriefpackError as exc:
            raise UserError(str(exc)) from None
        except OSError as exc:
            raise UserError(f"cannot read {args.train}: {exc.strerror or exc}") from None
        write_atomic(args.model, model.to_bytes())  # the one writer, as every output
        screen.line(
            f"wrote {args.model}: trained on {model.meta['rows']} questions, threshold "
            f"{model.threshold:.2f}"
        )
        screen.flush()
        return EXIT_OK
    if args.rules:
        for i, rule in enumerate(rules):
            screen.line(f"{i:>2} {rule.kind:<15} {rule.pattern}\n   {'':<15} {rule.why}")
        screen.flush()
        return EXIT_OK
    if args.question is None:
        raise UserError("route needs a question (or --rules to print the rule set)")
    chosen: Model | str | None = "default"
    if args.model == "none":
        chosen = None
    elif args.model is not None:
        try:
            chosen = Model.load(args.model)
        except BriefpackError as exc:
            raise UserError(str(exc)) from None
    budget = _budget(args, None)
    if args.corpus is None:
        if budget is not None:
            raise UserError("--budget and --window only matter with --corpus; pass --corpus too")
        r = route(args.question, lang=lang, model=chosen)
    else:
        name = display(args.corpus)
        with Rows(args.corpus, strings=True) as rows:
            with progress(
                f"reading {os.path.basename(name)}", file_size(args.corpus), args.color
            ) as rows.on_read:
                corpus = read_chunks(rows)
            require_tokenizer(args.tokenizer, "auto", "--tokenizer")
            try:
                r = route(
                    args.question,
                    lang=lang,
                    model=chosen,
                    corpus=corpus,
                    budget=budget,
                    tokenizer=args.tokenizer,
                )
            except BriefpackError as exc:
                raise UserError(locate(name_the_flag(exc), rows, name, corpus)) from None
    if args.format == "json":
        sys.stdout.write(dumps(r.to_dict()))
        return EXIT_OK
    screen.line(f"route: {r.kind}", "bold")
    screen.line(f"lang:  {r.lang} ({r.lang_source})")
    if r.rule is not None:
        screen.line(f"rule:  {r.rule_index} ({r.rule.kind}) {r.rule.pattern}")
        screen.line(f"match: {r.matched!r}")
    elif r.model_kind is not None:
        screen.line(f"model: {r.model_kind} {r.model_score:.2f} (threshold {r.threshold:.2f})")
    screen.line(f"why:   {r.why}")
    screen.flush()
    return EXIT_OK
