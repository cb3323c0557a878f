"""Wordings of the 51st schema versions: the adjectives that writers of Romance languages put
after the nouns of findings, sites and margins ("invasion perineural", "lobe left", "margins
lateral and deep"), read as their English order is, while English word order keeps its reading."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        ("tcga", "Colon resection. Invasion perineural present.", "perineural_invasion", "present"),
        (
            "tcga",
            "Colon resection. Invasion lymphovascular not identified.",
            "lymphovascular_invasion",
            "absent",
        ),
        ("tcga", "Adenocarcinoma. Necrosis tumoral absent.", "necrosis", "absent"),
        (
            "tcga",
            "Papillary carcinoma, 1.2 cm. Extension extrathyroidal not identified.",
            "extrathyroidal_extension",
            "absent",
        ),
        ("tcga", "Papillary carcinoma in the lobe left, 1.2 cm.", "lateral_sites", "left lobe"),
        ("tcga", "Adenocarcinoma. Margin deep involved by tumour.", "margin_involved", "deep"),
        (
            "tcga",
            "Adenocarcinoma of the colon. Fat pericolic infiltrated.",
            "invasion_depth",
            "perivisceral fat",
        ),
        ("tcga", "Hepatocellular carcinoma, nodule single of 3 cm.", "tumor_focality", "unifocal"),
        (
            "reg2025",
            "Breast, core biopsy;\nCarcinoma ductal infiltrating, grade histologic 3",
            "tumor_grade",
            "3",
        ),
        (
            "reg2025",
            "Ovary, left, cystectomy;\nTeratoma cystic mature",
            "diagnosis",
            "mature teratoma",
        ),
        (
            "reg2025",
            "Lymph node, excision;\nLymphadenitis granulomatous necrotizing",
            "diagnosis",
            "granulomatous inflammation",
        ),
        (
            "histai",
            "Colon ascending, polypectomy: lesion serrated sessile without dysplasia.",
            "polyp_type",
            "sessile serrated lesion",
        ),
        (
            "histai",
            "Colon ascending, polypectomy: lesion serrated sessile without dysplasia.",
            "tumor_site",
            "ascending colon",
        ),
        (
            "histai",
            "Oesophagus, biopsy: mucosa squamous with esophagitis eosinophilic.",
            "diagnosis",
            "eosinophilic esophagitis",
        ),
    ],
)
def test_adjectives_after_their_noun_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # "infiltrating" is the carcinoma's verb when an object follows it
        (
            "tcga",
            "Urothelial carcinoma infiltrating deep detrusor muscle.",
            "diagnosis",
            "urothelial carcinoma",
        ),
        (
            "tcga",
            "Urothelial carcinoma infiltrating deep detrusor muscle.",
            "invasion_depth",
            "muscularis propria",
        ),
        (
            "tcga",
            "Gastrectomy: adenocarcinoma infiltrating the subserosa.",
            "invasion_depth",
            "subserosa",
        ),
        # a side after a carcinoma belongs to the organ after it
        ("tcga", "Carcinoma right breast, excision.", "lateral_sites", "right breast"),
        # a DCIS keeps its name when the adjectives before "in situ" move
        (
            "reg2025",
            "Breast, excision;\nCarcinoma ductal in situ, grade nuclear high",
            "nuclear_grade",
            "high",
        ),
        (
            "reg2025",
            "Colon, biopsy;\nColitis chronic active with cryptitis",
            "inflammation_activity",
            "chronic active",
        ),
    ],
)
def test_english_word_order_keeps_its_reading(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "postposed", "english"),
    [
        (
            "tcga",
            "Thyroidectomy. Papillary carcinoma, variant classic, in the lobe right, 2 cm. "
            "Extension extrathyroidal and invasion vascular not identified. Lobe left free.",
            "Thyroidectomy: classic papillary carcinoma of the right lobe, 20 mm, without "
            "extrathyroidal extension or vascular invasion. Left lobe free.",
        ),
        (
            "histai",
            "Skin of the back, excision: basal cell carcinoma, margins lateral and deep free of "
            "tumour.",
            "Excision, skin of back: basal cell carcinoma; peripheral and deep margins clear.",
        ),
    ],
)
def test_a_postposed_report_agrees_with_its_english_rewrite(dataset, postposed, english):
    assert score_pair(postposed, english, dataset).CRQS >= 0.99


def test_a_swapped_lobe_is_discordant():
    right = "Thyroidectomy. Papillary carcinoma in the lobe right, 2 cm. Lobe left free of tumour."
    left = "Thyroidectomy. Papillary carcinoma in the lobe left, 2 cm. Lobe right free of tumour."
    assert score_pair(right, left, "tcga").CRQS < 0.9


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # HER2 "not overexpressed" is its negative IHC result; ISH "shows amplification" positive.
        ("tcga", "Invasive ductal carcinoma. HER2 not overexpressed.", "her2_status", "negative"),
        (
            "tcga",
            "HER2 IHC 2+, in situ hybridisation shows amplification (ratio 2.9).",
            "her2_status",
            "positive",
        ),
        # the coding-DNA change between a gene and its result
        ("tcga", "Melanoma. BRAF c.1799T>A (p.V600E) mutation detected.", "braf_status", "mutant"),
        ("tcga", "Adenocarcinoma. KRAS c.35G>A (G12D) mutation detected.", "kras_status", "mutant"),
        # a share in words is the percentage
        (
            "reg2025",
            "Prostate, needle biopsy;\nAcinar adenocarcinoma, Gleason 3+3=6, involving one tenth "
            "of the core",
            "tumor_volume",
            10.0,
        ),
        (
            "reg2025",
            "Prostate, needle biopsy;\nAcinar adenocarcinoma, Gleason 3+4=7, two-thirds of the "
            "tissue involved",
            "tumor_volume",
            67.0,
        ),
        (
            "histai",
            "Scalp, shave: intraepidermal SCC (Bowen's disease).",
            "diagnosis",
            "squamous cell carcinoma in situ",
        ),
        # a cyst named beside the entity it is
        (
            "reg2025",
            "Left ovarian cyst, excised;\nMucinous cystadenoma, 6 cm",
            "diagnosis",
            "cystadenoma",
        ),
        # nodes measured after "of" are no count
        (
            "histai",
            "Axillary sentinel nodes: two lymph nodes of 1.2 and 0.6 cm, no metastasis (0/2).",
            "lymph_node_involvement",
            "0/2",
        ),
    ],
)
def test_results_shares_and_entities_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # a dissection that was not done is no procedure
        (
            "tcga",
            "Radical prostatectomy: acinar adenocarcinoma. No lymph node dissection.",
            "specimen_type",
            "prostatectomy",
        ),
        # the neck's levels are no cervix; the thyroid cartilage is no thyroid
        (
            "reg2025",
            "Right cervical level II neck dissection;\nMetastatic squamous cell carcinoma "
            "in 1 of 14 lymph nodes",
            "organ_site",
            "lymph node",
        ),
        (
            "tcga",
            "Total laryngectomy: squamous cell carcinoma of the glottis invading the thyroid "
            "cartilage.",
            "organ_site",
            "head and neck",
        ),
        # a third named by its place is that place, not a percentage
        (
            "histai",
            "Cervix: dysplasia in the lower one third of the epithelium.",
            "percentages",
            None,
        ),
    ],
)
def test_named_absences_and_places_add_nothing(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # a lesion present at a named margin involves it
        (
            "histai",
            "Cone of the cervix: HSIL (CIN 3). HSIL present at the endocervical margin; "
            "ectocervical margin negative.",
            "margin_status",
            "positive",
        ),
        # Barrett's intestinal metaplasia by its goblet cells
        (
            "histai",
            "Distal oesophagus, biopsy: columnar metaplasia with goblet cells present.",
            "intestinal_metaplasia",
            "present",
        ),
        (
            "histai",
            "Distal oesophagus, biopsy: no columnar metaplasia with goblet cells.",
            "intestinal_metaplasia",
            "absent",
        ),
        # the primary named before its tumour
        (
            "tcga",
            "Lung, core biopsy: in keeping with primary lung adenocarcinoma.",
            "primary_site",
            "lung",
        ),
        (
            "reg2025",
            "Lung, biopsy;\nAdenocarcinoma, consistent with primary lung adenocarcinoma",
            "primary_site",
            "lung",
        ),
        # a sarcoma's subtype after a comma
        (
            "tcga",
            "Retroperitoneum, resection: liposarcoma, dedifferentiated type, 15 cm.",
            "histologic_type",
            "dedifferentiated liposarcoma",
        ),
        # follicular lymphoma by its initials beside its markers
        (
            "histai",
            "Lymph node, excision. CD20, CD10 and BCL2 positive. Impression: FL, grade 1-2.",
            "histologic_type",
            "follicular",
        ),
    ],
)
def test_margins_metaplasia_primaries_and_subtypes_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


def test_a_list_number_after_the_lymphocytes_is_no_count():
    text = (
        "Duodenum, biopsy;\n1. Villous atrophy with increased intraepithelial lymphocytes\n"
        "2. Giardia trophozoites present"
    )
    assert extract(text, "histai").get("intraepithelial_lymphocytes") is None


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # p53's pattern before its marker, or after it with its adjective last
        (
            "reg2025",
            "Endometrium, biopsy;\nEndometrioid adenocarcinoma with an aberrant, "
            "mutation-type p53 staining pattern",
            "p53_status",
            "aberrant",
        ),
        (
            "reg2025",
            "Endometrium, biopsy;\n1. Endometrioid adenocarcinoma\n2. p53: pattern aberrant",
            "p53_status",
            "aberrant",
        ),
        # the Marsh type of a REG duodenal biopsy
        ("reg2025", "Duodenum, biopsy;\nVillous atrophy (Marsh 3b)", "marsh_type", "3b"),
        # a quadrantectomy is a breast's
        (
            "tcga",
            "Left upper outer quadrantectomy: invasive ductal carcinoma, 21 mm.",
            "lateral_sites",
            "left breast",
        ),
        (
            "tcga",
            "Left upper outer quadrantectomy: invasive ductal carcinoma, 21 mm.",
            "organ_site",
            "breast",
        ),
        # a prostate carcinoma confined to it, without "the"
        (
            "tcga",
            "Prostatectomy: acinar adenocarcinoma, confined to prostate, pT2.",
            "extraprostatic_extension",
            "absent",
        ),
        # the invaded and total thickness of the myometrium before the share
        (
            "tcga",
            "Serous carcinoma of the endometrium, myometrial invasion 4 of 16 mm (25%).",
            "myometrial_invasion",
            "less than half",
        ),
        # Haggitt's level of a malignant polyp
        (
            "histai",
            "Sigmoid polyp: adenocarcinoma in a tubular adenoma, invading the stalk "
            "(Haggitt level 2).",
            "haggitt_level",
            "2",
        ),
        ("tcga", "Polypectomy: adenocarcinoma, Haggitt level IV.", "haggitt_level", "4"),
    ],
)
def test_p53_marsh_breast_and_depth_wordings_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


def test_a_haggitt_level_changed_is_discordant():
    level_2 = "Sigmoid polyp: adenocarcinoma invading the stalk (Haggitt level 2). Margin clear."
    level_4 = "Sigmoid polyp: adenocarcinoma invading the stalk (Haggitt level 4). Margin clear."
    assert score_pair(level_2, level_4, "histai").CRQS < score_pair(level_2, level_2, "histai").CRQS


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "Total laryngectomy: SCC with invasion of the inner cortex of the thyroid cartilage.",
            "laryngeal cartilage",
        ),
        (
            "Laryngectomy: squamous cell carcinoma. Thyroid cartilage invasion present.",
            "laryngeal cartilage",
        ),
        ("Laryngectomy: squamous cell carcinoma. Thyroid cartilage invasion absent.", None),
        ("Laryngectomy: squamous cell carcinoma without invasion of the thyroid cartilage.", None),
        ("Thyroidectomy: the carcinoma invades the thyroid.", "thyroid"),
    ],
)
def test_the_laryngeal_cartilage_invaded_is_no_thyroid(text, value):
    assert extract(text, "tcga").get("organ_involvement") == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # an adrenal carcinoma's capsule and vessels invaded, in one clause
        (
            "tcga",
            "Adrenal cortical carcinoma. Tumor invades the capsule and vessels.",
            "lymphovascular_invasion",
            "present",
        ),
        (
            "tcga",
            "Adrenal cortical carcinoma; the capsule and veins are invaded.",
            "capsular_invasion",
            "present",
        ),
        # the kind of a lymphadenitis after it
        ("histai", "Cervical lymph node: lymphadenitis, tubercular.", "diagnosis", "tuberculosis"),
        ("histai", "Cervical lymph node: lymphadenitis tuberculous.", "diagnosis", "tuberculosis"),
    ],
)
def test_capsule_vessels_and_lymphadenitis_kinds_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # a metastasis "not identified in 2 nodes" counts no positive node
        (
            "histai",
            "Sentinel nodes: metastatic melanoma not identified in 2 sentinel lymph nodes (0/2).",
            "lymph_node_involvement",
            "0/2",
        ),
        # mismatch repair proteins whose staining is absent
        (
            "reg2025",
            "Endometrium, curettage;\nEndometrioid adenocarcinoma; absent nuclear staining "
            "for MLH1 and PMS2 with intact MSH2 and MSH6",
            "mmr_proteins_lost",
            "mlh1 + pms2",
        ),
        (
            "tcga",
            "Adrenal cortical carcinoma.\nInvasion - capsule and veins involved.",
            "lymphovascular_invasion",
            "present",
        ),
        # a chronic hepatitis's stage after its grade, or named by Desmet and Scheuer's system
        (
            "reg2025",
            "Liver, needle biopsy;\nChronic hepatitis, grade 2, stage 3 (Desmet-Scheuer)",
            "fibrosis_stage",
            "stage 3",
        ),
        (
            "tcga",
            "Liver biopsy: chronic hepatitis B, grade 1, stage 2.",
            "fibrosis_stage",
            "stage 2",
        ),
        # a breast's segmentectomy is its segmental excision
        (
            "tcga",
            "Left breast, segmentectomy. Invasive carcinoma of no special type, grade 3.",
            "specimen_type",
            "lumpectomy",
        ),
        ("tcga", "Right lower lobe segmentectomy: adenocarcinoma.", "specimen_type", "lobectomy"),
        (
            "histai",
            "Gastric cardia biopsies: poorly cohesive gastric carcinoma with signet-ring cells.",
            "diagnosis",
            "adenocarcinoma",
        ),
        (
            "histai",
            "Cervical lymph node, excision: reactive lymphadenitis.",
            "diagnosis",
            "reactive lymphoid hyperplasia",
        ),
    ],
)
def test_counts_proteins_stages_and_specimens_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


def test_a_cause_to_correlate_for_is_no_finding():
    text = (
        "Reactive lymphadenitis with non-necrotising granulomas; kindly correlate for tuberculosis."
    )
    assert extract(text, "histai").get("findings") == (
        "reactive lymphoid hyperplasia + granulomatous inflammation"
    )


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # a lung adenocarcinoma's pattern says more than "non-mucinous"
        (
            "Lobectomy: invasive non-mucinous adenocarcinoma, acinar predominant.",
            "histologic_type",
            "acinar",
        ),
        ("Lobectomy: invasive non-mucinous adenocarcinoma.", "histologic_type", "non-mucinous"),
        # a structure "not breached" is not invaded
        ("Lobectomy: adenocarcinoma. Visceral pleura not breached.", "pleural_invasion", "absent"),
        # a synoptic "Extension:" heading and the structure reached
        (
            "Nephrectomy: renal cell carcinoma.\nExtension: into renal sinus fat; Gerota fascia "
            "not breached.",
            "organ_specific_invasion",
            "present",
        ),
    ],
)
def test_lung_types_breaches_and_extension_headings_are_read(text, field, value):
    assert extract(text, "tcga").get(field) == value


@pytest.mark.parametrize(
    "text",
    [
        "Total gastrectomy: adenocarcinoma. Proximal (esophageal) and distal (duodenal) margins "
        "are free.",
        "Total gastrectomy: adenocarcinoma. Oesophageal (proximal) and duodenal (distal) margins "
        "clear.",
        "Total gastrectomy: adenocarcinoma. Esophageal and duodenal margins clear.",
    ],
)
def test_the_organs_that_name_a_margin_are_no_organs_of_the_specimen(text):
    assert extract(text, "tcga").get("organ_site") == "stomach"


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        (
            "histai",
            "Skin: basal cell carcinoma, nodular type, with mucinous stroma.",
            "histologic_type",
            "nodular",
        ),
        # a grade denied is no grade
        (
            "histai",
            "Polypectomy: tubular adenomas (n=3), low-grade dysplasia, no high-grade areas.",
            "tumor_grade",
            None,
        ),
        (
            "histai",
            "TURP: incidental focus of acinar prostate cancer, Gleason 6.",
            "diagnosis",
            "adenocarcinoma",
        ),
        # extranodal spread is no count of nodes
        (
            "histai",
            "Lymphadenectomy, right groin: melanoma metastases in two of nine nodes; "
            "extracapsular (extranodal) spread is seen in one node.",
            "lymph_node_involvement",
            "2/9",
        ),
        (
            "reg2025",
            "Lung, core biopsy;\nAdenocarcinoma; tumor cells are immunoreactive for TTF-1 "
            "and nonreactive for p40",
            "ihc_markers",
            "p40 negative + ttf-1",
        ),
        # "negative for A and for B": one negation of the list
        (
            "histai",
            "Right breast, excision: fibrocystic change. Negative for atypical hyperplasia "
            "and for in situ or invasive malignancy.",
            "invasion_status",
            "absent",
        ),
    ],
)
def test_stroma_denied_grades_markers_and_repeated_prepositions_are_read(
    dataset, text, field, value
):
    assert extract(text, dataset).get(field) == value


def test_a_count_of_adenomas_written_as_n_is_read():
    text = "Sigmoid polypectomies. Conclusion: tubular adenomas (n=3), low-grade dysplasia."
    assert extract(text, "histai").get("polyp_count") == "3"


def test_every_component_of_a_mixed_germ_cell_tumour_is_its_type():
    text = (
        "Left radical orchiectomy: mixed germ cell tumour, embryonal carcinoma 70% and teratoma "
        "30%. Focal choriocarcinoma component present."
    )
    assert extract(text, "tcga").get("histologic_type") == "embryonal + choriocarcinoma + teratoma"
    without = text.replace(" Focal choriocarcinoma component present.", "")
    assert score_pair(text, without, "tcga").CRQS < score_pair(text, text, "tcga").CRQS
