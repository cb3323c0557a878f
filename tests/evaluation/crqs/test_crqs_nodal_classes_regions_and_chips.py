"""The class and region of a nodal metastasis, prostate chips, stations before their counts, a
status after a longer object, and other facts in the wordings that other writers use.

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


# -- statuses after a longer object ------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Invasion into the submucosa of the polyp head is not found.",
        "Invasion into the lamina propria and submucosa is not identified.",
    ],
)
def test_a_post_cue_after_a_longer_object_negates_the_finding(text):
    assert extract(text, "histai")["invasion_status"] == "absent"


# -- nodal metastasis: class, counts by station, region ------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("Sentinel node: macrometastasis (3.5 mm) in 1/3 nodes.", "macrometastasis"),
        ("Sentinel node with a micrometastasis, 0.9 mm (1/2).", "micrometastasis"),
        ("Axillary sentinel node: isolated tumour cells only, pN0(i+).", "isolated tumor cells"),
        ("Two sentinel nodes: no isolated tumour cells and no micrometastasis.", "absent"),
    ],
)
def test_the_class_of_a_nodal_deposit(dataset, text, size):
    assert extract(text, dataset)["nodal_metastasis_size"] == size


def test_a_micrometastasis_against_a_macrometastasis_is_discordant():
    ref = "Left axillary sentinel node: metastatic carcinoma, macrometastasis, 1/2."
    wrong = "Left axillary sentinel node: metastatic carcinoma, micrometastasis, 1/2."
    score = score_pair(ref, wrong, "tcga")
    assert "nodal_metastasis_size" in score.discordant
    assert score.CRQS < score_pair(ref, ref, "tcga").CRQS


@pytest.mark.parametrize(
    ("text", "involved"),
    [
        (
            "Lymph nodes: hilar (stations 10R, 11R) 1 of 5 positive; "
            "mediastinal (stations 4R, 7) 0 of 6.",
            "1/11",
        ),
        (
            "Nodes: N1 station 10L - two of seven positive; N2 stations 5 and 7 - none of four.",
            "2/11",
        ),
        (
            "Metastasis in 1 of 3 hilar/interlobar lymph nodes; "
            "subcarinal lymph nodes negative (0/4).",
            "1/7",
        ),
        ("Nodes: 2/6 hilar (10R) positive, 0/5 paratracheal.", "2/11"),
        ("Thyroid bed nodes negative, 0 of 3.", "0/3"),
        ("Lymph nodes: 17 examined, negative.", "0/17"),
        ("Lymph nodes (level VI): three, all benign.", "0/3"),
    ],
)
def test_node_counts_after_their_stations_and_statuses(text, involved):
    assert extract(text, "tcga")["lymph_node_involvement"] == involved


def test_a_count_after_a_comma_belongs_to_the_next_station():
    text = "Metastasis in 1 of 4 hilar lymph nodes (station 10R), 0 of 3 subcarinal lymph nodes."
    assert extract(text, "tcga")["lymph_node_involvement"] == "1/7"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
@pytest.mark.parametrize(
    ("text", "region"),
    [
        (
            "Lymph node, right supraclavicular, core biopsy: metastatic adenocarcinoma.",
            "supraclavicular",
        ),
        ("Lymph node, left axilla, excision: reactive hyperplasia.", "axillary"),
        ("Lymph nodes, left neck level III, excision: metastatic carcinoma.", "cervical"),
        ("Right inguinal lymph node, excision: melanoma metastasis.", "inguinal"),
        ("Lymph nodes, left external iliac, dissection: no metastasis (0/7).", "pelvic"),
    ],
)
def test_the_region_of_a_node_specimen(dataset, text, region):
    assert extract(text, dataset)["lymph_node_region"] == region


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_words_of_other_sites_name_no_nodal_region(dataset):
    for text in (
        "Cervical biopsy: CIN 2.",
        "Neck of the pancreas: no tumour.",
        "Iliac crest trephine.",
    ):
        assert "lymph_node_region" not in extract(text, dataset)


def test_the_nodal_region_is_no_tcga_field():
    assert "lymph_node_region" not in extract("Left axillary lymph nodes: 0/12.", "tcga")


# -- margins ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    ("text", "status"),
    [
        (
            "Basal cell carcinoma with involvement of the superior (12 o'clock) peripheral margin.",
            "positive",
        ),
        ("Squamous cell carcinoma, without involvement of the peripheral margins.", "negative"),
        ("Deep margin: 0.4 cm, clear.", "negative"),
    ],
)
def test_margin_statuses_in_other_layouts(dataset, text, status):
    assert extract(text, dataset)["margin_status"] == status


def test_two_margin_distances_named_after_them_are_no_depth_of_invasion():
    fields = extract("All margins clear - 5 mm peripheral, 2 mm deep.", "tcga")
    assert "depth_of_invasion" not in fields


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Skin, shave: basal cell carcinoma. Margin focally involved.", "involved"),
        ("Cervix, LLETZ: CIN 2. Lesion present at the ectocervical (outer) margin.", "involved"),
    ],
)
def test_reg_margin_statuses_in_other_layouts(text, status):
    assert extract(text, "reg2025")["margin_status"] == status


# -- prostate chips and clinical T1 ----------------------------------------------------------------
@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
@pytest.mark.parametrize(
    ("text", "extent"),
    [
        ("Acinar adenocarcinoma in 4 of approximately 90 chips.", "4/90"),
        ("Five of roughly 110 prostatic chips contain carcinoma.", "5/110"),
        ("Incidental adenocarcinoma, Gleason 3+3=6, in 3 chips (<5%).", "3"),
    ],
)
def test_prostate_chips_involved(dataset, text, extent):
    assert extract(text, dataset)["tumor_extent"] == extent


@pytest.mark.parametrize(
    ("text", "stage"), [("Incidental carcinoma, clinical stage T1b.", "pt1b"), ("cT1a.", "pt1a")]
)
def test_an_incidental_carcinoma_clinical_t1(text, stage):
    assert extract(text, "histai")["pt_stage"] == stage


# -- names and other structures -----------------------------------------------------------------
@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_an_atypical_lipomatous_tumour_is_a_well_differentiated_liposarcoma(dataset):
    alt = extract("Retroperitoneal mass: atypical lipomatous tumour, 18 cm.", dataset)
    wdl = extract("Retroperitoneal mass: well-differentiated liposarcoma, 18 cm.", dataset)
    assert alt["diagnosis"] == wdl["diagnosis"] == "sarcoma"
    assert alt.get("benign_vs_malignant") == wdl.get("benign_vs_malignant")


@pytest.mark.parametrize(
    "text",
    ["Encapsulated; the capsule is focally breached.", "Tumour capsule present, focally invaded."],
)
def test_a_breached_capsule_is_capsular_invasion(text):
    assert extract(text, "tcga")["capsular_invasion"] == "present"


@pytest.mark.parametrize(
    ("text", "organ"),
    [
        ("Thymoma, type AB, invades the pericardium.", "pericardium"),
        ("Mesothelioma invading the diaphragm.", "diaphragm"),
    ],
)
def test_the_pericardium_and_diaphragm_as_involved_structures(text, organ):
    assert extract(text, "tcga")["organ_involvement"] == organ


def test_a_thymectomy_and_a_masaoka_koga_stage_without_its_word():
    fields = extract("Thymectomy: thymoma type B1, Masaoka-Koga IIa.", "tcga")
    assert fields["organ_site"] == "thymus"
    assert fields["stage_group"] == "iia"


@pytest.mark.parametrize(
    ("text", "activity"),
    [
        ("Chronic gastritis, mildly active.", "chronic active"),
        ("Active chronic inflammation of the antrum.", "chronic active"),
    ],
)
def test_reg_gastritis_activity_after_the_entity(text, activity):
    assert extract(text, "reg2025")["inflammation_activity"] == activity


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        (
            "Bladder, TURBT: high-grade urothelial carcinoma, lamina propria invaded.",
            "lamina propria",
        ),
        (
            "TURBT: urothelial carcinoma; detrusor muscle present, involved by tumour.",
            "muscularis propria",
        ),
    ],
)
def test_reg_layer_then_what_the_tumour_did(text, depth):
    assert extract(text, "reg2025")["invasion_depth"] == depth


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Duodenum: an increase in intraepithelial lymphocytes.", "present"),
        ("Duodenum: IELs raised.", "present"),
        ("Duodenum: IEL count not raised.", "absent"),
    ],
)
def test_intraepithelial_lymphocytes_raised_or_not(dataset, text, status):
    assert extract(text, dataset)["intraepithelial_lymphocytosis"] == status


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_glomeruli_with_crescents_and_none_sclerosed(dataset):
    fields = extract(
        "Kidney biopsy: 22 glomeruli, none globally sclerosed. "
        "4 glomeruli show fibrocellular crescents.",
        dataset,
    )
    assert fields["global_glomerulosclerosis"] == "0/22"
    assert fields["glomerular_crescents"] == "4"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_subacute_thyroiditis_is_not_the_autoimmune_one(dataset):
    subacute = extract("Thyroid: subacute granulomatous (de Quervain) thyroiditis.", dataset)
    autoimmune = extract("Thyroid: chronic lymphocytic (Hashimoto) thyroiditis.", dataset)
    assert subacute["diagnosis"] == "granulomatous thyroiditis"
    assert autoimmune["diagnosis"] == "thyroiditis"


def test_a_weiss_score_is_no_nottingham_score():
    fields = extract("Adrenal cortical carcinoma, Weiss score 5/9.", "tcga")
    assert "nottingham_score" not in fields


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
@pytest.mark.parametrize(
    "text", ["Prostate: acinar carcinoma, Gleason 3+4=7.", "Gland-forming carcinoma."]
)
def test_a_glandular_carcinoma_is_an_adenocarcinoma(dataset, text):
    assert extract(text, dataset)["diagnosis"] == "adenocarcinoma"


def test_an_acinar_cell_carcinoma_stays_its_own_entity():
    assert extract("Pancreas: acinar cell carcinoma.", "tcga")["diagnosis"] != "adenocarcinoma"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("ER - positive (90%), PR - negative, HER2/neu - 2+ (equivocal).", "equivocal"),
        ("HER2 - 3+.", "positive"),
        ("ER -, PR -, HER2 -.", "negative"),
    ],
)
def test_a_dash_before_a_her2_score_is_no_sign(dataset, text, status):
    assert extract(text, dataset)["her2_status"] == status


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_margin_free_but_close_is_close(dataset):
    text = "Lateral margins clear (8 mm); deep margin free but close, at 1 mm."
    assert extract(text, dataset)["margin_status"] == "close"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_reflux_type_changes_are_a_reflux_oesophagitis(dataset):
    named = extract("Distal oesophagus, biopsy: reflux oesophagitis.", dataset)
    described = extract("Distal oesophagus, biopsy: reflux-type changes.", dataset)
    assert named["diagnosis"] == described["diagnosis"] == "esophagitis"


@pytest.mark.parametrize(
    ("text", "procedure"),
    [
        ("Percutaneous kidney core: oncocytoma.", "biopsy"),
        ("Endometrial aspirate (Pipelle): proliferative endometrium.", "biopsy"),
        ("Snared polyp, sigmoid colon: tubular adenoma.", "endoscopic resection"),
        ("RUL wedge: carcinoid tumour.", "surgical resection"),
    ],
)
def test_reg_procedures_by_their_sample(text, procedure):
    assert extract(text, "reg2025")["specimen_type"] == procedure


def test_histai_organisms_procedures_and_margins_in_other_words():
    assert extract("ZN stain: scanty acid-fast rods.", "histai")["organisms"] == "mycobacteria"
    assert extract("Wedge of RUL: hamartoma.", "histai")["specimen_type"] == "wedge resection"
    staple = extract("Carcinoid, negative staple margin (4 mm).", "histai")
    assert staple["margin_status"] == "negative"
    scraping = extract("Scraping from the uterine cavity: secretory endometrium.", "histai")
    assert scraping["specimen_type"] == "curettage"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_hepatitides_and_a_fibrosis_stage_before_its_system(dataset):
    viral = extract("Liver, core: chronic hepatitis C, A1, F2 on the METAVIR scale.", dataset)
    assert viral["diagnosis"] == "hepatitis"
    assert viral["fibrosis_stage"] == "metavir stage 2"
    assert extract("Liver, core: HBV hepatitis.", dataset)["diagnosis"] == "hepatitis"
    autoimmune = extract("Liver, core: autoimmune hepatitis.", dataset)
    assert autoimmune["diagnosis"] == "autoimmune hepatitis"


def test_reg_a_primary_named_after_its_origin():
    text = "Liver, core: metastatic adenocarcinoma, CK20+, consistent with origin from the lung."
    assert extract(text, "reg2025")["primary_site"] == "lung"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_a_hodgkin_subtype_by_its_initials_and_a_node_by_its_region(dataset):
    fields = extract("Excised right supraclavicular node: cHL, NS type.", dataset)
    assert fields["histologic_type"] == "hodgkin + nodular sclerosis"
    assert fields["organ_site"] == "lymph node"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_isolated_tumour_cells_by_their_initials_make_no_node_positive(dataset):
    fields = extract("Axillary dissection: ITC only, 1 of 12 nodes; pN0(i+).", dataset)
    assert fields["lymph_node_involvement"] == "0/12"
    assert fields["nodal_metastasis_size"] == "isolated tumor cells"
