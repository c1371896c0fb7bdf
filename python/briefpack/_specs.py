"""The form of an option's row: ``Spec`` (and its ``Flag``), the record's writers, and the one
unknown-option check.

A leaf (``errors`` and ``_checks`` only), so that ``options`` builds its rows from it and
everything that reads options (the CLI, eval, the adapters, ``assemble_many``) checks names
with ``check_names`` and its one wording. ``briefpack.options`` holds the rows themselves and
the recipe for adding one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass
from difflib import get_close_matches
from typing import Any, Literal, NamedTuple

from ._checks import shown
from ._option_rules import Rule
from .errors import InputError

__all__ = [
    "AS_GIVEN",
    "CHOICE",
    "IN_PAGES",
    "IS_SET",
    "KEEP",
    "NAME_OR_CALLABLE",
    "OMIT",
    "Flag",
    "Resolved",
    "Rule",
    "Spec",
    "Writer",
    "check_names",
    "named",
    "spec",
]


class Resolved(NamedTuple):
    """What a request resolved, for the record's writers: the dedupe method ``auto`` chose,
    its threshold, the backend that ran, and whether the request carries page images."""

    options: Any  # the Options
    method: str | None
    threshold: float
    backend: str
    pages: bool


Writer = Callable[[Any, Resolved], Any]
"""``(the option's value, the request) -> what settings[name] holds`` (``OMIT``: nothing)."""

OMIT: Any = object()
"""A writer's answer for "leave this option out of the settings"."""
IN_PAGES: Writer = lambda value, _: value  # noqa: E731 - a marker that is also a writer
"""The option is written in ``settings["pages"]`` (a request with page images only)."""
KEEP: Any = object()
"""``whole_corpus`` keeps this Assembler's value of the option."""


def AS_GIVEN(value: Any, _: Resolved) -> Any:
    """The value as checked."""
    return value


def IS_SET(value: Any, _: Resolved) -> bool:
    """Whether a callable or mapping was given (the record cannot hold it)."""
    return value is not None


def NAME_OR_CALLABLE(value: Any, _: Resolved) -> Any:
    """A name as it is; a callable as ``"callable"``."""
    return value if isinstance(value, str) else "callable"


@dataclass(frozen=True)
class Flag:
    """How ``briefpack assemble`` spells an option: ``--name-with-dashes``.

    ``kind`` is how the flag parses (``"choice"``: one of the option's ``choices`` that a
    command line can type, plus ``none`` when None is legal but not the default);
    ``show_default`` adds the default to the help; ``passes``: the value goes to ``assemble``
    unchanged (else the command builds it, as ``--budget`` with ``--window``); ``commands``:
    the commands that take it; ``also``: other API names the flag stands for in messages.
    """

    help: str
    kind: Literal["choice", "text", "int", "float"] = "choice"
    metavar: str | None = None
    commands: tuple[str, ...] = ("assemble",)
    show_default: bool = False
    passes: bool = True
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Spec:
    """One option, as ``briefpack.options.SPECS`` holds it: ``name``, ``annotation`` and
    ``default`` (from its ``Options`` field); ``rule``, its check; ``choices``, its fixed
    legal values (if any); ``record``, what the record's ``settings`` write (None: nothing);
    ``cli``, its ``briefpack assemble`` flag (None: none); ``sweep``, how ``briefpack eval``
    reads one of a comma-separated list (None: no list flag); ``per_request``, whether one
    request may override it; ``whole_corpus``, the value ``whole_corpus`` uses (``KEEP``:
    the Assembler's).

    >>> from briefpack.options import SPECS
    >>> order = next(s for s in SPECS if s.name == "order")
    >>> order.default, order.flag, order.whole_corpus, order.choices[:2]
    ('edges', '--order', 'document', ('relevance', 'edges'))
    """

    default: Any
    rule: Rule
    choices: tuple[object, ...] | None = None
    record: Writer | None = None
    cli: Flag | None = None
    sweep: Literal["int", "float", "str"] | None = None
    per_request: bool = True
    whole_corpus: Any = KEEP
    name: str = ""
    annotation: str = ""

    @property
    def flag(self) -> str:
        """The command-line spelling of the name."""
        return "--" + self.name.replace("_", "-")


def spec(
    rule: Rule | None = None,
    *,
    choices: Sequence[object] | None = None,
    record: Writer | None = None,
    cli: Flag | None = None,
    sweep: Literal["int", "float", "str"] | None = None,
    per_request: bool = True,
    whole_corpus: Any = KEEP,
) -> dict[str, Spec]:
    """An ``Options`` field's metadata: its ``Spec`` (the name, type and default come from the
    field). ``choices`` alone makes the rule "one of these".

    >>> meta = spec(choices=("a", "b"), record=AS_GIVEN)
    >>> meta["spec"].choices, meta["spec"].per_request
    (('a', 'b'), True)
    """
    if rule is None and choices is None:
        raise TypeError("an option needs a rule or choices")
    row = Spec(
        MISSING,
        rule or CHOICE,
        None if choices is None else tuple(choices),
        record,
        cli,
        sweep,
        per_request,
        whole_corpus,
    )
    return {"spec": row}


def CHOICE(value: Any, _: Mapping[str, Any]) -> Any:
    """The rule of a row given ``choices`` only; ``options`` puts the named choice rule there."""
    raise AssertionError("replaced by the option's choice rule")  # pragma: no cover


def check_names(
    given: Iterable[object], allowed: Sequence[str], *, what: str = "option", where: str = ""
) -> None:
    """Raise the one "unknown option" ``InputError`` if a name of ``given`` is not ``allowed``.

    ``what`` is what the names are (``"assemble option"``), ``where`` a prefix naming the
    caller's part (``"requests[3]: "``). The error's ``option`` is the first unknown name.

    >>> check_names({"budget": 1}, ("budget", "order"))
    >>> check_names(["ordr"], ("order", "labels"))
    Traceback (most recent call last):
    ...
    briefpack.errors.InputError: unknown option(s) 'ordr' (did you mean 'order'?); expected \
some of order, labels
    """
    unknown = [k for k in given if k not in allowed]
    if unknown:
        raise InputError(
            f"{where}unknown {what}(s) {named(unknown, allowed)}; "
            f"expected some of {', '.join(allowed)}",
            option=str(unknown[0]),
        )


def named(unknown: Sequence[object], allowed: Sequence[str]) -> str:
    """The unknown names, quoted and cut, each with the close legal name if there is one.

    >>> named(["bugdet", 3], ("budget", "order"))
    "'bugdet' (did you mean 'budget'?), 3"
    """
    parts = []
    for k in unknown:
        close = get_close_matches(k, allowed, 1, 0.6) if isinstance(k, str) else []
        parts.append(shown(k) + (f" (did you mean {close[0]!r}?)" if close else ""))
    return ", ".join(parts)
