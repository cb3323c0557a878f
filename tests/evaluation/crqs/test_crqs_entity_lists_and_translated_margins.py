"""An entity followed by a finding with its own status stays stated, margins worded as in
Spanish and French reports have a status, and one fact stated through two fields is one fact.

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "entity"),
    [
        ("histai", "Adenocarcinoma, LVI absent.", "adenocarcinoma"),
        ("tcga", "Adenocarcinoma, LVI absent.", "adenocarcinoma"),
        ("histai", "Colon biopsy: tubular adenoma, dysplasia not identified.", "adenoma"),
        ("histai", "Sessile serrated lesion, dysplasia absent.", "serrated lesion"),
        ("histai", "Fibroadenoma, atypia absent.", "fibroadenoma"),
        ("reg2025", "Lung, wedge resection; Necrotizing granulomatous inflammation, acid-fast "
         "bacilli not identified (Ziehl-Neelsen)", "granulomatous inflammation"),
    ],
)  # fmt: skip
def test_an_entity_before_a_finding_with_its_own_status_is_no_item_of_a_negated_list(
    dataset, text, entity
):
    fields = extract(text, dataset)
    assert fields.get("diagnosis") == entity
    assert "excluded_entities" not in fields


def test_a_list_closed_by_its_colon_still_negates_every_item():
    fields = extract("Adenoma, dysplasia and carcinoma: absent.", "histai")
    assert "diagnosis" not in fields
    assert fields["excluded_entities"] == "adenoma + carcinoma"


@pytest.mark.parametrize(
    ("dataset", "text", "status"),
    [
        # Spanish "lecho quirurgico": the margin.
        ("reg2025", "Skin, excision: Nodular basal cell carcinoma. Deep surgical bed compromised "
         "by neoplasia; lateral (peripheral) margins free of neoplasia.", "involved"),
        ("tcga", "Gastrectomy: adenocarcinoma. Proximal, distal and omental surgical beds free of "
         "neoplasia.", "negative"),
        # French "limites saines", in every order.
        ("tcga", "Adenocarcinoma. Limits proximal, distal and circumferential healthy.",
         "negative"),
        ("tcga", "Adenocarcinoma. Healthy proximal, distal and circumferential limits.",
         "negative"),
        ("histai", "Carcinoma. Healthy vaginal limit.", "negative"),
        ("tcga", "Hepatocellular carcinoma. Healthy parenchymal section margin at 8 mm.",
         "negative"),
        # "RMs" are resection margins.
        ("tcga", "Adenocarcinoma of the colon. RMs all free.", "negative"),
        ("reg2025", "Breast, lumpectomy; Invasive carcinoma, grade 2; invasive carcinoma at "
         "inked superior margin, other margins free", "involved"),
        # The status after the distances, behind a dash.
        ("tcga", "Melanoma, nodular. Peripheral margin 8 mm, deep 4 mm - clear.", "negative"),
        ("histai", "Polypectomy: adenocarcinoma. Distance to the diathermied resection margin "
         "3 mm - clear.", "negative"),
    ],
)  # fmt: skip
def test_margins_named_the_way_other_languages_do_have_their_status(dataset, text, status):
    assert extract(text, dataset)["margin_status"] == status


def test_rms_in_capitals_stays_a_rhabdomyosarcoma():
    assert extract("Orbit, biopsy: alveolar RMS.", "tcga")["histologic_type"] == (
        "rhabdomyosarcoma"
    )


@pytest.mark.parametrize(
    ("dataset", "reference", "rewrite"),
    [
        ("reg2025", "Lung, left upper lobe, transbronchial biopsy; Squamous cell carcinoma",
         "LUL, transbronchial biopsy: epidermoid (squamous cell) carcinoma."),
        ("reg2025", "Skin, left foot, punch biopsy; Kaposi sarcoma, nodular stage",
         "Punch bx, skin of L foot; KS, nodular (tumour) stage"),
        ("tcga", "Left mastectomy: invasive carcinoma of no special type, grade 2, 2.2 cm.",
         "L mastectomy - IC-NST, grade II, 22 mm."),
        ("reg2025", "Urinary bladder, transurethral resection; Non-invasive papillary urothelial "
         "carcinoma, low grade", "Bladder, transurethral resection; Low-grade papillary "
         "urothelial carcinoma. Invasion is not observed."),
        ("reg2025", "Lymph nodes, right neck level II, excision; Metastatic squamous cell "
         "carcinoma in 2 of 5 lymph nodes", "Right cervical lymph nodes, level II, excision; "
         "squamous cell carcinoma metastasis in 2/5 nodes"),
        ("histai", "Left parotid gland, superficial parotidectomy. Pleomorphic adenoma, 2.3 cm, "
         "completely excised.", "Superficial parotidectomy (left): pleomorphic adenoma, 23 mm, "
         "completely excised."),
        ("histai", "Cervix, biopsy at 12 o'clock: LSIL (CIN 1).",
         "Cervical biopsy, h 12: low-grade squamous intraepithelial lesion (CIN1)."),
        ("histai", "Stomach, angle, lesser curvature, endoscopic biopsy: tubular adenocarcinoma, "
         "well differentiated.", "Stomach, angle LC, endoscopic biopsy: well differentiated "
         "tubular adenocarcinoma."),
        ("tcga", "Liver, segment VI, segmentectomy: hepatocellular carcinoma, 4.0 cm.",
         "Segmentectomy VI of the liver: hepatocellular carcinoma, 40 mm."),
        ("tcga", "Radical prostatectomy: acinar adenocarcinoma, Gleason score 3+4=7. PR 40%.",
         "RP: acinar adenocarcinoma, Gleason 7 (3+4). PgR 40%."),
    ],
)  # fmt: skip
def test_one_fact_in_another_wording_scores_as_the_same_fact(dataset, reference, rewrite):
    assert pytest.approx(1.0) == score_pair(reference, rewrite, dataset).CRQS


@pytest.mark.parametrize(
    ("dataset", "reference", "wrong", "field"),
    [
        ("reg2025", "Skin, left foot, punch biopsy; Kaposi sarcoma, nodular stage",
         "Skin, left foot, punch biopsy; Bacillary angiomatosis", "diagnosis"),
        ("histai", "Left parotid gland, superficial parotidectomy. Pleomorphic adenoma.",
         "Superficial parotidectomy (right): pleomorphic adenoma.", "laterality"),
        ("tcga", "Femur, resection: conventional osteosarcoma, high grade, 9 cm.",
         "Femur, resection: chondrosarcoma, high grade, 9 cm.", "histologic_type"),
    ],
)  # fmt: skip
def test_the_same_wordings_still_tell_a_different_fact(dataset, reference, wrong, field):
    assert field in score_pair(reference, wrong, dataset).discordant


def test_a_metastasis_left_out_of_a_biopsy_is_still_missed():
    reference = "Liver, core biopsy; Metastatic adenocarcinoma, consistent with colorectal primary"
    wrong = "Liver, core biopsy; Adenocarcinoma, consistent with colorectal primary"
    assert "primary_vs_metastatic" in score_pair(reference, wrong, "reg2025").missed


@pytest.mark.parametrize(
    ("dataset", "text", "layer"),
    [
        ("reg2025", "Bladder, TURB; high-grade urothelial carcinoma, invading the chorion (pT1)",
         "lamina propria"),
        ("reg2025", "Bladder, TUR-B; High-grade invasive urothelial carcinoma. Muscularis propria "
         "(detrusor muscle) invasion is observed (pT2).", "muscularis propria"),
        ("histai", "Appendix: neuroendocrine tumour, grade 1, 8 mm, infiltrating the muscularis, "
         "respecting the meso-appendix.", "muscularis propria"),
        ("histai", "Appendix: neuroendocrine tumour, grade 1, 8 mm; invasion limited to submucosa "
         "and muscularis propria.", "muscularis propria"),
        ("tcga", "Esophagectomy: adenocarcinoma, 30 mm, with invasion through the wall into the "
         "adventitia.", "perivisceral fat"),
        ("tcga", "Cystectomia radicalis: carcinoma urotheliale invasivum high grade. Tumor "
         "infiltrates outer half of muscularis propria - pT2b.", "muscularis propria"),
    ],
)  # fmt: skip
def test_the_layer_invaded_is_read_in_other_wordings(dataset, text, layer):
    fields = extract(text, dataset)
    assert fields["invasion_depth"] == layer


def test_a_layer_invaded_states_invasion():
    fields = extract("Ileum: neuroendocrine tumour. Tumor extent: into subserosa.", "tcga")
    assert fields["invasion_status"] == "present"


@pytest.mark.parametrize(
    "text",
    [
        "Seminoma, 3.8 cm, confined to the testis. Rete testis stromal invasion not identified.",
        "Seminoma, 41 mm, limited to the testis. No invasion of the rete testis stroma.",
        "Seminoma, 4.2 cm, limited to the testis; rete testis stroma not invaded.",
    ],
)
def test_rete_testis_invasion_is_organ_specific_not_the_tumours_invasion(text):
    fields = extract(text, "tcga")
    assert fields["organ_specific_invasion"] == "absent"
    assert fields.get("invasion_status") != "absent"


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        ("histai", "Sentinel nodes: 0 of 2 metastatic.", "metastatic_involvement", "absent"),
        ("histai", "Prostate, TURP chips: nodular hyperplasia. Incidental acinar adenocarcinoma, "
         "Gleason score 3+3=6.", "findings", "benign prostatic hyperplasia + adenocarcinoma"),
        ("histai", "Thyroid: nodular hyperplasia.", "findings", "follicular nodular disease"),
        ("reg2025", "Gastric antrum, biopsy: chronic gastritis in active phase, H. pylori "
         "positive", "inflammation_activity", "chronic active"),
        ("reg2025", "Duodenum, biopsy; Villous atrophy with intraepithelial lymphocytosis (45 "
         "lymphocytes per 100 enterocytes), Marsh 3b", "intraepithelial_lymphocytes", 45.0),
        ("histai", "Appendicitis. Absence of tumoral lesion.", "malignancy_status", "absent"),
        ("histai", "Liver biopsy: chronic hepatitis with moderate necroinflammatory activity "
         "(A2 METAVIR)", "inflammation_severity", "moderate"),
        ("tcga", "Cervix biopsy: fixed for 24 h. LSIL.", "tumor_site", None),
        ("tcga", "Upper right lobectomy. Invasive adenocarcinoma.", "tumor_site", "upper lobe"),
        ("histai", "Excision of lump, L breast: fibroepithelial lesion. FA - no malignancy.",
         "diagnosis", "fibroadenoma"),
    ],
)  # fmt: skip
def test_house_wordings_state_the_usual_fact(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value
