"""Argument checks and their messages, shared by both backends.

The Rust extension's bindings call these same functions when they refuse an argument, so each
message is written once, here, for both backends (``src/checks.rs``).
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .errors import InputError

MAX_SEED = 2**64 - 1
MAX_NUM_PERM = 8192
"""MinHash permutations: 8 bytes of signature per candidate each (and 24 of tables); 8192 is
64 KB per candidate, far past the point where more permutations change a decision."""
MAX_SHINGLE = 1024
"""Words per MinHash shingle; a text shorter than its shingle is one shingle."""
MAX_NEIGHBORS = 10_000
"""Chunks taken either side of a hit (``neighbors``)."""
MAX_SIZE = 2**63 - 1
"""Every other count (``max_per_doc``, ``mmr_k``, the ``Budget`` fields): what a signed 64-bit
integer holds, so a count is never an ``OverflowError`` in either backend."""
ENCODINGS = ("o200k_base", "cl100k_base", "approx")

T = TypeVar("T")
R = TypeVar("R")


def type_name(value: object) -> str:
    return type(value).__name__


# The pipeline (options, candidates, callbacks' results) accepts any real number / integer; the
# kernels' own checks below stay as strict as the Rust core's extraction, which they mirror.


def real(value: object) -> float | None:
    """``value`` as a float if it is a real number (``numbers.Real``: int, float, numpy's
    scalars, Fraction; not a bool), else None. One too large for a float is ``inf`` (so the
    finiteness rules reject it), never an ``OverflowError``.

    >>> import numpy as np
    >>> real(np.float32(0.5)), real(10**400), real(True), real("1")
    (0.5, inf, None, None)
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf  # type: ignore[operator]  # a huge int


def integer(value: object) -> int | None:
    """``value`` as an int if it is an integer (anything with ``__index__``: int, numpy's
    integer scalars; not a bool), else None.

    >>> import numpy as np
    >>> integer(np.int64(7)), integer(7.0), integer(False)
    (7, None, None)
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (an int of 5,000 digits, a long list).

    Never raises: an int too long for Python to print (more than 4,300 digits by default) is
    described by its size, as is a value whose ``repr`` fails.

    >>> shown(10**100, 20)
    '10000000000000000000... (101 characters)'
    >>> shown(10**5000)
    'an int of about 5001 digits'
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4000:
        return f"an int of about {digits(value)} digits"  # converting it is quadratic, or refused
    try:
        text = repr(value)
    except Exception:  # an int too long to print, a repr that raises
        return f"a {type_name(value)} that cannot be shown"
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def digits(value: int) -> int:
    """About how many decimal digits ``value`` has (exact or one too many), without converting
    it to a str (which Python refuses past 4,300 digits).

    >>> digits(1000), digits(10**5000), digits(0)
    (4, 5001, 1)
    """
    return max(1, math.floor(abs(value).bit_length() * math.log10(2)) + 1)


def _among(value: object, legal: Sequence[object]) -> bool:
    """``value in legal`` for a value of any type (one whose ``==`` raises is not among them)."""
    try:
        return any(value is v or bool(value == v) for v in legal)
    except Exception:
        return False


def choice(name: str, value: T, legal: Sequence[object], *, alternative: str = "") -> T:
    """Return ``value`` if it is one of ``legal``, else raise the one "must be one of" message.

    ``alternative`` names what else is accepted (``"or a callable str -> int"``).

    >>> choice("order", "edges", ("relevance", "edges"))
    'edges'
    >>> choice("labels", "html", ("xml", "brackets"))
    Traceback (most recent call last):
    ...
    briefpack.errors.InputError: labels must be one of 'xml', 'brackets', got 'html'
    """
    if not _among(value, legal):
        names = ", ".join(repr(v) for v in legal)
        more = f" {alternative}" if alternative else ""
        raise InputError(f"{name} must be one of {names}{more}, got {shown(value, 200)}")
    return value


def check_encoding(encoding: object, name: str = "encoding") -> str | Callable[[str], int]:
    """Return ``encoding`` if it is a known name or a callable, else raise InputError.

    ``name`` is what the caller called the argument (``assemble`` calls it ``tokenizer``).
    """
    if callable(encoding):
        return encoding
    return check_encoding_name(encoding, name)


def check_encoding_name(encoding: object, name: str = "encoding") -> str:
    """Return ``encoding`` if it is a known encoding's name, else raise InputError."""
    return str(choice(name, encoding, ENCODINGS, alternative="or a callable str -> int"))


def call_back(option: str, where: str, fn: Callable[..., R], *args: Any) -> R:
    """Call the caller's ``option`` callable; an exception it raises becomes an ``InputError``
    naming the callable and ``where`` it was called, chained to the original (``__cause__``).

    The one rule for every callback (``rerank``, ``parents``, ``chunks_of``, a tokenizer);
    ``BaseException``s that are not ``Exception``s (``KeyboardInterrupt``) pass through.

    >>> call_back("rerank", "rerank", lambda q: 1 / 0, "q")
    Traceback (most recent call last):
    ...
    briefpack.errors.InputError: rerank: the rerank callable raised ZeroDivisionError: ...
    """
    try:
        return fn(*args)
    except Exception as exc:
        said = str(exc)
        said = said if len(said) <= 200 else said[:200] + "..."
        raise InputError(
            f"{where}: the {option} callable raised {type_name(exc)}: {said}", option=option
        ) from exc


def count_with(counter: Callable[[str], int], text: str, where: str) -> int:
    """Call a user's tokenizer and check that it returned a non-negative int."""
    got = call_back("tokenizer", where, counter, text)
    n = integer(got)
    if n is None or n < 0:
        raise InputError(
            f"{where}: the tokenizer callable must return an int >= 0, got {shown(got)}"
        )
    if n > MAX_SIZE:  # no text has that many tokens, and no backend can add them up
        raise InputError(
            f"{where}: the tokenizer callable must return an int <= 2**63 - 1, got {shown(got)}"
        )
    return n


def check_unit_interval(name: str, value: object) -> float:
    """Return ``value`` as a float in [0, 1], or raise InputError naming ``name``."""
    x = real(value) if isinstance(value, (int, float)) else None
    if x is None or not (0.0 <= x <= 1.0):  # also rejects NaN
        raise InputError(f"{name} must be a number in [0, 1], got {shown(value, 200)}")
    return x


def check_count(name: str, value: object, *, minimum: int = 0, maximum: int | None = None) -> int:
    """Return ``value`` if it is an int (not a bool) >= ``minimum`` (and <= ``maximum``, when
    given), else raise InputError.

    >>> check_count("num_perm", 10**8, minimum=1, maximum=MAX_NUM_PERM)
    Traceback (most recent call last):
    ...
    briefpack.errors.InputError: num_perm must be an int <= 8192, got 100000000
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name} must be an int >= {minimum}, got {shown(value)}")
    if value < minimum:
        raise InputError(f"{name} must be an int >= {minimum}, got {shown(value)}")
    if maximum is not None and value > maximum:
        raise InputError(f"{name} must be an int <= {maximum}, got {_said_int(value)}")
    return value


def _said_int(value: int) -> str:
    """A too-large int as a message shows it: itself, or its size past 20 digits (never
    converting an int Python refuses to print)."""
    if value < 10**20:
        return repr(value)
    if value.bit_length() > 4000:
        return f"an int of about {digits(value)} digits"
    return f"an int of {len(str(value))} digits"


def check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InputError(f"seed must be an int in [0, 2**64 - 1], got {shown(seed, 200)}")
    return seed


def check_text(where: str, text: object) -> str:
    """Return ``text`` if it is a str of valid Unicode (no lone surrogates)."""
    if not isinstance(text, str):
        raise InputError(f"{where}: text must be a str, got {type_name(text)}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(
            f"{where}: text contains a lone surrogate U+{ord(text[exc.start]):04X} at "
            f"offset {exc.start}; pass valid Unicode (decode with errors='replace')"
        ) from None
    return text


def check_texts(texts: object, name: str = "texts") -> list[str]:
    """Return ``texts`` as a list of valid str, or raise InputError naming the first bad one."""
    if isinstance(texts, (str, bytes)) or not isinstance(texts, Sequence):
        raise InputError(f"{name} must be a list of str, got {type_name(texts)}")
    return [check_text(f"{name}[{i}]", t) for i, t in enumerate(texts)]


def check_scores(scores: object, n: int) -> list[float]:
    """Return ``scores`` as a list of ``n`` finite floats, or raise InputError."""
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence):
        raise InputError(f"scores must be a list of numbers, got {type_name(scores)}")
    out: list[float] = []
    for i, x in enumerate(scores):
        f = real(x) if isinstance(x, (int, float)) else None
        if f is None or not math.isfinite(f):
            raise InputError(f"scores[{i}] must be a finite number, got {shown(x, 200)}")
        out.append(f)
    if len(out) != n:
        raise InputError(
            f"scores has {len(out)} entries but sentences has {n}; pass one score per sentence"
        )
    return out


def check_threshold(threshold: object) -> float:
    """Return ``threshold`` as a float (any number but NaN; infinities allowed)."""
    x = real(threshold) if isinstance(threshold, (int, float)) else None
    if x is None or math.isnan(x):
        raise InputError(f"threshold must be a number (not NaN), got {shown(threshold, 200)}")
    return x


def check_offsets(offsets: object, n: int) -> list[int]:
    """Return group ``offsets`` (``None``: one group) as ints from 0 to ``n``, never decreasing."""
    if offsets is None:
        return [0, n]
    if isinstance(offsets, (str, bytes)) or not isinstance(offsets, Sequence):
        raise InputError(f"offsets must be a list of int, got {type_name(offsets)}")
    out: list[int] = []
    for i, x in enumerate(offsets):
        previous = out[-1] if out else 0
        if isinstance(x, bool) or not isinstance(x, int) or not previous <= x <= n:
            raise InputError(
                f"offsets[{i}] must be an int in [{previous}, {n}] (offsets run from 0 to "
                f"len(sentences) = {n} without decreasing), got {shown(x, 200)}"
            )
        out.append(x)
    if not out or out[0] != 0 or out[-1] != n:
        raise InputError(
            f"offsets must start at 0 and end at len(sentences) = {n} (group g is "
            "sentences[offsets[g]:offsets[g + 1]]; pass None for one group)"
        )
    return out


def check_vectors(vectors: Any, name: str = "vectors") -> list[list[float]]:
    """Return ``vectors`` as a list of equal-length lists of finite floats with non-zero norm.

    Accepts a 2-D numpy array or a sequence of sequences of numbers.
    """
    if hasattr(vectors, "tolist") and hasattr(vectors, "ndim"):
        if vectors.ndim != 2:
            raise InputError(f"{name} must be 2-D (n, dim), got {vectors.ndim}-D")
        rows: list[Any] = vectors.tolist()
    elif isinstance(vectors, (str, bytes)) or not isinstance(vectors, Sequence):
        raise InputError(
            f"{name} must be a 2-D array or a list of vectors, got {type_name(vectors)}"
        )
    else:
        rows = [check_vector(f"{name}[{i}]", v) for i, v in enumerate(vectors)]
    dim = len(rows[0]) if rows else 0
    for i, row in enumerate(rows):
        row = check_vector(f"{name}[{i}]", row)
        if len(row) != dim:
            raise InputError(
                f"{name}[{i}] has dimension {len(row)} but {name}[0] has {dim}; "
                "every vector must have the same dimension"
            )
        rows[i] = row
    return rows


def check_vector(where: str, vector: Any) -> list[float]:
    """Return one vector as a list of floats: non-empty, finite, with a non-zero norm."""
    if hasattr(vector, "tolist") and hasattr(vector, "ndim"):
        if vector.ndim != 1:
            raise InputError(f"{where} must be 1-D, got {vector.ndim}-D")
        vector = vector.tolist()
    if isinstance(vector, (str, bytes)) or not isinstance(vector, Sequence):
        raise InputError(f"{where} must be a sequence of numbers, got {type_name(vector)}")
    out: list[float] = []
    for x in vector:
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise InputError(f"{where} must hold numbers, got {type_name(x)}")
        try:
            out.append(float(x))
        except OverflowError:  # an int too large for a float is not finite
            out.append(math.inf)
    if not out:
        raise InputError(f"{where} is empty; vectors need at least one dimension")
    if not all(math.isfinite(x) for x in out):
        raise InputError(f"{where} holds NaN or infinity; vectors must be finite")
    if not any(out):
        raise InputError(f"{where} has zero norm; cosine is undefined for a zero vector")
    return out
