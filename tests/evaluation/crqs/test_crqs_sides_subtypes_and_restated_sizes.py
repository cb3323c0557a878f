"""Equivalent wordings of sides, subtypes and sizes read alike, and a size one report states only
as a measurement is neither missed nor invented.

The pairs are written here for the test: the first wording is how one pathologist states the
fact, the second how another does. The look-alikes guard each reading against taking too much.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "field", "first", "second"),
    [
        # The side in brackets after the organ, the operation or its specimen.
        ("tcga", "lateral_sites", "Left radical nephrectomy: papillary RCC, 41 mm.",
         "Radical nephrectomy specimen (left): papillary RCC, 41 mm."),
        ("tcga", "lateral_sites", "Right mastectomy: invasive lobular carcinoma.",
         "Mastectomy specimen (right): invasive lobular carcinoma."),
        ("histai", "lateral_sites", "Right axillary clearance: 14 reactive lymph nodes.",
         "Axillary clearance specimen (right): 14 reactive lymph nodes."),
        ("histai", "lateral_sites", "Skin, right forearm, excision: dermatofibroma.",
         "Excision of skin, forearm (right): dermatofibroma."),
        ("tcga", "lateral_sites", "Brain, left frontal lobe, resection: oligodendroglioma.",
         "Resection, frontal lobe (left): oligodendroglioma."),
        # A side written as letters between commas.
        ("tcga", "lateral_sites", "Left radical orchiectomy: embryonal carcinoma, 25 mm.",
         "Testis, Lt., radical orchiectomy: embryonal carcinoma, 25 mm."),
        ("tcga", "lateral_sites", "Right partial nephrectomy: chromophobe RCC.",
         "Procedure: Partial nephrectomy, R. Histologic type: chromophobe RCC."),
        # The adjective of the organ, and the operation's initials.
        ("histai", "lateral_sites", "Left ovary, cystectomy: serous cystadenoma.",
         "Left ovarian cystectomy: serous cystadenoma."),
        ("tcga", "lateral_sites", "Left modified radical mastectomy: IDC, grade 3.",
         "Lt MRM: IDC, grade 3."),
        # A subtype with its other name in brackets, or named by its entity.
        ("tcga", "histologic_type", "Thyroidectomy: papillary carcinoma, classic type, 9 mm.",
         "Thyroidectomy: papillary carcinoma, conventional (classic) type, 9 mm."),
        ("tcga", "histologic_type", "Orchiectomy: seminoma, classic type, 41 mm.",
         "Orchiectomy. Histologic type: Seminoma (classic). Size 41 mm."),
        ("tcga", "histologic_type", "Whipple: invasive ductal adenocarcinoma, 27 mm.",
         "Whipple: pancreatic ductal adenocarcinoma, 27 mm."),
        ("histai", "histologic_type", "Skin, temple: basal cell carcinoma, infiltrative type.",
         "Skin, temple: infiltrating basal cell carcinoma."),
        ("histai", "histologic_type", "Skin, back: dysplastic nevus, compound, mild atypia.",
         "Skin, back: compound dysplastic nevus with mild atypia."),
        ("histai", "histologic_type", "Lymph node, neck: metastatic papillary carcinoma.",
         "Lymph node, neck: metastatic papillary thyroid carcinoma."),
    ],
)  # fmt: skip
def test_equivalent_wordings_read_alike(dataset: str, field: str, first: str, second: str) -> None:
    value = extract(first, dataset).get(field)
    assert value is not None
    assert extract(second, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field"),
    [
        # Descriptive words of a benign or pre-invasive lesion are no subtype of a carcinoma.
        ("histai", "Cervix: atypical basaloid cells confined to the lower third. LSIL (CIN 1).",
         "histologic_type"),
        ("histai", "Cervix: chronic cervicitis with squamous metaplastic change.",
         "histologic_type"),
        ("reg2025", "Stomach, antrum, biopsy; Chronic gastritis with metaplasia of intestinal "
         "type", "histologic_type"),
        ("histai", "Breast, core biopsy: epithelial hyperplasia of usual type, no atypia.",
         "histologic_type"),
        ("histai", "Ovary, cystectomy: cyst with a keratinizing squamous lining and hair. "
         "Mature cystic teratoma.", "histologic_type"),
        ("tcga", "Femur resection: osteosarcoma. Medullary margin free at 25 mm.",
         "histologic_type"),
    ],
)  # fmt: skip
def test_look_alikes_read_nothing(dataset: str, text: str, field: str) -> None:
    assert extract(text, dataset).get(field) is None


def test_a_status_after_named_margins_is_theirs_not_the_lesions() -> None:
    found = extract(
        "Cervix, cone; HSIL (CIN 2), endocervical and ectocervical margins free", "reg2025"
    )
    assert found.get("histologic_type") == "cin 2"
    assert found.get("margin_status") == "free"
    # A list of labels before one status still shares it.
    listed = extract("Breast, excision; DCIS. LVI and deep margin: negative", "tcga")
    assert listed.get("lymphovascular_invasion") == "absent"


def test_a_size_stated_only_as_a_measurement_is_not_missed() -> None:
    reference = "Colon, polypectomy: tubular adenoma, 7 mm, low-grade dysplasia."
    # The same 7 mm, read as a measurement only: the size is stated, not missed.
    rewrite = "Sigmoid polyp [7 mm], polypectomy: tubular adenoma with low-grade dysplasia."
    assert extract(reference, "histai").get("tumor_size") == 0.7
    assert extract(rewrite, "histai").get("tumor_size") is None
    assert "tumor_size" not in score_pair(reference, rewrite, "histai").missed
    # A changed size is among no measurement of the reference: still missed.
    changed = "Sigmoid polyp [17 mm], polypectomy: tubular adenoma with low-grade dysplasia."
    assert "tumor_size" in score_pair(reference, changed, "histai").missed
    # And one left out entirely is missed too.
    dropped = "Sigmoid polyp, polypectomy: tubular adenoma with low-grade dysplasia."
    assert "tumor_size" in score_pair(reference, dropped, "histai").missed
