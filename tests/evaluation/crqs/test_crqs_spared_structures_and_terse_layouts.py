"""A negated invasion of a named structure, sides and sizes in terse slash-separated layouts, and
other facts in the wordings that other writers use.

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    "text",
    [
        "Renal cell carcinoma, limited to the kidney; no infiltration of renal sinus fat.",
        "Renal cell carcinoma, 55 mm; renal sinus fat and renal vein not invaded.",
        "Seminoma, 28 mm, limited to the testis, no infiltration of the rete testis.",
        "Atypical meningioma, CNS WHO grade 2. Brain invasion absent.",
        "Neuroendocrine tumour, G1, 6 mm, without mesoappendiceal invasion.",
        "Hepatocellular carcinoma, 4 cm. Liver capsule not invaded.",
    ],
)
def test_a_negated_invasion_of_a_named_structure_is_that_structures_status(dataset, text):
    # The tumour invades (it is a carcinoma of that organ); what is spared is one structure.
    assert extract(text, dataset).get("invasion_status") is None


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    "text",
    [
        "Cervix, LLETZ: HSIL (CIN 3). No invasion of the stroma.",
        "Cervix, LLETZ: HSIL (CIN 3). No stromal invasion.",
        "Ureter biopsy: papillary urothelial carcinoma. The lamina propria is not invaded.",
        "Colon polyp: adenoma with high-grade dysplasia; no invasion into the submucosa.",
        "Skin: lentigo maligna; no dermal invasion.",
        "Cervix: HSIL. No evidence of invasion.",
        "Cervix: HSIL. Invasion not seen.",
    ],
)
def test_a_negated_invasion_of_the_stroma_is_still_no_invasion(dataset, text):
    assert extract(text, dataset)["invasion_status"] == "absent"


@pytest.mark.parametrize(
    ("text", "side"),
    [
        ("Breast, L't, mastectomy --- ILC, classic / Nottingham G2 / 23 mm", "left"),
        ("R\u2019t upper back skin, WLE --- nodular melanoma / Breslow 3.2 mm", "right"),
        ("L't neck (level II) LN, CNB: metastatic SCC, non-keratinizing", "left"),
    ],
)
def test_sides_abbreviated_with_an_apostrophe(text, side):
    assert extract(text, "tcga")["laterality"] == side


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("Breast, mastectomy --- ILC, classic / Nottingham G2 / 23 mm / LVI: none", 2.3),
        ("Whipple specimen: PDAC, moderately differentiated, 28 mm, limited to pancreas.", 2.8),
    ],
)
def test_a_size_standing_alone_between_slashes_or_after_an_initialism(text, size):
    assert extract(text, "tcga")["tumor_size"] == size


@pytest.mark.parametrize(
    "text",
    [
        "Needle core, 4/15 mm involved / G2",  # a length of core involved, not a size
        "Breast: ILC, 1/23 mm, G2",
    ],
)
def test_a_slash_inside_a_ratio_starts_no_size(text):
    assert "tumor_size" not in extract(text, "tcga")
