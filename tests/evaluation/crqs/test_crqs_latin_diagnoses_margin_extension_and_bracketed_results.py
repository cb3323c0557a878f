"""Readings of version 33: Latin diagnoses and procedures, a margin reached by extension or
"with tumour", results and sides written after their word, renal grades with the system after.

Each sentence is written here for the test. The readings are what a pathologist takes from the
sentence; the look-alikes next to them guard the rules against reading too much.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, load_schema
from pathreport.evaluation.crqs.text import normalise


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # Latin diagnoses and procedures (Polish, Czech and Hungarian reports).
        ("histai", "Rectal biopsies: colitis ulcerosa, in remission.", "diagnosis",
         "ulcerative colitis"),
        ("tcga", "Nephroureterectomia: carcinoma urotheliale of the pelvis renalis, 2 cm.",
         "tumor_site", "renal pelvis"),
        ("tcga", "Hemicolectomia dextra: adenocarcinoma, G2.", "lateral_sites",
         "right hemicolectomy"),
        # A named margin the lesion extends to, or that is "with tumour".
        ("histai", "Wide excision: melanoma extending to the deep margin.", "margin_involved",
         "deep"),
        ("tcga", "Cone: HSIL involving crypts, extending to the ectocervical margin.",
         "margin_involved", "ectocervical"),
        ("tcga", "Excision: squamous cell carcinoma. Radial margin with tumour.",
         "margin_involved", "radial"),
        ("histai", "Excision: squamous cell carcinoma. Radial margin with tumour.",
         "margin_status", "positive"),
        ("reg2025", "Skin, excision; basal cell carcinoma; lateral margin with tumor",
         "margin_status", "involved"),
        # The grade of a dysplasia after it.
        ("reg2025", "Esophagus, biopsy; Barrett mucosa with dysplasia high grade",
         "dysplasia_grade", "high"),
        ("tcga", "Colon polyp: tubular adenoma with dysplasia of low grade.", "dysplasia_grade",
         "low"),
        # A stain's result in brackets after it.
        ("tcga", "MMR: MSH6 (loss), MSH2 (loss), MLH1 (retained), PMS2 (intact).",
         "mmr_proteins_lost", "msh2 + msh6"),
        # A paired organ's side after it.
        ("tcga", "Breast left, core biopsy: invasive carcinoma NST, grade 2.", "lateral_sites",
         "left breast"),
        # A renal grade's system named after the grade.
        ("tcga", "Kidney, radical nephrectomy: clear cell RCC, grade 3 WHO/ISUP, 5 cm.",
         "nuclear_grade", "3"),
        ("tcga", "Kidney, radical nephrectomy: clear cell RCC, grade 2 (Fuhrman), 5 cm.",
         "nuclear_grade", "2"),
        # Lauren's type after a colon.
        ("tcga", "Gastrectomy: adenocarcinoma, Lauren: diffuse.", "histologic_type",
         "diffuse type"),
        # A margin named before a colon, then the tumour found at it.
        ("tcga", "Vaginal cuff margin: invasive carcinoma is present at the margin.",
         "margin_involved", "vaginal"),
        # "FIGO 1" after a grade's label is the FIGO grade, not stage I.
        ("tcga", "Endometrioid carcinoma. Histologic grade: FIGO 2. FIGO stage IB.", "figo_grade",
         "2"),
        ("tcga", "Endometrioid carcinoma. Histologic grade: FIGO 2. FIGO stage IB.", "figo_stage",
         "ib"),
        ("tcga", "Left nephroureterectomy: urothelial carcinoma of the renal pelvis.",
         "organ_site", "kidney"),
        # A named margin before its sign in a margins list; a lesion that involves one.
        ("reg2025", "Colon, polypectomy; tubular adenoma. Resection margins: deep (+), lateral (-)",
         "margin_involved", "deep"),
        ("histai", "Skin, excision: dysplastic naevus. The lesion involves the deep margin.",
         "margin_involved", "deep"),
        # A mixed list of signed margins names the involved one, not the first.
        ("tcga", "Colectomy: adenocarcinoma. Margins: deep negative, radial positive.",
         "margin_involved", "radial"),
        ("tcga", "Colectomy: adenocarcinoma. Margins: proximal -, distal -, radial +.",
         "margin_involved", "radial"),
        # Distances in brackets after a shared status.
        ("tcga", "Excision: melanoma, Breslow 1.1 mm. Deep and peripheral margins clear (4 mm and "
         "9 mm).", "margin_distance", "0.4 + 0.9"),
        # A myomectomy removes a part of the uterus.
        ("histai", "Myomectomy specimen: leiomyoma, 4 cm.", "organ_site", "uterus"),
        ("reg2025", "Myomectomy; leiomyoma", "organ_site", "uterus"),
    ],
)  # fmt: skip
def test_reading(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "first", "second"),
    [
        ("histai", "Colitis chronica activa.", "Chronic active colitis."),
        ("tcga", "Thyroid: thyreoiditis lymphocytica.", "Thyroid: lymphocytic thyroiditis."),
        ("reg2025", "Colon, biopsy; MLH1 (loss), PMS2 (loss), MSH2 (retained), MSH6 (retained)",
         "Colon, biopsy; MLH1 loss, PMS2 loss, MSH2 retained, MSH6 retained"),
        ("tcga", "Kidney right, partial nephrectomy: clear cell RCC, 3 cm.",
         "Right kidney, partial nephrectomy: clear cell RCC, 3 cm."),
        ("histai", "Oesophagus: columnar mucosa with dysplasia low grade.",
         "Oesophagus: columnar mucosa with low grade dysplasia."),
    ],
)  # fmt: skip
def test_the_two_wordings_read_alike(dataset, first, second):
    assert extract(first, dataset) == extract(second, dataset)


@pytest.mark.parametrize(
    ("dataset", "text", "field"),
    [
        # A distance from the margin states no involvement.
        ("tcga", "Excision: melanoma. Deep margin with tumour 1 mm away.", "margin_involved"),
        ("histai", "Excision: melanoma. Deep margin with tumour 1 mm away.", "margin_status"),
        # A hepatitis' activity grade is no tumour grade.
        ("reg2025", "Liver, needle biopsy; chronic hepatitis C, activity: grade 2, fibrosis: "
         "stage 1", "tumor_grade"),
        ("reg2025", "Liver, biopsy; chronic hepatitis B, portal activity grade 3", "tumor_grade"),
        # Epithelioid granulomas are no epithelioid tumour.
        ("histai", "Lymph node: confluent epithelioid granulomas with caseous necrosis.",
         "histologic_type"),
        ("tcga", "Lung wedge: necrotizing epithelioid cell granulomas; no malignancy.",
         "histologic_type"),
        # Nodes that contain a metastasis state nodal spread, not a metastatic resected tumour.
        ("tcga", "Wide excision: melanoma, Breslow 2 mm. One of two sentinel nodes contains "
         "metastatic melanoma.", "primary_vs_metastatic"),
        ("histai", "Mastectomy: invasive carcinoma NST. Three of 12 nodes positive for metastatic "
         "carcinoma.", "primary_vs_metastatic"),
        # A prostate's "grade 2 ISUP" is its grade group, not a renal nuclear grade.
        ("tcga", "Prostate, biopsy: acinar adenocarcinoma, Gleason 3+4=7, grade 2 ISUP.",
         "nuclear_grade"),
    ],
)  # fmt: skip
def test_look_alike_states_nothing(dataset, text, field):
    assert field not in extract(text, dataset)


def test_a_metastasis_resected_is_still_metastatic():
    assert extract("Liver, resection: metastatic melanoma.", "histai")["primary_vs_metastatic"] == (
        "metastatic"
    )


def test_an_epithelioid_tumour_keeps_its_type():
    assert (
        extract("Pleura: epithelioid mesothelioma.", "histai")["histologic_type"] == "epithelioid"
    )


@pytest.mark.parametrize(
    "text",
    [
        "ovary left and right: serous cystadenoma.",  # both sides, not one moved
        "breast, right, core biopsy: fibroadenoma.",  # already in header order
        "no dysplasia, high grade lesion not seen.",  # the grade of something else
    ],
)
def test_look_alike_wording_is_left_as_it_is(text):
    assert normalise(text) == text


@pytest.mark.parametrize(
    ("reference", "prediction", "same"),
    [
        ("unlisted: chronic hepatitis", "unlisted: chronic viral hepatitis", True),
        ("unlisted: chronic hepatitis", "unlisted: hepatitis", True),
        ("unlisted: acute hepatitis", "unlisted: chronic hepatitis", False),
        ("unlisted: chronic hepatitis", "unlisted: chronic sialadenitis", False),
    ],
)
def test_names_outside_the_vocabulary_match_when_one_is_the_other_less_precisely(
    reference, prediction, same
):
    """One name with a subset of the other's words and the same head names the same entity."""
    diagnosis = load_schema("reg2025").field("diagnosis")
    assert diagnosis.matches(reference, prediction) is same
    assert diagnosis.matches(prediction, reference) is same
