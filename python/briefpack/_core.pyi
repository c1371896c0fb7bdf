"""Type stubs for briefpack's Rust core (``briefpack._core``).

Each function mirrors its ``#[pyo3(signature)]`` and returns plain lists/tuples; the public
API wraps them (``DedupeResult`` is a NamedTuple, so ``tuple(result)`` equals the raw tuple).
"""

from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeAlias, TypeVar

__all__ = [
    "__version__",
    "count_tokens",
    "count_tokens_limited",
    "dedupe_cosine",
    "dedupe_exact",
    "dedupe_jaccard",
    "dedupe_minhash",
    "dedupe_pages",
    "exact_keys",
    "intake_fast",
    "mmr",
    "nfc",
    "nfkc",
    "pack",
    "page_hashes",
    "page_scale_look",
    "price_pack",
    "score_sentences",
    "select_sentences",
    "sentence_aliases",
    "set_token_cache_capacity",
    "split_sentences",
    "token_cache_info",
    "vector_matrix",
    "vocabulary",
    "word_counts",
    "words",
]
__version__: str

_T = TypeVar("_T")

_DedupeColumns: TypeAlias = tuple[list[int], list[int | None], list[float | None]]
"""``(kept, duplicate_of, similarity)``: what every dedupe kernel returns."""

_GuardedColumns: TypeAlias = tuple[
    list[int],
    list[int | None],
    list[float | None],
    list[int | None],
    list[float | None],
    list[str | None],
]
"""With the difference guard on: also ``near_of``, ``near_similarity`` and ``kept_because``
(``docs/dedupe_guard.md``)."""

def dedupe_cosine(
    vectors: Any,
    threshold: float = 0.97,
    *,
    texts: Sequence[str] | None = None,
    guard: bool = False,
) -> _DedupeColumns | _GuardedColumns:
    """Drop items whose embedding's cosine similarity to a kept item's is ``>= threshold``.

    Greedy in rank (input) order: each item is compared only with the items already kept, and
    the earliest kept item that meets the threshold is the one it duplicates (the first copy
    wins). The similarity is the cosine clamped to [-1, 1] and rounded half up to 6 decimals
    (``floor(c * 1e6 + 0.5) / 1e6``), and it is what is compared with the threshold, so
    identical vectors are duplicates at ``threshold=1.0``. Same decisions as
    ``briefpack.reference.dedupe_cosine`` unless a cosine lies within 1e-6 of the threshold,
    and the same similarities unless a cosine lies within ~1e-12 of a rounding step.

    Arguments:
        vectors: a 2-D numpy array (float32 and float64 are read in place when C-contiguous;
            other layouts are copied, integer and float16 arrays converted) or a sequence of
            equal-length sequences of numbers.
        threshold: a number in [0, 1].
        texts: one text per vector; with ``guard``, the difference guard decides every pair
            over the threshold on them (six columns returned).
        guard: the difference guard (a bool).

    Returns:
        ``(kept, duplicate_of, similarity)``: the kept indices in rank order; per item, the
        index of the kept item it duplicates or None; per item, that similarity or None.

    Raises:
        InputError: vectors that are not 2-D, empty, ragged, non-numeric, non-finite or of
            zero norm, or a threshold outside [0, 1] (the reference's messages).
    """

def pack(
    costs: Sequence[int], budget: int, overflow: Literal["stop", "skip"] = "stop"
) -> tuple[list[int], int]:
    """Place items greedily in rank order while their costs fit in ``budget``.

    ``overflow="stop"`` stops at the first item that does not fit (the kept indices are a
    prefix); ``"skip"`` passes over it and tries the smaller items below. Items are never cut.
    Exact for any int sizes (no wrapping).

    Arguments:
        costs: a sequence of ints >= 0 (bools rejected).
        budget: an int >= 0.
        overflow: ``"stop"`` or ``"skip"``.

    Returns:
        ``(kept, used)``: the placed indices in rank order and the sum of their costs.

    Raises:
        InputError: a bad budget, overflow or cost (the reference's messages, checked in the
            reference's order: budget, overflow, costs).
    """

def price_pack(
    chunks: Sequence[Any],
    labels: Literal["xml", "brackets"],
    widest: str,
    budget: int,
    separator_tokens: int,
    overflow: Literal["stop", "skip"],
    encoding: Literal["o200k_base", "cl100k_base", "approx"],
) -> tuple[list[int], list[int], list[str], list[int], list[int]]:
    """Render, count and pack source blocks greedily in rank order, in one pass.

    Each chunk (a ``Chunk`` without a page image; read lazily, so a walk that stops never reads
    the rest) costs its block as ``briefpack.prompt.render_source(widest, chunk, labels)``
    renders it, counted with a limit of what is left, plus ``separator_tokens``; a chunk's
    ``tokens`` stands in for the count of its text. Placed as ``pack`` places. Text and values
    are escaped here; a value that holds a character the Unicode-aware rules react to (an
    opening bracket, an angle-bracket look-alike, an invisible character) is escaped by
    ``briefpack._escape.escape_as``.
    Same result as ``briefpack.reference.price_pack`` (exact for budgets below 2**64 - 1).

    Returns:
        ``(kept, costs, blocks, misfits, remaining)``, as ``briefpack._types.PricedPack``
        names them.

    Raises:
        InputError: a bad argument, or a chunk with a page image or a non-str field.
    """

def mmr(
    query_vector: Any,
    vectors: Any,
    k: int | None = None,
    lambda_: float = 0.5,
    *,
    relevance: Sequence[float] | None = None,
) -> list[int]:
    """Maximal marginal relevance: pick ``k`` items greedily by ``λ·rel − (1−λ)·max sim``.

    ``rel`` is the cosine of each vector to ``query_vector``, or, when ``query_vector`` is
    None, the given ``relevance``. ``max sim`` is the largest cosine to the items already
    picked (0 before the first pick). Ties go to the earlier item. Same picks as
    ``briefpack.reference.mmr`` unless two scores lie within 1e-9.

    Arguments:
        query_vector: a sequence of numbers or a 1-D array, or None.
        vectors: as for ``dedupe_cosine``.
        k: how many to pick (None: all).
        lambda_: a number in [0, 1].
        relevance: one finite number per vector, used when ``query_vector`` is None.

    Returns:
        The picked indices, in pick order.

    Raises:
        InputError: bad vectors, lambda_, k, query_vector or relevance, or neither
            query_vector nor relevance (the reference's messages).
    """

def vector_matrix(vectors: Sequence[Any], name_of: Callable[[int], str]) -> Any:
    """Check vectors given as lists and stack them as one float64 matrix, in one call.

    Each vector is checked as ``briefpack._checks.check_vector`` checks it (a sequence of
    numbers or a 1-D array; non-empty, finite, not all zero; ints read as ``float()`` reads
    them) and all must have the first one's dimension. The interpreter is held only to read the
    numbers; the value and dimension checks run without it.

    Arguments:
        vectors: a sequence of vectors.
        name_of: names vector ``i`` in an error message (called only on an error).

    Returns:
        A C-contiguous ``numpy.ndarray`` of float64, shape ``(len(vectors), dim)`` (``(0, 0)``
        for no vectors).

    Raises:
        InputError: the first bad vector, with ``check_vector``'s message (a vector of another
            dimension: ``"<name> has dimension d but the first vector has d0; ..."``,
            ``field="vector"``).

    Example:
        >>> vector_matrix([[1, 2.5], [3.0, 4.0]], lambda i: f"vectors[{i}]").tolist()
        [[1.0, 2.5], [3.0, 4.0]]
    """

def count_tokens(
    texts: Sequence[str],
    encoding: Literal["o200k_base", "cl100k_base", "approx"] = "o200k_base",
    *,
    segments: bool = False,
) -> list[int]:
    """Count the tokens of each text, exactly as tiktoken's ``len(enc.encode_ordinary(text))``.

    ``o200k_base`` and ``cl100k_base`` use vocabularies compiled into the extension (no network,
    no files); ``approx`` is ``max(1, len(text) // 4)`` in code points. Callables are handled by
    the Python layer, not here. BPE counts go through the process-wide cache (see
    ``token_cache_info``); ``approx`` bypasses it. The GIL is released while counting (one
    thread per call: to use more cores, call from several threads).

    Arguments:
        texts: a sequence (not a str or bytes) of str without lone surrogates.
        encoding: ``"o200k_base"``, ``"cl100k_base"`` or ``"approx"``.
        segments: also cache the counts of each text's segments (runs of lines cut where the
            tokenizer must cut, after a newline and before a character that is neither
            whitespace nor ``/``; counts add up exactly there), so a later text that contains
            them (a block under another label, a prompt made of counted blocks) costs hashing
            for them, not tokenisation. Costs a little more when nothing is shared.

    Returns:
        One count per text, in input order.

    Raises:
        InputError: ``texts`` is not a sequence of valid str (the reference's messages, e.g.
            ``texts[2]: text must be a str, got bytes``), or ``encoding`` is not one of the three
            names; texts are checked first.
    """

def count_tokens_limited(
    texts: Sequence[str],
    limits: Sequence[int],
    encoding: Literal["o200k_base", "cl100k_base", "approx"] = "o200k_base",
    *,
    segments: bool = False,
) -> list[int]:
    """Count each text against its own limit, stopping early once the limit is passed.

    Contract, for every ``i``, with ``n = count_tokens([texts[i]], encoding)[0]``:
    if ``n <= limits[i]`` the result is exactly ``n``; otherwise it is some int ``> limits[i]``
    (at most ``n``: the count of the pretokenizer pieces read until the total passed the
    limit, or a cached exact count). So ``result[i] <= limits[i]`` if and only if the text fits,
    and then the value is exact. The work for a text that does not fit is bounded by the
    pieces needed to exceed its limit. A cached exact count answers directly; a computed count
    is cached only when it is exact. This call does not change the cache's hit and miss
    counters. ``approx`` always returns the exact count.

    Arguments:
        texts: a sequence (not a str or bytes) of str without lone surrogates.
        limits: one int ``>= 0`` per text (ints past the platform's ``size_t`` mean no limit).
        encoding: ``"o200k_base"``, ``"cl100k_base"`` or ``"approx"``.
        segments: as in ``count_tokens`` (a segment's count is cached only when exact).

    Returns:
        One value per text, in input order, as described above.

    Raises:
        InputError: bad ``texts`` (as ``count_tokens``), then bad ``limits``
            (``limits must be a list of int, got str``, ``limits[3] must be an int >= 0, got
            -1``, ``limits has 2 items but texts has 3; pass one limit per text``), then a bad
            ``encoding``, in that order.
    """

def set_token_cache_capacity(capacity: int) -> None:
    """Empty the token-count cache, reset its counters, and let it hold at most ``capacity``.

    The cache maps a 128-bit BLAKE3 hash of (encoding, text) to the text's count, with CLOCK
    eviction in 16 shards; the default capacity is 65,536 counts. ``0`` disables it (no
    look-ups, no counters).

    Arguments:
        capacity: an int ``>= 0``.

    Raises:
        InputError: ``capacity must be an int >= 0, got -1``.
    """

def token_cache_info() -> dict[str, int]:
    """The token-count cache's counters since the last ``set_token_cache_capacity``.

    Returns:
        ``{"hits": ..., "misses": ..., "size": ..., "capacity": ...}``: look-ups by
        ``count_tokens`` that found / did not find a count, entries held (never more than
        ``capacity``), and the capacity.
    """

def vocabulary(name: str) -> bytes:
    """A vocabulary built into the core, in tiktoken's file format (``NAME.tiktoken``).

    One line per token in rank order: the token's bytes in padded base64, a space, the rank.
    The bytes are those of the file tiktoken downloads, so their SHA-256 is the one tiktoken
    checks; the python backend builds its oracle from them when tiktoken cannot load its own.

    Arguments:
        name: ``"o200k_base"`` or ``"cl100k_base"``.

    Raises:
        InputError: any other name.

    >>> vocabulary("o200k_base")[:14]
    b'IQ== 0\\nIg== 1\\n'
    """

def words(texts: Sequence[str]) -> list[list[str]]:
    """Each text's lowercased words (of its NFKC form) by the shared character table, in
    order, repeats kept.

    Arguments:
        texts: the texts (any sequence of str; not a str itself).

    Returns:
        One list of words per text, as ``briefpack.reference.text.words`` gives.

    Raises:
        InputError: ``texts`` is not a sequence of str, or a text holds a lone surrogate.
    """

def word_counts(texts: Sequence[str]) -> list[int]:
    """Each text's number of words, ``len(briefpack.reference.text.words(text))``, without
    building the words (what the dedupe kernels' word splitting costs on its own).

    Arguments:
        texts: the texts (any sequence of str; not a str itself).

    Returns:
        One count per text.

    Raises:
        InputError: ``texts`` is not a sequence of str, or a text holds a lone surrogate.
    """

def exact_keys(texts: Sequence[str]) -> list[str]:
    """Each text in NFC with every whitespace run collapsed to one space and both ends
    stripped.

    Arguments:
        texts: the texts (any sequence of str; not a str itself).

    Returns:
        One key per text, as ``briefpack.reference.text.exact_key`` gives.

    Raises:
        InputError: ``texts`` is not a sequence of str, or a text holds a lone surrogate.
    """

def nfc(texts: Sequence[str]) -> list[str]:
    """Each text in Normalisation Form C by the shared table (Unicode 14).

    Arguments:
        texts: the texts (any sequence of str; not a str itself).

    Returns:
        One str per text, as ``briefpack.reference.text.nfc`` gives.

    Raises:
        InputError: ``texts`` is not a sequence of str, or a text holds a lone surrogate.
    """

def nfkc(texts: Sequence[str]) -> list[str]:
    """Each text in Normalisation Form KC by the shared table (Unicode 14).

    Arguments:
        texts: the texts (any sequence of str; not a str itself).

    Returns:
        One str per text, as ``briefpack.reference.text.nfkc`` gives.

    Raises:
        InputError: ``texts`` is not a sequence of str, or a text holds a lone surrogate.
    """

def dedupe_exact(
    texts: Sequence[str],
) -> _DedupeColumns:
    """Drop items whose whitespace-normalised text equals an earlier one's.

    Arguments:
        texts: the candidates' texts in rank order.

    Returns:
        ``(kept, duplicate_of, similarity)``: kept indices in rank order; per item the index of
        the earliest kept copy (or None); per item 1.0 for a copy (or None).

    Raises:
        InputError: ``texts`` is not a sequence of str, or a text holds a lone surrogate.
    """

def dedupe_jaccard(
    texts: Sequence[str], threshold: float = 0.7, *, guard: bool = False
) -> _DedupeColumns | _GuardedColumns:
    """Drop items whose word-set Jaccard similarity to a kept item is ``>= threshold``.

    Exact (identical to ``briefpack.reference.dedupe_jaccard``), with prefix filtering. An item
    with no words is never a near duplicate and never the item one duplicates.

    Arguments:
        texts: the candidates' texts in rank order.
        threshold: a number in [0, 1].
        guard: the difference guard (default False, opt-in): a pair over the threshold it
            keeps is no duplicate; six columns are returned when it saved some item
            (``_GuardedColumns``).

    Returns:
        ``(kept, duplicate_of, similarity)``: ``duplicate_of`` is the earliest-ranked kept item
        meeting the threshold; ``similarity`` is ``|A & B| / |A | B|`` as a float64 division.

    Raises:
        InputError: bad ``texts`` (as above), or ``threshold`` is not a number in [0, 1].
    """

def dedupe_minhash(
    texts: Sequence[str],
    threshold: float = 0.8,
    num_perm: int = 128,
    shingle: int = 3,
    seed: int = 0,
    *,
    guard: bool = False,
) -> _DedupeColumns | _GuardedColumns:
    """Drop items whose MinHash estimate to a kept item sharing an LSH band is ``>= threshold``.

    Identical to ``briefpack.reference.dedupe_minhash`` (same hashes, permutations, bands).

    Arguments:
        texts: the candidates' texts in rank order.
        threshold: a number in [0, 1].
        num_perm: permutations, an int >= 1.
        shingle: words per shingle, an int >= 1.
        seed: the permutation seed, an int in [0, 2**64 - 1].

    Returns:
        ``(kept, duplicate_of, similarity)``; ``similarity`` is the fraction of equal minimums.

    Raises:
        InputError: bad ``texts``, ``threshold``, ``num_perm``, ``shingle`` or ``seed`` (the
            reference's messages, checked in that order).
        MemoryError: ``num_perm`` is too large to allocate.
    """

def intake_fast(candidates: list[Any], chunk_type: type[_T]) -> tuple[list[_T | None], list[int]]:
    """Each candidate that needs no conversion as its checked ``chunk_type`` (a ``Chunk`` of
    exactly that class as it is, a plain dict built in one step), ``None`` for the others, whose
    indices come second (ascending); when every one was taken, those without an id carry their
    automatic id. Every str read (``meta``'s too) is valid Unicode, and its UTF-8 is left
    cached in the str object, so kernels that read it afterwards borrow it
    (``briefpack.reference.intake`` is the oracle).
    """

def split_sentences(texts: Sequence[str]) -> tuple[list[int], list[int], list[int]]:
    """Split every text into sentences (the rule of ``docs/semantics.md``, "Sentences").

    Arguments:
        texts: a sequence of str.

    Returns:
        ``(starts, ends, offsets)``: flat columns over every sentence of every text; sentence
        ``j`` of text ``i`` (``offsets[i] <= j < offsets[i + 1]``) is
        ``texts[i][starts[j]:ends[j]]``, offsets in characters (code points). A text's spans
        do not overlap and hold all of its non-whitespace, in order.

    Raises:
        InputError: not a sequence of str, or a lone surrogate (``check_texts``'s messages).
    """

def sentence_aliases(texts: Sequence[str]) -> list[tuple[str, str]]:
    """The abbreviations the texts define: "long form (SHORT)" or "SHORT (long form)".

    Arguments:
        texts: a sequence of str (named ``alias_texts`` in messages).

    Returns:
        ``(short, long)`` pairs in the shared word form (lowercased; the long form's words
        joined by one space), in order of appearance; the first definition of a long form wins.

    Raises:
        InputError: not a sequence of str, or a lone surrogate.
    """

def score_sentences(
    question: str, sentences: Sequence[str], alias_texts: Sequence[str] = ()
) -> list[float]:
    """BM25 relevance of each sentence to ``question``, the sentences being the collection.

    Terms are the shared words; the question's distinct terms outside the stopword list are
    summed; a long form defined in ``alias_texts`` counts as its short form. Identical floats to
    ``briefpack.reference.score_sentences``.

    Arguments:
        question: a str.
        sentences: a sequence of str.
        alias_texts: a sequence of str in which to look for definitions (the request's
            candidate texts).

    Returns:
        One score ``>= 0.0`` per sentence (0.0 when it shares no query term).

    Raises:
        InputError: a question that is not a str, texts that are not a sequence of str, or a
            lone surrogate.
    """

def select_sentences(
    sentences: Sequence[str],
    scores: Sequence[float],
    threshold: float,
    offsets: Sequence[int] | None = None,
) -> list[int]:
    """The sentences to keep: those scoring ``>= threshold``, and the neighbours that continue
    them within their group (the next one when led by a continuation word such as "it",
    "however", "and"; the previous one when the kept one is so led; repeatedly).

    Arguments:
        sentences: a sequence of str.
        scores: one finite number per sentence.
        threshold: a number, not NaN (``inf`` keeps nothing).
        offsets: group bounds ``[0, n1, n1 + n2, ..., len(sentences)]`` (one group per
            source, as ``split_sentences`` returns them), or None for one group.

    Returns:
        The kept indices, ascending.

    Raises:
        InputError: bad sentences, scores, threshold or offsets (``briefpack._checks``'s
            messages, checked in that order).
    """

def page_hashes(
    pixels: bytes,
    offsets: Sequence[int],
    widths: Sequence[int],
    heights: Sequence[int],
    channels: Sequence[int],
) -> list[bytes]:
    """Page signatures of pages laid end to end (page ``i`` is ``offsets[i]:offsets[i+1]``).

    Each signature is a 256-bit DCT hash (32 bytes) of the page's content box followed by the
    box's 128x128 detail grid (16,384 bytes), in integer arithmetic only (``docs/pages.md``);
    identical to ``briefpack.reference.page_hashes``. Runs without the GIL.

    Arguments:
        pixels: every page's pixels, row-major, channels interleaved, one page after another.
        offsets: one more entry than there are pages; page ``i`` spans ``offsets[i]`` to
            ``offsets[i + 1]``.
        widths, heights: each page's size (>= 1).
        channels: 1 (gray) or 3 (RGB) per page.

    Returns:
        One 16,416-byte signature per page, in input order.

    Raises:
        InputError: columns that do not describe the buffer (the reference's messages).
    """

def page_scale_look(
    previews: Sequence[tuple[int, int, bytes] | None],
) -> tuple[
    bool,
    int,
    int,
    int,
    tuple[int, int, int, int],
    tuple[int, int, int, int],
    tuple[int, int, int, int],
    list[int],
    list[bool],
]:
    """The scale-following fine look at two gray previews (the kept page first), identical to
    ``briefpack.reference.pages.scale_look``: ``(different, worst, reference, fitted, refined,
    box_a, box_b, residuals, ink)``. Runs without the GIL.

    Raises:
        InputError: previews that are not two ``(width, height, pixels)`` (the reference's
            messages).
    """

def dedupe_pages(
    hashes: Sequence[bytes],
    max_distance: int = 66,
    *,
    factor: int = 4,
    margin: int = 4,
    level: int = 22,
    details: bool = False,
    texts: Sequence[str] | None = None,
    previews: Sequence[tuple[int, int, bytes] | None] | None = None,
    fine_ratio: int = 650,
) -> Any:
    """Drop each page whose hash is within ``max_distance`` bits of an earlier kept page's and
    which neither the text check nor a second look at the detail grids finds different.

    Greedy in rank (input) order; the earliest kept page that passes both is the one a page
    duplicates (the first copy wins). Similarity is ``1 - distance / 256``. Identical to
    ``briefpack.reference.dedupe_pages``.

    Arguments:
        hashes: ``page_hashes`` signatures (16,416 bytes each).
        max_distance: an int >= 0, in hash bits.
        factor, margin, level: the second look's thresholds (ints >= 0, ``docs/pages.md``).
        details: also return, per page, the kept page the text check or the second look kept
            it apart from, that pair's ``(distance, worst, typical)`` (``worst`` and
            ``typical`` 0 when the text decided), the check (``"text"`` or ``"grid"``) and the
            text check's reason.
        texts: one str per page (``""`` for none): a near pair whose pages both have text
            and whose texts the text check keeps apart
            (``briefpack.reference.pages.text_differs``: another page's text, a number
            changed digit for digit, a negation, the same words in another order) is
            different.
        previews: one ``(width, height, pixels)`` (the page's 8-bit gray preview) or ``None``
            per page: a near pair the second look finds alike, whose pages both have a
            preview, gets the fine look (``page_scale_look``, on 512 x 512 grids of the two
            previews, made only for pages in such a pair); ``near_check`` is then ``"fine"``
            and ``near_look`` ``(distance, worst, reference)`` when it keeps the pair apart.
        fine_ratio: the fine look's threshold, in hundredths (an int >= 0, ``docs/pages.md``).

    Returns:
        ``(kept, duplicate_of, similarity)`` as the other dedupe kernels, and with ``details``
        also ``near_of``, ``near_look``, ``near_check`` and ``kept_because``.

    Raises:
        InputError: hashes that are not bytes or not 16,416 bytes long, a bad threshold, or
            texts that are not one str per page (the reference's messages).
    """
