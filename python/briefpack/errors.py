"""The exceptions briefpack raises, shared by both backends.

The Rust extension raises these same classes (it imports them from this module), so
``except briefpack.InputError`` works whichever backend did the work.
"""

from __future__ import annotations

__all__ = ["BriefpackError", "BudgetError", "CitationError", "InputError"]


class BriefpackError(Exception):
    """Base class for every error briefpack raises.

    >>> import briefpack as bp
    >>> try:
    ...     bp.assemble("Why?", ["Because."], budget=-1)
    ... except bp.BriefpackError as exc:
    ...     type(exc).__name__
    'InputError'
    """


class InputError(BriefpackError, ValueError):
    """A candidate, budget, threshold, vector, encoding or option is invalid.

    The message names the candidate's index and id (where there is one), what is wrong, and
    the way out, e.g. ``candidate 17 (id='kb/42#3'): score must be a finite number, got nan``.
    The same facts are attributes, for programs that must not parse prose: ``index`` and
    ``id`` (the candidate, when one is at fault), ``field`` (its field, e.g. ``"score"``) and
    ``option`` (the option at fault, e.g. ``"order"``); each is ``None`` when it does not apply.

    >>> err = InputError("order must be one of ...", option="order")
    >>> err.option, err.index
    ('order', None)
    """

    def __init__(
        self,
        message: str,
        *,
        index: int | None = None,
        id: str | None = None,
        field: str | None = None,
        option: str | None = None,
    ) -> None:
        super().__init__(message)
        self.index = index
        self.id = id
        self.field = field
        self.option = option

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle with the attributes (a process pool sends errors back to the caller)."""
        return (_input_error, (self.args, self.index, self.id, self.field, self.option))


def _input_error(
    args: tuple[object, ...],
    index: int | None,
    id_: str | None,
    field: str | None,
    option: str | None,
) -> InputError:
    err = InputError(str(args[0]) if args else "", index=index, id=id_, field=field, option=option)
    err.args = args
    return err


class BudgetError(BriefpackError, ValueError):
    """The fixed parts of the prompt (system, history, question) alone exceed the window.

    >>> import briefpack as bp
    >>> try:
    ...     bp.assemble("Why?", ["Because."], budget=bp.Budget(window=60), tokenizer="approx")
    ... except bp.BudgetError:
    ...     "too long"
    'too long'
    """


class CitationError(BriefpackError, ValueError):
    """An answer cites labels that were never in the context (raised by strict ``cite``).

    ``unknown`` holds the offending labels in the order they first appear: ints, or a str of
    digits for a number too long to convert (more than 4,300 digits).

    >>> import briefpack as bp
    >>> a = bp.assemble("Cap?", ["The cap is 4000 EUR."], budget=200, tokenizer="approx")
    >>> try:
    ...     a.cite("It is 4000 EUR [1][7].")
    ... except bp.CitationError as exc:
    ...     exc.unknown
    [7]
    """

    def __init__(self, message: str, unknown: list[int | str] | None = None) -> None:
        super().__init__(message)
        self.unknown: list[int | str] = list(unknown or [])
