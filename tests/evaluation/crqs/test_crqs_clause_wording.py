"""Where a status, a count or a distance sits in its clause.

Each case pairs a wording that had been misread with the fact it states: "non-keratinizing"
names a type and negates no carcinoma; a status after the finding's object ("invasion of the
lamina propria is not identified") is the finding's; the second station of a per-side node list
counts; the score in brackets after a Nottingham grade is no grade. A misread here turns a
correct report into one with a wrong or missing critical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_non_keratinizing_negates_no_carcinoma(dataset):
    fields = extract("Lung, biopsy:\n- Non-keratinizing squamous cell carcinoma.", dataset)
    assert fields["diagnosis"] == "squamous cell carcinoma"
    assert fields["histologic_type"] == "non-keratinizing"
    assert "squamous cell carcinoma" not in str(fields.get("excluded_entities"))


def test_non_still_negates_the_word_it_is_joined_to():
    fields = extract("Non-invasive papillary urothelial carcinoma, low grade.", "tcga")
    assert fields["in_situ_vs_invasive"] == "in situ"
    assert fields["invasion_status"] == "absent"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        (
            "Papillary urothelial carcinoma. Invasion of the lamina propria is not identified.",
            "absent",
        ),
        ("Urothelial carcinoma. Invasion into the lamina propria is present.", "present"),
    ],
)
def test_a_status_after_the_findings_object_is_the_findings(text, status):
    assert extract(text, "histai")["invasion_status"] == status


def test_a_status_after_an_object_and_a_conjunction_is_another_findings():
    fields = extract(
        "Adenocarcinoma. Perineural invasion of nerves and lymphovascular invasion not identified.",
        "tcga",
    )
    assert fields["lymphovascular_invasion"] == "absent"


@pytest.mark.parametrize(
    "text",
    [
        "Carcinoma. Lymph nodes: right pelvic 2/11 positive; left pelvic 0/13.",
        "Carcinoma. Right pelvic lymph nodes 2/11 positive; left pelvic lymph nodes 0/13.",
    ],
)
def test_per_side_node_counts_with_stations_add_up(text):
    assert extract(text, "tcga")["lymph_node_involvement"] == "2/24"


def test_the_score_in_brackets_after_a_nottingham_grade_is_not_a_grade():
    fields = extract("Invasive carcinoma of no special type, Nottingham grade 2 (3+2+2).", "tcga")
    assert fields["tumor_grade"] == "2"


def test_micrometastasis_in_k_of_n():
    fields = extract("Breast carcinoma. Sentinel lymph nodes: micrometastasis in 1 of 3.", "tcga")
    assert fields["lymph_node_involvement"] == "1/3"


def test_closest_margin_named_with_a_bracketed_synonym():
    fields = extract(
        "Adenocarcinoma. Margins: clear; closest is circumferential (radial) at 8 mm.", "tcga"
    )
    assert fields["margin_distance"] == pytest.approx(0.8)


def test_sentinel_nodes_are_a_lymph_node_site_with_or_without_lymph():
    a = "Right breast, lumpectomy and sentinel lymph node biopsy: invasive carcinoma, 19 mm."
    b = "Right breast lumpectomy with sentinel node biopsy: invasive carcinoma, 19 mm."
    assert "lymph node" in extract(b, "tcga")["organ_site"]
    assert score_pair(a, b, "tcga").CRQS > 0.99


def test_sv_is_the_seminal_vesicle():
    fields = extract("Prostatic adenocarcinoma. L SV: involved. R SV: negative for tumor.", "tcga")
    assert "left seminal vesicle" in fields["lateral_sites"]


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("Melanoma. The mitotic rate is six per square millimetre.", 6.0),
        ("Melanoma. Mitotic rate: less than one per square mm.", 1.0),
    ],
)
def test_a_mitotic_rate_written_in_words(text, rate):
    assert extract(text, "tcga")["mitotic_rate"] == pytest.approx(rate)


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Adenocarcinoma with clear proximal and distal margins.", "negative"),
        ("Adenocarcinoma. Negative deep and peripheral margins.", "negative"),
        (
            "Adenocarcinoma with five of eighteen lymph nodes involved and all margins clear.",
            "negative",
        ),
        ("Carcinoma extending to the deep and lateral margins.", "positive"),
    ],
)
def test_margin_status_with_listed_margins(text, status):
    assert extract(text, "tcga")["margin_status"] == status


def test_a_bulleted_synoptic_block_in_capitals():
    text = (
        "WHIPPLE:\n- PDAC, PANCREATIC HEAD, MOD DIFF\n- 28 MM, EXTENDS INTO PERIPANCREATIC SOFT "
        "TISSUE\n- MARGINS: PANCREATIC NECK, BILE DUCT, ENTERIC - NEGATIVE\n- LNs: 4/16 POSITIVE"
    )
    fields = extract(text, "tcga")
    assert fields["tumor_size"] == pytest.approx(2.8)
    assert fields["margin_status"] == "negative"
    assert fields["lymph_node_involvement"] == "4/16"


def test_cholecystitis_is_a_benign_inflammatory_diagnosis():
    a = (
        "Specimen: Gallbladder, cholecystectomy.\nMicroscopy: Gallbladder wall with chronic "
        "inflammation.\nConclusion: Chronic cholecystitis with cholelithiasis."
    )
    b = (
        "Cholecystectomy.\nMicroscopic: Chronically inflamed gallbladder wall.\nDiagnosis: "
        "Chronic cholecystitis and cholelithiasis."
    )
    assert extract(a, "histai")["diagnosis"] == "cholecystitis"
    assert score_pair(a, b, "histai").CRQS > 0.99
