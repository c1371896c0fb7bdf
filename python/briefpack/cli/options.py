"""Every option of every command, in one table; the parser is built from it.

Each row names the flag, the commands that take it, its argparse settings, and the name the
Python API uses for it (``api``), which is also the name in the API's error messages. A
library option's row comes from its ``Spec`` (``briefpack.options.SPECS``: help, parsing,
choices, default), placed here with ``_spec_row``; an option with a flag the table does not
place gets its row after the others. From the table come the parser, the keyword
arguments ``assemble`` passes through unchanged, and ``name_the_flag``, which rewrites a
library error about ``budget.context`` into one about ``--budget``. Old spellings stay as
hidden aliases that warn on stderr.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import Any

from ..options import FIELDS as FIELDS  # the table reads the specs through these names
from ..options import SPECS
from .flags import _TABLE, _row_of
from .flags import Option as Option
from .flags import utf8_text as utf8_text

__all__ = ["OPTIONS", "Option", "add_options", "api_kwargs", "name_the_flag", "utf8_text"]


def _with_every_flag(table: tuple[Option, ...]) -> tuple[Option, ...]:
    """The table, with a row for each library option whose ``Spec`` has a flag that the table
    does not place itself (a new option's flag: after the other options, before the output)."""
    placed = {row.api[0] for row in table if row.api}
    rest = tuple(_row_of(s) for s in SPECS if s.cli is not None and s.name not in placed)
    at = next(i for i, row in enumerate(table) if row.flag == "--format")
    return (*table[:at], *rest, *table[at:])


OPTIONS: tuple[Option, ...] = _with_every_flag(_TABLE)
"""Every flag of every command, in the order ``--help`` lists them."""


class _DeprecatedAlias(argparse.Action):
    """An old spelling of a flag: stores into the new one's dest and warns on stderr."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, new: str, **kw: Any) -> None:
        super().__init__(option_strings, dest, **kw)
        self.new = new

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        print(
            f"{parser.prog}: warning: {option_string} is deprecated; use {self.new}",
            file=sys.stderr,
        )
        setattr(namespace, self.dest, values)


def add_options(parser: argparse.ArgumentParser, command: str) -> None:
    """Add every option of ``command`` to its parser, in the table's order."""
    for option in OPTIONS:
        if command not in option.commands:
            continue
        parser.add_argument(*option.flags, help=option.help, **option.settings)
        for old in option.deprecated:
            settings = {k: v for k, v in option.settings.items() if k != "default"}
            parser.add_argument(
                old,
                action=_DeprecatedAlias,
                new=option.flag,
                help=argparse.SUPPRESS,
                default=argparse.SUPPRESS,
                **{**settings, "dest": option.dest},
            )


def api_kwargs(args: argparse.Namespace, command: str) -> dict[str, Any]:
    """The keyword arguments that go to the API unchanged (``passes``), where given."""
    out: dict[str, Any] = {}
    for option in OPTIONS:
        if command in option.commands and option.passes:
            value = getattr(args, option.dest)
            if value is not None:
                out[option.api[0]] = value
    return out


def _flags_by_api_name() -> dict[str, str]:
    names: dict[str, str] = {}
    for option in OPTIONS:
        for name in option.api:
            names.setdefault(name, option.flag)
    return names


FLAG_OF = _flags_by_api_name()
_LEADING_NAME = re.compile(r"[A-Za-z_][\w.]*")


def name_the_flag(exc: BaseException, flags: dict[str, str] | None = None) -> str:
    """The error's message, about the command line's flag instead of the API's keyword.

    Prefers the error's own ``option`` or ``field`` attribute when it has one; else reads the
    API name the message starts with. Messages about anything else come back unchanged.

    >>> from briefpack.errors import InputError
    >>> name_the_flag(InputError("budget.context must be an int >= 0, got -5"))
    '--budget must be an int >= 0, got -5'
    >>> name_the_flag(InputError("candidate 3 (id='a'): score must be a number"))
    "candidate 3 (id='a'): score must be a number"
    """
    flags = FLAG_OF if flags is None else flags
    message = str(exc)
    for attribute in ("option", "field"):
        name = getattr(exc, attribute, None)
        if isinstance(name, str) and name in flags:
            if not message.startswith(name):
                return f"{flags[name]}: {message}"
            if message[len(name) : len(name) + 1] in (" ", ":", "[", ""):
                return flags[name] + message[len(name) :]
            break  # a dotted part of the option (budget.context): the table below knows it
    from ..errors import InputError

    m = _LEADING_NAME.match(message) if isinstance(exc, InputError) else None
    if m and m.group() in flags and message[m.end() : m.end() + 1] in (" ", ":", "[", ""):
        return flags[m.group()] + message[m.end() :]
    return message
