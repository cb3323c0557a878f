"""Statuses after a colon or a clock position, counts in words, the in situ hybridisation that
decides an equivocal HER2 score, and other facts in wordings that other writers use.

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair

ALL = ["tcga", "histai", "reg2025"]


# -- statuses --------------------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
def test_h_pylori_abbreviated_hp(dataset):
    field = "helicobacter_pylori" if dataset == "reg2025" else "hpylori_status"
    assert extract("Gastric body mucosa, chronic gastritis. HP not seen.", dataset)[field] == (
        "absent"
    )
    assert extract("Antral biopsy: chronic active gastritis, HP (+).", dataset)[field] == "present"


@pytest.mark.parametrize("dataset", ALL)
def test_vascular_permeation_is_lymphovascular_invasion(dataset):
    reference = "Invasive ductal carcinoma, 18 mm. Lymphovascular invasion: not identified."
    rewrite = "IDC, 1.8 cm; no vascular permeation seen."
    wrong = "Invasive ductal carcinoma, 18 mm. Lymphovascular invasion: present."
    assert extract(rewrite, dataset)["lymphovascular_invasion"] == "absent"
    assert score_pair(reference, rewrite, dataset).CRQS > score_pair(reference, wrong, dataset).CRQS


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_capsule_and_vessels_with_their_status_after_a_colon(dataset):
    found = extract(
        "Adrenocortical carcinoma, 9 cm. Capsule: invaded. Veins: not invaded.", dataset
    )
    assert found["capsular_invasion"] == "present"
    assert found["lymphovascular_invasion"] == "absent"
    found = extract("Capsule: intact. Vessels: invaded.", dataset)
    assert found["capsular_invasion"] == "absent"
    assert found["lymphovascular_invasion"] == "present"
    # a lymph node's capsule is no tumour capsule
    assert "capsular_invasion" not in extract("Lymph node capsule: intact.", dataset)


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_an_intact_pseudocapsule_is_no_capsular_invasion(dataset):
    reference = "Papillary renal cell carcinoma, 3.1 cm, with intact pseudocapsule."
    rewrite = "Papillary RCC, 31 mm, encapsulated."
    assert "capsular_invasion" in score_pair(reference, rewrite, dataset).matched


@pytest.mark.parametrize("dataset", ALL)
def test_a_margin_named_with_a_clock_position(dataset):
    involved = {"tcga": "positive", "histai": "positive", "reg2025": "involved"}[dataset]
    for text in (
        "Dermatofibrosarcoma protuberans. Tumour present at the superior (12 o'clock) margin.",
        "Dermatofibrosarcoma protuberans. Superior margin at 12 o'clock is involved.",
    ):
        assert extract(text, dataset)["margin_status"] == involved, text
    assert extract(
        "Dermatofibrosarcoma protuberans. Tumour present at the superior (12 o'clock) margin.",
        dataset,
    )["margin_involved"] == ("superior")


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_an_extension_beyond_the_nodal_capsule(dataset):
    text = "Lymph node replaced by metastatic adenocarcinoma that extends beyond the nodal capsule."
    assert extract(text, dataset)["extranodal_extension"] == "present"


# -- counts and numbers ----------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
def test_both_nodes_negative_is_none_of_two(dataset):
    reference = "Sentinel lymph nodes: 0/2."
    assert extract("Both sentinel nodes negative.", dataset)["lymph_node_involvement"] == "0/2"
    assert extract("Both lymph nodes are free.", dataset)["lymph_node_involvement"] == "0/2"
    assert "lymph_node_involvement" in score_pair(reference, "Both SLNs negative.", dataset).matched
    assert (
        "lymph_node_involvement"
        in score_pair(reference, "Sentinel lymph nodes: 1/2.", dataset).discordant
    )


@pytest.mark.parametrize("dataset", ALL)
@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("Mitoses: thirty-one / 50 HPF.", 31.0),
        ("Nineteen mitoses/10 high-power fields.", 19.0),
        ("Mitotic count: 19 per 10 HPF.", 19.0),
    ],
)
def test_a_mitotic_count_in_words(dataset, text, rate):
    assert extract(text, dataset)["mitotic_rate"] == rate


def test_a_mitotic_count_in_words_against_another_count():
    reference = "Leiomyosarcoma. Mitotic count: 17 per 10 HPF."
    rewrite = "Leiomyosarcoma with seventeen mitoses per 10 high-power fields."
    wrong = "Leiomyosarcoma. Mitotic count: 3 per 10 HPF."
    assert "mitotic_rate" in score_pair(reference, rewrite, "tcga").matched
    assert "mitotic_rate" in score_pair(reference, wrong, "tcga").discordant


# -- the in situ hybridisation of HER2 ------------------------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("HER2 2+ (equivocal); reflex SISH: HER2/CEP17 ratio 1.2, 2.9 copies per cell, "
         "not amplified.", "negative"),
        ("HER2 2+ (equivocal); reflex FISH: ratio 3.1, 8.2 copies per cell, amplified.",
         "positive"),
        ("HER2 IHC 2+. FISH: amplified.", "positive"),
        ("HER2 2+ (equivocal).", "equivocal"),
        # another gene's hybridisation leaves HER2 as scored
        ("HER2 3+. MDM2 FISH: not amplified.", "positive"),
    ],
)  # fmt: skip
def test_an_equivocal_her2_is_decided_by_its_hybridisation(dataset, text, status):
    assert extract(text, dataset)["her2_status"] == status


def test_mdm2_amplification_is_read_in_reg_reports():
    reference = (
        "Soft tissue, thigh, core biopsy; Atypical lipomatous tumour. MDM2 amplified by FISH."
    )
    wrong = (
        "Soft tissue, thigh, core biopsy; Atypical lipomatous tumour. MDM2 not amplified by FISH."
    )
    assert extract(reference, "reg2025")["gene_rearrangements"] == "mdm2 amplification"
    assert "gene_rearrangements" in score_pair(reference, wrong, "reg2025").discordant


# -- stages and grades -----------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
def test_pta_is_a_t_category(dataset):
    assert extract("Non-invasive papillary urothelial carcinoma, low grade (pTa).", dataset)[
        "pt_stage"
    ] == ("pta")
    assert extract("Stage: ypTa.", dataset)["pt_stage"] == "ypta"
    reference = "Papillary urothelial carcinoma, high grade, invading lamina propria (pT1)."
    wrong = "Papillary urothelial carcinoma, high grade, invading lamina propria (pTa)."
    assert "pt_stage" in score_pair(reference, wrong, dataset).discordant
    # a word that begins with "ta" is no stage
    assert "pt_stage" not in extract("p tachycardia", dataset)


@pytest.mark.parametrize("dataset", ALL)
def test_an_adenomas_grade_is_its_dysplasias(dataset):
    assert extract("Tubular adenoma, low grade; no HGD.", dataset)["dysplasia_grade"] == "low"
    assert extract("Tubulovillous adenoma, high grade.", dataset)["dysplasia_grade"] == "high"


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_an_edmondson_steiner_grade_without_the_word_grade(dataset):
    found = extract("Liver core: HCC, Edmondson-Steiner III, trabecular.", dataset)
    assert found["tumor_grade"] == "3"


@pytest.mark.parametrize(
    ("text", "subtype"),
    [
        ("Thymectomy: B3 thymoma (WHO), 40 mm.", "thymoma type b3"),
        ("WHO type AB thymoma.", "thymoma type ab"),
        ("Thymoma WHO type B1.", "thymoma type b1"),
    ],
)
def test_a_thymoma_type_before_or_after_the_word(text, subtype):
    assert extract(text, "tcga")["histologic_type"] == subtype


# -- diagnoses and findings ------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_inflammation_of_the_appendix_with_an_aside_is_appendicitis(dataset):
    text = "Appendix: acute (phlegmonous) inflammation of the appendix; no perforation."
    assert extract(text, dataset)["diagnosis"] == "appendicitis"


def test_haemorrhoids_and_pyelonephritis_are_diagnoses():
    assert extract("Haemorrhoidectomy: thrombosed haemorrhoids.", "histai")["diagnosis"] == (
        "hemorrhoids"
    )
    reference = "Nephrectomy: chronic pyelonephritis with staghorn calculus. No malignancy."
    rewrite = "Kidney: end-stage chronic pyelonephritis, calculus in the pelvis; no tumour."
    assert extract(rewrite, "histai")["diagnosis"] == "pyelonephritis"
    assert "diagnosis" in score_pair(reference, rewrite, "histai").matched


def test_a_recommended_tuberculosis_test_is_no_diagnosis_of_tuberculosis():
    text = (
        "Necrotising granulomatous inflammation; please correlate with culture and "
        "M. tuberculosis PCR."
    )
    assert extract(text, "histai")["diagnosis"] == "granulomatous inflammation"
    proven = "Caseating granulomas. Tuberculous lymphadenitis (M. tuberculosis PCR positive)."
    assert extract(proven, "histai")["diagnosis"] == "tuberculosis"


def test_amoebae_and_normal_crypts_in_other_wordings():
    found = extract(
        "Caecal biopsies: ulcer slough with E. histolytica trophozoites; crypts architecturally "
        "normal. Amoebiasis.",
        "histai",
    )
    assert found["organisms"] == "amoebae"
    assert found["crypt_distortion"] == "absent"


@pytest.mark.parametrize("dataset", ALL)
def test_the_duodenum_and_the_terminal_ileum_are_two_sites(dataset):
    reference = "Terminal ileum, biopsies: chronic active enteritis with a granuloma."
    wrong = "Duodenum, second portion, biopsies: chronic active enteritis with a granuloma."
    assert extract(wrong, dataset)["tumor_site"] == "duodenum"
    assert extract("Duodenum (D2), biopsy: normal mucosa.", dataset)["tumor_site"] == "duodenum"
    assert "tumor_site" in score_pair(reference, wrong, dataset).discordant
    rewrite = "Biopsies of the terminal ileal mucosa: active chronic enteritis, one granuloma."
    assert "tumor_site" in score_pair(reference, rewrite, dataset).matched
    # a pancreatic carcinoma's duodenum is no biopsy site
    assert "tumor_site" not in extract("Whipple: duodenum and ampulla not invaded.", dataset)


def test_no_invasive_carcinoma_is_the_same_fact_as_no_invasion_in_reg():
    reference = (
        "Breast, left, core biopsy; DCIS, high nuclear grade. No invasive carcinoma identified."
    )
    rewrite = "L breast core: high-grade DCIS; invasion not seen."
    wrong = "Breast, left, core biopsy; DCIS, high nuclear grade, with early stromal invasion."
    assert extract(reference, "reg2025")["stromal_invasion"] == "absent"
    assert "stromal_invasion" in score_pair(reference, rewrite, "reg2025").matched
    assert "stromal_invasion" in score_pair(reference, wrong, "reg2025").discordant
    # an invasive carcinoma named states its entity, not this field
    assert "stromal_invasion" not in extract("Invasive carcinoma of no special type.", "reg2025")


@pytest.mark.parametrize("dataset", ALL)
def test_a_thigh_mass_is_soft_tissue(dataset):
    reference = "Soft tissue, right thigh, excision; Lipoma."
    rewrite = "Excised subcutaneous mass, R thigh: lipoma."
    assert "soft tissue" in extract(rewrite, dataset)["organ_site"]
    assert "organ_site" in score_pair(reference, rewrite, dataset).matched
    # a skin report named first keeps its organ
    assert extract("Skin, right thigh, excision; Seborrhoeic keratosis.", "reg2025")[
        "organ_site"
    ] == ("skin")
