"""``route``: the rule that decides, the shared normalisation, whole-corpus fit, the CLI."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import briefpack as bp
from briefpack import cli, routing
from briefpack.routing import KINDS, ROUTE_RULES_DE, ROUTE_RULES_EN, Rule, normalize

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import eval_routing


@pytest.mark.parametrize("lang", ["en", "de"])
def test_dev_split_routes_every_labelled_question(lang: str) -> None:
    # The held split is evaluated by scripts/eval_routing.py --split held, once; not here.
    res = eval_routing.evaluate(lang, "dev")
    assert res["errors"] == []
    fp, n = res["ordinary"]  # type: ignore[misc]
    assert fp == 0
    assert n > 0


def test_blind_set_1_routes_without_sending_ordinary_questions_away() -> None:
    # Written independently, without seeing the rules; development data since the rules were
    # revised on it (the first rules routed 72% of it and sent 4 of 60 ordinary questions away).
    rows = eval_routing.load_file(eval_routing.DATA / "routing_blind1_en.tsv")
    assert len(rows) == 160
    res = eval_routing.score("en", rows)
    assert res["ordinary"] == (0, 60)
    assert res["right"] >= 0.95 * len(rows)  # type: ignore[operator]
    for kind, (n_want, _, tp) in res["table"].items():  # type: ignore[attr-defined]
        assert n_want == 0 or tp >= 0.9 * n_want, kind


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        # metadata conditions on a request for items: numbers, units, dates, authors, sections
        ("videos shorter than 5 minutes", "filter"),
        ("hotels rated 4 stars or higher", "filter"),
        ("Show me contracts signed after 2021 with suppliers in Spain", "filter"),
        ("blog posts written by Anna Smith about pricing", "filter"),
        ("reports in the Finance folder", "filter"),
        # recency: yesterday, lately, what's new on the site, newest first
        ("What got uploaded yesterday?", "recency"),
        ("What have we published lately?", "recency"),
        ("What's new in the wiki?", "recency"),
        ("List the contracts by date, newest first", "recency"),
        # exhaustive: every one, all of them, pull up every
        ("I need every contract that has an indemnity clause", "exhaustive"),
        ("Track down all emails that mention Project Falcon", "exhaustive"),
        ("Which tickets reference the login bug? Give me all of them.", "exhaustive"),
        # aggregate: counts of items in a state, means over items
        ("How many tickets are still open?", "aggregate"),
        ("What's the mean rating of reviews for the X200?", "aggregate"),
        ("How many customers signed up last quarter?", "aggregate"),
        # corpus analysis: themes, representation, recurrence, contradictions, gaps, change
        ("What themes come up in customer feedback?", "corpus_analysis"),
        ("Which topics are underrepresented in our blog?", "corpus_analysis"),
        ("Which phrases show up again and again in the support tickets?", "corpus_analysis"),
        ("Are there policies that contradict one another?", "corpus_analysis"),
        ("Where are the gaps in our FAQ coverage?", "corpus_analysis"),
        ("How has the tone of our press releases evolved over time?", "corpus_analysis"),
    ],
)
def test_phenomena_route_beyond_the_labelled_phrasings(question: str, kind: str) -> None:
    assert bp.route(question).kind == kind


@pytest.mark.parametrize(
    "question",
    [
        "How do I list all files in a folder?",  # a how-to names a tool's feature
        "How do I sort my orders by date?",
        "List every step in the onboarding checklist",
        "What changed in the newest release notes?",  # the latest version of one thing
        "I updated the app yesterday and now it crashes",  # the asker's own change
        "Please tell me the total number of vacation days I can carry over.",
        "shipping costs to Canada for orders under 50 dollars",  # an attribute, not items
        "Guidelines for events with over 100 guests",
        "Is the styling consistent across browsers?",
        "Is the company as a whole profitable?",
        "Why does the app crash again and again?",
        "Which insurance covers the most?",
        "What are all the options with the Pro plan?",
        "Do I have to sign all of them?",
        "What's new in the Pro plan?",
        "Can I cancel a recurring invoice?",
        "Who approves expense reports over 500 EUR?",
    ],
)
def test_near_misses_of_the_new_rules_stay_retrieval(question: str) -> None:
    assert bp.route(question).kind == "retrieve"


def test_eval_script_reads_two_and_four_column_files(tmp_path: Path) -> None:
    f = tmp_path / "set.tsv"
    f.write_text(
        "# a comment\nkind\tquestion\naggregate\tHow many recipes use anchovies?\n"
        "retrieve\tHow do I reset my password?\nretrieve\tdev\tsmall\tIs SSO in Pro?\n",
        encoding="utf-8",
    )
    rows = eval_routing.load_file(f)
    assert rows[0] == ("aggregate", "all", "-", "How many recipes use anchovies?")
    res = eval_routing.score("en", rows)
    assert res["ordinary"] == (0, 1)  # the row with a corpus is not an ordinary question
    assert res["confusion"][("retrieve", "whole_corpus")] == 1  # type: ignore[index]
    f.write_text("count\tHow many?\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"set\.tsv:1: expected kind"):
        eval_routing.load_file(f)


def test_labelled_set_is_large_enough_and_covers_every_kind() -> None:
    rows = eval_routing.load("en")
    assert len(rows) >= 150
    for kind in KINDS:
        assert sum(1 for r in rows if r[0] == kind and r[1] == "held") >= 4, kind


@pytest.mark.parametrize(
    "question",
    [
        "HOW MANY recipes use anchovies?",
        "how many recipes use anchovies",
        "how-many Recipes   use anchovies",
        "ＨＯＷ ＭＡＮＹ recipes use anchovies",
    ],
)
def test_case_width_and_punctuation_agree(question: str) -> None:
    r = bp.route(question)
    assert (r.kind, r.rule_index) == ("aggregate", 2)  # rules 0 and 1 are retrieve exceptions
    assert normalize(r.matched or "") == "how many recipes use"


def test_accents_fold_for_german_rules() -> None:
    for q in (
        "Wie viele Dokumente erwähnen die DSGVO?",
        "Wie viele Dokumente erwahnen die DSGVO?",
        "Wie viele Dokumente erwa\u0308hnen die DSGVO?",
    ):
        assert bp.route(q, rules=ROUTE_RULES_DE).kind == "aggregate"
    assert normalize("Straße") == "strasse"


def test_match_is_the_span_of_the_original_question() -> None:
    q = "  Please,  LIST every recipe that contains a nut allergen."
    r = bp.route(q)
    assert r.kind == "exhaustive"
    assert r.match is not None
    assert q[r.match[0] : r.match[1]] == "LIST every"
    assert "rule 17" in r.why
    assert "'LIST every'" in r.why


def test_near_misses_stay_retrieval() -> None:
    for q in (
        "How many tokens does this cost?",
        "What is the total price including VAT?",
        "List the steps to configure SAML.",
        "What is the latest version of the app?",
    ):
        r = bp.route(q)
        assert r.kind == "retrieve", q
        if r.rule is None:
            assert r.match is None
            assert r.why.startswith("no rule matched")
        else:  # an exception rule decided, and says so
            assert r.rule.kind == "retrieve"
            assert f"rule {r.rule_index}" in r.why


def test_german_questions_do_not_fire_english_rules_and_vice_versa() -> None:
    en, de = routing.ROUTE_RULES_EN, routing.ROUTE_RULES_DE
    assert bp.route("Wie viele Rezepte enthalten Sardellen?", rules=en, model=None).kind == (
        "retrieve"
    )
    assert bp.route("How many recipes use anchovies?", rules=de, model=None).kind == "retrieve"
    # by default the language is detected and its rules run
    r = bp.route("Wie viele Rezepte enthalten Sardellen?")
    assert (r.kind, r.lang, r.lang_source, r.rule_set) == ("aggregate", "de", "detected", "de")
    r = bp.route("Wie viele Rezepte enthalten Sardellen?", lang="en", model=None)
    assert (r.kind, r.lang, r.lang_source) == ("retrieve", "en", "given")


def test_users_extend_rules_first_match_wins() -> None:
    rules = [Rule("filter", r"\bgluten free\b", "a dietary tag is metadata"), *ROUTE_RULES_EN]
    r = bp.route("Gluten-free cakes", rules=rules)
    assert (r.kind, r.rule_index, r.matched) == ("filter", 0, "Gluten-free")
    assert bp.route("Gluten-free cakes").kind == "retrieve"
    # a retrieve rule is an exception that stops the rules below it
    guard = [
        ("retrieve", r"^how many recipes\b", "our recipe counts are in one page"),
        *ROUTE_RULES_EN,
    ]
    r = bp.route("How many recipes use anchovies?", rules=guard)
    assert (r.kind, r.rule_index) == ("retrieve", 0)
    assert r.to_dict()["rule_set"] == "custom"


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("aggregate", "rules must be a list"),
        ([("aggregate", "x")], r"rules\[0\] must be a \(kind, pattern, why\) triple"),
        ([("count", "x", "y")], r"rules\[0\]: kind must be one of 'retrieve'"),
        ([("whole_corpus", "x", "y")], "decided by corpus and budget"),
        ([("filter", "(", "y")], r"rules\[0\]: pattern '\(' is not a valid regular expression"),
        ([("filter", 3, "y")], r"rules\[0\]: pattern and why must be str"),
    ],
)
def test_bad_rules_are_input_errors(rules: object, message: str) -> None:
    with pytest.raises(bp.InputError, match=message):
        bp.route("q", rules=rules)  # type: ignore[arg-type]


def test_bad_question_and_corpus() -> None:
    with pytest.raises(bp.InputError, match="question: text must be a str"):
        bp.route(b"q")  # type: ignore[arg-type]
    with pytest.raises(bp.InputError, match="corpus must be a list"):
        bp.route("q", corpus="one text")  # type: ignore[arg-type]


CORPUS = [bp.Chunk("SSO is in the Pro plan.", id="p"), "Leave is 14 weeks."]


def test_whole_corpus_uses_assembles_arithmetic() -> None:
    # whole_corpus exactly when assemble places every text (per-item costs, then the block)
    q = "Is SSO in Pro?"
    need = bp.assemble(q, CORPUS, budget=10_000, tokenizer="approx", dedupe=None).tokens["sources"]
    seen = set()
    for budget in range(need - 3, need + 8):
        a = bp.assemble(q, CORPUS, budget=budget, tokenizer="approx", dedupe=None)
        r = bp.route(q, corpus=CORPUS, budget=budget, tokenizer="approx")
        assert (r.kind == "whole_corpus") == (not a.dropped), budget
        assert r.context_budget == budget
        assert r.corpus_tokens == (a.tokens["sources"] if not a.dropped else None)
        seen.add(r.kind)
    assert seen == {"retrieve", "whole_corpus"}
    short = bp.route(q, corpus=CORPUS, budget=need - 1, tokenizer="approx")
    assert short.to_dict()["corpus"] == {
        "fits": False,
        "sources_tokens": None,
        "context_budget": need - 1,
    }


def test_whole_corpus_window_budget_counts_the_framing() -> None:
    window = bp.Budget(window=10_000)
    r = bp.route("Is SSO in Pro?", corpus=CORPUS, budget=window, tokenizer="approx")
    a = bp.assemble("Is SSO in Pro?", CORPUS, budget=window, tokenizer="approx", dedupe=None)
    assert r.kind == "whole_corpus"
    assert r.context_budget == a.tokens["context_budget"]


def test_a_fitting_corpus_overrides_only_sampled_kinds() -> None:
    def kind(q: str) -> str:
        return bp.route(q, corpus=CORPUS, budget=1000, tokenizer="approx").kind

    assert kind("List every recipe that contains nuts.") == "whole_corpus"
    assert kind("What are the main themes across all interviews?") == "whole_corpus"
    assert kind("How many recipes use anchovies?") == "aggregate"
    assert kind("Recipes under 30 minutes") == "filter"
    assert kind("What was added this week?") == "recency"
    r = bp.route("List every recipe with nuts.", corpus=CORPUS, budget=1000, tokenizer="approx")
    assert r.rule is not None
    assert r.rule.kind == "exhaustive"
    assert "overrides rule 17" in r.why


def test_whole_corpus_errors_come_from_assemble() -> None:
    with pytest.raises(bp.InputError, match="budget"):
        bp.route("q", corpus=["a"], budget=-1)  # type: ignore[arg-type]


def test_to_dict_is_json_for_the_record() -> None:
    d = bp.route("What was added this week?").to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["kind"] == "recency"
    assert d["rule"]["kind"] == "recency"
    assert d["corpus"] is None
    assert d["match"]["text"] == "added this"
    assert d["rule_set"] == "en"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(["route", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["How many recipes use anchovies?"], capsys)
    assert code == 0
    assert out.splitlines() == [
        "route: aggregate",
        "lang:  en (detected)",
        f"rule:  {2} (aggregate) {routing.ROUTE_RULES_EN[2].pattern}",
        "match: 'How many recipes use'",
        f"why:   {bp.route('How many recipes use anchovies?').why}",
    ]
    code, out, _ = _run(
        ["Wie viele Rezepte enthalten Sardellen?", "--lang", "de", "--format", "json"], capsys
    )
    assert json.loads(out)["kind"] == "aggregate"
    assert json.loads(out)["rule_set"] == "de"


def test_cli_takes_the_common_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["How many recipes use anchovies?", "--color", "never"], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("route: aggregate\n")
    code, out, _ = _run(["--help"], capsys)
    assert code == 0
    for flag in ("--color", "--corpus", "--lang", "--window", "--tokenizer", "--format"):
        assert flag in out


def test_cli_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "corpus.jsonl"
    f.write_text(
        '{"text": "SSO is in Pro.", "id": "a", "team": "x"}\n"Leave is 14 weeks."\n\n',
        encoding="utf-8",
    )
    code, out, _ = _run(
        [
            "Is SSO in Pro?",
            "--corpus",
            str(f),
            "--budget",
            "500",
            "--tokenizer",
            "approx",
            "--format",
            "json",
        ],
        capsys,
    )
    assert code == 0
    assert json.loads(out)["kind"] == "whole_corpus"
    # a corpus that does not fit what the window leaves (the prompt itself fits well)
    big = tmp_path / "big.jsonl"
    big.write_text(json.dumps({"text": "SSO is in Pro. " * 400}) + "\n", encoding="utf-8")
    code, out, err = _run(
        ["Is SSO in Pro?", "--corpus", str(big), "--window", "1000", "--tokenizer", "approx"],
        capsys,
    )
    assert (code, err) == (0, "")
    assert out.startswith("route: retrieve")


def test_cli_rules_listing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["--rules"], capsys)
    assert code == 0
    assert len(out.splitlines()) == 2 * len(ROUTE_RULES_EN)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "error: route needs a question"),
        (["q", "--budget", "5"], "error: --budget and --window only matter with --corpus"),
        (["q", "--margin", "5"], "pass --window too"),
        (["q", "--corpus", "/nonexistent/c.jsonl"], "error: cannot read /nonexistent/c.jsonl"),
        (["q", "--lang", "it"], "invalid choice: 'it'"),
        (["--train", "x.tsv"], "error: --train needs --model FILE"),
        (["q", "--model", "/nonexistent/m.bin"], "cannot read the routing model"),
    ],
)
def test_cli_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(argv, capsys)
    assert code == 2
    assert out == ""
    assert message in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{oops", "c.jsonl:1:2: invalid JSON: Expecting property name"),
        ("[1]", "c.jsonl:1:1: expected a JSON object with Chunk's keys"),
        ('{"text": "a", "text": "b"}', 'c.jsonl:1:15: duplicate key "text" in one object'),
        ('{"text": "a", "score": 1' + "0" * 5000 + "}", "c.jsonl:1:24: a number with 5001 digits"),
        ('{"text": "a", "score": 1e999}', "c.jsonl:1:24: the number 1e999 is too large"),
        ('{"text": "a", "score": "high"}', "c.jsonl:1:24: candidate 0 (id=None): score must be"),
    ],
)
def test_cli_bad_corpus_lines_name_file_line_and_column(
    tmp_path: Path, line: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # the corpus is read by the same reader as `assemble`'s candidates
    f = tmp_path / "c.jsonl"
    f.write_text(line + "\n", encoding="utf-8")
    code, _, err = _run(["q", "--corpus", str(f), "--tokenizer", "approx"], capsys)
    assert code == 2
    assert message in err, err


def test_docs_examples_run() -> None:
    import doctest

    doc = Path(__file__).resolve().parent.parent / "docs" / "routing.md"
    failed, tried = doctest.testfile(str(doc), module_relative=False)
    assert failed == 0
    assert tried >= 5


# ---- the route in the record, and the whole corpus through an Assembler ----------------------

WHOLE = ["SSO is included in Pro.", "Parental leave is 14 weeks.", "SSO is included in Pro."]


def test_a_routed_request_carries_its_route_into_the_record() -> None:
    asm = bp.Assembler(budget=500, tokenizer="approx", backend="python")
    r = bp.route("How many recipes use anchovies?")
    routed = asm("How many recipes use anchovies?", ["Anchovies are salty."], route=r)
    assert routed.route == r.to_dict()
    assert routed.record()["route"] == json.loads(json.dumps(r.to_dict()))
    plain = asm("How many recipes use anchovies?", ["Anchovies are salty."])
    assert plain.route is None
    assert "route" not in plain.record()  # an unrouted record keeps its bytes
    assert bp.Assembly.from_dict(routed.to_dict()).route == routed.route
    with pytest.raises(bp.InputError, match=r"route must be a briefpack\.Route"):
        asm("q", ["a"], route={"kind": "retrieve"})  # type: ignore[arg-type]


def test_whole_corpus_places_every_text_in_document_order(backend: str) -> None:
    asm = bp.Assembler(budget=500, tokenizer="approx", backend=backend, order="relevance")
    r = asm.whole_corpus("Is SSO in Pro?", WHOLE)
    assert [s.chunk.text for s in r.sources] == WHOLE  # nothing deduplicated, input order
    assert r.dropped == []
    assert r.route is not None
    assert r.route["kind"] == "whole_corpus"
    assert r.route["corpus"]["sources_tokens"] == r.tokens["sources"]
    assert r.record()["settings"]["order"] == "document"
    assert r.record()["settings"]["dedupe"] is None


def test_whole_corpus_that_does_not_fit_is_a_budget_error() -> None:
    asm = bp.Assembler(budget=12, tokenizer="approx", backend="python")
    with pytest.raises(bp.BudgetError, match=r"the corpus does not fit: \d of 3 texts fit"):
        asm.whole_corpus("Is SSO in Pro?", WHOLE)


def test_whole_corpus_records_the_route_it_was_given() -> None:
    asm = bp.Assembler(budget=500, tokenizer="approx", backend="python")
    r = bp.route("Is SSO in Pro?", corpus=WHOLE, budget=500, tokenizer="approx")
    assert r.kind == "whole_corpus"
    assert asm.whole_corpus("Is SSO in Pro?", WHOLE, route=r).route == r.to_dict()


def test_whole_corpus_checks_the_route_before_any_work() -> None:
    asm = bp.Assembler(budget=500, tokenizer="approx", backend="python")
    with pytest.raises(bp.InputError, match=r"route must be a briefpack\.Route"):
        asm.whole_corpus("q", WHOLE, route="whole_corpus")  # type: ignore[arg-type]


# ---- the widened patterns (revision 5): each with a phrasing no labelled set has, and a near
# miss that shares its words and stays retrieval -------------------------------------------------

WIDENED = [
    # (lang, question, kind): averages, medians and rankings over records
    ("en", "What was the median resolution time for billing tickets last quarter?", "aggregate"),
    ("en", "What is the median response time the SLA guarantees?", "retrieve"),
    ("en", "Average basket value for customers from Portugal", "aggregate"),
    ("en", "What's the average salary for a data analyst in our pay bands?", "retrieve"),
    ("en", "Which depot had the highest damage rate in 2025?", "aggregate"),
    ("en", "Which laptop has the longest battery life?", "retrieve"),
    ("en", "Rank the stores by conversion rate", "aggregate"),
    ("en", "Rank the steps of the onboarding checklist by importance", "retrieve"),
    ("en", "How much did we spend on catering in 2025?", "aggregate"),
    ("en", "How much do we pay for parental leave?", "retrieve"),
    ("en", "How many days do customers have to return a product?", "retrieve"),
    # complete lists, which of the items include or lack something
    ("en", "Give me a complete list of the suppliers that failed the audit", "exhaustive"),
    ("en", "Where can I find the full list of supported file formats?", "retrieve"),
    ("en", "Which of our leases include a break clause?", "exhaustive"),
    ("en", "Which of the plans include SSO?", "retrieve"),
    ("en", "In which handbooks is the travel allowance mentioned?", "exhaustive"),
    ("en", "Which contractors haven't returned their laptops?", "exhaustive"),
    ("en", "Which browsers haven't been tested yet?", "retrieve"),
    ("en", "Which apps are still using the deprecated SDK?", "exhaustive"),
    ("en", "Which employees have to attend the fire safety training?", "retrieve"),
    # recency over a relative period, anywhere in the clause
    ("en", "What went live on the intranet over the past fortnight?", "recency"),
    ("en", "What did the platform team deploy yesterday?", "recency"),
    ("en", "What did we announce at the conference?", "retrieve"),
    ("en", "Any updates lately to the leave policy?", "recency"),
    ("en", "What happened in the last board meeting?", "retrieve"),
    # corpus analysis: tone, topics, gaps, typical objections, change over time
    ("en", "How would you characterize the mood in our employee surveys?", "corpus_analysis"),
    ("en", "How would you describe the tone of our brand guidelines?", "retrieve"),
    ("en", "What do the support chats mostly revolve around?", "corpus_analysis"),
    ("en", "What topics does the onboarding course cover?", "retrieve"),
    ("en", "Are there blind spots in our help center articles?", "corpus_analysis"),
    ("en", "Is there a gap between the two doors?", "retrieve"),
    ("en", "What insights can we take from all the usability test reports?", "corpus_analysis"),
    ("en", "What are the key takeaways from the Q3 report?", "retrieve"),
    ("en", "How has the tone of the press coverage shifted over the past year?", "corpus_analysis"),
    ("en", "Is the styling consistent across browsers?", "retrieve"),
    # German: averages "im Schnitt", rankings, "betroffen von", "in welchen … geregelt",
    # relative periods, "zieht sich durch", the tone of a collection
    ("de", "Wie lange brauchen wir im Durchschnitt, um eine Rechnung zu prüfen?", "aggregate"),
    ("de", "Wie lange dauert der Versand im Durchschnitt laut AGB?", "retrieve"),
    ("de", "Welche Filiale hatte 2024 die wenigsten Retouren?", "aggregate"),
    ("de", "Welches Handy hat die längste Akkulaufzeit?", "retrieve"),
    ("de", "Welche Anlagen sind von dem Stromausfall am Montag betroffen?", "exhaustive"),
    ("de", "Welche Geräte sind von der Garantie abgedeckt?", "retrieve"),
    ("de", "In welchen Verträgen wird die Kündigungsfrist geregelt?", "exhaustive"),
    ("de", "In welchem Dokument wird die Reisekostenregel beschrieben?", "retrieve"),
    ("de", "Welche Neuerungen wurden in diesem Quartal eingeführt?", "recency"),
    ("de", "Was wurde gestern im Meeting besprochen?", "retrieve"),
    ("de", "Welche Probleme ziehen sich durch die Projektberichte?", "corpus_analysis"),
    ("de", "Was sind die wichtigsten Erkenntnisse aus dem Bericht?", "retrieve"),
    ("de", "Wie viele Urlaubstage habe ich im Jahr?", "retrieve"),
    # French: "le plus / la plus forte", "en moyenne … nous", "dans quels X figure",
    # "ces N derniers jours", "ressort des", "grands sujets abordés dans les retours"
    ("fr", "Quelle agence a enregistré la plus forte hausse des ventes cette année ?", "aggregate"),
    ("fr", "Quel forfait a le plus de data ?", "retrieve"),
    ("fr", "Quel est le temps moyen de traitement des réclamations en mars ?", "aggregate"),
    ("fr", "Quel est le délai moyen de réponse prévu par le SLA ?", "retrieve"),
    ("fr", "Dans quels règlements figure une clause de confidentialité ?", "exhaustive"),
    ("fr", "Dans quel document figure la politique de voyage ?", "retrieve"),
    ("fr", "Quels articles ont été ajoutés ces dix derniers jours ?", "recency"),
    ("fr", "Quel est le planning des dix prochains jours ?", "retrieve"),
    ("fr", "Quels irritants ressortent des enquêtes de satisfaction ?", "corpus_analysis"),
    ("fr", "Qu'est-ce qui ressort du rapport annuel ?", "retrieve"),
    ("fr", "Tickets attribués à Julie et ouverts depuis plus de cinq jours", "filter"),
    ("fr", "Combien de jours de congé avons-nous par an ?", "retrieve"),
    # Spanish: "más veces", "media … por / en agosto", "siguen usando", "desde el verano",
    # "patrones comunes en los…", "a juzgar por sus comentarios"
    ("es", "¿Qué producto se devolvió más veces en la tienda de Sevilla?", "aggregate"),
    ("es", "¿Qué plan tiene más almacenamiento?", "retrieve"),
    ("es", "Estancia media de los huéspedes en julio", "aggregate"),
    ("es", "¿Cuál es el tiempo medio de respuesta que garantiza el SLA?", "retrieve"),
    ("es", "¿Qué oficinas siguen usando el antiguo sistema de fichaje?", "exhaustive"),
    ("es", "¿Qué empleados tienen derecho a teletrabajo?", "retrieve"),
    ("es", "¿Qué productos nuevos hemos publicado desde el lunes?", "recency"),
    ("es", "¿Desde cuándo está vigente la nueva política de gastos?", "retrieve"),
    ("es", "¿Hay patrones comunes en las quejas de los pasajeros?", "corpus_analysis"),
    ("es", "¿Cuáles son los principales riesgos del proyecto según el acta?", "retrieve"),
    ("es", "Pedidos asignados a Lucía con entrega para diciembre de 2026", "filter"),
    ("es", "¿Cuántos días de vacaciones tenemos al año?", "retrieve"),
]


@pytest.mark.parametrize(("lang", "question", "kind"), WIDENED)
def test_widened_patterns_fire_and_their_near_misses_stay_retrieval(
    lang: str, question: str, kind: str
) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind) == (lang, kind)


# Revision 6: the last two rules of each set read patterns, not phrases: "all" asked at the
# end or in a separate sentence, what depends on something, and a noun phrase with a field
# condition and no question word. Each positive has a near miss sharing its words.
PATTERNS_6 = [
    ("en", "Summarise the vendor contracts that mention arbitration - all of them.", "exhaustive"),
    ("en", "Do I have to sign all of them?", "retrieve"),
    ("en", "Which dashboards would break if we rename the orders table?", "exhaustive"),
    ("en", "Why would the build break if we rename the orders table?", "retrieve"),
    ("en", "Which pipelines depend on the legacy scheduler?", "exhaustive"),
    ("en", "Which courses mention the honour code? I need the full list.", "exhaustive"),
    ("en", "Support tickets from the Berlin office marked urgent", "filter"),
    ("en", "How are support tickets marked urgent handled?", "retrieve"),
    ("de", "Welche Berichte nennen den Bürgermeister? Bitte ausnahmslos alle.", "exhaustive"),
    ("de", "Welche Buslinien hängen vom Betriebshof Süd ab?", "exhaustive"),
    ("de", "Wovon hängt die Höhe des Elterngelds ab?", "retrieve"),
    ("de", "Bauanträge aus Pankow zwischen dem 3. und dem 20. Mai", "filter"),
    ("de", "Wann ist das Amt zwischen dem 3. und dem 20. Mai geschlossen?", "retrieve"),
    ("de", "Kfz-Schäden mit einer Schadenhöhe über 20.000 €", "filter"),
    ("fr", "Quels articles citent le préfet ? Je les veux tous.", "exhaustive"),
    ("fr", "Quels services dépendent du serveur de messagerie ?", "exhaustive"),
    ("fr", "De quoi dépend le montant de la prime ?", "retrieve"),
    ("fr", "Factures de la boutique de Nantes émises entre le 1er mars et le 15 avril", "filter"),
    ("fr", "Quand la boutique est-elle fermée entre le 1er mars et le 15 avril ?", "retrieve"),
    ("fr", "Demandes de stage au statut « en attente »", "filter"),
    ("es", "¿Qué tiendas venden la marca retirada? Sin dejarte ninguna.", "exhaustive"),
    ("es", "¿Qué sucursales dependen del centro de datos de Bilbao?", "exhaustive"),
    ("es", "¿De qué depende el importe de la beca?", "retrieve"),
    ("es", "Pedidos de la tienda de Vigo confirmados entre el 2 de mayo y el 9 de junio", "filter"),
    ("es", "¿Cuándo cierra la tienda entre el 2 de mayo y el 9 de junio?", "retrieve"),
    ("es", "Incidencias de red que llevan más de 24 horas abiertas", "filter"),
]


# Revision 7: patterns read on blind set 6 and on the misses of every set left out in turn:
# what a collection thinks asked yes/no, a tone over time and trends in a collection; what
# depends on something asked in the conditional or after an "if"; a measure named at the
# start of a noun phrase or over a period; and retrieve exceptions for hard negatives (a
# fronted clause before the question word, a class with a threshold, one policy's number).
PATTERNS_7 = [
    # what a collection thinks, asked yes/no; a tone over time; trends in a collection
    ("en", "Are the reviews of the new checkout mostly positive or negative?", "corpus_analysis"),
    ("en", "Is my account balance positive or negative after the refund?", "retrieve"),
    ("en", "How has the tone of support chats evolved this year?", "corpus_analysis"),
    ("en", "How has the refund policy evolved over the years?", "retrieve"),
    ("en", "trends in the complaints our call centre logs", "corpus_analysis"),
    ("de", "Kommen die Bewertungen des neuen Tarifs eher gut oder schlecht an?", "corpus_analysis"),
    (
        "de",
        "Wie hat sich die Stimmung in den Mitarbeiterbefragungen seit 2023 verändert?",
        "corpus_analysis",
    ),
    ("de", "Wie hat sich die Reisekostenpauschale 2025 verändert?", "retrieve"),
    (
        "fr",
        "Les avis sur la nouvelle carte sont-ils plutôt positifs ou négatifs ?",
        "corpus_analysis",
    ),
    (
        "fr",
        "Comment le ton des courriels clients a-t-il évolué depuis la hausse des prix ?",
        "corpus_analysis",
    ),
    ("fr", "Comment le barème des primes a-t-il évolué en 2025 ?", "retrieve"),
    ("es", "Las reseñas del nuevo menú, ¿son más bien positivas o negativas?", "corpus_analysis"),
    (
        "es",
        "tendencias en las reclamaciones de los clientes de la tienda online",
        "corpus_analysis",
    ),
    # what depends on something, asked in the conditional or after an "if"
    ("en", "Which apps would lose access if the SSO provider goes down?", "exhaustive"),
    ("en", "Which forms would I need if I move abroad?", "retrieve"),
    ("en", "If the billing server fails, which services stop working?", "exhaustive"),
    ("de", "Welche Filialen sind offline, wenn der Router in Köln ausfällt?", "exhaustive"),
    ("de", "Welche Unterlagen brauche ich, wenn ich umziehe?", "retrieve"),
    (
        "fr",
        "Quelles agences perdraient l'accès si le serveur central tombe en panne ?",
        "exhaustive",
    ),
    ("fr", "Si le serveur central tombe, quels services sont touchés ?", "exhaustive"),
    ("es", "¿Qué tiendas se quedarían sin caja si falla el servidor central?", "exhaustive"),
    ("es", "¿Qué documentos necesitaría si me mudo?", "retrieve"),
    # a measure over records named at the start, and a measure over a period
    ("en", "Median days to ship a replacement part by region", "aggregate"),
    ("en", "What's the average handling time for refunds over the last 3 months?", "aggregate"),
    ("de", "Rangfolge der Filialen nach Retourenquote", "aggregate"),
    ("de", "Bestellungen im Oktober, nach Region aufgeschlüsselt", "aggregate"),
    ("fr", "Classement des agences par nombre de réclamations", "aggregate"),
    ("fr", "Délai moyen de remboursement des notes de frais le mois dernier ?", "aggregate"),
    ("es", "Ranking de tiendas por número de devoluciones", "aggregate"),
    ("es", "Suma las horas de guardia de los técnicos entre marzo y mayo.", "aggregate"),
    # a French filter as a noun phrase with a plural participle; adjectives are no participle
    ("fr", "Permis de construire accordés par la mairie en 2025", "filter"),
    ("fr", "Congés payés en cas de maladie ?", "retrieve"),
    ("fr", "Mentions obligatoires sur une facture en France ?", "retrieve"),
    # hard negatives: a fronted clause, a class with a threshold, one policy's number
    ("en", "Before returning a rental car, what do I have to check?", "retrieve"),
    ("en", "Are orders over 500 dollars shipped for free?", "retrieve"),
    ("en", "Every visitor needs a pass - where is reception?", "retrieve"),
    ("en", "Do we need to report every incident to the regulator?", "retrieve"),
    ("de", "Nach einem Unfall: wer muss informiert werden?", "retrieve"),
    ("de", "Wie viele Tage Sonderurlaub gibt es bei der Geburt eines Kindes?", "retrieve"),
    ("de", "Werden Bestellungen über 500 Euro versandkostenfrei geliefert?", "retrieve"),
    ("de", "Welche Formulare brauche ich alle für den Bauantrag?", "retrieve"),
    ("fr", "Après un accident du travail, qui faut-il prévenir ?", "retrieve"),
    ("fr", "Tous les visiteurs doivent porter un badge ?", "retrieve"),
    ("es", "Después de un accidente laboral, ¿a quién hay que avisar?", "retrieve"),
    ("es", "¿Qué pasa con las horas extra que no cobro antes de diciembre?", "retrieve"),
    ("es", "¿Cada cuánto hay que cambiar la contraseña?", "retrieve"),
    ("es", "¿Cada empleado tiene que fichar al salir?", "retrieve"),
    ("es", "¿Se cobran más caras las horas nocturnas?", "retrieve"),
]


# Revision 8: patterns read on blind set 7 and on the misses of every set left out in turn:
# which items use, contain or are affected by something and what would break if; what was
# changed after an event, in a last revision or against last year; what a group thinks asked
# yes/no or about perception, and recurring defects; a noun phrase with a condition in German
# and Spanish; and the false alarms kept as lookups (one documented figure, a rule every member
# follows, where a list is, who signs, a new address). Written for the test, not copied from
# the sets.
PATTERNS_8 = [
    # which items use, contain or are affected by something; what would break if
    ("en", "Which bakeries in the chain use the new gluten-free flour?", "exhaustive"),
    ("en", "Which of the plans include priority support?", "retrieve"),
    ("en", "Which dashboards pull figures from the finance workbook?", "exhaustive"),
    ("en", "What would stop working if we switched off the old VPN gateway?", "exhaustive"),
    ("en", "What would break if I clear my browser cache?", "retrieve"),
    ("de", "In welchen Gerichten der Kantine steckt Sellerie?", "exhaustive"),
    ("de", "In welchen Fällen wird die Kaution einbehalten?", "retrieve"),
    ("de", "Welche Berichte hängen an der Tabelle mit den Messwerten?", "exhaustive"),
    ("de", "Welche Unterlagen hängen an dem Antrag?", "retrieve"),
    (
        "de",
        "Was würde nicht mehr funktionieren, wenn wir den alten Mailserver abschalten?",
        "exhaustive",
    ),
    ("de", "Was würde nicht mehr funktionieren, wenn ich mein Passwort ändere?", "retrieve"),
    ("fr", "Sur quels sites a-t-on installé les nouvelles bornes de recharge ?", "exhaustive"),
    ("fr", "Dans quels cas a-t-on droit au chômage partiel ?", "retrieve"),
    ("fr", "Quels clients ont reçu des palettes du lot 12 ?", "exhaustive"),
    ("fr", "Quels avantages ont reçu les salariés l'an dernier selon la convention ?", "retrieve"),
    (
        "fr",
        "Qu'est-ce qui ne fonctionnerait plus si on coupait l'ancien serveur de paie ?",
        "exhaustive",
    ),
    ("fr", "Qu'est-ce qui se passerait si je résiliais mon contrat ?", "retrieve"),
    ("es", "¿En qué edificios se instaló el ascensor del fabricante Elvara?", "exhaustive"),
    ("es", "¿En qué casos se incluye el seguro de viaje?", "retrieve"),
    ("es", "¿Qué dejaría de funcionar si apagamos el servidor de nóminas?", "exhaustive"),
    ("es", "¿Qué dejaría de funcionar si cambio mi contraseña?", "retrieve"),
    # what was changed after an event or in a last revision; changed against last year
    ("en", "Which safety checklists were updated after the March fire drill?", "recency"),
    ("en", "Was the refund policy changed after the merger?", "retrieve"),
    ("en", "Which sections were removed from the handbook in its latest revision?", "recency"),
    ("en", "How has my salary changed over the last year?", "retrieve"),
    ("de", "Welche Hausordnungen wurden nach dem Wasserschaden im Mai angepasst?", "recency"),
    ("de", "Wurde die Reisekostenrichtlinie nach der Fusion angepasst?", "retrieve"),
    ("fr", "Quelles consignes ont été modifiées après l'exercice d'évacuation ?", "recency"),
    ("fr", "Le règlement a-t-il été modifié après la fusion ?", "retrieve"),
    ("fr", "Les tarifs des cantines ont-ils changé par rapport à l'an dernier ?", "recency"),
    ("es", "¿Qué protocolos se actualizaron tras la inspección de marzo?", "recency"),
    ("es", "¿Se modificó el reglamento tras la fusión?", "retrieve"),
    ("es", "¿Han subido las tasas del parking respecto al año pasado?", "recency"),
    # what a group thinks, asked yes/no or about perception; recurring defects
    ("en", "Are patients generally satisfied with the new booking app?", "corpus_analysis"),
    ("en", "Are employees generally allowed to work from home?", "retrieve"),
    ("en", "Do the exit interviews suggest staff feel overworked?", "corpus_analysis"),
    ("en", "Do the release notes show how to upgrade?", "retrieve"),
    ("en", "Summarise the main themes of the quarterly board reports.", "corpus_analysis"),
    ("en", "Summarise the main themes of the book.", "retrieve"),
    ("de", "Sind die Mieter mit der Hausverwaltung insgesamt zufrieden?", "corpus_analysis"),
    ("de", "Sind die Mitarbeiter insgesamt verpflichtet, Schulungen zu machen?", "retrieve"),
    (
        "fr",
        "Les voyageurs sont-ils globalement satisfaits des nouveaux horaires ?",
        "corpus_analysis",
    ),
    ("fr", "Le client est-il globalement satisfait ?", "retrieve"),
    (
        "fr",
        "Quelles erreurs reviennent le plus dans les déclarations de sinistre ?",
        "corpus_analysis",
    ),
    ("fr", "Quelles erreurs reviennent le plus dans la déclaration ?", "retrieve"),
    ("es", "¿Ves algún patrón en las bajas de socios del gimnasio?", "corpus_analysis"),
    ("es", "¿Hay alguna tendencia en el precio del alquiler en Madrid?", "retrieve"),
    ("es", "¿Qué fallos se repiten en los partes de mantenimiento?", "corpus_analysis"),
    ("es", "¿Qué fallos se repiten en el manual del horno?", "retrieve"),
    # a noun phrase with a condition in a relative clause or participle (de, es)
    ("de", "Bescheide, die Frau Yilmaz 2024 ausgestellt hat", "filter"),
    ("de", "Urlaubstage, die noch nicht genommen wurden", "retrieve"),
    ("es", "Proyectos de fin de grado presentados antes de 2015", "filter"),
    ("es", "Permisos retribuidos por matrimonio", "retrieve"),
    # a request for items narrowed in a second sentence; not the steps of one thing
    ("en", "Show me the invoices. Only the ones from March.", "filter"),
    ("en", "Give me the steps only for Windows", "retrieve"),
    ("de", "Gib mir die Rechnungen. Nur die aus März.", "filter"),
    ("de", "Ich brauche die Unterlagen nur einmal, oder?", "retrieve"),
    ("fr", "Donne-moi les factures. Uniquement celles de mars.", "filter"),
    ("fr", "Montre-moi les étapes uniquement pour Mac", "retrieve"),
    ("es", "Dame las facturas. Solo las de marzo.", "filter"),
    ("es", "Dame los pasos solo para Windows", "retrieve"),
    # a ranking or a mean over records read ahead of the period rules (rule 1 of de, es)
    ("es", "¿Qué sucursal tuvo más reclamaciones este año?", "aggregate"),
    ("es", "¿Qué plan tiene más gigas?", "retrieve"),
    ("de", "mittlere Lieferzeit von Bestellungen im letzten Quartal", "aggregate"),
    ("de", "Welche mittlere Temperatur der Kühlkette ist vorgeschrieben?", "retrieve"),
    # false alarms that stay lookups: one documented figure, a rule every member follows,
    # where a list is, who signs, a new address
    ("en", "What does 'net revenue retention' mean in the board pack glossary?", "retrieve"),
    ("en", "What total number of hours must a nurse complete each year?", "retrieve"),
    ("en", "Every parcel going to Norway needs which customs form?", "retrieve"),
    ("en", "Where can I find the list of approved caterers?", "retrieve"),
    ("en", "Who approves refunds above 1,000 euros?", "retrieve"),
    ("de", "Wie viel Prozent Rabatt bekommen Studierende im Fitnessstudio?", "retrieve"),
    ("de", "Welche durchschnittliche Lieferzeit ist im Rahmenvertrag vereinbart?", "retrieve"),
    ("de", "Neue Telefonnummer der Personalabteilung seit dem Umzug?", "retrieve"),
    ("fr", "Chaque salarié qui part en mission doit-il remplir une note de frais ?", "retrieve"),
    ("fr", "Qui valide les congés de plus de trois semaines ?", "retrieve"),
    ("es", "¿Qué porcentaje de IVA se aplica a los libros de texto?", "retrieve"),
    ("es", "Cada socio que reserva una pista, ¿qué documento tiene que enseñar?", "retrieve"),
    ("es", "¿Qué convenio aplican todas las tiendas de la cadena?", "retrieve"),
    # a topic opening with an attribute plural ("guidelines for", "requirements for")
    ("en", "Requirements for suppliers with more than 50 employees", "retrieve"),
    # what a term means, in each language
    ("de", "Was versteht die Hausordnung unter Ruhezeiten?", "retrieve"),
    ("fr", "Que signifie « taux de transformation » dans le rapport mensuel ?", "retrieve"),
    ("es", "¿Qué significa «ticket medio de los pedidos» en el cuadro de mando?", "retrieve"),
]


@pytest.mark.parametrize(("lang", "question", "kind"), PATTERNS_6 + PATTERNS_7 + PATTERNS_8)
def test_a_revisions_patterns_fire_and_their_near_misses_stay_retrieval(
    lang: str, question: str, kind: str
) -> None:
    # revisions 6 to 8: a positive is decided by a rule whose span is recorded; its near
    # miss (sharing its words) stays retrieval
    r = bp.route(question, model=None)
    assert (r.lang, r.kind) == (lang, kind)
    if kind != "retrieve":
        assert r.decided_by == "rule"
        assert r.matched
        assert r.matched in question


# Revision 9 (a precision pass): a figure or a rule anchored in ONE named document, policy,
# agreement or brochure, a question about what happens to one person on a condition, or who
# to ask is a lookup, however much it is named like a statistic; the counts, statistics and
# lists over many items next to it still route. Written for the test.
PATTERNS_9 = [
    # one document, one figure: stays retrieval
    ("en", "According to the travel policy, what is the average daily meal allowance?", "retrieve"),
    ("en", "What percentage of the fee does the cancellation policy refund?", "retrieve"),
    (
        "en",
        "How much of the deposit is returned if a tenant leaves before the lease ends?",
        "retrieve",
    ),
    (
        "en",
        "Everyone on the night shift gets a parking permit - who do I contact about mine?",
        "retrieve",
    ),
    (
        "de",
        "Wie viele Tage Sonderurlaub stehen mir laut Tarifvertrag bei einem Umzug zu?",
        "retrieve",
    ),
    ("de", "Welchen Höchstbetrag sieht die Reisekostenrichtlinie für Hotels vor?", "retrieve"),
    ("de", "Welche Reaktionszeit sagen wir Premiumkunden im Wartungsvertrag zu?", "retrieve"),
    ("de", "An wen wende ich mich, wenn mein Dienstausweis nicht mehr funktioniert?", "retrieve"),
    (
        "fr",
        "Selon le contrat de travail, quel est le nombre maximal d'heures supplémentaires ?",
        "retrieve",
    ),
    (
        "fr",
        "Quel pourcentage des frais est remboursé si je résilie avant la fin du mois ?",
        "retrieve",
    ),
    ("fr", "À qui dois-je m'adresser pour obtenir un badge d'accès ?", "retrieve"),
    ("es", "¿Cuántas consultas al dentista al año cubre el seguro de empresa?", "retrieve"),
    ("es", "Según el convenio colectivo, ¿cuál es el plus medio por turno de noche?", "retrieve"),
    ("es", "¿A quién pregunto para que me configuren el correo en el móvil?", "retrieve"),
    # many items next to the same words: still routed
    ("en", "How many contracts mention the data processing agreement?", "aggregate"),
    ("en", "What percentage of our tickets were reopened after closing?", "aggregate"),
    ("en", "List all suppliers whose contract expires in 2027", "exhaustive"),
    ("de", "Wie viele Verträge laufen 2027 aus?", "aggregate"),
    ("fr", "Combien de contrats arrivent à échéance en 2027 ?", "aggregate"),
    ("fr", "Qu'est-ce qui a changé dans le règlement intérieur depuis septembre ?", "recency"),
    ("es", "¿Cuántos contratos vencen este año?", "aggregate"),
]


@pytest.mark.parametrize(("lang", "question", "kind"), PATTERNS_9)
def test_revision_9_one_document_guard_and_what_still_routes(
    lang: str, question: str, kind: str
) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind) == (lang, kind)
    if kind == "retrieve":
        assert r.decided_by in ("rule", "default")
    else:
        assert r.decided_by == "rule"
    assert bp.route(question).kind == kind  # the model does not undo it either


# Revision 10 (a precision pass): the DEFINITION of a measure or a term, also with the term in
# quotation marks of any style, and a REQUIREMENT to qualify or comply are lookups, however much
# the measure is named like a statistic; the counts, statistics, lists and filters next to the
# same words still route. Written for the test; revision 9 sent every near miss here away except
# the two marked "as before".
PATTERNS_10 = [
    # a definition: stays retrieval
    ("en", "How is the 'average order value' across all orders defined in the KPI glossary?"),
    ("en", "What counts as the average response time over the last 30 days in the SLA?"),
    ("de", "Wie ist die „durchschnittliche Auslastung“ aller Fahrzeuge im Glossar definiert?"),
    ("de", "Was gilt als Gesamtzahl der Mitarbeitenden im Sinne der Förderrichtlinie?"),
    ("fr", "Comment est défini le « nombre total de salariés » dans le formulaire ?"),
    ("fr", "Qu'entend-on par « chiffre d'affaires moyen des trois derniers exercices » ?"),
    ("es", "¿Cómo se define la «estancia media» en el glosario de indicadores?"),  # as before
    ("es", "¿Qué se considera facturación media de los últimos tres años en el pliego?"),
    # a requirement to qualify: stays retrieval
    (
        "en",
        "What average revenue over the last three years must we show to qualify for the tender?",
    ),
    ("en", "What total number of employees must a supplier prove to be eligible for the contract?"),
    ("de", "Welchen durchschnittlichen Jahresumsatz muss man nachweisen, um sich zu bewerben?"),
    (
        "de",
        "Welchen durchschnittlichen Jahresumsatz der letzten drei Jahre müssen Bieter nachweisen?",
    ),
    ("fr", "Quel est le nombre moyen de salariés qu'il faut justifier pour l'appel d'offres ?"),
    (
        "fr",
        "Quel effectif moyen faut-il justifier pour répondre à l'appel à projets ?",
    ),  # as before
    ("es", "¿Cuántos proyectos de los últimos tres años hay que acreditar para presentarse?"),
    (
        "es",
        "¿Qué volumen medio de negocio de los últimos tres años hay que acreditar para concurrir?",
    ),
]
STILL_ROUTED_10 = [
    # many items next to the same words: still routed
    ("en", "What is the average handling time across all calls last quarter?", "aggregate"),
    ("en", "How many suppliers submitted a bid for the framework tender?", "aggregate"),
    ("en", "List every tender for which we must provide a bank guarantee", "exhaustive"),
    (
        "de",
        "Wie hoch ist die durchschnittliche Auslastung aller Fahrzeuge im Fuhrpark?",
        "aggregate",
    ),
    ("de", "Wie viele Bewerber haben einen Umsatznachweis eingereicht?", "aggregate"),
    ("de", "Alle Ausschreibungen, bei denen man eine Bankbürgschaft vorlegen muss", "exhaustive"),
    ("fr", "Quel est le chiffre d'affaires moyen de nos clients sur trois ans ?", "aggregate"),
    ("fr", "Combien de candidats ont déposé un dossier pour l'appel d'offres ?", "aggregate"),
    ("fr", "Tous les dossiers de candidature déposés après le 1er mars", "filter"),
    ("es", "¿Cuál es la estancia media de todos los pacientes de traumatología?", "aggregate"),
    ("es", "Todas las ofertas presentadas en 2025 con importe superior a 10.000 euros", "filter"),
]


@pytest.mark.parametrize(("lang", "question"), PATTERNS_10)
def test_revision_10_a_definition_or_a_requirement_is_a_lookup(lang: str, question: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind, r.decided_by) == (lang, "retrieve", "rule")
    assert bp.route(question).kind == "retrieve"


@pytest.mark.parametrize(("lang", "question", "kind"), STILL_ROUTED_10)
def test_revision_10_what_still_routes_next_to_the_guard(
    lang: str, question: str, kind: str
) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind, r.decided_by) == (lang, kind, "rule")
    assert bp.route(question).kind == kind  # the model does not undo it either


# Revision 11: a figure FIXED BY ONE DOCUMENT said with a participle ("indiqué dans le devis",
# "im Kaufvertrag festgelegt", "establecido en el contrato", "stated in the policy") is a lookup;
# a request for items as a noun phrase or "which X" with conditions on their fields routes to
# filter; recency, concern overviews and the shapes the higher threshold (0.80) would otherwise
# lose are read by pattern. Written for the test, not taken from any labelled set.
GUARD_11 = [
    ("en", "What is the total deductible stated in the home insurance policy?"),
    ("en", "What average response time is specified in our support agreement?"),
    ("de", "Wie hoch ist die Gesamtsumme der im Kaufvertrag festgelegten Raten?"),
    ("de", "Welche durchschnittliche Lieferzeit ist in der Rahmenvereinbarung festgelegt?"),
    ("de", "Wie hoch ist der Gesamtbetrag, der in der Rechnung ausgewiesen ist?"),
    ("fr", "Quel est le montant total des honoraires indiqué dans le devis du plombier ?"),
    ("fr", "Quel est le taux moyen de revalorisation prévu par l'avenant au bail ?"),
    ("fr", "Quel est le nombre maximal de jours de télétravail fixé par la charte ?"),
    ("es", "¿Cuál es el importe total de la fianza establecido en el contrato de alquiler?"),
    ("es", "¿Qué porcentaje de reembolso está previsto en la póliza de viaje?"),
    ("es", "¿Cuál es la media de horas semanales indicada en el convenio?"),
]
ROUTED_11 = [
    (
        "fr",
        "Quel est le montant moyen des loyers indiqués dans les baux de nos locataires ?",
        "aggregate",
    ),
    ("fr", "Combien de factures indiquent un montant supérieur à 500 euros ?", "aggregate"),
    ("es", "¿Cuál es el importe medio de todas las facturas de 2024?", "aggregate"),
    ("de", "Wie viele Rechnungen wurden 2024 ausgestellt?", "aggregate"),
    ("en", "Purchase orders for the Leeds depot that are still pending", "filter"),
    ("de", "Bachelorarbeiten der Fakultät Informatik aus dem Jahr 2022 mit der Note 1,3", "filter"),
    ("de", "Reklamationen aus dem Werk Süd, die noch offen sind", "filter"),
    ("de", "Welche Gutachten hat das Bauamt im Jahr 2021 erstellt?", "filter"),
    ("fr", "Trajets en car vers la Bretagne d'une durée supérieure à cinq heures", "filter"),
    ("fr", "Quelles circulaires du rectorat ont été publiées en 2022 ?", "filter"),
    ("fr", "Demandes de subvention des associations qui sont encore en attente", "filter"),
    ("es", "Naves industriales en venta en Zaragoza de entre 500 y 900 metros cuadrados", "filter"),
    ("es", "Vídeos de las jornadas técnicas de menos de veinte minutos", "filter"),
    ("es", "Incidencias de los ascensores del edificio B marcadas como críticas", "filter"),
    ("es", "Solicitudes de beca del curso pasado que sigan pendientes", "filter"),
    ("es", "¿Me enseñas los pedidos de Valencia cuyo importe supere los 2000 euros?", "filter"),
    ("fr", "Montre-moi les contrats les plus récemment signés.", "recency"),
    ("es", "Últimas normas añadidas al reglamento del polideportivo", "recency"),
    ("es", "Cambios introducidos en el horario de la biblioteca tras la reforma", "recency"),
    ("de", "Gibt es seit dem Jahreswechsel neue Regeln für Dienstreisen?", "recency"),
    (
        "en",
        "Give me an overview of the concerns raised in the town hall consultation",
        "corpus_analysis",
    ),
    (
        "de",
        "Überblick über die Einwände, die beim Bebauungsplan vorgebracht wurden",
        "corpus_analysis",
    ),
    (
        "fr",
        "Fais une synthèse des objections formulées pendant l'enquête publique.",
        "corpus_analysis",
    ),
    ("es", "Resumen de las alegaciones presentadas al plan urbanístico", "corpus_analysis"),
    ("en", "On average, how long does support take to close a ticket?", "aggregate"),
    ("en", "Which documents on the wiki link to the old expense form?", "exhaustive"),
    ("es", "¿Cuál es la tienda con mayor tasa de devoluciones?", "aggregate"),
    ("es", "¿En qué turno se registran más incidencias en la planta?", "aggregate"),
    ("es", "Apartamentos en la playa para 4 personas que admitan perros", "filter"),
    ("es", "¿De qué temas se habla más en el foro de clientes?", "corpus_analysis"),
    (
        "fr",
        "Comment les visiteurs perçoivent-ils la nouvelle exposition d'après le livre d'or ?",
        "corpus_analysis",
    ),
]
NEAR_MISSES_11 = [
    # one thing's attribute, its own status, one document: stays retrieval
    ("en", "Opening hours of the Leeds depot that are still valid"),
    ("en", "Is my purchase order still pending?"),
    ("de", "Öffnungszeiten der Filiale Mitte"),
    ("de", "Prüfungsordnung der Fakultät Informatik aus dem Jahr 2019"),
    ("de", "Welche Regeln gelten für die Note 1,0?"),
    ("fr", "Quelle est la durée maximale d'un trajet en car ?"),
    ("fr", "Ma demande de subvention est-elle encore en attente ?"),
    ("es", "Horarios de apertura de la biblioteca municipal en verano"),
    ("es", "¿Cuánto cuesta un local de 60 metros cuadrados en Málaga?"),
    ("es", "¿Por qué mi solicitud de beca sigue pendiente?"),
    ("es", "¿Qué cubre la póliza de hogar si la prima supera los 400 euros?"),
    ("es", "¿Cuál es la tienda más cercana a la estación?"),
]


@pytest.mark.parametrize(("lang", "question"), GUARD_11)
def test_revision_11_a_figure_fixed_by_one_document_is_a_lookup(lang: str, question: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind, r.decided_by) == (lang, "retrieve", "rule")
    assert bp.route(question).kind == "retrieve"


@pytest.mark.parametrize(("lang", "question", "kind"), ROUTED_11)
def test_revision_11_patterns_route(lang: str, question: str, kind: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind, r.decided_by) == (lang, kind, "rule")
    assert r.matched
    assert r.matched in question
    assert bp.route(question).kind == kind  # the model does not undo it either


@pytest.mark.parametrize(("lang", "question"), NEAR_MISSES_11)
def test_revision_11_near_misses_stay_retrieval(lang: str, question: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind) == (lang, "retrieve")
    assert bp.route(question).kind == "retrieve"


# Revision 12: the contact, hours, address, telephone or procedure of ONE named unit is a
# lookup however much the unit reads like a condition; a figure one document sets, with the
# verb at the end of a relative clause, is a lookup; the period rule of de/fr/es leaves a
# count, a ranking or an analysis over a period to the rules after it; rankings "Top N X by
# Y", imperative counts, a share as a noun phrase, German overviews and relative-clause
# filters route. Written for the test, not taken from any labelled set.
GUARD_12 = [
    ("en", "Opening hours of the passport office in the town hall"),
    ("de", "Telefonnummer des Bürgerbüros im Bezirk Nord"),
    ("de", "Sprechzeiten der Ambulanz für Kinderchirurgie"),
    ("de", "Wie hoch ist der Zuschuss, den die Betriebsvereinbarung für Brillen vorsieht?"),
    ("de", "Wie viele Stunden, die die Ausbildungsordnung für Praktika festlegt?"),
    ("de", "Wie viele Tage im Jahr erstattet die Versicherung eine Haushaltshilfe?"),
    ("fr", "Adresse du guichet unique de la mairie du 5e arrondissement"),
    ("fr", "Téléphone du secrétariat de la clinique vétérinaire"),
    ("fr", "Quel est le nombre d'heures que le règlement intérieur impose aux stagiaires ?"),
    ("es", "Horario de la farmacia de guardia del barrio de Triana"),
    ("es", "Correo electrónico del departamento de becas de la universidad"),
    ("es", "¿Cuál es el número de días que el convenio establece para mudanzas?"),
    ("en", "Since when has the new parking rule applied, according to the facilities memo?"),
]
ROUTED_12 = [
    ("es", "¿Cuántos pedidos devolvió la tienda online el último trimestre?", "aggregate"),
    ("es", "Los 3 barrios con más denuncias este año", "aggregate"),
    ("es", "¿Hay patrones en las reclamaciones de los últimos dos inviernos?", "corpus_analysis"),
    ("es", "Resume el sentimiento de los comentarios de la app de este mes.", "corpus_analysis"),
    ("fr", "Combien de contrats ont été signés depuis janvier ?", "aggregate"),
    ("fr", "Pourcentage de clients ayant renouvelé leur abonnement", "aggregate"),
    ("de", "Top 10 Filialen nach Umsatz im Dezember", "aggregate"),
    ("de", "Zähl bitte alle Reklamationen im März nach Produktgruppe.", "aggregate"),
    (
        "de",
        "Was sind die übergreifenden Erkenntnisse aus allen Projektberichten?",
        "corpus_analysis",
    ),
    ("de", "Was loben Gäste in den Hotelbewertungen im Großen und Ganzen?", "corpus_analysis"),
    ("de", "Mitglieder des Vereins, die noch keinen Beitrag bezahlt haben", "filter"),
    ("de", "Anträge auf Wohngeld, die im Oktober über das Portal eingingen", "filter"),
    ("en", "Top 5 most borrowed titles by branch in 2025", "aggregate"),
]
NEAR_MISSES_12 = [
    # news of one thing, one entitlement, one unit's opening hours: stays retrieval
    ("de", "Wie viele Urlaubstage habe ich dieses Jahr noch?"),
    ("de", "Regeln für Gäste, die keine Reservierung haben"),
    ("fr", "Quels sont les horaires d'ouverture de la piscine ?"),
    ("fr", "Combien de jours de congé ai-je cette année ?"),
    ("es", "¿Cuántos días de vacaciones me quedan este año?"),
    ("es", "Teléfono de contacto para emergencias"),
    ("en", "Top 10 tips for a faster laptop"),
]


@pytest.mark.parametrize(("lang", "question"), GUARD_12)
def test_revision_12_one_unit_or_one_documents_figure_is_a_lookup(lang: str, question: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind, r.decided_by) == (lang, "retrieve", "rule")
    assert bp.route(question).kind == "retrieve"


@pytest.mark.parametrize(("lang", "question", "kind"), ROUTED_12)
def test_revision_12_patterns_route(lang: str, question: str, kind: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind, r.decided_by) == (lang, kind, "rule")
    assert r.matched
    assert bp.route(question).kind == kind  # the model does not undo it either


@pytest.mark.parametrize(("lang", "question"), NEAR_MISSES_12)
def test_revision_12_near_misses_stay_retrieval(lang: str, question: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind) == (lang, "retrieve")
    assert bp.route(question).kind == "retrieve"


def test_revision_12_guarded_period_rule_reports_the_period_it_read() -> None:
    # the guard reads the whole question; the match reported is still the period
    r = bp.route("Welche Tickets wurden diese Woche geschlossen?", model=None)
    assert (r.kind, r.decided_by, r.matched) == ("recency", "rule", "diese Woche")
    assert "matched 'diese Woche'" in r.why


# ---- revision 13: a figure one document fixes, an entitlement per person, a deadline after an
# event, "latest" inside a deadline: lookups (blind set 12's false alarms, and new phrasings)
GUARD_13 = [
    ("en", "What percentage of ethanol is specified in the bench disinfectant recipe?"),
    ("en", "What is the maximum load allowed under the crane safety manual?"),
    ("en", "How many complimentary tickets does each cast member get for opening night?"),
    ("en", "How many parking permits does each resident receive?"),
    ("en", "Within how many days after delivery must damage be reported?"),
    ("en", "How long after the incident do we have to file the insurance claim?"),
    ("en", "What is the deadline for the final proofs of the annual report?"),
    ("de", "Wie viele Freikarten bekommt jedes Ensemblemitglied zur Premiere?"),
    ("de", "Wie lange nach dem Unfall muss ich den Schaden melden?"),
    ("de", "Wie hoch ist der Anteil Ethanol laut Rezeptur?"),
    ("fr", "Dans quel délai après le décès faut-il demander la pension de réversion ?"),
    ("fr", "Combien de jours de télétravail par salarié sont autorisés ?"),
    ("fr", "Combien de pages au maximum peut compter un mémoire ?"),
    ("es", "¿Cuántas páginas como máximo puede tener un manuscrito para la colección de ensayo?"),
    ("es", "¿Cuál es el plazo para entregar las últimas correcciones antes de imprenta?"),
    ("es", "¿En qué plazo tras el alta hay que pedir la revisión?"),
    ("es", "¿Cuántas entradas gratuitas recibe cada socio?"),
]
# the same words over records still count (the guards read a past tense, an average, a total)
ROUTED_13 = [
    ("en", "How many complimentary tickets did we give away last season in total?", "aggregate"),
    ("de", "Wie viele Freikarten wurden insgesamt pro Mitglied ausgegeben?", "aggregate"),
    ("fr", "Combien de billets gratuits ont été distribués en moyenne par adhérent ?", "aggregate"),
    ("es", "¿Cuántas entradas gratuitas recibimos en total por socio?", "aggregate"),
]


@pytest.mark.parametrize(("lang", "question"), GUARD_13)
def test_revision_13_figure_entitlement_or_deadline_is_a_lookup(lang: str, question: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind, r.decided_by) == (lang, "retrieve", "rule")
    assert bp.route(question).kind == "retrieve"


@pytest.mark.parametrize(("lang", "question", "kind"), ROUTED_13)
def test_revision_13_counts_over_records_still_count(lang: str, question: str, kind: str) -> None:
    assert bp.route(question).kind == kind


# ---- revision 14: a share or limit of a cost that a rule, a funder or a contract class fixes;
# blind set 13's recall patterns (new phrasings, not only blind set 13's) ---------------------
GUARD_14 = [
    ("en", "What percentage of retention is applied in subcontractor contracts?"),
    ("en", "What percentage of indirect costs does the funder allow per project?"),
    ("en", "What share of overheads does Horizon Europe accept in each grant?"),
    ("en", "What percentage of the deposit is withheld under our tenancy agreements?"),
    ("en", "What percentage of local staff does the donor require in each project?"),
    # a pasted traceback line, which the lower threshold would otherwise send to filter
    ("en", 'File "t.py", line 15, in ?'),
    ("en", 'File "/srv/app/views.py", line 212, in render'),
    (
        "de",
        "Welcher Prozentsatz an Gewährleistungseinbehalt gilt in Verträgen mit Subunternehmern?",
    ),
    ("de", "Wie viel Prozent der Gemeinkosten erkennt die DFG pro Projekt an?"),
    ("de", "Welchen Anteil an Verwaltungskosten erlaubt die Stiftung bei jedem Projekt?"),
    ("de", "Wie viel Prozent Eigenanteil verlangt das Land bei Förderprojekten?"),
    # one document of one year: the lower threshold (0.70) must not read it as a filter
    ("de", "Betriebsvereinbarung zur Gleitzeit vom März 2022"),
    ("de", "Die Satzung des Vereins in der Fassung von 2021"),
    (
        "fr",
        "Quel pourcentage de retenue de garantie s'applique dans les contrats de sous-traitance ?",
    ),
    ("fr", "Quel pourcentage de frais indirects l'AFD admet-elle pour chaque projet ?"),
    ("fr", "Quel taux de frais de gestion la Région accepte-t-elle par projet ?"),
    ("fr", "Quelle part de cofinancement exige l'ADEME dans les projets de recherche ?"),
    ("es", "¿Qué porcentaje de gastos de gestión permite la Comisión Europea en cada subvención?"),
    (
        "es",
        "¿Qué porcentaje de cofinanciación exige la Generalitat en los proyectos de cooperación?",
    ),
    ("es", "¿Qué porcentaje de personal local exige la AECID en cada proyecto?"),
    ("es", "¿Cuál es el tope de gastos de viaje que financia el Ministerio por proyecto?"),
]
# a share of records, a past tense or a year still counts
ROUTED_14 = [
    ("en", "What percentage of subcontractor contracts were signed in 2024?", "aggregate"),
    ("en", "What percentage of our projects did the funder reject last year?", "aggregate"),
    (
        "de",
        "Wie viel Prozent der Verträge mit Subunternehmern wurden 2024 unterschrieben?",
        "aggregate",
    ),
    ("de", "Wie viel Prozent der Kosten wurden 2024 erstattet?", "aggregate"),
    ("de", "Wie viel Prozent der Anträge bewilligt die DFG?", "aggregate"),
    ("de", "Prüfungsordnungen aus dem Jahr 2019", "filter"),
    ("de", "Verträge vom März 2022", "filter"),
    ("fr", "Quel pourcentage des contrats de sous-traitance a été signé en 2024 ?", "aggregate"),
    ("fr", "Quelle part des frais a été remboursée en 2024 ?", "aggregate"),
    ("fr", "Quel pourcentage des dossiers l'AFD accepte-t-elle ?", "aggregate"),
    ("es", "¿Qué porcentaje de los contratos con subcontratistas se firmó en 2024?", "aggregate"),
    ("es", "¿Qué porcentaje de contratos con subcontratistas se firmaron en 2024?", "aggregate"),
    (
        "es",
        "¿Qué porcentaje de los gastos se financió con fondos propios el año pasado?",
        "aggregate",
    ),
    ("es", "¿Qué porcentaje de solicitudes se admite en cada convocatoria?", "aggregate"),
    ("es", "¿Qué porcentaje de los proyectos financia la AECID en cada país?", "aggregate"),
    # recall patterns of blind set 13, in new words
    ("de", "Gutachten, die Frau Berger verfasst hat", "filter"),
    ("de", "Protokolle des Vorstands, die Herr Klein unterschrieben hat", "filter"),
    ("fr", "Quel vendeur a obtenu les meilleurs résultats ce trimestre ?", "aggregate"),
    ("fr", "Poids moyen des colis expédiés en mars", "aggregate"),
    (
        "es",
        "Sintetiza las grandes preocupaciones de los vecinos en las reuniones de este mes.",
        "corpus_analysis",
    ),
]
# near misses that stay lookups
NOT_ROUTED_14 = [
    ("de", "Wo finde ich die Pläne, die Schulz erstellt hat?"),
    ("fr", "Quel forfait a eu le meilleur succès ?"),
]


@pytest.mark.parametrize(("lang", "question"), GUARD_14)
def test_revision_14_share_a_rule_or_funder_fixes_is_a_lookup(lang: str, question: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind, r.decided_by) == (lang, "retrieve", "rule")
    assert bp.route(question).kind == "retrieve"


@pytest.mark.parametrize(("lang", "question", "kind"), ROUTED_14)
def test_revision_14_shares_of_records_and_recall_patterns_route(
    lang: str, question: str, kind: str
) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind, r.decided_by) == (lang, kind, "rule")
    assert bp.route(question).kind == kind


@pytest.mark.parametrize(("lang", "question"), NOT_ROUTED_14)
def test_revision_14_near_misses_stay_lookups(lang: str, question: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind) == (lang, "retrieve")
    assert bp.route(question).kind == "retrieve"


# ---- revision 15: record selections as bare noun phrases with conditions on their fields
# (blind set 14's filter misses, in new words); lookups of a price, number, rule or contact
# stay retrieval; "latest" + time or date of a rule is a deadline lookup ---------------------
ROUTED_15 = [
    ("en", "Residential tenants in the Northgate district on monthly rent plans", "filter"),
    ("en", "Night shift nurse vacancies at the Riverside clinic", "filter"),
    ("en", "Members whose membership card expires before March", "filter"),
    ("en", "I'm looking for invoices over £5k that are still unpaid", "filter"),
    ("en", "Contracts still awaiting legal approval", "filter"),
    ("en", "Escalated tickets with status blocked opened in the last 14 days", "filter"),
    ("en", "Closed claims with status rejected from the last 3 months", "filter"),
    ("de", "Transporter am Standort Köln-Süd, frei vom 3. bis 9. Januar", "filter"),
    ("de", "Presseanfragen von Zeitungen aus dem letzten Monat", "filter"),
    ("de", "Mieter, deren Vertrag vor Juli ausläuft", "filter"),
    ("de", "Bestellungen aus Österreich mit Status storniert", "filter"),
    ("fr", "Locataires dont le bail expire avant septembre", "filter"),
    ("fr", "Devis encore en attente de signature du client", "filter"),
    ("fr", "Boutiques du quartier qui ouvrent le dimanche", "filter"),
    ("es", "Farmacias de la provincia de Cádiz que abren los festivos", "filter"),
    ("es", "Socios cuya cuota anual vence antes de marzo", "filter"),
    ("es", "Perros en adopción en Getafe desde marzo", "filter"),
    ("es", "Presupuestos todavía pendientes de firma", "filter"),
]
GUARD_15 = [
    ("en", "Price per night of the pitch with electricity in high season"),
    ("en", "Minimum number of students to open a B2 group"),
    ("en", "Contact for customers in the Northgate area"),
    ("en", "Latest date guests must check out on the last day - what does the policy say"),
    ("en", "latest time drivers must return the vans to the depot"),
    ("en", "Refund policy for bookings at the Harbour hotel"),
    ("de", "Preis pro Nacht für Zimmer am Standort Hamburg in der Hauptsaison"),
    ("de", "Ansprechpartner für Presseanfragen in der Niederlassung Köln"),
    ("de", "Mindestanzahl an Mitgliedern für eine Gruppe in der Region Nord"),
    ("fr", "Nombre maximum de stagiaires pour ouvrir une session de niveau C1"),
    ("fr", "Prix par nuit des logements en attente de validation"),
    ("fr", "Tarif des chambres pour les clients dont le séjour se termine avant midi"),
    ("es", "Precio por noche de la habitación doble con desayuno en temporada baja"),
    ("es", "Plazo para que los socios cuya cuota vence antes de marzo la renueven"),
    ("es", "Contacto para clientes de la provincia de Cádiz"),
]
# a minimum number asked about a level is a lookup, not a filter on the level field (the
# Spanish and French filter rules 7 read "de nivel", "de niveau"); the model may decide it
NOT_ROUTED_15 = [
    ("es", "Número mínimo de alumnos para abrir un grupo de nivel C1"),
    ("fr", "Nombre minimum de participants pour ouvrir un atelier de niveau A2"),
]


@pytest.mark.parametrize(("lang", "question", "kind"), ROUTED_15)
def test_revision_15_noun_phrase_selections_are_filters(
    lang: str, question: str, kind: str
) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind, r.decided_by) == (lang, kind, "rule")
    assert bp.route(question).kind == kind


@pytest.mark.parametrize(("lang", "question"), GUARD_15)
def test_revision_15_noun_phrase_lookups_stay_retrieval(lang: str, question: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind) == (lang, "retrieve")
    assert bp.route(question).kind == "retrieve"


@pytest.mark.parametrize(("lang", "question"), NOT_ROUTED_15)
def test_revision_15_minimum_numbers_stay_lookups(lang: str, question: str) -> None:
    r = bp.route(question, model=None)
    assert (r.lang, r.kind) == (lang, "retrieve")
    assert bp.route(question).kind == "retrieve"
