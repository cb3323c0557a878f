"""Node counts written as prose, a capsule crossed in other verbs, and other facts in wordings that
other writers use: "Eleven nodes from stations 5, 7 and 10, none involved", "one node positive out
of twelve", "two nodes examined, one harbouring metastatic carcinoma", "hilar none of 4".

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair

ALL = ["tcga", "histai", "reg2025"]


# -- node counts -----------------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Twenty-one lymph nodes examined, none involved.", "0/21"),
        ("Eleven nodes from stations 5, 7, 10 and 11, none involved.", "0/11"),
        ("Sixteen nodes from 4R, 7, 10R and 11R, all negative.", "0/16"),
        ("14 pelvic nodes, left and right - none involved.", "0/14"),
        ("Eight pelvic nodes clear.", "0/8"),
        ("SLN: 3 nodes from both sides, none involved.", "0/3"),
        ("Neck: single positive node out of 22, level II, 15 mm.", "1/22"),
        ("A single level II node out of 26 is involved (14 mm deposit).", "1/26"),
        ("One node positive out of twelve (inguinal and mesorectal).", "1/12"),
        ("Two R obturator nodes positive out of twenty-two pelvic nodes.", "2/22"),
        ("Nodal status: two out of nineteen positive.", "2/19"),
        ("Nodal disease: 2/24 positive, both at level II.", "2/24"),
        ("Sentinel node biopsy: two nodes examined, one harbouring metastatic carcinoma.", "1/2"),
        ("R axillary SLNB: two nodes, one positive - 4 mm deposit.", "1/2"),
        ("Two nodes, one with a macrometastasis, the other free of tumour.", "1/2"),
        ("Nodes: hilar none of 4, mediastinal none of 6 (2R, 4R, 7).", "0/10"),
        ("Nodes: right neck two of eighteen positive, left neck none of fifteen.", "2/33"),
        ("Sentinel lymph node, left inguinal: metastatic melanoma in 1 out of 2.", "1/2"),
    ],
)
def test_node_counts_written_as_prose(dataset, text, count):
    assert extract(text, dataset)["lymph_node_involvement"] == count


@pytest.mark.parametrize("dataset", ALL)
@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("Carcinoma in 3 of 40 nodes. Perigastric: 3 of 25; omental: 1 of 15.", "3/40"),
        (
            "All ten nodes negative (hilar none of 4; mediastinal stations 4R and 7, none of 6).",
            "0/10",
        ),
    ],
)
def test_a_stated_total_still_wins_over_its_named_groups(dataset, text, total):
    assert extract(text, dataset)["lymph_node_involvement"] == total


@pytest.mark.parametrize("dataset", ALL)
def test_isolated_tumour_cells_in_one_of_two_nodes_are_not_read_as_an_involved_node(dataset):
    text = "Two sentinel nodes: one harbours ITCs (cluster under 0.2 mm); the other is free."
    assert extract(text, dataset).get("lymph_node_involvement") != "1/2"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_node_count_in_prose_ranks_the_rewrite_above_a_changed_count(dataset):
    reference = "Lobectomy: adenocarcinoma, 28 mm. Lymph nodes: 0/16 (stations 4R, 7, 10R, 11R)."
    rewrite = (
        "RUL lobectomy, adenocarcinoma 2.8 cm; sixteen nodes from 4R, 7, 10R and 11R, all negative."
    )
    wrong = "Lobectomy: adenocarcinoma, 28 mm. Lymph nodes: 2/16 (stations 4R, 7, 10R, 11R)."
    assert "lymph_node_involvement" in score_pair(reference, rewrite, dataset).matched
    assert score_pair(reference, rewrite, dataset).CRQS > score_pair(reference, wrong, dataset).CRQS


# -- invasion of and through a capsule -------------------------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    "text",
    [
        "Type B2 thymoma, 62 mm, with microscopic transcapsular extension into perithymic fat.",
        "A small focus of the thymoma penetrates the capsule into the perithymic fat.",
        "Thymoma; the tumour breaches the capsule into surrounding adipose tissue.",
        "Thymoma with focal microscopic penetration of the capsule into surrounding fat.",
    ],
)
def test_a_tumour_that_crosses_its_capsule_is_invasive(dataset, text):
    assert extract(text, dataset)["invasion_status"] == "present"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_structure_the_tumour_spares_states_no_invasion_status(dataset):
    assert "invasion_status" not in extract("No extension into liver.", dataset)


@pytest.mark.parametrize("dataset", ALL)
@pytest.mark.parametrize(
    "text",
    [
        "The tumour invades its capsule but does not extend beyond the adrenal.",
        "Hepatocellular carcinoma; tumour capsule focally penetrated.",
        "Hepatocellular carcinoma, 52 mm; capsule partly breached.",
    ],
)
def test_capsular_invasion_in_other_verbs(dataset, text):
    assert extract(text, dataset)["capsular_invasion"] == "present"


# -- vessels, mitoses, depth, regression ---------------------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
def test_the_vessel_named_in_brackets(dataset):
    present = extract("Vascular (venous) invasion identified.", dataset)
    absent = extract("ACC, 9 cm; no vascular (venous) invasion.", dataset)
    assert present["lymphovascular_invasion"] == "present"
    assert absent["lymphovascular_invasion"] == "absent"


@pytest.mark.parametrize("dataset", ALL)
def test_mitoses_in_an_area(dataset):
    assert extract("Twenty-eight mitoses in 50 HPF.", dataset)["mitotic_rate"] == 28.0
    assert extract("GIST, 28 mitoses in 10 HPF.", dataset)["mitotic_rate"] == 28.0


def test_the_layer_reached_after_the_wall():
    for text in (
        "It penetrates the muscularis propria to reach the adventitia.",
        "Oesophageal SCC through the wall into adventitial tissue.",
        "Caecal adenocarcinoma growing beyond the muscular wall into pericolic fatty tissue.",
    ):
        assert extract(text, "tcga")["invasion_depth"] == "perivisceral fat", text


def test_a_regression_system_named_in_brackets_before_its_grade_is_one_grade():
    found = extract("Tumour regression grade (Mandard) TRG 4.", "tcga")
    assert found["tumor_regression_grade"] == "mandard 4"
    # a bracket that names no system leaves the grade's system unnamed
    assert extract("Regression (partial) TRG 3.", "tcga")["tumor_regression_grade"] == "trg 3"


@pytest.mark.parametrize("dataset", ALL)
@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("N1 (hilar) nodes: two of nine positive; N2 (mediastinal) none of six.", "2/15"),
        ("Lymph nodes: 1 of 4 peribronchial (station 11L) positive; 0 of 8 mediastinal.", "1/12"),
        (
            "Level II node positive (1 of 6); levels I (0/3), III (0/4) and IV (0/3) negative.",
            "1/16",
        ),
    ],
)
def test_node_groups_named_in_brackets_after_or_as_levels(dataset, text, count):
    assert extract(text, dataset)["lymph_node_involvement"] == count


# -- entities and grades ---------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
def test_high_grade_biliary_intraepithelial_neoplasia_is_high_grade_dysplasia(dataset):
    text = "Chronic cholecystitis; focus of high-grade biliary intraepithelial neoplasia (BilIN-3)."
    assert extract(text, dataset)["dysplasia_grade"] == "high"
    reference = "Gallbladder: chronic calculous cholecystitis. Cholelithiasis."
    assert "dysplasia_grade" in score_pair(reference, text, dataset).hallucinated


@pytest.mark.parametrize("dataset", ALL)
def test_adenomas_all_low_grade(dataset):
    text = "Polypectomies: five tubular adenomas, all low-grade, no high-grade dysplasia."
    assert extract(text, dataset)["dysplasia_grade"] == "low"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_criteria_not_met_rule_a_diagnosis_out(dataset):
    found = extract("Cellular leiomyoma; criteria for STUMP/leiomyosarcoma not met.", dataset)
    assert found["benign_vs_malignant"] == "benign"
    assert found["excluded_entities"] == "sarcoma"


def test_in_situ_carcinoma_in_either_word_order_and_adenocarcinoma_in_situ():
    found = extract("In-situ carcinoma reaches the peripheral margin at 12 o'clock.", "histai")
    assert found["diagnosis"] == "carcinoma in situ"
    assert found["in_situ_vs_invasive"] == "in situ"
    found = extract("RUL wedge: pure lepidic growth of atypical pneumocytes. AIS (pTis).", "histai")
    assert found["diagnosis"] == "adenocarcinoma in situ"
    assert found["in_situ_vs_invasive"] == "in situ"


def test_a_cryptococcoma_is_cryptococcosis():
    assert (
        extract("Final: pulmonary cryptococcoma, RUL.", "histai")["diagnosis"] == "cryptococcosis"
    )


def test_reg_large_bowel_then_its_part_names_the_part():
    rectal = extract("Large bowel, rectum, endoscopic biopsy; adenocarcinoma.", "reg2025")
    colorectal = extract("Stepwise colorectal biopsies: ulcerative colitis.", "reg2025")
    assert rectal["organ_site"] == "rectum"
    assert colorectal["organ_site"] == "colon"
    # a primary site named for a metastasis is no organ of the specimen
    found = extract(
        "Vagina, colposcopic biopsy; adenocarcinoma, favor colorectal primary.", "reg2025"
    )
    assert found.get("organ_site") != "colon"


def test_reg_chronic_inflammation_of_an_organ_is_that_organs_inflammation():
    reference = "Prostate, left apex, core needle biopsy; chronic prostatitis."
    rewrite = "Left apical prostate core: prostatic tissue with chronic inflammation."
    assert "diagnosis" in score_pair(reference, rewrite, "reg2025").matched
    # ... and a gastritis is still no colitis
    wrong = score_pair(
        "Stomach, antrum; chronic gastritis.", "Stomach, antrum; colitis.", "reg2025"
    )
    assert "diagnosis" in wrong.discordant


# -- no node received, the uterine fundus, the sarcoma necrosis score ----------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    "text",
    [
        "Chronic cholecystitis. No cystic duct lymph node identified.",
        "Typical carcinoid, 1.1 cm. No lymph nodes are included in this specimen.",
        "Thymoma, WHO type B2; margins free; no lymph nodes; pT1a pNx.",
    ],
)
def test_a_specimen_without_nodes_states_no_nodal_status(dataset, text):
    found = extract(text, dataset)
    assert "lymph_node_involvement" not in found
    assert found["lymph_nodes_examined"] == "0"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_no_nodal_metastasis_is_still_a_negative_status(dataset):
    assert extract("No lymph node metastasis.", dataset)["lymph_node_involvement"] == "absent"


def test_the_fundus_of_a_uterus_or_gallbladder_is_no_stomach():
    for text in (
        "Uterus, 140 g: polypoid tumour in the fundus; endometrioid adenocarcinoma, FIGO grade 1.",
        "Cholecystectomy: cholecystitis; the fundus harbours a well-differentiated adenocarcinoma.",
    ):
        assert "stomach" not in str(extract(text, "histai").get("organ_site")), text
    assert "stomach" in extract("Gastric fundus biopsy: chronic gastritis.", "histai")["organ_site"]


@pytest.mark.parametrize("dataset", ALL)
def test_the_fnclcc_necrosis_score(dataset):
    text = "Leiomyosarcoma, FNCLCC grade 2 (differentiation 2, mitotic score 2, necrosis 0)."
    assert extract(text, dataset)["necrosis"] == "absent"
    text = "Leiomyosarcoma, FNCLCC grade 3 (differentiation 3, mitotic score 2, necrosis 1)."
    assert extract(text, dataset)["necrosis"] == "present"


# -- shared results in brackets, tests for an organism ---------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
def test_a_result_shared_by_the_markers_in_its_brackets(dataset):
    found = extract("Immunopanel all negative (cytokeratin, S-100, desmin, MDM2).", dataset)
    assert found["ihc_markers"] == (
        "cytokeratin negative + desmin negative + mdm2 negative + s100 negative"
    )
    # a distance in brackets is no marker
    assert "ihc_markers" not in extract("Margins all negative (closest 2 mm).", dataset)


def test_reg_a_test_for_an_organism_is_no_infection_diagnosed():
    found = extract(
        "Granulomatous lymphadenitis. Recommend TB GeneXpert on fresh material.", "reg2025"
    )
    assert found["diagnosis"] == "granulomatous inflammation"
    found = extract("Ulcerative colitis. Cytomegalovirus immunostain positive.", "reg2025")
    assert found["diagnosis"] == "ulcerative colitis"
    assert found["organisms"] == "cmv"
    # infected cells seen are the infection
    assert extract("Colitis with CMV-infected cells.", "reg2025")["diagnosis"] == "viral infection"


def test_reg_prostatic_cancer_and_oxyntic_mucosa():
    text = "12-core biopsy: prostatic cancer of acinar type, Gleason 6 (3+3) = Grade Group 1."
    assert extract(text, "reg2025")["diagnosis"] == "adenocarcinoma"
    text = "Oxyntic (corpus) mucosa: atrophic chronic gastritis."
    assert extract(text, "reg2025")["organ_site"] == "stomach"


# -- HistAI: stains, stages and entities -----------------------------------------------------------
def test_histai_readings_of_other_writers():
    assert extract("Fungal stain (PAS) negative.", "histai")["organisms"] == "fungi negative"
    assert "organisms" not in extract("Fungal stains were performed.", "histai")
    assert extract("LAMN. AJCC stage Tis(LAMN).", "histai")["pt_stage"] == "ptis"
    found = extract("Gastric body biopsy: four tan soft tissue fragments, up to 0.3 cm.", "histai")
    assert found["organ_site"] == "stomach"
    text = "Haemorrhoids with focal high-grade anal intraepithelial neoplasia (AIN 3)."
    assert extract(text, "histai")["dysplasia_grade"] == "high"
    text = "Conclusion: ruptured tubal ectopic pregnancy, right fallopian tube."
    assert extract(text, "histai")["diagnosis"] == "ectopic pregnancy"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_diagnosis_that_must_still_be_excluded_is_neither_stated_nor_excluded(dataset):
    found = extract("Decidua without villi; an ectopic pregnancy must be excluded.", dataset)
    assert "ectopic pregnancy" not in str(found.get("diagnosis"))
    assert "ectopic pregnancy" not in str(found.get("excluded_entities"))


# -- margins in brackets, stations in brackets, the deep half --------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_margin_status_in_brackets_after_its_distance(dataset):
    close = extract("Margins: deep 4 mm (close); mucosal margins > 10 mm.", dataset)
    involved = extract("Margins: deep 0 mm (involved); mucosal margins > 10 mm.", dataset)
    assert close["margin_status"] == "close"
    assert involved["margin_status"] == "positive"


@pytest.mark.parametrize("dataset", ALL)
def test_each_station_with_its_count_in_brackets(dataset):
    text = "Lymph nodes: 2 of 6 hilar nodes involved; station 7 (0/3) and station 4 (0/2) negative."
    assert extract(text, dataset)["lymph_node_involvement"] == "2/11"


def test_the_deep_half_of_the_muscularis_propria_and_urothelial_cancer():
    text = "High-grade urothelial cancer reaching the deep (outer) half of muscularis propria."
    found = extract(text, "tcga")
    assert found["invasion_depth"] == "muscularis propria"
    assert found["diagnosis"] == "urothelial carcinoma"


def test_autoimmune_gastritis_in_other_words_is_an_atrophic_gastritis():
    for text in (
        "Atrophic gastritis, compatible with autoimmune (metaplastic atrophic) gastritis.",
        "Conclusion: atrophic gastritis, autoimmune pattern, with ECL-cell hyperplasia.",
        "Oxyntic mucosa: atrophic (autoimmune-type) gastritis with ECL-cell hyperplasia.",
    ):
        assert "autoimmune" in extract(text, "histai")["gastritis_type"], text
    reference = "Gastric body biopsies: autoimmune atrophic gastritis."
    rewrite = "Corpus biopsies: atrophic (autoimmune-type) gastritis."
    assert "gastritis_type" in score_pair(reference, rewrite, "histai").matched


def test_epithelioid_macrophages_are_no_histologic_type():
    text = "Caseating granulomas of epithelioid macrophages with Langhans giant cells."
    assert "histologic_type" not in extract(text, "histai")


def test_no_gross_extension_leaves_a_microscopic_one_stated():
    text = (
        "Microscopic extrathyroidal extension only, into perithyroidal soft tissue; no gross ETE."
    )
    found = extract(text, "tcga")
    assert found["extrathyroidal_extension"] == "present"
    assert found["organ_specific_invasion"] == "present"
    assert extract("No extrathyroidal extension.", "tcga")["extrathyroidal_extension"] == "absent"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_stains_that_show_no_organisms(dataset):
    text = "Special stains for mycobacteria and fungi do not show microorganisms."
    assert extract(text, dataset)["organisms"] == "fungi negative + mycobacteria negative"
    # inside a list the negation still reaches every item
    found = extract("Negative for microorganisms, granulomas and dysplasia.", dataset)
    assert "granulomatous inflammation" not in str(found.get("findings"))


# -- a measured margin is a clear one; p16 by its pattern ------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
def test_a_margin_measured_from_the_tumour_restates_a_clear_margin(dataset):
    reference = (
        "Myxofibrosarcoma, 9 cm, FNCLCC grade 3. Margins clear (closest 4 mm, deep at fascia)."
    )
    rewrite = "High-grade (FNCLCC 3) myxofibrosarcoma, 90 mm. Nearest margin deep at fascia, 4 mm."
    assert "margin_status" not in score_pair(reference, rewrite, dataset).missed
    wrong = "Myxofibrosarcoma, 9 cm, FNCLCC grade 3. Margins involved (deep at fascia)."
    assert "margin_status" in score_pair(reference, wrong, dataset).discordant


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("p16 IHC shows patchy, non-block staining, interpreted as negative.", "p16 negative"),
        (
            "p16 staining is focal/patchy and not block-type, interpreted as negative.",
            "p16 negative",
        ),
        ("p16 negative (patchy, non-block pattern).", "p16 negative"),
        ("Strong continuous (block) p16 staining.", "p16"),
        ("p16: diffuse block-positive.", "p16"),
    ],
)
def test_p16_is_read_by_its_pattern(text, expected):
    assert extract(text, "histai")["ihc_markers"] == expected
