"""REG 2025-style reports state more than the challenge's field list, and CRQS must read it.

The REG schema keeps the PathReportEval field list as its ``paper`` profile; its default profile
also reads the sides, sub-sites, sizes, counts, margins and biomarkers that a short biopsy or
resection report in this style states, so that a generated report that gets one of them wrong
scores below a reworded one that keeps them. The sentences are written for these tests.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, load_schema, score_pair

WORDINGS = [
    pytest.param("laterality", "Breast, right, core-needle biopsy;\n  Fibroadenoma", "right",
                 id="side after the organ"),
    pytest.param("tumor_site", "Colon, ascending, colonoscopic biopsy;\n  Adenocarcinoma",
                 "ascending colon", id="colon part after the organ"),
    pytest.param("tumor_site", "Stomach, body, endoscopic biopsy;\n  Chronic gastritis", "body",
                 id="stomach part after the organ"),
    pytest.param("tumor_size", "Kidney, left, partial nephrectomy;\n  Clear cell renal cell "
                 "carcinoma, WHO/ISUP grade 2 (2.8 cm)", 2.8, id="size in brackets"),
    pytest.param("tumor_grade", "Kidney, partial nephrectomy;\n  Clear cell renal cell carcinoma, "
                 "WHO/ISUP nuclear grade 2", "2", id="renal nuclear grade is the grade"),
    pytest.param("tumor_extent", "Prostate, biopsy;\n  Acinar adenocarcinoma, Gleason's score 6 "
                 "(3+3), involving 2 of 12 cores", "2/12", id="involved cores"),
    pytest.param("lymph_node_involvement", "Lymph node, axillary, excision;\n  Metastatic "
                 "carcinoma in 1 of 3 lymph nodes", "1/3", id="node count"),
    pytest.param("stromal_invasion", "Uterine cervix, biopsy;\n  HSIL (CIN 3)\n  - Stromal "
                 "invasion: Not identified", "absent", id="stromal invasion stated absent"),
    pytest.param("invasion_depth", "Colon, endoscopic submucosal dissection;\n  Adenocarcinoma\n"
                 "  - Depth of invasion: Submucosa, 800 um", "submucosa",
                 id="synoptic depth of invasion"),
    pytest.param("margin_status", "Cervix, loop excision;\n  HSIL (CIN 2), involving endocervical "
                 "resection margin", "involved", id="lesion involving a named margin"),
    pytest.param("er_status", "Breast, core-needle biopsy;\n  Invasive carcinoma of no special "
                 "type, grade II\n  - ER: positive, PR: negative, HER2: negative", "positive",
                 id="receptor status"),
    pytest.param("diagnosis", "Rectum, biopsy;\n  Well-differentiated NET, G1",
                 "neuroendocrine tumor", id="NET abbreviation"),
    pytest.param("inflammation_activity", "Stomach, antrum, biopsy;\n  Chronic gastritis with "
                 "activity", "chronic active", id="gastritis with activity"),
    pytest.param("histologic_type", "Skin, back, punch biopsy;\n  Basal cell carcinoma, nodular "
                 "type", "nodular", id="basal cell carcinoma subtype"),
    pytest.param("findings", "Pancreas, Whipple resection;\n  Adenocarcinoma; all resection "
                 "margins negative for carcinoma", "adenocarcinoma", id="margins are no finding"),
]  # fmt: skip

NOT_READ = [
    pytest.param("grade_group", "Kidney, partial nephrectomy;\n  Clear cell renal cell carcinoma, "
                 "WHO/ISUP grade 2", id="WHO/ISUP grade is not a prostate grade group"),
    pytest.param("primary_vs_metastatic", "Colon, right hemicolectomy;\n  Adenocarcinoma\n"
                 "  - Lymph nodes: Metastasis in 3 of 21 regional nodes", id="nodal spread"),
    pytest.param("stromal_invasion", "Urinary bladder, transurethral resection;\n  Urothelial "
                 "carcinoma in situ", id="an in-situ diagnosis states no stromal invasion"),
    pytest.param("margin_status", "Urinary bladder, transurethral resection;\n  Urothelial "
                 "carcinoma\n\nNote) The specimen includes muscle proper, which is free of tumor.",
                 id="a structure free of tumour is not a margin"),
    pytest.param("diagnosis", "Pancreas, Whipple resection;\n  all resection margins negative for "
                 "carcinoma", id="margins negative for carcinoma is no diagnosis"),
]  # fmt: skip


@pytest.mark.parametrize(("field", "text", "expected"), WORDINGS)
def test_a_reg_style_wording_is_read_as_its_field(field, text, expected):
    assert extract(text, "reg2025")[field] == expected


@pytest.mark.parametrize(("field", "text"), NOT_READ)
def test_a_reg_style_wording_is_not_read_as_the_field(field, text):
    assert field not in extract(text, "reg2025")


def test_the_paper_profile_keeps_the_challenge_field_list():
    # The borrowed fields extend the default profile only; the paper's numbers stay reproducible.
    paper = load_schema("reg2025").for_profile("paper")
    assert "laterality" not in paper.field_names and "tumor_size" not in paper.field_names
    assert "laterality" in load_schema("reg2025").field_names


@pytest.mark.parametrize(
    ("reference", "rewrite", "wrong"),
    [
        (
            "Kidney, left, partial nephrectomy;\n  Clear cell renal cell carcinoma, WHO/ISUP "
            "grade 2 (2.8 cm)\n  - Resection margin: Free",
            "Left kidney, partial nephrectomy: clear cell RCC, ISUP G2, 28 mm; margin negative.",
            "Kidney, right, partial nephrectomy;\n  Clear cell renal cell carcinoma, WHO/ISUP "
            "grade 2 (2.8 cm)\n  - Resection margin: Free",
        ),
        (
            "Lymph node, axillary, sentinel lymph node biopsy;\n  Metastatic carcinoma in 1 of "
            "3 lymph nodes",
            "Axillary sentinel lymph nodes: one of three nodes positive for metastatic carcinoma.",
            "Lymph node, axillary, sentinel lymph node biopsy;\n  Metastatic carcinoma in 2 of "
            "3 lymph nodes",
        ),
        (
            "Colon, ascending, colonoscopic biopsy;\n  Adenocarcinoma, moderately differentiated",
            "Ascending colon, endoscopic biopsy: moderately differentiated adenocarcinoma.",
            "Colon, descending, colonoscopic biopsy;\n  Adenocarcinoma, moderately differentiated",
        ),
    ],
    ids=["side", "node count stated as a status and a count", "colon part"],
)
def test_a_reg_style_rewrite_outscores_a_wrong_side_count_or_site(reference, rewrite, wrong):
    rewritten = score_pair(reference, rewrite, "reg2025").CRQS
    assert rewritten > score_pair(reference, wrong, "reg2025").CRQS


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        (
            "Breast, core biopsy;\n  Invasive carcinoma NST, grade 1 (tubules 2, pleomorphism 1, "
            "mitoses 1)\n  - DCIS, low nuclear grade",
            "nuclear_grade",
            "1",
        ),
        (
            "Thyroid;\n  Papillary carcinoma, conventional (classic) variant",
            "histologic_type",
            "classic",
        ),
        (
            "Prostate, biopsy;\n  Benign prostatic tissue\n  - No high-grade PIN",
            "in_situ_component",
            "absent",
        ),
        (
            "Thyroid;\n  Papillary thyroid carcinoma with angioinvasion",
            "lymphovascular_invasion",
            "present",
        ),
    ],
)
def test_reg_wording_of_grade_subtype_and_invasion(text, field, value):
    assert extract(text, "reg2025")[field] == value
