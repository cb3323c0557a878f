"""Report cleaning and the tokenizer: numbers and grades survive; vocabulary from training only."""

from __future__ import annotations

import pytest

from pathreport.data.text import Tokenizer, clean_report, join_tokens, split_tokens


@pytest.mark.parametrize("style", ["reg", "pathology"])
@pytest.mark.parametrize(
    "fragment",
    [
        "2.5 cm",
        "grade group 2.",
        "3+4=7",
        "7 (3+4)",
        "0/14",
        "h. pylori",
        "70%",
        "cin 2",
        "pt2n1",
        "gleason's score 7",
        "1.2 x 0.8 x 0.5 cm",
        "14.",
    ],
)
def test_text_cleaning_never_damages_numbers_or_grades(style, fragment):
    report = f"Findings: tumour {fragment} Margins are clear."
    cleaned = clean_report(report, style)
    expected = fragment if style == "reg" else fragment.lower()
    assert expected in cleaned
    # and the tokenizer's round trip gives the fragment back
    assert expected in join_tokens(split_tokens(cleaned))


def test_text_pathology_cleaning_drops_list_numbering_only():
    report = "1. Prostate, needle biopsy: adenocarcinoma. 2. Lymph nodes: 0/14.\n3) Margin 2.5 mm."
    assert clean_report(report, "pathology") == (
        "prostate, needle biopsy: adenocarcinoma. lymph nodes: 0/14. margin 2.5 mm."
    )


def test_text_reg_cleaning_keeps_case_and_punctuation():
    report = "Breast, core-needle biopsy;\n  Invasive carcinoma of no special type, grade II"
    assert (
        clean_report(report, "reg")
        == "Breast, core-needle biopsy; Invasive carcinoma of no special type, grade II"
    )


def test_text_tokenizer_uses_training_reports_only_and_threshold():
    train = ["Tumour grade II.", "Tumour grade III.", "Tumour present."]
    tok = Tokenizer.build(train, style="reg", min_count=2)
    assert "Tumour" in tok.vocab and "grade" in tok.vocab
    assert "II" not in tok.vocab  # seen once
    ids, truncated = tok.encode("Tumour grade IV.")
    assert Tokenizer.UNK in ids and not truncated  # a word only in another split is unknown


def test_text_tokenizer_round_trip_and_truncation():
    tok = Tokenizer.build(
        ["Breast, core-needle biopsy; grade II (Tubule formation: 3)"], style="reg"
    )
    ids, _ = tok.encode("Breast, core-needle biopsy; grade II (Tubule formation: 3)")
    assert tok.decode(ids) == "Breast, core-needle biopsy; grade II (Tubule formation: 3)"
    short, truncated = tok.encode("Breast, core-needle biopsy", max_tokens=2)
    assert truncated and len(short) == 2
    assert Tokenizer.from_dict(tok.to_dict()) == tok


def test_text_unknown_cleaning_style_is_rejected():
    with pytest.raises(ValueError, match="Unknown cleaning style"):
        clean_report("x", "fancy")


@pytest.mark.parametrize(
    "fragment",
    [
        "tumour size 3,1 cm",  # decimal comma
        "core at 10:00",
        "size: 5.2x4.0x1.3 cm",
        "myometrial invasion <50%",
        "ki-67 ~20%",
        ">5 mitoses",
        "78 mm - extension into fat",
        "mastectomy + slnb",
        "skin -ve, er+ (90%)",
        "lymph nodes: #12u (1/3)",
        "sentinel #1",
        "mitoses 2 [14/10 hpf]",
        "3+4=7",
        "high-grade",
    ],
)
def test_text_word_tokenizer_round_trip_keeps_clinical_notation(fragment):
    # What a model trained on these targets writes back is the cleaned text itself.
    cleaned = clean_report(f"Findings: {fragment}. Margins are clear.", "pathology")
    assert fragment in cleaned
    assert fragment in join_tokens(split_tokens(cleaned))


def test_text_pathology_cleaning_keeps_a_value_after_a_colon_and_ends_bare_lines():
    report = (
        "WHO/ISUP grade: 2.\nTreatment effect: no known presurgical therapy\n"
        "Lymphovascular invasion: Present\nDiagnosis:\n1. Carcinoma\n2. DCIS"
    )
    assert clean_report(report, "pathology") == (
        "who/isup grade: 2. treatment effect: no known presurgical therapy; "
        "lymphovascular invasion: present; diagnosis: carcinoma; dcis"
    )


def test_text_pathology_cleaning_drops_html_tags_not_comparison_signs():
    assert clean_report("ER &lt;1%<br>PR <b>negative</b>, Ki-67 >30%", "pathology") == (
        "er <1% pr negative , ki-67 >30%"
    )
