"""Findings of version 53: MLH1 promoter methylation, the basal cell layer of prostate glands, an
Arabic FIGO digit as the grade, stains read "immunonegative", and the scope fixes that kept a
side, a list or a muscle sample from their statement."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Loss of MLH1 and PMS2; MLH1 promoter hypermethylation detected.", "methylated"),
        ("Methylation of the MLH1 promoter present.", "methylated"),
        ("MLH1 promoter hypermethylation not detected.", "unmethylated"),
        ("No MLH1 promoter methylation.", "unmethylated"),
        ("MLH1 promoter: unmethylated.", "unmethylated"),
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_mlh1_promoter_methylation(text: str, value: str, dataset: str) -> None:
    assert extract(text, dataset).get("mlh1_methylation") == value


def test_mlh1_protein_status_is_no_methylation() -> None:
    assert "mlh1_methylation" not in extract("MLH1 and PMS2 positive; MSH2 retained.", "tcga")


def test_a_flipped_mlh1_methylation_costs_more_than_a_rewording() -> None:
    reference = (
        "Right hemicolectomy: mucinous adenocarcinoma of the cecum, 5.5 cm. Margins negative."
        " 0 of 24 lymph nodes involved. Loss of MLH1 and PMS2 expression with retained MSH2 and"
        " MSH6; MLH1 promoter hypermethylation detected. pT3 pN0."
    )
    rewrite = (
        "Right hemicolectomy specimen. Caecal adenocarcinoma, mucinous type, 55 mm (pT3)."
        " Resection margins uninvolved. Lymph nodes 0/24 (pN0). MMR IHC: MLH1 and PMS2 lost,"
        " MSH2 and MSH6 intact; methylation of the MLH1 promoter present."
    )
    wrong = reference.replace("hypermethylation detected", "hypermethylation not detected")
    rw, wr = score_pair(reference, rewrite, "tcga"), score_pair(reference, wrong, "tcga")
    assert rw.CRQS > wr.CRQS


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("p63 and HMWCK show a preserved basal cell layer; AMACR negative.", "present"),
        ("IHC demonstrates an intact basal cell layer (p63+, HMWCK+).", "present"),
        ("p63 and HMWCK show absence of the basal cell layer; AMACR positive.", "absent"),
        ("Basal cells are absent on p63 and 34betaE12.", "absent"),
        ("No basal cells are identified.", "absent"),
    ],
)
def test_basal_cell_layer(text: str, value: str) -> None:
    assert extract(text, "histai").get("basal_cell_layer") == value


def test_basal_cell_stains_keep_their_result() -> None:
    found = extract("p63 and HMWCK show absence of the basal cell layer.", "histai")
    assert found["ihc_markers"] == "hmwck negative + p63 negative"
    assert "basal_cell_layer" not in extract("Nodular basal cell carcinoma.", "histai")


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_an_arabic_figo_digit_is_the_grade(dataset: str) -> None:
    found = extract("Endometrioid carcinoma, FIGO 1, with squamous morules.", dataset)
    assert found.get("figo_grade") == "1"
    assert "figo_stage" not in found
    assert extract("Endometrioid carcinoma, FIGO stage 1.", dataset).get("figo_stage") == "1"
    assert extract("Serous carcinoma, FIGO 3C1.", dataset).get("figo_stage") == "3c1"


def test_squamous_morules_are_squamous_differentiation() -> None:
    found = extract("Endometrioid carcinoma with squamous morular change.", "histai")
    assert found.get("divergent_differentiation") == "squamous"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("IDH1 R132H immunonegative, ATRX retained.", "idh1 r132h negative"),
        ("IDH1 R132H immuno-positive astrocytoma.", "idh1 r132h"),
    ],
)
def test_immunonegative_is_a_negative_stain(text: str, value: str) -> None:
    assert extract(text, "tcga").get("gene_variants") == value


def test_immunonegative_for_a_marker() -> None:
    found = extract("Tumour cells are immunonegative for CK7 and immunopositive for CK20.", "tcga")
    assert found["ihc_markers"] == "ck7 negative + ck20"


def test_p53_in_a_mutant_pattern() -> None:
    assert extract("p53 in a mutant pattern.", "tcga").get("p53_status") == "aberrant"


def test_an_ovary_in_the_diagnosis_is_not_marked_free_by_the_next_clause() -> None:
    text = (
        "Total hysterectomy, bilateral salpingo-oophorectomy and omentectomy: high-grade serous"
        " carcinoma, 9 cm, involving the right ovary with surface involvement; left ovary and"
        " both fallopian tubes free."
    )
    assert extract(text, "tcga")["lateral_sites"] == "left ovary free + right ovary"
    heading = "Lymph nodes, left axillary, sentinel biopsy; No metastatic carcinoma (0/3)"
    assert extract(heading, "tcga")["lateral_sites"] == "left node free"


def test_an_article_does_not_end_a_negated_list() -> None:
    text = "Granulomas, an atypical lymphoid infiltrate and metastatic malignancy are not seen."
    found = extract(text, "histai")
    assert found.get("excluded_entities") == "granulomatous inflammation"
    assert "granulomatous inflammation" not in str(found.get("findings"))


@pytest.mark.parametrize(
    "text",
    ["No detrusor (muscularis propria) muscle sampled.", "No detrusor muscle is identified."],
)
def test_no_muscularis_propria_sampled(text: str) -> None:
    assert extract(text, "histai").get("muscularis_propria_sampled") == "absent"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Myometrial invasion 6/18 mm, i.e. under 50%.", "less than half"),
        ("Myometrial invasion: over 50%.", "half or more"),
    ],
)
def test_myometrial_invasion_as_a_share(text: str, value: str) -> None:
    assert extract(text, "tcga").get("myometrial_invasion") == value


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_invasion_named_after_with(dataset: str) -> None:
    text = (
        "Clear cell renal cell carcinoma, WHO/ISUP grade 2, 4.5 cm, with renal sinus fat invasion"
    )
    assert extract(text, dataset).get("organ_involvement") == "renal sinus"
    assert extract("Carcinoma with vaginal involvement.", dataset).get("organ_involvement") == (
        "vagina"
    )


def test_a_thyroid_lobectomy_in_either_layout() -> None:
    a = "Left thyroid lobectomy: papillary thyroid carcinoma, 2.2 cm."
    b = "Thyroid, left lobe (lobectomy): papillary carcinoma, 22 mm."
    assert score_pair(a, b, "tcga").CRQS == 1.0


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Biopsy, left cheek mucosa: oral submucous fibrosis.", "oral cavity"),
        ("Right cheek (buccal) mucosa, incisional biopsy.", "oral cavity"),
    ],
)
def test_cheek_mucosa_is_the_oral_cavity(text: str, value: str) -> None:
    assert extract(text, "histai").get("organ_site") == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "Foreskin with an atypical junctional melanocytic proliferation.",
            "atypical melanocytic proliferation",
        ),
        (
            "Foreskin: differentiated penile intraepithelial neoplasia.",
            "squamous intraepithelial lesion",
        ),
        ("Circumcision: balanitis xerotica obliterans.", "lichen sclerosus"),
    ],
)
def test_skin_entities(text: str, value: str) -> None:
    assert extract(text, "histai").get("diagnosis") == value


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_washings_named_after_the_finding(dataset: str) -> None:
    text = "No malignancy in omentum or in peritoneal washings."
    assert extract(text, dataset).get("peritoneal_cytology") == "negative"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("One micrometastasis (1 mm) among five central neck nodes.", "1/5"),
        ("Two metastases among 14 lymph nodes.", "2/14"),
        ("Fourteen lymph nodes dissected, 2/14 show metastatic deposits.", "2/14"),
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_node_counts_after_a_participle_or_among(text: str, value: str, dataset: str) -> None:
    assert extract(text, dataset).get("lymph_node_involvement") == value


def test_an_omental_metastatic_deposit() -> None:
    found = extract("Omental metastatic deposit measuring 15 mm.", "tcga")
    assert found.get("organ_involvement") == "omentum"


def test_reg_reads_ovarian_surface_involvement() -> None:
    reference = (
        "Ovary, left, salpingo-oophorectomy;\n1. High grade serous carcinoma, 8 cm\n"
        "2. Ovarian surface involvement present"
    )
    rewrite = (
        "Left salpingo-oophorectomy:\nHigh-grade serous carcinoma of the ovary, 80 mm, with"
        " tumour on the ovarian surface."
    )
    wrong = "Ovary, left, salpingo-oophorectomy;\n1. High grade serous carcinoma, 8 cm"
    assert extract(reference, "reg2025").get("ovarian_surface_involvement") == "present"
    assert extract(rewrite, "reg2025").get("ovarian_surface_involvement") == "present"
    rw, wr = score_pair(reference, rewrite, "reg2025"), score_pair(reference, wrong, "reg2025")
    assert rw.CRQS > wr.CRQS


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "Squamous cell carcinoma. A separate tumour nodule is present in the same lobe.",
            "same lobe",
        ),
        ("Adenocarcinoma with a satellite nodule in a different lobe.", "ipsilateral lobe"),
        ("Separate tumor nodules: not identified.", "absent"),
        ("No separate tumour nodules.", "absent"),
        ("Separate tumour nodule present.", "present"),
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_separate_tumour_nodules(text: str, value: str, dataset: str) -> None:
    assert extract(text, dataset).get("separate_tumor_nodules") == value


def test_a_lung_lobectomy_stays_a_lobectomy() -> None:
    text = (
        "Right upper lobectomy: adenocarcinoma, TTF1 (thyroid transcription factor) positive;"
        " lobectomy margins clear."
    )
    assert extract(text, "tcga").get("specimen_type") == "lobectomy"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_zero_count_after_the_finding_denies_it(dataset: str) -> None:
    found = extract(
        "Microscopy: reactive sinus histiocytosis. Metastatic carcinoma: 0/15 nodes.", dataset
    )
    assert found["lymph_node_involvement"] == "0/15"
    assert found.get("excluded_entities") == "carcinoma"
    assert "diagnosis" not in found
    involved = extract("Metastatic carcinoma: 2/15 nodes.", dataset)
    assert involved["diagnosis"] == "carcinoma"


def test_a_lesion_present_at_a_named_margin_makes_the_margins_positive() -> None:
    text = (
        "High-grade CIN (CIN3), extending into endocervical crypts. CIN3 is present at the"
        " endocervical margin; ectocervical and deep (stromal) margins are free."
    )
    found = extract(text, "histai")
    assert found["margin_status"] == "positive"
    assert found["margin_involved"] == "endocervical"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Columnar mucosa of cardiac and fundic type; goblet cells are present.", "present"),
        ("Columnar mucosa of cardiac and fundic type; goblet cells are not seen.", "absent"),
        ("Glandular mucosa (cardiac type) with goblet cell (intestinal) metaplasia.", "present"),
    ],
)
def test_goblet_cells_in_glandular_mucosa_are_intestinal_metaplasia(text: str, value: str) -> None:
    assert extract(text, "histai").get("intestinal_metaplasia") == value


def test_goblet_cells_of_the_colon_are_no_metaplasia() -> None:
    assert "intestinal_metaplasia" not in extract(
        "Colonic mucosa; goblet cells are present.", "histai"
    )


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_rete_testis_invasion(dataset: str) -> None:
    for text in ("Seminoma invading the rete testis.", "Rete testis invasion: present"):
        assert extract(text, dataset).get("organ_involvement") == "rete testis"


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("1p/19q: no co-deletion.", "codeletion_1p19q", "not codeleted"),
        ("Astrocytic diffuse glioma, CNS WHO grade 2.", "diagnosis", "astrocytoma"),
        ("Portal fibrosis with few septa (F2).", "fibrosis_stage", "metavir stage 2"),
        ("Gastric body carcinoma, diffuse type (poorly cohesive).", "diagnosis", "adenocarcinoma"),
        ("Renal pelvic urothelial carcinoma, high grade.", "tumor_site", "renal pelvis"),
    ],
)
def test_tcga_wordings(text: str, field: str, value: str) -> None:
    assert extract(text, "tcga").get(field) == value


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Koilocytes present. Chronic cervicitis.", "hpv_cytopathic_effect", "present"),
        ("No koilocytes or dysplasia.", "hpv_cytopathic_effect", "absent"),
        (
            "Focal differentiated vulval intraepithelial neoplasia.",
            "diagnosis",
            "squamous intraepithelial lesion",
        ),
    ],
)
def test_histai_wordings(text: str, field: str, value: str) -> None:
    assert extract(text, "histai").get(field) == value


def test_reg_chronic_inflammation_of_the_gallbladder_is_cholecystitis() -> None:
    text = "CHOLECYSTECTOMY SPECIMEN: chronic inflammation of the gallbladder wall; gallstones."
    assert extract(text, "reg2025")["diagnosis"] == "cholecystitis"


@pytest.mark.parametrize(
    "text",
    [
        "Trichrome: fibrous bridges present (stage 3).",
        "Chronic hepatitis; bridging fibrosis (stage 3).",
    ],
)
def test_a_stage_in_brackets_after_fibrosis_is_the_fibrosis_stage(text: str) -> None:
    found = extract(text, "histai")
    assert found.get("fibrosis_stage") == "stage 3"
    assert "stage_group" not in found
    assert extract("Adenocarcinoma (stage 3).", "histai").get("stage_group") == "iii"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_a_stain_for_its_organism_takes_the_result_after_the_organism(dataset: str) -> None:
    found = extract("Ziehl-Neelsen stain for acid-fast bacilli: negative.", dataset)
    assert found["organisms"] == "mycobacteria negative"
    assert extract("ZN stain for AFB positive.", dataset)["organisms"] == "mycobacteria"


def test_a_dropped_organism_costs_more_than_a_reworded_biopsy() -> None:
    reference = (
        "Duodenal biopsies, 4 fragments. Normal villous architecture; no increase in"
        " intraepithelial lymphocytes. Giardia trophozoites are present on the mucosal surface."
    )
    rewrite = (
        "Four duodenal fragments. Giardia lamblia trophozoites are seen lying on the surface"
        " epithelium. Villi are of normal height and intraepithelial lymphocytes are not increased."
    )
    wrong = (
        "Duodenal biopsies, 4 fragments. Normal villous architecture; no increase in"
        " intraepithelial lymphocytes."
    )
    assert (
        score_pair(reference, rewrite, "histai").CRQS > score_pair(reference, wrong, "histai").CRQS
    )


@pytest.mark.parametrize(
    "text",
    [
        "Margins - proximal, distal, circumferential (radial) - uninvolved.",
        "Margins - pancreatic neck, common bile duct and uncinate/SMA - all clear.",
    ],
)
def test_margins_listed_between_dashes_share_their_status(text: str) -> None:
    assert extract(text, "tcga").get("margin_status") == "negative"


@pytest.mark.parametrize(
    "text",
    [
        "No lymphatic, vascular or perineural invasion is seen.",
        "No vascular or perineural invasion.",
        "Lymphovascular or perineural invasion: not identified.",
    ],
)
def test_a_negated_list_of_invasions_sharing_one_noun(text: str) -> None:
    found = extract(text, "tcga")
    assert found["lymphovascular_invasion"] == "absent"
    assert found["perineural_invasion"] == "absent"


def test_invasions_sharing_one_noun_stay_present() -> None:
    found = extract("Tumour shows lymphovascular and perineural invasion.", "tcga")
    assert found["lymphovascular_invasion"] == "present"
    assert found["perineural_invasion"] == "present"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("No EGFR mutation or ALK rearrangement.", "negative"),
        ("ALK rearrangement present.", "positive"),
    ],
)
def test_alk_in_a_negated_list_of_tests(text: str, value: str) -> None:
    assert extract(text, "tcga")["alk_status"] == value


def test_a_cap_regression_grade_is_one_grade() -> None:
    assert extract("CAP regression grade 2.", "tcga")["tumor_regression_grade"] == "cap 2"


def test_reg_non_mucinous_beside_a_pattern_names_no_type_of_its_own() -> None:
    text = "Invasive non-mucinous adenocarcinoma, predominantly lepidic, 18 mm"
    assert extract(text, "reg2025")["histologic_type"] == "lepidic"
    alone = extract("Invasive non-mucinous adenocarcinoma, 18 mm", "reg2025")
    assert alone["histologic_type"] == "non-mucinous"


def test_extension_into_the_sinus_fat_of_a_kidney() -> None:
    text = "Clear cell renal cell carcinoma, 75 mm, with extension into the sinus fat."
    assert extract(text, "tcga")["organ_involvement"] == "renal sinus"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Crypt hyperplasia and intraepithelial lymphocytes 45 per 100 enterocytes.", "present"),
        ("Intraepithelial lymphocytosis (45 IELs/100 epithelial cells).", "present"),
    ],
)
def test_an_iel_count_of_25_or_more_is_increased(text: str, value: str) -> None:
    assert extract(text, "histai").get("intraepithelial_lymphocytosis") == value


def test_an_iel_count_below_25_says_nothing_of_an_increase() -> None:
    found = extract("IELs 15/100 enterocytes.", "histai")
    assert found["intraepithelial_lymphocytes"] == 15.0
    assert "intraepithelial_lymphocytosis" not in found


def test_the_second_part_of_the_duodenum_is_the_duodenum() -> None:
    for text in ("Second part of duodenum, 4 biopsy fragments.", "Four duodenal fragments."):
        assert extract(text, "histai")["tumor_site"] == "duodenum"


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_renal_cell_carcinoma_of_papillary_type(dataset: str) -> None:
    text = "Right kidney, partial nephrectomy:\nRenal cell carcinoma, papillary type, 28 mm"
    assert extract(text, dataset)["histologic_type"] == "papillary renal"
    bladder = extract("Bladder, TURBT;\nUrothelial carcinoma, papillary type, high grade", dataset)
    assert bladder.get("histologic_type") != "papillary renal"


def test_reg_differentiated_vin_ranks_above_its_lichen_sclerosus() -> None:
    text = (
        "Vulva, right labium minus, punch biopsy;\n1. Differentiated VIN (dVIN)\n"
        "2. Lichen sclerosus"
    )
    found = extract(text, "reg2025")
    assert found["diagnosis"] == "differentiated vin"
    assert found["findings"] == "lichen sclerosus + differentiated vin"
    assert found["organ_site"] == "vulva"


def test_reg_a_hepatitis_activity_grade_is_no_tumour_grade() -> None:
    text = (
        "LIVER, core needle biopsy:\nChronic hepatitis with moderate activity (grade 2 of 4) and"
        " bridging fibrosis (stage 3 of 4)"
    )
    found = extract(text, "reg2025")
    assert "tumor_grade" not in found
    assert found["fibrosis_stage"] == "stage 3"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_high_grade_cgin_is_an_adenocarcinoma_in_situ(dataset: str) -> None:
    text = (
        "Cervix: HSIL (CIN 3) and high-grade cervical glandular intraepithelial neoplasia (CGIN)."
    )
    assert extract(text, dataset)["diagnosis"] == "adenocarcinoma in situ"


def test_reg_dysplasia_of_a_named_grade() -> None:
    text = "Left vocal fold biopsy:\nSquamous mucosa with dysplasia of moderate grade"
    assert extract(text, "reg2025")["dysplasia_grade"] == "high"


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        (
            "Cutaneous SCC on a background of actinic (solar) keratosis.",
            "findings",
            "actinic keratosis + squamous cell carcinoma",
        ),
        ("D2 biopsies. Villi completely flattened with hyperplastic crypts.", "atrophy", "present"),
        (
            "Node effaced by deposits of adenocarcinoma: secondary adenocarcinoma.",
            "primary_vs_metastatic",
            "metastatic",
        ),
    ],
)
def test_histai_wordings_of_the_seventy_sixth_generation(text: str, field: str, value: str) -> None:
    assert extract(text, "histai").get(field) == value


def test_tcga_a_duodenal_wall_invaded_and_resection_ends() -> None:
    found = extract("Tumour invades the duodenal wall.", "tcga")
    assert found["organ_involvement"] == "duodenum"
    ends = extract("Resection ends (oesophageal and duodenal) clear.", "tcga")
    assert ends["margin_status"] == "negative"


def test_a_node_effaced_by_deposits_is_involved() -> None:
    text = "Lymph node, left supraclavicular: node mostly effaced by deposits of adenocarcinoma."
    assert extract(text, "histai")["lymph_node_involvement"] == "present"


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_a_primary_named_by_its_origin(dataset: str) -> None:
    lung = extract("Diagnosis: metastatic adenocarcinoma, likely of pulmonary origin.", dataset)
    assert lung["primary_site"] == "lung"
    text = "Metastatic adenocarcinoma; CK20+, CDX2+, in keeping with origin in the large bowel."
    assert extract(text, dataset)["primary_site"] == "colorectum"
