"""The option rows (``briefpack.options.SPECS``) are wired everywhere they say, and only there.

* Every row is an ``Options`` field with its default and its check; the checks run in the
  rows' order.
* ``settings()`` writes an option exactly when its row has a ``record`` writer.
* The CLI has the flag when the row has one (with its choices, default and help), passes it to
  ``assemble`` when the row says so, and places a new option's flag without an edit.
* ``briefpack eval`` accepts every option in a setting and sweeps the rows that say so;
  ``assemble_many`` and the adapters let a request override what the rows allow;
  ``whole_corpus`` overrides what the rows say.
* One unknown-option check, one wording, with a did-you-mean.
* ``options`` and its rules import only leaves.
* ``assemble`` keeps its Assemblers by an exact key of the options.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import briefpack as bp
from briefpack import batch, pipeline
from briefpack.cli import eval as eval_cli
from briefpack.cli import options as cli_options
from briefpack.cli.parser import build_parser
from briefpack.evaluation import expand_grid
from briefpack.integrations import _common
from briefpack.options import (
    DEFAULTS,
    FIELDS,
    IN_PAGES,
    KEEP,
    READ_EVERYTHING,
    SPECS,
    Flag,
    Options,
    Spec,
    check_names,
)

PACKAGE = Path(bp.__file__).parent
# recorded when not default
ON = {
    "compress": "overflow",
    "fallback": None,
    "dedupe_guard": False,
    "first_label": 4,
    "history_turns": True,
    "compress_cut": 0.5,
    "compress_bridge": False,
}
IDS = [s.name for s in SPECS]


def _parsers() -> dict[str, Any]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return dict(sub.choices)


PARSERS = _parsers()


def _action(command: str, flag: str) -> Any:
    return next((a for a in PARSERS[command]._actions if flag in a.option_strings), None)


# ------------------------------------------------------------------- Options


@pytest.mark.parametrize("s", SPECS, ids=IDS)
def test_every_row_is_an_options_field_with_its_default_and_check(s: Spec) -> None:
    field = next(f for f in dataclasses.fields(Options) if f.name == s.name)
    assert field.default == s.default
    assert DEFAULTS[s.name] == s.default
    assert field.type == s.annotation
    assert Options.from_mapping({s.name: s.default}) == Options()
    with pytest.raises(bp.InputError) as info:
        Options(**{s.name: object()})  # no option takes a bare object
    assert info.value.option == s.name


def test_the_checks_run_in_the_rows_order() -> None:
    assert tuple(f.name for f in dataclasses.fields(Options)) == FIELDS
    with pytest.raises(bp.InputError) as info:
        Options(threshold=2.0, order="random")  # threshold's row comes first
    assert info.value.option == "threshold"
    with pytest.raises(bp.InputError) as info:
        Options(order="random", page_max_distance=-1)
    assert info.value.option == "order"


# ------------------------------------------------------------------- settings


@pytest.mark.parametrize("s", SPECS, ids=IDS)
def test_settings_write_an_option_when_its_row_says_so(s: Spec) -> None:
    settings = Options(**ON).settings("jaccard", 0.7, "python", pages=True)
    if s.record is None:
        assert s.name not in settings
        assert s.name not in settings["pages"]
    elif s.record is IN_PAGES:
        assert s.name in settings["pages"]
        assert s.name not in settings
    else:
        assert s.name in settings


def test_settings_keep_their_order_and_leave_compression_out_when_off() -> None:
    settings = Options().settings("jaccard", 0.7, "rust")
    assert list(settings) == [
        *("budget", "dedupe", "threshold", "scope", "supersede", "parents", "neighbors"),
        *("rerank", "max_per_doc", "mmr", "mmr_k", "order", "labels", "overflow"),
        *("tokenizer", "backend", "minhash"),
    ]
    assert (settings["dedupe"], settings["threshold"], settings["backend"]) == (
        "jaccard",
        0.7,
        "rust",
    )
    assert list(Options(**ON).settings(None, 0.7, "rust"))[-7:] == [
        *("compress", "sentence_scorer", "fallback", "first_label", "history_turns"),
        *("compress_cut", "compress_bridge"),
    ]


# ------------------------------------------------------------------- the command line


@pytest.mark.parametrize("s", [s for s in SPECS if s.cli is not None], ids=lambda s: s.name)
def test_the_cli_has_the_flag_of_every_row_that_has_one(s: Spec) -> None:
    assert s.cli is not None
    for command in s.cli.commands:
        action = _action(command, s.flag)
        assert action is not None, f"briefpack {command} has no {s.flag}"
        assert action.help.startswith(s.cli.help)
        if s.cli.kind == "choice":
            assert s.choices is not None
            assert set(action.choices) >= {v for v in s.choices if isinstance(v, str)} - {
                "callable"
            }
        if s.cli.show_default:
            assert action.default == s.default
    assert s.cli.passes == (s.name in _passed_by_assemble(s))


def _passed_by_assemble(s: Spec) -> dict[str, Any]:
    """What ``api_kwargs`` hands to ``assemble`` when the flag is given its default."""
    args = build_parser().parse_args(["assemble", "f.jsonl", "-q", "q"])
    value = s.default if s.default is not None else _a_value(s)
    setattr(args, s.name, value)
    return cli_options.api_kwargs(args, "assemble")


def _a_value(s: Spec) -> Any:
    assert s.cli is not None
    if s.cli.kind == "choice":
        assert s.choices is not None
        return next(v for v in s.choices if isinstance(v, str))
    return {"int": 1, "float": 0.5, "text": "x"}[s.cli.kind]


def test_rows_without_a_flag_are_the_ones_a_command_line_cannot_spell() -> None:
    without = {s.name for s in SPECS if s.cli is None}
    # callables and tables; minhash is spelled --num-perm, --shingle, --seed; dedupe_guard is
    # a bool, and the flag table has no bool kind yet (compress_bridge too)
    assert without == {
        "parents",
        "neighbors",
        "chunks_of",
        "rerank",
        "minhash",
        "sentence_scorer",
        "dedupe_guard",
        "compress_bridge",
        "history_turns",  # a bool too, and the command line takes no history
    }
    for name in ("num_perm", "shingle", "seed"):
        assert _action("assemble", "--" + name.replace("_", "-")) is not None


def test_a_new_rows_flag_is_placed_without_an_edit_to_the_table(monkeypatch) -> None:
    new = Spec(
        3,
        lambda value, _: value,
        cli=Flag("a new option", "int", "N"),
        name="new_option",
        annotation="int",
    )
    monkeypatch.setattr(cli_options, "SPECS", (*SPECS, new))
    monkeypatch.setattr(cli_options, "FIELDS", (*FIELDS, "new_option"))
    table = cli_options._with_every_flag(cli_options._TABLE)
    flags = [row.flag for row in table]
    assert flags.index("--new-option") == flags.index("--format") - 1
    row = table[flags.index("--new-option")]
    assert (row.commands, row.api, row.passes) == (("assemble",), ("new_option",), True)
    assert row.settings == {"type": int, "metavar": "N"}


def test_dedupe_spells_none_and_supersede_does_not_need_to() -> None:
    assert _action("assemble", "--dedupe").choices[-1] == "none"  # None legal, not the default
    assert "none" not in _action("assemble", "--supersede").choices  # None is the default


# ------------------------------------------------------------------- eval, batch, adapters


@pytest.mark.parametrize("s", SPECS, ids=IDS)
def test_eval_accepts_every_option_in_a_setting(s: Spec) -> None:
    assert expand_grid({s.name: s.default}) == [{s.name: s.default}]


def test_eval_sweeps_the_rows_that_say_so() -> None:
    swept = [s.name for s in SPECS if s.sweep is not None]
    assert list(eval_cli.LIST_FLAGS) == swept
    assert swept[0] == "budget"
    assert {"order", "dedupe", "compress"} <= set(swept)
    args = PARSERS["eval"].parse_args(["d.jsonl", "--max-per-doc", "1,none", "--mmr", "0.5"])
    grid = eval_cli.build_grid(args)
    assert (grid["max_per_doc"], grid["mmr"]) == ([1, None], [0.5])
    assert list(grid)[-1] == "budget"  # the fastest axis, last


def test_a_request_may_override_what_the_rows_allow() -> None:
    overridable = {s.name for s in SPECS if s.per_request}
    assert overridable <= batch.REQUEST_KEYS
    assert overridable <= set(_common.RUN_OPTIONS)
    out = bp.assemble_many(
        [{"question": "q", "candidates": ["a b", "a b"], "dedupe": None}],
        tokenizer="approx",
    )
    assert len(out[0].sources) == 2


@pytest.mark.parametrize(
    ("module", "model"),
    [("langchain", "BriefpackCompressor"), ("llamaindex", "BriefpackPostprocessor")],
)
def test_the_pydantic_adapters_default_to_the_librarys_options(module: str, model: str) -> None:
    framework = {"langchain": "langchain_core", "llamaindex": "llama_index.core"}[module]
    pytest.importorskip(framework)  # the wheel's own test run has no framework installed
    adapter = pytest.importorskip(f"briefpack.integrations.{module}")
    cls = getattr(adapter, model)
    for name in adapter._OWN_FIELDS:  # the options promoted to fields of the model
        assert cls.model_fields[name].default == DEFAULTS[name], name
    assert cls()._options().assembler.options == Options()  # budget 12,000, not 4,000


def test_the_haystack_builder_defaults_to_the_librarys_options() -> None:
    pytest.importorskip("haystack")
    haystack = pytest.importorskip("briefpack.integrations.haystack")
    assert haystack.BriefpackPromptBuilder()._built.assembler.options == Options()


def test_whole_corpus_overrides_what_the_rows_say() -> None:
    assert {s.name: s.whole_corpus for s in SPECS if s.whole_corpus is not KEEP} == READ_EVERYTHING
    asm = bp.Assembler(max_per_doc=1, order="relevance", dedupe="exact", tokenizer="approx")
    texts = [{"text": "b", "doc": "d"}, {"text": "a", "doc": "d"}, {"text": "a", "doc": "d"}]
    result = asm.whole_corpus("q", texts)
    assert [s.chunk.text for s in result.sources] == ["b", "a", "a"]  # no cap, no dedupe
    assert result.settings["order"] == "document"
    assert result.settings["max_per_doc"] is None
    for name, value in READ_EVERYTHING.items():
        assert asm.replace(**READ_EVERYTHING).options.__getattribute__(name) == value


# ------------------------------------------------------------------- unknown options


@pytest.mark.parametrize(
    ("call", "lead"),
    [
        (lambda: bp.assemble("q", ["a"], bugdet=1), "unknown option(s) 'bugdet'"),
        (lambda: bp.Assembler(bugdet=1), "unknown option(s) 'bugdet'"),
        (lambda: bp.Options().replace(bugdet=1), "unknown option(s) 'bugdet'"),
        (lambda: bp.Options.from_mapping({"bugdet": 1}), "unknown option(s) 'bugdet'"),
        (
            lambda: bp.assemble_many([("q", ["a"])], bugdet=1),
            "requests[0]: unknown option(s) 'bugdet'",
        ),
        (
            lambda: bp.assemble_many([{"question": "q", "candidates": [], "bugdet": 1}]),
            "requests[0]: unknown option(s) 'bugdet'",
        ),
        (lambda: _common.check_options({"bugdet": 1}), "unknown assemble option(s) 'bugdet'"),
    ],
)
def test_one_unknown_option_message_with_a_did_you_mean(call, lead: str) -> None:
    with pytest.raises(bp.InputError) as info:
        call()
    message = str(info.value)
    assert message.startswith(f"{lead} (did you mean 'budget'?); expected some of ")
    assert info.value.option == "bugdet"


def test_unknown_names_without_a_close_one_are_listed_plainly() -> None:
    with pytest.raises(bp.InputError) as info:
        check_names({"zzz": 1, 7: 2}, FIELDS)
    assert str(info.value).startswith("unknown option(s) 'zzz', 7; expected some of system, ")


# ------------------------------------------------------------------- layers


@pytest.mark.parametrize("module", ["options.py", "_specs.py", "_option_rules.py"])
def test_options_import_only_leaves(module: str) -> None:
    tree = ast.parse((PACKAGE / module).read_text("utf-8"))
    local = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            if node.module is None:  # from . import x
                local.update(alias.name for alias in node.names)
            else:
                local.add(node.module)
        elif isinstance(node, ast.Import):
            assert not any(a.name.startswith("briefpack") for a in node.names)
    assert local <= {
        "_specs",
        "_option_rules",
        "_checks",
        "_escape",
        "_tokenizers",
        "errors",
        "types",
    }, local


# ------------------------------------------------------------------- the cache of assemble


@pytest.fixture
def empty_cache(monkeypatch):
    monkeypatch.setattr(pipeline, "_cache", type(pipeline._cache)())
    return pipeline._cache


def test_the_same_options_reuse_one_assembler(empty_cache) -> None:
    a = pipeline.cached_assembler({"budget": 300, "tokenizer": "approx"})
    assert pipeline.cached_assembler({"tokenizer": "approx", "budget": 300}) is a
    assert pipeline.cached_assembler({"budget": bp.Budget(context=300), "tokenizer": "approx"})
    assert len(empty_cache) == 2


def test_values_equal_in_python_but_not_in_the_record_are_different_keys(empty_cache) -> None:
    a = [{"text": "a", "vector": [1.0, 0.0], "score": 1.0}]
    one = bp.assemble("q", a, mmr=1, tokenizer="approx")
    again = bp.assemble("q", a, mmr=1.0, tokenizer="approx")
    assert (one.settings["mmr"], again.settings["mmr"]) == (1, 1.0)
    assert type(again.settings["mmr"]) is float
    zero = bp.assemble("q", a, mmr=-0.0, tokenizer="approx")
    assert str(zero.settings["mmr"]) == "-0.0"
    bp.assemble("q", ["a"], budget=1)
    with pytest.raises(bp.InputError, match="budget must be an int or a Budget, got bool"):
        bp.assemble("q", ["a"], budget=True)


def test_callables_are_keyed_by_identity_and_mappings_not_cached(empty_cache) -> None:
    def words(text: str) -> int:
        return len(text.split())

    a = pipeline.cached_assembler({"tokenizer": words})
    assert pipeline.cached_assembler({"tokenizer": words}) is a
    assert pipeline.cached_assembler({"tokenizer": functools.partial(words)}) is not a
    parents = {"a": {"text": "A"}}
    b = pipeline.cached_assembler({"parents": parents})
    assert pipeline.cached_assembler({"parents": parents}) is not b  # a mapping may change
    assert len(empty_cache) == 2


def test_the_cache_is_bounded_and_drops_the_least_recently_used(empty_cache) -> None:
    first = pipeline.cached_assembler({"budget": 1})
    for n in range(2, pipeline.CACHE_SIZE + 1):
        pipeline.cached_assembler({"budget": n})
    assert pipeline.cached_assembler({"budget": 1}) is first  # used again: now the newest
    pipeline.cached_assembler({"budget": 10_000})
    assert len(empty_cache) == pipeline.CACHE_SIZE
    assert pipeline._key({"budget": 2}) not in empty_cache  # the oldest went out


def test_the_cache_is_safe_under_threads(empty_cache) -> None:
    barrier = threading.Barrier(8)

    def one(i: int) -> Any:
        barrier.wait()
        return bp.assemble("q", [f"text {i % 3}", "same", "same"], budget=50 + i % 4)

    with ThreadPoolExecutor(8) as pool:
        got = [a.record() for a in pool.map(one, range(64))]
    want = [
        bp.Assembler(budget=50 + i % 4)("q", [f"text {i % 3}", "same", "same"]).record()
        for i in range(64)
    ]
    assert got == want
    assert len(empty_cache) == 4
