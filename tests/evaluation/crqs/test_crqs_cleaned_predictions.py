"""A model trained on the benchmark's cleaned targets writes lower case, without line breaks, in
the word tokenizer's spacing; a perfect prediction of that kind must score as the reference does.
"""

from __future__ import annotations

import pytest

from pathreport.data.text import clean_report, join_tokens, split_tokens
from pathreport.evaluation.crqs import extract, score_pair

REPORTS = {
    "tcga": [
        "L breast, simple mastectomy + SLNB.\n1. Invasive carcinoma NST, Nottingham grade 3 "
        "(3+3+3), 28 mm.\n2. LVI +ve (focal). Nipple and skin -ve.\n3. Sentinel LN: metastatic "
        "carcinoma in 2 of 3 (largest 6 mm), ENE -ve.\n4. ER -ve, PR -ve, HER2 -ve (IHC 0).",
        "Orchiectomy (R): pure seminoma, 42 mm, intratesticular. LVI not seen. Invasion of rete "
        "testis stroma identified. pT1b.",
        "Wide resection, L thigh soft tissue: undifferentiated pleomorphic sarcoma measuring "
        "110 mm, deep to fascia. FNCLCC G3. Excision complete, nearest clearance 2 mm.",
        "Low anterior resection after chemoradiotherapy. Adenocarcinoma, ypT3, 1/16 nodes. "
        "L0 V0 Pn1. R0.",
        "Right hemicolectomy. Adenocarcinoma of the caecum, 4,5 cm, pT3. Lymphovascular invasion "
        "present (L1), no venous invasion (V0), no perineural invasion (Pn0). Lymph node "
        "metastases in 2 of 23 regional nodes (pN1b).",
        "Procedure: Pancreaticoduodenectomy (Whipple)\nHistologic Grade: G2\nTumor Size: 2.9 cm\n"
        "Treatment Effect: No known presurgical therapy\nLymphovascular Invasion: Present\n"
        "Perineural Invasion: Present\nMargins: Uncinate margin negative",
        "Total hysterectomy and BSO.\nHistologic type: endometrioid carcinoma.\nGrade: FIGO "
        "grade 2.\nMyometrial invasion: 6/15 mm (<50%).\nLymph nodes: 0/12 pelvic.",
        "Right partial nephrectomy.\nHistologic type: papillary renal cell carcinoma.\n"
        "WHO/ISUP grade: 2.\nTumor size: 3.1 cm.\nParenchymal margin: free of neoplasia.",
    ],
    "histai": [
        "R supraclavicular node, 20x15x12 mm. Caseating granulomas with Langhans giant cells. "
        "ZN stain shows occasional acid-fast rods. No malignancy.",
        "Microscopy: endometrioid adenocarcinoma, FIGO grade 1, invading 4 mm of a 16 mm thick "
        "myometrium.\nConclusion: endometrioid carcinoma with myometrial invasion <50% (4/16 mm).",
    ],
}


def _as_the_model_writes_it(report: str) -> str:
    return join_tokens(split_tokens(clean_report(report, "pathology")))


@pytest.mark.parametrize(
    ("dataset", "report"), [(ds, r) for ds, reports in REPORTS.items() for r in reports]
)
def test_crqs_cleaned_prediction_of_the_reference_scores_as_the_reference(dataset, report):
    prediction = _as_the_model_writes_it(report)
    assert extract(prediction, dataset) == extract(report, dataset)
    assert score_pair(report, prediction, dataset).CRQS >= 0.99


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("wle back skin + l axillary slnb: melanoma.", "laterality", "left"),
        ("orchiectomy (r): seminoma, 42 mm.", "laterality", "right"),
        ("r breast lumpectomy: ilc, grade 2.", "laterality", "right"),
        ("pt3 pn1b (2/21), l1, v1 (evg), pn0, bd1.", "perineural_invasion", "absent"),
        ("no venous invasion (v0), perineural invasion (pn1).", "perineural_invasion", "present"),
    ],
)
def test_crqs_reads_codes_and_sides_in_lower_case(text, field, value):
    assert extract(text, "tcga")[field] == value


def test_crqs_lower_case_nodal_stage_stays_the_nodal_stage():
    fields = extract("adenocarcinoma, pt3 pn1 (2/18), l1, v0, pn0.", "tcga")
    assert fields["pn_stage"] == "n1" and fields["perineural_invasion"] == "absent"
