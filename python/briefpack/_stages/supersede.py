"""Stage 2, supersede: among candidates sharing a ``url`` (or ``doc``), keep the newest.

``updated`` is read as an ISO-8601 date or date-time (``updated_key``) and compared as an
instant: an offset is honoured, no offset means UTC, a date alone is its midnight UTC (a year
or a year-month, ISO's reduced precision, its first day), and an empty ``updated`` is older
than any date. Items older than the newest of their group are dropped
as ``"superseded"`` with the newest item's id and ``updated`` as given (the first of the newest,
in rank order). Ties (the same instant, however written) keep all; an empty url, and a
candidate without a ``doc`` (a document of its own), are never grouped. Every candidate's
``updated`` is parsed at intake, so one that does not parse is an ``InputError`` whichever
candidates an earlier stage dropped. O(n); when no url (or doc) is shared, one count at C speed.

Rejected: ``datetime.fromisoformat``, which accepts more forms on Python 3.11+ than on 3.10
(the package supports both, and an answer must not depend on the interpreter); and comparing
strings, which puts ``2023-9-1`` after ``2023-10-01`` and ``+02:00`` times after later UTC ones.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from operator import attrgetter

from ..types import SupersededDetail
from .context import Item, Request

__all__ = ["FORMS", "run", "updated_key"]

_chunk_url = attrgetter("chunk.url")
_chunk_doc = attrgetter("chunk.doc")

UpdatedKey = tuple[int, int, str]

_ISO = re.compile(
    r"(\d{4})(?:-(\d{2})(?:-(\d{2})"
    r"(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|z|[+-]\d{2}:\d{2})?)?)?)?",
    re.ASCII,
)
FORMS = (
    "2024, 2024-06, 2024-06-30, 2024-06-30T12:00, 2024-06-30T12:00:00Z or "
    "2024-06-30T12:00:00.5+02:00"
)
"""The accepted forms, as error messages show them."""


def updated_key(updated: str) -> UpdatedKey | None:
    """A sort key for ``updated`` that orders instants, or None if it is not ISO-8601.

    The key is ``(0, 0, "")`` for an empty value (oldest), else ``(1, seconds since year 1 UTC,
    fraction digits)``: exact (no float, no microsecond rounding), on every Python version.

    >>> updated_key("2023-05-05T10:00:00+02:00") < updated_key("2023-05-05T09:00:00Z")
    True
    >>> updated_key("2023-05-05T08:00Z") == updated_key("2023-05-05T10:00:00+02:00")
    True
    >>> updated_key("2023-9-1") is None, updated_key("") < updated_key("0001-01-01")
    (True, True)
    """
    if not updated:
        return (0, 0, "")
    m = _ISO.fullmatch(updated)
    if m is None:
        return None
    y, mo, d, hh, mi, ss, frac, zone = m.groups()
    try:
        day = date(int(y), int(mo or 1), int(d or 1)).toordinal()
    except ValueError:  # month 13, February 30, year 0
        return None
    h, mn, s = int(hh or 0), int(mi or 0), int(ss or 0)
    if h > 23 or mn > 59 or s > 59:
        return None
    offset = 0
    if zone and zone not in "Zz":
        oh, om = int(zone[1:3]), int(zone[4:6])
        if oh > 23 or om > 59:
            return None
        offset = (oh * 3600 + om * 60) * (1 if zone[0] == "+" else -1)
    seconds = day * 86400 + h * 3600 + mn * 60 + s - offset
    # fraction digits without trailing zeros compare as strings exactly as the decimals do
    return (1, seconds, (frac or "").rstrip("0"))


def run(items: list[Item], req: Request) -> list[Item]:
    """Drop older versions of the same url / doc."""
    by_url = req.options.supersede == "url"
    keys = req.scratch.updated_keys
    per_key = Counter(map(_chunk_url if by_url else _chunk_doc, items))
    per_key.pop("", None)
    per_key.pop(None, None)
    if max(per_key.values(), default=0) <= 1:
        return items  # no url / doc is shared: nothing to compare (one count at C speed)
    groups: dict[str, list[Item]] = {}
    for it in items:
        key = it.chunk.url if by_url else it.chunk.doc
        if key:
            groups.setdefault(key, []).append(it)
    newest: dict[str, Item] = {}
    for key, group in groups.items():
        best = group[0]
        for it in group[1:]:
            if keys[it.members[0]] > keys[best.members[0]]:
                best = it
        newest[key] = best
    kept = []
    for it in items:
        key = it.chunk.url if by_url else it.chunk.doc
        by = newest.get(key) if key else None
        if key and by is not None and keys[it.members[0]] < keys[by.members[0]]:
            detail: SupersededDetail = {"by": by.chunk.id, "updated": by.chunk.updated}
            if by_url:
                detail["url"] = key
            else:
                detail["doc"] = key
            req.ledger.drop(it, "superseded", detail)
        else:
            kept.append(it)
    return kept
