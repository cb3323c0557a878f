"""CRQS components, aggregate and edge-case policy (the paper's Eqs. 2-8, one explicit policy).

For one case with reference fields F_R, prediction fields F_P and key fields K:

* CFC = |matched| / |F_R|                         (clinical fact coverage, Eq. 2)
* KIR = |matched ∩ K| / |K ∩ F_R|                 (key information recall, Eq. 3)
* HR  = |{f in F_P: f not in F_R or not matched}| / |F_P|   (hallucination rate, Eq. 4: a wrong
  value is unsupported too; the reference code's REG variant that ignores wrong values is not used)
* CDS = |{f in F_R ∩ F_P: not matched}| / |F_R ∩ F_P|       (clinical discordance, Eq. 5)

Aggregate, ``formula="subtractive"`` (default; the paper's Appendix A.7 prompt and its code)::

    CRQS_raw = w1*CFC + w2*KIR - w3*HR - w4*CDS,   CRQS = CRQS_raw / (w1 + w2)

The paper's weights are (0.3, 0.4, 0.2, 0.4) (``PAPER_WEIGHTS``; the ``paper`` profile uses them).
The complete profile weighs discordance eight times, (0.3, 0.4, 0.2, 3.2) (``DEFAULT_WEIGHTS``):
a report that states a wrong value misleads where one that leaves the fact out prompts a
question, and with the paper's weights a paraphrase that words three facts differently lost
more than a report with one wrong grade or side. The divisor stays 0.7, so CRQS lies in
[-0.857, 1] with the paper's weights and in [-4.857, 1] with the default ones; negative values
are real and never clipped. ``formula="eq6"`` is the paper's Eq. 6 as
printed, ``w1*CFC + w2*KIR + w3*(1-HR) + w4*(1-CDS)``, divided by ``w1+w2+w3+w4`` (1.3), in [0, 1].
(The paper says Eq. 6 peaks at 0.7; with its own weights it peaks at 1.3.)

Each field counts with its clinical weight (``weighting="severity"``, the default): a set's size
|F| above is the sum of its fields' weights, so a discordant margin status (critical) costs more
than a differently worded procedure (minor). With ``weighting="uniform"`` every field weighs 1 and
the components are the paper's counts exactly (the ``paper`` schema profile uses this). Under
severity weighting a discordant set field keeps the share of its elements both reports state
(``partial_agreement``): a paraphrase that drops one of six sampled prostate sites loses a sixth
of the field rather than the whole field; a report that names one of the six wrongly loses two
sevenths (five shared of seven named in all).

Under severity weighting an adverse finding the prediction leaves out (a presence field of critical
or major weight stated "present" in the reference: lymphovascular invasion, ulceration) counts
twice in the denominators of CFC and KIR (``Schema.adverse_when_present``): dropping "perineural
invasion present" from a long report otherwise cost under 1%, less than rewording two minor facts.
A report that states the finding loses nothing; counting it three times lost as many dev
triplets as it gained (rewrites whose wording the extractor missed), four times more. An adverse
finding the prediction invents (such a field "present" in the prediction and absent from the
reference) counts more in HR's numerator and denominator: a critical one four times
(``INVENTED_CRITICAL_COUNT``), a major one twice. HR weighs a sixteenth of CDS, so counted once an
invented "lymphovascular invasion present" in a long report cost about 2%, and counted twice still
less than one major fact worded more narrowly ("body and lesser curvature" beside "lesser
curvature"). On the dev check set counting every invented adverse finding three, four and five
times gained 0, 3 and 4 triplets net over twice (five at the cost of a second rewrite lost to a
misread finding); counted four times an invented tumour necrosis (major) cost more than invented
positive peritoneal washings (critical), so major findings stay at twice, with the same 3 gained.

Empty denominators follow one policy for every dataset: no reference field -> CFC = KIR = 1
(vacuous, counted; or 0, or the case skipped, by ``on_empty_reference``); no reference key field
-> KIR = 1 (counted); no prediction field -> HR = 0; no comparable field -> CDS = 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pathreport.evaluation.crqs.schema import (
    ANY_VALUE,
    MULTI_VALUE_SEPARATOR,
    FieldSpec,
    Schema,
    entity_sets,
)

FORMULAS = ("subtractive", "eq6")
EMPTY_REFERENCE_POLICIES = ("vacuous", "zero", "skip")
WEIGHTINGS = ("severity", "uniform")
PAPER_WEIGHTS = (0.3, 0.4, 0.2, 0.4)  # the paper's w1..w4 (CFC, KIR, HR, CDS)
DEFAULT_WEIGHTS = (0.3, 0.4, 0.2, 3.2)  # the complete profile: discordance weighs eight times
COMPONENTS = ("CFC", "KIR", "HR", "CDS")
# How many times an invented critical adverse finding counts in HR (see the module docstring).
INVENTED_CRITICAL_COUNT = 4
FREE_MARK = " free"  # a sided site stated tumour-free: "left ovary free"


@dataclass(frozen=True)
class CRQSConfig:
    """How components become one score; validated on creation.

    Attributes:
        formula: ``subtractive`` (default, paper A.7 and code) or ``eq6`` (paper Eq. 6).
        weights: (w1, w2, w3, w4) for CFC, KIR, HR, CDS; all non-negative, w1 + w2 > 0
            (default ``DEFAULT_WEIGHTS``; the paper's are ``PAPER_WEIGHTS``).
        on_empty_reference: what a case whose reference has no extractable field scores:
            ``vacuous`` (CFC = KIR = 1), ``zero`` (CFC = KIR = 0) or ``skip`` (left out of means).
        weighting: ``severity`` (each field counts with its schema weight) or ``uniform``
            (every field counts 1, the paper's definition).
    """

    formula: str = "subtractive"
    weights: tuple[float, float, float, float] = DEFAULT_WEIGHTS
    on_empty_reference: str = "vacuous"
    weighting: str = "severity"

    def __post_init__(self) -> None:
        if self.weighting not in WEIGHTINGS:
            raise ValueError(
                f"CRQS weighting must be one of {WEIGHTINGS}, found {self.weighting!r}."
            )
        if self.formula not in FORMULAS:
            raise ValueError(f"CRQS formula must be one of {FORMULAS}, found {self.formula!r}.")
        if self.on_empty_reference not in EMPTY_REFERENCE_POLICIES:
            raise ValueError(
                f"on_empty_reference must be one of {EMPTY_REFERENCE_POLICIES}, found "
                f"{self.on_empty_reference!r}."
            )
        weights = tuple(float(w) for w in self.weights)
        if len(weights) != 4 or any(w < 0 for w in weights) or weights[0] + weights[1] <= 0:
            raise ValueError(
                "CRQS weights must be four non-negative numbers (CFC, KIR, HR, CDS) with CFC + "
                "KIR > 0, "
                f"found {self.weights!r}; the paper's are 0.3,0.4,0.2,0.4."
            )
        object.__setattr__(self, "weights", weights)

    @property
    def divisor(self) -> float:
        """The normaliser: the best possible raw score (0.7 and 1.3 with the paper's weights)."""
        w1, w2, w3, w4 = self.weights
        return w1 + w2 if self.formula == "subtractive" else w1 + w2 + w3 + w4

    def aggregate(self, cfc: float, kir: float, hr: float, cds: float) -> tuple[float, float]:
        """(CRQS_raw, CRQS) of one case's components."""
        w1, w2, w3, w4 = self.weights
        if self.formula == "subtractive":
            raw = w1 * cfc + w2 * kir - w3 * hr - w4 * cds
        else:
            raw = w1 * cfc + w2 * kir + w3 * (1.0 - hr) + w4 * (1.0 - cds)
        return raw, raw / self.divisor

    def describe(self) -> dict[str, Any]:
        return {
            "formula": self.formula,
            "weights": dict(zip(COMPONENTS, self.weights, strict=True)),
            "divisor": self.divisor,
            "on_empty_reference": self.on_empty_reference,
            "field_weighting": self.weighting,
        }


@dataclass
class CaseScore:
    """One case's components, aggregate and the fields behind them (None when skipped)."""

    CFC: float | None
    KIR: float | None
    HR: float | None
    CDS: float | None
    CRQS_raw: float | None
    CRQS: float | None
    matched: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    hallucinated: list[str] = field(default_factory=list)
    discordant: list[str] = field(default_factory=list)
    vacuous_reference: bool = False
    vacuous_key: bool = False
    empty_prediction_fields: bool = False
    no_comparable_fields: bool = False
    skipped: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: getattr(self, k) for k in (*COMPONENTS, "CRQS_raw", "CRQS")}
        out.update(
            matched=self.matched,
            missed=self.missed,
            hallucinated=self.hallucinated,
            discordant=self.discordant,
        )
        flags = [
            k
            for k in (
                "vacuous_reference",
                "vacuous_key",
                "empty_prediction_fields",
                "no_comparable_fields",
                "skipped",
            )
            if getattr(self, k)
        ]
        if flags:
            out["edge_cases"] = flags
        return out


def score_fields(
    reference: dict[str, Any], prediction: dict[str, Any], schema: Schema, config: CRQSConfig
) -> CaseScore:
    """Compare two extractions field by field and compute the components and the aggregate.

    ``hallucinated`` lists prediction fields absent from the reference; ``discordant`` lists
    fields present in both with non-equivalent values. HR counts both (paper Eq. 4). A
    ``discordance_only`` field (a roll-up such as "invasion present") counts only where both
    reports state it.
    """
    ref_fields = schema.in_schema_order(reference)
    pred_fields = schema.in_schema_order(prediction)
    rollups = schema.discordance_only
    if rollups:  # a roll-up stated on one side only is neither missed nor invented
        one_sided = rollups.difference(reference).symmetric_difference(
            rollups.difference(prediction)
        )
        if one_sided:
            ref_fields = [f for f in ref_fields if f not in one_sided]
            pred_fields = [f for f in pred_fields if f not in one_sided]
    pred_set, ref_set = set(pred_fields), set(ref_fields)
    matched: list[str] = []
    discordant: list[str] = []
    for name in ref_fields:
        if name in pred_set:
            spec = schema.field(name)
            (
                matched
                if spec.matches(reference[name], prediction[name])
                or (spec.agrees_within and _agree_within(spec, reference, prediction))
                else discordant
            ).append(name)
    missed = [f for f in ref_fields if f not in pred_set]
    hallucinated = [f for f in pred_fields if f not in ref_set]
    # A fact one report states in a field of its own and the other only in another field
    # ("pN0" beside "0/12 nodes negative") is neither missed nor invented.
    # Likewise a tumour size one report reads as the tumour's and the other states only as a
    # measurement ("tubular adenoma (8 mm)" beside "tubular adenoma, 8 mm").
    restatable = schema.restatable
    restated = {
        f for f in missed if f in restatable and _restates(schema, f, reference[f], prediction)
    } | {
        f
        for f in hallucinated
        if f in restatable and _restates(schema, f, prediction[f], reference)
    }
    if restated:
        missed = [f for f in missed if f not in restated]
        hallucinated = [f for f in hallucinated if f not in restated]
        ref_fields = [f for f in ref_fields if f not in restated]
        pred_fields = [f for f in pred_fields if f not in restated]
    keys = [f for f in ref_fields if f in schema.key_fields]
    if config.weighting == "uniform":

        def size(names: list[str]) -> float:
            return float(len(names))

        def shared(names: list[str]) -> float:
            return 0.0

    else:
        weights = schema.weights

        def size(names: list[str]) -> float:
            return sum([weights[n] for n in names])

        def shared(names: list[str]) -> float:
            return sum(
                schema.field(n).weight
                * partial_agreement(schema.field(n), reference[n], prediction[n])
                for n in names
            )

    adverse_fields = schema.adverse_when_present  # left out or invented: counted again
    discordant_set = set(discordant)
    shared_weight = shared(discordant) if discordant else 0.0  # computed once: REG pairs are short
    score = CaseScore(None, None, None, None, None, None, matched, missed, hallucinated, discordant)
    matched_size, discordant_size = size(matched), size(discordant)  # each used twice or more
    if not ref_fields:
        score.vacuous_reference = True
        if config.on_empty_reference == "skip":
            score.skipped = True
            return score
        cfc = kir = 1.0 if config.on_empty_reference == "vacuous" else 0.0
    else:
        # An adverse finding left out counts twice (see the module docstring); not under uniform
        # weighting, which keeps the paper's counts.
        adverse = (
            [f for f in missed if f in adverse_fields and reference[f] == "present"]
            if missed and config.weighting == "severity" and not adverse_fields.isdisjoint(missed)
            else []
        )
        cfc = _ratio(matched_size + shared_weight, size(ref_fields) + size(adverse), empty=1.0)
        if keys:
            matched_set = set(matched)
            key_matched = [f for f in keys if f in matched_set]
            key_shared = shared([f for f in keys if f in discordant_set]) if shared_weight else 0.0
            key_adverse = [f for f in adverse if f in schema.key_fields] if adverse else adverse
            kir = _ratio(size(key_matched) + key_shared, size(keys) + size(key_adverse), empty=1.0)
        else:
            score.vacuous_key = True
            kir = 1.0
    if pred_fields:
        unsupported = discordant_size - shared_weight
        predicted = size(pred_fields)
        if hallucinated:
            unsupported += size(hallucinated)
            # An adverse finding invented counts more (module docstring): a critical one
            # INVENTED_CRITICAL_COUNT times, a major one twice.
            if config.weighting == "severity" and not adverse_fields.isdisjoint(hallucinated):
                extra = sum(
                    [
                        schema.weights[f]
                        * (
                            INVENTED_CRITICAL_COUNT - 1
                            if schema.field(f).severity == "critical"
                            else 1
                        )
                        for f in hallucinated
                        if f in adverse_fields and prediction[f] == "present"
                    ]
                )
                unsupported += extra
                predicted += extra
        hr = _ratio(unsupported, predicted, empty=0.0)
    else:
        score.empty_prediction_fields = True
        hr = 0.0
    if matched or discordant:
        disagreeing = discordant_size - shared_weight
        cds = _ratio(disagreeing, matched_size + discordant_size, empty=0.0)
    else:
        score.no_comparable_fields = True
        cds = 0.0
    raw, crqs = config.aggregate(cfc, kir, hr, cds)
    score.CFC, score.KIR, score.HR, score.CDS, score.CRQS_raw, score.CRQS = (
        cfc,
        kir,
        hr,
        cds,
        raw,
        crqs,
    )
    return score


def _agree_within(spec: FieldSpec, reference: dict[str, Any], prediction: dict[str, Any]) -> bool:
    """Whether each report's value of ``spec`` is, exactly, among the other report's stated
    values of ``spec.agrees_within``: one report read the specimen's size as the tumour's where
    the other did not, yet both state the same sizes. A changed size is in neither set (the
    field's tolerance is not used here: "4.8 cm" is not "5.5 cm" stated elsewhere)."""
    other = spec.agrees_within
    if other not in reference or other not in prediction:
        return False
    return _among(reference[spec.name], prediction[other]) and _among(
        prediction[spec.name], reference[other]
    )


def _among(value: Any, stated: Any) -> bool:
    """Whether ``value`` (each of its parts, for a set) is, exactly, one of the ``stated``
    values (the very size, not one within the field's tolerance)."""
    numbers = [float(v) for v in str(stated).split(MULTI_VALUE_SEPARATOR)]
    return all(
        any(abs(float(part) - n) < 1e-6 for n in numbers)
        for part in str(value).split(MULTI_VALUE_SEPARATOR)
    )


def _restates(schema: Schema, name: str, value: Any, other: dict[str, Any]) -> bool:
    """Whether ``other``, which lacks the field, still states ``value``: through another field
    (``same_fact_as``), or, for a size, as the very number among its measurements
    (``agrees_within``), or, for sided sites, as the one side of the whole report
    (``sided_by``). A report that left the size out or changed it states neither."""
    spec = schema.field(name)
    if spec.same_fact_as and _states_same_fact(schema, spec.name, value, other):
        return True
    if spec.sided_by and spec.sided_by in other:
        side = f"{other[spec.sided_by]} "
        return all(p.startswith(side) for p in str(value).split(MULTI_VALUE_SEPARATOR))
    return (
        bool(spec.agrees_within)
        and spec.agrees_within in other
        and _among(value, other[spec.agrees_within])
    )


def _states_same_fact(schema: Schema, name: str, value: Any, other: dict[str, Any]) -> bool:
    """Whether ``other`` states the fact ``name = value`` through another field (the field's
    ``same_fact_as``), judged by that field's own rule ("0/12" matches "absent"); a target of
    ``ANY_VALUE`` is stated by any value of its field (a Breslow thickness states invasion)."""
    spec = schema.field(name)
    for stated, targets in spec.same_fact_as:
        if stated == value:
            return any(
                g in other
                and schema.has_field(g)
                and (w == ANY_VALUE or schema.field(g).matches(w, other[g]))
                for g, w in targets
            )
    return False


def partial_agreement(spec: FieldSpec, reference: Any, prediction: Any) -> float:
    """How much of a discordant field the two reports still share, in [0, 1).

    A set field states several facts ("left ovary + right ovary free"): the share is the Jaccard
    index of the two sets, so dropping one of six stated sites costs a sixth of the field, not
    all of it; a site marked tumour-free on one side only counts half (``_marked_jaccard``); in
    an entity set, one entity named generically and specifically counts once
    (``entity_sets``). A field that counts tumour-free statements (``select: number``) shares the
    smaller count's statements (3 of 4 -> 0.75). Every other field is one fact: 0.
    """
    if spec.select == "all":
        if spec.generic_yields:
            a, b = entity_sets(reference, prediction)
        elif spec.equivalent:  # "left + bilateral" against "right": the sides stated
            return _marked_jaccard(
                set(spec.stated_facts(reference)), set(spec.stated_facts(prediction))
            )
        else:
            a = set(str(reference).split(MULTI_VALUE_SEPARATOR))
            b = set(str(prediction).split(MULTI_VALUE_SEPARATOR))
            return _marked_jaccard(a, b)
        return len(a & b) / len(a | b)
    if spec.select == "number":
        try:
            a_n, b_n = int(reference), int(prediction)
        except (TypeError, ValueError):
            return 0.0
        return min(a_n, b_n) / max(a_n, b_n) if max(a_n, b_n) > 0 else 0.0
    return 0.0


def _marked_jaccard(a: set[str], b: set[str]) -> float:
    """The Jaccard index of two sets of stated sites, where a site one report marks tumour-free
    ("left node free") and the other names unmarked ("left node") counts half: both place the
    same site on the same side, and only one says what was found there. The side itself is
    never shared: "left node" and "right node free" share nothing."""
    common = a & b
    only_a, only_b = a - common, b - common
    half = 0
    if only_a and only_b:
        bases_b = {v.removesuffix(FREE_MARK) for v in only_b}
        half = len({v.removesuffix(FREE_MARK) for v in only_a} & bases_b)
    return (len(common) + 0.5 * half) / (len(a | b) - half)


def _ratio(part: float, whole: float, *, empty: float) -> float:
    """part / whole, or ``empty`` when every field of the set weighs 0 (a weight may be 0)."""
    return part / whole if whole > 0 else empty


def summarise(scores: Sequence[CaseScore]) -> dict[str, Any]:
    """Means of the components and scores over scored cases, plus the edge-case counts."""
    scored = [s for s in scores if not s.skipped]
    summary: dict[str, Any] = {}
    for name in ("CRQS", "CRQS_raw", *COMPONENTS):
        values = [getattr(s, name) for s in scored]
        summary[name] = sum(values) / len(values) if values else None
    summary.update(
        n_scored=len(scored),
        n_vacuous_reference=sum(s.vacuous_reference for s in scores),
        n_vacuous_key=sum(s.vacuous_key for s in scores),
        n_empty_prediction_fields=sum(s.empty_prediction_fields for s in scores),
        n_no_comparable_fields=sum(s.no_comparable_fields for s in scores),
        n_skipped=sum(s.skipped for s in scores),
    )
    return summary


def bootstrap_ci(
    values: Sequence[float], *, n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean, resampling cases (None for fewer than 2 cases)."""
    if len(values) < 2 or n_resamples <= 0:
        return None
    import numpy as np

    rng = np.random.default_rng(seed)
    data = np.asarray(values, dtype=float)
    means = np.empty(n_resamples)
    chunk = max(1, min(n_resamples, 2_000_000 // len(data)))
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        idx = rng.integers(0, len(data), size=(stop - start, len(data)))
        means[start:stop] = data[idx].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(low), float(high)


def field_table(
    schema: Schema,
    references: Sequence[dict[str, Any]],
    predictions: Sequence[dict[str, Any]],
    scores: Sequence[CaseScore],
) -> list[dict[str, Any]]:
    """Per field: reference and prediction support, matches, recall, precision, discordance."""
    rows = []
    for spec in schema.fields:
        name = spec.name
        ref_support = sum(1 for r in references if name in r)
        pred_support = sum(1 for p in predictions if name in p)
        matched = sum(1 for s in scores if name in s.matched)
        discordant = sum(1 for s in scores if name in s.discordant)
        hallucinated = sum(1 for s in scores if name in s.hallucinated)
        rows.append(
            {
                "field": name,
                "group": spec.group,
                "key": spec.key,
                "reference_support": ref_support,
                "prediction_support": pred_support,
                "matched": matched,
                "discordant": discordant,
                "hallucinated": hallucinated,
                "recall": matched / ref_support if ref_support else None,
                "precision": matched / pred_support if pred_support else None,
                "discordance": discordant / (matched + discordant)
                if matched + discordant
                else None,
            }
        )
    return rows
