"""Turning what callers pass into checked ``Chunk``s, with messages that name the candidate."""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from dataclasses import fields
from difflib import get_close_matches
from typing import Any

from ._checks import MAX_SIZE, check_text, integer, real, shown, type_name
from ._metadata_keys import (
    HAYSTACK_IMPLIED,
    HAYSTACK_KEYS,
    LANGCHAIN_IMPLIED,
    LANGCHAIN_KEYS,
    LLAMAINDEX_KEYS,
    PAGE_KEYS,
    implied_fields,
)
from .errors import InputError
from .pages import MAX_PAGE_PIXELS, DecodeBudget, PageImage, decode_page
from .types import Chunk

__all__ = ["CHUNK_FIELDS", "automatic_id", "describe", "iso_updated", "to_chunk", "to_chunks"]

CHUNK_FIELDS = tuple(f.name for f in fields(Chunk))
_PAGE_FIELDS = ("image", "page")
_TEXT_FIELDS = tuple(f for f in CHUNK_FIELDS if f not in _PAGE_FIELDS)
"""Listed when an unknown key looks like no page field (so that message reads as it did
before pages existed)."""
_STR_FIELDS = ("title", "url", "updated")
_MAX_ID_BITS = 3321
"""An int id or doc has at most 1,000 digits (3,321 bits): a longer one is refused (Python
cannot convert more than 4,300 digits to a str, and an id of that length is no id)."""


def iso_updated(value: object) -> object:
    """``updated`` as ISO-8601 text when it is a date or a timestamp; anything else unchanged.

    Data frames and Arrow read a date column (``"2025-06-26"``) as a timestamp, so ``updated``
    may arrive as a ``datetime.date``, a ``datetime.datetime`` (``pandas.Timestamp`` is one),
    a numpy ``datetime64`` or an Arrow date/timestamp scalar. The rule:

    * a date is ``YYYY-MM-DD``;
    * a naive datetime at exactly midnight is its date, ``YYYY-MM-DD`` (a date column read as
      a timestamp cannot be told from a timestamp at 00:00:00, and both name that day);
    * any other naive datetime is ``YYYY-MM-DDTHH:MM:SS`` (``.ffffff`` when it has
      microseconds; nanoseconds are dropped), with no zone, as given;
    * an aware datetime is converted to UTC and written with ``Z``, time always shown;
    * a missing value (``NaT``) is ``""`` (no date).

    >>> iso_updated(_dt.date(2025, 6, 26)), iso_updated(_dt.datetime(2025, 6, 26))
    ('2025-06-26', '2025-06-26')
    >>> iso_updated(_dt.datetime(2025, 6, 26, 9, 30))
    '2025-06-26T09:30:00'
    >>> iso_updated(_dt.datetime(2025, 6, 26, 2, tzinfo=_dt.timezone(_dt.timedelta(hours=2))))
    '2025-06-26T00:00:00Z'
    >>> iso_updated("2024-06"), iso_updated(3)
    ('2024-06', 3)
    """
    if isinstance(value, str) or value is None:
        return value
    kind = type(value)
    module = kind.__module__.partition(".")[0]
    if module == "pyarrow" and hasattr(value, "as_py"):  # an Arrow scalar
        return iso_updated(value.as_py())
    if module == "numpy" and kind.__name__ == "datetime64":
        return _from_datetime64(value)
    if isinstance(value, _dt.datetime):
        if value != value:  # pandas.NaT
            return ""
        return _from_datetime(value)
    if isinstance(value, _dt.date):
        return value.isoformat()
    return value


def _from_datetime(value: _dt.datetime) -> str:
    if value.tzinfo is not None and value.utcoffset() is not None:
        utc = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        spec = "seconds" if utc.microsecond == 0 else "microseconds"
        return _dt.datetime.isoformat(utc, timespec=spec) + "Z"
    if (value.hour, value.minute, value.second, value.microsecond) == (0, 0, 0, 0):
        return _dt.date.isoformat(value.date())
    spec = "seconds" if value.microsecond == 0 else "microseconds"
    # the base class's isoformat: pandas.Timestamp's own would add nanoseconds and a space
    return _dt.datetime.isoformat(value.replace(tzinfo=None), timespec=spec)


def _from_datetime64(value: Any) -> object:
    text = str(value)
    if text == "NaT":
        return ""
    if "T" not in text:  # a day (or a coarser unit: a month, a year) as numpy writes it
        return text
    micro = value.astype("datetime64[us]").item()
    return _from_datetime(micro) if isinstance(micro, _dt.datetime) else value


def describe(index: int, cid: object) -> str:
    """How messages name a candidate: ``candidate 3 (id='kb/1')`` (an id too long to print,
    such as an int of 5,000 digits, by its size).

    >>> describe(3, "kb/1"), describe(4, 10**5000)
    ("candidate 3 (id='kb/1')", 'candidate 4 (id=an int of about 5001 digits)')
    """
    return (
        f"candidate {index} (id={cid!r})"
        if isinstance(cid, str)
        else f"candidate {index} (id={shown(cid, 200)})"
    )


def _from_mapping(obj: Mapping[str, Any], where: str) -> Chunk:
    """A candidate mapping: ``Chunk``'s keys, and any other key kept in ``meta``.

    This is the one rule for a candidate row, whatever the entry point (``assemble``, the
    command line's JSONL, ``evaluate``'s requests, Ray's ``AssembleBatch``): a key that is not
    one of ``CHUNK_FIELDS`` is kept under ``meta`` with its value; when the row also has a
    ``meta`` mapping, both are kept and ``meta``'s own value wins a key given twice.
    """
    unknown = [k for k in obj if k not in CHUNK_FIELDS]
    if unknown:
        given = obj.get("meta")
        if given is not None and not isinstance(given, Mapping):
            raise InputError(
                f"{where}: meta must be a mapping or None, got {type_name(given)} (keys that "
                f"are not Chunk's, here {', '.join(map(repr, unknown[:3]))}, go into meta)",
                field="meta",
            )
        known = {k: obj[k] for k in CHUNK_FIELDS if k in obj}
        known["meta"] = {**{k: obj[k] for k in unknown}, **(given or {})}
        obj = known
    if "text" not in obj and obj.get("image") is None:
        if unknown:  # perhaps a misspelt field: say where the keys went and what is legal
            close = any(get_close_matches(str(k).lower(), _PAGE_FIELDS, 1, 0.6) for k in unknown)
            legal = CHUNK_FIELDS if close else _TEXT_FIELDS
            raise InputError(
                f"{where}: text is missing; a candidate mapping may have {', '.join(legal)} "
                f"(put anything else under 'meta', where {', '.join(map(repr, unknown[:3]))} "
                "went)",
                field="text",
            )
        raise InputError(f"{where}: text is missing", field="text")
    return Chunk(**obj)


def _from_document(obj: Any) -> Chunk:
    """A LangChain-style object: ``page_content`` plus a ``metadata`` dict, its fields read as
    ``briefpack.integrations.langchain.to_chunks`` reads them (``LANGCHAIN_KEYS``: a value of
    the wrong type is skipped; a PDF loader's 0-based ``page`` plus one; the file name of a
    ``source`` path as the title). ``id`` (``obj.id``, else ``metadata["id"]``), ``score``
    and ``metadata["vector"]`` are taken as given and checked as a candidate's."""
    meta = dict(getattr(obj, "metadata", None) or {})
    cid = getattr(obj, "id", None) or meta.get("id")
    fields = _picked(meta, _LANGCHAIN_KEYS)
    fields.update(implied_fields(meta, fields, LANGCHAIN_IMPLIED))
    return Chunk(
        text=obj.page_content,
        id=cid,
        score=meta.get("score", meta.get("relevance_score")),
        vector=meta.get("vector"),
        meta=meta,
        **fields,
    )


_HAYSTACK_KEYS = {**HAYSTACK_KEYS, "page": PAGE_KEYS}
_LLAMAINDEX_KEYS = LLAMAINDEX_KEYS
_LANGCHAIN_KEYS = {k: v for k, v in LANGCHAIN_KEYS.items() if k not in ("id", "score")}
"""The adapters' default metadata keys (``_metadata_keys``: one table for both), for their
objects passed to ``assemble`` directly."""


def _count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


_KEY_CHECKS: dict[str, Callable[[object], bool]] = {
    "doc": lambda v: isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool)),
    "parent": lambda v: isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool)),
    "position": _count,
    "tokens": _count,
    "title": lambda v: isinstance(v, str),
    "url": lambda v: isinstance(v, str),
    "updated": lambda v: isinstance(v, str),
    "page": lambda v: (isinstance(v, str) and bool(v.strip())) or _count(v),
}


def _picked(meta: Mapping[str, Any], keys: Mapping[str, tuple[str, ...]]) -> dict[str, Any]:
    """The fields a framework's metadata sets, as the adapters read them (the first present
    value of the right type under each field's keys; another type is skipped)."""
    out: dict[str, Any] = {}
    for name, names in keys.items():
        for key in names:
            value = meta.get(key)
            if name == "updated":
                value = iso_updated(value)
            if value is not None and _KEY_CHECKS[name](value):
                out[name] = str(value) if name in ("doc", "parent") else value
                break
    return out


def _framework(obj: object) -> str:
    return type(obj).__module__.partition(".")[0]


def _from_haystack(obj: Any) -> Chunk:
    """A Haystack ``Document`` (as ``briefpack.integrations.haystack.to_chunks`` reads it)."""
    meta = obj.meta or {}
    fields = _picked(meta, _HAYSTACK_KEYS)
    fields.update(implied_fields(meta, fields, HAYSTACK_IMPLIED))
    return Chunk(
        obj.content or "", id=obj.id, score=obj.score, vector=obj.embedding, meta=meta, **fields
    )


def _from_llamaindex(obj: Any) -> Chunk:
    """A LlamaIndex node or ``NodeWithScore`` (as ``integrations.llamaindex.node_chunk``)."""
    from llama_index.core.schema import MetadataMode

    score = None
    if hasattr(obj, "node") and hasattr(obj, "score"):  # a NodeWithScore
        obj, score = obj.node, obj.score
    meta = obj.metadata or {}
    fields = _picked(meta, _LLAMAINDEX_KEYS)
    if "doc" not in fields and obj.ref_doc_id is not None:
        fields["doc"] = str(obj.ref_doc_id)
    start = getattr(obj, "start_char_idx", None)
    if "position" not in fields and _count(start):
        fields["position"] = start
    if obj.parent_node is not None:
        fields["parent"] = str(obj.parent_node.node_id)
    return Chunk(
        obj.get_content(metadata_mode=MetadataMode.NONE),
        id=str(obj.node_id),
        score=score,
        vector=obj.embedding,
        meta=meta,
        **fields,
    )


def _as_id(value: object, name: str, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(
            f"{where}: {name} must be a str (or int), got {type_name(value)}", field=name
        )
    if isinstance(value, str):
        _check_field(f"{where}: {name}", value, name)
        return str(value)
    if value.bit_length() > _MAX_ID_BITS:  # Python refuses to print it (past 4,300 digits)
        raise InputError(
            f"{where}: {name} must be a str or an int of at most 1,000 digits, got "
            f"{shown(value)}; pass a long id as a str",
            field=name,
        )
    return str(value)


def _meta_strings(meta: Mapping[Any, Any]) -> Iterator[tuple[str, str]]:
    """Every str in ``meta`` (keys and values, through nested mappings, lists and tuples) with
    its path; each container is visited once, so a cycle ends."""
    stack: list[tuple[str, object]] = [("meta", meta)]
    seen: set[int] = set()
    while stack:
        path, node = stack.pop()
        if isinstance(node, str):
            yield path, node
        elif isinstance(node, (Mapping, list, tuple)) and id(node) not in seen:
            seen.add(id(node))
            if isinstance(node, Mapping):
                for k, v in node.items():
                    if isinstance(k, str):
                        yield f"{path} key", k
                    stack.append((f"{path}[{k!r}]", v))
            else:
                stack.extend((f"{path}[{i}]", v) for i, v in enumerate(node))


def _check_meta(where: str, meta: Mapping[Any, Any]) -> None:
    """Reject lone surrogates anywhere in ``meta`` (the record could not be encoded)."""
    for path, text in _meta_strings(meta):
        if not text.isascii():
            _check_field(f"{where}: {path}", text, "meta")


def _check_field(where: str, text: object, field: str) -> None:
    try:
        check_text(where, text)
    except InputError as exc:
        exc.field = field
        raise


Intake = Callable[[list[object]], tuple[list[Chunk | None], list[int]]]
"""The backend's fast path (``Kernels.intake``, see ``briefpack.reference.intake``)."""


def to_chunks(
    candidates: Sequence[object],
    intake: Intake,
    *,
    max_pixels: int = MAX_PAGE_PIXELS,
    budget: DecodeBudget | None = None,
) -> list[Chunk]:
    """``[to_chunk(c, i) for i, c in enumerate(candidates)]``, with the same result and the same
    first error, but the candidates that need no conversion (``Chunk``s as they are, plain
    dicts built in one step) are taken by the backend's ``intake`` in one call, which also
    gives their automatic ids when it took them all.

    The full check converts (or rejects) only what ``intake`` did not take, in input order:
    every candidate it took is valid, so the first of these to fail is the first error.
    Page images are decoded with ``max_pixels`` each and ``budget`` for all of them (the
    request's ``DecodeBudget``; ``to_chunk``).

    >>> from briefpack._backend import get_kernels
    >>> [(c.id, c.text) for c in to_chunks([{"text": "a"}, "b"], get_kernels("auto").intake)]
    [('0', 'a'), ('1', 'b')]
    """
    given = candidates if type(candidates) is list else list(candidates)
    chunks, misses = intake(given)
    if not misses:
        return chunks  # type: ignore[return-value]  # every one taken
    for i in misses:
        chunks[i] = to_chunk(given[i], i, resolve=False, max_pixels=max_pixels, budget=budget)
    return _resolved(chunks)  # type: ignore[arg-type]  # no None left


def automatic_id(index: int, given: Container[str]) -> str:
    """The id of a candidate given without one: its input index as a string, or, when another
    candidate was given that id, the index behind as many ``#`` as it takes to be new.

    >>> automatic_id(0, set()), automatic_id(0, {"0"}), automatic_id(0, {"0", "#0"})
    ('0', '#0', '##0')
    """
    cid = str(index)
    while cid in given:
        cid = "#" + cid
    return cid


def _resolved(chunks: list[Chunk]) -> list[Chunk]:
    """Give each chunk without an id its automatic id (never one a candidate was given)."""
    given = {c.id for c in chunks if c.id is not None}
    out = []
    for i, c in enumerate(chunks):
        if c.id is None:
            c = c.replace(id=automatic_id(i, given))
        out.append(c)
    return out


def to_chunk(
    obj: object,
    index: int,
    name: str | None = None,
    *,
    resolve: bool = True,
    max_pixels: int = MAX_PAGE_PIXELS,
    budget: DecodeBudget | None = None,
) -> Chunk:
    """Check one candidate and return it as a ``Chunk`` with ``id`` resolved.

    ``id=None`` becomes the input index as a string (``to_chunks`` makes sure no other
    candidate was given that id: see ``automatic_id``); ``doc=None`` stays None: the candidate
    is a document of its own (``doc_key``), never equal to a named one. Accepts a ``Chunk``, a
    mapping with ``Chunk``'s keys, a plain ``str`` (the text), or a LangChain-style object with
    ``page_content`` and ``metadata``. Messages name it ``candidate <index> (id=...)``, or
    ``name`` when given (for chunks that are not candidates: parents, ``chunks_of`` entries).
    ``resolve=False`` checks the fields but leaves ``id`` as given. A page image is decoded
    (``decode_page``) with ``max_pixels`` and charged to ``budget`` (a request's
    ``DecodeBudget``; a fresh one when omitted).

    An ``InputError`` about a candidate also carries its ``index``, ``id`` and ``field``.

    >>> c = to_chunk({"text": "hi", "score": 0.5}, 3)
    >>> c.id, c.doc, c.score
    ('3', None, 0.5)
    """
    try:
        return _to_chunk(obj, index, name, resolve, max_pixels, budget)
    except InputError as exc:
        if name is None and exc.index is None:
            raw = getattr(obj, "id", None) if not isinstance(obj, Mapping) else obj.get("id")
            exc.index = index
            exc.id = raw if isinstance(raw, str) or raw is None else _id_text(raw)
        raise


def _coerce(obj: object, where: str) -> Chunk:
    """The Chunk a candidate stands for (a Chunk, a str, a mapping or a document)."""
    if isinstance(obj, Chunk):
        return obj
    if isinstance(obj, str):
        return Chunk(obj)
    if isinstance(obj, Mapping):
        return _from_mapping(obj, where)
    if hasattr(obj, "page_content"):
        return _from_document(obj)
    framework = _framework(obj)
    if framework == "haystack" and hasattr(obj, "content") and hasattr(obj, "meta"):
        return _from_haystack(obj)
    if framework == "llama_index" and (
        hasattr(obj, "get_content") or hasattr(getattr(obj, "node", None), "get_content")
    ):
        return _from_llamaindex(obj)
    raise InputError(  # (Haystack Documents and LlamaIndex nodes are taken too)
        f"{where}: a candidate must be a Chunk, a mapping, a str or an object with "
        f"page_content, got {type_name(obj)}"
    )


def _check_score(chunk: Chunk, where: str) -> float | None:
    """The chunk's score as a finite float, or None."""
    score = None if chunk.score is None else real(chunk.score)
    if chunk.score is not None and (score is None or not math.isfinite(score)):
        raise InputError(
            f"{where}: score must be a finite number or None, got {shown(chunk.score)}",
            field="score",
        )
    return score


def _check_counts(chunk: Chunk, where: str) -> dict[str, int | None]:
    """The chunk's ``position`` and ``tokens`` as ints in [0, 2**63 - 1], or None."""
    counts: dict[str, int | None] = {}
    for name in ("position", "tokens"):
        value = getattr(chunk, name)
        counts[name] = None if value is None else integer(value)
        if value is not None and (counts[name] is None or value < 0):
            raise InputError(
                f"{where}: {name} must be an int >= 0 or None, got {shown(value)}", field=name
            )
        if value is not None and value > MAX_SIZE:  # what both backends can count with
            raise InputError(
                f"{where}: {name} must be an int <= 2**63 - 1 or None, got {shown(value)}",
                field=name,
            )
    return counts


def _check_strs_and_meta(chunk: Chunk, where: str) -> None:
    """The chunk's str fields (None reads as "") and its meta mapping are well formed."""
    for name in _STR_FIELDS:
        value = getattr(chunk, name)
        if name == "updated":
            value = iso_updated(value)
        if value is None:
            value = ""
        if not isinstance(value, str):
            also = " (or a date, a datetime or a timestamp)" if name == "updated" else ""
            raise InputError(
                f"{where}: {name} must be a str{also}, got {type_name(value)}", field=name
            )
        _check_field(f"{where}: {name}", value, name)
    if chunk.meta is not None and not isinstance(chunk.meta, Mapping):
        raise InputError(
            f"{where}: meta must be a mapping or None, got {type_name(chunk.meta)}", field="meta"
        )
    if chunk.meta:
        _check_meta(where, chunk.meta)


def _to_chunk(
    obj: object,
    index: int,
    name: str | None,
    resolve: bool,
    max_pixels: int,
    budget: DecodeBudget | None,
) -> Chunk:
    raw_id = getattr(obj, "id", None) if not isinstance(obj, Mapping) else obj.get("id")
    where = describe(index, raw_id) if name is None else name
    chunk = _coerce(obj, where)
    cid = _as_id(chunk.id, "id", where)
    where = describe(index, cid) if name is None else name
    _check_field(where, chunk.text, "text")
    doc = _as_id(chunk.doc, "doc", where)
    parent = _as_id(chunk.parent, "parent", where)
    score = _check_score(chunk, where)
    counts = _check_counts(chunk, where)
    _check_strs_and_meta(chunk, where)
    page = _check_page(chunk.page, where)
    image = chunk.image
    if image is not None and not _decoded_span(image):
        try:
            image = decode_page(image, where=where, max_pixels=max_pixels, budget=budget)
        except InputError as exc:
            exc.field = "image"
            raise
    if resolve:
        cid = str(index) if cid is None else cid
    return Chunk(
        text=chunk.text,
        id=cid,
        score=score,
        doc=doc,
        position=counts["position"],
        parent=parent,
        title=chunk.title or "",
        url=chunk.url or "",
        updated=iso_updated(chunk.updated) or "",  # type: ignore[arg-type]  # checked above
        tokens=counts["tokens"],
        vector=chunk.vector,
        meta=chunk.meta,
        image=image,
        page=page,
    )


def _id_text(raw: object) -> str:
    """A given id as an error's ``id`` attribute: its str, or how messages show it when that
    cannot be had (an int too long to convert, an object whose ``str`` raises)."""
    if isinstance(raw, int) and raw.bit_length() > _MAX_ID_BITS:
        return shown(raw)
    try:
        return str(raw)
    except Exception:
        return shown(raw)


def _decoded_span(image: object) -> bool:
    """A merged span's images: a non-empty tuple of ``PageImage``s (already decoded)."""
    return isinstance(image, tuple) and bool(image) and all(isinstance(p, PageImage) for p in image)


def _check_page(page: object, where: str) -> int | str | None:
    """A page number (an int >= 0) or a non-empty page label (a str), or None."""
    if page is None:
        return None
    if isinstance(page, int) and not isinstance(page, bool) and page > MAX_SIZE:
        raise InputError(
            f"{where}: page must be an int <= 2**63 - 1, got {shown(page)}", field="page"
        )
    if isinstance(page, int) and not isinstance(page, bool) and page >= 0:
        return page
    if isinstance(page, str) and page.strip():
        _check_field(f"{where}: page", page, "page")
        return page
    raise InputError(
        f"{where}: page must be an int >= 0, a non-empty str (a page label) or None, got "
        f"{shown(page, 200)}",
        field="page",
    )
