"""Free text is escaped once per recent text: the cache gives what escaping gives.

* For any text (look-alikes, code, controls, invisible characters, long or short), the cached
  escape equals the escape computed afresh, on the first call and on every later one; it is
  ``neutralise_labels(escape_text(s))`` with invisible characters written as references, so
  ``unescape`` gives the text back.
* A text that recurs is escaped once (the second call is a hit); a text longer than the cached
  length is escaped every time and not kept.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from briefpack import _escape as prompt
from briefpack.prompt import escape_text, neutralise_labels, unescape

TEXTS = st.text(alphabet=st.sampled_from("ab1 [](),`\n<>&'\"\u200b［］\x00"), max_size=60)


@given(st.one_of(TEXTS, st.text(max_size=40)))
def test_the_cache_gives_what_escaping_gives(s: str) -> None:
    want = prompt._escape_recent.__wrapped__(s)
    assert prompt._escape_free_text(s) == want
    assert prompt._escape_free_text(s) == want
    assert unescape(want) == s


def test_the_escape_is_the_documented_composition() -> None:
    # neutralise_labels(escape_text(s)), and an invisible character (here a tag character,
    # which hypothesis once drew) as a reference on top
    s = "a [1] <b> \U000e0000"
    assert neutralise_labels(escape_text(s)) == "a &#91;1] &lt;b&gt; \U000e0000"
    assert prompt._escape_free_text(s) == "a &#91;1] &lt;b&gt; &#917504;"


def test_a_recurring_text_is_escaped_once_and_a_long_one_is_not_kept() -> None:
    text = "The cap is [3] 4000 EUR, see `x[1]`. (unique to this test)"
    before = prompt._escape_recent.cache_info()
    prompt._escape_free_text(text)
    prompt._escape_free_text(text)
    after = prompt._escape_recent.cache_info()
    assert (after.misses - before.misses, after.hits - before.hits) == (1, 1)
    long = "[1] " * (prompt._RECENT_LONGEST // 4 + 1)
    assert prompt._escape_free_text(long) == neutralise_labels(escape_text(long))
    assert prompt._escape_recent.cache_info().misses == after.misses
