"""Node counts listed by station, lists of colon parts, Nottingham scores by their initials, the
organ of a lymph node dissection, and other facts in the wordings that other writers use.

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract


@pytest.mark.parametrize(
    ("text", "involved"),
    [
        ("Lobectomy. Lymph nodes: 0/3 hilar, 0/5 subcarinal. pN0.", "0/8"),
        ("Lymph nodes: 1/7 interlobar and 0/2 paratracheal.", "1/9"),
        ("Nodes: 2/11 pericolic, 1/4 apical; pN1b.", "3/15"),
    ],
)
def test_node_counts_listed_by_station_are_summed(text, involved):
    fields = extract(text, "tcga")
    assert fields["lymph_node_involvement"] == involved
    assert fields["lymph_nodes_examined"] == involved.split("/")[1]


def test_one_station_count_is_not_summed_with_a_stage():
    assert extract("Lymph nodes: 0/6 hilar, pN0.", "tcga")["lymph_node_involvement"] == "0/6"


@pytest.mark.parametrize(
    "text",
    [
        "Invasive carcinoma NST, grade 3 (T3 P3 M2), 25 mm.",
        "Invasive ductal carcinoma, Nottingham grade 3 (T3, P3, M2; 8/9).",
    ],
)
def test_nottingham_scores_by_their_initials_are_no_distant_metastasis(text):
    fields = extract(text, "tcga")
    assert fields["nottingham_components"] == "mitoses 2 + pleomorphism 3 + tubules 3"
    assert "pm_stage" not in fields
    assert fields.get("metastatic_involvement") != "present"


def test_a_tnm_m1_is_still_a_distant_metastasis():
    assert extract("Adenocarcinoma, pT3 N1 M1 (liver).", "tcga")["pm_stage"] == "m1"


def test_a_nottingham_score_after_its_components():
    text = "Invasive lobular carcinoma, grade 2 (tubules 3, nuclei 2, mitoses 2; score 7)."
    assert extract(text, "tcga")["nottingham_score"] == 7.0


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_list_of_colon_parts_names_each_part(dataset):
    text = "Biopsies. Ascending, transverse and descending colon: unremarkable mucosa."
    sites = set(extract(text, dataset)["tumor_site"].split(" + "))
    assert {"ascending colon", "transverse colon", "descending colon"} <= sites


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_angioinvasion_counted_in_vessels(dataset):
    text = "Follicular thyroid carcinoma, 28 mm, with invasion of three vessels."
    assert extract(text, dataset)["lymphovascular_invasion"] == "present"
    text = "Follicular adenoma. No invasion of vessels is seen."
    assert extract(text, dataset).get("lymphovascular_invasion") == "absent"


def test_a_tonsillectomy_names_its_side_and_organ():
    fields = extract("Right tonsillectomy: squamous cell carcinoma, 19 mm.", "tcga")
    assert fields["organ_site"] == "head and neck"
    assert "right tonsil" in fields["lateral_sites"].split(" + ")


@pytest.mark.parametrize(
    "text",
    ["Left renal pelvis, biopsy: urothelial carcinoma.", "Renal pelvis, left, biopsy: carcinoma."],
)
def test_the_renal_pelvis_is_a_sided_site(text):
    assert "left renal pelvis" in extract(text, "tcga")["lateral_sites"].split(" + ")


def test_an_axillary_dissection_is_a_lymph_node_specimen():
    text = "Right axillary lymphadenectomy: metastatic carcinoma in 2/17 nodes."
    assert extract(text, "reg2025")["organ_site"] == "lymph node"
    # A radical operation with its node dissection keeps the organ it is done for.
    text = "Radical hysterectomy with pelvic lymphadenectomy: squamous cell carcinoma of the cervix"
    assert extract(text, "reg2025")["organ_site"] != "lymph node"


def test_colon_then_rectum_is_the_rectum():
    text = "Colon, rectum, biopsy; Tubular adenoma with low grade dysplasia"
    assert extract(text, "reg2025")["organ_site"] == "rectum"


def test_a_fibrosis_stage_in_brackets_after_its_pattern():
    text = "Liver, needle biopsy; Chronic hepatitis; fibrosis: portal (stage 1)"
    assert extract(text, "reg2025")["fibrosis_stage"] == "stage 1"


def test_a_share_of_a_counted_core():
    text = "Prostate, right base, biopsy: adenocarcinoma, Gleason 3+4=7, 30% of 2 cores."
    assert extract(text, "histai")["tumor_volume"] == 30.0


def test_candidiasis_of_the_oesophagus_is_an_oesophagitis_with_fungi():
    fields = extract("Oesophagus, biopsy. Conclusion: oesophageal candidiasis.", "histai")
    assert fields["diagnosis"] == "esophagitis"
    assert fields["organisms"] == "fungi"


@pytest.mark.parametrize(
    "text",
    [
        "Bladder biopsy: low-grade papillary urothelial carcinoma; no muscle for assessment of "
        "invasion.",
        "Ureter: papillary urothelial carcinoma, invasion therefore not assessable.",
    ],
)
def test_invasion_that_cannot_be_assessed_is_no_status(text):
    assert "invasion_status" not in extract(text, "histai")


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_no_intraepithelial_neoplasia_reads_as_no_dysplasia_only(dataset):
    fields = extract("Colon, biopsies: negative for intraepithelial neoplasia.", dataset)
    assert "malignancy_status" not in fields
    assert "tumor_free_sites" not in fields
    assert fields.get("benign_vs_malignant") != "benign"


def test_margin_distances_listed_after_the_clear_margins():
    text = "Skin, excision: SCC, 9 mm. Clear margins: 2 mm peripherally, 5 mm deep."
    fields = extract(text, "histai")
    assert set(fields["margin_distance"].split(" + ")) == {"0.2", "0.5"}
    assert "depth_of_invasion" not in fields


def test_a_size_before_diameter():
    assert extract("Basal cell carcinoma, 7 mm diameter.", "histai")["tumor_size"] == 0.7


@pytest.mark.parametrize(
    "text",
    [
        "Kidney, left, core biopsy; Papillary renal cell carcinoma, no tumour necrosis",
        "Uterus, myomectomy; Leiomyoma, 6 cm. No coagulative tumor necrosis.",
    ],
)
def test_no_tumour_necrosis_is_no_tumour_free_statement(text):
    fields = extract(text, "reg2025")
    assert fields["necrosis"] == "absent"
    assert "tumor_free_sites" not in fields
    assert not any(site.endswith(" free") for site in fields.get("lateral_sites", "").split(" + "))


def test_no_tumour_then_a_new_sentence_is_still_tumour_free():
    text = "Left ovary and uterus: no tumour. Omental metastasis, 1 cm."
    assert extract(text, "tcga")["tumor_free_sites"] == "1"


@pytest.mark.parametrize(
    "text",
    [
        "Lymph nodes, right axillary, dissection; metastatic carcinoma in 2/9 nodes; "
        "macrometastasis, 6 mm",
        "Right neck dissection; one node with metastatic carcinoma (1/22) measuring 12 mm",
    ],
)
def test_a_nodal_deposit_size_is_no_tumour_size(text):
    assert "tumor_size" not in extract(text, "reg2025")


def test_a_distance_clear_of_a_margin_is_no_tumour_size():
    text = "Colon, polypectomy; adenocarcinoma. The carcinoma is 3 mm clear of the stalk margin."
    assert "tumor_size" not in extract(text, "reg2025")


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_adenocarcinoma_arising_in_barretts(dataset):
    text = "Oesophagectomy: adenocarcinoma arising in Barrett's, 25 mm, pT2."
    assert "barrett esophagus" in extract(text, dataset)["findings"].split(" + ")


def test_a_dermoid_cyst_is_the_teratoma_not_a_second_lesion():
    """One benign lesion named twice (the ovary's mature teratoma is no malignant germ cell
    tumour)."""
    text = "Left ovary, cystectomy; Mature cystic teratoma (dermoid cyst)"
    assert extract(text, "reg2025")["findings"] == "mature teratoma"


def test_granulomas_of_epithelioid_and_giant_cells_are_no_histologic_type():
    text = "Lymph node: epithelioid and giant-cell granulomas with caseous necrosis."
    assert "histologic_type" not in extract(text, "histai")
    assert extract("Epithelioid mesothelioma of the pleura.", "histai")["histologic_type"] == (
        "epithelioid"
    )


@pytest.mark.parametrize(
    ("text", "status", "lost"),
    [
        ("Colon: adenocarcinoma. MMR IHC: MLH1 - lost; PMS2 - lost; MSH2 - intact.", "deficient",
         "mlh1 + pms2"),
        ("Rectum: adenocarcinoma. MMR proteins: extinction of MSH2 and of MSH6.", "deficient",
         "msh2 + msh6"),
        ("Stomach: adenocarcinoma. Mismatch repair proteins (MLH1, PMS2, MSH2, MSH6) with "
         "retained expression.", "proficient", None),
    ],
)  # fmt: skip
def test_mismatch_repair_results_in_other_layouts(text, status, lost):
    fields = extract(text, "tcga")
    assert fields["mmr_msi_status"] == status
    assert fields.get("mmr_proteins_lost") == lost


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Breast, core biopsy; DCIS, NG 3 (high), comedo type.", "3"),
        ("Breast, excision: DCIS, low grade, 4 mm.", "low"),
        ("Breast: invasive carcinoma with a high-grade intraductal component.", "high"),
        ("Breast: intraductal carcinoma (DCIS) of low grade, 6 mm.", "low"),
    ],
)
def test_the_grade_of_a_dcis_is_its_nuclear_grade(dataset, text, grade):
    assert extract(text, dataset)["nuclear_grade"] == grade


def test_a_dcis_nuclear_grade_stated_in_a_sentence_of_its_own():
    text = "Breast, core biopsy; ductal carcinoma in situ. The nuclear grade is high."
    assert extract(text, "reg2025")["nuclear_grade"] == "high"


def test_a_renal_grade_by_its_letter_before_the_system():
    assert extract("Kidney: clear cell RCC, G2 (WHO/ISUP), 30 mm.", "tcga")["nuclear_grade"] == "2"


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("Colon, anterior resection: adenocarcinoma, 28 mm, infiltrating m. propria.",
         "muscularis propria"),
        ("Cystectomy: urothelial carcinoma; perivesical soft tissue invasion, microscopic.",
         "perivisceral fat"),
        ("Gastrectomy: adenocarcinoma, 40 mm, into subserosal connective tissue.", "subserosa"),
        ("Polypectomy: adenoma with a focus of invasive adenocarcinoma in the submucosa.",
         "submucosa"),
    ],
)  # fmt: skip
def test_the_deepest_layer_in_terse_wordings(text, depth):
    assert extract(text, "tcga")["invasion_depth"] == depth


def test_a_no_after_a_colon_that_opens_a_statement_of_its_own():
    # The colon ends the clinical context; "No ..." negates the metastasis, not the primary.
    text = (
        "Sentinel lymph nodes, right groin, for vulval squamous cell carcinoma: No metastatic "
        "carcinoma in two lymph nodes (0/2)."
    )
    assert "squamous cell carcinoma" not in extract(text, "histai").get("excluded_entities", "")
    # A finding's own status after its label still reads: "LVI: no".
    fields = extract("Carcinoma. LVI: no. Perineural invasion: no.", "histai")
    assert fields["lymphovascular_invasion"] == "absent"
    assert fields["perineural_invasion"] == "absent"
    assert extract("Seminal vesicles: no tumour.", "tcga")["seminal_vesicle_invasion"] == "absent"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    "text",
    [
        "Oesophageal biopsies (prox. & distal): reflux changes.",
        "Oesophageal biopsies of the upper and lower third: reflux changes.",
    ],
)
def test_two_parts_of_the_oesophagus_in_short(dataset, text):
    assert extract(text, dataset)["tumor_site"] == "upper third + lower third"


def test_a_prox_margin_is_still_a_margin():
    assert "tumor_site" not in extract("Colon resection, prox. margin: free.", "tcga")


def test_the_curvature_of_the_body_is_the_gastric_body():
    text = "Gastrectomy: adenocarcinoma, 30 mm, greater curvature of the body."
    assert extract(text, "tcga")["tumor_site"] == "body + greater curvature"


@pytest.mark.parametrize(
    "text",
    [
        "Lymph node: caseating lymphadenitis; tuberculosis to be excluded by culture.",
        "Lymph node: granulomatous lymphadenitis; PCR advised to rule out TB.",
    ],
)
def test_an_entity_to_be_excluded_by_a_work_up_is_neither_present_nor_absent(text):
    fields = extract(text, "histai")
    assert fields["diagnosis"] != "tuberculosis"
    assert "tuberculosis" not in fields.get("excluded_entities", "")


@pytest.mark.parametrize(
    ("text", "diagnosis"),
    [
        ("Sigmoid polyp, polypectomy. Conclusion: polyp hyperplastic, 5 mm.", "hyperplastic polyp"),
        ("Lymph node, excision. Diagnosis: hyperplasia follicularis reactiva.",
         "reactive lymphoid hyperplasia"),
        ("Left pelvic LN dissection: metastatic UC in one of seven nodes (1/7).",
         "urothelial carcinoma"),
    ],
)  # fmt: skip
def test_names_written_in_another_order_or_by_initials(text, diagnosis):
    assert extract(text, "histai")["diagnosis"] == diagnosis


def test_ulcerative_colitis_by_its_initials_stays_a_colitis():
    text = "Rectum, biopsy: chronic active UC, no dysplasia."
    assert extract(text, "histai")["diagnosis"] == "ulcerative colitis"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_part_of_a_measured_whole_is_a_measurement(dataset):
    text = "TAH-BSO: endometrioid carcinoma, FIGO grade 1. Myometrial invasion 5/17 mm (<50%)."
    assert set(extract(text, dataset)["measurements"].split(" + ")) == {"0.5", "1.7"}


def test_a_grade_before_a_slash_is_no_measurement():
    text = "Breast, mastectomy --- ILC, classic / Nottingham G2 / 23 mm / LVI: none"
    assert extract(text, "tcga")["measurements"] == 2.3


@pytest.mark.parametrize(
    "text",
    [
        "Vulvectomy: SCC. Groin nodes: right 1 of 9, left 0 of 4. pN1a.",
        "Right inguinal nodes 1/9 (deposit 3 mm); left 0/4.",
        "Groin LN: Rt 1 of 9 positive, deposit 3 mm, ENE absent; Lt 0 of 4.",
    ],
)
def test_node_counts_per_side_are_summed(text):
    assert extract(text, "tcga")["lymph_node_involvement"] == "1/13"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Gastrectomy: adenocarcinoma, pT3; ly1, v0; PM0, DM0; LN 0/30.", "negative"),
        ("Gastrectomy: adenocarcinoma, pT3; PM1, DM0; LN 0/30.", "positive"),
    ],
)
def test_japanese_margin_codes_are_margins_not_a_distant_metastasis_stage(text, status):
    fields = extract(text, "tcga")
    assert fields["margin_status"] == status
    assert "pm_stage" not in fields


@pytest.mark.parametrize(
    "text",
    [
        "Rectal polyp, polypectomy: tubular adenoma, low-grade dysplasia, removed completely.",
        "Sigmoid polypectomy: adenocarcinoma; the carcinoma is 3 mm clear of the stalk margin.",
    ],
)
def test_a_complete_removal_or_a_clearance_is_a_free_margin(text):
    assert extract(text, "reg2025")["margin_status"] == "free"
