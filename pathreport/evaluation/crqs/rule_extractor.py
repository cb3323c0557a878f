"""The rule-based CRQS extractor: vocabulary phrases, structured patterns and scoped negation.

How one report is read (all of it linear in the report length, so safe on any input):

1. The text is normalised and split into words
   (:class:`~pathreport.evaluation.crqs.text.ReportText`).
2. One pass over the words with a phrase trie finds every vocabulary phrase of every field, every
   negation cue, pseudo-negation and scope terminator. Within a field, phrases are matched
   leftmost-longest ("adenocarcinoma in situ" beats "adenocarcinoma"); across fields they may
   overlap ("tubular adenoma" gives diagnosis = adenoma and histologic_type = tubular).
3. Each field's regular expressions (Gleason, grade group, sizes, "Necrosis: Absent", ...) run on
   the normalised text; schema patterns are checked for nested unbounded quantifiers on load.
   A pattern runs only on reports that contain its anchor strings
   (:mod:`~pathreport.evaluation.crqs.anchors`), one that begins with lookaheads is tried only
   where they hold, and one that begins with a word-start guard is searched without it and the
   guard checked at each match (:mod:`~pathreport.evaluation.crqs.match_starts`); all give exactly
   the matches of a plain search.
4. Negation (see :mod:`pathreport.evaluation.crqs.negation`) turns a negated finding into the
   field's ``negated_value`` (``absent`` for presence fields) or drops it (a negated diagnosis is
   no diagnosis).
5. Each field keeps one value by its ``select`` rule (first mention, highest on the value scale,
   or all values). A selected value may imply values of other fields (diagnosis = adenocarcinoma
   implies benign_vs_malignant = malignant); implied values join those fields' candidates and the
   fields are selected again (one level: implications do not chain).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import accumulate, compress
from operator import ne
from typing import Any

from pathreport.evaluation.crqs.anchors import AnchorIndex, anchor_sets
from pathreport.evaluation.crqs.extractors import Fields, Finding
from pathreport.evaluation.crqs.match_starts import factored, finder_of
from pathreport.evaluation.crqs.negation import HEAD_NOUNS_BEFORE_AN_OBJECT
from pathreport.evaluation.crqs.schema import (
    MULTI_VALUE_SEPARATOR,
    NEGATED_TEMPLATE,
    UNLISTED_PREFIX,
    FieldSpec,
    Schema,
)
from pathreport.evaluation.crqs.spelling import TypoReader
from pathreport.evaluation.crqs.text import COPULAS, ReportText, normalise_phrase
from pathreport.evaluation.crqs.values import (
    ValueParseError,
    breakdown_count,
    examined_part,
    to_int,
    total_count,
)
from pathreport.registry import EXTRACTORS

_END = ""  # trie key that marks a complete phrase (never a word)
TERM, MENTION, PRE, POST, AFFIRM, PSEUDO, STOP, IGNORE = range(8)
# A sign after a finding, its colon or its bracket; not a bullet's dash on the next line ("Left
# pelvic lymph nodes:\n- metastatic carcinoma ...").
_SIGN_AFTER = re.compile(
    r"\s*(?::\s*)?\(\s*([+-]{1,3})\s*\)"
    r"|[ \t]*:[ \t]*([+-]{1,3})(?=$|[\s.,;])"
    r"|([+-]{1,3})(?=$|[\s.,;)/])"
)
_ALPHA_DIGIT = re.compile(r"^([a-z]+) (\d+[a-z]?)$")
# Words that join the items of a list of findings ("no A, B, or C"; "A and B: not identified").
_CONJUNCTIONS = frozenset({"or", "and", "nor", "either", "as", "well"})
_NEGATIVE_TERM_STARTS = frozenset({"no", "without", "negative", "free"})
_NEGATIVE_TERM_ENDS = frozenset({"negative", "neg"})  # "malignancy negative"; "... not seen"
_MAX_LIST_WORDS = 24
_ITEM_SEPARATOR = re.compile(r"[,:]|\s-\s")  # inside an unlisted last item: a new item
_MAX_LAST_ITEM_WORDS = 6  # words of an unlisted last item of a list ("..., and X are absent")
_ENUMERATOR = re.compile(r"[a-z0-9]{1,2}[.)]\s")  # "B. chronic inflammation", "2) ulcer"
# After "and"/"or", these start a clause, not a list item ("..., and the nodes were not sent").
_CLAUSE_OPENERS = frozenset({"the", "a", "an", "there", "it", "this", "these", "they", "its"})
# Words after which a cue begins a statement of its own ("..., and no necrosis is seen",
# "... reaction with no evidence of carcinoma") instead of closing the list before them.
_JOIN_A_STATEMENT = frozenset({"and", "or", "but", "with", "while", "whereas"})
_ARTICLES = frozenset({"a", "an", "the"})
_MAX_OPEN_ITEM_WORDS = 3  # words of an unlisted middle item ("no A, atypical mitoses, or B")
# Words that end a list of findings: a verb or a preposition starts a clause of its own.
_NOT_LIST_WORDS = frozenset(
    {
        "is", "are", "was", "were", "be", "been", "has", "have", "had", "shows", "show",
        "showed", "measures", "measuring", "measured", "involves", "involving", "extends",
        "extending", "invades", "invading", "identified", "seen", "noted", "present", "found",
        "in", "at", "from", "into", "to", "with", "within", "which", "that", "but", "however",
        "although", "while", "whereas", "except",
    }
)  # fmt: skip
_MAX_LABEL_TAIL = 5  # words of a synoptic label after its finding ("... of nodal metastasis:")
_LABEL_TAIL_STARTS = frozenset(
    {"of", "in", "at", "into", "within", "beyond", "through", "to", "on"}
)
# A label tail naming a test of its own: "MYC rearrangement: negative" is not MYC's stain.
_OWN_RESULT = frozenset(
    {"rearrangement", "rearrangements", "amplification", "mutation", "mutations", "deletion",
     "fusion", "translocation", "methylation", "expression", "loss"}
)  # fmt: skip
# After a presence finding, a cue that also opens a scope ("free of", "negative for") states
# that finding's status only when it names tumour ("seminal vesicles free of tumour");
# "intestinal metaplasia, negative for dysplasia" negates the dysplasia, not the metaplasia.
# After a counted structure (margins, nodes) it always states the structure's status.
_TUMOUR_NOUNS = frozenset({"tumor", "tumour", "tumors", "tumours"})
_TUMOUR_WORDS = frozenset(
    {"tumor", "tumour", "tumors", "tumours", "carcinoma", "adenocarcinoma", "malignancy",
     "malignant", "metastasis", "metastases", "metastatic", "neoplasm", "neoplasia", "cancer",
     "disease", "involvement", "residual", "invasive", "neoplastic", "melanoma", "lymphoma",
     "sarcoma"}
)  # fmt: skip
_MAX_ASIDE_CHARS = 80  # a bracketed aside between a finding and its status cue
# Cues written as a prefix of one word ("non-necrotizing"): they negate that word only.
_PREFIX_CUES = frozenset({"non"})
_OBJECT_PREPOSITIONS = frozenset({"of", "into", "beyond", "through"})
# A comma or line end followed by one of these starts a new item ("..., - fungal infection").
_BULLET_GAP = re.compile(r"[,\n]\s*[-*\u2022(]")
# Words that end the modifiers of an unlisted entity ("consistent with [xanthoma]").
_NOT_MODIFIERS = frozenset(
    {
        "a", "an", "the", "of", "with", "and", "or", "in", "is", "are", "was", "were", "for",
        "to", "by", "from", "on", "at", "as", "no", "not", "without", "shows", "showing", "show",
        "consistent", "suggestive", "favor", "favour", "compatible", "residual", "focal",
        "suspicious", "probable", "possible", "likely", "diagnosis", "final", "type",
        "be", "been", "being", "proved", "proven", "represents", "represent", "revealed",
    }
)  # fmt: skip


# Words between a list's conjunction and its last item that leave the item a list item: "or any
# malignancy", "or evidence of malignancy".
_ITEM_LEADS = frozenset({"any", "evidence", "signs", "sign", "features"})
_LEAD_ENDS = frozenset({"any", "of"})  # the word a lead ends with, right before the item


def _after_lead(words: Sequence[str], i: int) -> bool:
    """Word i follows a list's conjunction and a lead ("or evidence of", "or any")."""
    k = i - 1
    if k >= 1 and words[k] == "of" and words[k - 1] in _ITEM_LEADS:
        k -= 2
    if k >= 1 and words[k] == "any":
        k -= 1
    return k < i - 1 and k >= 0 and words[k] in _CONJUNCTIONS


# Verbs of spread whose forms a phrase may start with; a listed form stands for all of them.
_VERB_ENDINGS = {
    **dict.fromkeys(("invad", "involv", "infiltrat", "penetrat", "perforat"),
                    ("e", "es", "ing", "ed")),
    "extend": ("", "s", "ing", "ed"),
    **dict.fromkeys(("breach", "reach"), ("", "es", "ing", "ed")),
}  # fmt: skip
_VERB_FORM = re.compile(r"^({})(e|es|s|ing|ed|)$".format("|".join(_VERB_ENDINGS)))


def phrase_variants(phrase: str) -> set[tuple[str, ...]]:
    """Word sequences that spell ``phrase``: plural of the last word, joined hyphen compounds.

    "non-invasive" is also "noninvasive"; "cin 2" is also "cin2"; "calcification" is also
    "calcifications". Authors list real synonyms; spelling variants come for free.
    """
    words = normalise_phrase(phrase).split()
    if not words:
        return set()
    variants = {tuple(words)}
    if "-" in phrase and len(words) > 1:
        variants.add(("".join(words),))
    m = _ALPHA_DIGIT.match(" ".join(words))
    if m:
        variants.add((m.group(1) + m.group(2),))
    verb = _VERB_FORM.match(words[0]) if len(words) > 1 else None
    if verb:  # "invades the myometrium" is also "invade", "invading", "invaded the myometrium"
        stem = verb.group(1)
        for ending in _VERB_ENDINGS[stem]:
            variants.add((stem + ending, *words[1:]))
    for v in list(variants):
        last = v[-1]
        if last.isalpha() and len(last) > 2:
            variants.add((*v[:-1], last + "s"))
            if last.endswith(("s", "x", "ch", "sh")):
                variants.add((*v[:-1], last + "es"))
            if last.endswith("y") and last[-2] not in "aeiou":
                variants.add((*v[:-1], last[:-1] + "ies"))
    return variants


def _in_list(terms: dict, n_words: int) -> bytearray:
    """Which words belong to a finding (a term, a mention or a cue's phrase, not an ignored
    one): the words a list of findings may run over."""
    in_list = bytearray(n_words)
    for (i, _), (j, _, kind) in terms.items():
        if kind != IGNORE:
            in_list[i : j + 1] = b"\x01" * (j + 1 - i)
    return in_list


class RuleExtractor:
    """Rule backend for one schema (build once, call many times; thread-safe after build)."""

    name = "rule"

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.fields: tuple[FieldSpec, ...] = schema.fields
        self._field_index = {f.name: i for i, f in enumerate(self.fields)}
        self._value_implies = [
            {v.canonical: v.implies for v in f.values if v.implies} for f in self.fields
        ]
        self._root: dict = {}
        # Every word of every phrase, and those of the fields' terms (the words a slip is read
        # as; a negation cue's inflections are no such target), for TypoReader.
        self._vocabulary: set[str] = set()
        self._term_words: set[str] = set()
        cues = schema.negation
        for kind, phrases in (
            (PRE, cues.pre),
            (POST, cues.post),
            (AFFIRM, cues.affirm),
            (PSEUDO, cues.pseudo),
            (STOP, cues.terminators),
            (PRE, cues.unknown_pre),
            (POST, cues.unknown_post),
        ):
            for phrase in phrases:
                self._insert(phrase, (kind, -1, None))
        # Cue texts as ``negation`` reports them (the report's words joined by spaces).
        self._unknown_cues = frozenset(
            " ".join(words)
            for phrase in (*cues.unknown_pre, *cues.unknown_post)
            for words in phrase_variants(phrase)
        )
        for fi, f in enumerate(self.fields):
            for value in f.values:
                for synonym in value.synonyms:
                    self._insert(synonym, (TERM, fi, value.canonical))
            for phrase in f.negated_mentions:
                self._insert(phrase, (MENTION, fi, None))
            for phrase in f.ignore:
                self._insert(phrase, (IGNORE, fi, None))
        self._fillers = cues.fillers
        self._list_joiners = _CONJUNCTIONS | cues.fillers  # words that join a list's items
        self._max_gap = cues.max_gap
        self._max_post = cues.max_post_fillers
        self._negatable = [f.negatable for f in self.fields]
        # Fields that state a status (present/absent, counts), which "X negative for Y" negates.
        self._status_field = [f.type in ("presence", "count") for f in self.fields]
        self._count_field = [f.type == "count" for f in self.fields]
        self._negated_values = [f.negated_value for f in self.fields]
        # Fields that count statements ("select: number"): each value is the statement's place.
        self._counts_statements = [f.select == "number" for f in self.fields]
        self._only_negated = [f.only_negated for f in self.fields]
        self._status_subjects = [frozenset(f.negated_after_is_status) for f in self.fields]
        self._own_structures = [f.spared_structures_except for f in self.fields]
        self._spared_fields = frozenset(
            fi for fi, own in enumerate(self._own_structures) if own is not None
        )
        self._own_status = [f.own_status for f in self.fields]
        # The fields that name the report's entities (adenoma, gastritis, adenocarcinoma) and
        # their types ("basal cell carcinoma, nodular type").
        self._entity_fields = frozenset(
            k for k, f in enumerate(self.fields) if f.name in ("diagnosis", "histologic_type")
        )
        self._open_fields = [(fi, f.open_class) for fi, f in enumerate(self.fields) if f.open_class]
        # A field's value is void where another field reads the value that contradicts it.
        self._void_when = [
            (fi, [(self._field_index[t], v) for t, v in f.void_when if t in self._field_index])
            for fi, f in enumerate(self.fields)
            if f.void_when
        ]
        self._free_with = [
            (fi, self._field_index[f.free_with]) for fi, f in enumerate(self.fields) if f.free_with
        ]
        self._only_with = [(fi, f.only_with) for fi, f in enumerate(self.fields) if f.only_with]
        # Fields whose value is how many statements there are, even for one (``select: number``).
        self._counted_fields = frozenset(
            fi for fi, f in enumerate(self.fields) if f.select == "number"
        )
        self._examined_of = [  # a profile without the count field keeps the stated numbers
            (fi, self._field_index[f.examined_of])
            for fi, f in enumerate(self.fields)
            if f.examined_of in self._field_index
        ]
        self._pattern_rules = []
        for fi, f in enumerate(self.fields):
            for rule in f.patterns:
                sets = [rule.anchors] if rule.anchors else anchor_sets(rule.regex)
                self._pattern_rules.append((fi, f, rule, sets))
        # A rule runs only when every one of its anchor sets has a member in the text.
        self._anchors = AnchorIndex([sets for *_, sets in self._pattern_rules])
        # Each rule is searched in its factored form (the same matches, fewer attempts; its
        # anchors are taken from the pattern as written). Rules that begin with lookarounds are
        # searched without them, and those that begin with lookaheads tried only where they hold
        # (see match_starts).
        self._regexes = [factored(rule.regex) for _, _, rule, _ in self._pattern_rules]
        lookaheads: dict[str, re.Pattern] = {}
        self._starts = [finder_of(regex, lookaheads) for regex in self._regexes]
        # What the scan needs of each rule, in one tuple: a rule that runs costs one lookup, and
        # its options (constant value, template, negation, total) are read only where it matches.
        self._runs = [
            (
                fi,
                f,
                finder,
                regex,
                rule.each,
                (
                    rule.value,
                    rule.value is not None and "{" in rule.value,
                    rule.negatable,
                    rule.total,  # the schema allows it in "total" fields only
                ),
            )
            for (fi, f, rule, _), finder, regex in zip(
                self._pattern_rules, self._starts, self._regexes, strict=True
            )
        ]
        self._freeze(self._root)
        self._typos = TypoReader(self._vocabulary, targets=self._term_words)

    def _freeze(self, node: dict) -> None:
        """Turn each phrase's payload list into (is_pseudo_negation, payloads) for the scan."""
        for key, child in node.items():
            if key == _END:
                node[_END] = (any(p[0] == PSEUDO for p in child), tuple(child))
            else:
                self._freeze(child)

    def _insert(self, phrase: str, payload: tuple) -> None:
        for words in phrase_variants(phrase):
            self._vocabulary.update(words)
            if payload[0] in (TERM, MENTION, IGNORE):
                self._term_words.update(words)
            node = self._root
            for w in words:
                node = node.setdefault(w, {})
            bucket = node.setdefault(_END, [])
            if payload not in bucket:
                bucket.append(payload)  # lists until _freeze() runs at the end of __init__

    # -- public API ----------------------------------------------------------------------------
    def extract(self, text: str) -> Fields:
        """Canonical value per extracted field, in schema order."""
        return self._run(text, explain=False)[0]

    def extract_many(self, texts: Sequence[str]) -> list[Fields]:
        return [self.extract(t) for t in texts]

    def explain(self, text: str) -> tuple[Fields, list[Finding]]:
        """The fields and every finding behind them (selected ones flagged), for debugging."""
        return self._run(text, explain=True)

    # -- internals -----------------------------------------------------------------------------
    def _scan(self, rt: ReportText) -> list[tuple[int, int, list]]:
        words, join, n, root = rt.words, rt.joinable, len(rt.words), self._root
        hits = []
        for i in range(n):
            node = root.get(words[i])
            if node is None:
                continue
            j = i
            while True:
                entry = node.get(_END)
                if entry is not None:
                    hits.append((i, j, entry))
                j += 1
                if j >= n or not join[j]:
                    break
                node = node.get(words[j])
                if node is None:
                    break
        return hits

    def _run(self, raw: str, *, explain: bool) -> tuple[Fields, list[Finding]]:
        rt = ReportText.from_raw(raw)
        # "adenocarinoma", "perinueral": read as the words meant, by the terms and the patterns.
        fixed = self._typos.fix(rt.text, rt.words, rt.starts, rt.ends)
        if fixed is not rt.text:
            rt = ReportText.from_normalised(fixed)
        hits = self._scan(rt) if rt.words else []

        pseudo: set[int] = set()
        for i, j, (is_pseudo, _) in hits:
            if is_pseudo:
                pseudo.update(range(i, j + 1))
        pre_by_start: dict[int, int] = {}
        post_by_start: dict[int, tuple[int, int]] = {}
        stop_starts: list[int] = []
        # (start, field) -> (end, value, kind): keyed by start first, so that the items sort in
        # text order as they are (no key function per item)
        terms: dict[tuple[int, int], tuple[int, Any, int]] = {}
        for i, j, (_, payloads) in hits:
            for kind, fi, value in payloads:
                if kind in (TERM, MENTION, IGNORE):
                    old = terms.get((i, fi))
                    if old is None or j > old[0] or (j == old[0] and kind < old[2]):
                        terms[(i, fi)] = (j, value, kind)
                elif i in pseudo:
                    continue
                elif kind == PRE:
                    pre_by_start[i] = max(j, pre_by_start.get(i, j))
                elif kind in (POST, AFFIRM):
                    old_post = post_by_start.get(i)
                    if old_post is None or j > old_post[0]:
                        post_by_start[i] = (j, kind)
                elif kind == STOP:
                    stop_starts.append(i)
        # "non" that begins a term of its own ("non-keratinizing") is that term's first word, not
        # a negation of the entity after it ("non-keratinizing squamous cell carcinoma").
        prefixed = [k for k in pre_by_start if rt.words[k] in _PREFIX_CUES]
        if prefixed:
            term_starts = {i for (i, _), (_, _, kind) in terms.items() if kind == TERM}
            for k in prefixed:
                if k in term_starts:
                    del pre_by_start[k]
        # A cue inside a longer one belongs to it: the "exclude" of "cannot exclude" (a finding
        # held possible) negates nothing of its own.
        if len(pre_by_start) > 1:
            inner = {k for i, j in pre_by_start.items() for k in range(i + 1, j + 1)}
            for k in inner.intersection(pre_by_start):
                del pre_by_start[k]
        has_cues = bool(pre_by_start or post_by_start)  # most short reports negate nothing
        # A list of findings ("no A, B, or C"; "A, B and C are not identified") shares one
        # negation cue across its commas. A word belongs to such a list when it is part of a
        # finding, a conjunction or a filler; prefix counts answer "is words a..b a list?" in O(1).
        n_words = len(rt)
        # Read only by negation's list rules, which run where a cue is, and by the open-class
        # reader below (which builds it if no cue did): most short reports need neither.
        in_list = _in_list(terms, n_words) if has_cues else None

        def negation_reader() -> Callable[..., tuple[bool, str | None, bool]]:
            """The negation reader of a report that has a cue, or a sign after a finding.

            Built only for such a report: most short reports have neither, and they skip both
            the indexes of cues that its helpers read and the building of the helpers (about
            twenty closures).
            """
            # "negative for" / "free of" also open a pre-cue scope. After a status finding they
            # close it ("seminal vesicles are free of tumor"); after an entity they do not
            # ("adenocarcinoma, poorly differentiated negative for lymphovascular invasion" keeps
            # the adenocarcinoma).
            opens_scope = {i for i, (j, _) in post_by_start.items() if pre_by_start.get(i, -1) > j}
            status_field = self._status_field
            count_field = self._count_field
            pre_cues = sorted((j, i) for i, j in pre_by_start.items())  # by end word
            pre_ends = [j for j, _ in pre_cues]
            stop_starts.sort()

            own_status = self._own_status
            own_status_ends = {
                j for (_, fi), (j, _, kind) in terms.items() if kind != IGNORE and own_status[fi]
            }

            fillers = self._fillers

            def result_of_test(k: int) -> bool:
                """The cue at word k follows a test's term (fillers aside): "CK7 is negative"."""
                at = k - 1
                while at >= 0 and rt.words[at] in fillers and not rt.comma_between(at + 1, at + 1):
                    at -= 1
                return at in own_status_ends

            prefix: list[list[int]] = []  # [listish, conjunctions] prefix counts, built on demand

            def measured(j: int) -> bool:
                """The finding ending at word j is followed by its number ("mitotic rate 3/mm2",
                "mitoses: 5 per 10 HPF"): a statement of its own, not an item of a negated list."""
                return (
                    j + 1 < n_words
                    and rt.words[j + 1][0].isdigit()
                    and not rt.text[rt.ends[j] : rt.starts[j + 1]].strip(" \t:")
                )

            def item_break(k: int) -> bool:
                """The gap before word k opens a new bulleted item."""
                return (
                    k > 0 and _BULLET_GAP.search(rt.text, rt.ends[k - 1], rt.starts[k]) is not None
                )

            def counts() -> list[list[int]]:
                # Most reports never ask (no cue near a comma): the words are classified only if
                # needed, each test once over the whole report.
                if not prefix:
                    words = rt.words
                    commas = rt.comma_count
                    comma_before = list(map(ne, commas[1:], commas[:-1]))
                    joiners = self._list_joiners
                    # An item number joins a list ("with 1) ulcer 2) erosion") unless a comma
                    # precedes it: "without necrosis, (2) fungal infection" starts a new item.
                    member = [
                        bool(listed)
                        or word in joiners
                        or (len(word) <= 2 and not comma and word.isdigit())
                        for listed, word, comma in zip(in_list, words, comma_before)
                    ]
                    for k in compress(range(len(words)), comma_before):
                        if member[k] and item_break(k):
                            member[k] = False  # a bulleted item opens after the comma
                    conj = [0, *accumulate(word in _CONJUNCTIONS for word in words)]
                    prefix.extend(([0, *accumulate(member)], conj))
                return prefix

            def is_list(a: int, b: int) -> bool:
                """Words a..b (inclusive; empty when b < a) are list items and joiners only."""
                if b < a:
                    return True
                if b - a >= _MAX_LIST_WORDS or rt.boundary_between(a, b):
                    return False
                listish = counts()[0]
                return listish[b + 1] - listish[a] == b + 1 - a

            def is_open_list(a: int, b: int) -> bool:
                """Words a..b are a comma list whose items may lie outside the vocabulary.

                "no necrosis, atypical mitoses, or lymphovascular invasion" and "negative for CEA,
                TTF-1 and MOC-31" negate every item, although "atypical mitoses" and "CEA" are no
                finding of any field. Each unknown item, or the unknown modifiers of a finding
                ("brisk mitotic activity"), is short (up to ``_MAX_OPEN_ITEM_WORDS`` words between
                commas or conjunctions), no word of it starts a clause, and the words a..b hold a
                comma.
                """
                if b < a or b - a >= _MAX_LIST_WORDS or rt.boundary_between(a, b):
                    return False
                if not rt.comma_between(a, b + 1):
                    return False
                listish = counts()[0]
                run = 0  # unknown words in the current item
                for k in range(a, b + 1):
                    if rt.comma_between(k, k) or rt.words[k] in _CONJUNCTIONS:
                        if item_break(k) or _ENUMERATOR.match(rt.text, rt.starts[k]):
                            # ", (2) ..." or ", B. ...": the next item of a report list
                            return False
                        opens_clause = k + 1 < n_words and rt.words[k + 1] in _CLAUSE_OPENERS
                        if rt.words[k] in _CONJUNCTIONS and opens_clause:
                            return False  # ", and the lymph nodes were not examined": a clause
                        run = 0
                    if listish[k + 1] > listish[k]:
                        continue
                    if breaks_open_item(k):
                        return False
                    run += 1
                    if run > _MAX_OPEN_ITEM_WORDS:
                        return False
                return True

            def coordinated(a: int, b: int, j: int) -> bool:
                """The open list a..b, ending at a finding that ends at word j, is coordinated: a
                conjunction comes before the finding ("..., or PNI") or follows it in the same
                clause ("CEA, TTF-1 and MOC-31"). Without one, "no atrophy, focal intestinal
                metaplasia" states two findings, the second one present."""
                if has_conjunction(a, b):
                    return True
                k = j + 1
                while k < n_words and k <= j + _MAX_LIST_WORDS and not rt.boundary_between(k, k):
                    if rt.words[k] in _CONJUNCTIONS:
                        return True
                    if breaks_open_item(k):
                        return False
                    k += 1
                return False

            def has_conjunction(a: int, b: int) -> bool:
                if b < a:
                    return False
                conj = counts()[1]
                return conj[b + 1] - conj[a] > 0

            def coordinated_clause(a: int, b: int) -> bool:
                """Words a..b hold one comma, right before a conjunction: ", and X" after a single
                item joins two clauses ("free of tumor, and carcinoma is found in the adrenal"); a
                list of findings puts a comma before its conjunction only from three items on."""
                commas = rt.comma_count
                if commas[b + 1] - commas[a] != 1:
                    return False
                k = bisect_right(commas, commas[a], a, b + 2) - 1  # the word the comma precedes
                return rt.words[k] in _CONJUNCTIONS

            def breaks_open_item(k: int) -> bool:
                """Word k cannot belong to a list item outside the vocabulary: a cue, a verb or a
                preposition starts a clause of its own."""
                return k in pre_by_start or k in post_by_start or rt.words[k] in _NOT_LIST_WORDS

            def stated_at(k: int) -> tuple[bool, str]:
                """(negative, cue text) of the post cue that starts at word k."""
                end, kind = post_by_start[k]
                return kind == POST, " ".join(rt.words[k : end + 1])

            term_start_words: list[set[int]] = []  # built on first use

            def opens_a_finding(k: int, fi: int) -> bool:
                """The "no" at word k starts a statement about the term right after it ("for
                vulval squamous cell carcinoma: No metastatic carcinoma"), not the status of the
                finding of field fi before it ("LVI: no"). A mention after it ("Seminal
                vesicles: no tumour") keeps the status, and so does a test ("SOX10: no
                melanoma" is its negative result)."""
                if rt.words[k] != "no" or k + 1 >= n_words or rt.boundary_between(k + 1, k + 1):
                    return False
                if fi >= 0 and own_status[fi]:
                    return False
                if not term_start_words:
                    term_start_words.append(
                        {w for (w, _), (_, _, kind) in terms.items() if kind == TERM}
                    )
                return k + 1 in term_start_words[0]

            entity_end_words: list[set[int]] = []  # built on first use

            def entity_ends() -> set[int]:
                """The words where a term of an entity field ends (asked only at a list's cue)."""
                if not entity_end_words:
                    entity_fields = self._entity_fields
                    entity_end_words.append(
                        {
                            j
                            for (_, f), (j, _, kind) in terms.items()
                            if f in entity_fields and kind == TERM
                        }
                    )
                return entity_end_words[0]

            def find_list_post_cue(j: int) -> tuple[int, str] | None:
                """A negative post cue that closes a list continuing after word j ("A, B: absent").

                The list's last item, after its conjunction, may be a phrase outside the vocabulary
                ("necrosis, capsular invasion, and extension into adipose tissue are not present"),
                and so may a short middle item when the list goes on to its conjunction
                ("microsatellites, satellites and in-transit metastases: none").
                """
                # "AFB (ZN) and fungal stains both negative": an aside after the first item.
                k = j + 1
                if "(" in rt.text[rt.ends[j] : rt.ends[j] + 3]:
                    k = bracketed_after(j) or k
                listish = counts()[0]
                last_conjunction = -1
                # inside an unlisted last item, which starts at its conjunction
                unlisted_tail = False
                open_words = 0  # unknown words of the current middle item ("A, satellites and B")
                last_open = -1  # the last such word
                used_open = False  # such an item was passed: the list must reach its conjunction
                may_open: bool | None = None  # a conjunction lies ahead (asked only when needed)
                copula = False  # "are" before a term: the term is its clause's, not the list's
                while k < n_words and k <= j + _MAX_LIST_WORDS and not rt.boundary_between(k, k):
                    cue = post_by_start.get(k)
                    if cue is not None:
                        if cue[1] != POST or _opens_aside(rt.text, rt.ends[j], rt.starts[k]):
                            return None  # "(E-cadherin negative)" is E-cadherin's status
                        # "Necrotizing granulomatous inflammation, negative for malignancy",
                        # "chronic active gastritis, H. pylori absent": a finding that modifies the
                        # next one is no item of a list that a cue after a comma closes ("invasive
                        # malignancy not identified" is).
                        nxt = j + 1
                        if (
                            in_list[nxt]
                            and rt.words[nxt] not in _CONJUNCTIONS
                            and rt.words[nxt] not in fillers
                            and rt.comma_between(nxt, k)
                            and not rt.boundary_between(nxt, nxt)
                            and not rt.comma_between(nxt, nxt)
                        ):
                            return None
                        if (
                            k in pre_by_start
                            and (rt.words[k - 1] in _JOIN_A_STATEMENT or pre_by_start[k] == cue[0])
                            and not _ends_clause(rt, cue[0])
                            and ":" not in rt.text[rt.ends[j] : rt.starts[k]]
                        ):
                            # "invades the pleura, and no necrosis is seen": a cue right after a
                            # conjunction or "with", or a bare "no", opens a statement of its own;
                            # "not seen in the sample" is a status (its "not" no cue of its own).
                            # A cue closes the list at a clause end ("LVI, PNI: no."), after a label
                            # ("Lymph nodes and biopsies: no malignancy") or as the status of a
                            # specimen ("Seminal vesicles, negative for carcinoma").
                            return None
                        if used_open and (last_conjunction < 0 or not _ends_clause(rt, cue[0])):
                            return None  # "pN2 (...), and pMX (no distant metastasis)": not a list
                        if (
                            rt.words[k - 1] in _MARGIN_WORDS
                            and k - 2 > j
                            and rt.words[k - 2] not in _CONJUNCTIONS
                            and not rt.comma_between(k - 1, k - 1)
                            and ":" not in rt.text[rt.ends[k - 1] : rt.starts[k]]
                        ):
                            # "HSIL, endocervical and ectocervical margins free": a list of named
                            # margins whose status follows them, not a list of findings ("LVI and
                            # deep margin: negative" is a list of labels).
                            return None
                        if (
                            last_conjunction < 0
                            and ":" not in rt.text[rt.ends[j] : rt.starts[k]]
                            and j in entity_ends()
                        ):
                            # "Tubular adenoma, high-grade dysplasia absent", "adenocarcinoma, LVI
                            # absent", "BCC, nodular type, PNI not identified": an entity (or its
                            # type), then a finding of it with its own status; only a
                            # list closed by its conjunction or a colon ("adenoma, dysplasia and
                            # carcinoma: absent") negates an entity at its head.
                            return None
                        return k, stated_at(k)[1]
                    listed = listish[k + 1] > listish[k]
                    if rt.words[k] in COPULAS:
                        copula = True
                    elif copula and in_list[k]:
                        return None  # "express CK20 and CDX2 and are CK7 negative": a clause
                    if rt.words[k] in _CONJUNCTIONS and not unlisted_tail:
                        last_conjunction = k
                    elif not listed and last_conjunction < 0:
                        if not rt.comma_between(j + 1, k):
                            return None  # no comma yet: the finding's own words, not a list
                        if may_open is None:  # without a conjunction ahead no open item can pass
                            may_open = has_conjunction(j + 1, min(j + _MAX_LIST_WORDS, n_words - 1))
                        if not may_open:
                            return None
                        if last_open != k - 1 or rt.comma_between(k, k):
                            open_words = 0  # a new item
                        if open_words or rt.words[k] not in _ARTICLES:  # "an atypical infiltrate"
                            open_words += 1
                        last_open = k
                        used_open = True
                        if open_words > _MAX_OPEN_ITEM_WORDS or breaks_open_item(k):
                            return None
                    elif not listed:
                        if (
                            last_conjunction < 0
                            or k - last_conjunction > _MAX_LAST_ITEM_WORDS
                            # the last item: unlisted words after its conjunction, or after words
                            # of the vocabulary ("and malignant osteoid", "and tumour osteoid")
                            or (
                                k > last_conjunction + 1
                                and not unlisted_tail
                                and listish[k] - listish[last_conjunction + 1]
                                < k - last_conjunction - 1
                            )
                            or _ITEM_SEPARATOR.search(
                                rt.text, rt.ends[last_conjunction], rt.starts[k]
                            )
                            # ", and there is no tumour seen": a clause of its own, not an item
                            or (k == last_conjunction + 1 and rt.words[k] in _CLAUSE_OPENERS)
                        ):
                            return None
                        unlisted_tail = True
                    k += 1
                return None

            list_post_cues: dict[int, tuple[int, str] | None] = {}

            def list_post_cue(j: int) -> tuple[int, str] | None:
                """``find_list_post_cue``, looked up once per word: the findings of several fields
                often end at the same word."""
                if j not in list_post_cues:
                    list_post_cues[j] = find_list_post_cue(j)
                return list_post_cues[j]

            def label_status(k: int) -> int | None:
                """The cue right after the colon that ends a label continuing at word k.

                "Extracapsular extension of nodal metastasis: not identified": a prepositional
                phrase after the finding finishes its synoptic label, and the status after the
                colon is the finding's. The label goes on for at most ``_MAX_LABEL_TAIL`` words,
                without a comma, a clause boundary or a cue of its own.
                """
                if rt.words[k] not in _LABEL_TAIL_STARTS:
                    return None  # "Tumour rupture: none" is the rupture's status, not the tumour's
                for at in range(k, min(k + _MAX_LABEL_TAIL + 1, n_words)):
                    if at > k and ":" in rt.text[rt.ends[at - 1] : rt.starts[at]]:
                        return at if at in post_by_start else None
                    if rt.boundary_between(at, at) or rt.comma_between(at, at):
                        return None
                    if at in post_by_start or at in pre_by_start or rt.words[at] in _OWN_RESULT:
                        return None
                return None

            def bracketed_after(j: int) -> int | None:
                """The first word after a bracketed aside that directly follows word j, if any."""
                text = rt.text
                at = rt.ends[j]
                while at < len(text) and text[at] == " ":
                    at += 1
                if at >= len(text) or text[at] != "(":
                    return None
                close = text.find(")", at, at + _MAX_ASIDE_CHARS)
                if close < 0 or "(" in text[at + 1 : close]:
                    return None
                k = bisect_left(rt.starts, close)
                return k if k < n_words else None

            def status_after_object(j: int) -> int | None:
                """The post cue that follows the finding's object ("invasion of the lamina propria
                is not identified", "invasion into the submucosa of the stalk is not found",
                "invasion of the perirenal fat and renal sinus is not found"): the cue within
                nine words after a preposition right after word j (or after its head noun:
                "micropapillary growth of 5 mm or more is absent"), in the same clause, with at
                most one conjunction inside the object."""
                at = j + 1
                words = rt.words
                if at < n_words and words[at] in HEAD_NOUNS_BEFORE_AN_OBJECT:
                    at += 1
                if at >= n_words or words[at] not in _OBJECT_PREPOSITIONS:
                    return None
                # A clause boundary or comma in the gap before word k ends the object (the
                # counts are read directly: this runs for many findings of a long report).
                bounds, commas = rt.boundary_count, rt.comma_count
                if bounds[at + 1] != bounds[at] or commas[at + 1] != commas[at]:
                    return None
                conjunctions = 0
                last = min(at + 10, n_words)
                # "carcinoma of lung (TTF1 negative)": a bracket opens an aside of its own, and
                # the object ends before it
                bracket = rt.text.find("(", rt.ends[at], rt.starts[last - 1])
                if bracket >= 0:
                    last = bisect_left(rt.starts, bracket, at + 1, last)
                for k in range(at + 1, last):
                    if bounds[k + 1] != bounds[k] or commas[k + 1] != commas[k]:
                        return None
                    if k in post_by_start:
                        return k
                    if k in pre_by_start:
                        return None
                    if words[k] in _CONJUNCTIONS:
                        conjunctions += 1
                        if conjunctions > 1 or k == at + 1:
                            return None
                return None

            def closes(k: int, i: int, fi: int) -> bool:
                """The post cue at word k ends the status of the finding at words i.. of field fi
                (see ``opens_scope``)."""
                if k not in opens_scope:
                    return True
                if fi < 0 or not status_field[fi]:
                    return False
                if count_field[fi]:  # a counted structure: "margins are free of abnormalities"
                    return True
                # "benign tissue with focal chronic inflammation, negative for carcinoma": what
                # "with" adds to a phrase is not the subject of the phrase's status.
                for w in range(i - 1, max(i - 5, -1), -1):
                    if rt.boundary_between(w + 1, w + 1) or rt.comma_between(w + 1, w + 1):
                        break
                    if rt.words[w] == "with":
                        return False
                end = post_by_start[k][0]
                return any(
                    rt.words[at] in _TUMOUR_WORDS
                    for at in range(end + 1, min(end + 4, n_words))
                    if not rt.boundary_between(end + 1, at)
                )

            def names_a_sibling(k: int, fi: int) -> bool:
                """The "without" cue at word k names another value of field fi ("atypical
                hyperplasia without carcinoma"): it denies that value, not the finding before it
                (a structure's "without tumour" is its status)."""
                return (
                    fi >= 0
                    and rt.words[k] == "without"
                    and terms.get((k + 1, fi), (0, 0, MENTION))[2] == TERM
                )

            def a_tests_result(k: int, fi: int) -> bool:
                """The list's cue at word k is the result of a test named right before it
                ("adenocarcinoma, CK7 negative"), unless the finding of field fi is a test too
                ("CK7, CK20: negative")."""
                return (
                    bool(own_status_ends) and not (fi >= 0 and own_status[fi]) and result_of_test(k)
                )

            def negation(
                i: int, j: int, fi: int = -1, open_list: bool = True
            ) -> tuple[bool, str | None, bool]:
                """(negated, cue text, explicit) for a finding spanning words i..j.

                ``explicit`` is True when a cue states the finding's status either way (a bare
                mention has none). A negative post cue always wins ("necrosis: absent"), also at
                the end of a list ("LVI, PNI: not identified"). A pre cue in the same comma
                segment wins over an affirming post cue ("no extraprostatic extension
                identified"); across a comma the affirming post cue wins ("no necrosis, LVI
                present") unless the finding closes a coordinated list opened by the cue ("no LVI,
                necrosis, or PNI is identified"). ``open_list`` lets a cue reach the finding across
                list items outside the vocabulary; a bare mention ("invasion" of "no perineural,
                lymphovascular or bony invasion") does not take it, being the head of such items.
                """
                sign = _SIGN_AFTER.match(rt.text, rt.ends[j], rt.ends[j] + 12)
                if sign is None and not has_cues:
                    # no cue in the report and no sign after the finding
                    return (False, None, False)

                post: tuple[bool, str | None] | None = None
                post_at = j
                if sign:
                    symbol = sign.group(1) or sign.group(2) or sign.group(3)
                    post = (symbol.startswith("-"), symbol)
                else:
                    k, limit = j + 1, j + 1 + self._max_post
                    skip_to = bracketed_after(j)
                    if skip_to is None and has_cues:
                        # "invasion of the lamina propria is absent"
                        skip_to = status_after_object(j)
                    # "Perineural invasion (nerves involved) was identified"
                    if skip_to is not None:
                        k, limit = skip_to, skip_to + self._max_post
                    while k < len(rt) and k <= limit:
                        if rt.boundary_between(k, k) and not (
                            k == j + 1
                            and k in post_by_start
                            and _labels_status(rt, k, post_by_start[k][0])
                        ):
                            break
                        if rt.comma_between(k, k):
                            listed = list_post_cue(j)
                            # "gastritis with intestinal metaplasia, H. pylori not identified": a
                            # finding that "with" states present is not the first item of a list
                            # without a conjunction.
                            # Nor is a finding measured before it: "(6 mm metastasis, ENE
                            # absent)" denies only the extension.
                            if (
                                listed is not None
                                and i > 0
                                and (rt.words[i - 1] == "with" or _measured_before(rt, i))
                                and not has_conjunction(j + 1, listed[0] - 1)
                            ):
                                listed = None
                            if listed is not None and a_tests_result(listed[0], fi):
                                listed = None
                            if listed is not None and closes(listed[0], i, fi):
                                post_at, cue_text = listed
                                post = (True, cue_text)
                            break
                        if k in post_by_start:
                            if (
                                closes(k, i, fi)
                                and not opens_a_finding(k, fi)
                                and not names_a_sibling(k, fi)
                            ):
                                post, post_at = stated_at(k), k
                            break
                        if rt.words[k] not in self._fillers:
                            # "A and B were negative"
                            if in_list[k] or rt.words[k] in _CONJUNCTIONS:
                                listed = list_post_cue(j)
                                if listed is not None and a_tests_result(listed[0], fi):
                                    listed = None
                                if listed is not None and closes(listed[0], i, fi):
                                    post_at, cue_text = listed
                                    post = (True, cue_text)
                            else:
                                labelled = label_status(k)
                                if labelled is not None and closes(labelled, i, fi):
                                    post, post_at = stated_at(labelled), labelled
                            break
                        k += 1
                if post is not None and post[0]:
                    return (*post, True)
                # "Carcinoma with (associated) lymphovascular invasion", "a nodule showing
                # microvascular invasion" state the finding present as plainly as "lymphovascular
                # invasion: present" does.
                w = (
                    i - 1
                    if i > 0 and rt.words[i - 1] in _STATING_WORDS
                    else i - 2  # "with urothelial carcinoma in situ"
                    if i > 1 and rt.words[i - 2] in _STATING_WORDS
                    else i - 3
                    if i > 2
                    and rt.words[i - 3] in _STATING_WORDS
                    and rt.words[i - 2] in _WITH_QUALIFIERS
                    else -1
                )
                with_before = (
                    w >= 0
                    and not rt.boundary_between(w, i)
                    # A one-word finding must end its phrase: "with LVI," but not "with perineural
                    # fibrosis", where the word is an adjective of something else.
                    and (
                        i < j
                        or j + 1 >= n_words
                        or rt.boundary_between(j + 1, j + 1)
                        or rt.comma_between(j + 1, j + 1)
                        or rt.words[j + 1] in _CONJUNCTIONS
                    )
                    # "Lymph nodes: 0 of 13 with metastasis" states none.
                    and not any(rt.words[k] in _NONE_WORDS for k in range(max(w - 3, 0), w))
                )
                affirmed = (False, None, post is not None or with_before)
                # Pre cue: the nearest cue ending before i, in the same clause, close enough.
                idx = bisect_left(pre_ends, i) - 1
                while idx >= 0 and pre_cues[idx][1] >= i:  # a cue overlapping the finding itself
                    idx -= 1
                if idx < 0:
                    return affirmed
                cue_end, cue_start = pre_cues[idx]
                if (
                    cue_end == cue_start
                    and rt.words[cue_start] in _PREFIX_CUES
                    and i != cue_end + 1
                ):
                    return affirmed  # "non-necrotizing granulomas": "non" negates its own word only
                between_is_list = (
                    (
                        is_list(cue_end + 1, i - 1)
                        or (
                            open_list
                            and is_open_list(cue_end + 1, i - 1)
                            and coordinated(cue_end + 1, i - 1, j)
                        )
                    )
                    and not item_break(i)
                    and not coordinated_clause(cue_end + 1, i)
                )
                if i - cue_end - 1 > self._max_gap and not between_is_list:
                    return affirmed
                if rt.boundary_between(cue_end + 1, i):
                    return affirmed
                if _labels_between(rt, cue_end, i):
                    return affirmed  # "Sarcomatoid features: none Necrosis: present": a new label
                if rt.comma_between(cue_end + 1, i) and not between_is_list:
                    return affirmed  # "without necrosis, (2) fungal infection": a new item
                if rt.comma_between(cue_end + 1, i) and measured(j):
                    return affirmed  # "no ulceration, mitotic rate 3/mm2": a measured item
                s = bisect_left(stop_starts, cue_end + 1)
                if s < len(stop_starts) and stop_starts[s] < i:
                    return affirmed
                if (
                    post is not None
                    and rt.comma_between(cue_end + 1, i)
                    and not (
                        between_is_list
                        and (has_conjunction(cue_end + 1, i - 1) or has_conjunction(j + 1, post_at))
                    )
                ):
                    return affirmed
                if (
                    post is not None
                    and fi >= 0
                    and own_status[fi]
                    and post_at <= j + 2
                    and (has_conjunction(cue_end + 1, i - 1) or rt.comma_between(cue_end + 1, i))
                ):
                    # A test's own result right after it outranks a cue before the list it closes:
                    # "absence of p63 and CK5/6 staining and AMACR positivity".
                    return affirmed
                return (True, " ".join(rt.words[cue_start : cue_end + 1]), True)

            return negation

        if has_cues:
            negation = negation_reader()
        else:
            signed_reader: list[Callable[..., tuple[bool, str | None, bool]]] = []

            def negation(
                i: int, j: int, fi: int = -1, open_list: bool = True
            ) -> tuple[bool, str | None, bool]:
                """A report without a cue negates a finding only by a sign after it ("CK7 -")."""
                if _SIGN_AFTER.match(rt.text, rt.ends[j], rt.ends[j] + 12) is None:
                    return (False, None, False)
                if not signed_reader:  # built once, at the first sign
                    signed_reader.append(negation_reader())
                return signed_reader[0](i, j, fi, open_list)

        candidates: dict[int, list[tuple]] = {}
        dropped: list[Finding] = []
        last_end: dict[int, int] = {}
        negatable, negated_values = self._negatable, self._negated_values
        unknown_cues = self._unknown_cues
        spared_fields, own_structures = self._spared_fields, self._own_structures
        # A negation-only mention inside a longer finding of another field belongs to that
        # finding: "no perineural invasion" says nothing about an "invasion" mention elsewhere.
        # Asked only for the words that start a mention (a report has few), so the longest term
        # over each such word and the end of the longest term starting there are found once.
        mention_starts = {i for (i, _), (_, _, kind) in terms.items() if kind == MENTION}
        longest_term: dict[int, int] = {}  # word -> length of the longest term covering it
        term_from: dict[int, int] = {}  # word -> end of the longest term starting there
        term_over: dict[int, int] = {}  # word -> end of the longest term starting before it
        modifying: set[int] = set()  # mentions right before a term: "tumour" of "tumour necrosis"
        if mention_starts:
            report_words = rt.words
            for (i, _), (j, _, kind) in terms.items():
                if kind == TERM:
                    if (
                        i - 1 in mention_starts
                        and not rt.comma_between(i, i)
                        and not rt.boundary_between(i, i)
                    ):
                        modifying.add(i - 1)
                    for w in range(i, j + 1):
                        if w in mention_starts:
                            # A term that is itself a negative statement ("no malignancy",
                            # "malignancy not seen": benign) leaves the finding it negates to
                            # the fields that record its absence too (looked up only where a
                            # mention is inside).
                            if _negative_statement(report_words, i, j):
                                break
                            if j + 1 - i > longest_term.get(w, 0):
                                longest_term[w] = j + 1 - i
                            if w > i and j > term_over.get(w, -1):
                                term_over[w] = j
                    if (
                        i in mention_starts
                        and j > term_from.get(i, -1)
                        and not _negative_statement(report_words, i, j)
                    ):
                        term_from[i] = j
        for (i, fi), (j, value, kind) in sorted(terms.items()):
            if i <= last_end.get(fi, -1):
                continue  # overlaps a longer phrase of the same field
            last_end[fi] = j
            if kind == IGNORE:
                continue  # "fat necrosis" hides "necrosis"; "perineural invasion" hides "invasion"
            counting = self._counts_statements[fi]
            if kind == MENTION and longest_term.get(i, 0) > j + 1 - i and not counting:
                continue
            if (
                counting
                and kind == MENTION
                and i == j
                and rt.words[i] in _TUMOUR_NOUNS
                and (term_from.get(i, -1) > j or term_over.get(i, -1) > j or i in modifying)
            ):
                # "no tumour necrosis", "no vascular tumour thrombus": the status of that
                # finding, not a tumour-free site (also where the schema has no term for the
                # two words together, only for the finding after the noun)
                continue
            negated, cue, explicit = (
                # A bare mention right after a conjunction is a list item of its own ("no
                # atrophy, metaplasia or dysplasia", "without hyperplasia, atypia or evidence of
                # malignancy"), so the cue reaches it across unlisted items;
                # after an adjective it heads them ("no perineural, lymphovascular or bony
                # invasion") and the cue does not.
                negation(
                    i,
                    j,
                    fi,
                    kind == TERM
                    or (
                        i > 0
                        and (
                            rt.words[i - 1] in _CONJUNCTIONS
                            or (rt.words[i - 1] in _LEAD_ENDS and _after_lead(rt.words, i))
                        )
                    ),
                )
                if negatable[fi]
                else (False, None, False)
            )
            if negated and cue in unknown_cues:
                continue  # "LVI: not specified": neither present nor absent
            if negated and kind == TERM and rt.words[i] in _NEGATIVE_TERM_STARTS:
                # "No atypia, no malignancy": a term that states an absence itself ("no
                # malignancy") keeps its own meaning when a list's cue reaches it.
                negated, cue = False, None
            if (
                spared_fields  # (a schema without such a field pays one test)
                and fi in spared_fields
                and (negated or value == negated_values[fi])
                and _names_spared_structure(rt, i, j, own_structures[fi], negated)
            ):
                continue  # "no infiltration of the renal sinus fat": that structure's status
            if (
                (negated or (kind == TERM and i in pre_by_start))  # "free of tumor" is a status too
                and self._status_subjects[fi]
                and _states_status_of(rt, i, j, self._status_subjects[fi], self._max_gap)
            ):
                continue  # "margins are free of invasive carcinoma": the margin's status
            if not negated and (kind == MENTION or self._only_negated[fi]):
                continue
            if negated and value != negated_values[fi]:
                value = _negated(negated_values[fi], value)
            if counting and value is not None:
                # One statement per clause: "margins are free of tumor" states one fact, and so
                # does "margins are uninvolved".
                value = "{}:{}".format(*rt.place(i))
            source = "mention" if kind == MENTION else "term"
            if value is None:
                if explain:  # a negated finding that the field drops ("no adenocarcinoma")
                    dropped.append(
                        Finding(
                            self.fields[fi].name,
                            None,
                            rt.starts[i],
                            rt.ends[j],
                            rt.text[rt.starts[i] : rt.ends[j]],
                            source,
                            True,
                            cue,
                        )
                    )
                continue
            self._add(
                candidates, fi, value, rt, (rt.starts[i], rt.ends[j]), source, (negated, cue),
                explicit, explain,
            )  # fmt: skip

        text = rt.text
        pattern_spans: list[tuple[int, int]] = []
        starts: dict[re.Pattern, list[int]] = {}  # lookahead positions, shared by rules
        breakdowns: dict[int, set[tuple[int, int]]] = {}  # spans of summed count breakdowns
        runs = self._runs
        for k in self._anchors.active(text, rt.ascii_runs()):
            fi, f, finder, regex, each, options = runs[k]
            matches = (
                regex.finditer(text) if finder is None else finder.matches(regex, text, starts)
            )
            if each is not None:
                for m in matches:
                    parts = []
                    for part in each.finditer(text, *m.span("value")):
                        value = self._pattern_value(f, part)
                        if value is not None:
                            pattern_spans.append(part.span())
                            parts.append((part.span(), value))
                    if f.select == "total" and parts:  # one count: the breakdown's sum
                        region = (parts[0][0][0], parts[-1][0][1])
                        breakdowns.setdefault(fi, set()).add(region)
                        parts = [(region, breakdown_count([v for _, v in parts]))]
                    for span, value in parts:
                        self._add(
                            candidates, fi, value, rt, span, "pattern", (False, None), False,
                            explain,
                        )  # fmt: skip
                continue
            for m in matches:
                constant, template, negatable, total = options
                span = m.span()
                pattern_spans.append(span)
                if constant is not None:
                    value: Any = _fill(constant, f, m) if template else constant
                    if value is None:
                        continue
                else:
                    value = self._pattern_value(f, m)
                    if value is None:
                        continue
                negated, cue, explicit = False, None, constant is not None
                if negatable and rt.words:
                    start, end = span
                    i = rt.word_of(start)
                    j = max(i, rt.word_of(max(end - 1, start)))
                    negated, cue, stated = negation(i, j, fi)
                    if negated and cue in unknown_cues:
                        continue
                    explicit = explicit or stated
                    if negated and value != f.negated_value:
                        value = _negated(f.negated_value, value)
                        if value is None:
                            continue
                if total:  # a stated total: the parts inside it are not added
                    breakdowns.setdefault(fi, set()).add(span)
                self._add(
                    candidates, fi, value, rt, span, "pattern", (negated, cue), explicit, explain
                )

        for fi, open_class in self._open_fields:
            found = candidates.get(fi)
            if not found or (open_class.beside and all(c[2] in open_class.beside for c in found)):
                if in_list is None:
                    in_list = _in_list(terms, n_words)
                self._add_unlisted(
                    fi, open_class, rt, in_list, pattern_spans, negation, candidates, explain
                )

        for fi, words in self._only_with:  # "5 mm thick" without a melanoma is no Breslow
            if fi in candidates and not any(word in text for word in words):
                del candidates[fi]

        for fi, source in self._free_with:
            if fi in candidates and source in candidates:
                candidates[fi] = _marked_free(candidates[fi], rt, candidates[source])

        # Pass 1: each field's own findings. Pass 2: a selected value's implications join the
        # candidates of their target fields (one level, at the source's position) and those
        # fields are selected again, so "tubular adenoma" (premalignant) and "no evidence of
        # malignancy" (benign) compete under benign_vs_malignant's own select rule.
        fields_spec = self.fields
        counted = self._counted_fields
        selected = {
            # One finding is the value (most fields of a short report): no selection to run.
            fi: (cands[0][2], cands)
            if len(cands) == 1 and fi not in counted and fi not in breakdowns
            else _select(fields_spec[fi], cands, breakdowns.get(fi), text)
            for fi, cands in candidates.items()
        }
        reselect: set[int] = set()
        for fi, (value, chosen) in list(selected.items()):
            implies = self._value_implies[fi]
            if not implies:
                continue
            f = self.fields[fi]
            if f.select != "all":
                if value not in implies:
                    continue  # most selected values imply nothing
                parts = [value]
            else:
                parts = str(value).split(MULTI_VALUE_SEPARATOR)
            start, neg_end = chosen[0][0], chosen[0][1]
            for part in parts:
                for target, implied in implies.get(part, ()):
                    ti = self._field_index[target]
                    finding = (
                        Finding(target, implied, -1, -1, f"{f.name}={part}", "implied")
                        if explain
                        else None
                    )
                    candidates.setdefault(ti, []).append((start, neg_end, implied, finding, True))
                    reselect.add(ti)
        for ti in reselect:
            selected[ti] = _select(self.fields[ti], candidates[ti], breakdowns.get(ti), text)
        for fi, contradictions in self._void_when:
            if fi in selected and any(
                selected.get(ti, (None,))[0] == value for ti, value in contradictions
            ):
                del selected[fi]
        # The nodes examined are the total's examined part ("2/43 and 2/20" examined 63), so a
        # report that states it per station and one that states the sum agree.
        for fi, source in self._examined_of:
            examined = examined_part(selected.get(source, (None,))[0])
            if examined is not None:
                selected[fi] = (examined, selected.get(fi, (None, []))[1])
                candidates.setdefault(fi, [])

        fields: Fields = {}
        findings: list[Finding] = dropped
        for fi in sorted(selected):
            f = fields_spec[fi]
            value, chosen = selected[fi]
            fields[f.name] = value
            if explain:
                for *_, finding, _explicit in candidates[fi]:
                    if finding is not None:
                        findings.append(
                            replace(finding, selected=any(finding is c[3] for c in chosen))
                        )
        return fields, findings

    def _add_unlisted(  # noqa: PLR0913 - the scan's shared state
        self, fi, open_class, rt, in_list, pattern_spans, negation, candidates, explain
    ) -> None:
        """Values of an open-class field that no vocabulary phrase names ("unlisted: ...").

        Only words outside every vocabulary phrase qualify, and only when the field found no
        listed value, so a report naming a known entity is never second-guessed. The value is
        the head word with up to ``max_modifiers`` plain words before it in the same phrase.
        """
        words = rt.words
        for k, word in enumerate(words):
            if in_list[k] or not open_class.names_value(word):
                continue
            start = k
            while (
                k - start < open_class.max_modifiers
                and start > 0
                and rt.joinable[start]
                and not in_list[start - 1]
                and words[start - 1].isalpha()
                and words[start - 1] not in _NOT_MODIFIERS
            ):
                start -= 1
            # Words of a structured value are no part of the name ("high-grade osteosarcoma":
            # the grade), and a head inside one names nothing ("tumor volume: 30%").
            while start <= k and any(a <= rt.starts[start] < b for a, b in pattern_spans):
                start += 1
            if start > k:
                continue
            if start == k and word in open_class.heads:
                continue  # a bare "tumor" or "lesion" names no entity; "xanthoma" does
            negated, cue, _ = negation(start, k)
            if negated:
                continue
            value = UNLISTED_PREFIX + " ".join(words[start : k + 1])
            self._add(
                candidates, fi, value, rt, (rt.starts[start], rt.ends[k]), "unlisted",
                (False, None), False, explain,
            )  # fmt: skip

    def _pattern_value(self, f: FieldSpec, m: re.Match) -> Any:
        raw = m.group("value")
        if raw is None:
            return None
        if f.type == "numeric":
            value = f.canonicalize(raw)
            if value is None:
                return None
            unit = m.groupdict().get("unit") or f.unit
            return f.convert_unit(float(value), unit)
        return f.canonicalize(raw)

    def _add(self, candidates, fi, value, rt, span, source, negation, explicit, explain) -> None:
        """Record one candidate value: (start, -end, value, finding, explicit)."""
        start, end = span
        finding = None
        if explain:
            finding = Finding(
                self.fields[fi].name, value, start, end, rt.text[start:end], source, *negation
            )
        cands = candidates.get(fi)
        if cands is None:
            candidates[fi] = [(start, -end, value, finding, explicit)]
        else:
            cands.append((start, -end, value, finding, explicit))


def _states_status_of(rt: ReportText, i: int, j: int, subjects: frozenset, reach: int) -> bool:
    """True when the negated finding at words ``i..j`` states the status of one of ``subjects``
    ("margins") rather than ruling the finding out: the subject comes at most ``reach`` words
    before it in its clause ("margins are free of carcinoma"), or a location after it names the
    subject ("no evidence of carcinoma in the resection margins")."""
    for k in range(i - 1, max(i - 1 - reach, -1), -1):
        if rt.boundary_between(k + 1, i):
            break
        if rt.words[k] in subjects:
            return True
    located = False
    for k in range(j + 1, min(j + 1 + reach, len(rt))):
        if rt.boundary_between(k, k) or rt.comma_between(k, k):
            return False
        word = rt.words[k]
        if word in _LOCATION_WORDS:
            located = True
        elif located and word in subjects:
            return True
    return False


def _names_spared_structure(
    rt: ReportText, i: int, j: int, own: frozenset, negated: bool = True
) -> bool:
    """True when the negated finding at words ``i..j`` names a structure it spares that is not
    among ``own``: the object after it ("no infiltration of the renal sinus fat"), the subject of
    its participle ("renal sinus fat and renal vein not invaded"), a word right before a
    one-word finding ("brain invasion absent", "no mesoappendiceal invasion") or the label it
    answers ("Perirenal fat and renal sinus fat: no tumour invasion"). A phrase that
    states the absence itself ("no invasion", "non-invasive") is read only for its object."""
    words = rt.words
    k = j + 1
    if k < len(words) and words[k] in _SPARED_PREPOSITIONS and not rt.comma_between(k, k + 1):
        while k + 1 < len(words) and words[k + 1] in _NO_STRUCTURE:
            k += 1
        if k + 1 < len(words) and not rt.boundary_between(k + 1, k + 1):
            return not _is_own(words, k + 1, k + 3, own)
    if not negated:
        return False
    if words[j] in _PARTICIPLES:  # "the liver capsule is not invaded"
        k = i - 1
        while k >= 0 and words[k] in _CUE_OR_COPULA and not rt.boundary_between(k + 1, k + 1):
            k -= 1
        return (
            k >= 0 and not rt.boundary_between(k + 1, i) and not _is_own(words, k - 1, k + 1, own)
        )
    if i == j and i > 0 and not rt.comma_between(i, i):
        if not rt.boundary_between(i, i) and words[i - 1] not in _NO_STRUCTURE:
            return not _is_own(words, i - 2, i, own)
        k = i - 1  # "Perirenal fat and renal sinus fat: no tumour invasion": its label names it
        while k > 0 and words[k] in _NO_STRUCTURE and i - k < 4:
            k -= 1
        return (
            ":" in rt.text[rt.ends[k] : rt.starts[k + 1]]
            and not rt.boundary_between(k + 2, i)
            and words[k] not in _SECTION_LABELS
            and not _is_own(words, k - 1, k + 1, own)
        )
    return False


def _is_own(words: list[str], first: int, end: int, own: frozenset) -> bool:
    """True when a word, or two words, among ``words[first:end]`` are one of ``own``
    ("lamina propria" in "the lamina propria is not invaded")."""
    first = max(first, 0)
    return any(w in own for w in words[first:end]) or any(
        f"{a} {b}" in own for a, b in zip(words[first:end], words[first + 1 : end])
    )


# What links a negated invasion to the structure it spares ("no invasion of the sinus fat").
_SPARED_PREPOSITIONS = frozenset({"of", "into"})
# Words before or after "invasion" that name no structure: "no evidence of definite invasion".
_NO_STRUCTURE = frozenset(
    {
        "the", "a", "an", "any", "no", "not", "non", "or", "and", "nor", "of", "for", "without",
        "definite", "definitive", "obvious", "convincing", "frank", "overt", "further",
        "evident", "true", "unequivocal", "tumour", "tumor", "carcinoma", "carcinomatous",
        "neoplastic", "malignant", "direct", "early", "minimal", "focal", "deep", "stromal",
        "evidence", "signs", "sign", "features", "absence", "free", "negative", "is", "was",
    }
)  # fmt: skip
# Labels that name a report's section or the finding itself, not a structure ("Diagnosis: no
# invasion", "Invasion: none").
_SECTION_LABELS = frozenset(
    {
        "diagnosis", "dx", "conclusion", "comment", "comments", "note", "microscopy",
        "microscopic", "impression", "findings", "finding", "description", "opinion", "summary",
        "result", "results", "report", "histology", "invasion", "infiltration", "status",
    }
)  # fmt: skip
# Findings in a participle, whose subject is the structure spared ("renal vein not invaded").
_PARTICIPLES = frozenset({"invaded", "infiltrated"})
# Words between such a subject and its participle: "the capsule is not invaded".
_CUE_OR_COPULA = frozenset({"not", "is", "are", "was", "were", "been", "be", "has", "have"})


# Words that put a finding somewhere: "carcinoma in the margins", "at the margin".
_LOCATION_WORDS = frozenset({"in", "at", "within", "involving"})


def _labels_status(rt: ReportText, k: int, cue_end: int) -> bool:
    """True when a lone dash stands before the cue at words ``k..cue_end`` and the cue ends its
    clause: "Extraprostatic extension - absent." puts the status after the finding as a colon
    would, while in "carcinoma - No sarcomatoid features" the dash starts the next item."""
    return rt.text[rt.ends[k - 1] : rt.starts[k]] == " - " and _ends_clause(rt, cue_end)


# A status right after these ends a list of the margins' names ("A and B margins free").
_MARGIN_WORDS = frozenset(("margin", "margins"))


def _ends_clause(rt: ReportText, k: int) -> bool:
    """Word k ends its clause: the text ends, or a boundary or a comma follows it."""
    return k + 1 >= len(rt) or rt.boundary_between(k + 1, k + 1) or rt.comma_between(k + 1, k + 1)


def _labels_between(rt: ReportText, cue_end: int, i: int) -> bool:
    """True when a colon stands between the words after a pre cue and word ``i``: a flattened
    synoptic block ("Sarcomatoid features: none Necrosis: present") starts a new label there.
    A colon right after the cue ("Negative for: dysplasia") introduces what it negates."""
    if i <= cue_end + 1:
        return False
    return ":" in rt.text[rt.ends[cue_end + 1] : rt.starts[i]]


FREE_STATUS_REACH = 16  # words between a structure and the tumour-free statement about it

# "Left ovary, both tubes and uterus free of tumour", "Lt. ovary, tubes, uterus: no tumour": the
# structure heads a list of plain names that shares one status. Between it and the statement
# stand only the other names, at most one colon, a verb and the negation cue.
_SHARED_STATUS_LIST = re.compile(r"[ \t]*(?:,|and(?![a-z])|&|/)[^\d.;]*")
# A word that states a finding of its own; "not involved" and "uninvolved" are the shared status.
_NOT_A_PLAIN_NAME = re.compile(
    r"(?<![a-z])(?:with|carcinoma|tumou?rs?|neoplasm|neoplasia|malignan\w*|metasta\w*|"
    r"(?<!not )involv\w*|positive|show\w*|contain\w*|invad\w*|invasion|infiltrat\w*|present|"
    r"identified|seen|but|while|whereas)(?![a-z])"
)


def _heads_list(between: str) -> bool:
    """True when ``between`` (the text from a structure to the tumour-free statement after it)
    is a list of plain names that the structure heads, so the statement covers the structure."""
    return (
        between.count(":") <= 1
        and _SHARED_STATUS_LIST.fullmatch(between) is not None
        and _NOT_A_PLAIN_NAME.search(between) is None
    )


def _negative_statement(words: list[str], i: int, j: int) -> bool:
    """Words i..j state an absence: "no malignancy", "malignancy negative", "... not seen"."""
    return (
        words[i] in _NEGATIVE_TERM_STARTS
        or words[j] in _NEGATIVE_TERM_ENDS
        or (j > i and words[j - 1] == "not")
    )


def _marked_free(cands: list[tuple], rt: ReportText, statements: list[tuple]) -> list[tuple]:
    """Append " free" to the values stated in a clause that says tumour is absent.

    ``statements`` are the candidates of a statement-counting field (one per tumour-free
    statement). "Left distal ureter: no evidence of malignancy" gives "left ureter free" while
    "right pelvic lymph nodes involved" stays "right pelvic node", so the side whose nodes are
    involved is compared, not only the sides named. The statement must be in the value's comma
    segment or, when the value labels its clause ("Right lobe: high-grade PIN, no carcinoma"),
    anywhere in that clause except a margin ("Left lobe: adenocarcinoma, margins negative" or
    "completely excised" says nothing of the lobe) or, when the value ends a part's heading ("B.
    Lymph nodes, right pelvic:") or the specimen heading of a one-line report ("Lymph nodes, left
    axillary, sentinel biopsy; No metastatic carcinoma"), in the line or clause after it (after a
    heading that ends its line with a semicolon, anywhere in the next line but a margin's
    status); and at most ``FREE_STATUS_REACH`` words away, so that a report flattened into one
    long clause does not mark everything in it.
    """
    places = []
    for start, neg_end, *_ in statements:
        k = rt.word_of(start)
        said = rt.text[start:-neg_end]  # "completely excised" is the margins' status too
        places.append((k, *rt.place(k), "margin" in said or "excised" in said, start))
    marked = []
    for start, neg_end, value, finding, explicit in cands:
        i = rt.word_of(start)
        sentence, segment = rt.place(i)
        labels = rt.text[-neg_end : -neg_end + 3].lstrip().startswith(":")
        # A part's heading ("B. Lymph nodes, right pelvic:") whose status is the line below it.
        end = -neg_end  # a candidate is (start, -end, value, finding, explicit)
        line_end = rt.text.find("\n", end)
        rest = rt.text[end : line_end if line_end >= 0 else len(rt.text)].rstrip()
        heads = rest.endswith(":") and not any(ch in rest for ch in ".;") and rest.count(":") == 1
        if not heads and sentence == 0 and ";" in rest:
            # "Lymph nodes, left axillary, sentinel biopsy; No metastatic carcinoma (0/3)": the
            # specimen heading of a one-line report, whose diagnosis follows its semicolon. A
            # value inside the diagnosis ("TAH, BSO: serous carcinoma of right ovary; left ovary
            # free") heads nothing.
            heading = rest[: rest.index(";")]
            heads = "." not in heading and ":" not in heading
            if heads:
                line_start = rt.text.rfind("\n", 0, start) + 1
                heads = not _TUMOUR_NAMED.search(rt.text, line_start, start)
        below = _status_line_end(rt, rest, line_end, sentence) if heads else sentence
        if any(
            abs(k - i) <= FREE_STATUS_REACH
            and (
                (
                    (b == sentence or (heads and b == sentence + 1))
                    and (c == segment or ((labels or heads) and not margin))
                )
                or (sentence + 1 < b <= below and not margin)
                or (
                    sentence <= b <= sentence + 1
                    and k > i
                    and not margin
                    and _heads_list(rt.text[end:at])
                )
            )
            for k, b, c, margin, at in places
        ):
            value = f"{value} free"
            if finding is not None:
                finding = replace(finding, value=value)
        marked.append((start, neg_end, value, finding, explicit))
    return marked


def _status_line_end(rt: ReportText, rest: str, line_end: int, clause: int) -> int:
    """Last clause of the lines below a specimen heading that ends its line with a semicolon
    ("Lymph node, right axillary, core biopsy;" over "Reactive lymphoid tissue; no metastatic
    carcinoma"): those lines are the heading's diagnosis. Otherwise the clause after the heading.

    The line below is always the heading's. A further line is too ("Reactive follicular
    hyperplasia" over "No evidence of lymphoma or metastatic malignancy") while the lines before
    it name no tumour (below "Invasive carcinoma, grade 3", a node's "no metastatic carcinoma" is
    the node's, not the breast's), it labels no part of its own ("Sentinel node: ...") and no
    heading of the next part comes first; at most ``_HEADING_STATUS_LINES`` lines.
    """
    if line_end < 0 or not rest.endswith(";"):
        return clause + 1
    text = rt.text
    start, end = line_end + 1, text.find("\n", line_end + 1)
    for _ in range(_HEADING_STATUS_LINES - 1):
        if end < 0 or _TUMOUR_NAMED.search(text, start, end):
            break
        after = text.find("\n", end + 1)
        line = text[end + 1 : after if after >= 0 else len(text)].rstrip()
        if not line or ":" in line or line.endswith(";"):
            break
        start, end = end + 1, after
    last_word = rt.word_of((end if end >= 0 else len(text)) - 1)
    return max(clause + 1, rt.place(last_word)[0])


def _negated(negated_value: str | None, value: Any) -> Any:
    """What a negated finding becomes: the field's negated value, or its template filled in
    ("{value} negative" keeps which marker was negative: "ck7 negative")."""
    if negated_value is None or NEGATED_TEMPLATE not in negated_value:
        return negated_value
    return negated_value.replace(NEGATED_TEMPLATE, str(value))


def _fill(template: str, f: FieldSpec, m: re.Match) -> Any:
    """A templated constant ("0/{examined}" for "seven benign lymph nodes"), numbers as digits."""
    groups = {}
    for name, raw in m.groupdict().items():
        if raw is None:
            continue
        try:
            groups[name] = str(to_int(raw))
        except ValueParseError:
            groups[name] = raw
    try:
        return f.canonicalize(template.format(**groups))
    except (KeyError, IndexError, ValueError):
        return None


def _select(
    f: FieldSpec,
    cands: list[tuple],
    breakdowns: set[tuple[int, int]] | None = None,
    text: str = "",
) -> tuple[Any, list[tuple]]:
    """One value per field, by the field's ``select`` rule; also the candidates behind it.

    Candidates are ordered leftmost-longest: of two findings that start at the same character,
    the longer one ("adenocarcinoma, tubular type") comes before the shorter ("adenocarcinoma").
    In a presence field an explicit statement ("perineural invasion: not identified") outranks a
    bare mention of the word elsewhere ("perineural"), which says nothing about status.
    A summed breakdown of counts (``breakdowns``, their spans) replaces every other reading of
    the counts inside it, so that no part is counted twice. Equal counts of a ``total`` field
    that ``text`` states for differently named parts ("right pelvic ... (0/3)", "left pelvic
    ... (0/3)") are two parts, not one count stated twice.
    """
    if breakdowns:
        cands = [c for c in cands if _own_breakdown(c, breakdowns) or not _overlaps(c, breakdowns)]
    if f.select == "number":  # how many clauses state it: "tumour absent" in three places
        return str(len({c[2] for c in cands})), cands
    if f.only_alone:  # "benign" beside an adenocarcinoma adds nothing; so does a DCIS beside IDC
        others = [c for c in cands if c[2] not in f.only_alone]
        if others:
            cands = others
        elif any(c[2] != f.only_alone[0] for c in cands):
            # Among the listed values the first (a statement of absence) yields to the others:
            # "chronic inflammation ...; no dysplasia, no malignancy" names the inflammation.
            cands = [c for c in cands if c[2] != f.only_alone[0]]
    if len(cands) == 1:
        return cands[0][2], cands
    if f.type == "presence":
        stated = [c for c in cands if c[4]]
        if stated and len(stated) < len(cands):
            cands = stated
            if len(cands) == 1:
                return cands[0][2], cands
    cands = sorted(cands, key=lambda c: (c[0], c[1]))
    if f.select == "first":
        chosen = cands[0]
    elif f.select == "last":
        chosen = cands[-1]
    elif f.select == "total":  # counts: one total over the report's statements
        values = [c[2] for c in cands]
        # Part names only tell equal counts apart, so they are looked up only when one repeats.
        repeated = len(set(values)) < len(values)
        labels = [_part_named_before(text, -c[1]) for c in cands] if text and repeated else None
        return total_count(values, repeats_are_parts=f.repeats_are_parts, labels=labels), cands
    elif f.select in ("max", "min"):
        # Numbers compare as numbers (the greatest of two tumour sizes); words by the declared
        # order.
        ranks = [c[2] if f.type == "numeric" else f.rank(c[2]) for c in cands]
        chosen = cands[ranks.index(max(ranks) if f.select == "max" else min(ranks))]
    else:  # all
        seen: dict[Any, tuple] = {}
        for c in cands:
            seen.setdefault(c[2], c)
        if len(seen) > 1 and f.negated_value in seen and _absence_only(f):
            del seen[f.negated_value]  # "DCIS; no LCIS" -> dcis, not "absent + dcis"
        if f.generic_yields and len(seen) > 1:
            names = [v for v in seen if isinstance(v, str)]
            for v in names:
                if any(w != v and w.endswith(v) for w in names):
                    del seen[v]  # "adenocarcinoma ... the carcinoma": one entity
        if f.type == "gleason" and len(seen) > 1:
            # "Primary pattern: 3, secondary pattern: 4, total score: 7" also reads as 3+4=7:
            # a bare number that is part of a full score is that score, not another one.
            parts = {p for v in seen if "+" in str(v) for p in _DIGITS.findall(str(v))}
            for v in [v for v in seen if str(v).isdigit() and str(v) in parts]:
                del seen[v]
        ordered = sorted(seen, key=lambda v: (f.rank(v), str(v)))
        if len(ordered) == 1:  # one value stated twice keeps its type (a number stays a number)
            return ordered[0], [seen[ordered[0]]]
        return MULTI_VALUE_SEPARATOR.join(str(v) for v in ordered), [seen[v] for v in ordered]
    return chosen[2], [chosen]


_DIGITS = re.compile(r"\d+")
# Words between "with" and a finding's adjective that keep it stated: "with associated urothelial
# carcinoma in situ".
_WITH_QUALIFIERS = frozenset(["associated", "focal", "extensive", "concurrent", "adjacent"])
# Words before a finding that state it: "with", and the verbs of what a section shows.
_STATING_WORDS = frozenset(
    ["with", "showing", "shows", "showed", "demonstrating", "demonstrates", "revealing", "reveals"]
)
_NONE_WORDS = frozenset(["0", "zero", "none", "no"])
# A named part: a side with the node station or biopsy zone it qualifies ("right pelvic",
# "left obturator", "right mid"); a side alone ("left breast") names no part of a count.
_NAMED_PART = re.compile(
    r"(?<![a-z])(left|right)\s+(?:[a-z-]+\s+)??"
    r"(pelvic|obturator|iliac|periaortic|para-aortic|paraaortic|axilla|axillary|neck|hilar|"
    r"paratracheal|inguinal|groin|supraclavicular|cervical|base|mid|apex)(?![a-z])"
)
# A sentinel node named by its number ("LYMPH NODE, SENTINEL #2, LEFT AXILLA"): a part of its own.
_NUMBERED_SENTINEL = re.compile(
    r"(?<![a-z])sentinel\s+(?:lymph\s+)?(?:nodes?\s+)?(?:#\s*|no\.?\s*|number\s+)?(\d{1,2})(?![0-9])"
)
_HEADING_STATUS_LINES = 3  # the lines below a one-line specimen heading that state its status
# A tumour named before a value on its line: the value is inside the diagnosis, not a heading.
_TUMOUR_NAMED = re.compile(
    r"carcinom|tumou?r|involv|metasta|sarcom|lymphom|melanom|neoplas|malignan"
)
# A statement ends at a full stop, a semicolon or a line end, except the line end of a
# heading ("LYMPH NODES, RIGHT PELVIC, EXCISION:" names the part of the lines below it).
_STATEMENT_END = re.compile(r"[.;](?:\s|$)|(?<!:)\n(?!\s*-)")


def _part_named_before(text: str, end: int, reach: int = 100) -> str | None:
    """The part a count ending at ``end`` belongs to, as its statement names it up to the count:
    the last side with its node station or biopsy zone ("Lymph nodes, right pelvic ... (0/3)"
    -> "right pelvic", "Left base: 1/2" -> "left base") and a numbered sentinel node ("Sentinel
    #2, left axilla ... (0/1)" -> "sentinel 2 left axilla"), or None when the statement names
    none."""
    window = text[max(0, end - reach) : end]
    ends = [m.end() for m in _STATEMENT_END.finditer(window)]
    if ends:
        window = window[ends[-1] :]
    parts = _NAMED_PART.findall(window)
    name = " ".join(parts[-1]) if parts else None
    if "sentinel" in window and (numbered := _NUMBERED_SENTINEL.findall(window)):
        name = f"sentinel {numbered[-1]}" + (f" {name}" if name else "")
    return name


def _measured_before(rt: ReportText, i: int) -> bool:
    """True when word ``i`` follows a measurement ("6 mm metastasis", "2.5 cm nodule")."""
    return i > 1 and rt.words[i - 1] in ("mm", "cm") and rt.words[i - 2][:1].isdigit()


def _opens_aside(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` opens a bracket that is still open at ``end`` and names a
    subject of its own before it: a status at ``end`` is that subject's."""
    at = text.rfind("(", start, end)
    return at >= 0 and ")" not in text[at:end] and any(c.isalpha() for c in text[at:end])


def _own_breakdown(cand: tuple, spans: set[tuple[int, int]]) -> bool:
    """True when a candidate is a breakdown's sum or a stated total that no wider stated total
    holds: "1/2 and 1/3 positive, remaining 15 negative - 2/20 in total" keeps 2/20, not 2/5."""
    start, end = cand[0], -cand[1]
    return (start, end) in spans and not any(
        a <= start and end <= b and (a, b) != (start, end) for a, b in spans
    )


def _overlaps(cand: tuple, spans: set[tuple[int, int]]) -> bool:
    """True when a count ("1/2", or a bare "12" read from "in 12 lymph nodes"), not a bare
    status, overlaps one of ``spans``."""
    start, end = cand[0], -cand[1]
    value = str(cand[2])
    return ("/" in value or value.isdigit()) and any(start < b and a < end for a, b in spans)


def _absence_only(f: FieldSpec) -> bool:
    """The field's negated value only marks an absence (no wording states it), so a stated value
    replaces it in a set. A negated value that is a status of its own ("MGMT unmethylated") stays:
    a report that states both statuses contradicts itself."""
    spec = next((v for v in f.values if v.canonical == f.negated_value), None)
    return spec is None or not (spec.synonyms or spec.aliases)


EXTRACTORS.register(
    "rule",
    description="rule-based: schema vocabularies and patterns with NegEx-style scoped negation",
)(RuleExtractor)
