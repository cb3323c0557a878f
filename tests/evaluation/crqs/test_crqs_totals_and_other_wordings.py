"""Stated node totals, ranges of grades, earlier excisions and other facts in wordings that other
writers use: "0/4 left, 0/7 right (total 0/11)", "G2-3", "scar after incomplete excision",
"Lymph nodes 15, none with viable tumour", "a 1.8-cm nodule".

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair

ALL = ["tcga", "histai", "reg2025"]


# -- node totals -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "count"),
    [
        # "0/7 right" names no nodes, so only the left count and the total are read: the total
        # is the count, not their sum.
        ("Pelvic nodes negative: 0/4 left, 0/7 right (total 0/11).", "0/11"),
        ("Lymph nodes: 1/3 hilar, 0/8 mediastinal; 1/11 overall.", "1/11"),
        ("Nodes: 2 of 5 hilar involved, mediastinal 0/6 - 2/11 in total.", "2/11"),
    ],
)
def test_a_stated_total_is_the_count_of_its_parts(text, count):
    fields = extract(text, "tcga")
    assert fields["lymph_node_involvement"] == count
    assert fields["lymph_nodes_examined"] == count.split("/")[1]


def test_a_wrong_total_is_discordant():
    reference = "Prostatectomy. Pelvic nodes negative: 0/4 left, 0/7 right (total 0/11). pN0."
    wrong = reference.replace("(total 0/11)", "(total 1/11)")
    assert "lymph_node_involvement" in score_pair(reference, wrong, "tcga").discordant


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Sentinel nodes: ITC (0.1 mm) in one of three nodes.", "0/3"),
        ("Axillary sentinels: isolated tumour cells (keratin) in 1 of 2 nodes.", "0/2"),
    ],
)
def test_isolated_tumour_cells_with_a_bracket_before_the_count_make_no_node_positive(text, count):
    assert extract(text, "tcga")["lymph_node_involvement"] == count


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Lymph nodes 15, none with viable tumour.", "0/15"),
        ("Nodes 12, two with metastatic carcinoma.", "2/12"),
        ("Eighteen lymph nodes, none with metastatic carcinoma.", "0/18"),
    ],
)
def test_the_examined_number_first_then_how_many_hold_tumour(text, count):
    assert extract(text, "tcga")["lymph_node_involvement"] == count


# -- grades, depth, size ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text", ["Adenocarcinoma, G2-3.", "Adenocarcinoma G2/3.", "Adenocarcinoma, G2-G3."]
)
def test_a_range_of_grades_names_both(text):
    assert extract(text, "tcga")["tumor_grade"] == "2 + 3"


def test_a_single_grade_stays_one():
    assert extract("Adenocarcinoma, G2, pT3.", "tcga")["tumor_grade"] == "2"


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("Adenocarcinoma infiltrating into but not through the muscle wall.", "muscularis propria"),
        ("Carcinoma invading the muscular wall.", "muscularis propria"),
        ("Carcinoma extending beyond the muscular wall into pericolic fat.", "perivisceral fat"),
    ],
)
def test_the_muscle_wall_is_the_muscularis_propria(text, depth):
    assert extract(text, "tcga")["invasion_depth"] == depth


def test_smooth_muscle_fibres_in_the_lamina_propria_invade_nothing():
    text = (
        "Antral mucosa with foveolar hyperplasia, oedema and smooth muscle fibres extending into "
        "the lamina propria. Conclusion: reactive gastropathy."
    )
    fields = extract(text, "histai")
    assert "invasion_status" not in fields
    assert "invasion_depth" not in fields


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("A 1.8-cm firm nodule beneath the pleura: adenocarcinoma.", 1.8),
        ("Thyroid: 23-mm papillary carcinoma of the left lobe.", 2.3),
    ],
)
def test_a_measurement_written_as_an_adjective_is_the_size(dataset, text, size):
    assert extract(text, dataset)["tumor_size"] == size


# -- margins ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
def test_an_earlier_incomplete_excision_is_no_involved_margin(dataset):
    text = (
        "Skin, left forearm, re-excision (scar after incomplete excision of a basal cell "
        "carcinoma); residual basal cell carcinoma. Margins clear, nearest 4 mm."
    )
    assert extract(text, dataset)["margin_status"] in {"free", "negative"}


@pytest.mark.parametrize("dataset", ALL)
def test_an_incomplete_excision_of_this_specimen_is_an_involved_margin(dataset):
    text = "Skin, excision; basal cell carcinoma, incompletely excised at the deep margin."
    assert extract(text, dataset)["margin_status"] in {"involved", "positive"}


@pytest.mark.parametrize("dataset", ALL)
def test_compromise_of_a_margin_is_its_involvement(dataset):
    text = (
        "Skin, nose, shave excision; basal cell carcinoma, with compromise of the deep margin; "
        "lateral margins free of neoplasia."
    )
    assert extract(text, dataset)["margin_status"] in {"involved", "positive"}


def test_clear_of_all_margins_is_a_free_margin_in_reg_style():
    fields = extract("Skin, excision; nodular BCC, clear of all margins.", "reg2025")
    assert fields["margin_status"] == "free"


def test_involvement_of_a_margin_denied_is_no_involved_margin_in_reg_style():
    fields = extract("Skin, excision; BCC, no involvement of the margins.", "reg2025")
    assert fields.get("margin_status") != "involved"


# -- gastritis and liver ---------------------------------------------------------------------------
def test_activity_with_its_grade_and_kind_is_active_gastritis_in_reg_style():
    text = "Stomach, biopsy; chronic gastritis with mild neutrophilic activity, H. pylori present."
    assert extract(text, "reg2025")["inflammation_activity"] == "chronic active"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_pangastritis_is_gastritis(dataset):
    fields = extract("Antrum and corpus biopsies: chronic active pangastritis.", dataset)
    assert fields["diagnosis"] == "gastritis"


def test_pangastritis_keeps_its_type_in_histai_style():
    fields = extract(
        "Conclusion: moderate chronic active pangastritis, H. pylori present.", "histai"
    )
    assert fields["gastritis_type"] == "chronic"


def test_pbc_is_primary_biliary_cholangitis():
    fields = extract("Liver biopsy. Impression: PBC, Ludwig stage 2.", "histai")
    assert fields["diagnosis"] == "primary biliary cholangitis"


# -- microscopic colitis ---------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", ALL)
@pytest.mark.parametrize(
    ("text", "thickness"),
    [
        ("Subepithelial collagen band thickened, up to 30 µm, trapping capillaries.", 30.0),
        ("The collagen table is irregular and thickened, 22 microns at most.", 22.0),
        ("A 14-um thick subepithelial collagen band; collagenous colitis.", 14.0),
    ],
)
def test_the_collagen_band_is_measured_in_micrometres(dataset, text, thickness):
    assert extract(text, dataset)["collagen_band_thickness"] == thickness


def test_a_thinner_collagen_band_is_discordant():
    reference = (
        "Colon, random biopsies. Subepithelial collagen band up to 30 µm. Collagenous colitis."
    )
    wrong = reference.replace("30 µm", "6 µm")
    rewrite = "Random colonic biopsies: collagenous colitis, collagen table 30 microns at most."
    assert "collagen_band_thickness" in score_pair(reference, wrong, "histai").discordant
    assert "collagen_band_thickness" not in score_pair(reference, rewrite, "histai").discordant


# -- precursors, nodes, breast grade, percentages, WHO type ----------------------------------------
@pytest.mark.parametrize(
    ("text", "finding"),
    [
        (
            "Gallbladder: chronic cholecystitis; a focus of high-grade BilIN in the fundus.",
            "biliary intraepithelial neoplasia",
        ),
        ("Pancreas: PanIN-2 in the adjacent ducts.", "pancreatic intraepithelial neoplasia"),
    ],
)
def test_biliary_and_pancreatic_precursors_are_findings(text, finding):
    assert finding in extract(text, "histai")["findings"]


def test_a_denied_precursor_is_no_finding():
    fields = extract("Gallbladder: chronic cholecystitis, no dysplasia or BilIN.", "histai")
    assert "biliary intraepithelial neoplasia" not in fields["findings"]


@pytest.mark.parametrize(
    "text", ["The node at the cystic duct is reactive.", "The lymph nodes are benign."]
)
def test_a_node_stated_reactive_or_benign_holds_no_tumour(text):
    assert extract(text, "histai")["lymph_node_involvement"] == "absent"


@pytest.mark.parametrize(
    ("text", "components", "grade"),
    [
        (
            "Invasive carcinoma NST, Nottingham grade 2 (3/2/2).",
            "mitoses 2 + pleomorphism 2 + tubules 3",
            "2",
        ),
        (
            "Invasive lobular carcinoma, G2 (Nottingham 3+2+1).",
            "mitoses 1 + pleomorphism 2 + tubules 3",
            "2",
        ),
        (
            "Infiltrating ductal carcinoma, SBR grade III (3+3+2).",
            "mitoses 2 + pleomorphism 3 + tubules 3",
            "3",
        ),
    ],
)
def test_the_nottingham_scores_are_read_however_they_are_joined(text, components, grade):
    fields = extract(text, "tcga")
    assert fields["nottingham_components"] == components
    assert fields["tumor_grade"] == grade  # not the first score in the bracket


def test_over_half_is_a_category_not_a_percentage():
    fields = extract("Becker regression grade 3, over 50 % viable residual tumour.", "tcga")
    assert "percentages" not in fields


@pytest.mark.parametrize(
    "text",
    [
        "Antral tubular adenocarcinoma, intestinal type (Lauren).",
        "Adenocarcinoma, intestinal type (Lauren), tubular (WHO).",
    ],
)
def test_the_who_tubular_type_is_read_in_every_wording(text):
    assert extract(text, "tcga")["histologic_type"] == "tubular + intestinal type"


# -- the endocervical curettage --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "status"),
    [
        (
            "1. Cervix, biopsy; HSIL (CIN 3). 2. Endocervical curettage; detached HSIL present.",
            "present",
        ),
        ("Cervix, 3 o'clock biopsy: CIN 2. ECC contains free-floating strips of HSIL.", "present"),
        (
            "Fractional curettage. Endocervical curettings - also contain the same carcinoma.",
            "present",
        ),
        ("Cervix, biopsy: LSIL. Endocervical curettage: negative for dysplasia.", "absent"),
        ("Cervix, biopsy: HSIL. ECC: benign endocervical mucosa, no dysplasia.", "absent"),
    ],
)
def test_the_endocervical_curettage_is_read_on_its_own(text, status):
    assert extract(text, "reg2025")["endocervical_curettage"] == status


def test_an_omitted_positive_curettage_lowers_crqs():
    reference = (
        "Uterine cervix, biopsy and endocervical curettage;\n1. Biopsy at 3 o'clock: HSIL (CIN 3)."
        "\n2. Endocervical curettage: detached fragments of HSIL."
    )
    wrong = reference.split("\n2.")[0]
    rewrite = "Cervix: the 3 o'clock biopsy shows CIN 3 (HSIL); the ECC holds detached HSIL strips."
    assert (
        score_pair(reference, rewrite, "reg2025").CRQS
        > score_pair(reference, wrong, "reg2025").CRQS
    )


# -- negation cues, codes and synonyms -------------------------------------------------------------
def test_a_finding_not_on_its_own_diagnostic_of_barrett_is_no_barrett():
    text = (
        "Cardia-type mucosa with intestinal metaplasia; IM here is not on its own diagnostic "
        "of Barrett's."
    )
    fields = extract(text, "histai")
    assert fields["excluded_entities"] == "barrett esophagus"
    assert "barrett esophagus" not in fields.get("findings", "")


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_nothing_malignant_is_a_denial(dataset):
    fields = extract("Colon polyp: tubular adenoma, low grade. No HGD, nothing malignant.", dataset)
    assert fields["benign_vs_malignant"] != "malignant"


@pytest.mark.parametrize(
    "text",
    [
        "Papillary carcinoma, right lobe, 1.8 cm. Extrathyroidal extension: Ex0.",
        "Papillary thyroid carcinoma, 1.2 cm, Ex0, ly0, v0.",
    ],
)
def test_the_japanese_ex0_is_no_extrathyroidal_extension(text):
    fields = extract(text, "tcga")
    assert fields["extrathyroidal_extension"] == "absent"
    assert fields["organ_specific_invasion"] == "absent"


def test_cin3_explained_in_brackets_is_no_carcinoma():
    fields = extract("Cone: CIN3 (severe dysplasia / carcinoma in situ), margins clear.", "histai")
    assert fields["diagnosis"] == "squamous intraepithelial lesion"
    assert fields["benign_vs_malignant"] == "premalignant"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("VE1 immunostain positive (BRAF V600E).", "mutant"),
        ("BRAF VE1 IHC: negative.", "wild type"),
    ],
)
def test_the_ve1_antibody_reads_braf(text, status):
    assert extract(text, "tcga")["braf_status"] == status


def test_balloon_cell_degeneration_is_ballooning():
    fields = extract("Liver core: steatosis 40% with balloon cell degeneration.", "histai")
    assert fields["hepatocyte_ballooning"] == "present"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_reactive_follicular_and_sinus_hyperplasia_is_reactive_hyperplasia(dataset):
    fields = extract(
        "Groin lymph node excision: reactive follicular and sinus hyperplasia.", dataset
    )
    assert fields["diagnosis"] == "reactive lymphoid hyperplasia"


def test_a_tumour_transected_at_the_base_has_an_involved_margin_in_reg_style():
    text = "Skin, shave: well-differentiated SCC, transected at the base; lateral edges clear."
    assert extract(text, "reg2025")["margin_status"] == "involved"


@pytest.mark.parametrize(
    ("text", "organisms"),
    [
        ("AFB stain negative for acid-fast bacilli.", "mycobacteria negative"),
        (
            "Special stains for mycobacteria (ZN) and fungi (GMS) show no organisms.",
            "fungi negative + mycobacteria negative",
        ),
    ],
)
def test_a_stain_named_with_its_negative_result_finds_no_organism(text, organisms):
    assert extract(text, "histai")["organisms"] == organisms


@pytest.mark.parametrize("dataset", ALL)
def test_numbered_sentinel_nodes_are_parts_of_their_own(dataset):
    text = (
        "B. LYMPH NODE, SENTINEL #1, RIGHT AXILLA, EXCISION:\n"
        "- One lymph node, negative for metastatic carcinoma (0/1).\n"
        "C. LYMPH NODE, SENTINEL #2, RIGHT AXILLA, EXCISION:\n"
        "- One lymph node, negative for metastatic carcinoma (0/1)."
    )
    assert extract(text, dataset)["lymph_node_involvement"] == "0/2"


@pytest.mark.parametrize(
    ("code", "site"), [("Lt", "lower third"), ("Mt", "middle third"), ("Ut", "upper third")]
)
def test_the_japanese_oesophageal_location_is_a_site_not_a_side(code, site):
    text = f"Esophagus, subtotal esophagectomy. Squamous cell carcinoma, {code}, Type 2, 42 mm."
    fields = extract(text, "tcga")
    assert fields["tumor_site"] == site
    assert "laterality" not in fields


def test_lt_beside_another_organ_stays_the_left_side():
    assert extract("Testis, Lt, radical orchiectomy: seminoma.", "tcga")["laterality"] == "left"


def test_parietal_cells_are_no_parietal_lobe():
    text = (
        "Corpus biopsies: oxyntic glands depleted (parietal/chief cell loss); autoimmune gastritis."
    )
    assert extract(text, "histai")["tumor_site"] == "body"


def test_the_carcinoma_treated_before_is_history_not_this_biopsys_finding():
    text = (
        "Nasopharynx, biopsy, 3 months after chemoradiotherapy for NPC. Ulceration, granulation "
        "tissue and radiation atypia. EBER-ISH negative. Conclusion: post-radiation changes, "
        "no residual carcinoma."
    )
    fields = extract(text, "histai")
    assert fields["benign_vs_malignant"] == "benign"
    assert "diagnosis" not in fields or "carcinoma" not in fields["diagnosis"]


@pytest.mark.parametrize(
    ("text", "cytology"),
    [
        ("Washings: malignant cells present.", "positive"),
        ("Pelvic washing - tumour cells identified.", "positive"),
        ("Washings: no malignant cells.", "negative"),
    ],
)
def test_washings_read_by_the_cells_found(text, cytology):
    assert extract(text, "tcga")["peritoneal_cytology"] == cytology


def test_leishmania_amastigotes_are_an_organism_and_their_absence_is_read():
    seen = extract("Histiocytes contain Leishman-Donovan bodies (amastigotes).", "histai")
    denied = extract("No Leishman-Donovan bodies (amastigotes) are identified.", "histai")
    assert seen["organisms"] == "leishmania"
    assert denied["organisms"] == "leishmania negative"
