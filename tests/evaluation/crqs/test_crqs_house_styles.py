"""Conventions of reports written in other house styles: European, Asian and translated wording.

Each case pairs a wording that had been misread with the fact it states. A decimal comma
("3,4 cm"), the French node count ("2 N+ / 15 N"), a margin called a limit ("limits of exeresis
healthy"), "epidermoid carcinoma", a stain's sign written apart ("CK7 -"), "Ki-67(+, 35%)" and
"ISUP/WHO grade" state the same facts as their usual spellings; "Ishak stage 4" and "peritoneal
cytology" are not what they had been read as (a stage group, the specimen).
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair
from pathreport.evaluation.crqs.text import normalise


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # Numbers and counts written the European way.
        ("tcga", "Left kidney, partial nephrectomy: clear cell renal cell carcinoma, 3,4 cm.",
         "tumor_size", 3.4),
        ("histai", "Skin, shave: basal cell carcinoma, 0,7 cm, margins clear.", "tumor_size", 0.7),
        ("reg2025", "Breast, right, core needle biopsy;\n  Invasive carcinoma of no special type, "
         "1,6 cm", "tumor_size", 1.6),
        ("tcga", "Axillary dissection: metastatic carcinoma, lymph nodes 2 N+ / 15 N.",
         "lymph_node_involvement", "2/15"),
        ("tcga", "Pelvic lymph nodes: 0N+/9N.", "lymph_nodes_examined", "9"),
        # A margin called a limit, healthy when free; a tumour touching it.
        ("tcga", "Sigmoid colectomy: adenocarcinoma. Limits of exeresis healthy.",
         "margin_status", "negative"),
        ("tcga", "Wide excision: melanoma. The deep limit is healthy.", "margin_status",
         "negative"),
        ("histai", "Parotid, superficial parotidectomy: pleomorphic adenoma in focal contact with "
         "the limit of exeresis.", "margin_status", "positive"),
        ("reg2025", "Skin, back, excision;\n  Basal cell carcinoma, nodular type\n  Note) The "
         "tumour touches the deep margin.", "margin_status", "involved"),
        ("reg2025", "Skin, cheek, excision;\n  Squamous cell carcinoma\n  Note) The margins are "
         "all negative.", "margin_status", "free"),
        # Names of entities and findings.
        ("tcga", "Lung, left lower lobectomy: epidermoid carcinoma, moderately differentiated.",
         "diagnosis", "squamous cell carcinoma"),
        ("reg2025", "Larynx, biopsy;\n  Invasive epidermoid carcinoma", "diagnosis",
         "squamous cell carcinoma"),
        ("tcga", "Stomach, gastrectomy: adenocarcinoma with vascular tumor thrombus.",
         "lymphovascular_invasion", "present"),
        ("reg2025", "Stomach, endoscopic submucosal dissection;\n  Adenocarcinoma, well "
         "differentiated\n  Note) No nerve invasion.", "perineural_invasion", "absent"),
        ("tcga", "Mandible, resection: the mass proved to be conventional ameloblastoma.",
         "diagnosis", "unlisted: conventional ameloblastoma"),
        ("tcga", "Sacrum, resection: high-grade chordoma, dedifferentiated.", "diagnosis",
         "unlisted: chordoma"),
        ("tcga", "Tibia, resection: high-grade osteosarcoma, chondroblastic.", "diagnosis",
         "sarcoma"),
        ("reg2025", "Colon, hepatic flexure, biopsy;\n  Tubular adenoma with low grade dysplasia",
         "organ_site", "colon"),
        ("tcga", "Ovary, left, oophorectomy: mucinous tumor of borderline malignancy.",
         "benign_vs_malignant", "premalignant"),
        # Stains and molecular results.
        ("histai", "IHC: CK20 +, SATB2 +, CK7 -, TTF1 -.", "ihc_markers",
         "ck7 negative + ttf-1 negative + ck20 + satb2"),
        ("tcga", "Lymph node, excision: classic Hodgkin lymphoma. EBER in situ hybridization "
         "positive; CD20 -.", "ihc_markers", "cd20 negative + eber"),
        ("histai", "Lymph node: diffuse large B-cell lymphoma. EBER in situ hybridisation "
         "negative.", "ihc_markers", "eber negative"),
        ("tcga", "Breast: invasive carcinoma. Ki-67(+, 35%).", "ki67_index", 35.0),
        ("tcga", "Brain, resection: glioblastoma. Amplification of EGFR.", "egfr_status",
         "amplified"),
        # A negation in the sentence before does not reach the amplification.
        ("tcga", "Brain: glioma. IDH1 and IDH2 not mutated. Amplification of EGFR.", "egfr_status",
         "amplified"),
        ("tcga", "Brain: glioma. IDH1 and IDH2 not mutated.", "idh_status", "wild type"),
        ("histai", "Breast, core biopsy: invasive carcinoma, HER2 2+ (equivocal); in situ "
         "hybridisation shows amplification of HER2.", "her2_status", "positive"),
        ("tcga", "Lung, lobectomy: adenocarcinoma. EGFR: exon 21 L858R mutation present.",
         "egfr_status", "mutant"),
        ("tcga", "Lung, lobectomy: adenocarcinoma. EGFR: deletion of exon 19.", "egfr_status",
         "mutant"),
        # Grades, sizes and sites.
        ("tcga", "Kidney, nephrectomy: clear cell renal cell carcinoma, ISUP/WHO grade 2.",
         "nuclear_grade", "2"),
        ("tcga", "Kidney, nephrectomy: renal cell carcinoma, WHO/ISUP nucleolar grade 2, "
         "measuring 41 x 30 x 25 mm.", "tumor_size", 4.1),
        ("tcga", "Breast, excision: ductal carcinoma in situ, extent 23 mm.", "tumor_size", 2.3),
        ("tcga", "Breast, mastectomy: ductal carcinoma in situ spanning 6.5 cm.", "tumor_size",
         6.5),
        ("tcga", "Thyroid, total thyroidectomy: papillary carcinoma. ETE: present.",
         "invasion_status", "present"),
        ("tcga", "Stomach, distal gastrectomy: adenocarcinoma of the small curvature.",
         "tumor_site", "lesser curvature"),
        ("tcga", "Esophagus, resection: adenocarcinoma of the oesogastric junction.", "tumor_site",
         "cardia"),
        # Wordings of paraphrased TCGA reports.
        ("tcga", "Leiomyosarcoma, 17 cm, with tumor present at the left internal iliac vein "
         "margin; the vena cava margin is free of tumor.", "margin_status", "positive"),
        ("tcga", "Thyroid: papillary carcinoma.\n- Lymph nodes: benign.", "lymph_node_involvement",
         "absent"),
        ("tcga", "Papillary carcinoma, encapsulated, with no evidence of invasion into blood "
         "vessels.", "lymphovascular_invasion", "absent"),
        # Procedures.
        ("histai", "Lymph node, station 7, EBUS-TBNA: metastatic adenocarcinoma.",
         "specimen_type", "cytology"),
        # French: "sans particularité", "pas d'argument pour".
        ("histai", "Duodenum, biopsies: duodenal mucosa without particularity.", "diagnosis",
         "normal mucosa"),
        ("histai", "Duodenum, biopsies: no histological argument for coeliac disease.",
         "excluded_entities", "coeliac disease"),
    ],
)  # fmt: skip
def test_a_house_style_wording_states_the_usual_fact(dataset, text, field, value):
    assert extract(text, dataset)[field] == value


@pytest.mark.parametrize(
    ("dataset", "text", "field"),
    [
        ("tcga", "Liver: chronic hepatitis C with bridging fibrosis (Ishak stage 4).",
         "stage_group"),
        ("tcga", "Liver biopsy: steatohepatitis; bridging fibrosis (stage 3).", "stage_group"),
        ("tcga", "Liver biopsy: chronic hepatitis B, grade 2, stage 3 (Scheuer).", "stage_group"),
        ("tcga", "Liver biopsy: chronic hepatitis B, grade 2, stage 3 (Scheuer).", "tumor_grade"),
        ("histai", "Liver biopsy: chronic hepatitis C, grade 1, stage 2 (METAVIR).", "tumor_grade"),
        ("tcga", "Stomach, wedge resection: gastrointestinal stromal tumour, spindle cell "
         "morphology.", "divergent_differentiation"),
        ("tcga", "Ovary, right: serous cystadenoma. Peritoneal cytology negative.",
         "specimen_type"),
        ("histai", "Ovary, right: serous cystadenoma. Peritoneal cytology negative.",
         "specimen_type"),
    ],
)  # fmt: skip
def test_a_wording_that_names_another_fact_is_not_read_as_this_field(dataset, text, field):
    assert field not in extract(text, dataset)


def test_a_margin_direction_before_a_distance_is_no_tumour_size():
    text = (
        "Breast, left, lumpectomy;\n  Ductal carcinoma in situ, extent 15 mm\n"
        "  Note) Nearest margin: anterior, 2 mm."
    )
    fields = extract(text, "reg2025")
    assert fields["tumor_size"] == 1.5 and fields["margin_distance"] == 0.2


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_the_axilla_is_its_nodes_side(dataset):
    labelled = "Lymph node, left axilla, sentinel lymph node biopsy: metastatic carcinoma (1/3)."
    adjective = "Left axillary sentinel lymph nodes, excision: metastatic carcinoma in 1 of 3."
    assert extract(labelled, dataset)["lateral_sites"] == "left node"
    assert extract(adjective, dataset)["lateral_sites"] == "left node"


def test_a_wedge_resection_is_no_lobectomy():
    fields = extract("Stomach, wedge resection: gastrointestinal stromal tumour.", "tcga")
    assert "lobectomy" not in fields["specimen_type"]


@pytest.mark.parametrize(
    ("raw", "normalised"),
    [
        ("Tumour 2,8 cm; margin 0,5 mm; 2,5 x 1,5 cm.",
         "tumor 2.8 cm; margin 0.5 mm; 2.5 x 1.5 cm."),
        # A thousands separator and a list of numbers keep their commas.
        ("Weight 1,250 g; levels 1,2,3 cm apart.", "weight 1,250 g; levels 1,2,3 cm apart."),
        ("Lymph nodes: 1 N+ / 23 N.", "lymph nodes: 1/23."),
        ("Proximal, distal and radial limits of exeresis healthy.",
         "proximal, distal and radial margins free."),
        ("Vaginal limit of exeresis healthy; upper limit of normal.",
         "vaginal margin free; upper limit of normal."),
    ],
)  # fmt: skip
def test_normalisation_of_european_conventions(raw, normalised):
    assert normalise(raw) == normalised


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_a_three_tier_nuclear_grade_in_words_or_numbers_is_one_fact(dataset):
    words = "Breast, excision: ductal carcinoma in situ, high nuclear grade."
    number = "Breast, excision: ductal carcinoma in situ, nuclear grade 3."
    assert score_pair(words, number, dataset).CRQS == 1.0
    intermediate = "Breast, excision: ductal carcinoma in situ, nuclear grade 2."
    assert score_pair(words, intermediate, dataset).CRQS < 0.99


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_tumour_thrombus_ruled_out_is_no_tumour_free_site(dataset):
    with_thrombus = (
        "Skin, excision: squamous cell carcinoma; no definite vascular tumor thrombus; "
        "the margins are all negative."
    )
    without = "Skin, excision: squamous cell carcinoma; the margins are all negative."
    assert extract(with_thrombus, dataset)["tumor_free_sites"] == "1"
    assert extract(without, dataset)["tumor_free_sites"] == "1"
    assert extract(with_thrombus, dataset)["lymphovascular_invasion"] == "absent"
