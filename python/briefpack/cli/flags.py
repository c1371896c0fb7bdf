"""The rows of the option table: ``Option``, the rows built from a ``Spec`` and the table
the command line places by hand (``options.OPTIONS`` adds the rest)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .._jsonl import MAX_LINE_BYTES
from .._specs import Spec
from ..options import FIELDS, SPECS
from ..routing import ROUTE_RULE_SETS
from .common import API_DEFAULTS, COLORS, DEDUPE_ROW_METHODS, FORMATS, MAX_IMAGE_BYTES, TOKENIZERS


def utf8_text(value: str) -> str:
    """An argparse ``type`` for text arguments: refuse bytes that are not UTF-8, in plain words.

    The command line arrives as bytes; Python keeps a byte that is not UTF-8 as a lone
    surrogate, which the library would reject with advice meant for Python programmers.
    """
    for i, ch in enumerate(value):
        if "\udc80" <= ch <= "\udcff":  # a byte that did not decode (surrogateescape)
            raise argparse.ArgumentTypeError(
                f"not valid UTF-8 (byte 0x{ord(ch) - 0xDC00:02x} at character {i + 1}); "
                "pass UTF-8 text (check the terminal's or the script's encoding)"
            )
        if "\ud800" <= ch <= "\udfff":
            raise argparse.ArgumentTypeError(
                f"not valid Unicode (a lone surrogate at character {i + 1}); pass UTF-8 text"
            )
    return value


@dataclass(frozen=True)
class Option:
    """One row of the table: a flag, where it applies, how it parses, what the API calls it."""

    flags: tuple[str, ...]
    commands: tuple[str, ...]
    help: str
    api: tuple[str, ...] = ()  # the API's names for it; the first is the assemble keyword
    passes: bool = False  # assemble(**{api[0]: value}) unchanged
    settings: dict[str, Any] = field(default_factory=dict)  # the rest of add_argument's
    deprecated: tuple[str, ...] = ()  # old spellings: hidden, warn when used

    @property
    def flag(self) -> str:
        return self.flags[-1]

    @property
    def dest(self) -> str:
        return str(self.settings.get("dest", self.flag.lstrip("-").replace("-", "_")))


_ASSEMBLE = ("assemble",)
_PROMPT = ("demo", "assemble")
_WINDOW = ("assemble", "route")
_DEFAULT = " (default: %(default)s)"
_KINDS: dict[str, Callable[[str], Any]] = {"text": utf8_text, "int": int, "float": float}
_METAVARS = {"text": "TEXT", "int": "N", "float": "X"}


def _spec_row(name: str) -> Option:
    """The row of a library option, from its ``Spec`` (``briefpack.options.SPECS``): the flag
    is the name with dashes; a choice flag takes the option's values a command line can type
    (and ``none`` when None is legal but not the default)."""
    return _row_of(SPECS[FIELDS.index(name)])


def _row_of(s: Spec) -> Option:
    """The row of one ``Spec`` with a flag (``_spec_row`` finds the spec by name)."""
    name, flag = s.name, s.cli
    assert flag is not None, f"{name} has no command-line flag"
    settings: dict[str, Any] = {}
    if flag.kind == "choice":
        assert s.choices is not None, f"{name}: a choice flag needs the option's choices"
        typed = tuple(v for v in s.choices if isinstance(v, str) and v != "callable")
        none = None in s.choices and s.default is not None
        settings["choices"] = (*typed, "none") if none else typed
    else:
        settings["type"] = _KINDS[flag.kind]
        settings["metavar"] = flag.metavar or _METAVARS[flag.kind]
    if flag.show_default:
        settings["default"] = s.default
    return Option(
        (s.flag,),
        flag.commands,
        flag.help + (_DEFAULT if flag.show_default else ""),
        api=(name, *flag.also),
        passes=flag.passes,
        settings=settings,
    )


_TABLE: tuple[Option, ...] = (
    # ---- the request
    Option(
        ("-q", "--question"),
        _ASSEMBLE,
        "the user's question",
        api=("question",),
        settings={"required": True, "type": utf8_text},
    ),
    Option(
        ("--history",),
        _ASSEMBLE,
        "earlier turns of the conversation: a JSON file holding a list of "
        '{"role": ..., "content": ...} objects (or one JSON string); - reads stdin',
        api=("history",),
        settings={"metavar": "FILE.json"},
    ),
    _spec_row("system"),
    _spec_row("instructions"),
    # ---- routing
    Option(
        ("--lang",),
        ("route",),
        "the rule set: " + ", ".join(ROUTE_RULE_SETS) + ", or auto (detect the question's "
        "language; --rules then lists en)" + _DEFAULT,
        settings={"choices": ("auto", *ROUTE_RULE_SETS), "default": "auto"},
    ),
    Option(
        ("--model",),
        ("route",),
        "the fallback model's weights file (written by --train) instead of the shipped one; "
        "none for rules only; with --train, the file to write",
        settings={"metavar": "FILE"},
    ),
    Option(
        ("--train",),
        ("route",),
        "train a fallback model on labelled questions (TSV: kind<TAB>question, or kind, "
        "split, corpus, question) and write it to --model FILE",
        settings={"metavar": "TSV"},
    ),
    Option(
        ("--corpus",),
        ("route",),
        "the whole corpus, one JSON object per line with Chunk's keys (or a JSON string); "
        "routes to whole_corpus when it fits the budget; - reads stdin",
        api=("corpus",),
        settings={"metavar": "FILE.jsonl"},
    ),
    Option(
        ("--rules",),
        ("route",),
        "print the rule set (after --lang) and exit",
        settings={"action": "store_true"},
    ),
    # ---- the budget
    Option(
        ("--budget",),
        ("route",),
        "with --corpus: tokens for the sources block (default: assemble's, or what --window "
        "leaves)",
        api=("budget.context", "budget"),
        settings={"type": int, "metavar": "N"},
    ),
    Option(
        ("--budget",),
        ("demo",),
        "tokens for the sources block (default: 1000)",
        api=("budget.context", "budget"),
        settings={"type": int, "metavar": "N"},
    ),
    _spec_row("budget"),
    Option(
        ("--window",),
        _WINDOW,
        "the model's context window, in tokens",
        api=("budget.window",),
        settings={"type": int, "metavar": "N"},
    ),
    Option(
        ("--max-output",),
        _WINDOW,
        "tokens reserved in the window for the answer (default: 0)",
        api=("budget.max_output",),
        settings={"type": int, "metavar": "N"},
    ),
    Option(
        ("--margin",),
        _WINDOW,
        "tokens kept free in the window (default: 0)",
        api=("budget.margin",),
        settings={"type": int, "metavar": "N"},
    ),
    Option(
        ("--max-images",),
        _ASSEMBLE,
        "the most page images in the prompt (default: no cap); each also costs tokens by "
        "--image-tokens",
        api=("budget.images",),
        settings={"type": int, "metavar": "N"},
    ),
    _spec_row("image_tokens"),
    _spec_row("page_max_distance"),
    Option(
        ("--pages",),
        ("demo",),
        "the page-image example instead: report pages drawn now, a JPEG near-copy that is "
        "deduplicated, an image cap",
        settings={"action": "store_true"},
    ),
    # ---- the prompt's shape
    _spec_row("order"),
    _spec_row("labels"),
    # ---- duplicates
    _spec_row("dedupe"),
    Option(
        ("--method",),
        ("dedupe",),
        "exact (after collapsing whitespace), jaccard (word sets), minhash (word shingles, for "
        "large sets) or cosine (the rows' 'vector')" + _DEFAULT,
        api=("method",),
        settings={"choices": DEDUPE_ROW_METHODS, "default": "jaccard"},
    ),
    _spec_row("threshold"),
    _spec_row("scope"),
    Option(
        ("--num-perm",),
        ("assemble", "dedupe"),
        "minhash: permutations in each signature (default: 128)",
        api=("num_perm",),
        settings={"type": int, "metavar": "N"},
    ),
    Option(
        ("--shingle",),
        ("assemble", "dedupe"),
        "minhash: words per shingle (default: 3)",
        api=("shingle",),
        settings={"type": int, "metavar": "N"},
    ),
    Option(
        ("--seed",),
        ("assemble", "dedupe"),
        "minhash: the hash seed (default: 0)",
        api=("seed",),
        settings={"type": int, "metavar": "N"},
    ),
    _spec_row("supersede"),
    # ---- selection
    _spec_row("max_per_doc"),
    _spec_row("mmr"),
    _spec_row("mmr_k"),
    Option(
        ("--query-vector",),
        _ASSEMBLE,
        "with --mmr: the question's embedding as a JSON array, e.g. '[0.1, 0.3]' "
        "(default: relevance from the rank)",
        api=("query_vector",),
        settings={"metavar": "JSON"},
    ),
    Option(
        ("--query-vector-file",),
        _ASSEMBLE,
        "with --mmr: read the question's embedding (a JSON array) from a file; - reads stdin",
        api=(),
        settings={"metavar": "FILE.json"},
    ),
    _spec_row("overflow"),
    _spec_row("compress"),
    # ---- counting and computing
    Option(
        ("--tokenizer",),
        ("demo",),
        "token counter (default: %(default)s; falls back to approx when its vocabulary cannot "
        "be loaded)",
        api=("tokenizer",),
        settings={"choices": TOKENIZERS, "default": API_DEFAULTS["tokenizer"]},
    ),
    _spec_row("tokenizer"),
    Option(
        ("--tokenizer",),
        ("count",),
        "token counter; approx is characters / 4" + _DEFAULT,
        api=("tokenizer", "encoding"),
        settings={"choices": TOKENIZERS, "default": API_DEFAULTS["tokenizer"]},
        deprecated=("--encoding",),
    ),
    Option(
        ("--tokenizer",),
        ("route",),
        "token counter for --corpus" + _DEFAULT,
        api=("tokenizer",),
        settings={"choices": TOKENIZERS, "default": API_DEFAULTS["tokenizer"]},
    ),
    _spec_row("backend"),
    # ---- output
    Option(
        ("--format",),
        _PROMPT,
        "text (the prompt for reading), json (the record of every decision, with the prompt) "
        "or messages (a chat-completions list)" + _DEFAULT,
        settings={"choices": FORMATS, "default": "text"},
    ),
    Option(
        ("--format",),
        ("cite", "route"),
        "text for reading or json for scripts" + _DEFAULT,
        settings={"choices": ("text", "json"), "default": "text"},
    ),
    Option(
        ("-o", "--output"),
        _PROMPT,
        "write to OUT (atomically) instead of stdout",
        settings={"metavar": "OUT"},
    ),
    Option(
        ("-o", "--output"),
        ("dedupe",),
        "write the kept rows to OUT instead of stdout",
        settings={"metavar": "OUT"},
    ),
    Option(
        ("-v", "--verbose"),
        ("dedupe",),
        "list every dropped row on stderr",
        settings={"action": "store_true"},
    ),
    Option(
        ("--record",),
        ("cite",),
        "the record of the assembly",
        settings={"required": True, "metavar": "RECORD.json"},
    ),
    Option(
        ("--no-strict",),
        ("cite",),
        "report unknown labels but exit 0",
        settings={"dest": "strict", "action": "store_false"},
    ),
    Option(
        ("--max-line-bytes",),
        ("assemble", "dedupe", "cite", "route"),
        "the longest line of a JSONL input and the largest file read whole (a record, an "
        "answer), in bytes; past it the command stops with the line number" + _DEFAULT,
        settings={"type": int, "default": MAX_LINE_BYTES, "metavar": "N"},
    ),
    Option(
        ("--images-root",),
        ("assemble",),
        "the folder a row's image path is read under (default: the input file's folder; "
        "for stdin the current one); a path that leads out of it is refused",
        settings={"metavar": "DIR"},
    ),
    Option(
        ("--max-image-bytes",),
        ("assemble",),
        "the largest page image file a row may name, in bytes" + _DEFAULT,
        settings={"type": int, "default": MAX_IMAGE_BYTES, "metavar": "N"},
    ),
    Option(
        ("--color",),
        ("demo", "assemble", "count", "dedupe", "cite", "route"),
        "colour and tables with rich: auto (on a terminal, when rich is installed), always, or "
        "never" + _DEFAULT,
        settings={"choices": COLORS, "default": "auto"},
    ),
)
