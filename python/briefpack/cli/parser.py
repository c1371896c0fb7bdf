"""The argument parser of the ``briefpack`` command."""

from __future__ import annotations

import argparse
from typing import NoReturn

from .commands import cmd_assemble, cmd_cite, cmd_count, cmd_dedupe, cmd_demo
from .common import (
    BACKENDS,
    COLORS,
    DEDUPE_CHOICES,
    DEDUPE_ROW_METHODS,
    EXIT_USAGE,
    FORMATS,
    LABELS,
    ORDERS,
    PROG,
    TOKENIZERS,
)


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
    from .. import __version__

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
    from ..demo import DEMO_BUDGET

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
