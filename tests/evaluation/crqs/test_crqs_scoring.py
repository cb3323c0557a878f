"""CRQS components, aggregate and edge-case policy, against values computed by hand."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import CRQSConfig, build_schema, score_fields
from pathreport.evaluation.crqs.schema import SchemaError
from pathreport.evaluation.crqs.scoring import PAPER_WEIGHTS, bootstrap_ci, summarise
from pathreport.evaluation.crqs.values import (
    breakdown_count,
    count_match,
    parse_count,
    total_count,
)

# Five fields; K = {diagnosis, grade}. Values are canonical already (scoring never re-extracts).
SCHEMA = build_schema(
    {
        "name": "toy",
        "key_fields": ["diagnosis", "grade"],
        "fields": [
            {
                "name": "diagnosis",
                "type": "categorical",
                "values": {"adenocarcinoma": [], "squamous cell carcinoma": []},
            },
            {"name": "grade", "type": "ordinal", "values": {"1": [], "2": [], "3": []}},
            {"name": "necrosis", "type": "presence", "values": {"present": ["necrosis"]}},
            {"name": "lvi", "type": "presence", "values": {"present": ["lvi"]}},
            {
                "name": "size",
                "type": "numeric",
                "patterns": ["(?P<value>\\d+) cm"],
                "tolerance": {"rel": 0.15},
            },
        ],
    }
)
DEFAULT = CRQSConfig()
REF = {"diagnosis": "adenocarcinoma", "grade": "2", "necrosis": "present", "size": 2.0}


def test_scoring_identical_fields_score_one():
    s = score_fields(REF, dict(REF), SCHEMA, DEFAULT)
    assert (1.0, 1.0, 0.0, 0.0, pytest.approx(1.0)) == (s.CFC, s.KIR, s.HR, s.CDS, s.CRQS)
    assert s.matched == ["diagnosis", "grade", "necrosis", "size"] and not (
        s.missed or s.hallucinated or s.discordant
    )


def test_scoring_components_by_hand():
    # Reference: 4 fields (2 key). Prediction: diagnosis right, grade wrong, necrosis missing,
    # size within 15 % (2.2 vs 2.0), plus an invented lvi. Necrosis, an adverse finding (stated
    # present), counts twice where it is left out; the invented lvi ("present", major) twice in
    # HR.
    pred = {"diagnosis": "adenocarcinoma", "grade": "3", "size": 2.2, "lvi": "present"}
    s = score_fields(REF, pred, SCHEMA, DEFAULT)
    assert s.matched == ["diagnosis", "size"] and s.discordant == ["grade"]
    assert s.missed == ["necrosis"] and s.hallucinated == ["lvi"]
    assert pytest.approx(2 / 5) == s.CFC  # matched / (|F_R| + the adverse finding missed)
    assert pytest.approx(1 / 2) == s.KIR  # diagnosis of {diagnosis, grade}
    # grade (wrong value) + lvi (not in reference) twice, of 4 predicted and lvi's second count
    assert pytest.approx(3 / 5) == s.HR
    assert pytest.approx(1 / 3) == s.CDS  # grade, of the 3 fields in both
    raw = 0.3 * 0.4 + 0.4 * 0.5 - 0.2 * 0.6 - 3.2 / 3  # the default: discordance eight times
    assert s.CRQS_raw == pytest.approx(raw) and pytest.approx(raw / 0.7) == s.CRQS
    paper = score_fields(REF, pred, SCHEMA, CRQSConfig(weights=PAPER_WEIGHTS))
    paper_raw = 0.3 * 0.4 + 0.4 * 0.5 - 0.2 * 0.6 - 0.4 / 3  # the paper's weights, same counts
    assert (
        paper.CRQS_raw == pytest.approx(paper_raw) and pytest.approx(paper_raw / 0.7) == paper.CRQS
    )


def test_a_wrong_value_costs_more_than_a_missing_one():
    """A report stating the wrong grade scores below one that leaves the grade out."""
    wrong = score_fields(REF, {**REF, "grade": "3"}, SCHEMA, DEFAULT)
    missing = score_fields(REF, {k: v for k, v in REF.items() if k != "grade"}, SCHEMA, DEFAULT)
    assert wrong.CRQS < missing.CRQS
    # Doubling the discordance weight widens the gap the paper's weights already leave.
    paper = CRQSConfig(weights=PAPER_WEIGHTS)
    paper_gap = (
        score_fields(REF, {k: v for k, v in REF.items() if k != "grade"}, SCHEMA, paper).CRQS
        - score_fields(REF, {**REF, "grade": "3"}, SCHEMA, paper).CRQS
    )
    assert missing.CRQS - wrong.CRQS > paper_gap > 0


def test_an_invented_adverse_finding_costs_more_than_an_invented_absence():
    """Inventing "lymphovascular invasion present" misleads; stating its absence where the
    reference is silent is a wording of the same negative picture."""
    present = score_fields(REF, {**REF, "lvi": "present"}, SCHEMA, DEFAULT)
    absent = score_fields(REF, {**REF, "lvi": "absent"}, SCHEMA, DEFAULT)
    assert present.hallucinated == absent.hallucinated == ["lvi"]
    assert present.HR > absent.HR and present.CRQS < absent.CRQS
    # the paper's uniform counting is unchanged
    paper = CRQSConfig(weights=PAPER_WEIGHTS, weighting="uniform")
    assert (
        score_fields(REF, {**REF, "lvi": "present"}, SCHEMA, paper).HR
        == score_fields(REF, {**REF, "lvi": "absent"}, SCHEMA, paper).HR
    )


def test_an_invented_critical_adverse_finding_counts_four_times_in_hr() -> None:
    """An invented critical finding ("perineural invasion present") counts four times in HR, a
    major one twice: a made-up finding that changes treatment must cost more than a fact worded
    more narrowly."""
    schema = build_schema(
        {
            "name": "toy_severity",
            "fields": [
                {"name": "diagnosis", "type": "categorical", "severity": "critical",
                 "values": {"adenocarcinoma": []}},
                {"name": "pni", "type": "presence", "severity": "critical",
                 "values": {"present": ["pni"]}},
                {"name": "necrosis", "type": "presence", "severity": "major",
                 "values": {"present": ["necrosis"]}},
            ],
        }
    )  # fmt: skip
    ref = {"diagnosis": "adenocarcinoma"}
    pni = score_fields(ref, {**ref, "pni": "present"}, schema, DEFAULT)
    necrosis = score_fields(ref, {**ref, "necrosis": "present"}, schema, DEFAULT)
    # weights: critical 3, major 1; pni 3 * 4 of 3 + 3 * 4, necrosis 1 * 2 of 3 + 1 * 2
    assert pytest.approx(12 / 15) == pni.HR
    assert pytest.approx(2 / 5) == necrosis.HR


def test_scoring_worst_case_is_negative_and_not_clipped():
    pred = {"diagnosis": "squamous cell carcinoma", "grade": "1", "necrosis": "absent", "size": 5.0}
    s = score_fields(REF, pred, SCHEMA, DEFAULT)
    assert (s.CFC, s.KIR, s.HR, s.CDS) == (0.0, 0.0, 1.0, 1.0)
    assert pytest.approx(-3.4 / 0.7) == s.CRQS  # -4.857, the bottom of the default range
    paper = score_fields(REF, pred, SCHEMA, CRQSConfig(weights=PAPER_WEIGHTS))
    assert pytest.approx(-0.6 / 0.7) == paper.CRQS  # -0.857 with the paper's weights


def test_scoring_eq6_formula_and_custom_weights():
    pred = {"diagnosis": "adenocarcinoma", "grade": "3", "size": 2.2, "lvi": "present"}
    s = score_fields(REF, pred, SCHEMA, CRQSConfig(formula="eq6", weights=PAPER_WEIGHTS))
    # CFC 2/5 and HR 3/5: the missed necrosis and the invented lvi (major) count twice
    raw = 0.3 * 0.4 + 0.4 * 0.5 + 0.2 * (1 - 0.6) + 0.4 * (1 - 1 / 3)
    assert s.CRQS_raw == pytest.approx(raw) and pytest.approx(raw / 1.3) == s.CRQS
    perfect = score_fields(REF, dict(REF), SCHEMA, CRQSConfig(formula="eq6", weights=PAPER_WEIGHTS))
    assert perfect.CRQS_raw == pytest.approx(1.3) and pytest.approx(1.0) == perfect.CRQS  # not 0.7
    weighted = score_fields(REF, pred, SCHEMA, CRQSConfig(weights=(1, 1, 0, 0)))
    assert pytest.approx((0.4 + 0.5) / 2) == weighted.CRQS  # CFC and KIR only


def test_scoring_empty_reference_policies():
    pred = {"lvi": "present"}
    vacuous = score_fields({}, pred, SCHEMA, DEFAULT)
    assert vacuous.vacuous_reference and (vacuous.CFC, vacuous.KIR, vacuous.HR, vacuous.CDS) == (
        1.0,
        1.0,
        1.0,
        0.0,
    )
    assert pytest.approx((0.3 + 0.4 - 0.2) / 0.7) == vacuous.CRQS
    zero = score_fields({}, pred, SCHEMA, CRQSConfig(on_empty_reference="zero"))
    assert (zero.CFC, zero.KIR) == (0.0, 0.0) and pytest.approx(-0.2 / 0.7) == zero.CRQS
    skipped = score_fields({}, pred, SCHEMA, CRQSConfig(on_empty_reference="skip"))
    assert skipped.skipped and skipped.CRQS is None


def test_scoring_vacuous_key_empty_prediction_and_no_comparable_field():
    no_key = score_fields({"necrosis": "present"}, {"necrosis": "present"}, SCHEMA, DEFAULT)
    assert no_key.vacuous_key and no_key.KIR == 1.0 and pytest.approx(1.0) == no_key.CRQS
    empty_pred = score_fields(REF, {}, SCHEMA, DEFAULT)
    assert empty_pred.empty_prediction_fields and empty_pred.no_comparable_fields
    assert (empty_pred.CFC, empty_pred.KIR, empty_pred.HR, empty_pred.CDS) == (0.0, 0.0, 0.0, 0.0)
    disjoint = score_fields({"necrosis": "present"}, {"lvi": "present"}, SCHEMA, DEFAULT)
    assert disjoint.no_comparable_fields and disjoint.CDS == 0.0 and disjoint.HR == 1.0


def test_scoring_summary_counts_every_edge_case_and_skips_only_skipped_cases():
    config = CRQSConfig(on_empty_reference="skip")
    scores = [
        score_fields(REF, dict(REF), SCHEMA, config),
        score_fields({}, {}, SCHEMA, config),
        score_fields({"necrosis": "present"}, {}, SCHEMA, config),
    ]
    summary = summarise(scores)
    assert (
        summary["n_scored"] == 2
        and summary["n_skipped"] == 1
        and summary["n_vacuous_reference"] == 1
    )
    # The skipped case is not scored, so it hits no other rule.
    assert summary["n_vacuous_key"] == 1 and summary["n_empty_prediction_fields"] == 1
    third = (0.3 * 0 + 0.4 * 1 - 0 - 0) / 0.7
    assert summary["CRQS"] == pytest.approx((1.0 + third) / 2)


def test_scoring_config_rejects_bad_settings():
    with pytest.raises(ValueError, match="formula"):
        CRQSConfig(formula="additive")
    with pytest.raises(ValueError, match="four non-negative"):
        CRQSConfig(weights=(0.3, 0.4, -0.2, 0.4))
    with pytest.raises(ValueError, match="on_empty_reference"):
        CRQSConfig(on_empty_reference="ignore")


def test_scoring_bootstrap_interval_brackets_the_mean_and_is_reproducible():
    values = [0.1, 0.9, 0.5, 0.4, 0.7, 0.2, 0.8, 0.3]
    low, high = bootstrap_ci(values, n_resamples=500, seed=3)
    assert low < sum(values) / len(values) < high
    assert bootstrap_ci(values, n_resamples=500, seed=3) == (low, high)
    assert bootstrap_ci([0.5], n_resamples=500) is None


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("2/14", "2/14"),
        ("1 of the 12", "1/12"),
        ("two of twenty-six", "2/26"),
        ("6 lymph nodes out of a total of 37", "6/37"),
        ("two positive lymph nodes out of three", "2/3"),
    ],
)
def test_values_node_counts_in_digits_and_words(text, count):
    assert parse_count(text) == count


def test_values_one_count_per_report_whatever_its_layout():
    assert total_count(["0/5", "1/7", "1/12"]) == "1/12"  # a stated total wins
    assert total_count(["0/5", "1/7"]) == "1/12"  # stations add up
    assert total_count(["1/12", "1/12"]) == "1/12"  # a repeated statement counts once
    # ... unless the field's equal counts are separate parts (cores of several biopsy parts)
    assert total_count(["1/2", "1/2", "2/2"], repeats_are_parts=True) == "4/6"
    assert total_count(["1/2", "1/2", "2/2"]) == "3/4"
    assert total_count(["2/7", "2"]) == "2/7"  # "metastases in two nodes (2/7)"
    # An equal count stated for another named part is a part; a restatement is not.
    assert total_count(["0/3", "0/3"], labels=["right", "left"]) == "0/6"
    assert total_count(["0/3", "0/3"], labels=["left", "left"]) == "0/3"
    assert total_count(["0/3", "0/3"], labels=["left", None]) == "0/3"
    assert total_count(["0/3", "0/3", "0/6"], labels=["right", "left", None]) == "0/6"
    assert (
        total_count(["1/2", "1/2"], repeats_are_parts=True, labels=["right mid", "left base"])
        == "2/4"
    )
    assert total_count(["3/12", "3/12"], repeats_are_parts=True) == "3/12"  # restated total
    # A breakdown's part that is the sum of the others is its stated total.
    assert breakdown_count(["0/11", "0/8", "0/19"]) == "0/19"
    assert breakdown_count(["0/3", "0/2", "0/2"]) == "0/7"
    assert total_count(["present", "absent"]) == "present"
    assert count_match("0/11", "absent") and not count_match("0/11", "2/11")


NODES = build_schema(
    {
        "name": "nodes",
        "key_fields": ["diagnosis"],
        "fields": [
            {"name": "diagnosis", "type": "categorical", "values": {"adenocarcinoma": []}},
            {
                "name": "nodes",
                "type": "count",
                "select": "total",
                "patterns": ["(?P<value>\\d+/\\d+) nodes"],
            },
            {
                "name": "pn",
                "type": "categorical",
                "values": {"n0": [], "n1": []},
                "same_fact_as": {"n0": {"nodes": "absent"}},
            },
        ],
    }
)


def test_scoring_a_fact_stated_by_another_field_is_neither_missed_nor_invented():
    counted = {"diagnosis": "adenocarcinoma", "nodes": "0/12"}
    staged = {"diagnosis": "adenocarcinoma", "nodes": "absent", "pn": "n0"}
    assert pytest.approx(1.0) == score_fields(counted, staged, NODES, DEFAULT).CRQS
    assert pytest.approx(1.0) == score_fields(staged, counted, NODES, DEFAULT).CRQS
    # ... but pN0 beside positive nodes is invented, and a wrong pN stays discordant.
    positive = {"diagnosis": "adenocarcinoma", "nodes": "2/12"}
    staged_n0 = {"diagnosis": "adenocarcinoma", "nodes": "2/12", "pn": "n0"}
    assert score_fields(positive, staged_n0, NODES, DEFAULT).hallucinated == ["pn"]
    n1 = {"diagnosis": "adenocarcinoma", "nodes": "absent", "pn": "n1"}
    assert score_fields(staged, n1, NODES, DEFAULT).discordant == ["pn"]


def test_same_fact_as_names_a_value_and_another_field():
    def schema(same):
        return {
            "name": "bad",
            "key_fields": ["a"],
            "fields": [
                {"name": "a", "type": "categorical", "values": {"x": []}, "same_fact_as": same},
                {"name": "b", "type": "categorical", "values": {"y": []}},
            ],
        }

    with pytest.raises(SchemaError, match="not a value"):
        build_schema(schema({"z": {"b": "y"}}))
    with pytest.raises(SchemaError, match="not another field"):
        build_schema(schema({"x": {"c": "y"}}))
    with pytest.raises(SchemaError, match="same_fact_as"):
        build_schema(schema(["x"]))


def test_an_entity_named_generically_and_specifically_is_one_entity():
    from pathreport.evaluation.crqs import load_schema

    schema, config = load_schema("tcga"), CRQSConfig()
    findings = schema.field("findings")
    specific = "urothelial carcinoma + urothelial carcinoma in situ"
    # "carcinoma in situ" beside a urothelial carcinoma is the urothelial carcinoma in situ.
    assert findings.matches("urothelial carcinoma + carcinoma in situ", specific)
    # Two different entities stay two, whatever their shared head word.
    assert not findings.matches("adenocarcinoma", "squamous cell carcinoma")
    assert not findings.matches("urothelial carcinoma", "squamous cell carcinoma")
    # A generic name with two specific counterparts names neither of them.
    assert not findings.matches("carcinoma", "urothelial carcinoma + squamous cell carcinoma")
    same = score_fields({"findings": specific}, {"findings": specific}, schema, config).CRQS
    generic = score_fields(
        {"findings": specific},
        {"findings": "urothelial carcinoma + carcinoma in situ"},
        schema,
        config,
    ).CRQS
    assert generic == same == 1.0


def test_a_discordance_only_roll_up_counts_a_contradiction_but_no_omission():
    schema = build_schema(
        {
            "name": "rollup",
            "fields": [
                {"name": "diagnosis", "type": "categorical", "values": {"carcinoma": []}},
                {
                    "name": "invasion_beyond_organ",
                    "type": "presence",
                    "values": {"present": ["extension"]},
                    "discordance_only": True,
                },
            ],
        }
    )
    ref = {"diagnosis": "carcinoma", "invasion_beyond_organ": "present"}
    left_implicit = score_fields(ref, {"diagnosis": "carcinoma"}, schema, DEFAULT)
    assert pytest.approx(1.0) == left_implicit.CRQS and not left_implicit.missed
    invented = score_fields({"diagnosis": "carcinoma"}, ref, schema, DEFAULT)
    assert pytest.approx(1.0) == invented.CRQS and not invented.hallucinated
    contradicted = score_fields(
        ref, {"diagnosis": "carcinoma", "invasion_beyond_organ": "absent"}, schema, DEFAULT
    )
    assert contradicted.discordant == ["invasion_beyond_organ"] and contradicted.CRQS < 0.5
