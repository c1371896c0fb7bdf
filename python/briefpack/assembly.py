"""``Assembly``: the result of ``assemble``, with what needs the record and the citations.

The fields are data (``briefpack.types.AssemblyData``, a leaf the stages and the record read);
this class adds ``record()``, ``to_dict()``, ``from_dict()``, ``merge()`` and ``cite()``,
which is why it sits above ``briefpack.record`` and ``briefpack.citations``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .citations import Citations, cite
from .errors import InputError
from .record import assembly_from_dict, assembly_to_dict, build_record
from .types import AssemblyData, Dropped, Source

__all__ = ["Assembly"]


class Assembly(AssemblyData):
    """The result of ``assemble``: the prompt and the full account of how it was made.

    Attributes:
        system: the system prompt (identity + instructions), identical for every request with
            the same settings: a cacheable prefix.
        user: history, sources and the question, in that order.
        messages: ``system`` and ``user`` as a chat-completions list of role/content dicts.
        sources: the placed sources, in final order, labelled 1..n (from ``first_label``
            when set).
        dropped: every candidate that was not placed, in input order, with its reason.
        tokens: exact counts: ``system``, ``history``, ``sources``, ``question``, ``total``
            (= system + user), ``context_budget``, ``reserved_output`` and ``margin``.
        settings: the options that produced it (as recorded).
        fates: one entry per candidate, in input order: its id and its fate (``"source"`` with
            a label, or ``"dropped"`` with reason and detail). ``dropped`` and ``fates`` are
            built when first read (a caller that reads only the prompt never pays for them).
        question: the question as given.
        history: under ``history_turns=True``, the history as the chat turns sent before the
            user message (role and escaped content; ``tokens["history"]`` counts their
            contents); ``None`` otherwise (the history is then a block inside ``user``).
        route: how the request was routed (``Route.to_dict()``), when it was: passed as
            ``route=`` to the ``Assembler``, or set by ``Assembler.whole_corpus``; ``None``
            otherwise (and then the record has no ``route`` key).
        empty_reason: ``None`` when a source was placed or there was no candidate; else a
            sentence saying why the context is empty (no candidate, nor any cut of one to its
            most relevant sentences, fits the budget), also in the record as ``empty_reason``
            and logged as a WARNING on the ``briefpack`` logger.

    >>> import briefpack as bp
    >>> a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
    >>> [s.label for s in a.sources], a.sources[0].chunk.text, a.question
    ([1], 'Because.', 'Why?')
    """

    def record(self, *, include_prompt: bool = False) -> dict[str, Any]:
        """A JSON-serialisable record of every decision behind this prompt.

        Holds every candidate's fate (its label, or dropped with reason and detail), the
        sources, the token accounting, the settings, the sha256 of the prompt and the library
        version; ``include_prompt=True`` adds the prompt itself.

        >>> import briefpack as bp
        >>> a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
        >>> a.record()["sources"][0]["label"], a.record()["question"]
        (1, 'Why?')
        """
        return build_record(self, include_prompt=include_prompt)

    def to_dict(self) -> dict[str, Any]:
        """The whole assembly as JSON data, for ``from_dict`` (e.g. Haystack snapshots).

        Unlike ``record()`` it keeps every chunk (text, fields, ``meta``, vector), so
        ``Assembly.from_dict(a.to_dict())`` can still ``cite()`` and ``record()``. A ``meta``
        value that is not JSON data is kept as its ``repr``.

        >>> import briefpack as bp
        >>> a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
        >>> Assembly.from_dict(a.to_dict()) == a
        True
        """
        return assembly_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Assembly:
        """Rebuild an assembly from ``to_dict``'s output."""
        return assembly_from_dict(data, cls)

    @classmethod
    def merge(cls, *assemblies: AssemblyData) -> Assembly:
        """One assembly of several calls' (an agent's tool calls in one conversation), so
        ``cite()`` checks an answer against every source any of them showed the model.

        Number each later call from a running count (``first_label=``, the labels the earlier
        calls used plus one), so each label names one passage; two calls that gave the same
        label are an ``InputError`` naming the label and the calls. The merged assembly has
        every call's sources in label order, each call's ``dropped`` and ``fates`` in call
        order (a fate's ``index`` and a source's ``member_indices`` counted across the calls,
        as if all candidates had come in one list), ``user`` and ``question`` of each call
        joined by a blank line (what the tool results showed, in order), ``system`` and
        ``settings`` of the first call, and ``tokens`` summed key by key.

        >>> import briefpack as bp
        >>> first = bp.assemble("Cap?", ["The cap is 4000 EUR."], tokenizer="approx")
        >>> later = bp.assemble("Leave?", ["Leave is 14 weeks."], tokenizer="approx",
        ...                     first_label=len(first.sources) + 1)
        >>> both = Assembly.merge(first, later)
        >>> [s.label for s in both.sources], [s.label for s in both.cite("14 weeks [2].").sources]
        ([1, 2], [2])
        >>> Assembly.merge(first, first)
        Traceback (most recent call last):
        ...
        briefpack.errors.InputError: label 1 is in assemblies[0] and assemblies[1]: number each \
later call from the labels the earlier ones used (first_label=2 for assemblies[1])
        """
        if not assemblies:
            raise InputError("Assembly.merge needs at least one assembly, got none")
        owner: dict[int, int] = {}
        used = 0  # the largest label so far
        for i, a in enumerate(assemblies):
            if not isinstance(a, AssemblyData):
                raise InputError(
                    f"assemblies[{i}] must be an Assembly, got {type(a).__name__} "
                    "(merge Assembly objects; Assembly.from_dict rebuilds one from to_dict())"
                )
            for s in a.sources:
                if s.label in owner:
                    raise InputError(
                        f"label {s.label} is in assemblies[{owner[s.label]}] and "
                        f"assemblies[{i}]: number each later call from the labels the earlier "
                        f"ones used (first_label={used + 1} for assemblies[{i}])"
                    )
                owner[s.label] = i
            used = max([used, *(s.label for s in a.sources)])
        sources: list[Source] = []
        dropped: list[Dropped] = []
        fates: list[dict[str, Any]] = []
        tokens: dict[str, int] = {}
        offset = 0  # candidates of the earlier calls
        for a in assemblies:
            sources += [
                dataclasses.replace(s, member_indices=tuple(m + offset for m in s.member_indices))
                for s in a.sources
            ]
            dropped += a.dropped
            fates += [{**f, "index": f["index"] + offset} if "index" in f else f for f in a.fates]
            for key, n in a.tokens.items():
                tokens[key] = tokens.get(key, 0) + n
            offset += len(a.fates)
        sources.sort(key=lambda s: s.label)
        head = assemblies[0]
        return cls(
            system=head.system,
            user="\n\n".join(a.user for a in assemblies),
            sources=sources,
            dropped=dropped,
            tokens=tokens,
            settings=dict(head.settings),
            fates=fates,
            question="\n\n".join(a.question for a in assemblies),
            empty_reason=None
            if sources
            else next((a.empty_reason for a in assemblies if a.empty_reason is not None), None),
        )

    def cite(self, answer: str, *, strict: bool = True) -> Citations:
        """Check the citations in a model's ``answer`` against this assembly's labels.

        Same as ``briefpack.cite(answer, self, strict=strict)``.

        >>> import briefpack as bp
        >>> a = bp.assemble("Cap?", ["The cap is 4000 EUR."], budget=200, tokenizer="approx")
        >>> a.cite("It is 4000 EUR [1].").unknown
        []
        """
        return cite(answer, self, strict=strict)


# Pickles and Haystack snapshots name the class by this path (``briefpack.types`` resolves it).
Assembly.__module__ = "briefpack.types"
__test__ = {"Assembly": Assembly}  # doctest skips a class whose __module__ is another module's
