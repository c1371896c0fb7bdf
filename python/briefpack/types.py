"""The data briefpack takes and gives: candidates in, an explained assembly out."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypedDict, cast

if TYPE_CHECKING:
    from typing_extensions import Self

    from .integrations.chat import Message
    from .pages import PageImage

__all__ = [
    "AssemblyData",
    "Budget",
    "CappedDetail",
    "Chunk",
    "Compression",
    "DropDetail",
    "Dropped",
    "DuplicateDetail",
    "NotSelectedDetail",
    "OverBudgetDetail",
    "Source",
    "SupersededDetail",
]

Reason = Literal["duplicate", "superseded", "capped", "not_selected", "over_budget"]


class _Via(TypedDict, total=False):
    via: str | None
    """Present when the candidate was dropped as part of the parent or span it expanded to."""


class _DuplicateCheck(_Via, total=False):
    check: str
    """A page-hash drop: the check that decided it (``"second_look"``)."""


class DuplicateDetail(_DuplicateCheck):
    """Why a ``"duplicate"``: the kept item's id, the similarity, the method (``"id"`` for a
    repeated id), and for a page-hash drop the ``check`` that decided it."""

    of: str | None
    similarity: float
    method: str


class _SupersededKey(_Via, total=False):
    url: str
    doc: str


class SupersededDetail(_SupersededKey):
    """Why ``"superseded"``: the newer item, its ``updated``, and the shared ``url`` or ``doc``."""

    by: str | None
    updated: str


class CappedDetail(_Via):
    """Why ``"capped"``: the document and the cap."""

    doc: str
    max_per_doc: int


class NotSelectedDetail(_Via):
    """Why ``"not_selected"`` (by MMR): its lambda and k."""

    mmr: float
    mmr_k: int | None


class _OverBudgetWhy(_Via, total=False):
    remaining: int
    after: str
    evicted: bool
    sources_tokens: int
    images: int


class OverBudgetDetail(_OverBudgetWhy):
    """Why ``"over_budget"``: ``remaining`` (it did not fit in what was left), ``images`` (the
    ``Budget.images`` cap its page images would pass), ``after`` (it ranked below the first
    misfit under ``overflow="stop"``) or ``evicted`` (the rendered block was over, with
    ``sources_tokens``), and always the ``context_budget``."""

    context_budget: int


DropDetail = (
    DuplicateDetail | SupersededDetail | CappedDetail | NotSelectedDetail | OverBudgetDetail
)
"""The detail of a ``Dropped``: one ``TypedDict`` per reason."""


# The Rust core's intake builds a Chunk by setting its __dict__ (the measured fast path,
# docs/performance.md): keep it a frozen dataclass without __slots__ or __post_init__.
@dataclass(frozen=True)
class Chunk:
    """One retrieved candidate (or a parent / neighbour it expands to).

    Args:
        text: the passage text.
        id: a stable id; ``None`` becomes the candidate's input index as a string.
        score: the retriever's or reranker's score; reported, not re-sorted on (input order is
            rank order), except after ``rerank``.
        doc: the document it comes from; ``None`` makes it a document of its own.
        position: its position within ``doc`` (for ``order="document"`` and neighbours);
            ``None`` means input order within its document.
        parent: the id of its parent section, for ``assemble(parents=...)``.
        title, url, updated: shown in its label; ``updated`` is an ISO-8601 string.
        tokens: a precomputed token count of ``text`` (trusted; the wrapper is still counted).
        vector: its embedding, for cosine dedupe and MMR.
        meta: anything else, carried through untouched.
        image: a page image: PNG or JPEG bytes, a file path, a numpy ``uint8`` array or a
            ``PageImage``; decoded once when the candidate is checked (``decode_page``), after
            which it is a ``PageImage`` (a merged span of pages: a tuple of them, in order).
            ``text`` is optional on such a candidate (OCR text, shown with the page).
        page: its page number (an int ``>= 0``) or page label (a str such as ``"iv"``), shown
            in its label; a merged span shows ``"first-last"``.

    >>> Chunk("Berlin caps relocation at 4000 EUR.", id="kb/1", score=0.94).doc is None
    True
    >>> Chunk(image=b"...", page=14).text
    ''
    """

    text: str = ""
    id: str | None = None
    score: float | None = None
    doc: str | None = None
    position: int | None = None
    parent: str | None = None
    title: str = ""
    url: str = ""
    updated: str = ""
    tokens: int | None = None
    vector: Any = field(default=None, compare=False, repr=False)
    meta: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    image: Any = field(default=None, compare=False, repr=False)
    page: int | str | None = None

    def __repr__(self) -> str:
        fields = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in dataclasses.fields(self)
            if f.repr and (f.name != "page" or self.page is not None)
        ]
        if self.image is not None:
            fields.append(f"image={self.image!r}")
        return f"Chunk({', '.join(fields)})"

    @property
    def images(self) -> tuple[PageImage, ...]:
        """The page images it carries, in page order (none, one, or a merged span's).

        >>> Chunk("no image").images
        ()
        """
        image = self.image
        if image is None:
            return ()
        return tuple(image) if isinstance(image, tuple) else (image,)

    def replace(self, **changes: Any) -> Chunk:
        """Return a copy with some fields changed.

        >>> Chunk("a", id="1").replace(text="b").text
        'b'
        """
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class Budget:
    """The token budget of one request.

    ``context`` caps the sources block directly; ``window`` is the model's context window, from
    which the answer (``max_output``), a safety ``margin``, the system prompt and the framing
    of the user message (history, question, tags, per-message overhead) are reserved first.
    The context budget is the smaller of the two when both are set. An int budget passed to
    ``assemble`` means ``Budget(context=n)``. ``images`` caps the number of page images
    (``None``: no cap; each image also costs tokens, see ``docs/pages.md``).

    >>> Budget(window=8192, max_output=1024, margin=128).window_left
    7040
    >>> Budget(context=4000, images=3)
    Budget(context=4000, window=None, max_output=0, margin=0, images=3)
    """

    context: int | None = None
    window: int | None = None
    max_output: int = 0
    margin: int = 0
    images: int | None = None

    def __repr__(self) -> str:
        text = (
            f"Budget(context={self.context!r}, window={self.window!r}, "
            f"max_output={self.max_output!r}, margin={self.margin!r}"
        )
        return text + (")" if self.images is None else f", images={self.images!r})")

    @property
    def window_left(self) -> int | None:
        """What the window leaves for system, history, question, framing and sources."""
        if self.window is None:
            return None
        return self.window - self.max_output - self.margin


@dataclass(frozen=True)
class Compression:
    """How a compressed source was cut: its placed text keeps some of its sentences.

    Attributes:
        sentences: how many sentences the uncompressed text has (``split_sentences``).
        kept: the indices of the kept sentences, ascending; the placed text is these
            sentences in this order, adjacent ones joined by their original spacing and
            non-adjacent ones by ``ELISION`` (`` … ``).
        removed: the text of every removed sentence, in order (so a claim about the source
            can be checked against what was cut).
        bridges: the kept sentences (of ``kept``) that were kept as *bridges*
            (``compress_bridge``): they name an entity another source's relevant sentences
            introduce, or are the first sentence of a source another one names by title.

    >>> Compression(3, (0, 2), ("Billing is monthly.",)).removed
    ('Billing is monthly.',)
    """

    sentences: int
    kept: tuple[int, ...]
    removed: tuple[str, ...]
    bridges: tuple[int, ...] = ()


@dataclass(frozen=True)
class Source:
    """One labelled source in the assembled prompt.

    Attributes:
        label: its label: dense in the final order, from 1 (or the ``first_label`` option).
        chunk: what was placed (the candidate, or the parent / merged span it expanded to).
        tokens: the token count of its rendered source block.
        members: the ids of the candidates it stands for (its own id when not expanded).
        member_indices: the input indices of those candidates.
        compression: ``None`` when the whole text was placed; with ``compress=`` on, how the
            text was cut to its relevant sentences (``chunk.text`` is then the cut text; label,
            title, url and updated are the source's own).

    >>> import briefpack as bp
    >>> s = bp.assemble("Cap?", [bp.Chunk("The cap is 4000 EUR.", id="kb/1")], budget=200,
    ...     tokenizer="approx").sources[0]
    >>> s.label, s.chunk.id, s.members
    (1, 'kb/1', ('kb/1',))
    """

    label: int
    chunk: Chunk
    tokens: int
    members: tuple[str, ...]
    member_indices: tuple[int, ...] = ()
    compression: Compression | None = None


@dataclass(frozen=True)
class Dropped:
    """A candidate that did not make it, and why.

    ``reason`` is one of ``"duplicate"``, ``"superseded"``, ``"capped"``, ``"not_selected"``
    (MMR) and ``"over_budget"``; ``detail`` explains, e.g. ``{"of": "kb/1", "similarity":
    0.98, "method": "jaccard"}``.

    >>> import briefpack as bp
    >>> d = bp.assemble("Cap?", ["The cap is 4000 EUR.", "The cap is 4000 EUR."], budget=200,
    ...     tokenizer="approx").dropped[0]
    >>> d.chunk.id, d.reason, d.detail["of"]
    ('1', 'duplicate', '0')
    """

    chunk: Chunk
    reason: Reason
    detail: DropDetail


@dataclass(frozen=True)
class AssemblyData:
    """The fields of an ``Assembly`` (``briefpack.Assembly``), as data: the prompt and the
    account of how it was made. ``briefpack.assembly.Assembly`` adds what needs the record and
    the citations (``record()``, ``to_dict()``, ``from_dict()``, ``cite()``); the pipeline
    builds that class. The fields are documented there.
    """

    system: str
    user: str
    sources: list[Source]
    dropped: list[Dropped]
    tokens: dict[str, int]
    settings: dict[str, Any]
    fates: list[dict[str, Any]]
    question: str
    route: dict[str, Any] | None = None
    empty_reason: str | None = None
    history: list[dict[str, str]] | None = None

    @property
    def messages(self) -> list[Message]:
        """The prompt as chat messages: ``[{"role": "system", ...}, {"role": "user", ...}]``,
        with the history's turns between the two under ``history_turns=True``.

        Always text, also with page images (each marked by a ``<page-image/>`` line in
        ``user``): every framework adapter passes these role/content strings on, and their type
        stays ``str``. ``briefpack.integrations.to_openai`` and ``to_anthropic`` send the
        images themselves, each in place.
        """
        user: Message = {"role": "user", "content": self.user}
        system: Message = {"role": "system", "content": self.system}
        if self.history is None:
            return [system, user]
        turns = [
            cast("Message", {"role": t["role"], "content": t["content"]}) for t in self.history
        ]
        return [system, *turns, user]

    def __getstate__(self) -> dict[str, Any]:
        """Pickle every field with its value (a deferred ``dropped`` or ``fates`` is built)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def _deferred(
        cls,
        *,
        dropped: Callable[[], list[Dropped]],
        fates: Callable[[], list[dict[str, Any]]],
        **fields: Any,
    ) -> Self:
        """An assembly whose ``dropped`` and ``fates`` are built by these functions on first
        read (the pipeline's: most candidates of a large request are dropped, and most callers
        read only the prompt). Equal, in every way a caller can see, to one built with the
        lists."""
        out = cls(dropped=[], fates=[], **fields)
        out.__dict__["dropped"] = _Deferred(dropped)
        out.__dict__["fates"] = _Deferred(fates)
        return out

    def _with(self, **changes: Any) -> Self:
        """``dataclasses.replace`` without building a deferred ``dropped`` or ``fates``."""
        out = object.__new__(type(self))
        out.__dict__.update(self.__dict__)
        for name, value in changes.items():
            object.__setattr__(out, name, value)
        return out


class _Deferred:
    """A value of a field computed on first read (see ``AssemblyData._deferred``)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


class _DeferredField:
    """The descriptor of ``Assembly.dropped`` and ``Assembly.fates``: the stored value, built
    once (thread-safe: two threads that race build equal values) if it was deferred."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:  # no class-level default: the dataclass field stays required
            raise AttributeError(self.name)
        value = obj.__dict__[self.name]
        if type(value) is _Deferred:
            value = value.make()
            obj.__dict__[self.name] = value
        return value

    def __set__(self, obj: object, value: Any) -> None:  # ``__init__`` only: the class is frozen
        obj.__dict__[self.name] = value


for _name in ("dropped", "fates"):
    setattr(AssemblyData, _name, _DeferredField(_name))
del _name


if not TYPE_CHECKING:  # the type checkers see ``briefpack.assembly.Assembly`` itself

    def __getattr__(name: str) -> object:
        """``briefpack.types.Assembly``: the class's serialised path (pickles, Haystack
        snapshots), kept from when it was defined here. The class lives above the record and
        the citations (``briefpack.assembly``); this is the one import from a leaf upwards, and
        it runs only when that path is read."""
        if name == "Assembly":
            from .assembly import Assembly

            return Assembly
        raise AttributeError(f"module 'briefpack.types' has no attribute {name!r}")
