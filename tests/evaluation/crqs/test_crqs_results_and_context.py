"""Stain results worded as loss or retention, organisms, tests still pending, and shorthand whose
meaning depends on the report.

Each case pairs a wording that had been misread with the fact it states: "loss of BAP1" is a
negative stain, "Giardia is not identified" an organism ruled out, "FISH has been requested" no
result at all, "MM" beside a Breslow thickness a melanoma and not a unit, "(6/9)" after a
Nottingham grade a score and not a node count. A misread here turns a correct report into one
with a wrong, missing or invented fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


# -- stains whose loss is the finding ---------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Lobular carcinoma. Immunohistochemistry: E-cadherin negative.",
        "Lobular carcinoma. Loss of E-cadherin expression on immunohistochemistry.",
        "Lobular carcinoma; E-cadherin loss.",
        "Lobular carcinoma. E-cadherin membranous staining is lost.",
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "reg2025", "histai"])
def test_loss_of_a_stain_is_its_negative_result(text, dataset):
    assert extract(text, dataset)["ihc_markers"] == "e-cadherin negative"


def test_a_retained_stain_is_positive_and_a_lost_one_negative():
    assert extract("Mesothelioma. BAP1 nuclear staining is retained.", "tcga")["ihc_markers"] == (
        "bap1"
    )
    assert extract("Mesothelioma. Loss of nuclear BAP1.", "tcga")["ihc_markers"] == (
        "bap1 negative"
    )


def test_a_lost_stain_does_not_negate_the_finding_before_it():
    fields = extract("The tumour shows EGFR amplification and loss of PTEN.", "tcga")
    assert fields["egfr_status"] == "amplified"
    assert fields["ihc_markers"] == "pten negative"


def test_mismatch_repair_loss_stays_with_its_own_fields():
    fields = extract("Adenocarcinoma. MMR: loss of MLH1 and PMS2.", "tcga")
    assert fields["mmr_msi_status"] == "deficient"
    assert fields["mmr_proteins_lost"] == "mlh1 + pms2"


@pytest.mark.parametrize(
    "text",
    ["CK7 immunostain negative.", "CK7 stain: negative.", "CK7 immunohistochemistry negative."],
)
def test_a_test_named_by_its_method_keeps_its_result(text):
    assert extract("Adenocarcinoma. " + text, "histai")["ihc_markers"] == "ck7 negative"


# -- organisms --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Duodenal biopsies. No Giardia seen.", "giardia negative"),
        ("Duodenal biopsies. Giardia is not identified.", "giardia negative"),
        ("Colitis. Immunostaining for CMV is negative.", "cmv negative"),
        ("Colitis. CMV immunohistochemistry negative.", "cmv negative"),
        ("Colitis with cytomegalovirus inclusions in stromal cells.", "cmv"),
        ("Oesophagitis. PAS stain negative for fungal organisms.", "fungi negative"),
        ("Granulomas. AFB stain: negative.", "mycobacteria negative"),
    ],
)
def test_organisms_are_read_with_their_status(text, value):
    assert extract(text, "histai")["organisms"] == value


def test_an_invented_organism_lowers_the_score():
    reference = "Colon, biopsy.\nChronic active colitis. No granulomas. No dysplasia."
    rewrite = "Colonic biopsy: chronic active colitis; granulomas and dysplasia not identified."
    wrong = reference + " Cytomegalovirus inclusions are identified."
    assert (
        score_pair(reference, rewrite, "histai").CRQS > score_pair(reference, wrong, "histai").CRQS
    )


# -- tests requested, not reported ------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Lymphoma. Comment: FISH for BCL6 rearrangement has been requested.",
        "Lymphoma. BCL6 rearrangement studies pending.",
    ],
)
def test_a_requested_test_is_no_result(text):
    assert "gene_rearrangements" not in extract(text, "histai")


# -- stages and approximations ----------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Endometrioid carcinoma, FIGO 2009 stage IB.",
        "Endometrioid carcinoma. FIGO (2009) stage IB.",
        "Endometrioid carcinoma. Stage: FIGO 2009 IB / pT1b.",
    ],
)
def test_a_figo_stage_with_its_edition_year(text):
    fields = extract(text, "tcga")
    assert fields["figo_stage"] == "ib"
    assert "stage_group" not in fields  # the FIGO stage is not also an AJCC stage group


def test_a_tilde_before_a_number_is_approximately():
    assert extract("Steatosis ~ 30% of hepatocytes.", "histai") == extract(
        "Steatosis approximately 30% of hepatocytes.", "histai"
    )


def test_a_kleiner_substage_before_its_system():
    assert extract("Fibrosis stage 1a (Kleiner).", "tcga")["fibrosis_stage"] == "kleiner stage 1"


def test_an_activity_score_is_no_inflammatory_activity():
    assert "inflammation_activity" not in extract(
        "Steatohepatitis, NAFLD activity score 4.", "histai"
    )


# -- shorthand read in its context ------------------------------------------------------------
def test_mm_is_a_melanoma_beside_a_breslow_thickness_and_a_unit_after_a_number():
    fields = extract("Skin, back, excision: MM, nodular; Breslow 1.2 mm; margins clear.", "tcga")
    assert fields["diagnosis"] == "melanoma"
    assert fields["breslow_thickness"] == pytest.approx(1.2)


def test_acc_follows_the_organ():
    assert extract("Adrenal gland, adrenalectomy: ACC, 90 mm.", "tcga")["diagnosis"] == (
        "adrenocortical carcinoma"
    )
    assert extract("Parotid gland, excision: ACC, cribriform.", "tcga") == extract(
        "Parotid gland, excision: adenoid cystic carcinoma, cribriform.", "tcga"
    )
    assert "diagnosis" not in extract("ACC noted.", "tcga")


def test_terse_polyp_and_bladder_shorthand():
    polyp = extract("Sigmoid polyp: well diff adenoca arising in TA; invades SM.", "tcga")
    assert polyp["adenoma_type"] == "tubular"
    assert polyp["invasion_depth"] == "submucosa"
    bladder = extract("Bladder, TURBT: noninvasive papillary UC, LG.", "tcga")
    assert bladder["tumor_grade"] == "low"
    assert "low grade" not in extract("One lg fragment of tissue.", "tcga").get("tumor_grade", "")


def test_a_liver_segment_in_shorthand():
    assert extract("Liver, S6, core bx: HCC, mod diff.", "tcga")["tumor_site"] == (
        "liver segment 6"
    )


def test_int_is_intermediate_only_before_a_grade():
    assert extract("DCIS, int grade.", "tcga") == extract("DCIS, intermediate grade.", "tcga")


# -- where a count, a margin or an invasion is stated ------------------------------------------
def test_a_score_after_a_grade_is_no_node_count():
    fields = extract(
        "L breast, TM + SLNB: IDC, Nottingham G2 (6/9), 21 mm; SLN 0/2; pT2 pN0(sn).", "tcga"
    )
    assert fields["lymph_node_involvement"] == "0/2"
    assert fields["nottingham_score"] == 6


def test_invading_a_layer_on_one_line_is_no_margin_on_the_next():
    text = (
        "Colon, sigmoid, polypectomy;\n   Adenocarcinoma, invading submucosa\n"
        "   Resection margin: free of tumor (distance 2 mm)"
    )
    assert extract(text, "reg2025")["margin_status"] == "free"


@pytest.mark.parametrize(
    "text",
    [
        "Margins: proximal, distal and circumferential clear (CRM 2 mm).",
        "Proximal margin 45 mm and distal margin 22 mm, both clear.",
    ],
)
def test_listed_margins_with_one_status(text):
    assert extract("Adenocarcinoma. " + text, "tcga")["margin_status"] == "negative"


def test_a_nodal_status_after_a_list_is_not_the_margins():
    fields = extract("Margin involved, lymph nodes, all negative.", "tcga")
    assert fields["margin_status"] == "positive"


def test_invasion_of_renal_sinus_fat_is_invasion_beyond_the_kidney():
    fields = extract(
        "Left radical nephrectomy: papillary RCC, 7.2 cm, with invasion of renal sinus fat; "
        "renal vein free.",
        "tcga",
    )
    assert fields["organ_specific_invasion"] == "present"


def test_a_wall_thickness_is_no_breslow_thickness():
    assert "breslow_thickness" not in extract("Invasion 9 mm in a wall 16 mm thick.", "tcga")


# -- names and sites ----------------------------------------------------------------------------
def test_a_generic_carcinoma_beside_its_type_is_one_reg_entity():
    a = "Prostate, needle biopsy;\n   Acinar adenocarcinoma, Gleason score 3+4=7 (Grade Group 2)"
    b = (
        "Prostate, needle biopsy;\n   Acinar adenocarcinoma, Gleason 7 (3 + 4), grade group 2\n"
        "   Note) Carcinoma occupies the core."
    )
    assert extract(a, "reg2025")["findings"] == extract(b, "reg2025")["findings"]


@pytest.mark.parametrize(
    ("text", "dataset", "field", "value"),
    [
        ("Right hemicolectomy for caecal tumour;", "reg2025", "organ_site", "colon"),
        (
            "Laparoscopic cholecystectomy specimen. Chronic cholecystitis.",
            "histai",
            "organ_site",
            "gallbladder",
        ),
        (
            "Note) Muscularis propria (detrusor) is represented.",
            "reg2025",
            "muscle_proper_status",
            "included",
        ),
        (
            "Adenocarcinoma, Lauren intestinal, moderately differentiated.",
            "tcga",
            "histologic_type",
            "intestinal type",
        ),
        (
            "Total thyroidectomy: classical papillary carcinoma, 2.2 cm.",
            "tcga",
            "histologic_type",
            "classic",
        ),
        ("Conclusion: Normal duodenal mucosa.", "histai", "diagnosis", "normal mucosa"),
        ("Right thigh, wide excision: LMS, 95 mm.", "tcga", "histologic_type", "leiomyosarcoma"),
        (
            "Stomach, biopsy:\n   Chronic gastritis showing activity.",
            "reg2025",
            "inflammation_activity",
            "chronic active",
        ),
        (
            "Stomach, biopsy:\n   Gastritis, intestinal metaplasia being absent.",
            "reg2025",
            "intestinal_metaplasia",
            "absent",
        ),
        (
            "There is chronic active inflammation of the ileal mucosa.",
            "histai",
            "findings",
            "enteritis",
        ),
        ("Appendectomy. Neoplasia absent.", "histai", "organ_site", "appendix"),
        ("Appendectomy. Neoplasia absent.", "histai", "malignancy_status", "absent"),
        ("Diagnosis: solar keratosis.", "histai", "benign_vs_malignant", "premalignant"),
        ("Axillary sentinel node biopsy:\n- Metastasis.", "reg2025", "organ_site", "lymph node"),
    ],
)
def test_a_wording_names_its_value(text, dataset, field, value):
    assert extract(text, dataset)[field] == value


@pytest.mark.parametrize("dataset", ["tcga", "reg2025", "histai"])
def test_a_numbered_nuclear_grade_with_its_word(dataset):
    a = extract("Breast, biopsy: DCIS, nuclear grade 3 (high), solid type.", dataset)
    b = extract("Breast, biopsy: DCIS, high nuclear grade, solid type.", dataset)
    assert a["nuclear_grade"] == b["nuclear_grade"] == "high"
    assert a.get("tumor_grade") == b.get("tumor_grade")


def test_a_margin_without_involvement_is_free():
    text = "Colon, polypectomy;\n   Note) Resection margin without involvement (distance 2.5 mm)."
    assert extract(text, "reg2025")["margin_status"] == "free"


def test_margins_named_after_the_word_margins():
    text = "Adenocarcinoma. Margins proximal, distal and circumferential radial free of tumour."
    assert extract(text, "tcga")["margin_status"] == "negative"


def test_steatosis_of_hepatocytes_is_no_tumour_share():
    text = "Liver, biopsy. Macrovesicular steatosis involving approximately 40% of hepatocytes."
    assert "tumor_volume" not in extract(text, "histai")


def test_synoptic_gleason_patterns_are_one_score():
    synoptic = "Primary Gleason grade: 3\nSecondary Gleason grade: 4\nGleason sum score: 7"
    assert extract(synoptic, "tcga")["gleason_score"] == "3+4=7"
    two_parts = extract("A. Gleason 3+4=7. B. Gleason score 6.", "tcga")["gleason_score"]
    assert two_parts == "3+4=7 + 6"  # a second part's own score stays


@pytest.mark.parametrize(
    "text",
    [
        "Conclusion: Tubular adenomas (4) with low-grade dysplasia.",
        "Dx: TA x4 w/ LGD.",
        "Diagnosis: four tubular adenomas, all with low-grade dysplasia.",
    ],
)
def test_the_number_of_adenomas_is_read(text):
    assert extract(text, "histai")["polyp_count"] == "4"


def test_a_wrong_number_of_adenomas_lowers_the_score():
    reference = "Colon, polypectomies:\n   Tubular adenomas with low-grade dysplasia, 3 polyps"
    rewrite = "Colonic polypectomies:\n   Three tubular adenomas, each with low-grade dysplasia"
    wrong = "Colon, polypectomies:\n   Tubular adenomas with low-grade dysplasia, 5 polyps"
    for dataset in ("histai", "reg2025", "tcga"):
        assert (
            score_pair(reference, rewrite, dataset).CRQS
            > score_pair(reference, wrong, dataset).CRQS
        )
