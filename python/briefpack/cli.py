"""The ``briefpack`` command line: ``demo``, ``assemble``, ``count``, ``dedupe`` and ``cite``.

Run ``briefpack demo`` to watch the whole pipeline on a built-in help-center example, then
``briefpack assemble candidates.jsonl -q "question"`` on your own candidates (one JSON object per
line with ``Chunk``'s keys, best first; ``-`` reads stdin). ``python -m briefpack`` is the same
program.

Exit status: 0 on success; 1 when ``cite`` finds labels that were never in the context (strict
mode); 2 for a usage error, bad input (the message names file, line and column), a briefpack
error, or a tokenizer whose vocabulary cannot be loaded. User errors print one line to stderr,
never a traceback. Output files are written atomically, so an error leaves no half-written file.

Human-readable output uses ``rich`` (``pip install 'briefpack[cli]'``) on a terminal and plain
text when rich is missing or the output is piped; ``--color always|never`` overrides.

    $ briefpack demo
    $ briefpack assemble hits.jsonl -q "Is SSO included in Pro?" --format json -o record.json
    $ briefpack cite answer.txt --record record.json
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import stat
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from .candidates import CHUNK_FIELDS, describe, to_chunk
from .errors import BriefpackError, CitationError
from .types import Assembly, Budget, Chunk

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["main"]

PROG = "briefpack"
STDIN = "-"
ORDERS = ("relevance", "edges", "round_robin", "document")
LABELS = ("xml", "brackets")
TOKENIZERS = ("o200k_base", "cl100k_base", "approx")
BACKENDS = ("auto", "rust", "python")
FORMATS = ("text", "json", "messages")
DEDUPE_CHOICES = ("auto", "exact", "jaccard", "minhash", "cosine", "none")
DEDUPE_ROW_METHODS = ("exact", "jaccard", "minhash")
COLORS = ("auto", "always", "never")

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2


class UserError(Exception):
    """An error the user can fix: printed as one line to stderr, exit status 2."""


# --------------------------------------------------------------------------- reading input


def _display(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def _read_bytes(path: str) -> bytes:
    if path == STDIN:
        buffer = getattr(sys.stdin, "buffer", None)
        return buffer.read() if buffer is not None else sys.stdin.read().encode("utf-8")
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None


def _decode(data: bytes, name: str) -> str:
    """Decode UTF-8 (a leading BOM is skipped); a bad byte is reported as file:line:column."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[start : exc.start].decode("utf-8", "replace")) + 1
        raise UserError(
            f"{name}:{line}:{column}: not valid UTF-8 (byte 0x{data[exc.start]:02x}); "
            "save the file as UTF-8"
        ) from None


def _read_text(path: str) -> str:
    return _decode(_read_bytes(path), _display(path))


@dataclass(frozen=True)
class Row:
    """One non-blank line of a JSONL file: where it is, its raw text and its parsed object."""

    line: int
    raw: str
    obj: dict[str, Any]


def _skip_ws(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t\r\n":
        i += 1
    return i


def _value_columns(raw: str) -> dict[str, int]:
    """1-based column of each top-level value of the JSON object on one line (for messages)."""
    decoder = json.JSONDecoder()
    columns: dict[str, int] = {}
    i = _skip_ws(raw, 0)
    if raw[i : i + 1] != "{":
        return columns
    i += 1
    with contextlib.suppress(ValueError, IndexError):
        while True:
            i = _skip_ws(raw, i)
            if raw[i : i + 1] != '"':
                break
            key, i = decoder.raw_decode(raw, i)
            i = _skip_ws(raw, i)
            if raw[i : i + 1] != ":":
                break
            i = _skip_ws(raw, i + 1)
            columns.setdefault(key, i + 1)
            _, i = decoder.raw_decode(raw, i)
            i = _skip_ws(raw, i)
            if raw[i : i + 1] != ",":
                break
            i += 1
    return columns


def read_jsonl(path: str) -> list[Row]:
    """Read one JSON object per line (blank lines are skipped).

    Lines are split at ``\\n`` only (a JSON string may hold U+2028 raw). A syntax error is
    reported as ``FILE:LINE:COLUMN: invalid JSON: ...``.
    """
    name = _display(path)
    rows = []
    for n, raw in enumerate(_read_text(path).split("\n"), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise UserError(f"{name}:{n}:{exc.colno}: invalid JSON: {exc.msg}") from None
        except RecursionError:
            raise UserError(f"{name}:{n}:1: invalid JSON: nested too deeply") from None
        if not isinstance(obj, dict):
            column = _skip_ws(raw, 0) + 1
            raise UserError(
                f"{name}:{n}:{column}: expected a JSON object with Chunk's keys "
                f"({', '.join(CHUNK_FIELDS)}), got a JSON {_json_type(obj)}"
            )
        rows.append(Row(n, raw, obj))
    return rows


def _json_type(value: object) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return "number"


_CANDIDATE = re.compile(r"candidate (\d+) ")


def _locate(message: str, rows: list[Row], name: str, chunks: Sequence[Chunk] = ()) -> str:
    """Prefix a library message about ``candidate N (id=...)`` with ``FILE:LINE:COLUMN``.

    The column is that of the value the message is about (its first word after the candidate,
    e.g. ``score must be ...``), else that of the object.
    """
    m = _CANDIDATE.match(message)
    if not m or int(m.group(1)) >= len(rows):
        return message
    index = int(m.group(1))
    row = rows[index]
    column = _skip_ws(row.raw, 0) + 1
    ids = [row.obj.get("id")]
    if index < len(chunks):
        ids.append(chunks[index].id)
    for cid in ids:
        for shown in (cid, None if cid is None else str(cid)):
            prefix = describe(index, shown) + ": "
            if message.startswith(prefix):
                word = re.split(r"[\s:]", message[len(prefix) :], maxsplit=1)[0]
                column = _value_columns(row.raw).get(word, column)
                return f"{name}:{row.line}:{column}: {message}"
    return f"{name}:{row.line}:{column}: {message}"


def rows_to_chunks(rows: list[Row], name: str) -> list[Chunk]:
    """Check each row and make it a ``Chunk``; keys that are not Chunk's go into ``meta``."""
    chunks = []
    for index, row in enumerate(rows):
        known = {k: v for k, v in row.obj.items() if k in CHUNK_FIELDS}
        extra = {k: v for k, v in row.obj.items() if k not in CHUNK_FIELDS}
        if extra:
            given = known.get("meta")
            if given is not None and not isinstance(given, dict):
                column = _value_columns(row.raw).get("meta", 1)
                raise UserError(
                    f"{name}:{row.line}:{column}: meta must be a JSON object, got a JSON "
                    f"{_json_type(given)}"
                )
            known["meta"] = {**extra, **(given or {})}
        try:
            chunks.append(to_chunk(known, index))
        except BriefpackError as exc:
            raise UserError(_locate(str(exc), rows, name)) from None
        except TypeError as exc:  # pragma: no cover - to_chunk checks every field it takes
            raise UserError(f"{name}:{row.line}:1: {exc}") from None
    return chunks


def _read_json(path: str) -> Any:
    name = _display(path)
    text = _read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{name}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise UserError(f"{name}:1:1: invalid JSON: nested too deeply") from None


# --------------------------------------------------------------------------- writing output


def _new_file_mode(target: str) -> int:
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and ``os.replace``.

    Readers never see a half-written file, and an error leaves any old file untouched. A path
    that exists but is not a regular file (``/dev/stdout``, a named pipe) is written directly.
    """
    try:
        special = not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # it does not exist yet
        special = False
    if special:
        try:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        except OSError as exc:
            raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
        return
    target = os.path.realpath(path)  # replace the file a symlink points at, not the link
    folder = os.path.dirname(target)
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder
        )
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _new_file_mode(target))
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def _emit(text: str, out: str | None) -> None:
    """Write machine output: to ``out`` atomically, or to stdout when ``out`` is None or -."""
    if out is None or out == STDIN:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomic(out, text)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


# --------------------------------------------------------------------------- the screen


def _rich_console(color: str, stream: TextIO) -> Console | None:
    """A rich Console for ``stream``, or None for plain text (rich missing, or not a terminal)."""
    if color == "never":
        return None
    if color == "auto":
        isatty = getattr(stream, "isatty", None)
        if not (isatty and isatty()) or os.environ.get("TERM") == "dumb":
            return None
    try:
        from rich.console import Console
    except ImportError:
        return None
    return Console(file=stream, force_terminal=color == "always", highlight=False)


class Screen:
    """Human-readable output: rich on a terminal, stable plain text everywhere else."""

    def __init__(self, color: str = "auto", stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.console = _rich_console(color, self.stream)

    def line(self, text: str = "", style: str = "") -> None:
        if self.console is None:
            self.stream.write(text + "\n")
        else:
            from rich.text import Text

            self.console.print(Text(text, style=style))

    def section(self, title: str, body: str, highlight: str | None = None) -> None:
        if self.console is None:
            self.stream.write(f"--- {title} ---\n{body}\n\n")
            return
        from rich.text import Text

        self.console.rule(Text(title, style="bold"), align="left")
        text = Text(body)
        if highlight:
            text.highlight_words([highlight], style="bold black on yellow")
        self.console.print(text)
        self.console.print()

    def table(
        self,
        title: str,
        columns: Sequence[tuple[str, str]],
        rows: Sequence[Sequence[str]],
        styles: Sequence[str] = (),
    ) -> None:
        """``columns`` are (header, "left" | "right"); ``styles`` one rich style per row."""
        if self.console is None:
            self.stream.write(f"--- {title} ---\n" if title else "")
            self.stream.write(plain_table(columns, rows))
            self.stream.write("\n" if title else "")
            return
        from rich.table import Table
        from rich.text import Text

        table = Table(
            title=title or None,
            title_justify="left",
            title_style="bold",
            show_header=any(header for header, _ in columns),
        )
        for header, justify in columns:
            table.add_column(header, justify="right" if justify == "right" else "left")
        for i, row in enumerate(rows):
            table.add_row(*(Text(cell) for cell in row), style=styles[i] if styles else None)
        self.console.print(table)
        if title:
            self.console.print()

    def flush(self) -> None:
        self.stream.flush()


def plain_table(columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]]) -> str:
    """Align ``rows`` under ``columns`` with two spaces between columns; no trailing spaces.

    The header line is left out when every header is empty.

    >>> print(plain_table([("n", "right"), ("name", "left")], [["7", "a.txt"], ["12", "b"]]),
    ...       end="")
     n  name
     7  a.txt
    12  b
    """
    headers = [h for h, _ in columns]
    cells = [headers, *[list(r) for r in rows]] if any(headers) else [list(r) for r in rows]
    if not cells:
        return ""
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    lines = []
    for r in cells:
        parts = [
            c.rjust(w) if justify == "right" else c.ljust(w)
            for c, w, (_, justify) in zip(r, widths, columns)
        ]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- tokenizers


def _shorten(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def tokenizer_problem(name: str, backend: str = "auto") -> str | None:
    """Why ``name`` cannot count tokens here (e.g. no vocabulary offline), or None if it can."""
    if name == "approx":
        return None
    from ._backend import get_kernels

    kernels = get_kernels(backend)
    try:
        kernels.count_tokens(["briefpack"], name)
    except BriefpackError as exc:
        return str(exc)
    except OSError as exc:  # tiktoken downloads a vocabulary on first use
        return f"{type(exc).__name__}: not in the tiktoken cache and the download failed (offline?)"
    except Exception as exc:  # any other failure to load a vocabulary (corrupt cache, ...)
        return f"{type(exc).__name__}: {_shorten(str(exc))}"
    return None


def _vocabulary_advice(name: str, option: str) -> str:
    return (
        f"the {name} vocabulary could not be loaded; pass {option} approx for estimates, set "
        "TIKTOKEN_CACHE_DIR to a folder that holds the tiktoken files, or install briefpack "
        "with its compiled core"
    )


def _require_tokenizer(name: str, backend: str, option: str) -> None:
    problem = tokenizer_problem(name, backend)
    if problem is not None:
        raise UserError(f"{_vocabulary_advice(name, option)} ({problem})")


# --------------------------------------------------------------------------- fates


def _num(x: Any, digits: int = 2) -> str:
    return f"{x:.{digits}f}" if isinstance(x, (int, float)) and not isinstance(x, bool) else str(x)


def describe_fate(fate: dict[str, Any]) -> str:
    """One line on what happened to a candidate, from an entry of ``Assembly.fates``.

    >>> describe_fate({"fate": "source", "label": 3})
    'source [3]'
    >>> describe_fate({"fate": "dropped", "reason": "duplicate",
    ...                "detail": {"of": "kb/1", "similarity": 0.875, "method": "jaccard"}})
    'duplicate of kb/1 (jaccard 0.88)'
    >>> describe_fate({"fate": "dropped", "reason": "superseded",
    ...                "detail": {"by": "kb/9", "updated": "2024-09-02", "url": "https://x"}})
    'superseded by kb/9 (updated 2024-09-02)'
    """
    if fate.get("fate") == "source":
        return f"source [{fate['label']}]"
    reason = str(fate.get("reason"))
    d = dict(fate.get("detail") or {})
    via = f", via {d.pop('via')}" if "via" in d else ""
    if reason == "duplicate":
        if d.get("method") == "id":
            return f"duplicate: its id and text repeat an earlier candidate{via}"
        return f"duplicate of {d.get('of')} ({d.get('method')} {_num(d.get('similarity'))}{via})"
    if reason == "superseded":
        return f"superseded by {d.get('by')} (updated {d.get('updated') or 'never'}{via})"
    if reason == "capped":
        return f"capped: more than {d.get('max_per_doc')} from {d.get('doc')}{via}"
    if reason == "not_selected":
        k = d.get("mmr_k")
        return f"not selected by MMR (lambda {d.get('mmr')}{f', k {k}' if k else ''}{via})"
    if reason == "over_budget":
        if d.get("evicted"):
            return (
                f"over budget: evicted, the sources took {d.get('sources_tokens')} of "
                f"{d.get('context_budget')} tokens{via}"
            )
        return (
            f"over budget: costs {d.get('cost')} tokens, the context budget is "
            f"{d.get('context_budget')}{via}"
        )
    extra = ", ".join(f"{k} {v}" for k, v in d.items())
    return f"{reason} ({extra})" if extra else reason


def _fate_rows(result: Assembly, chunks: Sequence[Chunk]) -> tuple[list[list[str]], list[str]]:
    rows, styles = [], []
    for f in result.fates:
        chunk = chunks[f["index"]]
        score = "" if chunk.score is None else _num(chunk.score)
        rows.append([str(f["index"] + 1), str(f["id"]), score, describe_fate(f)])
        styles.append("green" if f["fate"] == "source" else "dim")
    return rows, styles


_FATE_COLUMNS = (("rank", "right"), ("id", "left"), ("score", "right"), ("fate", "left"))


def _dropped_summary(result: Assembly) -> str:
    counts = Counter(d.reason for d in result.dropped)
    if not counts:
        return "nothing dropped"
    parts = ", ".join(f"{n} {reason}" for reason, n in counts.items())
    return f"dropped {len(result.dropped)}: {parts}"


def _token_rows(result: Assembly) -> list[list[str]]:
    t = result.tokens
    return [
        ["system", str(t["system"]), "the cacheable prefix"],
        ["history", str(t["history"]), ""],
        ["sources", str(t["sources"]), f"of a context budget of {t['context_budget']}"],
        ["question", str(t["question"]), ""],
        ["total", str(t["total"]), "system + user message"],
        ["reserved_output", str(t["reserved_output"]), "kept free for the answer"],
        ["margin", str(t["margin"]), ""],
    ]


_TOKEN_COLUMNS = (("tokens", "left"), ("count", "right"), ("", "left"))


# --------------------------------------------------------------------------- commands


def _budget(args: argparse.Namespace, default: int) -> int | Budget:
    """``--budget`` alone is the context budget; ``--window`` reserves answer and margin first."""
    if args.window is None:
        if args.max_output is not None or args.margin is not None:
            raise UserError(
                "--max-output and --margin reserve room in the model's window; pass --window "
                "too (--budget alone caps the sources block directly)"
            )
        return default if args.budget is None else int(args.budget)
    return Budget(
        context=args.budget,
        window=args.window,
        max_output=args.max_output or 0,
        margin=args.margin or 0,
    )


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
    from .demo import CAVEAT, CAVEAT_ID, DEMO_BUDGET, DEMO_OPTIONS, example
    from .pipeline import assemble

    tokenizer = args.tokenizer
    note = None
    problem = tokenizer_problem(tokenizer, "auto")
    if problem is not None:
        note = (
            f"note: the {tokenizer} vocabulary could not be loaded ({problem}); counting with "
            "'approx' (characters / 4) instead, so the token numbers are estimates. For exact "
            "counts set TIKTOKEN_CACHE_DIR to a folder that holds the tiktoken files or install "
            "briefpack with its compiled core."
        )
        if args.format != "text" or args.output not in (None, STDIN):
            print(note, file=sys.stderr)  # the text on stdout carries it otherwise
        tokenizer = "approx"
    question, chunks = example()
    budget = DEMO_BUDGET if args.budget is None else args.budget
    result = assemble(
        question,
        chunks,
        budget=budget,
        order=args.order,
        labels=args.labels,
        tokenizer=tokenizer,
        **DEMO_OPTIONS,
    )
    if args.format == "json":
        _emit(_dumps(result.record(include_prompt=True)), args.output)
        return EXIT_OK
    if args.format == "messages":
        _emit(_dumps(result.messages), args.output)
        return EXIT_OK

    buffer = io.StringIO() if args.output not in (None, STDIN) else None
    screen = Screen("never" if buffer is not None else args.color, buffer)
    settings = result.settings
    screen.line(f'briefpack demo: {len(chunks)} help-center candidates for "{question}"', "bold")
    screen.line(
        f"budget {budget} tokens, order {settings['order']}, labels {settings['labels']}, "
        f"dedupe {settings['dedupe']} {settings['threshold']}, supersede "
        f"{settings['supersede']}, tokenizer {tokenizer}, backend {settings['backend']}"
    )
    if note is not None:
        screen.line(note, "yellow")
    screen.line()
    screen.section("system", result.system)
    screen.section("user", result.user, highlight=CAVEAT)
    rows, styles = _fate_rows(result, chunks)
    caveat_index = next(i for i, c in enumerate(chunks) if c.id == CAVEAT_ID)
    styles[caveat_index] = "bold " + styles[caveat_index]
    screen.table("every candidate's fate", _FATE_COLUMNS, rows, styles)
    screen.table(f"token accounting ({tokenizer})", _TOKEN_COLUMNS, _token_rows(result))
    screen.line(
        f"{len(chunks)} candidates -> {len(result.sources)} sources; {_dropped_summary(result)}.",
        "bold",
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
    if buffer is not None:
        write_atomic(args.output, buffer.getvalue())
    screen.flush()
    return EXIT_OK


def cmd_assemble(args: argparse.Namespace) -> int:
    """Assemble the prompt from candidates in a JSONL file."""
    from .pipeline import assemble

    name = _display(args.file)
    rows = read_jsonl(args.file)
    chunks = rows_to_chunks(rows, name)
    _require_tokenizer(args.tokenizer, args.backend, "--tokenizer")
    try:
        result = assemble(
            args.question,
            chunks,
            budget=_budget(args, 12_000),
            dedupe=None if args.dedupe == "none" else args.dedupe,
            threshold=args.threshold,
            supersede=args.supersede,
            max_per_doc=args.max_per_doc,
            order=args.order,
            labels=args.labels,
            overflow=args.overflow,
            tokenizer=args.tokenizer,
            backend=args.backend,
        )
    except BriefpackError as exc:
        raise UserError(_locate(str(exc), rows, name, chunks)) from None
    if args.format == "json":
        _emit(_dumps(result.record(include_prompt=True)), args.output)
    elif args.format == "messages":
        _emit(_dumps(result.messages), args.output)
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
        f"({_dropped_summary(result)}); sources {t['sources']} of {t['context_budget']} "
        f"tokens, prompt {t['total']} tokens ({args.tokenizer})",
        file=sys.stderr,
    )
    return EXIT_OK


def cmd_count(args: argparse.Namespace) -> int:
    """Count the tokens of each file, and the total."""
    from .kernels import count_tokens

    texts = [_read_text(path) for path in args.files]
    _require_tokenizer(args.encoding, "auto", "--encoding")
    counts = count_tokens(texts, encoding=args.encoding)
    rows = [[str(n), _display(path)] for n, path in zip(counts, args.files)]
    if len(rows) > 1:
        rows.append([str(sum(counts)), "total"])
    screen = Screen(args.color)
    if screen.console is None:
        for row in rows:  # wc-style, stable for scripts
            screen.stream.write(f"{row[0].rjust(max(len(r[0]) for r in rows))}  {row[1]}\n")
    else:
        styles = ["" for _ in counts] + (["bold"] if len(rows) > len(counts) else [])
        screen.table("", [(args.encoding, "right"), ("file", "left")], rows, styles)
    screen.flush()
    return EXIT_OK


def cmd_dedupe(args: argparse.Namespace) -> int:
    """Drop near-duplicate rows of a JSONL file; the first (best-ranked) copy wins."""
    from . import kernels
    from .pipeline import DEFAULT_THRESHOLDS

    name = _display(args.file)
    rows = read_jsonl(args.file)
    chunks = rows_to_chunks(rows, name)
    texts = [c.text for c in chunks]
    threshold = args.threshold
    if args.method == "exact":
        if threshold is not None:
            raise UserError("--threshold does not apply to --method exact (copies must be equal)")
        result = kernels.dedupe_exact(texts)
    else:
        if threshold is None:
            threshold = DEFAULT_THRESHOLDS[args.method]
        fn = kernels.dedupe_jaccard if args.method == "jaccard" else kernels.dedupe_minhash
        try:
            result = fn(texts, threshold=threshold)
        except BriefpackError as exc:
            raise UserError(str(exc)) from None
    _emit("".join(rows[i].raw + "\n" for i in result.kept), args.output)
    dropped = len(rows) - len(result.kept)
    how = args.method if threshold is None else f"{args.method} >= {threshold}"
    print(
        f"{PROG}: kept {len(result.kept)} of {len(rows)} rows from {name}, dropped {dropped} "
        f"duplicate{'' if dropped == 1 else 's'} ({how})",
        file=sys.stderr,
    )
    if args.verbose:
        for i, (of, sim) in enumerate(zip(result.duplicate_of, result.similarity)):
            if of is not None:
                print(
                    f"  {name}:{rows[i].line} (id {chunks[i].id!r}) duplicates line "
                    f"{rows[of].line} (id {chunks[of].id!r}), similarity {_num(sim)}",
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
    from .citations import cite

    if args.answer == STDIN and args.record == STDIN:
        raise UserError("ANSWER and --record cannot both be read from stdin")
    answer = _read_text(args.answer)
    record = _check_record(_read_json(args.record), _display(args.record))
    found = cite(answer, record, strict=False)
    problem = None
    if args.strict and found.unknown:
        try:
            cite(answer, record, strict=True)
        except CitationError as exc:
            problem = str(exc)
    if args.format == "json":
        sys.stdout.write(
            _dumps(
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


# --------------------------------------------------------------------------- the parser


class _Formatter(argparse.HelpFormatter):
    """Wrap description paragraphs to the terminal; keep indented blocks (examples) as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = []
        for para in text.split("\n\n"):
            if "\n" in para or para.startswith(" "):
                paragraphs.append("\n".join(indent + line for line in para.split("\n")))
            else:
                paragraphs.append(super()._fill_text(para, width, indent))
        return "\n\n".join(paragraphs)


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line that points at --help; exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--color",
        choices=COLORS,
        default="auto",
        help="colour and tables with rich: auto (on a terminal, when rich is installed), "
        "always, or never (default: %(default)s)",
    )


def _add_prompt_options(p: argparse.ArgumentParser, *, budget_default: str) -> None:
    p.add_argument(
        "--budget",
        type=int,
        metavar="N",
        help=f"tokens for the sources block (default: {budget_default})",
    )
    p.add_argument(
        "--order",
        choices=ORDERS,
        default="edges",
        help="order of the sources; edges puts the best first and the second best last "
        "(default: %(default)s)",
    )
    p.add_argument(
        "--labels",
        choices=LABELS,
        default="xml",
        help='source labels: xml (<source id="1" ...>) or brackets ([1] (title) text) '
        "(default: %(default)s)",
    )


def _add_format(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (the prompt for reading), json (the record of every decision, with the "
        "prompt) or messages (a chat-completions list) (default: %(default)s)",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write to OUT (atomically) instead of stdout",
    )


EPILOG = """\
examples:
  briefpack demo
  briefpack assemble hits.jsonl -q "Is SSO included in Pro?" --budget 2000 --format json -o rec.json
  briefpack count README.md docs/*.md --encoding cl100k_base
  briefpack dedupe hits.jsonl --method minhash --threshold 0.8 -o unique.jsonl
  briefpack cite answer.txt --record rec.json

exit status: 0 ok, 1 cite found labels never in the context, 2 usage or input error
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``briefpack`` command."""
    from . import __version__

    parser = _Parser(
        prog=PROG,
        description="Deduplicated, budgeted, ordered, labelled context for RAG: the step "
        "between the reranker and the model.",
        epilog=EPILOG,
        formatter_class=_Formatter,
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add(name: str, summary: str, description: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            help=summary,
            description=description,
            allow_abbrev=False,
            formatter_class=_Formatter,
        )

    p = add(
        "demo",
        "run the pipeline on a built-in help-center example and explain every decision",
        "Assemble the context for 'Is SSO included in the Pro plan?' from 15 help-center "
        "candidates (a pricing page, an FAQ that quotes it, an overlapping chunk, outdated "
        "versions, setup guides and their near-copies, and a short page with the caveat that "
        "changes the answer). Shows the prompt, every candidate's fate and the token "
        "accounting. Works offline: without the o200k_base vocabulary it counts with 'approx' "
        "and says so.",
    )
    from .demo import DEMO_BUDGET

    _add_prompt_options(p, budget_default=str(DEMO_BUDGET))
    p.add_argument(
        "--tokenizer",
        choices=TOKENIZERS,
        default="o200k_base",
        help="token counter (default: %(default)s; falls back to approx when its vocabulary "
        "cannot be loaded)",
    )
    _add_format(p)
    p.set_defaults(func=cmd_demo)

    p = add(
        "assemble",
        "assemble the prompt from candidates in a JSONL file",
        "Read candidates, best first, one JSON object per line with Chunk's keys (text, id, "
        "score, doc, position, parent, title, url, updated, tokens, vector, meta; other keys go "
        "into meta), and write the prompt (text), the record of every decision (json) or the "
        "chat messages (messages). A one-line summary goes to stderr.\n\n"
        'example:\n  briefpack assemble hits.jsonl -q "Is SSO included in Pro?" --window 8192 '
        "--max-output 1024 --format messages",
    )
    p.add_argument("file", metavar="FILE.jsonl", help="the candidates; - reads stdin")
    p.add_argument("-q", "--question", required=True, help="the user's question")
    _add_prompt_options(p, budget_default="12000, or what --window leaves")
    p.add_argument("--window", type=int, metavar="N", help="the model's context window, in tokens")
    p.add_argument(
        "--max-output",
        type=int,
        metavar="N",
        help="tokens reserved in the window for the answer (default: 0)",
    )
    p.add_argument(
        "--margin", type=int, metavar="N", help="tokens kept free in the window (default: 0)"
    )
    p.add_argument(
        "--dedupe",
        choices=DEDUPE_CHOICES,
        default="auto",
        help="duplicate detection; auto is cosine when every candidate has a vector, else "
        "jaccard (default: %(default)s)",
    )
    p.add_argument(
        "--threshold",
        type=float,
        metavar="T",
        help="similarity in [0, 1] at which two candidates are duplicates (default: jaccard "
        "0.7, minhash 0.8, cosine 0.97)",
    )
    p.add_argument(
        "--supersede",
        choices=("url", "doc"),
        help="keep only the newest 'updated' among candidates sharing a url (or doc)",
    )
    p.add_argument(
        "--max-per-doc", type=int, metavar="N", help="keep at most N candidates per document"
    )
    p.add_argument(
        "--overflow",
        choices=("stop", "skip"),
        default="stop",
        help="at the first candidate that does not fit: stop, or skip it and try smaller ones "
        "(default: %(default)s)",
    )
    p.add_argument(
        "--tokenizer",
        choices=TOKENIZERS,
        default="o200k_base",
        help="token counter (default: %(default)s)",
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="auto",
        help="auto (the compiled core when built), rust, or python (the reference) "
        "(default: %(default)s)",
    )
    _add_format(p)
    p.set_defaults(func=cmd_assemble)

    p = add(
        "count",
        "count the tokens of files",
        "Count the tokens of each file (UTF-8) and, for several files, the total.\n\n"
        "example:\n  briefpack count README.md docs/*.md --encoding cl100k_base",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="files to count; - reads stdin")
    p.add_argument(
        "--encoding",
        choices=TOKENIZERS,
        default="o200k_base",
        help="token counter (default: %(default)s); approx is characters / 4",
    )
    p.set_defaults(func=cmd_count)

    p = add(
        "dedupe",
        "drop near-duplicate rows of a JSONL file",
        "Walk the rows in order and drop each row whose text duplicates an earlier kept row; "
        "the first (best-ranked) copy wins. Kept rows are written unchanged; the number "
        "dropped goes to stderr.\n\n"
        "example:\n  briefpack dedupe hits.jsonl --method minhash --threshold 0.8 -o unique.jsonl",
    )
    p.add_argument("file", metavar="FILE.jsonl", help="rows with a 'text' key; - reads stdin")
    p.add_argument(
        "--method",
        choices=DEDUPE_ROW_METHODS,
        default="jaccard",
        help="exact (after collapsing whitespace), jaccard (word sets) or minhash (word "
        "shingles, for large sets) (default: %(default)s)",
    )
    p.add_argument(
        "--threshold",
        type=float,
        metavar="T",
        help="similarity in [0, 1] at which two rows are duplicates (default: jaccard 0.7, "
        "minhash 0.8)",
    )
    p.add_argument(
        "-o", "--output", metavar="OUT", help="write the kept rows to OUT instead of stdout"
    )
    p.add_argument("-v", "--verbose", action="store_true", help="list every dropped row on stderr")
    p.set_defaults(func=cmd_dedupe)

    p = add(
        "cite",
        "check the citations in a model's answer",
        "Resolve the [n] markers in ANSWER against the sources of a record written by "
        "'briefpack assemble --format json', and list the cited sources, labels that were "
        "never in the context, sources never cited and sentences without a citation. Exits 1 "
        "when the answer cites unknown labels (unless --no-strict).\n\n"
        "example:\n  briefpack cite answer.txt --record rec.json",
    )
    p.add_argument("answer", metavar="ANSWER", help="the answer text file; - reads stdin")
    p.add_argument(
        "--record", required=True, metavar="RECORD.json", help="the record of the assembly"
    )
    p.add_argument(
        "--no-strict",
        dest="strict",
        action="store_false",
        help="report unknown labels but exit 0",
    )
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text for reading or json for scripts (default: %(default)s)",
    )
    p.set_defaults(func=cmd_cite)
    for command in sub.choices.values():
        _add_common(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``briefpack`` command line and return its exit status.

    Args:
        argv: the arguments without the program name (default: ``sys.argv[1:]``).

    >>> main(["dedupe", "--method", "fuzzy", "rows.jsonl"])  # the usage error goes to stderr
    2
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    try:
        return int(args.func(args))
    except (UserError, BriefpackError) as exc:
        message = " ".join(str(exc).split("\n"))
        print(f"{PROG} {args.command}: error: {message}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. | head): stop quietly, without a second error at exit
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
