"""The extractor's shortcuts give exactly what the plain searches give.

Which patterns run on a report is decided from their anchor strings found in one pass
(:class:`AnchorIndex`), lookahead-led patterns are tried only where their lookaheads hold
(:class:`StartFinder`), patterns led by a word-start guard are searched without it, the guard
checked at each match (:class:`GuardedSearch`), or tried only after the characters that are not
letters (:class:`WordStartSearch`). All only save time: any difference from testing every anchor
with ``in`` and searching every pattern with ``finditer`` would change extracted values.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathreport.evaluation.crqs import available_schemas, get_extractor, load_schema
from pathreport.evaluation.crqs.anchors import WORD_START, AnchorIndex, anchor_sets, parsed
from pathreport.evaluation.crqs.match_starts import (
    GuardedSearch,
    StartFinder,
    WordStartSearch,
    factored,
    finder_of,
    first_characters,
)
from pathreport.evaluation.crqs.templates import expander
from pathreport.evaluation.crqs.text import ReportText

# Pieces of report text around numbers and nodes, where the lookahead-led rules live, plus
# overlapping anchor-like strings ("node" inside "nodes", "no" inside "none" and "carcinoma").
PIECES = [
    "0", "1", "3", "12", "27", "one", "none", "no", "not", "nodes", "node", "lymph", "of", "out of",
    "/", "(", ")", ",", ".", ";", ":", "-", " ", " ", " ", "\n", "twenty-one", "three", "thirteen",
    "forty", "eleven", "positive", "negative", "benign", "examined", "recovered", "and", "all",
    "were", "are", "with", "metastatic", "carcinoma", "tumour-free", "free", "margin", "total",
    "level", "station", "which", "contain", "pn1a", "pt2", "x", "cm", "between", "extension",
    # words that open guarded patterns, which also occur inside other words when pieces join
    "grade", "gleason", "er", "pr", "estrogen receptor", "lymphatic", "vascular", "invasion",
    "cin", "mandard", "tumor", "mass", "extends", "involving", "deep", "radial", "staining",
]  # fmt: skip
CHECK_SET = Path(__file__).parent / "crqs_check_set.yaml"
texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)


@pytest.fixture(scope="module")
def extractors():
    return [get_extractor("rule", load_schema(name)) for name in available_schemas()]


def _occurs(anchor: str, text: str) -> bool:
    """A plain anchor anywhere; a word-start anchor ("^er") where no letter precedes it."""
    if anchor.startswith(WORD_START):
        return re.search("(?<![a-z])" + re.escape(anchor[len(WORD_START) :]), text) is not None
    return anchor in text


def _naive_active(rule_sets, text: str) -> list[int]:
    return [
        k
        for k, sets in enumerate(rule_sets)
        if all(any(_occurs(anchor, text) for anchor in options) for options in sets)
    ]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_anchor_index_finds_what_substring_tests_find(extractors, text):
    report = ReportText.from_raw(text + " gleason's")  # a possessive: its "s" is no word
    runs = report.ascii_runs()
    for extractor in extractors:
        rule_sets = [sets for *_, sets in extractor._pattern_rules]
        expected = _naive_active(rule_sets, report.text)
        assert list(extractor._anchors.active(report.text)) == expected
        # with the extractor's words
        assert list(extractor._anchors.active(report.text, runs)) == expected


@pytest.mark.parametrize("dataset", ["reg2025", "tcga"])
def test_remembered_answers_follow_the_substring_tests_of_texts_with_the_same_words(dataset):
    """Texts with the same words that differ in a symbol or a spanning anchor ("3+4" against
    "3 4", "lamina propria" against "propria, lamina") get answers of their own, also when
    asked again in any order."""
    extractor = get_extractor("rule", load_schema(dataset))
    rule_sets = [sets for *_, sets in extractor._pattern_rules]
    index = extractor._anchors
    texts = [
        "gleason score 3 4 7, pattern 4 in 30; invasion of lamina propria",
        "gleason score 3+4=7, pattern 4 in 30%; invasion of lamina propria",
        "gleason score 3 4 7, pattern 4 in 30; invasion of propria, lamina",
        "gleason score 3+4=7, pattern 4 in 30%; invasion of propria, lamina",
    ]
    assert len({frozenset(re.findall("[a-z0-9]+", text)) for text in texts}) == 1
    answers = [list(index.active(text)) for text in texts]
    assert len({tuple(a) for a in answers}) == 4  # the words alone do not decide
    for text, answer in zip(texts * 2, answers * 2, strict=True):
        assert answer == _naive_active(rule_sets, text)
        assert list(index.active(text)) == answer


def test_anchor_index_with_nested_overlapping_and_spanning_anchors():
    rule_sets = [
        [("no",)],
        [("none",), ("of",)],
        [("node", "lymph")],
        [("one",)],
        [],
        [("xyz",)],
        [("lamina propria",)],  # spans a space: found by its key "propria", then tested
        [("her2/neu", "+")],  # a pure symbol has no key
        [("-free",), ("tumor",)],
    ]
    index = AnchorIndex(rule_sets)
    texts = [
        "none of", "nodes", "lymph node", "bone", "", "of no", "nonenone", "xy z",
        "lamina propria", "propria lamina", "her2/neu", "her2 neu", "3+", "tumor-free",
        "free tumor", "a" * 60 + "none",  # a word too long to be remembered
    ]  # fmt: skip
    for _ in range(2):  # the second round reads the remembered words
        for text in texts:
            assert index.present(text) == {
                a for sets in rule_sets for options in sets for a in options if a in text
            }, text
            assert list(index.active(text)) == _naive_active(rule_sets, text), text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_search_shortcuts_match_finditer_for_every_schema_rule(extractors, text):
    normalised = ReportText.from_raw(text).text
    for extractor in extractors:
        starts: dict = {}
        for (_, _, rule, _), finder, regex in zip(
            extractor._pattern_rules, extractor._starts, extractor._regexes, strict=True
        ):
            expected = [(m.span(), m.groupdict()) for m in rule.regex.finditer(normalised)]
            found = (
                regex.finditer(normalised)
                if finder is None
                else finder.matches(regex, normalised, starts)
            )
            assert [(m.span(), m.groupdict()) for m in found] == expected, rule.regex.pattern


def test_every_schema_rule_is_factored_to_the_same_matches_on_the_check_set(extractors):
    reports = [
        ReportText.from_raw(item[key]).text
        for item in yaml.safe_load(CHECK_SET.read_text(encoding="utf-8"))
        for key in ("reference", "paraphrase", "wrong")
        if isinstance(item.get(key), str)
    ]
    changed = 0
    for extractor in extractors:
        for (_, _, rule, _), regex in zip(
            extractor._pattern_rules, extractor._regexes, strict=True
        ):
            changed += regex is not rule.regex
            for report in reports:
                expected = [(m.span(), m.groupdict()) for m in rule.regex.finditer(report)]
                assert [(m.span(), m.groupdict()) for m in regex.finditer(report)] == expected
    assert changed > 100  # most rules open with a group of words


WORDS = ["mild", "mildly", "mi", "m", "moderate", "marked", "severe", "se", "s", "tumor", "tum"]
WORDS += ["tumou?r", "m\\s+x", "m\\s*", "s?e", "\\s*m", "mi\\.", "m-x"]


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(st.sampled_from(WORDS), min_size=2, max_size=8, unique=True),
    after=st.sampled_from(["", r"\s+\w+", r"ly\b", r"(?![a-z])", r"[a-z]*x"]),
    text=st.lists(
        st.sampled_from(
            ["mild", "moderate", "severe", "tumour", "tumor", "m", "s", "e", " ", "  "]
            + ["ly", "x", "y", "-", ".", "mi."]
        ),
        max_size=20,
    ).map("".join),
)
def test_factored_alternatives_keep_every_match_and_its_preference(words, after, text):
    pattern = re.compile("(?P<value>" + "|".join(words) + ")" + after)
    tree = factored(pattern)
    assert [(m.span(), m.group("value")) for m in tree.finditer(text)] == [
        (m.span(), m.group("value")) for m in pattern.finditer(text)
    ]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("(?:mild|mildly|moderate)x", "(?:m(?:ild(?:|ly)|oderate))x"),
        # a beginning is shared as far as it matches one way; "\\s*a" stays in its place
        ("(?:tumou?r|tumor|mass)", "(?:tumo(?:u?r|r)|mass)"),
        ("(?:ab|\\s*a|ac)", "(?:ab|\\s*a|ac)"),
        ("(?:lymph\\s+node|lymph\\s+nodes)", "(?:lymph(?:\\s+node|\\s+nodes))"),
        # a class that opens with "]" ends at its second one
        ("[]()](?:mild|mildly)", "[]()](?:mild(?:|ly))"),
        # the empty remainder keeps its place among the words that share the beginning
        ("(?P<v>ab|a|ac)", "(?P<v>a(?:b||c))"),
        # classes, escapes and groups of anything but plain words stay as written
        ("[(?:a|b)](?:tumou?r|mass)\\(?:c|d\\)", "[(?:a|b)](?:tumou?r|mass)\\(?:c|d\\)"),
    ],
)
def test_factoring_rewrites_only_groups_of_plain_words(source, expected):
    assert factored(re.compile(source)).pattern == expected


def test_start_finder_on_adjacent_and_overlapping_candidates():
    compiled: dict = {}
    pattern = re.compile(r"(?<![a-z])(?=\d|one)(?:\d+|one)(?: ?/ ?\d+)?")
    finder = StartFinder.of(pattern, compiled)
    assert finder is not None and finder.no_letter_before
    for text in ["1/2 3 /4 one/5 bone 7one 12/ 13", "a1 b2 one1", "x" * 200 + " 9"]:
        assert [m.span() for m in finder.matches(pattern, text, {})] == [
            m.span() for m in pattern.finditer(text)
        ]
    # Patterns sharing their lookaheads share one compiled finder, hence one pass per report.
    other = StartFinder.of(re.compile(r"(?=\d|one)(?:one|\d)\s+nodes?"), compiled)
    assert other is not None and other.lookaheads is finder.lookaheads


def test_guarded_search_where_the_guard_fails_and_matches_touch():
    pattern = re.compile(r"(?<![a-z])(?<!no )(?:neg|pos)(?:ative|itive)?")
    search = GuardedSearch.of(pattern)
    assert search is not None
    for text in [
        "negative positive",
        "nonnegative no negative",
        "negpositive neg",
        "xneg neg",
        "",
        "no positivenegative,negative",
    ]:
        assert [m.span() for m in search.matches(pattern, text, {})] == [
            m.span() for m in pattern.finditer(text)
        ], text
    assert search.matches(pattern, "a negative", {})[0].group(0) == "negative"


def test_word_start_search_at_the_start_after_symbols_and_where_the_guard_fails():
    # Numbers and many words open it, so the guarded search declines it.
    pattern = re.compile(r"(?<![a-z])(?<!no )(?:\d+ ?(?:cm|mm)|\d+%|left|right|both|one|two)")
    assert GuardedSearch.of(pattern) is None
    search = WordStartSearch.of(pattern)
    assert search is not None and isinstance(finder_of(pattern, {}), WordStartSearch)
    for text in [
        "left",  # at the text's start, where no character precedes
        "3 cm",
        "3cm4 mm",  # "4 mm" follows a letter: no match there
        "1 mm 2 mm,3mm",  # separated by symbols only
        "5%6% 7%",  # touching: a match begins right after the last one's final symbol
        "no left, left-right",  # the second guard fails after "no "
        "\u00e9left xleft left",  # a letter outside a-z does not guard
        "two3 cm (three)\nboth",
        "",
        "  ",
    ]:
        assert [(m.span(), m.group(0)) for m in search.matches(pattern, text, {})] == [
            (m.span(), m.group(0)) for m in pattern.finditer(text)
        ], text


@pytest.mark.parametrize(
    "source",
    [
        r"(?:left|right|both)",  # nothing rules out a letter before it
        r"(?<![0-9])(?:left|right|both)",  # only digits ruled out
        r"(?<![a-z])(?:\d|left)?",  # may match the empty string: finditer's rules apply
    ],
)
def test_word_start_search_only_where_no_letter_can_precede(source):
    assert WordStartSearch.of(re.compile(source)) is None


def test_a_few_literal_first_characters_keep_the_guarded_search():
    """The engine skips to a few literal characters faster than to every character between
    words, so such a pattern keeps the guarded search."""
    assert isinstance(finder_of(re.compile(r"(?<![a-z])(?:neg|pos)ative"), {}), GuardedSearch)


@pytest.mark.parametrize(
    "source",
    [
        r"(?:negative|positive)",  # no leading assertion: the engine's own scan
        r"(?<![a-z])(?:n|x)?",  # may match the empty string: finditer's rules apply
        r"(?<![a-z])[a-z]+ing",  # may begin at any letter: the guard filters better
        r"(?<![a-z])(?:acute|brisk|chronic|diffuse|early|focal|gross|heavy|intense)",  # 9 letters
        r"(?<!(x))(?:a|b)",  # a group inside the assertion
    ],
)
def test_guarded_search_is_used_only_where_it_pays(source):
    assert GuardedSearch.of(re.compile(source)) is None


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"(?:tumou?r|mass)\s", {"t", "m"}),
        (r"(?P<v>[ab]|c)x", {"a", "b", "c"}),
        (r"(?:ab|c)+x", None),  # a repeat: the engine does not look inside
        (r"\d+", None),  # a category
        (r"[a-c]", None),  # a range
        (r"(?:xy)?z", None),  # an optional first element
        (r"(?:(?:a|b)c|d)", None),  # a branch that starts with a group
    ],
)
def test_first_characters_follow_the_engines_own_prefix_rule(source, expected):
    found = first_characters(parsed(re.compile(source)))
    assert (None if found is None else set(found)) == expected


@pytest.mark.parametrize(
    "source",
    [
        r"(?<![a-z])(?:negative|positive)",  # no lookahead: the engine's own scan
        r"(?=[mfsp])(?:mild|focal|severe)",  # a one-character lookahead selects little
        r"(?=\d|one)(?:\d|one)?",  # may match the empty string: finditer's rules apply
    ],
)
def test_start_finder_leaves_other_patterns_to_the_plain_scan(source):
    assert StartFinder.of(re.compile(source), {}) is None


def test_number_led_node_rules_use_the_start_finder():
    extractor = get_extractor("rule", load_schema("tcga"))
    node_rules = [
        finder
        for (_, f, rule, _), finder in zip(extractor._pattern_rules, extractor._starts, strict=True)
        if f.name == "lymph_node_involvement" and rule.regex.pattern.startswith("(?=[0-9")
    ]
    assert len(node_rules) >= 5
    assert all(finder is not None for finder in node_rules)
    assert len({finder.lookaheads for finder in node_rules}) == 1  # one pass shared by all


STAGE_WORDINGS = [
    "pT2 pN1a", "p T3 N0", "pt 2", "ypT3 ypN0", "yp T1", "T2 N0 M0", "Tis N0", "pT4aN1M0",
    "pN0(sn)", "pN1mi", "pTX", "ptis", "stage pT1b", "pT2, pN0 (0/14)", "N2 disease", "T1, N1",
]  # fmt: skip


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_declared_pattern_anchors_change_no_stage(dataset):
    """Stage rules hide their literals behind lookbehinds and declare them instead; dropping the
    declared anchors (every such rule then runs on every report) extracts the same stages."""
    import dataclasses

    schema = load_schema(dataset)
    declared = [r for f in schema.fields for r in f.patterns if r.anchors]
    assert declared, "the stage rules declare their anchors"
    undeclared = dataclasses.replace(
        schema,
        fields=tuple(
            dataclasses.replace(
                f, patterns=tuple(dataclasses.replace(r, anchors=()) for r in f.patterns)
            )
            for f in schema.fields
        ),
    )
    gated, ungated = get_extractor("rule", schema), get_extractor("rule", undeclared)
    for wording in STAGE_WORDINGS:
        text = f"Adenocarcinoma, moderately differentiated; {wording}."
        found = gated.extract(text)
        assert found == ungated.extract(text), wording
        assert "pt_stage" in found or "pn_stage" in found, wording


def test_start_finder_skips_the_inside_of_words_only_for_patterns_that_reject_it():
    # Both forbid a letter or digit before the match: their shared pass looks at word starts.
    compiled: dict = {}
    count = re.compile(r"(?<![a-z0-9/])(?=\d|one|two)(?:\d+|one|two) of \d+ nodes")
    other = re.compile(r"(?<![a-z0-9])(?=\d|one|two)(?:\d+|one|two) positive")
    # This one starts inside a number ("12" in "n12"): its pass must try every position.
    inner = re.compile(r"(?<![a-z])(?=\d|one|two)(?:\d+|one|two) positive")
    finders = [StartFinder.of(p, compiled) for p in (count, other, inner)]
    assert all(finders)
    assert finders[0].lookaheads is finders[1].lookaheads
    assert finders[2].lookaheads is not finders[0].lookaheads
    texts = [
        "2 of 14 nodes, 12 positive, n12 positive, someone positive, one positive",
        "x2 of 3 nodes 1/2 of 3 nodes two of 5 nodes",
        "",
        "21 positive2 positive",
    ]
    for pattern, finder in zip((count, other, inner), finders, strict=True):
        for text in texts:
            assert [m.span() for m in finder.matches(pattern, text, {})] == [
                m.span() for m in pattern.finditer(text)
            ], (pattern.pattern, text)


# -- word gates: a rewrite step keeps only the report's words that one of its rules looks for ----
def _words_looked_for(module, function: str, gate: str) -> tuple[set[str], list[str]]:
    """(every word ``function`` looks for in its ``words`` set, uses of the set it cannot read).

    Reads the function's source: ``"x" in words``, ``words.isdisjoint(SET or tuple)`` and
    ``SET.intersection(words)``; any other use of ``words`` but the assignment that gates it
    (``words = GATE.intersection(...)``, which must be there) is returned as unreadable.
    """
    tree = ast.parse(inspect.getsource(getattr(module, function)))
    looked_for: set[str] = set()
    readable: set[int] = set()  # ids of the ``words`` name nodes in a form read above

    def is_words(node) -> bool:
        return isinstance(node, ast.Name) and node.id == "words"

    def collection(node) -> set[str]:
        if isinstance(node, ast.Name):
            return set(getattr(module, node.id))
        return {element.value for element in node.elts}

    gating = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and [ast.unparse(t) for t in node.targets] == ["words"]
        and ast.unparse(node.value).startswith(f"{gate}.intersection(")
    ]
    assert len(gating) == 1, f"{function} does not gate its words with {gate}"
    readable.update(id(node) for node in ast.walk(gating[0].value) if is_words(node))
    helpers = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and any(is_words(arg) for arg in node.args)
        and inspect.isfunction(getattr(module, node.func.id, None))
    ]
    for call in helpers:  # a helper handed the gated words reads them by the same forms
        helper = ast.parse(inspect.getsource(getattr(module, call.func.id)))
        tree.body.extend(helper.body[0].body)
        readable.update(id(arg) for arg in call.args if is_words(arg))
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and is_words(node.comparators[0]):
            if isinstance(node.ops[0], ast.In | ast.NotIn) and isinstance(node.left, ast.Constant):
                looked_for.add(node.left.value)
                readable.add(id(node.comparators[0]))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if is_words(node.func.value) and node.func.attr == "isdisjoint":
                looked_for |= collection(node.args[0])
                readable.add(id(node.func.value))
            elif (
                node.func.attr == "intersection"
                and len(node.args) == 1
                and is_words(node.args[0])
                and isinstance(node.func.value, ast.Name)
                and id(node.args[0]) not in readable
            ):
                looked_for |= collection(node.func.value)
                readable.add(id(node.args[0]))
    unreadable = [
        ast.unparse(parent)
        for parent in ast.walk(tree)
        for child in ast.iter_child_nodes(parent)
        if is_words(child) and isinstance(child.ctx, ast.Load) and id(child) not in readable
        and not isinstance(parent, ast.arguments)
    ]  # fmt: skip
    return looked_for, unreadable


@pytest.mark.parametrize(
    ("module_name", "function", "gate"),
    [
        ("abbreviations", "spell_out", "_GATE_WORDS"),
        ("text", "_other_labs_wording", "_OTHER_LABS_GATE"),
    ],
)
def test_word_gates_hold_every_word_a_rule_looks_for(module_name, function, gate):
    """A rule whose word is missing from the gate would silently never fire."""
    module = importlib.import_module(f"pathreport.evaluation.crqs.{module_name}")
    looked_for, unreadable = _words_looked_for(module, function, gate)
    assert unreadable == []
    assert len(looked_for) > 40
    assert looked_for - getattr(module, gate) == set()


def test_word_gates_change_no_rewrite_of_the_check_set_reports(monkeypatch):
    """The gated rewrites equal the ungated ones on every report text of the check set."""
    import yaml

    from pathreport.evaluation.crqs import abbreviations, text

    class Everything(frozenset):
        def intersection(self, words):
            return set(words)

    reports = {
        value
        for triplet in yaml.safe_load(CHECK_SET.read_text(encoding="utf-8"))
        for value in triplet.values()
        if isinstance(value, str) and len(value) > 20
    }
    assert len(reports) > 150
    gated = {report: text.normalise(report) for report in reports}
    monkeypatch.setattr(abbreviations, "_GATE_WORDS", Everything())
    monkeypatch.setattr(text, "_OTHER_LABS_GATE", Everything())
    assert {report: text.normalise(report) for report in reports} == gated


@pytest.mark.parametrize(
    ("pattern", "template"),
    [
        (r"(\w+) (\d+)", r"\2 \1"),
        (r"(a)?(b)", r"[\1|\2]"),  # a group outside the match fills in as ""
        (r"(x)(y)(z)", r"\3\2\1 end"),
        (r"(no) (group) here", "plain"),
    ],
)
@given(text=st.text(alphabet="abxyz 0123456789", max_size=40))
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_template_as_a_function_replaces_as_the_template_does(pattern, template, text):
    regex = re.compile(pattern)
    assert regex.sub(expander(template), text) == regex.sub(template, text)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"er(?<![a-z]er)\s*:?\s*(?P<v>positive|negative)", [("positive", "negative"), ("^er",)]),
        (r"(?<![a-z])pt(?P<v>[0-4])", [("^pt",)]),
        (r"carcinoma(?<!x)", [("carcinoma",)]),  # a lookbehind that is no word start
        (r"(?<![a-z])(?:no|without)\s+mlh1", [("mlh1",), ("no", "without")]),
        (r"x(?<![a-z]x)er", [("^xer",)]),  # the run goes on after its word-start guard
    ],
)
def test_a_literal_no_letter_may_precede_is_a_word_start_anchor(pattern, expected):
    assert anchor_sets(re.compile(pattern)) == expected


def test_word_start_anchors_are_found_where_no_letter_precedes():
    rule_sets = [[("^er",)], [("^pt",), ("2",)], [("er",)], [("^g", "^pn")]]
    index = AnchorIndex(rule_sets)
    texts = [
        "er positive", "cancer", "other tissue", "5er", "(er) negative", "pt2", "except 2",
        "ypt2", "3pt2", "grade", "gland", "big", "pn1", "open", "er", "",
    ]  # fmt: skip
    for _ in range(2):  # the second round reads the remembered words
        for text in texts:
            assert list(index.active(text)) == _naive_active(rule_sets, text), text
