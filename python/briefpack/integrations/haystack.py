"""Haystack: briefpack as a pipeline component, in place of a ranker plus a prompt builder.

``BriefpackPromptBuilder`` takes the retrieved ``documents`` and the ``query`` and returns the
finished prompt: ``prompt`` (system + user ``ChatMessage``s, named and typed as
``ChatPromptBuilder``'s output, for a chat generator's ``messages``), ``text`` (one string,
for a text generator's ``prompt``), ``documents`` (the placed sources, in their final order,
for answer builders and citations) and the ``assembly`` (the full account: drops, token
counts, ``record()``, ``cite()``). ``documents`` takes any number of senders (a BM25 and an
embedding retriever, say) and fuses their lists by reciprocal rank fusion (``join``). It
replaces ``DocumentJoiner``, ``LostInTheMiddleRanker`` and the ``PromptBuilder`` /
``ChatPromptBuilder`` after them, and adds what they leave out: near-duplicate removal, a
per-document cap and a token budget instead of a word count.

Needs ``haystack-ai``: ``pip install 'briefpack[haystack]'``.
"""

import copy
import dataclasses
import json
from collections.abc import Iterable
from typing import Any

try:
    from haystack import Document, component, default_from_dict, default_to_dict
    from haystack.core.component.types import Variadic
    from haystack.dataclasses import ChatMessage
    from haystack.tracing.tracer import NullSpan
    from haystack.tracing.tracer import tracer as haystack_tracer
    from haystack.utils import deserialize_callable, serialize_callable
except ImportError as exc:  # pragma: no cover - exercised by test_missing_extra
    from ._common import missing_extra

    raise missing_extra("haystack", "haystack-ai", "haystack") from exc

from collections.abc import Mapping, Sequence

from .._checks import check_count, choice
from .._metadata_keys import HAYSTACK_IMPLIED, HAYSTACK_KEYS, Implied, implied_fields
from ..assembly import Assembly
from ..errors import InputError
from ..types import Budget, Chunk
from ._common import (
    DEFAULTS,
    LOG,
    annotation,
    build,
    check_overrides,
    member_index,
    merge_keys,
    note_vectors,
    pick_fields,
    run_timed,
    shown,
    tokenizer_name,
    untouched,
)
from ._trace import Timed

__all__ = [
    "DEFAULT_KEYS",
    "JOINS",
    "SUMMARY_TAG",
    "TRACES",
    "BriefpackPromptBuilder",
    "join_documents",
    "to_chunks",
]

JOINS = ("rrf", "concatenate", "score")
"""How ``BriefpackPromptBuilder`` reads documents from several senders (``join_documents``)."""
TRACES = ("summary", "record")
"""What a trace holds of the ``assembly`` output: ``trace_summary``'s dict, or the record."""
SUMMARY_TAG = "briefpack.summary"
"""The span tag that holds each run's ``trace_summary`` (set whenever tracing is on)."""

DEFAULT_KEYS: Mapping[str, tuple[str, ...]] = HAYSTACK_KEYS
"""Where a ``Document``'s ``meta`` holds each ``Chunk`` field, tried in turn.

``source_id`` and ``split_id`` are what ``DocumentSplitter`` sets, ``__parent_id`` what
``HierarchicalDocumentSplitter`` sets, ``file_path`` what the file converters set (its file
name is also the title of a document without a ``title``). Besides
``meta``: ``id`` is ``Document.id``, ``score`` ``Document.score`` and ``vector``
``Document.embedding`` (so ``dedupe="auto"`` compares by cosine when every document has one).
"""

_ANNOTATION_KEY = "briefpack"
_CALLABLE_KEY = "callable"
_NO_VECTORS_HINT = (
    "the embedding retrievers return documents without embeddings unless built with "
    "return_embedding=True"
)


def to_chunks(
    documents: Sequence[Document], *, keys: Mapping[str, Any] | None = None
) -> list[Chunk]:
    """Turn Haystack ``Document``s into briefpack ``Chunk``s (``meta`` carried through).

    >>> from haystack import Document
    >>> [c] = to_chunks([Document(content="Leave is 14 weeks.", id="d1", score=0.7,
    ...                           meta={"source_id": "hr", "split_id": 3})])
    >>> c.id, c.score, c.doc, c.position
    ('d1', 0.7, 'hr', 3)
    >>> [c] = to_chunks([Document(content="Caps.", meta={"file_path": "hr/report.pdf",
    ...                                                  "page_number": 14})])
    >>> c.title, c.page
    ('report.pdf', 14)

    A document without text (``content=None``: an image or a blob) has nothing to put in a
    prompt; ``BriefpackPromptBuilder`` leaves such documents out before calling this.
    """
    return _chunks(documents, keys, [_KEPT] * len(documents))


def _chunks(
    documents: Sequence[Document], keys: Mapping[str, Any] | None, scores: Sequence[Any]
) -> list[Chunk]:
    """``to_chunks``, each with its score from ``scores`` (``_KEPT``: the document's own)."""
    where = merge_keys(DEFAULT_KEYS, keys)
    implied = Implied() if keys and "title" in keys else HAYSTACK_IMPLIED
    out = []
    for d, score in zip(documents, scores):
        meta = d.meta or {}
        fields = pick_fields(meta, where)
        fields.update(implied_fields(meta, fields, implied))  # the file's name as the title
        out.append(
            Chunk(
                d.content or "",
                id=d.id,
                score=d.score if score is _KEPT else score,
                vector=d.embedding,
                meta=meta,
                **fields,
            )
        )
    return out


def join_documents(
    lists: Sequence[Sequence[Document]], join: str = "rrf", *, rrf_k: int = 60
) -> list[Document]:
    """One ranked list from several retrievers' lists (best first), each document once.

    ``"rrf"`` (reciprocal rank fusion): a document scores ``sum(1 / (rrf_k + rank))`` over
    the lists it is in (rank from 1), and comes back with that score (``Document.score``),
    best first; ties go to the better best rank, then the earlier list. ``"concatenate"``:
    the lists one after another. ``"score"``: by ``Document.score``, highest first (``None``
    last; ties keep list order); only meaningful when the retrievers' scores are comparable,
    which BM25 and cosine scores are not. Documents with the same ``id`` are one document: the
    copy at its best rank is kept (for ``"score"``, its highest score). O(total · log).

    >>> from haystack import Document
    >>> bm25 = [Document(id="a", content="A"), Document(id="b", content="B")]
    >>> dense = [Document(id="b", content="B"), Document(id="c", content="C")]
    >>> [d.id for d in join_documents([bm25, dense])]
    ['b', 'a', 'c']
    >>> [d.id for d in join_documents([bm25, dense], "concatenate")]
    ['a', 'b', 'c']
    """
    return [
        doc if score is _KEPT else dataclasses.replace(doc, score=score)
        for doc, score in _fused(lists, join, rrf_k)
    ]


_KEPT = object()
"""``_fused``'s score of a document whose own score stands (``"concatenate"``, ``"score"``)."""


def _fused(
    lists: Sequence[Sequence[Document]], join: str, rrf_k: int
) -> list[tuple[Document, Any]]:
    """``join_documents`` as (document, its fused score or ``_KEPT``) pairs: a new ``Document``
    costs ~100 us in Haystack, so ``run`` copies only the placed ones."""
    choice("join", join, JOINS)
    k = check_count("rrf_k", rrf_k)
    # per id: (fused score, best rank, list of the best rank, position in that list, document)
    seen: dict[str, list[Any]] = {}
    position = 0
    for li, docs in enumerate(lists):
        for rank, doc in enumerate(docs, start=1):
            position += 1
            if join == "score":
                key = (doc.score is not None, doc.score if doc.score is not None else 0.0)
                entry = seen.get(doc.id)
                if entry is None or key > entry[0]:
                    seen[doc.id] = [key, rank, li, position if entry is None else entry[3], doc]
                continue
            entry = seen.get(doc.id)
            if entry is None:
                seen[doc.id] = [1.0 / (k + rank), rank, li, position, doc]
                continue
            entry[0] += 1.0 / (k + rank)
            if rank < entry[1]:
                entry[1], entry[2], entry[4] = rank, li, doc
    entries = list(seen.values())
    if join == "concatenate":
        return [(e[4], _KEPT) for e in entries]  # first appearance, the best-ranked copy
    if join == "score":
        entries.sort(key=lambda e: (not e[0][0], -e[0][1], e[3]))
        return [(e[4], _KEPT) for e in entries]
    entries.sort(key=lambda e: (-e[0], e[1], e[2], e[3]))
    return [(e[4], e[0]) for e in entries]


def _senders(documents: Any) -> list[list[Document]]:
    """The ``documents`` input as one list per sender (a pipeline passes a list of lists; a
    direct ``run`` call may pass one list)."""
    if isinstance(documents, (str, bytes)) or not isinstance(documents, Iterable):
        raise InputError(f"documents must be a list of Documents, got {shown(documents)}")
    parts = list(documents)
    if all(isinstance(d, Document) for d in parts):
        return [parts] if parts else []
    out = []
    for i, part in enumerate(parts):
        part = part if isinstance(part, list) else None
        if part is None or not all(isinstance(d, Document) for d in part):
            raise InputError(
                f"documents[{i}] must be a list of Documents (one per sender), got "
                f"{shown(parts[i])}"
            )
        out.append(part)
    return out


def _content(m: ChatMessage) -> str:
    """A message's text, with its tool calls and tool results written out."""
    parts = [m.text] if m.text else []
    for call in m.tool_calls:
        parts.append(f"[tool call {call.tool_name}({json.dumps(call.arguments, sort_keys=True)})]")
    for result in m.tool_call_results:
        parts.append(f"[tool result {result.origin.tool_name}] {result.result}")
    return "\n".join(parts)


def _history(history: list[ChatMessage] | None) -> list[dict[str, str]] | None:
    if not history:
        return None
    return [{"role": m.role.value, "content": _content(m)} for m in history]


class _Traced:
    """The traced form of a run's ``assembly`` output (Haystack's ``_to_trace_dict`` hook,
    which its tracers read instead of ``to_dict``): ``trace_summary``'s dict, or with
    ``trace="record"`` the record. ``to_dict`` (snapshots) is not affected."""

    __slots__ = ("done", "full")

    def __init__(self, done: Timed, full: bool) -> None:
        self.done = done
        self.full = full

    def __call__(self) -> dict[str, Any]:
        return self.done.assembly.record() if self.full else self.done.summary()


def _trace(done: Timed, full: bool) -> None:
    """Tag the current span with the run's summary, and make the ``assembly`` output trace as
    the summary (or the record) instead of the whole ``to_dict``: 65 KB for 30 documents."""
    traced = _Traced(done, full)
    object.__setattr__(done.assembly, "_to_trace_dict", traced)  # not a field: eq, pickle unchanged
    span = haystack_tracer.current_span()
    if span is not None and not isinstance(span, NullSpan):
        span.set_tag(SUMMARY_TAG, done.summary())


def _callable_out(where: str, value: Any) -> Any:
    """A callable as ``{"callable": "module.name"}`` (Haystack's ``serialize_callable``)."""
    if isinstance(value, dict):
        return {k: _callable_out(f"{where}[{k!r}]", v) for k, v in value.items()}
    if callable(value) and not isinstance(value, type):
        try:
            return {_CALLABLE_KEY: serialize_callable(value)}
        except Exception as exc:
            raise InputError(
                f"{where}: {shown(value)} cannot be serialised ({exc}); use a module-level "
                "function, or an encoding or model name for the tokenizer"
            ) from None
    return value


def _callable_in(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {_CALLABLE_KEY} and isinstance(value[_CALLABLE_KEY], str):
            return deserialize_callable(value[_CALLABLE_KEY])
        return {k: _callable_in(v) for k, v in value.items()}
    return value


@component
class BriefpackPromptBuilder:
    """Dedupe, cap, budget, order and label documents into a prompt (briefpack ``assemble``).

    Args:
        budget: context tokens (int) or a ``briefpack.Budget``.
        order, dedupe, threshold, max_per_doc, tokenizer, system, instructions, labels:
            ``assemble``'s options.
        options: any other ``assemble`` keyword (``mmr``, ``supersede``, ``backend``, ...).
        keys: overrides of ``DEFAULT_KEYS`` (where ``meta`` holds doc, position, title, ...).
        annotate: add ``meta["briefpack"] = {"label", "members", "tokens"}`` to the returned
            documents (as copies; the input documents are never changed).
        join: how documents from several senders (a BM25 and an embedding retriever both
            connected to ``documents``) become one ranked list: ``"rrf"`` (reciprocal rank
            fusion, the default), ``"concatenate"`` or ``"score"`` (see ``join_documents``).
            One sender's list is read as given.
        rrf_k: the ``k`` of reciprocal rank fusion, ``1 / (k + rank)`` (60, as in the paper).
        trace: what Haystack's tracing records of each run (``TRACES``): ``"summary"`` (the
            default) tags the span with ``trace_summary``'s dict (``SUMMARY_TAG``) and, with
            content tracing on, traces the ``assembly`` output as that dict too: ids and
            counts, a few KB whatever the documents' size; ``"record"`` traces the
            ``assembly`` output as its full ``record()``.

    ``tokenizer`` also takes an OpenAI model name, a tiktoken ``Encoding`` or a callable
    returning a count or a token list; a module-level callable (tokenizer, ``parents``,
    ``rerank``) serialises with the pipeline as Haystack serialises callables. Bad options
    raise ``InputError`` when the component is built.

    >>> from haystack import Document
    >>> builder = BriefpackPromptBuilder(budget=300, tokenizer="approx")
    >>> out = builder.run(query="How long is leave?", documents=[
    ...     Document(content="Parental leave is 14 weeks."),
    ...     Document(content="Parental leave is 14 weeks!")])
    >>> len(out["documents"]), [m.role.value for m in out["prompt"]]
    (1, ['system', 'user'])
    >>> out["text"].endswith("Question: How long is leave?")
    True
    """

    def __init__(
        self,
        budget: Any = DEFAULTS["budget"],
        order: str = DEFAULTS["order"],
        dedupe: str | None = DEFAULTS["dedupe"],
        threshold: float | None = DEFAULTS["threshold"],
        max_per_doc: int | None = DEFAULTS["max_per_doc"],
        tokenizer: Any = DEFAULTS["tokenizer"],
        system: str = DEFAULTS["system"],
        instructions: str | None = DEFAULTS["instructions"],
        labels: str = DEFAULTS["labels"],
        options: dict[str, Any] | None = None,
        keys: dict[str, Any] | None = None,
        annotate: bool = True,
        join: str = "rrf",
        rrf_k: int = 60,
        trace: str = "summary",
    ) -> None:
        self.budget = budget
        self.order = order
        self.dedupe = dedupe
        self.threshold = threshold
        self.max_per_doc = max_per_doc
        self.tokenizer = tokenizer
        self.system = system
        self.instructions = instructions
        self.labels = labels
        self.options = dict(options or {})
        self.keys = dict(keys or {})
        self.annotate = annotate
        self.join = choice("join", join, JOINS)
        self.rrf_k = check_count("rrf_k", rrf_k)
        self.trace = choice("trace", trace, TRACES)
        merge_keys(DEFAULT_KEYS, self.keys)
        own = self._own()
        clash = sorted(set(own) & set(self.options))
        if clash:
            raise InputError(f"options {clash} are arguments of BriefpackPromptBuilder")
        self._built = build({**own, **self.options})

    def _own(self) -> dict[str, Any]:
        return {
            "budget": self.budget,
            "order": self.order,
            "dedupe": self.dedupe,
            "threshold": self.threshold,
            "max_per_doc": self.max_per_doc,
            "tokenizer": self.tokenizer,
            "system": self.system,
            "instructions": self.instructions,
            "labels": self.labels,
        }

    @component.output_types(
        prompt=list[ChatMessage],
        text=str,
        messages=list[ChatMessage],
        documents=list[Document],
        assembly=Assembly,
    )
    def run(
        self,
        documents: Variadic[list[Document]],
        query: str,
        history: list[ChatMessage] | None = None,
        budget: int | Budget | None = None,
        options: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Build the prompt for ``query`` from ``documents`` (best first).

        ``documents``: one list per sender in a pipeline, fused as ``join`` says (a direct
        call may pass one list).

        ``history``: earlier turns as ``ChatMessage``s (tool calls and tool results written
        out); they go in the user message's ``<history>`` block, so the system prompt stays a
        stable, cacheable prefix. ``budget`` and ``options`` override the component's
        settings for this run, as retrievers take ``top_k``. Documents without text
        (``content=None``) are left out.

        Returns ``prompt`` (system and user ``ChatMessage``s, as ``ChatPromptBuilder``'s
        ``prompt``), ``text`` (system and user joined by a blank line, for a text generator),
        ``messages`` (the same list as ``prompt``, kept for pipelines wired before ``prompt``
        held messages), ``documents`` (the placed sources in final order) and ``assembly``
        (the ``briefpack.Assembly``).
        """
        lists = _senders(documents)
        if len(lists) == 1:
            given: list[tuple[Document, Any]] = [(d, _KEPT) for d in lists[0]]
        else:
            given = _fused(lists, self.join, self.rrf_k)
        kept = [(d, score) for d, score in given if d.content is not None]
        texts = [d for d, _ in kept]
        if len(texts) < len(given):
            LOG.debug(
                "BriefpackPromptBuilder: left out %d document(s) without text (content=None)",
                len(given) - len(texts),
            )
        overrides = check_overrides(options or {})
        if budget is not None:
            overrides["budget"] = budget
        built = self._built
        if overrides:
            built = build({**self._built, **overrides})
        chunks = _chunks(texts, self.keys, [score for _, score in kept])
        note_vectors(
            "BriefpackPromptBuilder",
            built.get("dedupe"),
            [c.vector for c in chunks],
            _NO_VECTORS_HINT,
        )
        done = run_timed(
            built, query, chunks, history=_history(history), adapter="BriefpackPromptBuilder"
        )
        _trace(done, self.trace == "record")
        a = done.assembly
        out_docs = []
        for s in a.sources:
            original, fused = kept[member_index(s)]
            extra = annotation(s) if self.annotate else None
            if untouched(s, original.content or ""):
                doc = original
                update: dict[str, Any] = {} if fused is _KEPT else {"score": fused}
                if extra is not None:
                    update["meta"] = {**(original.meta or {}), _ANNOTATION_KEY: extra}
                if update:
                    doc = dataclasses.replace(original, **update)
            else:
                meta = dict(s.chunk.meta or {})
                if extra is not None:
                    meta[_ANNOTATION_KEY] = extra
                doc = Document(
                    id=str(s.chunk.id), content=s.chunk.text, meta=meta, score=s.chunk.score
                )
            out_docs.append(doc)
        # under history_turns the turns go between the system and the user message, as sent
        turns = [
            ChatMessage.from_assistant(t["content"])
            if t["role"] == "assistant"
            else ChatMessage.from_user(t["content"])
            for t in a.history or ()
        ]
        messages = [ChatMessage.from_system(a.system), *turns, ChatMessage.from_user(a.user)]
        return {
            "prompt": messages,
            "text": f"{a.system}\n\n{a.user}",
            "messages": list(messages),
            "documents": out_docs,
            "assembly": a,
        }

    def to_dict(self) -> dict[str, Any]:
        """Serialise for ``Pipeline.dumps``: a ``Budget`` becomes a dict, a module-level
        callable its import path (``serialize_callable``); any other callable raises
        ``InputError``."""
        budget = (
            {"budget": dataclasses.asdict(self.budget)}
            if isinstance(self.budget, Budget)
            else self.budget
        )
        return default_to_dict(
            self,
            budget=budget,
            order=self.order,
            dedupe=self.dedupe,
            threshold=self.threshold,
            max_per_doc=self.max_per_doc,
            tokenizer=_callable_out("tokenizer", tokenizer_name(self.tokenizer)),
            system=self.system,
            instructions=self.instructions,
            labels=self.labels,
            options=_callable_out("options", self.options),
            keys=self.keys,
            annotate=self.annotate,
            join=self.join,
            rrf_k=self.rrf_k,
            trace=self.trace,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "BriefpackPromptBuilder":
        """Rebuild from ``to_dict``'s output (``data`` is not changed)."""
        data = copy.deepcopy(data)
        params = data.setdefault("init_parameters", {})
        budget = params.get("budget")
        if isinstance(budget, dict) and "budget" in budget:
            params["budget"] = Budget(**budget["budget"])
        for name in ("tokenizer", "options"):
            if name in params:
                params[name] = _callable_in(params[name])
        return default_from_dict(cls, data)
