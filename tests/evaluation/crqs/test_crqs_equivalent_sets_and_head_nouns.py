"""Values that state one fact in two wordings inside a set (a grade, the sides), head nouns
between a finding and its status, and other facts in the wordings that other writers use.

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, load_schema, score_pair
from pathreport.evaluation.crqs.schema import SchemaError


# -- one fact, two wordings, inside a set ---------------------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_both_ovaries_named_side_by_side_are_bilateral(dataset):
    reference = "Bilateral ovarian high-grade serous carcinoma."
    rewrite = "High-grade serous carcinoma of both ovaries: right 6.0 cm, left 3.5 cm."
    wrong = "Right ovarian high-grade serous carcinoma."
    assert "laterality" in score_pair(reference, rewrite, dataset).matched
    assert "laterality" in score_pair(reference, wrong, dataset).discordant


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_a_high_grade_is_grade_3_and_not_grade_2(dataset):
    reference = "Gastric adenocarcinoma, G3."
    assert (
        "tumor_grade"
        in score_pair(reference, "Gastric adenocarcinoma, high grade.", dataset).matched
    )
    assert "tumor_grade" in score_pair(reference, "Gastric adenocarcinoma, G2.", dataset).discordant
    assert (
        "tumor_grade"
        in score_pair(reference, "Gastric adenocarcinoma, low grade.", dataset).discordant
    )


def test_a_grade_stated_twice_in_numbers_and_words_is_one_grade():
    spec = load_schema("tcga").field("tumor_grade")
    assert spec.matches("3 + high", "3")
    assert not spec.matches("3 + high", "2")


def test_a_general_value_equivalent_to_several_others_does_not_join_them():
    """ "Resection" is "mastectomy" and "lumpectomy", which are not one another."""
    spec = load_schema("tcga").field("specimen_type")
    assert spec.matches("resection", "mastectomy")
    assert spec.matches("resection", "lumpectomy")
    assert not spec.matches("mastectomy", "lumpectomy")


def test_an_equivalence_of_two_combinations_is_refused(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(
        """
name: tiny
version: 1
description: d
sources: [s]
groups: [context]
key_fields: []
fields:
  - name: laterality
    group: context
    type: categorical
    values: {left: [left], right: [right], bilateral: [bilateral]}
    equivalent: [["left + right", "bilateral + left"]]
"""
    )
    with pytest.raises(SchemaError, match="equivalent"):
        load_schema(path)


# -- a head noun between a finding and its status -------------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    "text",
    [
        "Serous borderline tumour. Micropapillary architecture is not found.",
        "Serous borderline tumour; micropapillary architecture is absent.",
    ],
)
def test_a_pattern_ruled_out_with_its_head_noun_is_not_the_subtype(dataset, text):
    assert extract(text, dataset)["histologic_type"] == "serous"


# -- abbreviations and sentences ------------------------------------------------------------------
def test_the_letter_of_a_hyphenated_stain_does_not_join_the_next_sentence():
    found = extract(
        "Signet ring cells highlighted by AE1/AE3 and PAS-D. H. pylori not seen.", "histai"
    )
    assert found["ihc_markers"] == "cytokeratin"
    assert found["hpylori_status"] == "absent"


def test_a_marker_named_before_a_stain_word_stays_in_its_sentence():
    found = extract("Negative for dysplasia. Cytomegalovirus immunostain negative.", "histai")
    assert "dysplasia" not in found.get("ihc_markers", "")


def test_superficial_spreading_melanoma_by_its_initials_with_its_thickness():
    found = extract("Invasive SSM: thickness 0.5 mm, Clark II; no ulcer.", "histai")
    assert found["diagnosis"] == "melanoma"
    assert found["breslow_thickness"] == 0.5


# -- wordings of sites, nodes, margins and the liver ---------------------------------------------
def test_a_tumour_node_is_the_tumour_not_a_lymph_node():
    found = extract("Left kidney; in the lower pole a tumour node 3.2 cm, yellow.", "histai")
    assert "lymph node" not in found["organ_site"]
    assert found["tumor_size"] == 3.2


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("CRM: tumour 0.5 mm from CRM (involved, <=1 mm).", "positive"),
        ("Tumour is 2 mm from the deep margin, clear.", "negative"),
    ],
)
def test_the_status_after_the_distance_to_a_margin(text, status):
    assert extract(text, "tcga")["margin_status"] == status


def test_nodes_counted_with_three_words_before_them_and_their_status_after():
    found = extract("Two left inguinal sentinel nodes negative.", "tcga")
    assert found["lymph_node_involvement"] == "0/2"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_satellite_lesions_and_an_unbreached_capsule_ruled_out(dataset):
    found = extract("HCC, 48 mm. No satellite lesions. Hepatic capsule not breached.", dataset)
    assert found["microsatellites"] == "absent"
    assert found["capsular_invasion"] == "absent"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_chronic_inflammation_of_the_antral_mucosa_is_gastritis(dataset):
    found = extract("Active chronic inflammation of antral mucosa; H. pylori present.", dataset)
    assert found["diagnosis"] == "gastritis"


# -- nodes counted in other layouts ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("SLN x3: negative, no ITCs.", "0/3"),
        (
            "Axillary SLNB: two nodes, one of which contains a 6 mm deposit of metastatic tumour.",
            "1/2",
        ),
        ("Macrometastasis in one of six R iliac nodes; L pelvic nodes (nine) negative.", "1/15"),
    ],
)
def test_node_counts_by_sign_by_relative_clause_and_in_brackets(text, count):
    assert extract(text, "tcga")["lymph_node_involvement"] == count


# -- statuses and grades in other wordings --------------------------------------------------------
@pytest.mark.parametrize("dataset", ["reg2025", "histai"])
def test_helicobacter_like_bacilli_with_a_status_after_a_colon(dataset):
    field = "helicobacter_pylori" if dataset == "reg2025" else "hpylori_status"
    assert extract("Helicobacter pylori-like bacilli: absent.", dataset)[field] == "absent"
    assert extract("Helicobacter pylori-like bacilli: present.", dataset)[field] == "present"


def test_a_chronic_gastritis_with_its_severity_before_its_activity_is_active():
    found = extract("Chronic gastritis, moderate, with mild activity.", "reg2025")
    assert found["inflammation_activity"] == "chronic active"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_named_margin_compromised_later_in_a_list_is_an_involved_margin(dataset):
    text = "Margins: ectocervical free; endocervical compromised by HSIL at 4 o'clock; deep free."
    assert extract(text, dataset)["margin_status"] == "positive"
    clear = "Margins: ectocervical free; endocervical free; deep free."
    assert extract(clear, dataset)["margin_status"] == "negative"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_the_pericardium_involved_in_a_synoptic_line(dataset):
    assert extract("Pericardium: involved.", dataset)["organ_involvement"] == "pericardium"
    assert "organ_involvement" not in extract("Pericardium: not involved.", dataset)


def test_sarcomatous_change_of_a_carcinoma_is_sarcomatoid():
    found = extract("HCC, 32 mm. Focal sarcomatous change (15%) is present.", "tcga")
    assert found["sarcomatoid_features"] == "present"


def test_an_incidental_prostate_carcinoma_staged_t1a_without_the_word_clinical():
    text = "Nodular hyperplasia with incidental adenocarcinoma, Gleason 3+3=6, stage T1a."
    assert extract(text, "histai")["pt_stage"] == "pt1a"


def test_a_figo_grade_by_its_tier_is_no_stage():
    found = extract("Endometrioid carcinoma of the endometrium, FIGO 1 (low grade).", "tcga")
    assert found["figo_grade"] == "1"
    assert "figo_stage" not in found


def test_a_depth_after_invading_to_and_a_share_under_one_half():
    assert extract("SCC of the cheek invading to 0.3 cm.", "reg2025")["depth_of_invasion"] == 3.0
    found = extract("Invades 6 of 15 mm of myometrium (under one half).", "tcga")
    assert found["myometrial_invasion"] == "less than half"


def test_the_detrusor_with_its_other_name_in_brackets_is_the_muscularis_propria():
    text = "High-grade urothelial carcinoma with detrusor (muscularis propria) invasion."
    assert extract(text, "reg2025")["invasion_depth"] == "muscularis propria"


def test_a_list_ruled_out_ending_in_significant_atypia_rules_the_atypia_out():
    text = "Mitoses <1/10 HPF. No coagulative tumour cell necrosis or significant atypia."
    assert extract(text, "histai")["cytologic_atypia"] == "none"


def test_p53_positive_is_the_aberrant_pattern_and_not_the_wild_type():
    spec = load_schema("tcga").field("p53_status")
    assert spec.matches("positive", "aberrant")
    assert not spec.matches("positive", "wild type")


# -- sites and specimens --------------------------------------------------------------------------
def test_the_gallbladders_cystic_duct_is_no_cystic_change():
    assert "cystic_change" not in extract("Cystic duct margin free. Cystic node 0/1.", "tcga")


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_the_nasopharynx_is_not_the_nasal_cavity(dataset):
    assert extract("Rhinosporidiosis, left nasopharynx.", dataset)["organ_site"] == "nasopharynx"
    assert extract("Rhinosporidiosis, left nasal cavity.", dataset)["organ_site"] == "nasal cavity"


@pytest.mark.parametrize("dataset", ["reg2025", "histai"])
def test_a_trucut_is_a_biopsy(dataset):
    found = extract("Trucut from a deep right thigh lesion: pleomorphic sarcoma.", dataset)
    assert found["specimen_type"] == "biopsy"


@pytest.mark.parametrize(
    ("text", "diagnosis"),
    [
        ("Right heel excision: ALM, Breslow 3.2 mm.", "melanoma"),
        ("Right thyroid lobectomy: encapsulated angioinvasive FTC, 31 mm.", "follicular carcinoma"),
    ],
)
def test_melanoma_and_thyroid_carcinoma_by_their_initials(text, diagnosis):
    assert extract(text, "histai")["diagnosis"] == diagnosis


# -- the invasive size and the invaded vessels ----------------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_the_invasive_size_of_a_minimally_invasive_adenocarcinoma(dataset):
    reference = "Minimally invasive adenocarcinoma, total size 14 mm, invasive size 4 mm."
    rewrite = "MIA, lesion 1.4 cm overall with a 0.4 cm invasive focus."
    wrong = "Minimally invasive adenocarcinoma, total size 14 mm, invasive size 9 mm."
    assert extract(reference, dataset)["invasive_size"] == 0.4
    assert "invasive_size" in score_pair(reference, rewrite, dataset).matched
    assert "invasive_size" in score_pair(reference, wrong, dataset).discordant


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Follicular carcinoma with vascular invasion in 2 vessels.", "2"),
        ("Encapsulated angioinvasive FTC, angioinvasion of two vessels.", "2"),
        ("Extensive vascular invasion (more than 4 vessels) is present.", "4"),
    ],
)
def test_the_number_of_invaded_vessels(text, count):
    assert extract(text, "tcga")["invaded_vessel_count"] == count


def test_vascular_invasion_without_a_number_counts_no_vessels():
    found = extract("Follicular carcinoma with vascular invasion.", "tcga")
    assert "invaded_vessel_count" not in found


# -- shares of a resected prostate ----------------------------------------------------------------
def test_fragments_counted_of_an_approximate_total_and_a_share_of_the_resected_tissue():
    text = (
        "In 3 of approximately 60 fragments examined, small infiltrative acini. Acinar "
        "adenocarcinoma involving less than 5% of the resected tissue."
    )
    found = extract(text, "histai")
    assert found["tumor_extent"] == "3/60"
    assert found["tumor_volume"] == 5.0


# -- germ cell tumours ----------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_an_ovarian_dermoid_cyst_is_benign_and_an_immature_teratoma_is_not(dataset):
    mature = extract("Mature cystic teratoma (dermoid cyst) of the left ovary.", dataset)
    immature = extract("Immature teratoma of the left ovary.", dataset)
    assert mature["diagnosis"] == "mature teratoma"
    assert immature["diagnosis"] == "nonseminomatous germ cell tumor"
    if dataset != "reg2025":
        assert mature["benign_vs_malignant"] == "benign"
        assert immature["benign_vs_malignant"] == "malignant"


def test_a_mixed_germ_cell_tumour_by_its_components_initials_stays_malignant():
    text = "Left orchidectomy: 45 mm mixed GCT - EC 60%, YST 30%, mature teratoma 10%."
    found = extract(text, "tcga")
    assert found["diagnosis"] == "nonseminomatous germ cell tumor"
    assert found["benign_vs_malignant"] == "malignant"


def test_ec_outside_a_testis_report_is_no_embryonal_carcinoma():
    assert "histologic_type" not in extract("Endometrium: EC, FIGO grade 1.", "tcga")


# -- more head nouns and surfaces -----------------------------------------------------------------
def test_a_pattern_ruled_out_with_a_size_qualifier_after_its_head_noun():
    text = "Serous borderline tumour. Micropapillary growth of 5 mm or more is absent."
    assert extract(text, "histai")["histologic_type"] == "serous"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_an_uninvolved_ovarian_surface_named_after_its_adjective(dataset):
    text = "Serous borderline tumour of the left ovary with an uninvolved ovarian surface."
    assert extract(text, dataset)["ovarian_surface_involvement"] == "absent"


# -- entities the vocabulary now separates --------------------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_a_burkitt_lymphoma_is_not_a_diffuse_large_b_cell_lymphoma(dataset):
    reference = "Soft tissue, right mandible, biopsy; Burkitt lymphoma. TdT negative."
    rewrite = "Right mandibular mass: high-grade B-cell NHL of Burkitt type; TdT -."
    wrong = "Soft tissue, right mandible, biopsy; Diffuse large B-cell lymphoma. TdT negative."
    assert extract(reference, dataset)["histologic_type"] == "burkitt"
    assert extract(rewrite, dataset)["histologic_type"] == "burkitt"
    assert "histologic_type" in score_pair(reference, wrong, dataset).discordant


def test_tdt_is_read_with_its_result():
    assert extract("IHC: CD20 positive, TdT negative.", "tcga")["ihc_markers"] == (
        "tdt negative + cd20"
    )


@pytest.mark.parametrize(
    ("text", "subtype"),
    [
        (
            "Dedifferentiated liposarcoma, FNCLCC grade 3. The liposarcoma abuts the colon.",
            "dedifferentiated liposarcoma",
        ),
        ("Pleomorphic liposarcoma.", "pleomorphic liposarcoma"),
        (
            "Atypical lipomatous tumour / well-differentiated liposarcoma.",
            "well-differentiated liposarcoma",
        ),
    ],
)
def test_the_liposarcomas_by_their_subtype(text, subtype):
    assert extract(text, "tcga")["histologic_type"] == subtype


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_ovarian_cystadenoma_borderline_tumour_and_carcinoma_are_three_entities(dataset):
    cystadenoma = extract("Mucinous cystadenoma of the right ovary.", dataset)["diagnosis"]
    borderline = extract("Mucinous borderline tumour of the right ovary.", dataset)["diagnosis"]
    assert (cystadenoma, borderline) == ("cystadenoma", "borderline tumor")


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_a_carcinoma_arising_in_a_dermoid_cyst_is_the_diagnosis(dataset):
    text = "Mature cystic teratoma of the ovary with squamous cell carcinoma arising in it."
    assert extract(text, dataset)["diagnosis"] == "squamous cell carcinoma"


# -- a coarse grade, counts and margins in other layouts ------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_a_two_tier_low_grade_agrees_with_g1_and_g2_and_not_with_g3(dataset):
    spec = load_schema(dataset).field("tumor_grade")
    assert spec.matches("low", "2") and spec.matches("low", "1")
    assert not spec.matches("low", "3")
    assert not spec.matches("1", "2")


def test_the_number_of_nodules_after_its_label():
    assert (
        extract("HCC. Number of nodules: 2, the largest 4.5 cm.", "tcga")["tumor_focus_count"]
        == "2"
    )


def test_cores_with_neoplasia_after_their_label():
    found = extract("Acinar adenocarcinoma. - Cores with neoplasia: 1 of 6.", "reg2025")
    assert found["tumor_extent"] == "1/6"


def test_named_margins_after_a_comma_with_their_status_in_words():
    free = "Surgical margins: endocervical, free of lesion (4 mm); ectocervical, free of lesion."
    involved = "Surgical margins: endocervical, involved by HSIL; ectocervical, free of lesion."
    assert extract(free, "reg2025")["margin_status"] == "free"
    assert extract(involved, "reg2025")["margin_status"] == "involved"


# -- thyroid, stains, inflammation ----------------------------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_a_niftp_with_papillary_type_nuclei_is_no_papillary_carcinoma(dataset):
    text = (
        "Encapsulated follicular-patterned lesion with papillary-type nuclear changes; no "
        "capsular invasion. Conclusion: NIFTP, 2.6 cm, right lobe of thyroid."
    )
    assert extract(text, dataset)["diagnosis"] == "niftp"


def test_nodular_hyperplasia_in_a_thyroid_report_is_follicular_nodular_disease():
    text = "Thyroid, left lobe: nodular hyperplasia (adenomatous goiter). Negative for malignancy."
    assert extract(text, "histai")["diagnosis"] == "follicular nodular disease"


def test_two_stains_negative_with_an_aside_after_the_first():
    # GMS (Grocott) is the fungal stain: both organisms are stated absent.
    found = extract("AFB (ZN) and fungal (GMS) stains both negative.", "histai")
    assert found["organisms"] == "fungi negative + mycobacteria negative"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_neutrophils_infiltrating_the_epithelium_are_no_invasion(dataset):
    found = extract(
        "Gastric mucosa with neutrophils infiltrating the foveolar epithelium.", dataset
    )
    assert "invasion_status" not in found
    assert "in_situ_vs_invasive" not in found


def test_tumour_infiltrating_the_accompanying_bone():
    text = "Nasopharyngeal carcinoma. Tumor infiltrates the accompanying bone fragments."
    assert extract(text, "histai")["organ_involvement"] == "bone"


# -- prostate and kidney wordings -----------------------------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_a_tertiary_gleason_pattern_is_no_second_score(dataset):
    for text in (
        "Acinar adenocarcinoma, Gleason 7 = 4+3, with a minor (<5%) tertiary Gleason 5 component.",
        "Acinar adenocarcinoma, GS 7 (4+3), GG 3; no tertiary Gleason 5.",
    ):
        assert "5" not in extract(text, dataset)["gleason_score"].split(" + ")


def test_extraprostatic_extension_states_the_invasion_beyond_the_organ():
    found = extract(
        "Prostate. EPE: focal, R posterolateral. Seminal vesicle invasion: none.", "tcga"
    )
    assert found["organ_specific_invasion"] == "present"


def test_rp_with_its_node_dissection_is_a_prostatectomy_not_a_receptor():
    found = extract("RP + bilateral PLND: prostatic adenocarcinoma, acinar, GS 7 (4+3).", "tcga")
    assert found["specimen_type"] == "prostatectomy + lymphadenectomy"
    assert "pr_status" not in found


def test_one_glomerulus_with_a_crescent_is_counted():
    found = extract("Up to 18 glomeruli; 1 glomerulus has a cellular crescent.", "histai")
    assert found["glomerular_crescents"] == "1"


def test_a_goitre_with_its_other_name_in_brackets():
    found = extract("Diagnosis: Multinodular (colloid) goitre.", "histai")
    assert found["diagnosis"] == "follicular nodular disease"
