"""A negated invasion of a named structure, sides and sizes in terse slash-separated layouts, and
other facts in the wordings that other writers use.

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    "text",
    [
        "Renal cell carcinoma, limited to the kidney; no infiltration of renal sinus fat.",
        "Renal cell carcinoma, 55 mm; renal sinus fat and renal vein not invaded.",
        "Seminoma, 28 mm, limited to the testis, no infiltration of the rete testis.",
        "Atypical meningioma, CNS WHO grade 2. Brain invasion absent.",
        "Neuroendocrine tumour, G1, 6 mm, without mesoappendiceal invasion.",
        "Hepatocellular carcinoma, 4 cm. Liver capsule not invaded.",
        "Renal cell carcinoma; 2. Perirenal fat and renal sinus fat: no tumour invasion; 3. pT1b.",
    ],
)
def test_a_negated_invasion_of_a_named_structure_is_that_structures_status(dataset, text):
    # The tumour invades (it is a carcinoma of that organ); what is spared is one structure.
    assert extract(text, dataset).get("invasion_status") is None


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    "text",
    [
        "Cervix, LLETZ: HSIL (CIN 3). No invasion of the stroma.",
        "Cervix, LLETZ: HSIL (CIN 3). No stromal invasion.",
        "Ureter biopsy: papillary urothelial carcinoma. The lamina propria is not invaded.",
        "Colon polyp: adenoma with high-grade dysplasia; no invasion into the submucosa.",
        "Skin: lentigo maligna; no dermal invasion.",
        "Cervix: HSIL. No evidence of invasion.",
        "Cervix: HSIL. Invasion not seen.",
        "Cervix: HSIL. Diagnosis: no invasion.",
        "Cervix, LLETZ: HSIL. Invasion: none.",
    ],
)
def test_a_negated_invasion_of_the_stroma_is_still_no_invasion(dataset, text):
    assert extract(text, dataset)["invasion_status"] == "absent"


@pytest.mark.parametrize(
    ("text", "side"),
    [
        ("Breast, L't, mastectomy --- ILC, classic / Nottingham G2 / 23 mm", "left"),
        ("R\u2019t upper back skin, WLE --- nodular melanoma / Breslow 3.2 mm", "right"),
        ("L't neck (level II) LN, CNB: metastatic SCC, non-keratinizing", "left"),
    ],
)
def test_sides_abbreviated_with_an_apostrophe(text, side):
    assert extract(text, "tcga")["laterality"] == side


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("Breast, mastectomy --- ILC, classic / Nottingham G2 / 23 mm / LVI: none", 2.3),
        ("Whipple specimen: PDAC, moderately differentiated, 28 mm, limited to pancreas.", 2.8),
    ],
)
def test_a_size_standing_alone_between_slashes_or_after_an_initialism(text, size):
    assert extract(text, "tcga")["tumor_size"] == size


@pytest.mark.parametrize(
    "text",
    [
        "Needle core, 4/15 mm involved / G2",  # a length of core involved, not a size
        "Breast: ILC, 1/23 mm, G2",
    ],
)
def test_a_slash_inside_a_ratio_starts_no_size(text):
    assert "tumor_size" not in extract(text, "tcga")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Thigh, core: ALT. FISH shows MDM2 gene amplification.", "mdm2 amplification"),
        ("Soft tissue, thigh, core: ALT. MDM2 FISH: amplification detected.", "mdm2 amplification"),
        ("Soft tissue, thigh, core: lipoma. MDM2 FISH: no amplification detected.",
         "mdm2 amplification negative"),
        ("Glioblastoma, IDH-wildtype. EGFR amplification not detected.",
         "egfr amplification negative"),
        ("Glioblastoma, IDH-wildtype. Molecular: EGFR amplified.", "egfr amplification"),
        ("DLBCL. FISH for MYC rearrangement negative.", "myc rearrangement negative"),
    ],
)  # fmt: skip
def test_a_genes_amplification_is_read_with_its_result(text, value):
    assert extract(text, "tcga")["gene_rearrangements"] == value


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Gastric antrum, bx: chronic gastritis, mild, non-active / IM (-).", "absent"),
        ("Biopsies from antrum and corpus ventriculi. No IM. No dysplasia.", "absent"),
        ("Barrett oesophagus: columnar mucosa with IM, no dysplasia.", "present"),
    ],
)
def test_im_is_intestinal_metaplasia_in_a_gastric_or_oesophageal_report(dataset, text, value):
    assert extract(text, dataset)["intestinal_metaplasia"] == value


def test_im_outside_the_stomach_is_left_alone():
    assert "intestinal_metaplasia" not in extract("Skin, thigh: IM injection site.", "histai")


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_reactive_gastropathy_with_its_synonym_in_brackets(dataset):
    text = "Stomach, antrum, biopsy. Conclusion: Reactive (chemical) gastropathy."
    assert extract(text, dataset)["gastritis_type"] == "reactive"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Whipple --- PDAC / margins: uncinate (SMA) POSITIVE; pancreatic neck & CBD margins "
         "negative / LN: 2/16", "positive"),
        ("Cystoprostatectomy: urothelial carcinoma. Surgical margins negative except the "
         "urethral margin, which shows carcinoma in situ.", "positive"),
        ("Wide excision: melanoma. Margins free except the deep margin, which is close (0.5 mm).",
         "close"),
        ("Wide excision: melanoma. Margins: deep not involved, 2 mm.", "negative"),
    ],
)  # fmt: skip
def test_one_named_margin_involved_among_clear_ones(dataset, text, value):
    assert extract(text, dataset)["margin_status"] == value


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_stations_by_their_number_sign(dataset):
    text = (
        "EBUS-TBNA --- A. #7 subcarinal LN: metastatic adenocarcinoma / B. #4R LN: lymphoid "
        "tissue, no malignant cells / C. #11L LN: anthracosis, no malignancy."
    )
    assert extract(text, dataset)["lymph_node_stations"] == "11l + 4r + 7"
    assert "lymph_node_stations" not in extract("Case #12 lymph node: reactive.", dataset)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Metastatic SCC / p16: diffuse (+) / EBER-ISH: (-).", "eber negative + p16"),
        ("Lymph node: DLBCL. CD20 IHC (+), CD3 (-).", "cd3 negative + cd20"),
    ],
)
def test_a_sign_after_the_tests_method(text, value):
    assert extract(text, "histai")["ihc_markers"] == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Rectum, upper part (low anterior resection): adenocarcinoma, 38 mm.", "upper third"),
        ("Oesophagus (lower third), biopsy: squamous cell carcinoma.", "lower third"),
        ("Adenocarcinoma of the lower part of the rectum.", "lower third"),
    ],
)
def test_an_organs_third_named_after_it(text, value):
    assert extract(text, "tcga")["tumor_site"] == value


@pytest.mark.parametrize(
    "text",
    [
        "Distal femur: Osteosarcoma, conventional type, high grade, 80 mm.",
        "Distal femur: conventional osteosarcoma, high grade, 80 mm.",
    ],
)
def test_a_conventional_osteosarcoma_is_no_classic_subtype(text):
    assert extract(text, "tcga")["histologic_type"] == "osteosarcoma"


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Osteosarcoma, 80 mm. Chemotherapy response: 95% of the tumor is necrotic.",
         "treatment_effect", "present"),
        ("Ovary: serous carcinoma, 75 mm. The capsule is intact.", "capsular_invasion", "absent"),
        ("Liver, core bx: chronic hepatitis C / fibrosis: bridging, F3 (METAVIR).",
         "fibrosis_stage", "metavir stage 3"),
    ],
)  # fmt: skip
def test_responses_capsules_and_stages_in_other_words(text, field, value):
    assert extract(text, "tcga")[field] == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Fibroadenoma. No atypia, no malignancy. Conclusion: Fibroadenoma.", None),
        ("Skin: compound naevus. Negative for melanoma.", "melanoma"),
    ],
)
def test_a_term_that_states_an_absence_is_not_negated_again_by_a_list(text, value):
    # "no atypia, no malignancy" rules out no entity of its own: "no malignancy" says benign.
    assert extract(text, "histai").get("excluded_entities") == value


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Lip, lower vermilion, wedge excision: actinic cheilitis.", "skin_site", "lower lip"),
        ("Lower lip vermilion wedge: actinic cheilitis.", "specimen_type", "wedge resection"),
        ("Endometrial curettings. Secretory endometrium. Numerous stromal plasma cells.",
         "inflammation_status", "present"),
        ("R BREAST CNB: IDC, GR 2.", "histologic_type", "no special type"),
        ("Atypical endometrial hyperplasia (endometrioid intraepithelial neoplasia).",
         "histologic_type", None),
        ("Skin, nose, excision --- BCC, nodular / deep margin: involved", "histologic_type",
         "nodular"),
        ("Skin: BCC, nodular + infiltrative patterns.", "histologic_type",
         "nodular + infiltrative"),
        ("Total thyroidectomy: PTC (classic) in the right lobe, 22 mm.", "histologic_type",
         "papillary + classic"),
    ],
)  # fmt: skip
def test_sites_types_and_findings_in_other_words(text, field, value):
    assert extract(text, "histai").get(field) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Rectum, ESD; adenocarcinoma with submucosal invasion (depth: 700 μm)", 0.7),
        ("Endometrioid carcinoma, invading the myometrium (depth 4 mm of 15 mm).", 4.0),
        ("Endometrioid carcinoma. Myometrial invasion 0.4 cm of 1.6 cm thickness.", 4.0),
        ("Skin, forearm: squamous cell carcinoma, 12 mm, depth 3 mm (dermis).", 3.0),
    ],
)
def test_a_depth_in_brackets_or_after_a_comma(text, value):
    assert extract(text, "tcga")["depth_of_invasion"] == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Depth of myometrial invasion: 6 mm / 20 mm myometrial thickness (30%; <50%).",
         "less than half"),
        ("Endometrioid carcinoma, invading 3/15 mm of myometrium, i.e. less than half.",
         "less than half"),
        ("Endometrioid carcinoma; myometrial invasion <1/2 (6 of 18 mm).", "less than half"),
        ("ENDOMETRIOID ADENOCA. MYOMETRIAL INV.: 40% (<50%).", "less than half"),
        ("Endometrioid carcinoma, invading 40% of myometrial thickness.", "less than half"),
        ("- Myometrial invasion: 40% (under half the wall)", "less than half"),
        ("Myometrial invasion 60% of the wall.", "half or more"),
        ("No myometrial invasion, ER 90%.", "none"),
    ],
)  # fmt: skip
def test_the_share_of_the_myometrium_invaded(text, value):
    assert extract(text, "tcga")["myometrial_invasion"] == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Invasive ductal carcinoma, grade 3, with associated high-grade DCIS.", "high"),
        ("Ductal carcinoma in situ, intermediate grade, present.", "intermediate"),
        ("Accompanying DCIS of intermediate nuclear grade.", "intermediate"),
    ],
)
def test_a_dcis_grade_is_its_nuclear_grade(text, value):
    assert extract(text, "tcga")["nuclear_grade"] == value


def test_organ_confined_is_no_prostate_statement_in_a_kidney_report():
    text = "Partial nephrectomy: papillary RCC, 32 mm, organ-confined."
    assert "extraprostatic_extension" not in extract(text, "tcga")
    prostate = "Radical prostatectomy: acinar adenocarcinoma, organ-confined."
    assert extract(prostate, "tcga")["extraprostatic_extension"] == "absent"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Colon polyp: TA, low-grade dysplasia; 15 mm. Stalk: Negative for dysplasia.",
         "negative"),
        ("Rectum, ESD: TA, HGD, 2.8x2.0 cm. HM positive (LGD); VM negative.", "positive"),
        ("WHIPPLE: PDAC, 28 MM. MARGINS: UNCINATE/SMA -- POS.; PANCREATIC NECK -- NEG.",
         "positive"),
        ("Radical cystectomy: urothelial carcinoma. Margins: ureteral and urethral -- negative "
         "for invasive carcinoma and CIS; perivesical soft tissue -- free.", "negative"),
    ],
)  # fmt: skip
def test_margins_named_by_initials_or_before_a_double_dash(dataset, text, value):
    assert extract(text, dataset)["margin_status"] == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Lung (LUL), CT-guided CNB --- Carcinoma, small cell type", "small cell carcinoma"),
        ("Lung, left upper lobe, core biopsy; Small cell carcinoma", "small cell carcinoma"),
        # The nasopharynx's non-keratinizing carcinoma, undifferentiated or not, is a squamous
        # cell carcinoma (WHO), no anaplastic carcinoma.
        ("Nasopharynx, biopsy; Non-keratinizing carcinoma, undifferentiated subtype",
         "squamous cell carcinoma"),
        ("Nasopharynx, biopsy: non-keratinizing undifferentiated carcinoma; EBER positive.",
         "squamous cell carcinoma"),
        ("Nasopharynx, biopsy: undifferentiated non-keratinizing nasopharyngeal carcinoma.",
         "squamous cell carcinoma"),
    ],
)  # fmt: skip
def test_a_carcinomas_type_after_it_and_the_undifferentiated_nasopharyngeal_subtype(text, value):
    assert extract(text, "reg2025")["diagnosis"] == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Lymph nodes, left axillary, sentinel node biopsy; No metastatic carcinoma in 3 lymph "
         "nodes (0/3)", "left node free"),
        ("Breast, left, excisional biopsy; Fibroadenoma, no atypia, negative for malignancy",
         "left breast free"),
        ("Breast, left, core biopsy; Invasive carcinoma of no special type, margins negative",
         "left breast"),
    ],
)  # fmt: skip
def test_a_one_line_reports_specimen_heading_takes_the_status_after_its_semicolon(text, value):
    assert extract(text, "reg2025")["lateral_sites"] == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Liver resection (segm. VI): HCC, 35 mm.", "liver segment 6"),
        ("Whipple: Pancreatic ductal adenoCa, head, moderately differentiated, 32 mm.",
         "pancreatic head"),
        ("Cervix; punch biopsies. 6 o'clock: squamous metaplasia. 3 o'clock: CIN 3.",
         "3 o'clock + 6 o'clock"),
        ("Esophagectomy - ESCC, M/D, Mt (mid-thoracic), 3.5 cm.", "middle third"),
        ("Oesophagectomy (lower thoracic segment): squamous cell carcinoma.", "lower third"),
        ("Localization: left lateral border of oral tongue. SCC.", "lateral tongue"),
    ],
)  # fmt: skip
def test_sites_within_the_organ_in_other_words(text, value):
    assert extract(text, "tcga")["tumor_site"] == value


@pytest.mark.parametrize(
    ("dataset", "text", "value"),
    [
        ("tcga", "Cone bx (cold knife): invasive SCC arising from CIN 3/HSIL.", "cervix"),
        ("histai", "Cone bx (cold knife): invasive SCC arising from CIN 3/HSIL.", "cervix"),
        ("tcga", "Anterior resection: adenocarcinoma, sigmoid, moderately diff., 32 mm.", "colon"),
        ("histai", "TI, colonoscopic Bx; chronic active inflammation with a granuloma.",
         "small intestine"),
        ("reg2025", "Radical hysterectomy with pelvic lymphadenectomy: squamous cell carcinoma of "
         "the cervix, 26 mm.", "uterine cervix"),
    ],
)  # fmt: skip
def test_organs_named_by_their_procedure_or_part(dataset, text, value):
    assert extract(text, dataset)["organ_site"] == value


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_involving_both_lobes_is_bilateral(dataset):
    text = "Radical prostatectomy: acinar adenocarcinoma, Gleason 3+4=7, involving both lobes."
    assert extract(text, dataset)["laterality"] == "bilateral"


@pytest.mark.parametrize(
    ("dataset", "text", "value"),
    [
        ("histai", "Cold knife cone of the cervix: HSIL (CIN 3).", "conization"),
        ("reg2025", "Cervix, cold knife cone; HSIL (CIN 3)", "excision"),
        ("histai", "Endometrium, D&C; Proliferative phase endometrium", "curettage"),
        ("tcga", "RUL WEDGE: PULMONARY HAMARTOMA, 14 MM.", "wedge resection"),
    ],
)
def test_procedures_in_other_words(dataset, text, value):
    assert extract(text, dataset)["specimen_type"] == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Right axilla: 3 lymph nodes. Metastasis was not observed in 3 lymph nodes.", "0/3"),
        ("Rectum, anterior resection. No nodal metastasis in 14 nodes (pN0).", "0/14"),
        ("Breast, left; lumpectomy + sentinel node; IC NST, grade 2, 18 mm; SN 0/2; ER+.", "0/2"),
        ("Breast right, tumorectomy. SLNB 0/3. pT2 pN0(sn).", "0/3"),
        ("RADICAL HYSTERECTOMY. PELVIC LN: NEG. (0/24).", "0/24"),
        ("Metastatic carcinoma in two lymph nodes.", "2"),
    ],
)
def test_node_counts_in_terse_and_translated_wordings(text, value):
    assert extract(text, "tcga")["lymph_node_involvement"] == value


def test_a_status_abbreviation_before_its_bracketed_measure():
    text = "PARTIAL HEPATECTOMY: HCC, 35 MM. MARGIN NEG. (12 MM)."
    assert extract(text, "tcga")["margin_distance"] == 1.2


@pytest.mark.parametrize(
    "text",
    [
        "Liver, needle biopsy; Chronic hepatitis C, grade 2, stage 3 (bridging fibrosis)",
        "Liver, core needle bx; Chronic viral hepatitis C; inflammatory activity grade 2, "
        "fibrosis stage 3 with bridging fibrosis.",
    ],
)
def test_a_chronic_hepatitis_and_its_grade_in_reg_style(text):
    fields = extract(text, "reg2025")
    assert fields["diagnosis"] == "hepatitis"
    assert "tumor_grade" not in fields  # the hepatitis's activity, not a tumour's grade
    assert fields["fibrosis_stage"] == "stage 3"
