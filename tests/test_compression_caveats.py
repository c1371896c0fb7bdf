"""Keyword-free caveat cases: the sentence that answers the question shares no word with it.

Each case is a question, its sources (the first holds the answer) and the decisive sentence.
The other sentences of that source share a word with the question, so a lexical scorer ranks
them first and a cut can drop the one that matters. The kinds: an abbreviation, a pronoun, a
synonym, a condition phrased differently, another form of a word ("constructed" /
"Construction"), a quantity named differently.

The counts are pinned (they are measurements of the scorers on these cases, not goals): a
change of the scorer that moves them must say so here and in docs/compression.md. Before
the stemmer and the request-relative cut the built-in scorer kept 6 of the 20 (measured with
``compress_cut=0`` on the previous kernels: the five pronoun cases, kept as continuations, and
the abbreviation another source defines); now 11, the five word-form cases added.

The embedding here is a small deterministic stand-in for a real model (none is available
offline): ``hashed_ngrams``, the counts of each word's character 3-grams (the word padded with
``#``) hashed by CRC-32 into 1,024 buckets. A sentence_scorer's relevance rule is "score above
0", which a cosine of count vectors almost always is, so for it the cases count whether the
decisive sentence is its source's best (the one-sentence cut keeps it).
"""

from __future__ import annotations

import re
import zlib
from typing import NamedTuple

import pytest

import briefpack as bp
from briefpack.sentences import embedding_scorer, split_sentences


class Case(NamedTuple):
    kind: str
    question: str
    sources: list[str]
    decisive: str


CASES = [
    Case(
        "abbreviation",
        "What is the annual recurring revenue of Acme?",
        [
            "Acme was founded in 2009 in Austin. Acme sells billing software to hospitals. "
            "ARR reached $40 million last year."
        ],
        "ARR reached $40 million last year.",
    ),
    Case(
        "pronoun",
        "What does the Orion plan cost per month?",
        [
            "The Orion plan is our middle tier. Orion plan members get priority support. "
            "It is billed at $49."
        ],
        "It is billed at $49.",
    ),
    Case(
        "synonym",
        "How do I cancel my subscription?",
        [
            "Subscription tiers are Basic and Pro. Your subscription renews yearly. To "
            "terminate the plan, open Settings and press End membership."
        ],
        "To terminate the plan, open Settings and press End membership.",
    ),
    Case(
        "condition",
        "Can I use the app without internet?",
        [
            "The app syncs notes across devices. The app is free for students. Offline mode "
            "keeps working while disconnected from any network."
        ],
        "Offline mode keeps working while disconnected from any network.",
    ),
    Case(
        "word form",
        "When was the bridge constructed?",
        [
            "The bridge spans the river Tay. The bridge carries two rail tracks. Construction "
            "finished in 1887 after seven years."
        ],
        "Construction finished in 1887 after seven years.",
    ),
    Case(
        "pronoun",
        "Who founded the company?",
        [
            "The company makes pumps. The company employs 300 people. Its founder, Mara Lind, "
            "started it in a garage in 1962."
        ],
        "Its founder, Mara Lind, started it in a garage in 1962.",
    ),
    Case(
        "quantity",
        "How many employees does Brightline have?",
        [
            "Brightline is based in Leeds. Brightline builds signalling systems. Headcount "
            "stood at 1,200 staff in March."
        ],
        "Headcount stood at 1,200 staff in March.",
    ),
    Case(
        "synonym",
        "What is the boiling point of ethanol?",
        [
            "Ethanol is a volatile, flammable liquid. Ethanol is produced by fermenting "
            "sugars. At sea level the liquid turns to vapour at 78 degrees Celsius."
        ],
        "At sea level the liquid turns to vapour at 78 degrees Celsius.",
    ),
    Case(
        "abbreviation",
        "Does the Pro plan include single sign-on?",
        [
            "Pro plan pricing starts at $20. Pro plan has a 30-day trial. SSO via Okta is "
            "included.",
            "Single sign-on (SSO) lets staff log in once.",
        ],
        "SSO via Okta is included.",
    ),
    Case(
        "word form",
        "When does the warranty expire?",
        [
            "The warranty covers parts and labour. The warranty is transferable to a new "
            "owner. Expiry falls three years after the purchase date."
        ],
        "Expiry falls three years after the purchase date.",
    ),
    Case(
        "pronoun",
        "Where is the headquarters of Nordwind?",
        [
            "Nordwind operates 40 aircraft. Nordwind flies to 60 destinations. Its main "
            "office sits in Hamburg."
        ],
        "Its main office sits in Hamburg.",
    ),
    Case(
        "word form",
        "How is the vaccine administered?",
        [
            "The vaccine protects against measles. The vaccine requires two doses. "
            "Administration is by injection into the upper arm."
        ],
        "Administration is by injection into the upper arm.",
    ),
    Case(
        "synonym",
        "What is the maximum speed of the train?",
        [
            "The train seats 400 passengers. The train entered service in 2019. Top velocity "
            "on the test track was 320 km/h."
        ],
        "Top velocity on the test track was 320 km/h.",
    ),
    Case(
        "pronoun",
        "Why did the Vikings leave Greenland?",
        [
            "The Vikings settled Greenland around 985. The Vikings farmed cattle and sheep. "
            "They departed because the climate cooled and trade with Norway collapsed."
        ],
        "They departed because the climate cooled and trade with Norway collapsed.",
    ),
    Case(
        "word form",
        "Is the museum open on Mondays?",
        [
            "The museum holds 3,000 paintings. The museum cafe serves lunch. Closed every "
            "Monday except public holidays."
        ],
        "Closed every Monday except public holidays.",
    ),
    Case(
        "abbreviation",
        "What is the customer satisfaction score?",
        [
            "Customer service is open every day. Customer feedback is collected quarterly. "
            "CSAT was 92% in Q2."
        ],
        "CSAT was 92% in Q2.",
    ),
    Case(
        "synonym",
        "How much does the license cost?",
        ["The license covers five seats. The license renews each year. The price is $300."],
        "The price is $300.",
    ),
    Case(
        "pronoun",
        "Who discovered penicillin?",
        [
            "Penicillin is an antibiotic. Penicillin was mass-produced during the war. Its "
            "discovery is credited to Alexander Fleming in 1928."
        ],
        "Its discovery is credited to Alexander Fleming in 1928.",
    ),
    Case(
        "condition",
        "What happens if the payment fails?",
        [
            "Payment methods include card and transfer. Payment is due on the first of the "
            "month. When a charge is declined, the account is paused after seven days."
        ],
        "When a charge is declined, the account is paused after seven days.",
    ),
    Case(
        "word form",
        "How is the data encrypted?",
        [
            "The data is stored in Frankfurt. The data is backed up nightly. Encryption uses "
            "AES-256 at rest."
        ],
        "Encryption uses AES-256 at rest.",
    ),
]

_WORD = re.compile(r"\w+")
_STOP = {"the", "is", "a", "of", "does", "do", "how", "what", "when", "who", "why", "where"}
_STOP |= {"i", "my", "can", "on", "if", "was", "many", "much", "have", "at", "in", "to", "it"}


def hashed_ngrams(texts: list[str], dim: int = 1024) -> list[list[float]]:
    """Counts of each word's character 3-grams (``#word#``), hashed by CRC-32 into ``dim``."""
    out = []
    for text in texts:
        v = [0.0] * dim
        for w in _WORD.findall(text.lower()):
            padded = f"#{w}#"
            for i in range(len(padded) - 2):
                v[zlib.crc32(padded[i : i + 3].encode()) % dim] += 1.0
        out.append(v)
    return out


def test_the_cases_are_keyword_free() -> None:
    assert len(CASES) == 20
    for case in CASES:
        q = {w for w in _WORD.findall(case.question.lower()) if w not in _STOP}
        d = set(_WORD.findall(case.decisive.lower()))
        assert not q & d, (case.question, q & d)
        assert case.decisive in split_sentences([case.sources[0]])[0]
        others = [s for s in split_sentences([case.sources[0]])[0] if s != case.decisive]
        assert all(q & set(_WORD.findall(s.lower())) for s in others), case.question


def _kept(case: Case, **options: object) -> bool:
    a = bp.assemble(case.question, case.sources, budget=4000, compress="all", **options)
    return any(case.decisive in s.chunk.text for s in a.sources)


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_builtin_scorer_keeps_11_of_20(backend: str) -> None:
    kept = [c.kind for c in CASES if _kept(c, backend=backend)]
    assert len(kept) == 11, kept
    # the five word-form cases are the stemmer's; the cut keeps what the old rule kept here
    assert kept.count("word form") == 5
    assert [c.kind for c in CASES if _kept(c, backend=backend, compress_cut=0)] == kept


def test_embedding_scorer_keeps_all_but_ranks_none_first() -> None:
    """What the stand-in embedding does: every cosine of these count vectors is above 0, so
    ``compress="all"`` cuts nothing (20 of 20 kept, no token saved), and in none of the cases
    is the decisive sentence its source's best (the others share the question's words, and
    so its 3-grams)."""
    score = embedding_scorer(hashed_ngrams)
    assert sum(_kept(c, sentence_scorer=score) for c in CASES) == 20
    first = 0
    for case in CASES:
        sentences = split_sentences([case.sources[0]])[0]
        scores = score(case.question, sentences)
        best = max(range(len(sentences)), key=lambda i: (scores[i], -i))
        first += sentences[best] == case.decisive
    assert first == 0
