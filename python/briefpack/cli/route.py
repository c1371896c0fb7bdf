"""The ``route`` command: train a model, print the rules, or route one question."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from ..errors import BriefpackError
from .budget import _budget
from .common import EXIT_OK, UserError
from .explain import require_tokenizer
from .files import Rows, display, dumps, locate, read_chunks, write_atomic
from .options import name_the_flag
from .progress import file_size, progress
from .screen import Screen

if TYPE_CHECKING:
    from ..routing import Model, Route


def cmd_route(args: argparse.Namespace) -> int:
    """Say whether a question is for top-k retrieval or for another tool, and why."""
    from ..routing import ROUTE_RULE_SETS

    lang = None if args.lang == "auto" else args.lang
    rules = ROUTE_RULE_SETS[lang or "en"]
    screen = Screen(args.color)
    if args.train is not None:
        return _train(args, screen)
    if args.rules:
        for i, rule in enumerate(rules):
            screen.line(f"{i:>2} {rule.kind:<15} {rule.pattern}\n   {'':<15} {rule.why}")
        screen.flush()
        return EXIT_OK
    if args.question is None:
        raise UserError("route needs a question (or --rules to print the rule set)")
    r = _route(args, lang, _model(args))
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


def _train(args: argparse.Namespace, screen: Screen) -> int:
    """``route --train ROWS --model FILE``: fit the model and write its weights."""
    from ..routing import load_rows, train

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


def _model(args: argparse.Namespace) -> Model | str | None:
    """``--model``: the built-in default, ``none`` (rules only), or a weights file."""
    from ..routing import Model

    if args.model == "none":
        return None
    if args.model is None:
        return "default"
    try:
        return Model.load(args.model)
    except BriefpackError as exc:
        raise UserError(str(exc)) from None


def _route(args: argparse.Namespace, lang: str | None, chosen: Model | str | None) -> Route:
    """The decision for ``args.question``, with ``--corpus`` (and its budget) when given."""
    from ..routing import route

    budget = _budget(args, None)
    if args.corpus is None:
        if budget is not None:
            raise UserError("--budget and --window only matter with --corpus; pass --corpus too")
        return route(args.question, lang=lang, model=chosen)
    name = display(args.corpus)
    with Rows(args.corpus, strings=True) as rows:
        with progress(
            f"reading {os.path.basename(name)}", file_size(args.corpus), args.color
        ) as rows.on_read:
            corpus = read_chunks(rows)
        require_tokenizer(args.tokenizer, "auto", "--tokenizer")
        try:
            return route(
                args.question,
                lang=lang,
                model=chosen,
                corpus=corpus,
                budget=budget,
                tokenizer=args.tokenizer,
            )
        except BriefpackError as exc:
            raise UserError(locate(name_the_flag(exc), rows, name, corpus)) from None
