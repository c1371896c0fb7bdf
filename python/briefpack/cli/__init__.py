"""The command line: ``demo``, ``assemble``, ``count``, ``dedupe``, ``cite``, ``route``.

Run ``briefpack demo`` to watch the whole pipeline on a built-in help-center example, then
``briefpack assemble candidates.jsonl -q "question"`` on your own candidates (one JSON object per
line with ``Chunk``'s keys, best first; ``-`` reads stdin). ``python -m briefpack`` is the same
program.

Exit status (``common.EXIT_STATUSES``, also in ``--help``): 0 on success; 1 when ``cite``
finds labels that were never in the context (strict mode); 2 for a usage error, bad input (the
message names the flag, or file, line and column), a briefpack error, or a tokenizer whose
vocabulary cannot be loaded; 74 when the output cannot be written; 130 on Ctrl-C; 141 when the
reader of stdout went away. Errors print one line to stderr, never a traceback. Output files
are written atomically, so an error leaves no half-written file. The options are one table
(``options.OPTIONS``) from which the parser is built.

Human-readable output uses ``rich`` (``pip install 'briefpack[cli]'``) on a terminal and plain
text when rich is missing or the output is piped; ``--color always|never`` overrides.
Long work (reading and processing large files) shows a progress bar on stderr when stderr
is a terminal, and writes nothing there otherwise (``progress``).

    $ briefpack demo
    $ briefpack assemble hits.jsonl -q "Is SSO included in Pro?" --format json -o record.json
    $ briefpack cite answer.txt --record record.json
"""

from __future__ import annotations

from .app import main
from .explain import describe_fate, tokenizer_problem
from .files import Row, read_jsonl, rows_to_chunks, write_atomic
from .parser import build_parser
from .screen import Screen, plain_table

__all__ = [
    "Row",
    "Screen",
    "build_parser",
    "describe_fate",
    "main",
    "plain_table",
    "read_jsonl",
    "rows_to_chunks",
    "tokenizer_problem",
    "write_atomic",
]
