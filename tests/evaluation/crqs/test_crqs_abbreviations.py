"""Shorthand is spelled out where it is unambiguous, and left alone where it means something else.

A terse report ("Adenoca, mod. diff.; neg for LVI; Rt breast bx") must extract what its full
wording extracts; a word that only looks like shorthand ("CA 19-9", "post-RT changes", "PD-L1")
must not turn into a finding the report never stated.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import get_extractor, load_schema
from pathreport.evaluation.crqs.text import normalise


@pytest.mark.parametrize(
    ("shorthand", "spelled_out"),
    [
        ("Adenoca, mod. diff., 15 mm", "adenocarcinoma, moderately differentiated, 15 mm"),
        ("SCC, well diff. Margins clear", "scc, well differentiated. margins clear"),
        ("poorly-diff carcinoma", "poorly differentiated carcinoma"),
        ("mod. differentiated", "moderately differentiated"),
        ("m/d adenocarcinoma", "moderately differentiated adenocarcinoma"),
        ("Adenoca, PD", "adenocarcinoma, poorly differentiated"),
        ("Urothelial ca, HG", "urothelial carcinoma, high grade"),
        ("Gr 2; gr. III", "grade 2; grade iii"),
        (
            "w/o LVI; w/ necrosis; c/w adenoma",
            "without lvi; with necrosis; consistent with adenoma",
        ),
        ("Neg. for H. pylori", "negative for h. pylori"),
        ("ER pos, HER2 neg.", "er positive, her2 negative."),
        ("Rt breast bx", "right breast biopsy"),
        ("Lt. kidney", "left kidney"),
        ("Nodal mets", "nodal metastases"),
        ("embryonal ca 70%", "embryonal carcinoma 70%"),
        ("SSL, no dysplasia", "sessile serrated lesion, no dysplasia"),
        ("measuring six millimetres", "measuring 6 mm"),
        ("two point nine centimetres", "2.9 cm"),
        ("twenty-three mm", "23 mm"),
        ("TPS sixty per cent", "tps 60%"),
        ("size 3 centimeters", "size 3 cm"),
        (
            "EPE: none; SVI absent",
            "extraprostatic extension: none; seminal vesicle invasion absent",
        ),
    ],
)
def test_shorthand_is_spelled_out(shorthand, spelled_out):
    assert normalise(shorthand) == spelled_out


@pytest.mark.parametrize(
    "text",
    [
        "CA 19-9 raised",  # a tumour marker
        "CA-125 normal",
        "post-RT changes",  # radiotherapy
        "RT effect in the stroma",
        "PD-L1 TPS 50%",
        "PD-1 stain",
        "BP 120/80 mm Hg",
        "RET/PTC rearrangement",
        "grade 2 in 3 of 12",  # already in full
        "calcium, cancer, diffuse",  # words that start like shorthand
        "one of three fragments, 4 mm",  # a count, not a measurement
        "no mm",
    ],
)
def test_look_alikes_stay(text):
    assert normalise(text) == text.lower()


def test_worded_sizes_are_read_as_sizes():
    extractor = get_extractor("rule", load_schema("tcga"))
    worded = extractor.extract(
        "Lipoma, measuring eight point five centimetres in greatest dimension."
    )
    assert (
        worded["tumor_size"]
        == extractor.extract("Lipoma, measuring 8.5 cm in greatest dimension.")["tumor_size"]
        == 8.5
    )


def test_terse_report_extracts_what_its_full_wording_extracts():
    extractor = get_extractor("rule", load_schema("tcga"))
    terse = extractor.extract(
        "Rt breast bx: invasive ductal ca, mod. diff., G2. Neg for LVI. ER pos, HER2 neg."
    )
    full = extractor.extract(
        "Right breast biopsy: invasive ductal carcinoma, moderately differentiated, grade 2. "
        "Negative for lymphovascular invasion. ER positive, HER2 negative."
    )
    assert terse == full
    assert terse["lymphovascular_invasion"] == "absent"
    assert terse["differentiation"] == "moderate"
