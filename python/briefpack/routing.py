"""``route``: decide, before assembling, whether top-k retrieval is the right tool at all.

Some questions are answered badly by retrieval whatever the assembly: a count over the corpus
("How many recipes use anchovies?") is a database query, "List every recipe with nuts" is a
filter that must not be answered from a sample, "Recipes under 30 minutes" is a metadata
filter, "What was added this week?" is a sort by time, "What is the most common technique
across all bread recipes?" is an offline job over the whole corpus, and a corpus that fits the
window needs no retrieval at all. ``route`` names the right tool, the rule that decided and why.

**Rules are data.** A rule set is an ordered sequence of ``Rule(kind, pattern, why)``; the first
rule whose regular expression is found in the normalised question decides. Users extend a set
(``[Rule(...), *ROUTE_RULES_EN]``) or replace it. A rule of kind ``"retrieve"`` is an exception
that stops the rules below it from firing. ``ROUTE_RULES_EN`` is the default, ``ROUTE_RULES_DE``
the German set (``rules=ROUTE_RULES_DE``); ``ROUTE_RULE_SETS`` maps language codes to them.

**Normalisation** (``normalize``), applied to the question, never to the patterns: words are
found with briefpack's shared character table (the one Jaccard and MinHash use: letters, marks
and digits make words, everything else separates them); each word character is folded with the
standard library's ``unicodedata``: compatibility decomposition (NFKD: full-width "ＨＯＷ" and the
ligature "ﬁ" become "HOW" and "fi"), combining marks dropped (accents: "é" -> "e",
"ü" -> "u"), then ``str.casefold`` ("ß" -> "ss"). Every run of separators (spaces, hyphens,
apostrophes, punctuation) becomes one space, none at the ends. So "HOW MANY", "how many" and
"how-many" all read ``how many``, and "What's" reads ``what s``: write patterns in that form
(lowercase, unaccented, one space between words). The folding follows the interpreter's
Unicode version; only rare characters differ between versions.

**Whole corpus.** With ``corpus``, ``route`` asks ``assemble`` itself (no deduplication, document
order, the default system prompt and xml labels) whether every text fits the budget; if it
does, a question that would otherwise be retrieved (or one the rules send to ``exhaustive`` or
``corpus_analysis``, whose trouble is that top-k reads only a sample) routes to
``"whole_corpus"``. ``aggregate``, ``filter`` and ``recency`` keep their kind: a query over
structured data answers them exactly, however small the corpus.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from ._checks import check_text, type_name
from .errors import InputError
from .reference.text import CLASSES, IDEOGRAPH, WORD
from .types import Budget, Chunk

__all__ = [
    "KINDS",
    "ROUTE_RULES_DE",
    "ROUTE_RULES_EN",
    "ROUTE_RULE_SETS",
    "Route",
    "Rule",
    "normalize",
    "route",
]

RouteKind = Literal[
    "retrieve", "aggregate", "exhaustive", "filter", "recency", "corpus_analysis", "whole_corpus"
]
KINDS: tuple[RouteKind, ...] = (
    "retrieve",
    "aggregate",
    "exhaustive",
    "filter",
    "recency",
    "corpus_analysis",
    "whole_corpus",
)
"""Every kind a route can have; a rule may have any of them except ``whole_corpus``."""
_RULE_KINDS = KINDS[:-1]
_SAMPLED = ("retrieve", "exhaustive", "corpus_analysis")
"""Kinds that a corpus fitting the budget turns into ``whole_corpus``."""


class Rule(NamedTuple):
    """One routing rule: if ``pattern`` (a regular expression) is found in the normalised
    question, the route is ``kind``, and ``why`` says what kind of question it is.

    >>> Rule("filter", r"\\bgluten free\\b", "a dietary tag is metadata").kind
    'filter'
    """

    kind: str
    pattern: str
    why: str


def _rules(*rows: tuple[str, str, str]) -> tuple[Rule, ...]:
    return tuple(Rule(*row) for row in rows)


_ATTRIBUTES = (
    r"(?:costs|prices|fees|rates|charges|rules|requirements|benefits|tips|steps|instructions"
    r"|hours|limits|options|details|terms|conditions|deadlines|rights|settings|specs|symptoms"
    r"|results|errors|messages|guidelines|procedures|regulations|recommendations|penalties"
    r"|discounts|taxes|allowances)\b"
)
"""Plurals that name an attribute of one thing ("shipping costs", "tips for"), not items."""
_LISTING = (
    r"^(?:please )?(?:(?:show|find|list|give|get|fetch|pull up|search for|look up|only)"
    r"(?: me| us)? )?"
    r"(?!(?:how|what|which|who|whom|whose|where|when|why|is|are|was|were|do|does|did|can|could"
    r"|should|would|will|may|must|has|have|had|i|my|we|our|you|your|tell|explain|describe"
    r"|summari[sz]e|compare|please|cluster|classify|categori[sz]e|group|sort|order|rank|count)\b)"
    r"(?:(?!" + _ATTRIBUTES + r")\w+ ){0,3}?(?!" + _ATTRIBUTES + r")\w+s\b"
)
"""The opening of a request for items, not a question: an optional "show me", then up to four
words ending in a plural ("Show me laptops", "opinion pieces", "pdf documents")."""

# fmt: off
ROUTE_RULES_EN: tuple[Rule, ...] = _rules(
    ("retrieve", r"^(?:(?:so|ok|okay|hi|hey|please) )?(?:how (?:do|can|could|should|would) (?:i|you|we|one)|how to)\b", "a how-to question: the answer is in a document, not a query over items"),  # noqa: E501
    ("retrieve", r"\b(?:all|every|each) (?:of )?(?:the )?(?:steps?|stages?|instructions?)\b|\b(?:latest|newest|most recent|current) (?:\w+ )?(?:version|release|edition|release notes|changelog)\b|\bi (?:just |recently )?(?:updated|upgraded|installed|reinstalled|changed)\b", "the steps of one procedure, the latest version of one thing, or the asker's own change: a lookup"),  # noqa: E501
    ("aggregate", r"\bhow many (?:of (?:the|our|these|those) )?\w+ (?:\w+ )?(?:uses?|contains?|mentions?|includes?|references?|cites?|expire|are tagged|report)\b", "a count of the items that match: a database query"),  # noqa: E501
    ("aggregate", r"\bhow many (?:\w+ ){1,2}?(?:are there|do we (?:have|sell|offer|stock|carry|list|publish|host)|exist|in (?:the|our|this) (?:corpus|collection|catalog|catalogue|database|archive|wiki|dataset))\b", "a count over the corpus: a database query"),  # noqa: E501
    ("aggregate", r"\bhow many (?:distinct|different|unique)\b|\bhow many \w+ (?:were|was) (?:\w+ )?(?:opened|closed|created|filed|added|published|sold|submitted|resolved|reported)\b|\bhow many \w+ (?:signed up|joined|registered|subscribed|churned|cancell?ed|unsubscribed|bought|purchased|ordered|complained|applied)\b|\bhow many \w+ did .{1,40}? (?:write|publish|file|author|post)\b", "a count of items: a database query"),  # noqa: E501
    ("aggregate", r"\bhow many (?:of (?:the|our) )?(?:\w+ ){1,2}?(?:are|were|is|have been) (?:currently |still |now )?(?:deprecated|archived|tagged|marked|labell?ed|flagged|open|closed|overdue|expired|active|inactive|pending|unresolved|outdated|unpublished|drafts?|broken|vegetarian|vegan)\b|\bon average\b.{0,20}\bhow many\b|\bhow many\b.{1,60}\bon average\b", "a count of items in a state, or a mean count: a database query"),  # noqa: E501
    ("aggregate", r"^(?:please )?(?:count|tally)\b|^(?:the )?number of\b|\b(?:total|overall) number of\b(?!.*\b(?:i|me|my)\b)|\b(?:break(?:s)? down|broken down|breakdown of|group(?:ed)? by)\b", "counting or grouping items: a database query"),  # noqa: E501
    ("aggregate", r"\b(?:average|mean|median|sum|total) (?:\w+ ){0,2}?(?:of|across|over) (?:all|every|each|the listed|our)\b|\b(?:average|mean|median) (?:\w+ ){0,2}?(?:of|across|over|among) (?:the |these |all )?(?:\w+ )?\w+s\b|\bwhat (?:percentage|proportion|share|fraction|percent) of (?:the |our |all )?\w+(?: \w+)? (?:are|were|is|use|have|contain|mention)\b", "a statistic over many items: a database query"),  # noqa: E501
    ("aggregate", r"\bwhich \w+ (?:has|have) (?:written|published|filed|posted|created|authored) the most\b", "a ranking by count: a database query"),  # noqa: E501
    ("recency", r"\b(?:added|new|created|published|uploaded|changed|updated|modified|edited|released|posted|announced|came in|happened) (?:this|last|past|today|yesterday|overnight|recently|since)\b", "what is new: a sort by time, not by relevance"),  # noqa: E501
    ("recency", r"\b(?:in|during|over) the (?:last|past) (?:\d+ |few )?(?:hours?|days?|weeks?|months?)\b|\b(?:changed|new|added|updated)\b.*\b(?:this|last|past) (?:week|month|quarter|day)\b", "a recent time window: a sort by time"),  # noqa: E501
    ("recency", r"\b(?:most recent|latest|newest)(?: \w+)? (?:\w+s|news)\b|\bwhat s (?:the )?latest (?:from|on|in|news)\b|\bthe (?:last|latest|newest) (?:\d+|two|three|four|five|ten|few) \w+", "the newest items: a sort by time"),  # noqa: E501
    ("recency", r"\brecently (?:added|updated|published|changed|modified|created|edited)\b|\b(?:added|updated|published|changed|modified|created|edited) recently\b", "recently changed items: a sort by time"),  # noqa: E501
    ("recency", r"\b(?:added|created|published|publish|uploaded|upload|changed|updated|modified|edited|released|posted|post|wrote|shipped)\b(?: \w+){0,4}? (?:yesterday|today|this (?:morning|week|month|quarter)|last (?:night|week|month)|lately|(?:most )?recently)\b", "something done in a recent period: a sort by time"),  # noqa: E501
    ("recency", r"\bwhat (?:s|is|has) (?:been )?(?:new|changed|added|updated)(?: (?:on|in|at|to) (?:the|our) (?:site|website|wiki|blog|docs|documentation|knowledge base|kb|portal|intranet|handbook|catalog|catalogue|collection|archive|library|help center|shop|store|menu)\b|$)", "what is new on the site: a sort by time"),  # noqa: E501
    ("recency", r"\b(?:recent|new|latest|newest) (?:additions|arrivals|uploads|entries)\b|\brecent (?:changes|updates)\b|\b(?:today|yesterday|this (?:week|month|quarter)|last (?:week|month)) s (?:\w+ )?(?:new|latest|recent|additions?|updates|changes|releases|posts|articles|uploads|listings|entries)\b", "recent additions, this month's new items: a sort by time"),  # noqa: E501
    ("recency", r"\b(?:newest|latest|most recent|oldest) first\b|\b(?:sort|sorted|order|ordered|rank|ranked) (?:\w+ ){0,4}?by (?:date|recency|time|publication date|upload date)\b", "an order by date: a sort by time"),  # noqa: E501
    ("exhaustive", r"\b(?:list|show|find|give|get|name|return|enumerate|print|fetch|collect|pull up|bring up|dig up|track down|compile|identify|gather|export) (?:me |us )?(?:all|every|each)\b|^(?:all|every|each) \w+(?: \w+)? (?:that|which|who|with|containing|involving|mentioning|using|where)\b", "every matching item: a filter over the corpus, not a top-k sample"),  # noqa: E501
    ("exhaustive", r"\bwhich (?:\w+ )?(?:documents|docs|pages|files|articles|papers|recipes|contracts|emails|tickets|reports|records|entries|posts|messages|notes|policies) (?:mention|contain|cite|reference|refer to|include|use|have)\b|\bwhich (?:of (?:our|the|these) )?(?:\w+ ){0,2}?\w+s (?:mention|cite|reference|refer to|quote|contain)\b", "the items that mention something: a filter over the corpus"),  # noqa: E501
    ("exhaustive", r"\b(?:complete|full|exhaustive|entire) list of (?:all )?(?:the )?\w+ (?:that|which|who|with|containing|mentioning|where)\b|\b(?:don t|do not|without) (?:miss|missing|skipping) any\b|\bwithout exception\b", "a complete list: a filter over the corpus"),  # noqa: E501
    ("exhaustive", r"\b(?:need|want) (?:a list of )?(?:all|every) (?:the )?(?:\w+ ){0,2}?\w+ (?:that|which|with|where|who|mentioning|containing)\b|\bwhat are all (?:of )?(?:the |our )?(?:\w+ ){0,3}?\w+s (?:that|which|where|who)\b|\b(?:need|want|give me|show me|list|get me) (?:\w+ )?(?:all|every (?:single )?one) of them\b|\ball of them please$|\bneed to (?:\w+ ){1,2}every (?:single )?one$", "all of the items asked for: a filter over the corpus"),  # noqa: E501
    ("filter", r"^(?:(?:show|find|list|give|get)(?: me)? |which |what )?(?:\w+ )?\w+s (?:that |which )?(?:take |cost |are |with |rated |priced )?(?:under|below|over|above|less than|more than|fewer than|at least|at most|between|cheaper than) \d", "a numeric condition on metadata: a structured filter"),  # noqa: E501
    ("filter", r"^(?:(?:show|find|list|give|get)(?: me)? |which |what )?(?:\w+ )?\w+s (?:that were |were |are )?(?:written|authored|published|posted|created|filed|tagged|labelled|labeled|dated|uploaded)\b", "a condition on author, date or tag: a structured filter"),  # noqa: E501
    ("filter", r"^(?:\w+ )?\w+s (?:by|from) (?:\w+ ){0,3}\w+$|^(?:\w+ )?\w+s (?:in|under) the \w+ (?:category|section|folder)\b|^(?:please )?(?:filter|sort|order)\b|^only (?:show|include|return|list)\b", "a condition on metadata: a structured filter"),  # noqa: E501
    ("filter", _LISTING + r".{0,60}?\b(?:(?:under|below|over|above|less than|more than|fewer than|longer than|shorter than|cheaper than|older than|at least|at most|no more than|no less than|up to|rated|rating of|from|since|before|after|in|during|between|for version|for v) (?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* )?\d|between (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* and|\d+ (?:\w+ )?or (?:more|less|fewer|higher|lower|above|below|better)\b)", "a request for items with a numeric or date condition: a structured filter"),  # noqa: E501
    ("filter", _LISTING + r".{0,60}?\b(?:(?:written |authored |owned |maintained |published |posted |signed |created |edited |reviewed )?by (?!(?:date|time|default|email|phone|hand|topic|theme|category|type|month|year|week|day|size|name|price|relevance|popularity)\b)\w+|(?:in|from|under) the (?:\w+ ){1,2}(?:category|section|folder|department|team|space|channel|directory|desk)\b)", "a request for items by author, owner or section: a structured filter"),  # noqa: E501
    ("corpus_analysis", r"\b(?:themes?|trends?|patterns?|topics?|sentiment|tone|style|complaints?|arguments?|techniques?|ingredients?|ideas?)\b.{0,30}?\b(?:across|throughout|in all|of all|in every|over all)\b", "a pattern across the whole corpus: an offline job"),  # noqa: E501
    ("corpus_analysis", r"\b(?:all|most|many) (?:of )?(?:\w+ ){0,3}?(?:have|share) in common\b|\b(?:summari[sz]e|overview of|summary of) (?:all|everything|the whole|the entire|every)\b|\b(?:across|in|throughout) the (?:whole|entire) (?:archive|corpus|collection|knowledge base|wiki|dataset|library)\b|\b(?:corpus|collection|archive|docs|documentation|documents|articles|reviews|tickets|posts|feedback|knowledge base|wiki|dataset|library|catalog|content|responses) (?:\w+ ){0,2}?(?:as a whole|taken together|in aggregate)\b", "reading the whole corpus: an offline job"),  # noqa: E501
    ("corpus_analysis", r"\bwhat (?:trends|patterns) do you (?:see|notice|find)\b|\b(?:come|comes) up most (?:often|frequently)\b|\bmost (?:often|frequently) (?:mentioned|raised|discussed)\b|\boverall (?:sentiment|tone|opinion|mood)\b|\bgenerally (?:think|feel|say)\b", "a tendency across the corpus: an offline job"),  # noqa: E501
    ("corpus_analysis", r"^(?:cluster|classify|categori[sz]e)\b|\b(?:contradictions?|inconsistenc(?:y|ies)) (?:between|among|across|in) (?:the|our|all)\b|\bgaps (?:\w+ ){0,2}?in (?:our|the) (?:\w+ )?(?:documentation|docs|knowledge base|wiki|corpus|coverage|faqs?|help center|handbook|content)\b", "a judgement over the whole corpus: an offline job"),  # noqa: E501
    ("corpus_analysis", r"\b(?:recurring|recurrent|repeated|repeating) (?:themes|complaints|criticisms|concerns|requests|topics|motifs|patterns|issues|problems|questions|mistakes)\b|\b(?:common|frequent) (?:themes|complaints|criticisms|motifs)\b|\b(?:themes|trends|motifs)\b.{0,40}?\b(?:in|across|among|from|throughout) (?:our|all|every)\b|\b(?:themes|trends|motifs)\b (?:\w+ ){0,2}?(?:come up|emerge|stand out|recur|show up)\b", "themes and recurring complaints: an offline job"),  # noqa: E501
    ("corpus_analysis", r"\b(?:most|least|under|over|poorly) ?represented\b|\bleast (?:covered|discussed|documented|mentioned)\b|\b(?:do|does) (?:our|the|all) (?:\w+ ){0,2}?(?:cover|discuss|mention|address) (?:the )?(?:least|most)\b|\b(?:appears?|occurs?|shows? up|comes? up|recurs?|crops? up) (?:in|across) (?:(?:almost|nearly|virtually|practically) (?:every|all)|most|many)\b|\b(?:shows?|comes?|crops?|turns?) up (?:again and again|over and over|time and again)\b|\b(?:appears?|mentioned|raised|cited) (?:again and again|over and over|time and again)\b", "what is most or least present across the corpus: an offline job"),  # noqa: E501
    ("corpus_analysis", r"\b(?:contradict|conflict|disagree|overlap|inconsistent|contradictory|duplicate)\w* (?:with )?(?:each other|one another)\b|\b(?:consistent|consistently|uniform) (?:across|throughout|between) (?:our|all|the) (?:\w+ )?(?:docs|documentation|help center|site|website|articles|pages|policies|handbook|corpus|collection|wiki|knowledge base|content|posts|guides|contracts|faqs?)\b|\bour\b.{0,50}?\b(?:changed|evolved|shifted|developed) over (?:the )?(?:years|time|decades|months)\b|\bjudging (?:by|from) (?:the |our |all )?\w+s\b", "how the documents relate to each other or over time: an offline job"),  # noqa: E501
)
"""The English default rules, in order (the first that matches decides)."""

ROUTE_RULES_DE: tuple[Rule, ...] = _rules(
    ("aggregate", r"\bwie ?viele (?:der |unserer |von den )?\w+ (?:\w+ )?(?:enthalten|verwenden|nutzen|erwahnen|zitieren|gibt es)\b|\bwie ?viele \w+ wurden (?:\w+ ){0,3}?(?:eroffnet|erstellt|geschlossen|veroffentlicht|hinzugefugt|verkauft|gemeldet)\b", "eine Anzahl über den Bestand: eine Datenbankabfrage"),  # noqa: E501
    ("aggregate", r"^zahle (?:alle|die|wie)\b|^anzahl (?:der|aller|von)\b|\bgesamtzahl\b|\bwie ?viel (?:prozent|anteil)\b|\b(?:welcher anteil|prozentsatz) (?:der|aller)\b|\b(?:durchschnittliche?n?|mittlere|gesamte?) \w+ (?:aller|von allen|uber alle)\b", "eine Kennzahl über viele Einträge: eine Datenbankabfrage"),  # noqa: E501
    ("recency", r"\b(?:diese|dieser|letzte|letzten|vergangene) (?:woche|monat|monats|quartal)\b|\bin den (?:letzten|vergangenen) (?:\d+ )?(?:stunden|tagen|wochen|monaten)\b|\bneu seit\b|\bseit (?:gestern|heute|montag|letzter woche)\b", "was neu ist: nach Zeit sortieren, nicht nach Relevanz"),  # noqa: E501
    ("recency", r"\b(?:die|zeig(?:e)? (?:mir )?die) (?:neuesten|aktuellsten)\b|\b(?:kurzlich|zuletzt|neu) (?:hinzugefugt|veroffentlicht|geandert|aktualisiert|erstellt)\b", "die neuesten Einträge: nach Zeit sortieren"),  # noqa: E501
    ("exhaustive", r"\b(?:liste|zeig|zeige|finde|gib|nenne|suche) (?:mir |uns )?(?:alle|jede[nrs]?|samtliche)\b|\b(?:vollstandige|komplette|gesamte) liste\b", "jeder passende Eintrag: ein Filter über den Bestand, keine Stichprobe"),  # noqa: E501
    ("exhaustive", r"\bwelche (?:dokumente|seiten|dateien|artikel|rezepte|vertrage|tickets|berichte|e mails|eintrage) (?:erwahnen|enthalten|zitieren|nennen|verweisen)\b", "die Einträge, die etwas erwähnen: ein Filter über den Bestand"),  # noqa: E501
    ("filter", r"^(?:zeig(?:e)? (?:mir )?|welche )?(?:\w+ )?\w+ (?:unter|uber|mit weniger als|mit mehr als|weniger als|mehr als|gunstiger als|teurer als|zwischen|mit mindestens) \d|^(?:\w+ )?\w+ (?:von|aus dem jahr|vom) (?:\w+ ){0,2}\w+$", "eine Bedingung an Metadaten: ein strukturierter Filter"),  # noqa: E501
    ("corpus_analysis", r"\b(?:haufigste|haupt\w*|wiederkehrende|gemeinsame)\b.{0,40}?\b(?:uber alle|in allen|aller|hinweg)\b|\b(?:fasse|zusammenfassung) (?:die |den |das )?(?:gesamte|ganze|alle)\w*\b|\balle \w+(?: \w+)? gemeinsam\b|\bwiederholen sich\b", "ein Muster über den ganzen Bestand: eine Offline-Auswertung"),  # noqa: E501
)
"""The German rules (``rules=ROUTE_RULES_DE``); patterns see umlauts folded ("erwähnen" reads
``erwahnen``) and "ß" as "ss"."""
# fmt: on

ROUTE_RULE_SETS: dict[str, tuple[Rule, ...]] = {"en": ROUTE_RULES_EN, "de": ROUTE_RULES_DE}
"""The shipped rule sets by language code."""


def _fold_char(ch: str) -> str:
    """One word character, compatibility-decomposed, without combining marks, casefolded."""
    if ch.isascii():
        return ch.lower()
    out = [c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)]
    return "".join(out).casefold()


def _normalize_with_offsets(text: str) -> tuple[str, list[int]]:
    """``normalize(text)`` and, for each of its characters, the index in ``text`` it came from."""
    chars: list[str] = []
    origin: list[int] = []
    pending_space = -1  # index of the separator run seen since the last word character
    for i, ch in enumerate(text):
        cls = CLASSES[ord(ch)]
        if cls not in (WORD, IDEOGRAPH):
            if chars and pending_space < 0:
                pending_space = i
            continue
        folded = _fold_char(ch)  # '' for a combining mark: part of the word, nothing to keep
        if pending_space >= 0:
            chars.append(" ")
            origin.append(pending_space)
            pending_space = -1
        for c in folded:
            chars.append(c)
            origin.append(i)
    return "".join(chars), origin


def normalize(text: str) -> str:
    """The form of a question that routing rules match: case, width and accents folded, words
    separated by single spaces.

    >>> normalize("HOW-MANY  Rezepte enthalten Café-Bohnen?")
    'how many rezepte enthalten cafe bohnen'
    >>> normalize("What's ＮＥＷ in Straße 5?")
    'what s new in strasse 5'
    """
    return _normalize_with_offsets(text)[0]


@dataclass(frozen=True)
class Route:
    """Where a question should go, and why.

    Attributes:
        kind: ``"retrieve"`` (the default), ``"aggregate"``, ``"exhaustive"``, ``"filter"``,
            ``"recency"``, ``"corpus_analysis"`` or ``"whole_corpus"``.
        rule: the rule that fired (``None`` when none did); with ``whole_corpus`` it is the rule
            the fitting corpus overrode, if any.
        rule_index: its position in the rule set.
        match: ``(start, end)`` of the part of the question the rule matched (``None`` if none).
        why: one sentence a log can show.
        question: the question as given.
        rule_set: ``"en"`` or ``"de"`` for a shipped set, ``"custom"`` otherwise.
        corpus_tokens, context_budget: the rendered corpus' token count and the context budget
            it was compared with (``None`` when no corpus was given, or for ``corpus_tokens``
            when the corpus did not fit: counting stops once it cannot).

    >>> import briefpack as bp
    >>> isinstance(bp.route("How many recipes use anchovies?"), bp.Route)
    True
    """

    kind: RouteKind
    rule: Rule | None
    rule_index: int | None
    match: tuple[int, int] | None
    why: str
    question: str
    rule_set: str = "en"
    corpus_tokens: int | None = None
    context_budget: int | None = None

    @property
    def matched(self) -> str | None:
        """The text of the question that the rule matched."""
        return None if self.match is None else self.question[self.match[0] : self.match[1]]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable account of the decision, for ``Assembly.record()``.

        >>> route("How many recipes use anchovies?").to_dict()["match"]
        {'start': 0, 'end': 20, 'text': 'How many recipes use'}
        """
        return {
            "kind": self.kind,
            "why": self.why,
            "rule_set": self.rule_set,
            "rule": None
            if self.rule is None
            else {
                "index": self.rule_index,
                "kind": self.rule.kind,
                "pattern": self.rule.pattern,
                "why": self.rule.why,
            },
            "match": None
            if self.match is None
            else {"start": self.match[0], "end": self.match[1], "text": self.matched},
            "corpus": None
            if self.context_budget is None
            else {
                "fits": self.kind == "whole_corpus",
                "sources_tokens": self.corpus_tokens,
                "context_budget": self.context_budget,
            },
        }


def _check_rules(rules: object) -> tuple[tuple[Rule, re.Pattern[str]], ...]:
    if isinstance(rules, (str, bytes)) or not isinstance(rules, Sequence):
        raise InputError(
            f"rules must be a list of (kind, pattern, why) rules, got {type_name(rules)}"
        )
    out = []
    for i, row in enumerate(rules):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != 3:
            raise InputError(
                f"rules[{i}] must be a (kind, pattern, why) triple, got {row!r}; e.g. "
                "Rule('filter', r'\\bgluten free\\b', 'a dietary tag is metadata')"
            )
        kind, pattern, why = row
        if kind not in _RULE_KINDS:
            legal = ", ".join(repr(k) for k in _RULE_KINDS)
            raise InputError(
                f"rules[{i}]: kind must be one of {legal}, got {kind!r} (whole_corpus is "
                "decided by corpus and budget, not by a rule)"
            )
        if not isinstance(pattern, str) or not isinstance(why, str):
            raise InputError(f"rules[{i}]: pattern and why must be str, got {row!r}")
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise InputError(
                f"rules[{i}]: pattern {pattern!r} is not a valid regular expression ({exc})"
            ) from None
        out.append((Rule(kind, pattern, why), compiled))
    return tuple(out)


_COMPILED = {id(rs): _check_rules(rs) for rs in ROUTE_RULE_SETS.values()}


def _fit(
    question: str, corpus: Sequence[Any], budget: int | Budget | None, tokenizer: Any
) -> tuple[bool, int | None, int]:
    """Whether ``corpus`` rendered as sources fits the budget, by ``assemble``'s own arithmetic.

    Returns (fits, sources tokens or None when it does not fit, context budget).
    """
    from .pipeline import assemble

    options: dict[str, Any] = {"dedupe": None, "order": "document", "tokenizer": tokenizer}
    if budget is not None:
        options["budget"] = budget
    result = assemble(question, corpus, **options)
    fits = not any(d.reason == "over_budget" for d in result.dropped)
    return fits, result.tokens["sources"] if fits else None, result.tokens["context_budget"]


def route(
    question: str,
    *,
    rules: Sequence[Rule | tuple[str, str, str]] | None = None,
    corpus: Sequence[str | Chunk | Any] | None = None,
    budget: int | Budget | None = None,
    tokenizer: Any = "o200k_base",
) -> Route:
    """Decide whether ``question`` is for top-k retrieval or for another tool, and why.

    Args:
        question: the user's question.
        rules: an ordered rule set (``Rule`` or ``(kind, pattern, why)`` triples); the first
            whose pattern is found in ``normalize(question)`` decides. Default
            ``ROUTE_RULES_EN``; ``ROUTE_RULES_DE`` for German.
        corpus: the whole corpus (texts, ``Chunk``s or anything ``assemble`` accepts), to check
            whether it fits the budget as sources; then retrieval is unnecessary.
        budget, tokenizer: as for ``assemble`` (budget default: ``assemble``'s); used only with
            ``corpus``.

    Raises:
        InputError: the question is not a str, a rule is malformed, or the corpus or budget is
            invalid (as ``assemble`` reports it).
        BudgetError: with ``corpus`` and a window budget, system prompt and question alone do
            not fit the window (as ``assemble`` reports it).

    >>> import briefpack as bp
    >>> r = bp.route("HOW MANY recipes use anchovies?")
    >>> r.kind, r.matched
    ('aggregate', 'HOW MANY recipes use')
    >>> bp.route("How many weeks of parental leave do fathers get?").kind
    'retrieve'
    >>> bp.route("Wie viele Rezepte enthalten Sardellen?", rules=ROUTE_RULES_DE).kind
    'aggregate'
    >>> bp.route("Is SSO in Pro?", corpus=["SSO is in Pro."], budget=500, tokenizer="approx").kind
    'whole_corpus'
    """
    question = check_text("question", question)
    chosen = ROUTE_RULES_EN if rules is None else rules
    compiled = _COMPILED.get(id(chosen)) or _check_rules(chosen)
    rule_set = next((k for k, v in ROUTE_RULE_SETS.items() if v is chosen), "custom")
    if corpus is not None and (
        isinstance(corpus, (str, bytes)) or not isinstance(corpus, Sequence)
    ):
        raise InputError(f"corpus must be a list of texts or chunks, got {type_name(corpus)}")

    text, origin = _normalize_with_offsets(question)
    kind: RouteKind = "retrieve"
    hit: Rule | None = None
    index: int | None = None
    span: tuple[int, int] | None = None
    why = "no rule matched: an ordinary question for top-k retrieval"
    for i, (rule, pattern) in enumerate(compiled):
        m = pattern.search(text)
        if m is None:
            continue
        kind, hit, index = rule.kind, rule, i  # type: ignore[assignment]
        if m.end() > m.start():
            span = (origin[m.start()], origin[m.end() - 1] + 1)
        shown = question[span[0] : span[1]] if span else ""
        why = f"{rule.why} (rule {i} matched {shown!r})"
        break

    if corpus is None:
        return Route(kind, hit, index, span, why, question, rule_set)
    fits, tokens, context_budget = _fit(question, corpus, budget, tokenizer)
    if fits and kind in _SAMPLED:
        why = (
            f"the whole corpus ({len(corpus)} texts, {tokens} tokens as sources) fits the "
            f"context budget of {context_budget}: read it all instead of retrieving"
            + ("" if hit is None else f"; overrides rule {index} ({hit.kind})")
        )
        kind = "whole_corpus"
    return Route(kind, hit, index, span, why, question, rule_set, tokens, context_budget)
