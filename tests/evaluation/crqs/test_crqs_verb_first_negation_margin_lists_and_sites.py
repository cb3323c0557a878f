"""Verb-first negations, margin statements, and the sites and entities of less common wordings.

Writers of Spanish and Italian put the negated verb first ("Not seen sarcomatoid component");
a margin's status after a comma closes its own clause ("Pleomorphic adenoma, margins
negative"), margins are listed and then share one status ("oesophageal and duodenal ends free"),
and their distances come in many orders ("the retroperitoneal is the closest, at 0.5 mm"). Other
wordings: Latin and Nordic anatomy ("Cutis, crus sin.", "Ventrikel"), a Lauren type in brackets,
"Whipple operation (PD)", METAVIR stages by letter, and entities that a coarser name hid.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # The negated verb before its object opens the sentence.
        ("reg2025", "Kidney, right, partial nephrectomy;\nClear cell RCC.\nNote) Not seen "
         "rhabdoid or sarcomatoid component.", "sarcomatoid_features", "absent"),
        ("tcga", "Lobectomy: adenocarcinoma, 21 mm. Not identified visceral pleural invasion.",
         "pleural_invasion", "absent"),
        ("tcga", "Hysterectomy: endometrioid carcinoma. Not seen lymphovascular space invasion.",
         "lymphovascular_invasion", "absent"),
        # A margin's status closes its own clause; margins named, then their shared status.
        ("histai", "Diagnosis: Skin, back, excision: compound melanocytic nevus, margins free.",
         "diagnosis", "nevus"),
        ("tcga", "Gastrectomy: adenocarcinoma. Surgical margins: proximal and distal ends free.",
         "margin_status", "negative"),
        ("tcga", "Colectomy: adenocarcinoma. Resection margins - proximal, distal, radial - not "
         "involved.", "margin_status", "negative"),
        ("tcga", "Cystectomy: urothelial carcinoma. Urethral margins, prostate and seminal "
         "vesicles uninvolved.", "margin_status", "negative"),
        ("tcga", "Lobectomy: squamous cell carcinoma. Bronchial stump free.", "margin_status",
         "negative"),
        ("tcga", "Lobectomy: squamous cell carcinoma. Bronchial resection margin 2.5 cm clear.",
         "margin_status", "negative"),
        ("histai", "Diagnosis: dysplastic naevus; lesion present at the lateral margin.",
         "margin_status", "positive"),
        ("reg2025", "Colon, polypectomy;\nTubular adenoma.\nNote) Negative stalk margin.",
         "margin_status", "free"),
        # Margin distances in other orders.
        ("tcga", "Excision: SCC of skin, completely excised; lateral margin min. 3 mm.",
         "margin_distance", 0.3),
        ("tcga", "Hysterectomy: SCC of cervix. Vaginal margin tumour-free at 1.4 cm.",
         "margin_distance", 1.4),
        ("histai", "Conclusion: BCC. Clearances - deep 2 mm, peripheral 4 mm.", "margin_distance",
         "0.2 + 0.4"),
        ("tcga", "Wedge resection: adenocarcinoma, 12 mm; distance from the staple line 9 mm.",
         "margin_distance", 0.9),
        # Anatomy in Latin and Nordic words, sides in other places.
        ("tcga", "Cutis, crus dx., wide excision: melanoma, Breslow 1.1 mm.", "lateral_sites",
         "right leg"),
        ("reg2025", "Ventrikel, corpus, biopsies;\nChronic gastritis.", "organ_site", "stomach"),
        ("tcga", "Lingua, margo lateralis dx., partial glossectomy: SCC.", "tumor_site",
         "lateral tongue"),
        ("reg2025", "Left renal mass, core biopsy;\nClear cell RCC.", "lateral_sites",
         "left kidney"),
        ("reg2025", "Prostate, base of right side, needle biopsy;\nBenign prostatic tissue.",
         "lateral_sites", "right base"),
        # Types, grades and stages written another way.
        ("tcga", "Gastrectomy: adenocarcinoma, diffuse (Lauren) type, 45 mm.", "histologic_type",
         "diffuse type"),
        ("tcga", "Hysterectomy: endometrioid endometrial adenocarcinoma, grade 1 of FIGO.",
         "figo_grade", "1"),
        ("tcga", "Esophagectomy: residual adenocarcinoma; tumour regression grade 2 of Mandard.",
         "tumor_regression_grade", "mandard 2"),
        ("histai", "Liver biopsy: chronic hepatitis B, METAVIR A1 F2.", "fibrosis_stage",
         "metavir stage 2"),
        ("histai", "Liver biopsy: steatohepatitis with perisinusoidal fibrosis on trichrome "
         "(stage 1c).", "fibrosis_stage", "stage 1"),
        # Markers, invasion and entities.
        ("tcga", "Colon biopsy: adenocarcinoma. MMR: MSH2 and MSH6 show loss of nuclear "
         "expression; MLH1 and PMS2 retained.", "mmr_proteins_lost", "msh2 + msh6"),
        ("tcga", "Melanoma. BRAF: p.V600E mutation present.", "braf_status", "mutant"),
        ("tcga", "Wedge resection of stomach: GIST, 70 mm. Tumour rupture present.",
         "tumor_perforation", "present"),
        ("tcga", "Hepatectomy: HCC with tumour thrombus in a segmental portal vein branch.",
         "organ_involvement", "portal vein"),
        ("histai", "Diagnosis: Liver, core biopsy: chronic hepatitis compatible with autoimmune "
         "hepatitis.", "diagnosis", "autoimmune hepatitis"),
        ("reg2025", "Endometrium, pipelle biopsy;\nEIN (atypical hyperplasia of endometrium).",
         "diagnosis", "atypical hyperplasia"),
        ("tcga", "Excision, thigh: myxofibrosarcoma, FNCLCC grade 2, 60 mm.", "histologic_type",
         "myxofibrosarcoma"),
        ("tcga", "Tumour of lower pole 45 mm: clear cell renal cell carcinoma.", "tumor_size", 4.5),
    ],
)  # fmt: skip
def test_wordings_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "absent_value"),
    [
        # "Whipple operation (PD)" is the procedure's initials, not poor differentiation.
        ("tcga", "Specimen: Whipple operation (PD). Ductal adenocarcinoma, well differentiated.",
         "differentiation", "well + poor"),
        # A verb after its subject keeps reading as before; only a sentence's first words move.
        ("reg2025", "Kidney;\nClear cell RCC; necrosis and sarcomatoid change not seen in the "
         "cores.", "sarcomatoid_features", "present"),
        ("tcga", "Lymphovascular invasion: not identified in the sections examined.",
         "lymphovascular_invasion", "present"),
        # A ruptured capsule of a lymph node is its extranodal extension, no tumour rupture.
        ("tcga", "Lymph nodes 2/14 with capsular rupture.", "tumor_perforation", "present"),
    ],
)  # fmt: skip
def test_look_alikes_are_not_read(dataset, text, field, absent_value):
    assert extract(text, dataset).get(field) != absent_value


def test_a_flipped_margin_after_a_diagnosis_is_seen_and_the_diagnosis_kept():
    reference = (
        "Macroscopic: parotid, superficial lobectomy, 40 x 30 x 20 mm.\n"
        "Diagnosis: Pleomorphic adenoma, margins negative."
    )
    rewrite = (
        "Macroscopy: superficial parotidectomy 4.0 x 3.0 x 2.0 cm.\n"
        "Conclusion: pleomorphic adenoma with negative margins."
    )
    wrong = reference.replace("margins negative", "margins involved")
    assert extract(reference, "histai").get("diagnosis") == "adenoma"
    right, wrong_score = (score_pair(reference, t, "histai").CRQS for t in (rewrite, wrong))
    assert right > wrong_score
