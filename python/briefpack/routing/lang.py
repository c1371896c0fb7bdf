"""Which language a question is in: frequent function words and a few letters, no download.

Each language has a small table of frequent words that are rare in the others (articles,
pronouns, question words, prepositions), written in the normalised form (lowercase, accents
dropped). A question scores one point per word found in a language's table and two per
letter that only that language uses among these (``ß``, ``ä ö ü`` for German; ``ñ ¿ ¡`` for
Spanish; ``ç è ê à ù œ`` for French). The highest score wins; no points at all, or a tie
involving English, reads as English (the default rule set).

Supported (a rule set ships): ``en``, ``de``, ``fr``, ``es``. Recognised but unsupported:
``it``, ``pt``, ``nl`` (``route`` sends such a question to retrieval and says why). A question
mostly in a script other than Latin is ``"und"`` (undetermined), also sent to retrieval.
"""

from __future__ import annotations

import re

SUPPORTED = ("en", "de", "fr", "es")
UNSUPPORTED = ("it", "pt", "nl", "und")


def _table(text: str) -> frozenset[str]:
    return frozenset(text.split())


_WORDS: dict[str, frozenset[str]] = {
    "en": _table(
        """
        the of and is are was were what which who how many much does do did can could should
        would will with for from this that these those our my your we you they have has been
        there any every all show list me find give about than most recent new latest why
        when where it its to on at by or not get a an i
        """
    ),
    "de": _table(
        """
        unser was bitte mich dass wenn weil schon etwas alles kein keine zeigen der die das
        den dem des ein eine einen einem einer und ist sind war waren wie viele viel welche
        welcher welches welchen wer wo wann warum gibt es mit fur von zu im nicht auch alle
        allen aller jede jeden zeig zeige mir uns unsere unserer unseren wurden wurde seit
        diese dieser diesem letzten neuesten haben hat kann konnen ich wir sie uber nach bei
        aus oder auf hinweg unter ohne vom zum zur am als noch nur sich ihr ihre man wird
        werden gab gestern heute neu neue neuen neues zuletzt
        """
    ),
    "fr": _table(
        """
        en uniquement seulement vos votre
        le la les un une des du de et est sont etait quel quelle quels quelles combien qui
        quoi comment pourquoi ou quand dans pour avec sur par ce cette ces nos notre mes mon
        vous nous je tous toutes tout chaque liste montre montrez moi donne derniers
        dernieres semaine mois depuis ont y il elle au aux qu plus moins pas ne tres aussi
        mais sans leur leurs ses sa lequel laquelle lesquels ete avons aujourd hui hier
        recemment nouveautes neuf d l j n c
        """
    ),
    "es": _table(
        """
        el la los las un una unos unas del de y es son era cual cuales cuantos cuantas
        cuanto que quien como por para con sobre este esta estos estas nuestros nuestras
        nuestro mis yo nosotros todos todas cada lista muestra muestrame dame ultimos
        ultimas semana mes desde han hay se en al donde cuando mas menos muy tambien pero
        sin su sus lo nos hoy ayer recientemente novedades ha fue fueron
        """
    ),
    "it": _table(
        """
        della delle degli dei sono quanti quante quali gli nel nella cosa questo questa
        perche dove anche ho hai tutti tutte ultimi ultime il lo
        """
    ),
    "pt": _table(
        """
        voce nao sao quantos quantas quais uma das dos com isso ultimos ultimas os em onde
        tem
        """
    ),
    "nl": _table(
        """
        het een niet wat hoeveel welke zijn voor ik wij dat met ook wordt worden laatste
        deze
        """
    ),
}
_LETTERS = {"de": "ßäöü", "es": "ñ¿¡", "fr": "çèêàùœ"}


_LANGS = tuple(_WORDS)
_INDEX: dict[str, tuple[int, ...]] = {}
for _i, _lang in enumerate(_LANGS):
    for _w in _WORDS[_lang]:
        _INDEX[_w] = (*_INDEX.get(_w, ()), _i)
_LETTER = re.compile(r"[^\W\d_]")
_NON_LATIN = re.compile(r"[^\W\d_\x00-\u024f\u1e00-\u1eff]")


def detect(question: str, words: list[str]) -> str:
    """The language code of ``question`` given its normalised ``words``.

    >>> from briefpack.routing import normalize
    >>> detect("Combien de recettes ?", normalize("Combien de recettes ?").split())
    'fr'
    >>> detect("¿Cuántas recetas hay?", normalize("¿Cuántas recetas hay?").split())
    'es'
    """
    head = question[:1000]
    scores = [0] * len(_LANGS)
    if not head.isascii():
        non_latin = len(_NON_LATIN.findall(head))
        if non_latin and non_latin * 2 > len(_LETTER.findall(head)):
            return "und"
        low = head.lower()
        for lang, letters in _LETTERS.items():
            scores[_LANGS.index(lang)] += 2 * sum(1 for c in letters if c in low)
    index = _INDEX
    for w in words[:200]:
        for i in index.get(w, ()):
            scores[i] += 1
    best = max(scores)
    if best == 0 or scores[0] == best:
        return "en"
    tied = [i for i, x in enumerate(scores) if x == best]
    if len(tied) > 1:  # French or Spanish by their word endings ("-os", "-as" are Spanish)
        for w in words[:200]:
            for i, ending in ((2, "eux"), (2, "aux"), (3, "os"), (3, "as"), (3, "cion")):
                if w.endswith(ending) and len(w) > 3:
                    scores[i] += 1
        best = max(scores[i] for i in tied)
        return _LANGS[next(i for i in tied if scores[i] == best)]
    return _LANGS[tied[0]]
