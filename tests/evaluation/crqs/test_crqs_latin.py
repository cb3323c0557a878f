"""Latin specimen names and second-language phrasing read as their English equivalents.

A report headed "Mamma sinistra, core biopsy" or "Pulmo dexter, lobus inferior" states the organ,
the side and the site as plainly as its English wording; a CRQS that lost them would score a
correct Latin-headed report like one with the wrong organ. The same holds for "radically
removed" (completely excised) and a tumour "growing into" a layer (invading it).
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import get_extractor, load_schema, score_pair
from pathreport.evaluation.crqs.text import normalise


@pytest.mark.parametrize(
    ("latin", "english"),
    [
        ("Mamma sinistra, core biopsy", "left breast, core biopsy"),
        ("Pulmo dexter, lobus inferior, biopsy", "right lung, lower lobe, biopsy"),
        ("Ren sinister, nephrectomy", "left kidney, nephrectomy"),
        ("Prostata, apex dexter, needle cores", "prostate, right apex, needle cores"),
        ("Lymph node, axilla sin., excision", "lymph node, left axilla, excision"),
        ("Mamma dx., core biopsy", "right breast, core biopsy"),
        ("Cerebrum, lobus temporalis sinister", "brain, left temporal lobe"),
        ("Vesica urinaria, TUR", "urinary bladder, tur"),
        ("Colon sigmoideum, polypectomy", "sigmoid colon, polypectomy"),
        ("Caput pancreatis, Whipple", "pancreatic head, whipple"),
        ("Cutis, crus dextrum, excision", "skin, right lower leg, excision"),
        ("Thyroidea, lobus dexter", "thyroid, right lobe"),
    ],
)
def test_latin_names_and_sides_are_written_in_english(latin, english):
    assert normalise(latin) == english


@pytest.mark.parametrize(
    "text",
    [
        "Dx: adenocarcinoma",  # diagnosis, not a side
        "sin. 2 cm lesion",  # no structure before it
        "the right crus of the diaphragm",  # "crus" alone is not the lower leg
        "antrum and fundus, biopsies",  # English words that also begin Latin names
    ],
)
def test_look_alikes_of_latin_stay(text):
    assert normalise(text) == text.lower()


@pytest.fixture(scope="module")
def tcga():
    return get_extractor("rule", load_schema("tcga"))


def test_latin_header_extracts_what_the_english_header_extracts(tcga):
    latin = tcga.extract("Mamma dextra, core biopsy: invasive ductal carcinoma, grade 2.")
    english = tcga.extract("Right breast, core biopsy: invasive ductal carcinoma, grade 2.")
    assert latin == english
    assert latin["lateral_sites"] == "right breast"


@pytest.mark.parametrize(
    ("phrase", "status"),
    [
        ("Radically removed, 4 mm from the nearest margin.", "negative"),
        ("The lesion was excised in sound tissue.", "negative"),
        ("Not radically removed: the lesion reaches the lateral margin.", "positive"),
        ("Tumour is growing into the deep resection margin.", "positive"),
    ],
)
def test_second_language_margin_phrasing(tcga, phrase, status):
    assert tcga.extract(phrase)["margin_status"] == status


def test_growing_into_a_layer_is_invading_it(tcga):
    assert tcga.extract("Tumour is growing into the muscularis propria.") == tcga.extract(
        "Tumour invading the muscularis propria."
    )


def test_rewrite_in_latin_outscores_a_wrong_side():
    reference = "Breast, right, core needle biopsy: ductal carcinoma in situ, high nuclear grade."
    rewrite = "Mamma dextra, core biopsy: DCIS, high nuclear grade."
    wrong = "Breast, left, core needle biopsy: ductal carcinoma in situ, high nuclear grade."
    for dataset in ("reg2025", "tcga", "histai"):
        assert (
            score_pair(reference, rewrite, dataset).CRQS
            > score_pair(reference, wrong, dataset).CRQS
        )
