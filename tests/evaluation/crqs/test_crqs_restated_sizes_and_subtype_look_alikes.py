"""A size one report states only as a measurement is neither missed nor invented, a status
after named margins is theirs, and descriptive words are no subtype.

(The pairs of equivalent sides and subtypes live with the other pairs, in
test_crqs_rewrite_consistency.py.) The wordings are written here for the test.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


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
        ("tcga", "Femur resection: giant cell tumour of bone. Medullary margin free at 25 mm.",
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
