"""CRQS schemas: the clinical fields of one dataset, as data (``crqs/<dataset>.yaml``).

A schema lists the fields in the paper's hierarchical order (diagnosis hierarchy, tumour behaviour,
grade, invasion, premalignant change, associated morphology, then dataset-specific groups), marks
the key fields, and gives for every field its type, canonical values with synonyms, the regular
expressions of structured values (Gleason, grade group, sizes), the value parser and, for numeric
fields, the tolerance. The loader validates everything it reads, because a typo in a schema would
otherwise silently change every score computed with it.

The file format (one mapping)::

    name: reg2025                      # = the file stem = the dataset name
    version: 1                         # bump when a change alters scores
    description: ...
    sources: [...]                     # where the field lists come from
    groups: [diagnosis_hierarchy, ...] # in hierarchical order
    key_fields: [diagnosis, ...]       # K in the KIR component
    learned_vocab: reg2025.vocab.json  # optional, written by `pathreport crqs build-vocab`
    borrow:                            # optional: fields and values kept in another schema
      - {from: tcga, fields: [extrathyroidal_extension], values: {diagnosis: diagnosis}}
    profiles:                          # optional named subsets; the default profile is every field
      paper: {fields: [...], key_fields: [...]}   # the paper's own lists, to reproduce its numbers
    severity_weights: {critical: 3}    # optional override of DEFAULT_SEVERITY_WEIGHTS
    negation: {pre: [...], ...}        # optional extra cues (see crqs.negation)
    fields:
      - name: diagnosis
        group: diagnosis_hierarchy
        type: categorical              # categorical|ordinal|presence|numeric|gleason|count|text
        values:                        # canonical value -> searched phrases, in scale order
          adenocarcinoma: [adenocarcinoma, adenoca]
          carcinoma: {synonyms: [...], aliases: [...], implies: {benign_vs_malignant: malignant}}
        patterns:                      # regular expressions on the lower-cased text
          - {regex: "...(?P<value>...)...", value: optional-constant, negatable: false}
          - {regex: "(?P<n>\\w+) benign lymph nodes", value: "0/{n}"}   # a template of groups
          - {regex: "...", anchors: [pt, t1]}  # literals every match's text contains, where
                                       # the regex hides them (the rule runs only then)
        select: first                  # first | last | max | min | all | total (counts) | number
        negated_value: absent          # what a negated finding becomes (default: dropped);
                                       # "{value} negative" keeps the value with its status
        negated_mentions: [dysplasia]  # phrases that count only when negated ("no dysplasia")
        ignore: [fat necrosis]         # phrases that hide the field's terms inside them
        severity: critical             # critical | major (default) | minor | backstop: its weight
        severity_reason: ...           # one line: why this weight
        open_class: {heads: [carcinoma], suffixes: [oma]}   # values outside the vocabulary
                                       # (add beside: [benign] to seek them also where only
                                       # those values were read)
        values_from: diagnosis         # reuse an earlier field's values (without implications)
        only_negated: true             # keep only negated findings ("no features of X": X)
        only_alone: [benign]           # values dropped when another value is stated (the
                                       # first listed also when only listed ones are)
        only_with: [melanoma, breslow] # read only from reports that name one of these words
                                       # ("5 mm thick" is a Breslow thickness in a melanoma
                                       # report, a gallbladder wall's in another)
        void_when: {benign_vs_malignant: malignant}  # dropped where another field reads that
                                       # value ("detrusor free of tumour" in a carcinoma's
                                       # report rules no malignancy out)
        negated_after_is_status: [margins]  # "margins free of carcinoma" rules nothing out
        spared_structures_except: [stroma]  # a negation naming the structure it spares ("no
                                       # infiltration of the renal sinus fat", "brain invasion
                                       # absent") is that structure's status, except for these
        own_status: true               # a test: a cue right after it is its own result
                                       # ("adenocarcinoma, CK7 negative" keeps the carcinoma)
        free_with: tumor_free_sites    # a value in a clause where that (select: number) field
                                       # counts a tumour-free statement gets " free" appended
        examined_of: lymph_node_involvement  # the examined part of that (select: total) count
                                       # replaces the numbers stated for this field
        repeats_are_parts: true        # (select: total) equal counts are separate parts that
                                       # add up ("B. 1/2 cores ... D. 1/2 cores"), not one
                                       # count stated twice
        equivalent: [[high, "3"]]      # pairs of values that state the same fact in two
                                       # wordings ("high nuclear grade" = "nuclear grade 3"),
                                       # also inside a set ("3 + high" = "3"); a value and the
                                       # combination it stands for: [bilateral, "left + right"]
        covers: {low: ["1", "2"]}      # a coarse value and the finer ones it agrees with (a
                                       # two-tier "low grade" is G1 or G2, never G3)
        same_fact_as:                  # a value that another field states too: stated on one
          n0: {lymph_node_involvement: absent}   # side only, it is neither missed nor
                                       # invented when the other side states that field's value
                                       # ("pN0" beside "0/12 nodes negative"); "any" as
                                       # the other value: whatever value it states
        generic_yields: true           # in a set, "carcinoma" beside "adenocarcinoma" (a value
                                       # that another value's name ends with) is dropped; in
                                       # scoring, a generic name and the one specific name of
                                       # the other report that ends with it (after a space)
                                       # are one entity
        discordance_only: true         # a roll-up of facts other fields state ("invasion
                                       # present"): scored only where both reports state it,
                                       # so it counts a contradiction, never a wording that
                                       # leaves it implicit
        subset_agrees: true            # (select: all) one report's set inside the other's agrees:
                                       # the organs of a specimen beside the structures one
                                       # report also names ("lung" vs "lung + pleura")
        agrees_within: measurements    # (numeric) two different values still agree when each
                                       # is, exactly, among the other report's values of that
                                       # field: both state the same sizes and each read another
                                       # of them as the tumour's (the specimen's, the nodule's)
        sided_by: laterality           # (select: all, values "<side> <site>") stated on one side
                                       # only, the sites are neither missed nor invented when
                                       # the other report gives the whole report that one side
                                       # ("Left parotid gland, parotidectomy" beside
                                       # "Parotidectomy (left)")
        ...

Severity exists because fields are not equally important: a wrong margin status changes the
operation, a different word for the biopsy procedure changes nothing. Each field's weight scales
its share in every CRQS component (see :mod:`pathreport.evaluation.crqs.scoring`); the
``paper`` profile scores unweighted, as the paper does.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from pathreport import paths
from pathreport.errors import PathreportError
from pathreport.evaluation.crqs.negation import NegationCues
from pathreport.evaluation.crqs.text import normalise_phrase
from pathreport.evaluation.crqs.values import (
    PARSERS,
    ValueParseError,
    clean_text,
    count_match,
    gleason_match,
    numeric_match,
)

FIELD_TYPES = ("categorical", "ordinal", "presence", "numeric", "gleason", "count", "text")
SELECT_MODES = ("first", "last", "max", "min", "all", "total", "number")
DEFAULT_PARSER = {
    "categorical": "text",
    "ordinal": "ordinal",
    "presence": "text",
    "numeric": "number",
    "gleason": "gleason",
    "count": "count",
    "text": "text",
}
DEFAULT_SELECT = {"presence": "max"}
PRESENCE_VALUES = ("absent", "present")
MULTI_VALUE_SEPARATOR = " + "


@lru_cache(maxsize=8192)
def entity_sets(reference: Any, prediction: Any) -> tuple[frozenset[str], frozenset[str]]:
    """The entities two set values name, an entity named generically on one side and specifically
    on the other counted once: "carcinoma in situ" in one report is the "urothelial carcinoma in
    situ" of the other (its name ends with the generic one, after a space), so it takes that name;
    "adenocarcinoma" and "squamous cell carcinoma" stay two entities.

    Remembered per pair of values: a benchmark compares the same few diagnoses thousands of
    times, and both the match and the partial agreement of a discordant field ask for them.
    """
    ref = set(str(reference).split(MULTI_VALUE_SEPARATOR))
    pred = set(str(prediction).split(MULTI_VALUE_SEPARATOR))
    for names, others in ((pred, ref), (ref, pred)):
        for name in sorted(names - others):
            specific = [o for o in others - names if _names_same_entity(name, o)]
            if len(specific) == 1:  # one counterpart: the same entity, named the other way
                names.discard(name)
                names.add(specific[0])
    return frozenset(ref), frozenset(pred)


def _names_same_entity(a: str, b: str) -> bool:
    """One name ends with the other ("conventional osteosarcoma", "osteosarcoma"), or both name
    one head and one's words are among the other's ("chronic hepatitis", "chronic viral
    hepatitis"): the same entity, one name less precise. A name outside the vocabulary is
    compared without its "unlisted: " mark; a word of each that the other lacks ("acute
    hepatitis", "chronic hepatitis") makes two entities."""
    a, b = a.removeprefix(UNLISTED_PREFIX), b.removeprefix(UNLISTED_PREFIX)
    if a.endswith(" " + b) or b.endswith(" " + a):
        return True
    a_words, b_words = a.split(), b.split()
    if not a_words or not b_words or a_words[-1] != b_words[-1]:
        return False
    return set(a_words) <= set(b_words) or set(b_words) <= set(a_words)


UNLISTED_PREFIX = "unlisted: "
ANY_VALUE = "any"  # a ``same_fact_as`` target stated by every value of its field
NEGATED_TEMPLATE = "{value}"  # in a negated_value: the negated finding's own value
COMPLETE_PROFILE = "complete"
# Clinical weight of each severity level. critical: the value changes diagnosis or management
# (diagnosis, malignancy, grade, margins, nodes, stage, therapy-driving biomarkers); major: a
# prognostic or descriptive finding a pathologist must state correctly; minor: specimen wording;
# backstop: a count that restates what other fields carry and changes with how a report splits
# its clauses (the number of clauses saying a site is tumour-free).
# A critical error costs 3 majors; 4 minor wording differences cost about one major.
DEFAULT_SEVERITY_WEIGHTS = {"critical": 3.0, "major": 1.0, "minor": 0.25, "backstop": 0.1}

SCHEMA_KEYS = frozenset(
    {
        "name",
        "version",
        "description",
        "sources",
        "groups",
        "key_fields",
        "fields",
        "negation",
        "learned_vocab",
        "profiles",
        "severity_weights",
        "borrow",
    }
)
BORROW_KEYS = frozenset({"from", "fields", "values", "except"})
FIELD_KEYS = frozenset(
    {
        "name", "group", "type", "description", "values", "patterns", "parser", "select",
        "negatable", "negated_value", "negated_mentions", "ignore", "unknown", "unit", "units",
        "tolerance", "severity", "severity_reason", "open_class", "values_from", "only_negated",
        "free_with", "examined_of", "generic_yields", "only_alone", "only_with",
        "negated_after_is_status", "spared_structures_except", "void_when",
        "repeats_are_parts", "same_fact_as", "own_status", "discordance_only", "equivalent",
        "covers", "agrees_within", "subset_agrees", "sided_by",
    }
)  # fmt: skip
VALUE_KEYS = frozenset({"synonyms", "aliases", "implies"})
PATTERN_KEYS = frozenset({"regex", "value", "negatable", "each", "anchors", "total"})
NEGATION_KEYS = frozenset(
    {
        "pre",
        "post",
        "affirm",
        "pseudo",
        "unknown_pre",
        "unknown_post",
        "terminators",
        "fillers",
        "max_gap",
        "max_post_fillers",
    }
)
TOLERANCE_KEYS = frozenset({"abs", "rel"})
PROFILE_KEYS = frozenset({"fields", "key_fields", "description"})
OPEN_CLASS_KEYS = frozenset({"heads", "suffixes", "exclude", "max_modifiers", "beside"})

# An unbounded quantifier applied to a group that itself contains one: the classic shape of
# catastrophic backtracking, refused in schema patterns.
_NESTED_QUANTIFIER = re.compile(r"\((?:[^()\\]|\\.)*[+*](?:[^()\\]|\\.)*\)[+*]")
_UPPERCASE_LITERAL = re.compile(r"[A-Z]")
_REGEX_SYNTAX = re.compile(r"\\.|\(\?P[<=]")  # escapes and named groups may use capitals
# Raw values remembered per field (see ``FieldSpec.canonicalize``), bounded for inputs that are
# not reports.
_MAX_REMEMBERED_VALUES = 4096
_MAX_REMEMBERED_VALUE_LENGTH = 200


class SchemaError(PathreportError, ValueError):
    """A schema file that cannot be used; the message names the file, the field and the fix."""


@dataclass(frozen=True)
class PatternRule:
    """One regular expression of a field: a constant value, or a captured ``value`` group.

    With ``each``, the ``value`` group marks a region and every match of ``each`` inside it is
    a value of its own: the station counts of "4/26 (perigastric 1/8, left gastric 3/11)". Such
    values are read as stated (a count carries its own status), so ``negatable`` must stay off.

    With ``total``, the match states the total of the counts inside it ("Nodes: 0/5 left, 0/6
    right (total 0/11)"): the field's other values read inside the match are its parts, and
    only the total is kept, even where a part is missed ("0/6 right" names no nodes).
    """

    regex: re.Pattern
    value: str | None = None
    negatable: bool = False
    each: re.Pattern | None = None
    # Literals one of which every text that the regex matches contains, where the regex hides
    # them from the automatic analysis ("pT2" behind a lookbehind); the rule runs only on texts
    # that contain one (see :mod:`pathreport.evaluation.crqs.anchors`).
    anchors: tuple[str, ...] = ()
    total: bool = False


@dataclass(frozen=True)
class ValueSpec:
    """A canonical value, the phrases that state it, and the values it implies in other fields.

    ``synonyms`` are searched in the text; ``aliases`` only translate a pattern's captured value
    (for example "muscle proper" -> "muscularis propria" after "invasion of", while the bare phrase
    "muscle proper" must not be searched because "the specimen includes muscle proper" is not an
    invasion).
    """

    canonical: str
    synonyms: tuple[str, ...] = ()
    implies: tuple[tuple[str, str], ...] = ()
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class OpenClass:
    """How a field recognises a value that its vocabulary does not list.

    A word that ends in one of ``suffixes`` ("-oma", "-itis") or equals one of ``heads``
    ("carcinoma", "tumor") and is not part of any vocabulary phrase names a value of the field,
    together with up to ``max_modifiers`` words before it ("sclerosing xanthoma"). The value is
    kept as ``unlisted: <phrase>``, so a report that names an unknown entity where the other names
    a known one is discordant, not merely silent. Such words are sought only where the field read
    no listed value, or only values in ``beside``: a statement of absence ("Fibrinous pleuritis,
    negative for malignancy" reads benign) must not hide the entity that the same report words
    otherwise ("Fibrinous pleuritis. No malignant cells identified").
    """

    heads: frozenset[str] = frozenset()
    suffixes: tuple[str, ...] = ()
    exclude: frozenset[str] = frozenset()
    max_modifiers: int = 2
    beside: frozenset[str] = frozenset()

    def names_value(self, word: str) -> bool:
        if word in self.exclude or not word.isalpha():
            return False
        return word in self.heads or (len(word) > 5 and word.endswith(self.suffixes))


@dataclass(frozen=True)
class FieldSpec:
    """One clinical field of a schema (see the module docstring for the YAML keys)."""

    name: str
    group: str
    type: str
    key: bool = False
    description: str = ""
    values: tuple[ValueSpec, ...] = ()
    patterns: tuple[PatternRule, ...] = ()
    parser: str = "text"
    select: str = "first"
    negatable: bool = True
    negated_value: str | None = None
    negated_mentions: tuple[str, ...] = ()
    only_negated: bool = False  # keep only negated findings ("no features of papillary carcinoma")
    free_with: str | None = None  # a statement-counting field whose clauses mark a value "free"
    examined_of: str | None = None  # a count field whose total's examined part is this field's
    # Equal counts are separate parts that add up ("1/2 cores" in two biopsy parts) rather than
    # one count stated twice (a node count in the diagnosis and again in the synopsis).
    repeats_are_parts: bool = False
    # value -> ((other field, its value), ...): the same fact stated by another field.
    same_fact_as: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # Pairs of the field's values that state one fact in two wordings: a three-tier nuclear
    # grade is written "high" or "3". Each pair matches; neither value matches a third.
    equivalent: frozenset[frozenset[str]] = frozenset()
    # A coarse value -> the finer values it agrees with: "low grade" (two-tier) is G1 or G2.
    covers: dict[str, frozenset[str]] = field(default_factory=dict, compare=False)
    # In a set, a value that another value's name ends with ("carcinoma" beside "adenocarcinoma")
    # names the same entity less precisely ("The carcinoma invades ...") and is dropped.
    generic_yields: bool = False
    # Values kept only when nothing else is stated; the first (a statement of absence) also
    # yields to the others listed.
    only_alone: tuple[str, ...] = ()
    # Words one of which the report must contain for the field to be read at all: a measure
    # whose wording other organs share ("5 mm thick") belongs to the field only in its context.
    only_with: tuple[str, ...] = ()
    # Words whose status a negation after them states ("margins are free of carcinoma").
    negated_after_is_status: tuple[str, ...] = ()
    # Set for a field whose negation may name the structure it spares ("no infiltration of the
    # renal sinus fat", "liver capsule not invaded", "brain invasion absent"): such a negation is
    # that structure's status, not this field's, unless the structure is one of these words
    # ("no invasion of the stroma", "no dermal invasion"). None: every negation is the field's.
    spared_structures_except: frozenset[str] | None = None
    # (field, value) pairs any one of which, read from the same report, voids this field: a
    # statement that the report's own diagnosis contradicts is about something else.
    void_when: tuple[tuple[str, str], ...] = ()
    # A test or marker (an immunostain, an organism): a negation cue right after one of its
    # terms is that term's result and does not reach back over a list to the findings before it.
    own_status: bool = False
    # A roll-up of facts that other fields state: compared only where both reports state it.
    discordance_only: bool = False
    # A numeric field whose different values still agree when each report's value is among the
    # other report's values of this field (a set of every stated size): the same sizes, read in
    # another order of importance.
    agrees_within: str | None = None
    # A set field where one report's set inside the other's is agreement: the organ of a
    # specimen, which one report names alone and another beside the structures it reaches or
    # that came with it ("lung" and "lung + pleura"; "breast" and "breast + lymph node"). Those
    # structures are facts of other fields (pleural invasion, the node count); a wrong organ
    # replaces the value, which no subset hides.
    subset_agrees: bool = False
    # A set of sided sites ("left ovary + right node") that the other report may state only as
    # the side of the whole report (its ``laterality``): the same side, named without its site.
    sided_by: str | None = None
    ignore: tuple[str, ...] = ()
    unknown: str = "drop"
    unit: str | None = None
    units: tuple[tuple[str, float], ...] = ()
    tolerance_abs: float | None = None
    tolerance_rel: float | None = None
    severity: str = "major"
    weight: float = 1.0
    open_class: OpenClass | None = None
    _lookup: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    _rank: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    # Canonical values of the raw strings seen so far: extraction meets the same few captures
    # ("3+4=7", "positive", "2.5 cm") in report after report.
    _canonical: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    # Each value an ``equivalent`` pair names -> the values it stands for (``_equivalence_map``).
    _stands_for: dict[str, frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

    def canonicalize(self, raw: Any) -> Any:
        """Canonical value of a raw value (a regex capture, or an LLM backend's answer).

        A numeric answer with a unit ("25 mm") is converted to the field's unit (2.5 cm). Returns
        None when the value is not usable for this field (unknown value with ``unknown: drop``, or
        a snippet the parser cannot read).
        """
        if raw is None:
            return None
        if self.type == "numeric" and isinstance(raw, (int, float)):
            return round(float(raw), 4)
        text = str(raw)
        memo = self._canonical
        if text in memo:
            return memo[text]
        value = self._canonical_of(text)
        if len(memo) < _MAX_REMEMBERED_VALUES and len(text) <= _MAX_REMEMBERED_VALUE_LENGTH:
            memo[text] = value
        return value

    def _canonical_of(self, text: str) -> Any:
        key = clean_text(text)
        if key in self._lookup:
            return self._lookup[key]
        phrase = normalise_phrase(text)
        if phrase in self._lookup:
            return self._lookup[phrase]
        try:
            parsed = PARSERS[self.parser](text)
        except (ValueParseError, ValueError):
            return None
        if isinstance(parsed, float):
            lowered = text.lower()
            unit = next(
                (
                    u
                    for u, _ in self.units
                    if re.search(rf"(?<![a-z]){re.escape(u)}(?![a-z])", lowered)
                ),
                None,
            )
            return self.convert_unit(parsed, unit)
        if parsed in self._lookup:
            return self._lookup[parsed]
        if self.type in ("gleason", "count", "numeric") or self.parser in ("ordinal", "stage"):
            return parsed if parsed != "" else None
        if self.unknown == "keep" and parsed:
            return parsed
        return None

    def convert_unit(self, number: float, unit: str | None) -> float:
        """``number`` expressed in the field's canonical unit (``units`` gives the factors)."""
        if unit:
            factors = dict(self.units)
            unit = clean_text(unit)
            if unit in factors:
                return round(number * factors[unit], 4)
        return round(number, 4)

    def stated_facts(self, value: Any) -> frozenset[str]:
        """The value's parts (a set field's elements), each in the one name ``equivalent`` gives
        its fact: "3 + high" is {"3"} for a grade, "right + bilateral" {"left", "right"} for a
        side."""
        stands_for = self._stands_for
        return frozenset().union(
            *(stands_for.get(part, (part,)) for part in str(value).split(MULTI_VALUE_SEPARATOR))
        )

    def _covered(self, reference: Any, prediction: Any) -> bool:
        """Whether each stated fact of either report is a fact of the other or a value that one
        of the other's coarse values covers ("low" and "2"), or covers one of them."""
        covers = self.covers
        if not self._stands_for:
            ref_text, pred_text = str(reference), str(prediction)
            if MULTI_VALUE_SEPARATOR not in ref_text and MULTI_VALUE_SEPARATOR not in pred_text:
                # one fact each (most pairs): covered only when one covers the other
                return pred_text in covers.get(ref_text, ()) or ref_text in covers.get(
                    pred_text, ()
                )
        ref, pred = self.stated_facts(reference), self.stated_facts(prediction)

        def partnered(fact: str, others: frozenset[str]) -> bool:
            return fact in others or any(
                o in covers.get(fact, ()) or fact in covers.get(o, ()) for o in others
            )

        return all(partnered(f, pred) for f in ref) and all(partnered(f, ref) for f in pred)

    def rank(self, value: Any) -> int:
        """Position of ``value`` in the declared value order (for ``select: max|min``)."""
        return self._rank.get(value, -1)

    def matches(self, reference: Any, prediction: Any) -> bool:
        """Whether the two canonical values are clinically equivalent under this field's rule."""
        if reference == prediction:  # every rule below holds for equal values, the common case
            return True
        if self.type == "numeric":
            return numeric_match(
                reference, prediction, absolute=self.tolerance_abs, relative=self.tolerance_rel
            )
        if self.type == "gleason":
            return gleason_match(str(reference), str(prediction))
        if self.type == "count":
            return count_match(str(reference), str(prediction))
        if self.equivalent and frozenset((reference, prediction)) in self.equivalent:
            return True
        if self._stands_for and self.stated_facts(reference) == self.stated_facts(prediction):
            return True
        if self.covers and self._covered(reference, prediction):
            return True
        if self.subset_agrees:
            ref_set = set(str(reference).split(MULTI_VALUE_SEPARATOR))
            pred_set = set(str(prediction).split(MULTI_VALUE_SEPARATOR))
            return ref_set <= pred_set or pred_set <= ref_set
        if self.generic_yields:
            ref_set, pred_set = entity_sets(reference, prediction)
            return ref_set == pred_set
        if (
            isinstance(reference, str)
            and isinstance(prediction, str)
            and (reference.startswith(UNLISTED_PREFIX) or prediction.startswith(UNLISTED_PREFIX))
        ):  # a name outside the vocabulary, generic in one report, specific in the other
            return _names_same_entity(reference, prediction)
        return False


@dataclass(frozen=True)
class Schema:
    """A validated schema; ``digest`` changes whenever the file or its learned vocabulary does."""

    name: str
    version: int
    description: str
    sources: tuple[str, ...]
    groups: tuple[str, ...]
    fields: tuple[FieldSpec, ...]
    key_fields: tuple[str, ...]
    negation: NegationCues
    path: Path | None
    digest: str
    learned_vocab: dict[str, dict[str, str]] = field(default_factory=dict)
    learned_vocab_path: Path | None = None
    profile: str = COMPLETE_PROFILE
    profiles: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    severity_weights: dict[str, float] = field(default_factory=dict)
    # Built from ``fields`` (not an argument): ``dataclasses.replace`` then gives a copy an index
    # of its own instead of refilling the original's with the copy's fields.
    _by_name: dict[str, FieldSpec] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    # Scoring asks for the names and their order on every pair; built once from ``fields``.
    _names: tuple[str, ...] = field(default=(), init=False, repr=False, compare=False)
    _order: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    _weights: dict[str, float] = field(default_factory=dict, init=False, repr=False, compare=False)
    # The names of the ``discordance_only`` fields (scoring asks on every pair).
    discordance_only: frozenset[str] = field(
        default=frozenset(), init=False, repr=False, compare=False
    )
    # The fields another field can restate (``same_fact_as``, ``agrees_within``, ``sided_by``).
    restatable: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)
    # The presence fields of critical or major weight, whose "present" left out is an adverse
    # finding withheld (scoring counts it twice), and whose "present" invented is one made up
    # (counted four times if critical, twice if major).
    adverse_when_present: frozenset[str] = field(
        default=frozenset(), init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        self._by_name.update((f.name, f) for f in self.fields)
        object.__setattr__(self, "_names", tuple(f.name for f in self.fields))
        self._order.update((f.name, i) for i, f in enumerate(self.fields))
        self._weights.update((f.name, f.weight) for f in self.fields)
        object.__setattr__(
            self, "discordance_only", frozenset(f.name for f in self.fields if f.discordance_only)
        )
        object.__setattr__(
            self,
            "restatable",
            frozenset(
                f.name for f in self.fields if f.same_fact_as or f.agrees_within or f.sided_by
            ),
        )
        object.__setattr__(
            self,
            "adverse_when_present",
            frozenset(
                f.name
                for f in self.fields
                if f.type == "presence" and f.severity in ("critical", "major")
            ),
        )

    @property
    def weights(self) -> dict[str, float]:
        """Each field's clinical weight by name (read-only by convention: scoring reads it)."""
        return self._weights

    def in_schema_order(self, names: Iterable[str]) -> list[str]:
        """The names that are fields of this schema, in schema order (unknown names dropped)."""
        order = self._order
        return sorted([n for n in names if n in order], key=order.__getitem__)

    def field(self, name: str) -> FieldSpec:
        try:
            return self._by_name[name]
        except KeyError:
            pass
        raise KeyError(
            f"Schema '{self.name}' has no field '{name}'; fields: {', '.join(self.field_names)}."
        )

    @property
    def field_names(self) -> tuple[str, ...]:
        return self._names

    def has_field(self, name: str) -> bool:
        return name in self._by_name

    @property
    def profile_names(self) -> tuple[str, ...]:
        return (COMPLETE_PROFILE, *sorted(self.profiles))

    def for_profile(self, name: str | None) -> Schema:
        """This schema restricted to a named profile's fields and key fields.

        ``complete`` (or None) is every field. A named profile (``paper``: the paper's own field
        lists) keeps only its fields; implications into fields outside the profile are dropped,
        so the restricted extractor never reports a field the profile does not score.
        """
        if name in (None, COMPLETE_PROFILE, self.profile):
            return self
        if name not in self.profiles:
            from pathreport.registry import did_you_mean

            hint = did_you_mean(name, list(self.profile_names))
            raise SchemaError(
                f"Schema '{self.name}' has no profile '{name}'. {hint + ' ' if hint else ''}"
                f"Profiles: {', '.join(self.profile_names)}."
            )
        spec = self.profiles[name]
        kept = set(spec["fields"])
        keys = set(spec["key_fields"])
        fields = tuple(
            replace(
                f,
                key=f.name in keys,
                values=tuple(
                    replace(v, implies=tuple((t, x) for t, x in v.implies if t in kept))
                    for v in f.values
                ),
            )
            for f in self.fields
            if f.name in kept
        )
        digest = hashlib.sha256(f"{self.digest}:{name}".encode()).hexdigest()[:12]
        return replace(
            self,
            fields=fields,
            key_fields=tuple(k for k in spec["key_fields"]),
            profile=name,
            digest=digest,
        )

    def describe(self) -> dict[str, Any]:
        """The settings that identify this schema in a summary."""
        return {
            "schema": self.name,
            "schema_version": self.version,
            "schema_digest": self.digest,
            "schema_profile": self.profile,
            "n_fields": len(self.fields),
            "key_fields": list(self.key_fields),
            "severity_weights": dict(self.severity_weights),
            "learned_vocab": self.learned_vocab_path.name if self.learned_vocab_path else None,
        }


# -- loading -------------------------------------------------------------------------------------
_cache: dict[tuple[str, float, float, bool], Schema] = {}
_cache_lock = threading.Lock()


def schema_path(dataset: str) -> Path:
    """Where the schema of ``dataset`` lives: ``crqs/<dataset>.yaml``."""
    return paths.CRQS_DIR / f"{dataset}.yaml"


def available_schemas() -> list[str]:
    """Dataset names that have a schema file."""
    return sorted(p.stem for p in paths.CRQS_DIR.glob("*.yaml")) if paths.CRQS_DIR.is_dir() else []


def load_schema(name_or_path: str | os.PathLike, *, with_learned_vocab: bool = True) -> Schema:
    """Load and validate a schema by dataset name or file path (cached until the file changes).

    ``with_learned_vocab=False`` gives the curated schema alone (used to rebuild the vocabulary).
    """
    text = str(name_or_path)
    if os.sep in text or text.endswith((".yaml", ".yml")) or (isinstance(name_or_path, Path)):
        path = Path(name_or_path)
    else:
        path = schema_path(text)
        if not path.is_file():
            from pathreport.registry import did_you_mean

            hint = did_you_mean(text, available_schemas())
            raise FileNotFoundError(
                f"No CRQS schema for dataset '{text}': {path} does not exist. "
                f"{hint + ' ' if hint else ''}Schemas: "
                f"{', '.join(available_schemas()) or '(none)'}. "
                "Write crqs/<dataset>.yaml (see docs/crqs.md) or pass a schema file."
            )
    if not path.is_file():
        raise FileNotFoundError(f"CRQS schema file {path} does not exist.")
    raw = _read_yaml(path, shared=True)  # read only here; the build below gets its own copy
    vocab_path = _learned_vocab_path(raw, path) if with_learned_vocab else None
    lenders = sorted(_lender_paths(raw, path))
    key = (
        str(path.resolve()),
        path.stat().st_mtime,
        tuple((str(p), p.stat().st_mtime) for p in lenders),
        vocab_path.stat().st_mtime if vocab_path else 0.0,
        with_learned_vocab,
    )
    with _cache_lock:
        if key not in _cache:
            _cache[key] = build_schema(
                copy.deepcopy(raw), path=path, with_learned_vocab=with_learned_vocab
            )
        return _cache[key]


_yaml_cache: dict[tuple[str, float], Any] = {}


class _UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader that refuses a key repeated in one mapping: YAML keeps the last value in the
    first one's place, so a value written twice (a vocabulary entry, a field's option) would
    change silently when one copy is edited."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"key {key!r} repeated (first on line {seen[key]}); keep one of them",
                    key_node.start_mark,
                )
            seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)


def _read_yaml(path: Path, *, shared: bool = False) -> Any:
    """The parsed file, re-read only when it changes (scoring one pair must not re-parse YAML).

    A caller that builds from it gets its own copy; ``shared=True`` returns the cached object
    itself, for a caller that only reads it (a copy of a 2,000-line schema on every
    ``score_pair`` call cost more than scoring the pair).
    """
    key = (str(path.resolve()), path.stat().st_mtime)
    if key not in _yaml_cache:
        try:
            _yaml_cache[key] = yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)
        except yaml.constructor.ConstructorError as err:
            line = err.problem_mark.line + 1 if err.problem_mark else "?"
            raise SchemaError(f"{path}, line {line}: {err.problem}.") from None
        except yaml.YAMLError as err:
            raise SchemaError(
                f"{path}: not valid YAML ({err}); quote strings that contain ': ' or '#'."
            ) from None
    return _yaml_cache[key] if shared else copy.deepcopy(_yaml_cache[key])


def _learned_vocab_path(raw: Any, path: Path) -> Path | None:
    if isinstance(raw, dict) and raw.get("learned_vocab"):
        candidate = path.parent / str(raw["learned_vocab"])
        return candidate if candidate.is_file() else None
    return None


def build_schema(raw: Any, *, path: Path | None = None, with_learned_vocab: bool = True) -> Schema:
    """Validate a parsed schema mapping and build the :class:`Schema`.

    Raises:
        SchemaError: the mapping is not a valid schema.
    """
    where = str(path) if path else "<schema>"
    if not isinstance(raw, dict):
        raise SchemaError(
            f"{where}: a schema must be a mapping with keys {sorted(SCHEMA_KEYS)}, found "
            f"{type(raw).__name__}."
        )
    _check_keys(raw, SCHEMA_KEYS, where, "the schema")
    name = raw.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise SchemaError(f"{where}: 'name' must be a dataset name like 'reg2025', found {name!r}.")
    if path is not None and path.stem != name:
        raise SchemaError(
            f"{where}: 'name' is {name!r} but the file is {path.name}; the dataset name is the "
            "join key, rename one."
        )
    version = raw.get("version", 1)
    if not isinstance(version, int) or version < 1:
        raise SchemaError(f"{where}: 'version' must be a positive integer, found {version!r}.")
    groups = tuple(_string_list(raw.get("groups", ()), where, "groups"))
    raw_fields = raw.get("fields")
    if not isinstance(raw_fields, list) or not raw_fields:
        raise SchemaError(f"{where}: 'fields' must be a non-empty list of field mappings.")
    key_fields = tuple(_string_list(raw.get("key_fields", ()), where, "key_fields"))

    negation = NegationCues()
    if raw.get("negation") is not None:
        extra = raw["negation"]
        if not isinstance(extra, dict):
            raise SchemaError(
                f"{where}: 'negation' must be a mapping with keys {sorted(NEGATION_KEYS)}."
            )
        _check_keys(extra, NEGATION_KEYS, where, "'negation'")
        negation = negation.extended(extra)

    vocab_path = _learned_vocab_path(raw, path) if path and with_learned_vocab else None
    learned = _read_learned_vocab(vocab_path, name) if vocab_path else {}

    if raw.get("borrow") is not None:
        raw_fields = raw["fields"] = _borrow(raw, raw_fields, groups, path, where)

    names: list[str] = []
    for i, item in enumerate(raw_fields):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise SchemaError(
                f"{where}: fields[{i}] must be a mapping with a 'name', found {item!r}."
            )
        if item["name"] in names:
            raise SchemaError(
                f"{where}: field '{item['name']}' is defined twice "
                f"(fields[{names.index(item['name'])}] and fields[{i}]); remove one."
            )
        names.append(item["name"])
    for k in key_fields:
        if k not in names:
            raise SchemaError(
                f"{where}: key field '{k}' is not in the field list; add it to 'fields' or remove "
                "it from 'key_fields'."
            )
    if len(set(key_fields)) != len(key_fields):
        raise SchemaError(f"{where}: 'key_fields' lists a field twice: {key_fields}.")

    _resolve_values_from(raw_fields, where)
    fields = tuple(
        _build_field(
            item,
            where,
            groups=groups,
            key=item["name"] in key_fields,
            learned=learned.get(item["name"], {}),
        )
        for item in raw_fields
    )
    _check_group_order(fields, groups, where)
    _check_implications(fields, where)
    _check_field_references(fields, where)
    unknown_vocab = set(learned) - set(names)
    if unknown_vocab:
        raise SchemaError(
            f"{vocab_path}: learned vocabulary for unknown field(s) {sorted(unknown_vocab)}; "
            "rebuild it with `pathreport crqs build-vocab`."
        )

    severity_weights = _severity_weights(raw.get("severity_weights"), where)
    fields = tuple(
        replace(f, weight=severity_weights[f.severity])
        if f.severity in severity_weights
        else _unknown_severity(f, severity_weights, where)
        for f in fields
    )
    profiles = _build_profiles(raw.get("profiles"), names, where)

    digest = hashlib.sha256(json.dumps(raw, sort_keys=True, default=str).encode())
    if vocab_path:
        digest.update(vocab_path.read_bytes())
    return Schema(
        name=name,
        version=version,
        description=str(raw.get("description", "")).strip(),
        sources=tuple(_string_list(raw.get("sources", ()), where, "sources")),
        groups=groups,
        fields=fields,
        key_fields=key_fields,
        negation=negation,
        path=path,
        digest=digest.hexdigest()[:12],
        learned_vocab=learned,
        learned_vocab_path=vocab_path,
        profiles=profiles,
        severity_weights=severity_weights,
    )


def _lender_paths(raw: Any, path: Path) -> set[Path]:
    """The schema files that ``raw`` borrows from (they are part of its cache key)."""
    found = set()
    for spec in raw.get("borrow") or () if isinstance(raw, dict) else ():
        if isinstance(spec, dict) and isinstance(spec.get("from"), str):
            lender = _lender_path(spec["from"], path)
            if lender is not None:
                found.add(lender)
    return found


def _lender_path(name: str, path: Path | None) -> Path | None:
    """A lender's file: beside the borrowing schema, else the shipped schema of that name (so a
    schema written elsewhere can borrow from ``tcga``)."""
    for folder in ([path.parent] if path else []) + [paths.CRQS_DIR]:
        candidate = folder / f"{name}.yaml"
        if candidate.is_file():
            return candidate
    return None


def _borrow(
    raw: dict, raw_fields: list[dict], groups: tuple[str, ...], path: Path | None, where: str
) -> list[dict]:
    """This schema's fields with the fields and values it borrows from other schemas.

    Datasets overlap: a TCGA report can describe gastritis beside the carcinoma, a HistAI report a
    thyroid carcinoma's extrathyroidal extension. Borrowing keeps each field in one file instead
    of copying it. ``fields`` copies whole fields (placed in their group's position);
    ``values`` (a list of names, or a mapping ``this field: lender's field``) adds the lender's
    values that this field lacks. This schema's own wording always wins: a borrowed synonym that
    already names one of its values is dropped, and so is an implication into a field or value
    this schema does not have, or an ``agrees_within`` naming a field it does not have.
    Borrowing is not transitive (the lender's own ``borrow`` is not followed), so two schemas
    may borrow from each other.
    """
    specs = raw["borrow"]
    if not isinstance(specs, list):
        raise SchemaError(f"{where}: 'borrow' must be a list of {{from, fields, values}} mappings.")
    fields = [dict(item) for item in raw_fields]
    for spec in specs:
        if not isinstance(spec, dict) or not isinstance(spec.get("from"), str):
            raise SchemaError(f"{where}: every 'borrow' entry needs 'from: <schema name>'.")
        _check_keys(spec, BORROW_KEYS, where, f"borrow from {spec['from']!r}")
        here = f"{where}: borrow from {spec['from']!r}"
        lender_path = _lender_path(spec["from"], path)
        if lender_path is None:
            beside = f"{path.parent} nor " if path else ""
            raise SchemaError(
                f"{here}: no {spec['from']}.yaml in {beside}{paths.CRQS_DIR}; name a schema "
                f"from {available_schemas()} or put the lender beside this file."
            )
        lender = _read_yaml(lender_path)
        lent = {
            item.get("name"): item for item in lender.get("fields") or () if isinstance(item, dict)
        }
        for name in _string_list(spec.get("fields") or [], here, "fields"):
            if name not in lent:
                raise SchemaError(f"{here}: the lender has no field {name!r}.")
            if any(item.get("name") == name for item in fields):
                raise SchemaError(f"{here}: field {name!r} exists here already; borrow its values.")
            item = copy.deepcopy(lent[name])
            source = item.get("values_from")
            if source is not None and not any(f.get("name") == source for f in fields):
                raise SchemaError(
                    f"{here}: field {name!r} takes its values from {source!r}, which this schema "
                    "does not have."
                )
            if item.get("group") not in groups:
                raise SchemaError(
                    f"{here}: field {name!r} is in group {item.get('group')!r}, which this schema "
                    f"does not list in 'groups' {list(groups)}."
                )
            rank = groups.index(item["group"])
            at = sum(
                1 for f in fields if f.get("group") in groups and groups.index(f["group"]) <= rank
            )
            fields.insert(at, item)
        mapping = spec.get("values") or {}
        if isinstance(mapping, list):
            mapping = {name: name for name in _string_list(mapping, here, "values")}
        if not isinstance(mapping, dict):
            raise SchemaError(f"{here}: 'values' must be a list of field names or a mapping.")
        for target, source in mapping.items():
            own = next((f for f in fields if f.get("name") == target), None)
            if own is None or source not in lent:
                raise SchemaError(
                    f"{here}: values {target!r} <- {source!r}: both fields must exist "
                    "(this schema's and the lender's)."
                )
            own_values = own.get("values") or {}
            inherited = {}  # a values_from field also holds its source's values (resolved later)
            if own.get("values_from"):
                src = next((f for f in fields if f.get("name") == own["values_from"]), {})
                inherited = {
                    k: v for k, v in (src.get("values") or {}).items() if k not in own_values
                }
            skip = set(_string_list(spec.get("except") or [], here, "except"))
            offered = {k: v for k, v in (lent[source].get("values") or {}).items() if k not in skip}
            merged = _merged_values({**inherited, **own_values}, offered)
            own["values"] = {
                k: (
                    {x: y for x, y in v.items() if x != "implies"}
                    if inherited and isinstance(v, dict)
                    else v
                )
                for k, v in merged.items()
                if k not in inherited
            }
    names = {f.get("name"): f for f in fields}
    for item in fields:
        for spec in (item.get("values") or {}).values():
            if isinstance(spec, dict) and spec.get("implies"):
                spec["implies"] = {
                    t: v for t, v in spec["implies"].items() if _can_imply(names.get(t), v)
                }
        if item.get("agrees_within") is not None and item["agrees_within"] not in names:
            del item["agrees_within"]  # a borrowed field without the set it agrees within
        if item.get("sided_by") is not None and item["sided_by"] not in names:
            del item["sided_by"]  # a borrowed field without the side it may be stated by
    return fields


def _merged_values(own: dict, lent: dict) -> dict:
    """``own`` plus the lent values it lacks, minus lent synonyms that ``own`` already uses."""

    def phrases(canonical: str, spec: Any) -> list[str]:
        words = spec.get("synonyms") if isinstance(spec, dict) else spec
        return [canonical, *(str(w) for w in words or ())]

    taken = {normalise_phrase(p) for c, s in own.items() for p in phrases(str(c), s)}
    merged = dict(own)
    for canonical, spec in lent.items():
        if canonical in merged or normalise_phrase(str(canonical)) in taken:
            continue
        spec = copy.deepcopy(spec)
        kept = [w for w in phrases(str(canonical), spec)[1:] if normalise_phrase(w) not in taken]
        if isinstance(spec, dict):
            spec["synonyms"] = kept
        else:
            spec = kept
        merged[canonical] = spec
        taken.update(normalise_phrase(p) for p in phrases(str(canonical), spec))
    return merged


def _can_imply(target: dict | None, value: Any) -> bool:
    """Whether a borrowed implication ``target=value`` still names something in this schema."""
    if target is None:
        return False
    if target.get("type") in ("presence", "count") or target.get("unknown") == "keep":
        return True
    return str(value) in {str(c) for c in (target.get("values") or {})}


def _resolve_values_from(raw_fields: list[dict], where: str) -> None:
    """Copy ``values_from`` sources' values into the fields that name them (in place).

    A findings list ("every entity the report names") shares the diagnosis vocabulary; copying
    it at load time keeps one list in the file. Implications stay with the source field.
    """
    by_name = {item["name"]: item for item in raw_fields}
    for item in raw_fields:
        source = item.pop("values_from", None)
        if source is None:
            continue
        if source not in by_name or source == item["name"] or "values_from" in by_name[source]:
            raise SchemaError(
                f"{where}: field '{item['name']}': values_from {source!r} must name another "
                "field of the schema that has values of its own."
            )
        values = {}
        for canonical, spec in (by_name[source].get("values") or {}).items():
            if isinstance(spec, dict):
                spec = {k: v for k, v in spec.items() if k != "implies"}
            values[canonical] = spec
        values.update(item.get("values") or {})
        item["values"] = values


def _severity_weights(raw: Any, where: str) -> dict[str, float]:
    weights = dict(DEFAULT_SEVERITY_WEIGHTS)
    if raw is None:
        return weights
    if not isinstance(raw, dict) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in raw.values()
    ):
        raise SchemaError(
            f"{where}: 'severity_weights' must map severity names to non-negative numbers, "
            f"e.g. {DEFAULT_SEVERITY_WEIGHTS}, found {raw!r}."
        )
    weights.update({str(k): float(v) for k, v in raw.items()})
    return weights


def _unknown_severity(f: FieldSpec, weights: dict[str, float], where: str) -> FieldSpec:
    raise SchemaError(
        f"{where}: field '{f.name}' has severity {f.severity!r}; use one of {sorted(weights)} "
        "(or declare it under 'severity_weights')."
    )


def _build_profiles(raw: Any, names: list[str], where: str) -> dict[str, dict]:
    """Named field subsets; each lists its fields and key fields, all of them schema fields."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise SchemaError(
            f"{where}: 'profiles' must map profile names to {{fields: [...], key_fields: [...]}}."
        )
    profiles = {}
    for pname, spec in raw.items():
        here = f"{where}: profile '{pname}'"
        if pname == COMPLETE_PROFILE or not re.fullmatch(r"[a-z][a-z0-9_]*", str(pname)):
            raise SchemaError(
                f"{here}: profile names match [a-z][a-z0-9_]* and '{COMPLETE_PROFILE}' is "
                "reserved for the whole schema."
            )
        if not isinstance(spec, dict):
            raise SchemaError(f"{here}: must be a mapping with 'fields' and 'key_fields'.")
        _check_keys(spec, PROFILE_KEYS, where, f"profile '{pname}'")
        fields = _string_list(spec.get("fields"), here, "fields")
        keys = _string_list(spec.get("key_fields", ()), here, "key_fields")
        if not fields:
            raise SchemaError(f"{here}: 'fields' must list at least one field.")
        unknown = [f for f in (*fields, *keys) if f not in names]
        if unknown:
            raise SchemaError(f"{here}: {unknown} are not fields of the schema.")
        outside = [k for k in keys if k not in fields]
        if outside:
            raise SchemaError(f"{here}: key fields {outside} are not in the profile's 'fields'.")
        profiles[str(pname)] = {"fields": tuple(fields), "key_fields": tuple(keys)}
    return profiles


def _build_open_class(raw: Any, here: str) -> OpenClass | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise SchemaError(f"{here}: 'open_class' must be a mapping with 'heads' and/or 'suffixes'.")
    _check_keys(raw, OPEN_CLASS_KEYS, here, "open_class")
    heads = [normalise_phrase(h) for h in _string_list(raw.get("heads", ()), here, "heads")]
    suffixes = _string_list(raw.get("suffixes", ()), here, "suffixes")
    if not heads and not suffixes:
        raise SchemaError(f"{here}: 'open_class' needs 'heads' or 'suffixes'.")
    max_modifiers = raw.get("max_modifiers", 2)
    if not isinstance(max_modifiers, int) or not 0 <= max_modifiers <= 5:
        raise SchemaError(f"{here}: open_class 'max_modifiers' must be an integer 0-5.")
    return OpenClass(
        heads=frozenset(heads),
        suffixes=tuple(s.lower() for s in suffixes),
        exclude=frozenset(
            normalise_phrase(w) for w in _string_list(raw.get("exclude", ()), here, "exclude")
        ),
        max_modifiers=max_modifiers,
        beside=frozenset(
            normalise_phrase(v) for v in _string_list(raw.get("beside", ()), here, "beside")
        ),
    )


def _build_field(
    item: dict, where: str, *, groups: tuple[str, ...], key: bool, learned: dict[str, str]
) -> FieldSpec:
    name = item["name"]
    here = f"{where}: field '{name}'"
    _check_keys(item, FIELD_KEYS, where, f"field '{name}'")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise SchemaError(f"{here}: field names must match [a-z][a-z0-9_]*.")
    ftype = item.get("type")
    if ftype not in FIELD_TYPES:
        raise SchemaError(f"{here}: 'type' must be one of {FIELD_TYPES}, found {ftype!r}.")
    group = item.get("group", "")
    if groups and group not in groups:
        raise SchemaError(f"{here}: group {group!r} is not declared in 'groups' {list(groups)}.")
    parser = item.get("parser", DEFAULT_PARSER[ftype])
    if parser not in PARSERS:
        raise SchemaError(f"{here}: 'parser' must be one of {sorted(PARSERS)}, found {parser!r}.")
    select = item.get("select", DEFAULT_SELECT.get(ftype, "first"))
    if select not in SELECT_MODES:
        raise SchemaError(f"{here}: 'select' must be one of {SELECT_MODES}, found {select!r}.")
    if select in ("total", "number") and ftype != "count":
        raise SchemaError(f"{here}: 'select: {select}' gives a count; it needs 'type: count'.")
    unknown = item.get("unknown", "keep" if ftype == "text" else "drop")
    if unknown not in ("keep", "drop"):
        raise SchemaError(f"{here}: 'unknown' must be 'keep' or 'drop', found {unknown!r}.")

    values = _merge_duplicate_values(_build_values(item.get("values") or {}, here, ftype))
    lookup: dict[str, str] = {}
    for v in values:
        for phrase in (v.canonical, *v.synonyms, *v.aliases):
            for k in {clean_text(phrase), normalise_phrase(phrase)} - {""}:  # "+" has no words
                other = lookup.setdefault(k, v.canonical)
                if other != v.canonical:
                    raise SchemaError(
                        f"{here}: synonym {phrase!r} maps to both {other!r} and {v.canonical!r}; "
                        "keep it under one value."
                    )
    # Learned phrases only fill gaps: a curated synonym always wins.
    extra = [(p, c) for p, c in learned.items() if normalise_phrase(p) not in lookup]
    if extra:
        values = _merge_duplicate_values(
            [*values, *(ValueSpec(canonical=c, synonyms=(p,)) for p, c in extra)]
        )
        for p, c in extra:
            lookup.setdefault(normalise_phrase(p), c)
            lookup.setdefault(clean_text(c), c)
    patterns = tuple(
        _build_pattern(p, f"{here}, patterns[{i}]")
        for i, p in enumerate(item.get("patterns") or ())
    )
    if ftype == "numeric" and not patterns:
        raise SchemaError(f"{here}: a numeric field needs 'patterns' with a (?P<value>...) group.")
    if select != "total" and any(p.total for p in patterns):
        raise SchemaError(
            f"{here}: a pattern with 'total: true' states the total of a count, but the field "
            f"selects {select!r}; use it in a field with 'select: total' or drop the option."
        )
    mentions = item.get("negated_mentions")
    if ftype not in ("numeric",) and not values and not patterns and not mentions:
        raise SchemaError(
            f"{here}: the field has no 'values', 'patterns' or 'negated_mentions', so it can "
            "never be extracted."
        )

    negated_value = item.get("negated_value", "absent" if ftype in ("presence", "count") else None)
    canonicals = [v.canonical for v in values]
    if (
        negated_value is not None
        and ftype not in ("presence", "count")
        and negated_value not in canonicals
        and NEGATED_TEMPLATE not in str(negated_value)
    ):
        raise SchemaError(
            f"{here}: 'negated_value' {negated_value!r} is not one of the field's values "
            f"{canonicals}."
        )
    tolerance = item.get("tolerance") or {}
    if tolerance and ftype != "numeric":
        raise SchemaError(
            f"{here}: 'tolerance' applies only to numeric fields (type is {ftype!r})."
        )
    if not isinstance(tolerance, dict):
        raise SchemaError(
            f"{here}: 'tolerance' must be a mapping like {{abs: 10}} or {{rel: 0.15}}, found "
            f"{tolerance!r}."
        )
    _check_keys(tolerance, TOLERANCE_KEYS, where, f"field '{name}' tolerance")
    for k, v in tolerance.items():
        if not isinstance(v, (int, float)) or v < 0:
            raise SchemaError(f"{here}: tolerance {k} must be a non-negative number, found {v!r}.")
    units = item.get("units") or {}
    if not isinstance(units, dict) or not all(isinstance(v, (int, float)) for v in units.values()):
        raise SchemaError(
            f"{here}: 'units' must map unit names to conversion factors, e.g. {{mm: 0.1, cm: 1}}."
        )

    rank_order = PRESENCE_VALUES if ftype == "presence" else tuple(canonicals)
    return FieldSpec(
        name=name,
        group=group,
        type=ftype,
        key=key,
        description=str(item.get("description", "")).strip(),
        values=tuple(values),
        patterns=patterns,
        parser=parser,
        select=select,
        negatable=bool(item.get("negatable", True)),
        negated_value=negated_value,
        only_negated=bool(item.get("only_negated", False)),
        free_with=item.get("free_with"),
        examined_of=item.get("examined_of"),
        repeats_are_parts=bool(item.get("repeats_are_parts", False)),
        same_fact_as=_same_fact_as(item.get("same_fact_as"), here),
        generic_yields=bool(item.get("generic_yields", False)),
        own_status=bool(item.get("own_status", False)),
        discordance_only=bool(item.get("discordance_only", False)),
        agrees_within=item.get("agrees_within"),
        sided_by=item.get("sided_by"),
        subset_agrees=bool(item.get("subset_agrees", False)),
        only_alone=tuple(_string_list(item.get("only_alone", ()), here, "only_alone")),
        only_with=tuple(
            clean_text(w) for w in _string_list(item.get("only_with", ()), here, "only_with")
        ),
        equivalent=(equivalent := _equivalent_pairs(item.get("equivalent"), here)),
        _stands_for=_equivalence_map(equivalent),
        covers=_covers(item.get("covers"), here),
        void_when=_void_when(item.get("void_when"), here),
        negated_after_is_status=tuple(
            clean_text(w)
            for w in _string_list(
                item.get("negated_after_is_status", ()), here, "negated_after_is_status"
            )
        ),
        negated_mentions=tuple(
            _string_list(item.get("negated_mentions", ()), here, "negated_mentions")
        ),
        spared_structures_except=(
            frozenset(
                clean_text(w)
                for w in _string_list(
                    item["spared_structures_except"], here, "spared_structures_except"
                )
            )
            if "spared_structures_except" in item
            else None
        ),
        ignore=tuple(_string_list(item.get("ignore", ()), here, "ignore")),
        unknown=unknown,
        unit=item.get("unit"),
        units=tuple((clean_text(k), float(v)) for k, v in units.items()),
        tolerance_abs=tolerance.get("abs"),
        tolerance_rel=tolerance.get("rel"),
        severity=str(item.get("severity", "major")),
        open_class=_build_open_class(item.get("open_class"), here),
        _lookup=lookup,
        _rank={v: i for i, v in enumerate(rank_order)},
    )


def _build_values(raw: Any, here: str, ftype: str) -> list[ValueSpec]:
    if not isinstance(raw, dict):
        raise SchemaError(
            f"{here}: 'values' must map canonical values to synonym lists, found "
            f"{type(raw).__name__}."
        )
    values: list[ValueSpec] = []
    for canonical, spec in raw.items():
        canonical = str(canonical)
        if ftype == "presence" and canonical not in PRESENCE_VALUES:
            raise SchemaError(
                f"{here}: a presence field's values are 'present' and 'absent', found "
                f"{canonical!r}."
            )
        implies: dict[str, str] = {}
        aliases: list[str] = []
        if isinstance(spec, dict):
            _check_keys(spec, VALUE_KEYS, here, f"value {canonical!r}")
            synonyms = spec.get("synonyms") or []
            aliases = _string_list(spec.get("aliases") or [], here, f"aliases of {canonical!r}")
            implies = spec.get("implies") or {}
            if not isinstance(implies, dict):
                raise SchemaError(
                    f"{here}: value {canonical!r}: 'implies' must map field names to values."
                )
        elif spec is None:
            synonyms = []
        else:
            synonyms = spec
        synonyms = _string_list(synonyms, here, f"synonyms of {canonical!r}")
        values.append(
            ValueSpec(
                canonical=canonical,
                synonyms=tuple(synonyms),
                implies=tuple((str(k), str(v)) for k, v in implies.items()),
                aliases=tuple(aliases),
            )
        )
    return values


def _merge_duplicate_values(values: list[ValueSpec]) -> list[ValueSpec]:
    merged: dict[str, ValueSpec] = {}
    for v in values:
        if v.canonical in merged:
            old = merged[v.canonical]
            merged[v.canonical] = ValueSpec(
                v.canonical,
                tuple(dict.fromkeys(old.synonyms + v.synonyms)),
                old.implies or v.implies,
                tuple(dict.fromkeys(old.aliases + v.aliases)),
            )
        else:
            merged[v.canonical] = v
    return list(merged.values())


def _build_pattern(raw: Any, here: str) -> PatternRule:
    if isinstance(raw, str):
        raw = {"regex": raw}
    if not isinstance(raw, dict) or not isinstance(raw.get("regex"), str):
        raise SchemaError(
            f"{here}: a pattern is a regex string or a mapping with 'regex' (and optional 'value', "
            "'negatable')."
        )
    _check_keys(raw, PATTERN_KEYS, here, "the pattern")
    source = raw["regex"]
    if _NESTED_QUANTIFIER.search(source):
        raise SchemaError(
            f"{here}: regex {source!r} repeats a group that contains an unbounded quantifier, "
            "which can "
            "backtrack catastrophically on long text; bound the inner or outer repetition."
        )
    if _UPPERCASE_LITERAL.search(_REGEX_SYNTAX.sub("", source)):
        raise SchemaError(
            f"{here}: regex {source!r} contains upper-case letters, but patterns run on "
            "lower-cased text; write it in lower case."
        )
    try:
        compiled = re.compile(source)
    except re.error as err:
        raise SchemaError(f"{here}: invalid regex {source!r}: {err}.") from None
    value = raw.get("value")
    if value is not None:
        missing = [g for g in re.findall(r"\{(\w+)\}", str(value)) if g not in compiled.groupindex]
        if missing:
            raise SchemaError(
                f"{here}: value template {value!r} names group(s) {missing} that regex {source!r} "
                "does not define; add (?P<name>...) groups."
            )
    if value is None and "value" not in compiled.groupindex:
        raise SchemaError(
            f"{here}: regex {source!r} needs a (?P<value>...) group or a constant 'value'."
        )
    each = raw.get("each")
    if each is not None:
        each = _build_pattern(each, f"{here}, each")
        if (
            value is not None
            or each.value is not None
            or "value" not in compiled.groupindex
            or raw.get("negatable")
        ):
            raise SchemaError(
                f"{here}: 'each' reads several values inside the (?P<value>...) group of "
                f"{source!r} as stated; both regexes need a value group, neither a constant "
                "value, and the pattern is not negatable."
            )
    anchors = raw.get("anchors", [])
    if not isinstance(anchors, list) or not all(isinstance(a, str) and a for a in anchors):
        raise SchemaError(
            f"{here}: 'anchors' must be a list of literal strings one of which every match "
            f"contains, e.g. [pt, t1, t2]; found {anchors!r}."
        )
    return PatternRule(
        regex=compiled,
        value=None if value is None else str(value),
        negatable=bool(raw.get("negatable", False)),
        each=None if each is None else each.regex,
        anchors=tuple(a.lower() for a in anchors),
        total=bool(raw.get("total", False)),
    )


def _same_fact_as(raw: Any, here: str) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """``{value: {other_field: other_value}}`` as sorted tuples (the schema stays hashable)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not all(
        isinstance(targets, dict) and targets for targets in raw.values()
    ):
        raise SchemaError(
            f"{here}: 'same_fact_as' must map a value to {{other_field: other_value}}, e.g. "
            f"{{n0: {{lymph_node_involvement: absent}}}}; found {raw!r}."
        )
    return tuple(
        (str(value), tuple((str(g), str(w)) for g, w in sorted(targets.items())))
        for value, targets in sorted(raw.items(), key=lambda kv: str(kv[0]))
    )


def _check_group_order(fields: tuple[FieldSpec, ...], groups: tuple[str, ...], where: str) -> None:
    """Fields must be listed group by group, in the declared (hierarchical) order."""
    if not groups:
        return
    last = -1
    for f in fields:
        index = groups.index(f.group)
        if index < last:
            raise SchemaError(
                f"{where}: field '{f.name}' (group {f.group!r}) comes after a field of group "
                f"{groups[last]!r}; list fields in the hierarchical group order {list(groups)}."
            )
        last = index


def _equivalent_pairs(raw: Any, where: str) -> frozenset[frozenset[str]]:
    """``equivalent: [[high, "3"], [bilateral, "left + right"]]``: each item two different values
    of the field, or a value and the combination of values it stands for."""
    if raw is None:
        return frozenset()
    if not isinstance(raw, list) or not all(
        isinstance(pair, list)
        and len(pair) == 2
        and pair[0] != pair[1]
        and any(MULTI_VALUE_SEPARATOR not in str(v) for v in pair)
        for pair in raw
    ):
        raise SchemaError(
            f"{where}: 'equivalent' must be a list of pairs of two different values, "
            f'e.g. [[high, "3"]]; found {raw!r}.'
        )
    return frozenset(frozenset(str(v) for v in pair) for pair in raw)


def _equivalence_map(pairs: frozenset[frozenset[str]]) -> dict[str, frozenset[str]]:
    """Each value an ``equivalent`` pair names -> the values it stands for, so that a set field
    compares the facts its values state. Two single values are one fact under one name (the
    first in sorted order: "high" and "3" -> {"3"}), unless one of them is in another pair too:
    "resection" is "mastectomy" and "lumpectomy", which are not one another, so such pairs
    match only as whole values. A value paired with a combination stands for its parts
    ("bilateral" with "left + right" -> {"left", "right"})."""
    singles = [sorted(pair) for pair in pairs if all(MULTI_VALUE_SEPARATOR not in v for v in pair)]
    in_pairs = Counter(v for pair in singles for v in pair)
    names = {v: pair[0] for pair in singles if max(in_pairs[v] for v in pair) == 1 for v in pair}
    stands_for = {v: frozenset((name,)) for v, name in names.items()}
    for pair in pairs:
        whole = [v for v in pair if MULTI_VALUE_SEPARATOR not in v]
        if len(whole) == 1:
            (parts,) = pair.difference(whole)
            stands_for[whole[0]] = frozenset(
                names.get(p, p) for p in parts.split(MULTI_VALUE_SEPARATOR)
            )
    return stands_for


def _covers(raw: Any, where: str) -> dict[str, frozenset[str]]:
    """``covers: {low: ["1", "2"]}``: each coarse value with the finer values it agrees with."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(
        isinstance(v, list) and v and str(k) not in map(str, v) for k, v in raw.items()
    ):
        raise SchemaError(
            f"{where}: 'covers' must map a coarse value to the list of finer values it agrees "
            f'with, e.g. {{low: ["1", "2"]}}; found {raw!r}.'
        )
    return {str(k): frozenset(str(x) for x in v) for k, v in raw.items()}


def _void_when(raw: Any, where: str) -> tuple[tuple[str, str], ...]:
    """``void_when: {field: value, ...}`` as (field, value) pairs (checked against the fields
    later, once all are known)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in raw.items()
    ):
        raise SchemaError(
            f"{where}: 'void_when' must map field names to one value each "
            f"({{benign_vs_malignant: malignant}}), found {raw!r}."
        )
    return tuple((k, clean_text(v)) for k, v in raw.items())


def _check_field_references(fields: tuple[FieldSpec, ...], where: str) -> None:
    """``only_alone`` and ``equivalent`` name the field's own values; ``free_with`` a
    statement-counting field; ``examined_of`` a summed count field."""
    by_name = {f.name: f for f in fields}
    for f in fields:
        values = [v.canonical for v in f.values]
        equivalent = {
            part for v in set().union(*f.equivalent) for part in v.split(MULTI_VALUE_SEPARATOR)
        }
        covered = set(f.covers).union(*f.covers.values())
        named = {"only_alone": set(f.only_alone), "equivalent": equivalent, "covers": covered}
        for key, names in named.items():
            unknown = names.difference(values)
            if unknown:
                raise SchemaError(
                    f"{where}: field '{f.name}': {key} names {sorted(unknown)}, which are not "
                    f"values of the field {values}."
                )
        for target, value in f.void_when:
            other = by_name.get(target)
            if other is None or value not in [v.canonical for v in other.values]:
                raise SchemaError(
                    f"{where}: field '{f.name}': void_when names {target}={value!r}, which is "
                    "not a field of this schema with that value."
                )
        if f.free_with is not None and getattr(by_name.get(f.free_with), "select", None) != (
            "number"
        ):
            raise SchemaError(
                f"{where}: field '{f.name}': free_with {f.free_with!r} must name a field with "
                "'select: number' (one that counts tumour-free statements)."
            )
        stated = [v.canonical for v in f.values]
        if f.negatable and f.negated_value and f.negated_value not in stated:
            stated.append(f.negated_value)  # "absent": what a negated finding becomes
        for value, targets in f.same_fact_as:
            if value not in stated:
                raise SchemaError(
                    f"{where}: field '{f.name}': same_fact_as names {value!r}, which is not a "
                    f"value of the field {stated}."
                )
            for target, _ in targets:
                if target not in by_name or target == f.name:
                    raise SchemaError(
                        f"{where}: field '{f.name}': same_fact_as names field {target!r}, which "
                        "is not another field of this schema."
                    )
        if f.agrees_within is not None and (
            f.type != "numeric" or getattr(by_name.get(f.agrees_within), "type", None) != "numeric"
        ):
            raise SchemaError(
                f"{where}: field '{f.name}': agrees_within {f.agrees_within!r} must name a numeric "
                "field of this schema, and the field itself must be numeric."
            )
        if f.sided_by is not None and (f.select != "all" or f.sided_by not in by_name):
            raise SchemaError(
                f"{where}: field '{f.name}': sided_by {f.sided_by!r} must name a field of this "
                "schema, and the field itself must be a set (select: all)."
            )
        if f.subset_agrees and f.select != "all":
            raise SchemaError(
                f"{where}: field '{f.name}': subset_agrees compares sets; the field needs "
                f"'select: all', found {f.select!r}."
            )
        if f.repeats_are_parts and f.select != "total":
            raise SchemaError(
                f"{where}: field '{f.name}': repeats_are_parts applies to counts that add up; "
                f"the field needs 'select: total', found {f.select!r}."
            )
        if f.examined_of is not None and getattr(by_name.get(f.examined_of), "select", None) != (
            "total"
        ):
            raise SchemaError(
                f"{where}: field '{f.name}': examined_of {f.examined_of!r} must name a count "
                "field with 'select: total' (one that adds up the report's counts)."
            )


def _check_implications(fields: tuple[FieldSpec, ...], where: str) -> None:
    by_name = {f.name: f for f in fields}
    for f in fields:
        for v in f.values:
            for target, value in v.implies:
                if target not in by_name:
                    raise SchemaError(
                        f"{where}: field '{f.name}', value {v.canonical!r} implies unknown field "
                        f"'{target}'."
                    )
                t = by_name[target]
                allowed = (
                    PRESENCE_VALUES
                    if t.type in ("presence", "count")
                    else tuple(x.canonical for x in t.values)
                )
                if value not in allowed and t.unknown != "keep":
                    raise SchemaError(
                        f"{where}: field '{f.name}', value {v.canonical!r} implies "
                        f"{target}={value!r}, "
                        f"which is not a value of '{target}' {list(allowed)}."
                    )


def _read_learned_vocab(path: Path, schema_name: str) -> dict[str, dict[str, str]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise SchemaError(
            f"{path}: learned vocabulary is not valid JSON ({err.msg}); rebuild it with "
            "`pathreport crqs build-vocab`."
        ) from None
    if (
        not isinstance(data, dict)
        or data.get("schema") != schema_name
        or not isinstance(data.get("fields"), dict)
    ):
        raise SchemaError(
            f"{path}: expected a learned vocabulary of schema {schema_name!r} with a 'fields' "
            "mapping, "
            f"found schema {data.get('schema') if isinstance(data, dict) else None!r}; rebuild it "
            "with `pathreport crqs build-vocab`."
        )
    return {
        str(f): {str(k): str(v) for k, v in phrases.items()}
        for f, phrases in data["fields"].items()
    }


def _check_keys(mapping: dict, allowed: frozenset[str], where: str, what: str) -> None:
    unknown = set(mapping) - allowed
    if unknown:
        from pathreport.registry import did_you_mean

        hints = [did_you_mean(str(k), sorted(allowed)) for k in sorted(unknown, key=str)]
        hint = " ".join(h for h in hints if h)
        raise SchemaError(
            f"{where}: unknown key(s) {sorted(map(str, unknown))} in {what}. "
            f"{hint + ' ' if hint else ''}"
            f"Allowed: {', '.join(sorted(allowed))}."
        )


def _string_list(value: Any, where: str, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise SchemaError(f"{where}: '{what}' must be a list of strings, found {value!r}.")
    out = []
    for v in value:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            v = str(v)
        if not isinstance(v, str) or not v.strip():
            raise SchemaError(f"{where}: '{what}' must contain non-empty strings, found {v!r}.")
        out.append(v)
    return out
