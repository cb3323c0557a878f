"""Codes of other classifications, node counts in more shapes, and grading systems kept apart.

Japanese and UICC reports code vessels and margins ("ly1, v0", "pHM0, pVM1", "vp1"); any invaded
vessel is lymphovascular invasion. Node counts come with notes between them ("left 2/20 with
extranodal extension; right 0/15"), after the examined number ("16, 3 involved") or inside a
sentence about metastasis. A regression grade keeps the system it is named with wherever the
name stands, and words that look like findings ("Quirke grade 3", "parietal cells", "IF/TA",
"cancer screening") are not read as a grade, a site, an adenoma or a carcinoma.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # Shorthand: a bracketed synonym, the histological grade's letters, a kidney's ISUP grade.
        ("tcga", "Floor of mouth, excision: squamous (epidermoid) carcinoma, keratinising.",
         "diagnosis", "squamous cell carcinoma"),
        ("reg2025", "Breast, core biopsy;\n  Invasive carcinoma, NST, HG 3.", "tumor_grade", "3"),
        ("tcga", "Left nephrectomy: clear cell RCC, ISUP 2, 45 mm.", "nuclear_grade", "2"),
        ("tcga", "Right nephrectomy: clear cell RCC, WHO/ISUP G3.", "nuclear_grade", "3"),
        ("histai", "D2 biopsies: villous blunting, increased intraepithelial lymphocytes.",
         "organ_site", "duodenum"),
        ("reg2025", "Stomach, total gastrectomy;\n  Adenocarcinoma, poorly differentiated.",
         "organ_site", "stomach"),
        # Vessel codes: any invaded vessel is invasion.
        ("reg2025", "Colon, EMR;\n  Adenocarcinoma in adenoma, pT1, ly1, v0.",
         "lymphovascular_invasion", "present"),
        ("tcga", "Stomach, ESD: adenocarcinoma, Ly0, V1b.", "lymphovascular_invasion", "present"),
        ("tcga", "Rectum: adenocarcinoma, lymphatic invasion present (L1), no venous invasion "
         "(V0).", "lymphovascular_invasion", "present"),
        ("histai", "Hepatectomy: hepatocellular carcinoma, vp1, vv0.", "lymphovascular_invasion",
         "present"),
        ("reg2025", "Liver, biopsy;\n  Hepatocellular carcinoma with portal vein invasion.",
         "lymphovascular_invasion", "present"),
        # Margin codes and statuses in other words.
        ("tcga", "Stomach, ESD: adenocarcinoma, pHM0, pVM1.", "margin_status", "positive"),
        ("reg2025", "Rectum, ESD;\n  Adenocarcinoma, pHM0, pVM0.", "margin_status", "free"),
        ("tcga", "Colectomy. Margins: healthy.", "margin_status", "negative"),
        ("tcga", "Melanocytic naevus, excised in toto.", "margin_status", "negative"),
        ("reg2025", "Skin, shave;\n  Seborrheic keratosis, entirely removed.", "margin_status",
         "free"),
        ("tcga", "Whipple: margins: pancreatic neck, bile duct and uncinate all free.",
         "margin_status", "negative"),
        # Node counts in more shapes.
        ("tcga", "Lymph nodes: left 2/20 with extranodal extension; right 0/15.",
         "lymph_node_involvement", "2/35"),
        ("histai", "Lymph nodes dissected: 16, 3 compromised.", "lymph_node_involvement", "3/16"),
        ("tcga", "Esophagectomy: lymph node metastasis in 3 of 21 (#7, #8).",
         "lymph_node_involvement", "3/21"),
        ("tcga", "Nodes: twelve examined (levels II-IV), all negative.", "lymph_node_involvement",
         "0/12"),
        ("tcga", "Lymph nodes, right: two of 18 involved.", "lymph_node_involvement", "2/18"),
        ("tcga", "Right axillary sentinel nodes negative, 0/3.", "lymph_node_involvement",
         "0/3"),
        ("tcga", "Seven nodes (2R, 4R, 7), all free (0/7).", "lymph_node_involvement", "0/7"),
        # Sizes after a comma or with "maximum".
        ("tcga", "Sigmoid colectomy: adenocarcinoma, 4 cm maximum.", "tumor_size", 4.0),
        ("tcga", "Rectum: adenocarcinoma, 22 mm residual tumour in the muscularis propria.",
         "tumor_size", 2.2),
        # Results and statuses.
        ("tcga", "Peritoneal surface serous carcinoma. Washings: positive for malignant cells.",
         "peritoneal_cytology", "positive"),
        ("tcga", "Appendix: acute appendicitis, perforation not grossly seen.",
         "tumor_perforation", "absent"),
        ("tcga", "Breast: IDC, HER2 2+ (equivocal) by IHC, negative by FISH.", "her2_status",
         "negative"),
        # A regression grade keeps its system.
        ("tcga", "Rectum: residual adenocarcinoma, Mandard TRG 2.", "tumor_regression_grade",
         "mandard 2"),
        ("tcga", "Oesophagus: residual tumour, TRG 3 (Becker).", "tumor_regression_grade",
         "becker 3"),
        ("tcga", "Stomach: regression grade 1 (Becker; less than 10% residual tumour).",
         "tumor_regression_grade", "becker 1"),
        ("tcga", "Rectum: Dworak regression grade 3.", "tumor_regression_grade", "dworak 3"),
        # A generic inflammation yields to the named one.
        ("histai", "Gallbladder: chronic cholecystitis, chronic inflammation of the wall.",
         "findings", "cholecystitis"),
    ],
)  # fmt: skip
def test_codes_counts_and_systems_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "absent_value"),
    [
        ("tcga", "Left lateral edge of the tongue, biopsy: keratosis.", "lateral_sites",
         "left margin"),
        ("tcga", "Kidney, biopsy: IF/TA about 20%.", "adenoma_type", "tubular"),
        ("histai", "Clinical details: breast cancer screening. Benign breast tissue.",
         "diagnosis", "carcinoma"),
        ("tcga", "Excision of a right neck (cervical) lymph node: reactive.", "organ_site",
         "cervix"),
        ("tcga", "Gastric body biopsy: loss of parietal cells.", "tumor_site",
         "body + parietal lobe"),
        ("tcga", "Rectum: adenocarcinoma. Mesorectum complete (Quirke grade 3).", "tumor_grade",
         "3"),
        ("tcga", "Liver, core biopsy: steatohepatitis. Fibrosis (trichrome): stage 2.",
         "stage_group", "ii"),
        ("tcga", "Prostate, needle biopsy: adenocarcinoma, ISUP 2.", "nuclear_grade", "2"),
        ("tcga", "Whipple: superior mesenteric artery margin free, the nearest being SMA (2 mm).",
         "ihc_markers", "smooth muscle actin"),
        ("tcga", "Tumour regression grade: TRG 2 (Mandard 3).", "tumor_regression_grade",
         "mandard 2"),
        ("reg2025", "Skin, back, shave;\n  Basal cell carcinoma. Peripheral margins involved, "
         "deep margin clear.", "margin_involved", "deep + peripheral"),
    ],
)  # fmt: skip
def test_look_alikes_are_not_read(dataset, text, field, absent_value):
    assert extract(text, dataset).get(field) != absent_value


def test_an_invaded_vessel_code_is_discordant_and_its_words_are_not():
    reference = "Stomach, ESD: well differentiated adenocarcinoma, pT1a, ly0, v1a, pHM0, pVM0."
    rewrite = (
        "Stomach, ESD: well differentiated adenocarcinoma, pT1a; venous invasion present, "
        "no lymphatic invasion; horizontal and vertical margins negative."
    )
    wrong = reference.replace("v1a", "v0")
    assert "lymphovascular_invasion" in score_pair(reference, wrong, "tcga").discordant
    assert "lymphovascular_invasion" not in score_pair(reference, rewrite, "tcga").discordant
