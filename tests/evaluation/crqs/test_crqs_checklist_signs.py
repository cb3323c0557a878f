"""Checklist signs, tumour-board shorthand and Nordic wording.

A sign after a heading's colon ("LVI: -", "Margins: all -"), after a node count ("3/14 +") or
after each named margin ("Margins: anterior -, deep -") states the same status as the word a
checklist prints there. "Radical" is the Nordic R0, "UC" the urothelial carcinoma of a bladder
report, and a size or count written after a heading or a finding without a colon is still that
size or count. A negation does not reach a list item that carries its own number ("no
ulceration, mitotic rate 2/mm2").
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair
from pathreport.evaluation.crqs.text import normalise


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # A sign after a heading's colon.
        ("tcga", "Pancreas, Whipple: ductal adenocarcinoma.\nPNI: +\nLVI: -",
         "perineural_invasion", "present"),
        ("histai", "Colon polyp: tubular adenoma.\nInvasive carcinoma: -", "invasion_status",
         "absent"),
        ("tcga", "Breast, mastectomy: invasive ductal carcinoma.\nMargins: -", "margin_status",
         "negative"),
        ("tcga", "Breast, lumpectomy: invasive lobular carcinoma.\nMargins: all -; closest = "
         "inferior, 4 mm", "margin_status", "negative"),
        ("tcga", "Breast, lumpectomy: invasive lobular carcinoma.\nMargins: all -; closest = "
         "inferior, 4 mm", "margin_distance", 0.4),
        ("tcga", "Liver, segmentectomy: hepatocellular carcinoma.\nParenchymal margin: - (9 mm)",
         "margin_distance", 0.9),
        # A sign after a node count.
        ("tcga", "Breast, mastectomy: invasive carcinoma.\nNodes: axillary 3/14 +, largest "
         "deposit 6 mm", "lymph_node_involvement", "3/14"),
        ("tcga", "Thyroid: papillary carcinoma.\nNodes: level VI 2/5 + (largest 3 mm)",
         "lymph_node_involvement", "2/5"),
        # Each named margin with its own sign or word.
        ("tcga", "Cervix, cone: squamous cell carcinoma.\nMargins: ecto -, endo -, deep -",
         "margin_status", "negative"),
        ("tcga", "Pancreas, Whipple: adenocarcinoma.\nMargins: neck -, bile duct -, uncinate "
         "(SMA) +", "margin_status", "positive"),
        ("tcga", "Kidney: urothelial carcinoma.\nMargins: ureteric negative, vascular negative",
         "margin_status", "negative"),
        ("tcga", "Pancreas, Whipple: adenocarcinoma.\nMargins: neck -, bile duct -; closest = "
         "uncinate, 1.5 mm", "margin_distance", 0.15),
        # Nordic and German wording.
        ("tcga", "Right hemicolectomy. Adenocarcinoma of the caecum. Radical. pT3 pN0.",
         "margin_status", "negative"),
        ("tcga", "Wide excision: melanoma. Non-radical; the deep margin is involved.",
         "margin_status", "positive"),
        ("reg2025", "Skin, back, excision;\n  Basal cell carcinoma\n  Note) Radical. Nearest "
         "margin deep, 2 mm.", "margin_status", "free"),
        ("tcga", "Lung, lobectomy: adenocarcinoma. Pleura visceralis free.", "pleural_invasion",
         "absent"),
        ("tcga", "Ventriculus, distal resection: adenocarcinoma. Localisation: curvatura minor.",
         "tumor_site", "lesser curvature"),
        # Counts and sizes without a colon, or after a shared heading.
        ("tcga", "Sigmoid colon: adenocarcinoma. Lymph node metastases 4/19. pN2a.",
         "lymph_node_involvement", "4/19"),
        ("tcga", "Lung, lobectomy: adenocarcinoma. Lymph nodes without metastases, 0/11.",
         "lymph_node_involvement", "0/11"),
        ("tcga", "Breast, excision: invasive carcinoma.\nSize/site: 17 mm, LOQ",
         "tumor_size", 1.7),
        # A measured item after a negated one keeps its own statement.
        ("tcga", "Skin, excision: melanoma, no ulceration, mitotic rate 2/mm2.",
         "mitotic_activity", "present"),
        ("tcga", "Leiomyoma: no necrosis, mitoses or atypia.", "mitotic_activity", "absent"),
        # Stains listed after a result and a dash.
        ("histai", "Immunohistochemistry: Positive - CK7, TTF-1. Negative - CK20, CDX2.",
         "ihc_markers", "cdx2 negative + ck20 negative + ck7 + ttf-1"),
        # Mismatch-repair and p53 stains with their result in brackets or as a sign.
        ("tcga", "Colon: adenocarcinoma. IHC: MLH1(-), PMS2(-), MSH2(+), MSH6(+).",
         "mmr_proteins_lost", "mlh1 + pms2"),
        ("tcga", "Colon: adenocarcinoma. IHC: MLH1(-), PMS2(-), MSH2(+), MSH6(+).",
         "mmr_msi_status", "deficient"),
        ("histai", "Endometrium: endometrioid carcinoma. MSH2 and MSH6 negative.",
         "mmr_proteins_lost", "msh2 + msh6"),
        ("reg2025", "Colon, biopsy;\n  Adenocarcinoma\n  Note) MLH1 -, PMS2 -, MSH2 +, MSH6 +.",
         "mmr_proteins_lost", "mlh1 + pms2"),
        ("tcga", "Endometrium: serous carcinoma. IHC: p53 (aberrant, null pattern).",
         "p53_status", "aberrant"),
        ("tcga", "Endometrium: endometrioid carcinoma. p53 (wild-type), ER(+).", "p53_status",
         "wild type"),
        # A dysplasia graded by an adjective before its kind; granulomatous diseases by name.
        ("histai", "Tongue, biopsy: moderate epithelial dysplasia.", "dysplasia_grade",
         "moderate"),
        ("tcga", "Oesophagus: severe squamous dysplasia adjacent to the carcinoma.",
         "dysplasia_grade", "high"),
        ("reg2025", "Oral cavity, biopsy;\n  Mild epithelial dysplasia", "dysplasia_grade", "low"),
        ("histai", "Lymph node: caseating granulomas, consistent with tuberculosis.", "diagnosis",
         "tuberculosis"),
        ("histai", "Lung, transbronchial biopsy: non-necrotising granulomas, in keeping with "
         "sarcoidosis.", "diagnosis", "sarcoidosis"),
        # Shorthand read by its context.
        ("tcga", "Bladder, TURBT: low-grade papillary UC, non-invasive.", "diagnosis",
         "urothelial carcinoma"),
        ("tcga", "Left superficial parotidectomy: MEC, low grade.", "tumor_grade", "low"),
        ("tcga", "Partial hepatectomy, seg. 6: hepatocellular carcinoma.", "tumor_site",
         "liver segment 6"),
        ("histai", "Appendix: low-grade appendiceal mucinous neoplasm (LAMN).", "diagnosis",
         "appendiceal mucinous neoplasm"),
        # A type after the noun, behind a differentiation or an organ's adjective.
        ("tcga", "Uterus: well-differentiated adenocarcinoma (endometrioid type, FIGO grade 1).",
         "diagnosis", "endometrioid carcinoma"),
        ("tcga", "Hysterectomy: primary uterine carcinoma of adenosquamous type.", "diagnosis",
         "adenosquamous carcinoma"),
        ("tcga", "Kidney: renal cell carcinoma of clear cell type.", "diagnosis",
         "renal cell carcinoma"),
        # An organ named by one of its parts.
        ("tcga", "Left distal femur, resection: osteosarcoma, osteoblastic type.", "organ_site",
         "bone"),
        ("tcga", "Diffuse glioma infiltrating the grey and white matter.", "organ_site", "brain"),
        ("tcga", "Lung, lobectomy: adenocarcinoma. No visceral pleural involvement.", "organ_site",
         "lung"),
        ("histai", "Duodenum, biopsies: small intestinal mucosa with villous atrophy.",
         "organ_site", "duodenum + small intestine"),
    ],
)  # fmt: skip
def test_a_sign_or_shorthand_states_the_usual_fact(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field"),
    [
        ("tcga", "Prostate, radical prostatectomy: acinar adenocarcinoma.", "margin_status"),
        ("tcga", "Colon, biopsies: UC, moderately active.", "diagnosis"),
        ("reg2025", "Colon, right hemicolectomy;\n  Adenocarcinoma\n  Note) Metastasis in 0 of "
         "14 regional lymph nodes (pN0).", "lymph_node_metastasis"),
    ],
)  # fmt: skip
def test_a_wording_that_states_no_such_fact_is_not_read(dataset, text, field):
    assert field not in extract(text, dataset)


def test_a_margin_list_that_states_its_status_already_is_left_as_it_is():
    text = "margins: mucosal margins negative; deep margin 2 mm (close)."
    assert normalise(text) == text


@pytest.mark.parametrize(
    ("raw", "normalised"),
    [
        ("LVI: -", "lvi: negative"),
        ("ER: +++, PR: -", "er: positive, pr: negative"),
        ("Margins: all -;", "margins: all negative;"),
        ("Nodes: 0/3 -", "nodes: 0/3 negative"),
        ("Margins: ecto -, endo -", "margins: negative, ecto-, endo-"),
    ],
)
def test_normalisation_of_signs(raw, normalised):
    assert normalise(raw) == normalised


def test_a_name_outside_the_vocabulary_matches_its_generic_or_specific_form():
    specific = "Mandible, resection: conventional ameloblastoma, 9 cm."
    reworded = "Mandible, resection: ameloblastoma, conventional type, 9 cm."
    other = "Mandible, resection: odontogenic myxoma, 9 cm."
    assert "diagnosis" in score_pair(specific, reworded, "tcga").matched
    assert "diagnosis" in score_pair(specific, other, "tcga").discordant


def test_bone_sarcomas_are_sarcomas_of_different_types():
    osteosarcoma = "Femur, resection: conventional osteosarcoma, high grade, 9 cm."
    reworded = "Femur, resection: osteosarcoma, conventional type, high grade, 9 cm."
    chondrosarcoma = "Femur, resection: chondrosarcoma, high grade, 9 cm."
    assert "diagnosis" in score_pair(osteosarcoma, reworded, "tcga").matched
    assert "histologic_type" in score_pair(osteosarcoma, chondrosarcoma, "tcga").discordant


def test_a_part_heading_takes_the_tumour_free_status_of_the_line_below_it():
    report = (
        "A. Lymph nodes, right obturator, excision:\n"
        "   - Negative for carcinoma (0/4).\n"
        "B. Lymph nodes, left obturator, excision:\n"
        "   - Metastatic adenocarcinoma in 1 of 3 lymph nodes."
    )
    assert extract(report, "tcga")["lateral_sites"] == "left node + right node free"


def test_a_bullet_dash_below_a_heading_is_no_minus_sign():
    report = "Left pelvic lymph nodes:\n- Metastatic carcinoma in 2 of 5 nodes."
    fields = extract(report, "tcga")
    assert fields["lateral_sites"] == "left pelvic"
    assert "tumor_free_sites" not in fields


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Eleven lymph nodes from stations 4R, 7, 10R and 11R are negative for carcinoma.",
         "lymph_node_involvement", "0/11"),
        ("Nine nodes from stations 2R, 4R and 7, all negative.", "lymph_nodes_examined", "9"),
        ("Lymph nodes of the central compartment: five, none with metastasis.",
         "metastatic_involvement", "absent"),
        ("Sentinel nodes, left axilla: 0/3.", "lymph_node_involvement", "0/3"),
    ],
)  # fmt: skip
def test_a_node_count_worded_around_its_stations_is_read(text, field, value):
    assert extract(text, "tcga").get(field) == value
