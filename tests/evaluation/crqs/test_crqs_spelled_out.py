"""Names written out, numbers written as words, verb-first clauses and "compromise".

Report-writing models often expand every symbol ("Anaplastic lymphoma kinase (ALK): negative"),
trainees dictate numbers as words ("Nottingham grade two"), and writers whose first language is
Spanish put the verb first ("Is not identified lymphovascular invasion") and say "compromise"
for involvement. Each wording states the same fact as the terse report beside it; a CRQS that
missed it would score a correct report as one that left the fact out, or, worse, read
"lymphoma" or "thyroid" out of a marker's name as a diagnosis or an organ.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair
from pathreport.evaluation.crqs.abbreviations import spell_out
from pathreport.evaluation.crqs.values import total_count


@pytest.mark.parametrize(
    ("written", "symbol"),
    [
        ("anaplastic lymphoma kinase (alk): negative", "alk (alk): negative"),
        ("thyroid transcription factor 1 positive", "ttf-1 positive"),
        ("thyroid transcription factor-1 positive", "ttf-1 positive"),
        ("programmed death-ligand 1 (22c3): 5%", "pd-l1 (22c3): 5%"),
        ("programmed cell death ligand 1: 5%", "pd-l1: 5%"),
        ("epidermal growth factor receptor: wild type", "egfr: wild type"),
        ("human epidermal growth factor receptor 2: negative", "her2: negative"),
        ("paired box gene 8 positive", "pax8 positive"),
        ("insulinoma-associated protein 1 positive", "insm1 positive"),
        ("gata binding protein 3 positive", "gata3 positive"),
        (
            "world health organization/international society of urological pathology grade 3",
            "who/isup grade 3",
        ),
        ("international society of urological pathology grade group 2", "isup grade group 2"),
        ("international federation of gynaecology and obstetrics grade 1", "figo grade 1"),
        ("world health organisation grade 2", "who grade 2"),
    ],
)
def test_spelled_out_names_become_their_symbols(written, symbol):
    assert spell_out(written) == symbol


def test_a_markers_name_names_no_diagnosis_or_organ():
    short = "Lung, wedge: adenocarcinoma. TTF-1 positive. ALK negative. EGFR: wild type."
    long = (
        "Lung, wedge: adenocarcinoma. Thyroid transcription factor 1 positive. Anaplastic "
        "lymphoma kinase negative. Epidermal growth factor receptor: wild type."
    )
    fields = extract(long, "tcga")
    assert fields["diagnosis"] == "adenocarcinoma"
    assert fields["organ_site"] == "lung"
    assert fields["alk_status"] == "negative"
    assert fields["egfr_status"] == "wild type"
    assert score_pair(short, long, "tcga").CRQS > 0.99


@pytest.mark.parametrize(
    ("words", "digits"),
    [
        ("nottingham histologic grade two", "nottingham histologic grade 2"),
        (
            "gleason 3+3 for a score of six, grade group one",
            "gleason 3+3 for a score of 6, grade group 1",
        ),
        ("corresponding to cin three", "corresponding to cin 3"),
        ("clark level four", "clark level 4"),
        ("figo stage one", "figo stage 1"),
        # Only the number that a grade or stage word precedes: counts stay words.
        ("two of three cores", "two of three cores"),
    ],
)
def test_a_grades_number_written_as_a_word_becomes_digits(words, digits):
    assert spell_out(words) == digits


def test_grade_and_grade_group_written_as_words_are_read():
    assert (
        extract("Invasive carcinoma of no special type, Nottingham grade two.", "tcga")[
            "tumor_grade"
        ]
        == "2"
    )
    fields = extract(
        "Acinar adenocarcinoma, Gleason 3+3, score of six, grade group one.", "reg2025"
    )
    assert fields["grade_group"] == "1"
    assert fields["gleason_score"] == "3+3=6"


@pytest.mark.parametrize(
    "text",
    [
        "Adenocarcinoma. Is not identified lymphovascular invasion.",
        "Adenocarcinoma. Are not identified lymphovascular or perineural invasion.",
        "Adenocarcinoma; was not seen lymphovascular invasion.",
        "Adenocarcinoma.\nLymphovascular invasion: no evidence.",
    ],
)
def test_verb_first_and_colon_negations_make_the_finding_absent(text):
    assert extract(text, "tcga")["lymphovascular_invasion"] == "absent"


def test_a_negation_that_ends_its_clause_leaves_the_next_clause_alone():
    fields = extract(
        "Lymphovascular invasion is not identified and perineural invasion is present.", "tcga"
    )
    assert fields["lymphovascular_invasion"] == "absent"
    assert fields["perineural_invasion"] == "present"


@pytest.mark.parametrize(
    ("text", "margin", "nodes"),
    [
        (
            "Adenocarcinoma. Surgical margins without neoplastic compromise. Lymph nodes: 3 of 22 "
            "with metastatic compromise.",
            "negative",
            "3/22",
        ),
        ("Adenocarcinoma. Deep margin with neoplastic compromise.", "positive", None),
        ("Adenocarcinoma. Lymph nodes: 0 of 9 with metastatic compromise.", None, "0/9"),
    ],
)
def test_compromise_is_involvement(text, margin, nodes):
    fields = extract(text, "tcga")
    assert fields.get("margin_status") == margin
    assert fields.get("lymph_node_involvement") == nodes


@pytest.mark.parametrize(
    "text",
    [
        "Adenocarcinoma, solid predominant (70% solid, 30% acinar), measuring 24 mm.",
        "Adenocarcinoma presenting as a solitary tumour of twenty-four millimetres.",
        "Left upper lobe: adenocarcinoma of acinar predominant pattern (acinar 60%), of 24 mm.",
        "Lobectomy:\n- invasive adenocarcinoma, acinar\n- 24 mm\n- margins clear",
    ],
)
def test_tumour_size_in_other_positions(text):
    assert extract(text, "tcga")["tumor_size"] == pytest.approx(2.4)


def test_a_size_alone_on_a_line_without_a_list_marker_is_not_the_tumours():
    assert "tumor_size" not in extract("Lymph nodes:\n12 mm node with metastasis", "tcga")


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Melanoma. 1 of the 2 sentinel lymph nodes contains metastatic melanoma.", "1/2"),
        (
            "Carcinoma. Two lymph nodes contain metastatic carcinoma; 10 lymph nodes are negative.",
            "2/12",
        ),
        ("Carcinoma. Two lymph nodes show metastatic carcinoma.", "2"),
        ("Carcinoma. Two lymph nodes show no metastatic carcinoma.", "0/2"),
    ],
)
def test_node_counts_with_plural_verbs_and_of_the(text, count):
    assert extract(text, "tcga")["lymph_node_involvement"] == count


def test_involved_nodes_and_other_negative_nodes_add_up():
    assert total_count(["2", "0/10"]) == "2/12"
    assert total_count(["0/2", "1"]) == "1/3"
    # An involved count beside a count that already has involved nodes stays ambiguous: the sum
    # of the involved numbers, as before.
    assert total_count(["1", "2/12"]) == "3"


@pytest.mark.parametrize(
    ("text", "status", "lost"),
    [
        (
            "Endometrioid carcinoma. Mismatch repair: MLH1 and PMS2 with loss of expression.",
            "deficient",
            "mlh1 + pms2",
        ),
        (
            "Adenocarcinoma. Mismatch repair: MLH1, PMS2, MSH2 and MSH6 with preserved expression.",
            "proficient",
            None,
        ),
    ],
)
def test_mismatch_repair_stated_with_with(text, status, lost):
    fields = extract(text, "tcga")
    assert fields["mmr_msi_status"] == status
    assert fields.get("mmr_proteins_lost") == lost


def test_figo_histological_grade():
    assert (
        extract("Endometrioid carcinoma, FIGO histological grade 2.", "tcga")["figo_grade"] == "2"
    )


@pytest.mark.parametrize(
    ("short", "full"),
    [
        ("APR specimen", "abdominoperineal resection specimen"),
        ("LAR, rectum", "low anterior resection, rectum"),
        (
            "Oral cavity WLE + L MND",
            "oral cavity wide local excision + left modified neck dissection",
        ),
        ("Adenocarcinoma GB", "adenocarcinoma gallbladder"),
        ("UPS, grade 3", "undifferentiated pleomorphic sarcoma, grade 3"),
        ("LVE seen", "lymphovascular invasion seen"),
        ("no MVP or necrosis", "no microvascular proliferation or necrosis"),
        ("Bilat ovaries and FTs", "bilateral ovaries and fallopian tubes"),
        ("invades MP", "invades muscularis propria"),
        ("cystectomy + bilat PLND", "cystectomy + bilateral pelvic lymph node dissection"),
        (
            "Margins: uncinate/SMA - negative",
            "margins: uncinate/superior mesenteric artery - negative",
        ),
        ("SMA positive, desmin positive", "sma positive, desmin positive"),
    ],
)
def test_more_shorthand(short, full):
    from pathreport.evaluation.crqs.text import normalise

    assert normalise(short) == full


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_lymphovascular_emboli_are_lymphovascular_invasion(dataset):
    assert (
        extract("Adenocarcinoma. Lymphovascular emboli: absent.", dataset)[
            "lymphovascular_invasion"
        ]
        == "absent"
    )
    assert extract("Adenocarcinoma. LVE seen.", dataset)["lymphovascular_invasion"] == "present"


def test_a_side_letter_in_brackets_after_the_organ():
    fields = extract("Breast (R), core needle biopsy: invasive carcinoma, grade 3.", "tcga")
    assert fields["laterality"] == "right"
    assert fields["lateral_sites"] == "right breast"


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_a_labelled_node_count_of_none_is_no_metastasis(dataset):
    fields = extract("Colon, sigmoidectomy: adenocarcinoma. Lymph node metastasis: 0/18.", dataset)
    assert fields["lymph_node_involvement"] == "0/18"
    status = "metastatic_involvement" if dataset == "tcga" else "lymph_node_metastasis"
    assert fields[status] == "absent"


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("Carcinoma of endometrioid type, grade 1", "endometrioid carcinoma, grade 1"),
        (
            "Uterus, biopsy;\n   Carcinoma of endometrioid type",
            "uterus, biopsy;\n   endometrioid carcinoma",
        ),
        ("Infiltrating carcinoma of ductal type.", "infiltrating ductal carcinoma."),
        (
            "Barrett esophagus with dysplasia of high grade",
            "barrett esophagus with high grade dysplasia",
        ),
        # A name that already has words before its noun keeps its order.
        ("Renal cell carcinoma of clear cell type.", "renal cell carcinoma of clear cell type."),
        ("Note) Is not identified lymphovascular invasion.", "note) no lymphovascular invasion."),
    ],
)
def test_romance_word_order(text, normalised):
    from pathreport.evaluation.crqs.text import normalise

    assert normalise(text) == normalised
