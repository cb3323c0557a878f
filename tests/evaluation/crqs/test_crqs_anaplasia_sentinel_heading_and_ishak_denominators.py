"""Findings of version 56: a Wilms tumour's anaplasia, a teratoma's immature elements, the REG
heading of a breast's sentinel node, the status lines under a one-line specimen heading, Ishak
scores named by their denominators, and wordings that read nothing or the opposite before."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair

# -- anaplasia (CAP paediatric renal tumour protocol) ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Wilms tumour (nephroblastoma), mixed type, 9 cm, with focal anaplasia.", "focal"),
        ("Nephroblastoma. Focal anaplasia identified. Anaplasia is focal.", "focal"),
        ("Wilms tumour, diffuse anaplasia present.", "diffuse"),
        ("Nephroblastoma, blastemal type; diffusely anaplastic.", "diffuse"),
        ("Nephroblastoma, triphasic. No anaplasia.", "absent"),
        ("Nephroblastoma. Anaplasia is not identified.", "absent"),
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_anaplasia_and_its_extent(text: str, value: str, dataset: str) -> None:
    assert extract(text, dataset).get("anaplasia") == value


def test_an_anaplastic_tumour_by_name_states_no_anaplasia_field() -> None:
    assert "anaplasia" not in extract("Anaplastic astrocytoma, WHO grade 3.", "tcga")


def test_dropping_a_wilms_tumours_anaplasia_is_caught() -> None:
    reference = (
        "Left radical nephrectomy (post preoperative chemotherapy): Wilms tumour, mixed type,"
        " 9 cm, with focal anaplasia. Renal sinus and capsule not breached. Margins free."
    )
    rewrite = (
        "Nephroblastoma, mixed subtype, in a left radical nephrectomy after pre-operative"
        " chemotherapy. Size 90 mm. Focal anaplasia identified. No penetration of the renal capsule"
        " or sinus. Resection margins clear."
    )
    wrong = reference.replace(", with focal anaplasia", "")
    rw, wr = score_pair(reference, rewrite, "tcga"), score_pair(reference, wrong, "tcga")
    assert rw.CRQS > wr.CRQS


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Nephroblastoma. No penetration of the renal capsule or sinus.", "absent"),
        ("Nephroblastoma. Renal capsule intact.", "absent"),
        ("Wilms tumour with penetration of the renal capsule.", "present"),
    ],
)
def test_the_renal_capsule_of_a_wilms_tumour(text: str, value: str) -> None:
    assert extract(text, "tcga").get("capsular_invasion") == value


# -- immature elements of a teratoma ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Mature cystic teratoma. No immature neuroepithelium.", "absent"),
        ("Immature neuroepithelial elements absent. Dermoid cyst.", "absent"),
        ("Immature neuroepithelium present, occupying less than one low-power field.", "present"),
        ("Teratoma with immature neuroectodermal elements.", "present"),
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_immature_elements_of_a_teratoma(text: str, value: str, dataset: str) -> None:
    assert extract(text, dataset).get("immature_elements") == value


def test_skin_adnexa_of_a_dermoid_cyst_name_no_skin_specimen() -> None:
    text = (
        "Left ovarian cystectomy. Cyst lined by keratinising squamous epithelium with skin"
        " adnexa. Mature cystic teratoma (dermoid cyst)."
    )
    assert extract(text, "histai").get("organ_site") == "ovary"


# -- REG: a breast's sentinel node -----------------------------------------------------------------


@pytest.mark.parametrize(
    "heading",
    [
        "Breast, right, sentinel lymph node biopsy;",
        "Right breast, sentinel nodes;",
        "Right axillary sentinel node biopsy:",
    ],
)
def test_a_breasts_sentinel_node_heading_names_the_node(heading: str) -> None:
    fields = extract(f"{heading}\nMetastatic carcinoma in 1 of 3 lymph nodes", "reg2025")
    assert fields.get("organ_site") == "lymph node"
    assert fields.get("lateral_sites") == "right node"
    assert fields.get("lymph_node_involvement") == "1/3"


def test_a_breast_heading_without_a_sentinel_node_stays_the_breast() -> None:
    fields = extract("Breast, right, core needle biopsy;\nInvasive carcinoma, grade 2", "reg2025")
    assert fields.get("organ_site") == "breast"


def test_a_sentinel_node_count_changed_is_caught_whatever_the_heading() -> None:
    reference = (
        "Breast, right, sentinel lymph node biopsy;\n"
        "Metastatic carcinoma in 1 of 3 lymph nodes (macrometastasis, 4 mm)"
    )
    rewrite = (
        "Right axillary sentinel node biopsy:\nThree nodes received; one contains a 4 mm"
        " macrometastasis of carcinoma, the other two are negative."
    )
    wrong = reference.replace("1 of 3", "2 of 3")
    rw, wr = score_pair(reference, rewrite, "reg2025"), score_pair(reference, wrong, "reg2025")
    assert rw.CRQS > wr.CRQS


# -- REG: the lines under a one-line specimen heading ----------------------------------------------


def test_a_status_two_lines_under_a_node_heading_marks_the_node_free() -> None:
    text = (
        "Lymph node, right inguinal, core biopsy;\nReactive follicular hyperplasia\n"
        "No evidence of lymphoma or metastatic malignancy"
    )
    assert extract(text, "reg2025").get("lateral_sites") == "right node free"


def test_a_status_under_a_tumour_line_is_not_the_headings() -> None:
    text = (
        "Breast, left, modified radical mastectomy;\n"
        "Invasive carcinoma of no special type, grade 3\nNo ductal carcinoma in situ"
    )
    assert extract(text, "reg2025").get("lateral_sites") == "left breast"


def test_a_labelled_line_under_a_heading_keeps_its_own_subject() -> None:
    text = "Skin, left forearm, excision;\nBasal cell carcinoma, nodular\nMargins: clear"
    assert "free" not in str(extract(text, "reg2025").get("lateral_sites"))


# -- Ishak scores named by their denominators ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("Chronic hepatitis B; fibrosis stage 3 of 6.", "ishak stage 3"),
        ("Chronic hepatitis C, fibrosis stage 5/6.", "ishak stage 5"),
        ("Chronic hepatitis C, fibrosis stage 2/4.", "stage 2"),
    ],
)
def test_a_fibrosis_stage_out_of_six_is_ishaks(text: str, stage: str) -> None:
    assert extract(text, "histai").get("fibrosis_stage") == stage


@pytest.mark.parametrize(
    ("text", "severity"),
    [
        ("Chronic hepatitis B; necroinflammatory grade 7 of 18 (Ishak HAI).", "mild"),
        ("Chronic hepatitis C. HAI score 11/18.", "moderate"),
        ("Ishak activity grade 14 out of 18.", "severe"),
    ],
)
def test_a_necroinflammatory_grade_out_of_eighteen_is_the_ishak_score(
    text: str, severity: str
) -> None:
    assert extract(text, "histai").get("inflammation_severity") == severity


# -- wordings that read nothing or the opposite ----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Endocervical margin not clear - involved by HSIL.",
        "Endocervical (inner) margin not clear.",
        "Resection margins are not free of tumour.",
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_margin_that_is_not_clear_is_involved(text: str, dataset: str) -> None:
    assert extract(text, dataset).get("margin_status") == "positive"


def test_a_margin_not_free_of_dysplasia_is_no_tumour_statement() -> None:
    fields = extract("Colectomy: adenocarcinoma. Distal margin not free of dysplasia.", "tcga")
    assert fields.get("margin_status") != "positive"


def test_a_cones_inner_margin_is_named_by_its_site() -> None:
    fields = extract("Endocervical (inner) margin involved by HSIL.", "histai")
    assert fields.get("margin_involved") == "endocervical"


def test_an_outer_half_in_brackets_is_still_a_depth() -> None:
    text = (
        "Cystectomy: urothelial carcinoma with invasion into the deep (outer) half of the"
        " detrusor muscle."
    )
    assert extract(text, "tcga").get("invasion_depth") == "muscularis propria"


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_crypt_involvement_of_a_cervical_lesion_is_gland_involvement(dataset: str) -> None:
    text = "Cervix, LLETZ: HSIL (CIN III) with crypt involvement."
    assert extract(text, dataset).get("glandular_involvement") == "present"


def test_tuberculosis_needing_clinical_exclusion_is_not_diagnosed() -> None:
    fields = extract(
        "Lung, core biopsy: necrotising granulomatous inflammation. Comment: tuberculosis needs"
        " clinical exclusion.",
        "histai",
    )
    assert fields.get("diagnosis") == "granulomatous inflammation"


def test_papillary_carcinoma_extending_into_the_perithyroidal_tissue_has_ete() -> None:
    text = (
        "Thyroid: papillary carcinoma, 26 mm, showing minimal (microscopic) extension into the"
        " perithyroidal soft tissue."
    )
    assert extract(text, "tcga").get("extrathyroidal_extension") == "present"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_transitional_cell_carcinoma_named_urothelial_in_brackets(dataset: str) -> None:
    text = "Cystectomy: high-grade invasive transitional cell (urothelial) carcinoma, 40 mm."
    assert extract(text, dataset).get("diagnosis") == "urothelial carcinoma"


def test_chronic_inflammation_of_the_bladder_wall_is_cystitis() -> None:
    text = (
        "Bladder, biopsy:\nSchistosomiasis with chronic inflammation of the bladder wall.\n"
        "Negative for dysplasia and malignancy."
    )
    assert extract(text, "reg2025").get("diagnosis") == "cystitis"


def test_a_mastectomy_names_the_breast() -> None:
    fields = extract("Left MRM specimen:\nInvasive ductal carcinoma (NST), grade III.", "reg2025")
    assert fields.get("organ_site") == "breast"


@pytest.mark.parametrize("dataset", ["reg2025", "tcga"])
def test_an_adenomas_type_after_it_is_that_adenoma(dataset: str) -> None:
    written_after = extract("Right hemithyroidectomy: adenoma, follicular type, 22 mm.", dataset)
    written_before = extract("Thyroid, right lobe, lobectomy: follicular adenoma, 22 mm.", dataset)
    assert written_after.get("diagnosis") == written_before.get("diagnosis")


@pytest.mark.parametrize(
    "text",
    [
        "Station 7, EBUS-TBNA: non-small cell carcinoma, most likely squamous (p40+, TTF1-).",
        "Station 7, EBUS-TBNA: non-small cell carcinoma, favour squamous cell carcinoma.",
    ],
)
def test_a_non_small_cell_carcinoma_favouring_squamous(text: str) -> None:
    fields = extract(text, "reg2025")
    assert fields.get("histologic_type") == "favor squamous cell carcinoma"
    assert fields.get("diagnosis") == "squamous cell carcinoma"


def test_random_biopsies_of_the_right_and_left_colon_are_both_halves() -> None:
    fields = extract("Random colonic biopsies, right and left colon. Chronic colitis.", "histai")
    assert fields.get("tumor_site") == "right colon + left colon"
    assert fields.get("laterality") != "right"


def test_a_hemihepatectomy_is_a_hepatectomy() -> None:
    fields = extract("Right hemihepatectomy (segments 5-8): hepatocellular carcinoma.", "tcga")
    assert fields.get("specimen_type") == "hepatectomy"


def test_a_pathologic_t_category_after_its_adjective() -> None:
    assert (
        extract("Squamous cell carcinoma of the tongue. Pathologic T2.", "tcga").get("pt_stage")
        == "pt2"
    )


@pytest.mark.parametrize(
    "text",
    [
        "Duodenal mucosa without significant histopathologic abnormality.",
        "Duodenal mucosa with no significant histological abnormality.",
    ],
)
def test_mucosa_without_significant_abnormality_is_normal(text: str) -> None:
    assert extract(text, "histai").get("diagnosis") == "normal mucosa"


@pytest.mark.parametrize(
    "text",
    [
        "Dermoid cyst (mature cystic teratoma); immature tissue and malignant transformation"
        " absent.",
        "Mature cystic teratoma; malignant transformation absent.",
        "Mature cystic teratoma; no malignant transformation.",
    ],
)
def test_malignant_transformation_denied_is_benign(text: str) -> None:
    assert extract(text, "histai").get("benign_vs_malignant") == "benign"


def test_malignant_transformation_stated_is_malignant() -> None:
    text = "Mature cystic teratoma with malignant transformation to squamous cell carcinoma."
    assert extract(text, "histai").get("benign_vs_malignant") == "malignant"


@pytest.mark.parametrize(
    "text",
    [
        "Eosinophil-rich esophagitis, maximum 45 eos/HPF. Diagnosis: consistent with EoE.",
        "Esophagus, biopsies: eosinophilic esophagitis, peak count 45 per HPF.",
    ],
)
def test_eosinophilic_esophagitis_by_its_initials(text: str) -> None:
    assert extract(text, "histai").get("diagnosis") == "eosinophilic esophagitis"


def test_a_scalp_ellipse_is_skin() -> None:
    fields = extract(
        "Scalp excision ellipse, 14 x 9 mm. Invasive SCC, well differentiated.", "histai"
    )
    assert fields.get("skin_site") == "scalp"
    assert fields.get("organ_site") == "skin"


def test_a_glioma_site_named_by_lobe_then_hemisphere() -> None:
    after = extract("Resection, temporal lobe, left hemisphere: glioblastoma.", "tcga")
    before = extract("Left temporal lobe, resection: glioblastoma.", "tcga")
    assert after.get("lateral_sites") == before.get("lateral_sites") == "left lobe"
    assert after.get("tumor_site") == "temporal lobe"


def test_one_percent_word_after_a_bracketed_list_is_every_parts() -> None:
    text = "Adenocarcinoma, acinar predominant (acinar 50, lepidic 30, papillary 20 percent)."
    assert extract(text, "tcga").get("percentages") == "20.0 + 30.0 + 50.0"


def test_margins_at_three_named_structures_are_clear() -> None:
    text = (
        "Radical nephrectomy: clear cell RCC. Margins at the ureter, renal vessels and perinephric"
        " fat are uninvolved."
    )
    assert extract(text, "tcga").get("margin_status") == "negative"


def test_conjunctival_intraepithelial_neoplasia_is_graded() -> None:
    fields = extract("Conjunctiva: conjunctival intraepithelial neoplasia grade III.", "histai")
    assert fields.get("dysplasia_grade") == "high"
    assert fields.get("diagnosis") == "squamous intraepithelial lesion"


def test_a_breasts_sentinel_node_heading_without_a_comma() -> None:
    fields = extract(
        "Left breast sentinel lymph node biopsy;\nNo metastatic carcinoma (0/2)", "reg2025"
    )
    assert fields.get("organ_site") == "lymph node"
    assert fields.get("lateral_sites") == "left node free"


def test_a_mastectomy_with_its_sentinel_node_stays_the_breast() -> None:
    text = "Left breast, mastectomy and sentinel lymph node biopsy: invasive carcinoma, grade 2."
    assert extract(text, "tcga").get("lateral_sites") == "left breast"


def test_origin_in_the_colon_or_rectum_is_no_tumour_of_the_rectum() -> None:
    text = (
        "Liver lesion (segment VI), core bx:\nAdenocarcinoma, metastatic; the immunoprofile"
        " (CK7-negative, CK20-positive) supports origin in the colon/rectum."
    )
    assert "rectum" not in str(extract(text, "reg2025").get("tumor_site"))


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("CIN 3 with crypt involvement; invasion identified", "present"),
        ("CIN 3 with crypt involvement; no invasion identified", "absent"),
    ],
)
def test_a_bare_invasion_after_a_cin_is_stromal_invasion(line: str, value: str) -> None:
    assert extract(f"Cervix, punch biopsy;\n{line}", "reg2025").get("stromal_invasion") == value


def test_lymphovascular_invasion_identified_is_no_stromal_invasion() -> None:
    text = "Cervix, punch biopsy;\nCIN 3; lymphovascular invasion identified"
    assert "stromal_invasion" not in extract(text, "reg2025")


def test_cin_grade_in_roman_numerals_written_out_in_reg() -> None:
    text = "Cervical punch biopsy:\nHSIL (cervical intraepithelial neoplasia grade III)."
    assert extract(text, "reg2025").get("histologic_type") == "cin 3"


def test_a_lesion_with_its_grade_in_brackets_involving_a_margin() -> None:
    text = (
        "Uterine cervix, LEEP;\nHigh-grade squamous intraepithelial lesion (CIN 3), involving"
        " endocervical margin"
    )
    assert extract(text, "reg2025").get("margin_involved") == "endocervical"


def test_detrusor_present_and_invaded_is_muscularis_propria() -> None:
    text = (
        "Bladder, transurethral resection of tumour:\nHigh-grade invasive urothelial carcinoma."
        " Detrusor muscle is present in the sample and is invaded by carcinoma."
    )
    assert extract(text, "reg2025").get("invasion_depth") == "muscularis propria"


def test_carcinoma_of_the_adrenal_cortex_is_adrenocortical() -> None:
    text = "Adrenalectomy, left: carcinoma of the adrenal cortex measuring 9.5 cm."
    assert extract(text, "tcga").get("diagnosis") == "adrenocortical carcinoma"


def test_findings_absent_to_suggest_a_mole_deny_the_mole() -> None:
    text = (
        "Uterine evacuation: chorionic villi and decidua present; no hydropic change or"
        " trophoblastic hyperplasia to suggest molar pregnancy."
    )
    fields = extract(text, "histai")
    assert fields.get("diagnosis") != "hydatidiform mole"
    assert fields.get("excluded_entities") == "hydatidiform mole"


def test_findings_present_to_suggest_a_carcinoma_keep_it() -> None:
    assert extract("There is marked atypia to suggest carcinoma.", "histai").get("diagnosis") == (
        "carcinoma"
    )


def test_a_clearance_measured_deep_is_no_depth_of_invasion() -> None:
    text = (
        "Scalp skin excision:\nWell-differentiated squamous cell carcinoma infiltrating to a depth"
        " of 3 mm. Clearance is 1 mm deep and 4 mm peripherally."
    )
    assert extract(text, "reg2025").get("depth_of_invasion") == 3.0


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Chronic active gastritis. Lymphoepithelial lesions are present.", "present"),
        ("Chronic active gastritis. No lymphoepithelial lesions.", "absent"),
    ],
)
def test_lymphoepithelial_lesions(text: str, value: str) -> None:
    assert extract(text, "histai").get("lymphoepithelial_lesions") == value


def test_chronic_active_antral_gastritis_is_chronic_gastritis() -> None:
    text = "Conclusion: Helicobacter-associated chronic active antral gastritis."
    assert extract(text, "histai").get("gastritis_type") == "chronic"


@pytest.mark.parametrize(
    ("text", "degree"),
    [
        ("Compound melanocytic naevus with mild cytological and architectural atypia.", "mild"),
        ("Compound naevus showing severe architectural and cytological atypia.", "severe"),
        ("Urothelium showing slight architectural and nuclear atypia.", "mild"),
    ],
)
def test_atypia_named_with_its_architecture(text: str, degree: str) -> None:
    assert extract(text, "histai").get("cytologic_atypia") == degree


@pytest.mark.parametrize(
    ("text", "markers"),
    [
        ("BCL-2 immunostain does not stain germinal center cells.", "bcl2 negative"),
        ("CD10 does not stain the tumour cells; BCL2 is positive.", "cd10 negative + bcl2"),
    ],
)
def test_a_stain_that_does_not_stain_is_negative(text: str, markers: str) -> None:
    assert extract(text, "histai").get("ihc_markers") == markers


def test_an_acid_fast_stain_negative_denies_mycobacteria() -> None:
    fields = extract("Necrotizing granuloma. Acid-fast stain negative.", "histai")
    assert fields.get("organisms") == "mycobacteria negative"


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Tumour regression score 2 (partial response, CAP).", "cap 2"),
        ("Partial treatment response (CAP tumour regression score 2).", "cap 2"),
        ("Tumour regression score 2 (Mandard).", "mandard 2"),
        ("Tumour regression score 2.", "trg 2"),
    ],
)
def test_a_regression_grade_and_its_system_after_a_comment(text: str, grade: str) -> None:
    assert extract(text, "tcga").get("tumor_regression_grade") == grade


def test_a_grade_word_in_brackets_after_the_grade() -> None:
    text = "Tongue, incisional biopsy: squamous mucosa with low-grade (mild) dysplasia."
    assert extract(text, "histai").get("dysplasia_grade") == "low"


def test_an_ovarian_cystectomy_is_no_bladder_specimen() -> None:
    text = "Laparoscopic cystectomy, L ovary:\nDermoid cyst (mature cystic teratoma); benign."
    assert extract(text, "reg2025").get("organ_site") == "ovary"


def test_a_lymphadenectomy_names_its_sides_nodes() -> None:
    text = (
        "Radical wide local excision of vulva (left labium majus) with left inguinofemoral"
        " lymphadenectomy."
    )
    assert extract(text, "tcga").get("lateral_sites") == "left labium + left node"


@pytest.mark.parametrize(
    ("text", "present"),
    [
        (
            "Left supraclavicular node excision (2.2 cm): near-total replacement by metastatic"
            " adenocarcinoma.",
            True,
        ),
        ("Lymph node with no replacement by metastatic tumour.", False),
    ],
)
def test_a_node_replaced_by_metastasis_is_involved(text: str, present: bool) -> None:
    assert (extract(text, "histai").get("lymph_node_involvement") == "present") is present


def test_an_invasion_depth_after_its_layer() -> None:
    text = (
        "Stomach, body, endoscopic submucosal dissection;\nTubular adenocarcinoma, well"
        " differentiated\nInvasion depth: submucosa, 300 um (SM1)"
    )
    fields = extract(text, "reg2025")
    assert fields.get("depth_of_invasion") == 0.3
    assert fields.get("invasion_depth") == "submucosa"


def test_the_superficial_submucosa_is_the_submucosa() -> None:
    text = "Gastric ESD:\nTubular adenocarcinoma invading the superficial submucosa (SM1)."
    assert extract(text, "reg2025").get("invasion_depth") == "submucosa"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Whipple. Margins: none involved, closest the SMV groove at 1.5 mm.", "negative"),
        ("Margins: none are involved.", "negative"),
    ],
)
def test_margins_none_involved_are_clear(text: str, status: str) -> None:
    assert extract(text, "tcga").get("margin_status") == status


def test_nodes_none_involved_stay_a_count() -> None:
    assert extract("Nineteen nodes, none involved.", "tcga").get("lymph_node_involvement") == (
        "0/19"
    )


def test_named_special_stains_negative_deny_their_organisms() -> None:
    text = "Transbronchial biopsy. GMS and AFB special stains negative; no granulomas."
    assert extract(text, "histai").get("organisms") == "fungi negative + mycobacteria negative"


@pytest.mark.parametrize(
    ("line", "depth"),
    [
        ("Muscularis propria: present, involved", "muscularis propria"),
        ("Muscularis propria: present, not involved", None),
    ],
)
def test_a_labelled_muscularis_propria_present_and_its_status(line: str, depth: str | None) -> None:
    text = f"Urinary bladder, transurethral resection;\nInvasive urothelial carcinoma\n{line}"
    assert extract(text, "reg2025").get("invasion_depth") == depth
