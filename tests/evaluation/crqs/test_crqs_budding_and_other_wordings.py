"""Tumour budding, isolated tumour cells counted before their nodes, and other facts in wordings
that other writers use: "Tumour budding: high (Bd3)", "1 of 2 with isolated tumour cells", "IDH-wt",
"steatosis approx. 40 %", "One positive pelvic node among nineteen".

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair
from pathreport.evaluation.crqs.text import normalise

ALL = ["tcga", "histai", "reg2025"]


# -- tumour budding --------------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("Tumour budding: high (Bd3, 14 buds per hotspot).", "high"),
        ("Tumor budding: low (Bd1).", "low"),
        ("Budding score low.", "low"),
        ("Low-grade budding (Bd1).", "low"),
        ("Bd2.", "intermediate"),
        ("Adenocarcinoma with high-grade tumour budding.", "high"),
    ],
)
def test_tumour_budding_is_read_by_its_score(dataset, text, score):
    assert extract(text, dataset)["tumor_budding"] == score


@pytest.mark.parametrize("dataset", ALL)
def test_a_budding_score_is_no_tumour_grade_and_budding_yeasts_no_budding(dataset):
    assert "tumor_grade" not in extract("Low-grade budding (Bd1).", dataset)
    assert "tumor_budding" not in extract("PAS shows budding yeasts and pseudohyphae.", dataset)


@pytest.mark.parametrize("dataset", ALL)
def test_high_grade_budding_denied_states_no_score_and_no_tumour_free_site(dataset):
    fields = extract("Adenocarcinoma. No high-grade tumour budding.", dataset)
    assert "tumor_budding" not in fields
    assert "tumor_free_sites" not in fields


def test_an_invented_high_grade_budding_lowers_crqs():
    reference = "Sigmoid colectomy. Adenocarcinoma, moderately differentiated, 40 mm. pT3 pN0."
    wrong = reference + " Tumour budding: high (Bd3)."
    assert score_pair(reference, wrong, "tcga").hallucinated == ["tumor_budding"]


# -- isolated tumour cells -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Sentinel lymph nodes: 1 of 2 with isolated tumour cells (AE1/AE3).", "0/2"),
        ("SLN: one of three nodes showing ITCs only.", "0/3"),
        ("SLN: ITCs only, in one of two nodes.", "0/2"),
        ("2 of 5 nodes with metastatic carcinoma.", "2/5"),  # a metastasis still counts
    ],
)
def test_isolated_tumour_cells_make_no_node_positive_whichever_comes_first(text, count):
    assert extract(text, "tcga")["lymph_node_involvement"] == count


# -- node counts -----------------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("One positive pelvic node among nineteen.", "1/19"),
        (
            "Nodal status: a single positive node at station 11L; stations 5, 7 and 10L clear"
            " - 1/11 overall.",
            "1/11",
        ),
        (
            "Peribronchial lymph nodes (stations 11L, 12L) with metastatic carcinoma in 2 of 6;"
            " mediastinal lymph nodes (stations 5, 7, 9L) 0 of 8.",
            "2/14",
        ),
    ],
)
def test_node_counts_in_other_words(dataset, text, count):
    assert extract(text, dataset)["lymph_node_involvement"] == count


# -- invasion --------------------------------------------------------------------------------------
def test_extension_into_fat_beyond_the_organ_is_invasion_and_its_denial_says_nothing_else():
    invades = extract("Capsule breached with extension into periadrenal fat.", "tcga")
    assert invades["invasion_status"] == "present"
    spared = extract("Capsular invasion present, without extension to periadrenal fat.", "tcga")
    assert "invasion_status" not in spared
    denied = extract("No extension into perirenal fat.", "tcga")
    assert denied["organ_specific_invasion"] == "absent"


@pytest.mark.parametrize(
    "text",
    [
        "Penetrating the muscularis propria into pericolic fat, without serosal involvement.",
        "Penetrating 3 mm beyond the muscle wall into pericolic fat (pT3); no serosal involvement.",
    ],
)
def test_the_fat_reached_is_organ_specific_invasion_however_the_way_there_is_worded(text):
    assert extract(text, "tcga")["organ_specific_invasion"] == "present"


def test_spread_into_perithyroidal_soft_tissue_is_extrathyroidal_extension():
    text = (
        "Total thyroidectomy: papillary carcinoma with microscopic-only spread into perithyroidal"
        " soft tissue."
    )
    assert extract(text, "tcga")["extrathyroidal_extension"] == "present"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Detrusor is sampled; it is free of tumor.", "included"),
        ("No detrusor in the sample.", "not included"),
    ],
)
def test_the_detrusor_named_alone_states_whether_muscle_was_sampled(text, status):
    assert extract(text, "reg2025")["muscle_proper_status"] == status


@pytest.mark.parametrize(
    "text", ["No detrusor muscle invasion.", "Without detrusor muscle infiltration."]
)
def test_detrusor_muscle_invasion_denied_does_not_say_the_muscle_is_missing(text):
    assert "muscle_proper_status" not in extract(text, "reg2025")


@pytest.mark.parametrize(
    "text",
    [
        "Muscularis propria (detrusor muscle) present and involved by carcinoma.",
        "Muscularis propria present in the sample and infiltrated by neoplasia.",
    ],
)
def test_a_muscle_present_and_involved_is_the_depth_of_invasion(text):
    assert extract(text, "reg2025")["invasion_depth"] == "muscularis propria"


# -- biomarkers, liver, duodenum -------------------------------------------------------------------
@pytest.mark.parametrize(
    "text", ["GBM, IDH-wt, WHO CNS grade 4.", "IHC: IDH1 R132H not expressed.", "IDH wt."]
)
def test_idh_wild_type_in_short(text):
    assert extract(text, "tcga")["idh_status"] == "wild type"


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("steatosis approx. 40 %", "steatosis approximately 40 %"),
        ("ca. 2 cm", "approximately 2 cm"),  # circa, not a carcinoma
        ("CA 19-9 raised", "ca 19-9 raised"),
    ],
)
def test_approximately_abbreviated_ends_no_statement(text, normalised):
    assert normalise(text) == normalised


@pytest.mark.parametrize("dataset", ALL)
@pytest.mark.parametrize(
    "text",
    [
        "Liver biopsy. Macrovesicular steatosis (approx. 40 %).",
        "Liver biopsy. Macrovesicular steatosis ca. 40%.",
        "Liver core: large-droplet fat in about 40% of hepatocytes.",
    ],
)
def test_a_steatosis_share_is_its_grade_in_other_words(dataset, text):
    assert extract(text, dataset)["steatosis"] == "moderate"


def test_nash_crn_stages_are_kleiner_stages():
    kleiner = "Liver biopsy. Bridging fibrosis (Kleiner stage 3)."
    same = score_pair(kleiner, "Liver biopsy. Fibrosis NASH CRN stage 3.", "reg2025")
    other = score_pair(kleiner, "Liver biopsy. Fibrosis NASH CRN stage 2.", "reg2025")
    assert same.discordant == []
    assert other.discordant == ["fibrosis_stage"]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Marsh 3b: intraepithelial lymphocytosis of about 50 per 100 epithelial cells.", 50.0),
        ("Increased intraepithelial lymphocytes (approx. 50/100 enterocytes).", 50.0),
    ],
)
def test_intraepithelial_lymphocytes_counted_in_other_words(text, count):
    assert extract(text, "reg2025")["intraepithelial_lymphocytes"] == count


def test_iels_within_normal_limits_are_not_increased():
    normal = extract("IELs within normal limits.", "reg2025")
    assert normal["intraepithelial_lymphocytosis"] == "absent"


# -- prostate chips --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "chips"),
    [
        ("TURP: adenocarcinoma in 2 chips. Diagnosis: adenocarcinoma present in 2 chips.", "2"),
        ("TURP, 24 grams. Three of the chips contain a focus of adenocarcinoma.", "3"),
        ("TURP chips; in 3 of the chips adenocarcinoma.", "3"),
    ],
)
def test_involved_prostate_chips_stated_twice_are_one_count(text, chips):
    assert extract(text, "histai")["tumor_extent"] == chips


def test_cores_of_two_biopsy_parts_still_add_up():
    text = "A. Right base: adenocarcinoma, 1/2 cores. B. Left base: adenocarcinoma, 1/2 cores."
    assert extract(text, "histai")["tumor_extent"] == "2/4"


# -- margins ---------------------------------------------------------------------------------------
def test_a_clearance_stated_close_is_a_close_margin():
    text = "Mucosal clearance 6 mm; deep clearance 4 mm - close."
    assert extract(text, "tcga")["margin_status"] == "close"


def test_a_lesion_excised_with_a_margin_of_a_distance_states_the_distance():
    text = "The lesion is excised with a lateral margin of 2 mm."
    assert extract(text, "histai")["margin_distance"] == 0.2


# -- REG wordings ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Liver core: steatohepatitic pattern, bridging fibrosis.", "diagnosis", "steatohepatitis"),
        ("Liver biopsy; compatible with MASH.", "diagnosis", "steatohepatitis"),
        ("Antrum - chronic gastritis, with activity.", "inflammation_activity", "chronic active"),
        ("Chronic gastritis with neutrophil activity.", "inflammation_activity", "chronic active"),
        ("Node with hyperplastic follicles.", "diagnosis", "reactive lymphoid hyperplasia"),
        ("Biopsies D1/D2: villi normal.", "organ_site", "small intestine"),
        ("Biopsies: negative for dysplasia/malignancy.", "diagnosis", "benign"),
        ("Gastric body polyp - fundic gland type polyp.", "diagnosis", "fundic gland polyp"),
    ],
)
def test_reg_wordings(text, field, value):
    assert extract(text, "reg2025")[field] == value


# -- sides, HER2, metastasis, depth ----------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Lymph node from the left supraclavicular region, excisional biopsy.",
        "Left supraclavicular node, excision.",
    ],
)
def test_a_nodal_basin_named_as_a_region_is_its_nodes(text):
    assert extract(text, "histai")["lateral_sites"] == "left node"


def test_a_skin_region_keeps_its_own_name():
    assert extract("Skin, right temporal region, excision.", "histai")["lateral_sites"] == (
        "right temple"
    )


@pytest.mark.parametrize(
    ("text", "status"),
    [
        (
            "HER2 (clone 4B5): strong complete membranous staining in clusters of tumour cells,"
            " score 3+ (positive).",
            "positive",
        ),
        ("HER2: weak incomplete staining in 5% of cells, score 1+.", "negative"),
    ],
)
def test_a_her2_score_after_its_description(text, status):
    assert extract(text, "tcga")["her2_status"] == status


def test_nodes_counted_positive_state_the_metastasis_another_report_names():
    reference = "Colectomy. Adenocarcinoma. Metastatic adenocarcinoma in 2 of 21 lymph nodes."
    rewrite = "Colectomy. Adenocarcinoma. Nodes: 2/21 positive."
    score = score_pair(reference, rewrite, "histai")
    assert (score.missed, score.hallucinated, score.discordant) == ([], [], [])


@pytest.mark.parametrize(
    "text",
    [
        "Adenocarcinoma invading through the muscularis propria and pericolic fat, with tumour"
        " cells on the serosal (peritoneal) surface.",
        "Adenocarcinoma extending through muscularis propria and pericolic fat to penetrate the"
        " visceral peritoneum.",
    ],
)
def test_tumour_on_the_serosal_surface_is_serosal_invasion(text):
    assert extract(text, "histai")["invasion_depth"] == "serosa"


def test_the_second_layer_after_through_is_the_one_reached():
    text = "Adenocarcinoma invading through the muscularis propria and pericolic fat."
    assert extract(text, "histai")["invasion_depth"] == "subserosa"


# -- nodes: a measured deposit, station groups -----------------------------------------------------
def test_a_measured_metastasis_is_not_denied_by_the_next_items_status():
    fields = extract("Nodes: 1/9 positive (6 mm metastasis, ENE absent).", "tcga")
    assert fields["metastatic_involvement"] == "present"
    assert fields["extranodal_extension"] == "absent"


def test_a_list_of_findings_is_still_denied_by_its_closing_status():
    fields = extract("LVI, PNI absent.", "tcga")
    assert fields["lymphovascular_invasion"] == fields["perineural_invasion"] == "absent"


def test_station_groups_named_by_their_n_category_are_no_nodal_stage():
    text = "N1 stations 11L/12L: 2/6 positive. N2 stations 5, 7, 9L: 0/8. pT2b N1."
    fields = extract(text, "tcga")
    assert fields["pn_stage"] == "n1"
    assert fields["lymph_node_stations"] == "11l + 12l + 5 + 7 + 9l"
    assert fields["lymph_node_involvement"] == "2/14"


def test_a_count_after_a_station_is_still_no_station():
    assert extract("Station 3, 2/8.", "tcga")["lymph_node_stations"] == "3"


def test_an_adjacent_organ_named_with_its_side_is_involved():
    text = "Adrenocortical carcinoma. Invasion into adjacent left kidney (+)."
    assert extract(text, "tcga")["organ_involvement"] == "kidney"


def test_a_report_naming_fewer_of_the_procedures_agrees_on_the_specimen():
    reference = "Total thyroidectomy with central neck dissection. Papillary carcinoma, 1.8 cm."
    rewrite = "Total thyroidectomy: papillary carcinoma, 18 mm."
    assert "specimen_type" not in score_pair(reference, rewrite, "tcga").discordant


def test_tb_lymphadenitis_is_tuberculosis():
    assert extract("Conclusion: TB lymphadenitis.", "histai")["diagnosis"] == "tuberculosis"


def test_a_segments_normal_mucosa_is_no_second_finding_beside_a_disease():
    text = "Terminal ileum: normal mucosa. Colon: chronic active colitis, ulcerative colitis."
    assert "normal mucosa" not in extract(text, "histai")["findings"]
    assert extract("Terminal ileum: normal mucosa.", "histai")["findings"] == "normal mucosa"


@pytest.mark.parametrize("dataset", ["reg2025", "histai"])
def test_a_chronic_inflammatory_infiltrate_of_the_prostate_is_prostatitis(dataset):
    text = "Prostate core: benign prostatic glands with a mild chronic inflammatory infiltrate."
    assert extract(text, dataset)["diagnosis"] == "prostatitis"


# -- bracketed qualifiers, REG organs and activity -------------------------------------------------
@pytest.mark.parametrize(
    ("text", "dataset", "field", "value"),
    [
        (
            "Ovary: atypical proliferative (borderline) serous tumour.",
            "reg2025",
            "diagnosis",
            "borderline tumor",
        ),
        ("Conclusion: ectopic (tubal) pregnancy.", "histai", "diagnosis", "ectopic pregnancy"),
        (
            "Biopsy from the L cheek (buccal) mucosa: keratinizing SCC.",
            "reg2025",
            "organ_site",
            "head and neck",
        ),
    ],
)
def test_a_qualifier_in_brackets_inside_a_name_is_part_of_it(text, dataset, field, value):
    assert extract(text, dataset)[field] == value


def test_a_benign_lesion_is_no_second_finding_beside_a_named_tumour():
    text = (
        "R ovarian cyst, laparoscopic excision: atypical proliferative (borderline) serous tumour."
    )
    assert extract(text, "reg2025")["findings"] == "borderline tumor"


@pytest.mark.parametrize(
    ("text", "organ"),
    [
        ("Station 4R (EBUS-guided FNA, cell block): metastatic NSCLC.", "lymph node"),
        (
            "Ileocaecal valve biopsies: active chronic inflammation of ileal and colonic mucosa.",
            "colon",
        ),
    ],
)
def test_reg_organs_named_by_a_station_or_the_ileocaecal_valve(text, organ):
    assert extract(text, "reg2025")["organ_site"] == organ


@pytest.mark.parametrize(
    "text",
    [
        "Colon, ileocaecal valve, biopsy; chronic active ileocolitis with ulceration.",
        "Terminal ileum: chronic ileitis with activity and a focal erosion.",
        "Rectal biopsies: chronic inflammatory bowel disease in activity.",
    ],
)
def test_reg_activity_of_an_ileitis_or_a_bowel_disease(text):
    assert extract(text, "reg2025")["inflammation_activity"] == "chronic active"


# -- more node counts, coeliac disease, gliomas ----------------------------------------------------
@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Pelvic nodes: one of twelve on the right positive, none of ten on the left.", "1/22"),
        ("Two periesophageal nodes positive of 24 examined.", "2/24"),
        ("Nodes: single positive node at level IB; other 21 nodes negative (total 1/22).", "1/22"),
        (
            "Isolated tumour cells, highlighted by pancytokeratin IHC, in 1 of 3 sentinel nodes.",
            "0/3",
        ),
    ],
)
def test_more_node_counts_in_other_words(text, count):
    assert extract(text, "tcga")["lymph_node_involvement"] == count


def test_coeliac_disease_in_other_words():
    text = (
        "Duodenum: villi are markedly (subtotally) blunted with hyperplastic crypts; raised"
        " intraepithelial lymphocytes. Impression: celiac-type enteropathy, Marsh 3b."
    )
    fields = extract(text, "histai")
    assert fields["diagnosis"] == "coeliac disease"
    assert fields["atrophy"] == fields["intraepithelial_lymphocytosis"] == "present"


def test_a_glioma_infiltrating_the_brain_states_no_invasion_of_a_carcinoma():
    text = "Astrocytoma, IDH-mutant, CNS WHO grade 3. Diffusely infiltrating astrocytic neoplasm."
    fields = extract(text, "tcga")
    assert "invasion_status" not in fields and "in_situ_vs_invasive" not in fields


@pytest.mark.parametrize(
    "text",
    ["p53: strong nuclear positivity in more than 70% of cells.", "p53 strongly positive (>70%)."],
)
def test_strong_p53_staining_is_the_aberrant_pattern(text):
    assert extract(text, "tcga")["p53_status"] == "aberrant"


@pytest.mark.parametrize(
    "text",
    ["MRM, right. IBC-NST (ductal type), G3, 34 mm.", "Core bx R breast - IBC of no special type."],
)
def test_ibc_is_an_invasive_breast_carcinoma(text):
    fields = extract(text, "tcga")
    assert fields["diagnosis"] == "carcinoma"
    assert fields["in_situ_vs_invasive"] == "invasive"


def test_a_carcinoma_resected_before_is_history_not_this_specimens_finding():
    text = (
        "Random bladder biopsies, in follow-up of a previously resected high-grade urothelial"
        " carcinoma. Conclusion: chronic cystitis, negative for carcinoma in situ."
    )
    assert "diagnosis" not in extract(text, "histai")


def test_a_chronic_disease_named_as_history_is_still_the_biopsys_diagnosis():
    text = "Colon: chronic active colitis, consistent with a history of ulcerative colitis."
    assert extract(text, "reg2025")["diagnosis"] == "ulcerative colitis"


def test_tuberculosis_outranks_the_colitis_it_causes():
    text = "Impression: caseating granulomatous colitis, consistent with intestinal tuberculosis."
    assert extract(text, "histai")["diagnosis"] == "tuberculosis"


@pytest.mark.parametrize(
    ("text", "organ"),
    [
        ("Excision R helical rim: well-differentiated invasive SCC, 2.1 mm deep.", "skin"),
        ("Punch bx R temple: lentigo maligna (in situ melanoma).", "skin"),
        (
            "Biopsies 32 to 36 cm: Barrett's mucosa with goblet-cell intestinal metaplasia.",
            "esophagus",
        ),
        ("Products of conception from suction curettage: complete molar pregnancy.", "uterus"),
        ("Punch biopsy of uterine cervix at 12 o'clock: HSIL / CIN III.", "uterine cervix"),
    ],
)
def test_reg_organs_named_by_their_site_or_sample(text, organ):
    assert extract(text, "reg2025")["organ_site"] == organ
