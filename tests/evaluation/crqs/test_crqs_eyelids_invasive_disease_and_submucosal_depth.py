"""Findings of version 54: an eyelid named from its eye, "invasive disease" denied, a submucosal
depth in brackets after its code, and margins named by the organ they cross."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    "text",
    [
        "Punch biopsy of skin from the lower lid of the right eye: basal cell carcinoma.",
        "Skin, right eye, lower lid, excision: basal cell carcinoma.",
        "Skin, right lower eyelid: basal cell carcinoma.",
    ],
)
def test_an_eyelid_named_from_its_eye(text: str) -> None:
    found = extract(text, "histai")
    assert found.get("lateral_sites") == "right eyelid"
    assert found.get("skin_site") == "lower eyelid"


def test_the_eye_alone_stays_the_eye() -> None:
    assert extract("Right eye, enucleation: uveal melanoma.", "histai").get("lateral_sites") == (
        "right eye"
    )


@pytest.mark.parametrize(
    "text",
    ["Invasive disease not seen.", "Invasive disease is not seen.", "Invasive disease: absent."],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_invasive_disease_denied(text: str, dataset: str) -> None:
    assert extract(text, dataset).get("invasion_status") == "absent"


def test_a_denied_invasive_disease_keeps_a_loop_excision_apart_from_an_invasive_one() -> None:
    reference = (
        "Cervix, LLETZ: high grade squamous intraepithelial lesion (CIN 2). Margins clear."
        " No invasion. Diagnosis: CIN 2, completely excised."
    )
    rewrite = (
        "Large loop excision of the transformation zone: HSIL/CIN2. Excision margins free."
        " Invasive disease not seen. Conclusion: CIN2, excision complete."
    )
    wrong = reference.replace("No invasion.", "Focal stromal invasion, 1 mm deep.")
    rw, wr = score_pair(reference, rewrite, "histai"), score_pair(reference, wrong, "histai")
    assert rw.CRQS > wr.CRQS


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_a_submucosal_depth_in_brackets_after_its_code(dataset: str) -> None:
    text = "Tubular adenocarcinoma, well differentiated, submucosal invasion SM1 (300 um)"
    assert extract(text, dataset).get("depth_of_invasion") == pytest.approx(0.3)


@pytest.mark.parametrize(
    "text",
    [
        "Total gastrectomy: adenocarcinoma. Oesophageal and duodenal margins clear.",
        "Total gastrectomy: adenocarcinoma. Duodenal resection margin involved.",
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_margin_named_by_its_organ_names_no_second_organ(text: str, dataset: str) -> None:
    assert extract(text, dataset).get("organ_site") == "stomach"


def test_a_duodenal_biopsy_still_names_the_duodenum() -> None:
    assert (
        extract("Duodenal biopsy: normal villous architecture.", "histai").get("organ_site")
        == "duodenum"
    )
