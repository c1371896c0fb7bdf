"""The argument parser of the ``briefpack`` command, built from the table in ``options``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn

from .commands import cmd_assemble, cmd_cite, cmd_count, cmd_dedupe, cmd_demo, cmd_route
from .common import EXIT_STATUSES, EXIT_USAGE, PROG
from .eval import add_eval_parser
from .options import add_options, utf8_text

Command = Callable[[argparse.Namespace], int]


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


EPILOG = f"""\
examples:
  briefpack demo
  briefpack assemble hits.jsonl -q "Is SSO included in Pro?" --budget 2000 --format json -o rec.json
  briefpack count README.md docs/*.md --tokenizer cl100k_base
  briefpack dedupe hits.jsonl --method minhash --threshold 0.8 -o unique.jsonl
  briefpack cite answer.txt --record rec.json
  briefpack route "How many recipes use anchovies?"

{EXIT_STATUSES}"""


# The commands: name, the one-line summary, the description, the positional argument (name and
# argparse settings) and the function that runs it. Their flags come from the table in options.
_COMMANDS: tuple[tuple[str, str, str, tuple[str, dict[str, Any]] | None, Command], ...] = (
    (
        "demo",
        "run the pipeline on a built-in help-center example and explain every decision",
        "Assemble the context for 'Is SSO included in the Pro plan?' from 15 help-center "
        "candidates (a pricing page, an FAQ that quotes it, an overlapping chunk, outdated "
        "versions, setup guides and their near-copies, and a short page with the caveat that "
        "changes the answer). Shows the prompt, every candidate's fate and the token "
        "accounting. Works offline: without the o200k_base vocabulary it counts with 'approx' "
        "and says so.",
        None,
        cmd_demo,
    ),
    (
        "assemble",
        "assemble the prompt from candidates in a JSONL file",
        "Read candidates, best first, one JSON object per line with Chunk's keys (text, id, "
        "score, doc, position, parent, title, url, updated, tokens, vector, meta; a page also "
        "image, a PNG or JPEG path relative to the file's folder, and page; other keys go "
        "into meta), and write the prompt (text), the record of every decision (json) or the "
        "chat messages (messages). A one-line summary goes to stderr. The options are those "
        "of briefpack.assemble, spelled with dashes.\n\n"
        'example:\n  briefpack assemble hits.jsonl -q "Is SSO included in Pro?" --window 8192 '
        "--max-output 1024 --format messages",
        ("file", {"metavar": "FILE.jsonl", "help": "the candidates; - reads stdin"}),
        cmd_assemble,
    ),
    (
        "count",
        "count the tokens of files",
        "Count the tokens of each file (UTF-8) and, for several files, the total. Files are "
        "read a piece at a time, so their size does not matter.\n\n"
        "example:\n  briefpack count README.md docs/*.md --tokenizer cl100k_base",
        ("files", {"nargs": "+", "metavar": "FILE", "help": "files to count; - reads stdin"}),
        cmd_count,
    ),
    (
        "dedupe",
        "drop near-duplicate rows of a JSONL file",
        "Walk the rows in order and drop each row whose text (or, for cosine, 'vector') "
        "duplicates an earlier kept row; the first (best-ranked) copy wins. Kept rows are "
        "written unchanged; the number dropped goes to stderr.\n\n"
        "example:\n  briefpack dedupe hits.jsonl --method minhash --threshold 0.8 -o unique.jsonl",
        ("file", {"metavar": "FILE.jsonl", "help": "rows with a 'text' key; - reads stdin"}),
        cmd_dedupe,
    ),
    (
        "cite",
        "check the citations in a model's answer",
        "Resolve the [n] markers in ANSWER against the sources of a record written by "
        "'briefpack assemble --format json', and list the cited sources, labels that were "
        "never in the context, sources never cited and sentences without a citation. Exits 1 "
        "when the answer cites unknown labels (unless --no-strict).\n\n"
        "example:\n  briefpack cite answer.txt --record rec.json",
        ("answer", {"metavar": "ANSWER", "help": "the answer text file; - reads stdin"}),
        cmd_cite,
    ),
    (
        "route",
        "say whether a question is for retrieval or for another tool, and why",
        "Route a question before assembling: retrieve (top-k, the default), aggregate (a "
        "database query), exhaustive (a filter over every item), filter (metadata), recency (a "
        "sort by time), corpus_analysis (an offline job) or whole_corpus (the corpus fits the "
        "budget: no retrieval needed). Prints the route, the rule that decided and the part of "
        "the question it matched.\n\n"
        'examples:\n  briefpack route "How many recipes use anchovies?"\n'
        '  briefpack route "Ist SSO im Pro-Tarif?" --lang de --corpus docs.jsonl --budget 8000',
        ("question", {"nargs": "?", "type": utf8_text, "help": "the user's question"}),
        cmd_route,
    ),
)


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
    for name, summary, description, positional, func in _COMMANDS:
        p = sub.add_parser(
            name,
            help=summary,
            description=description,
            allow_abbrev=False,
            formatter_class=_Formatter,
        )
        if positional is not None:
            p.add_argument(positional[0], **positional[1])
        p.set_defaults(func=func)
    add_eval_parser(sub)  # its own flags: an axis of values per option (see cli/eval.py)
    for name, command in sub.choices.items():
        add_options(command, name)
    return parser
