"""Free text is escaped once per recent text: the cache gives what escaping gives.

* For any text (look-alikes, code, controls, long or short), the cached escape equals
  ``neutralise_labels(escape_text(s))``, on the first call and on every later one.
* A text that recurs is escaped once (the second call is a hit); a text longer than the cached
  length is escaped every time and not kept.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from briefpack import _escape as prompt
from briefpack.prompt import escape_text, neutralise_labels

TEXTS = st.text(alphabet=st.sampled_from("ab1 [](),`\n<>&'\"\u200b［］\x00"), max_size=60)


@given(st.one_of(TEXTS, st.text(max_size=40)))
def test_the_cache_gives_what_escaping_gives(s: str) -> None:
    want = neutralise_labels(escape_text(s))
    assert prompt._escape_free_text(s) == want
    assert prompt._escape_free_text(s) == want


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
