"""Unicode normalisation: NFC for ``exact``, NFKC for ``jaccard`` and ``minhash``.

Both backends normalise from the committed table (Unicode 14, from Python 3.11's
``unicodedata``), never from their runtime's own Unicode data. Checked here: the two backends
agree on every code point and on hypothesis text; both equal ``unicodedata.normalize`` where the
interpreter's Unicode is the table's (14.0.0: every code point, random text, the corpus and its
decomposed forms); the reference package imports no ``unicodedata``; and the dedupe kernels fold
canonically (all three) and compatibility-equivalent text (jaccard and minhash) alike.
"""

from __future__ import annotations

import ast
import gzip
import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import strategies
from briefpack import reference
from briefpack._backend import get_kernels
from briefpack.reference import text as ref
from conftest import BACKENDS, CORPUS, HAS_RUST

ALL_CHARS = [chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
UNICODE_14 = pytest.mark.skipif(
    unicodedata.unidata_version != "14.0.0",
    reason="the table is Unicode 14; this interpreter's unicodedata is another version",
)
rust = pytest.mark.skipif(not HAS_RUST, reason="the Rust extension is not built")

FRENCH_NFC = "Le café de la gare ouvre à sept heures, été comme hiver, même le dimanche."
FRENCH_NFD = unicodedata.normalize("NFD", FRENCH_NFC)


def core() -> object:
    from briefpack import _core

    return _core


def forms(backend: str) -> tuple[object, object]:
    """(nfc, nfkc) over a list of texts, for one backend."""
    if backend == "rust":
        c = core()
        return c.nfc, c.nfkc  # type: ignore[attr-defined]
    return (lambda ts: [ref.nfc(t) for t in ts]), (lambda ts: [ref.nfkc(t) for t in ts])


# --- the two backends -----------------------------------------------------------------------


@rust
def test_every_code_point_same_in_both_backends() -> None:
    c = core()
    assert c.nfc(ALL_CHARS) == [ref.nfc(ch) for ch in ALL_CHARS]  # type: ignore[attr-defined]
    assert c.nfkc(ALL_CHARS) == [ref.nfkc(ch) for ch in ALL_CHARS]  # type: ignore[attr-defined]


@rust
@given(texts=st.lists(st.one_of(strategies.normalisation_text(), strategies.unicode_text())))
@example(texts=[FRENCH_NFD, "e\u0301\u0323", "\u1100\u1161\u11a8", "\uac00\u11a8", "\u0958"])
def test_text_same_in_both_backends(texts: list[str]) -> None:
    c = core()
    assert c.nfc(texts) == [ref.nfc(t) for t in texts]  # type: ignore[attr-defined]
    assert c.nfkc(texts) == [ref.nfkc(t) for t in texts]  # type: ignore[attr-defined]


@given(text=st.one_of(strategies.normalisation_text(), strategies.unicode_text()))
def test_normal_forms_are_stable(text: str) -> None:
    composed, compat = ref.nfc(text), ref.nfkc(text)
    assert ref.nfc(composed) == composed
    assert ref.nfkc(compat) == compat
    assert ref.nfkc(composed) == compat
    assert ref.nfc(ref.nfkc(text)) == compat


def test_lowercase_keeps_every_class() -> None:
    """So classing before or after the table's lowercase gives the same words."""
    for cp, low in ref.LOWER.items():
        assert ref.CLASSES[low] == ref.CLASSES[cp], hex(cp)


# --- against unicodedata, where it is the table's version -------------------------------------


@UNICODE_14
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_code_point_equals_unicodedata(backend: str) -> None:
    if backend == "rust" and not HAS_RUST:
        pytest.skip("the Rust extension is not built")
    nfc, nfkc = forms(backend)
    want_c = [unicodedata.normalize("NFC", ch) for ch in ALL_CHARS]
    want_k = [unicodedata.normalize("NFKC", ch) for ch in ALL_CHARS]
    assert nfc(ALL_CHARS) == want_c  # type: ignore[operator]
    assert nfkc(ALL_CHARS) == want_k  # type: ignore[operator]


@UNICODE_14
@given(
    texts=st.lists(st.one_of(strategies.normalisation_text(), strategies.unicode_text())),
    backend=st.sampled_from(BACKENDS if HAS_RUST else ["python"]),
)
def test_random_text_equals_unicodedata(texts: list[str], backend: str) -> None:
    nfc, nfkc = forms(backend)
    assert nfc(texts) == [unicodedata.normalize("NFC", t) for t in texts]  # type: ignore[operator]
    assert nfkc(texts) == [unicodedata.normalize("NFKC", t) for t in texts]  # type: ignore[operator]


@UNICODE_14
@pytest.mark.parametrize("backend", BACKENDS)
def test_corpus_and_its_decomposed_forms_equal_unicodedata(backend: str) -> None:
    if backend == "rust" and not HAS_RUST:
        pytest.skip("the Rust extension is not built")
    if not CORPUS.is_file():
        pytest.skip("the shared corpus is absent")
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        passages = [json.loads(line)["text"] for line in f]
    texts = [t for t in passages if not t.isascii()][: 3000 if backend == "rust" else 600]
    texts += [unicodedata.normalize(form, t) for form in ("NFD", "NFKD") for t in texts[:600]]
    nfc, nfkc = forms(backend)
    assert nfc(texts) == [unicodedata.normalize("NFC", t) for t in texts]  # type: ignore[operator]
    assert nfkc(texts) == [unicodedata.normalize("NFKC", t) for t in texts]  # type: ignore[operator]


# --- no runtime Unicode data ----------------------------------------------------------------


def test_the_reference_never_imports_unicodedata() -> None:
    """The oracle's kernels (normalisation included) read only the committed table."""
    package = Path(ref.__file__).resolve().parent
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert "unicodedata" not in names, path


def test_the_reference_works_where_unicodedata_cannot_be_imported() -> None:
    """By construction: with the module made unimportable, the reference's text module loads
    again (other parts of the package may use it; this one must not) and still normalises."""
    code = (
        "import importlib, sys\n"
        "from briefpack.reference import text\n"
        "sys.modules['unicodedata'] = None\n"
        "text = importlib.reload(text)\n"
        "assert text.nfc('cafe\\u0301') == 'caf\\u00e9'\n"
        "assert text.nfkc('\\ufb01') == 'fi'\n"
        "assert text.words('CAFE\\u0301 \\uff21') == ['caf\\u00e9', 'a']\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_newer_unicode_compositions_do_not_apply(backend: str) -> None:
    """Unicode 16 composes U+105D2 U+0307 to U+105C9 (Todhri); Unicode 14 has neither, so
    the table keeps them apart whatever the interpreter's unicodedata says."""
    if backend == "rust" and not HAS_RUST:
        pytest.skip("the Rust extension is not built")
    nfc, nfkc = forms(backend)
    text = "\U000105d2\u0307 \u0cf3\u0301"
    assert nfc([text]) == nfkc([text]) == [text]  # type: ignore[operator]


# --- the dedupe kernels ---------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_canonically_equivalent_text_is_one_text(backend: str) -> None:
    if backend == "rust" and not HAS_RUST:
        pytest.skip("the Rust extension is not built")
    k = get_kernels(backend)
    texts = [FRENCH_NFC, FRENCH_NFD]
    assert FRENCH_NFC != FRENCH_NFD
    for kernel, options in [
        ("dedupe_exact", {}),
        ("dedupe_jaccard", {"threshold": 1.0}),
        ("dedupe_minhash", {"threshold": 1.0}),
    ]:
        got = k.dedupe(kernel, texts, **options)
        assert (got.kept, got.duplicate_of, got.similarity) == ([0], [None, 0], [None, 1.0])


@pytest.mark.parametrize("backend", BACKENDS)
def test_compatibility_equivalents_fold_for_words_only(backend: str) -> None:
    if backend == "rust" and not HAS_RUST:
        pytest.skip("the Rust extension is not built")
    k = get_kernels(backend)
    texts = [
        "the first file has five fine figures x2",
        "the \ufb01rst \ufb01le has \uff46\uff49\uff56\uff45 \ufb01ne \uff26\uff49gures x\u00b2",
    ]
    assert k.dedupe("dedupe_jaccard", texts, threshold=1.0).duplicate_of == [None, 0]
    assert k.dedupe("dedupe_minhash", texts, threshold=1.0).duplicate_of == [None, 0]
    assert k.dedupe("dedupe_exact", texts).duplicate_of == [None, None]
    assert k.dedupe("dedupe_exact", ["x\u00b2", "x2"]).duplicate_of == [None, None]
    assert k.dedupe("dedupe_exact", ["\u212b", "\u00c5", "A\u030a"]).duplicate_of == [None, 0, 0]


def test_words_and_exact_key_golden() -> None:
    assert ref.words(FRENCH_NFD) == ref.words(FRENCH_NFC)
    assert ref.words("\ufb01ne \uff26\uff29\uff2e\uff25 \u2460") == ["fine", "fine", "1"]
    assert ref.exact_key(f" {FRENCH_NFD} ") == FRENCH_NFC
    assert reference.dedupe_jaccard([FRENCH_NFC, FRENCH_NFD], threshold=1.0).kept == [0]


@UNICODE_14
@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the generator runs on Python 3.11")
def test_committed_table_is_what_the_generator_writes() -> None:
    root = Path(__file__).resolve().parents[1]
    generated = subprocess.run(
        [sys.executable, str(root / "scripts" / "gen_chartable.py")],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    committed = (root / "python" / "briefpack" / "data" / "chartable.txt").read_text("ascii")

    # The header names the interpreter's patch release; the data lines must be identical.
    def data(table: str) -> list[str]:
        return [line for line in table.splitlines() if not line.startswith("#")]

    assert data(generated) == data(committed)
