"""Findings of version 54: an eyelid named from its eye, "invasive disease" denied, a submucosal
depth in brackets after its code, and margins named by the organ they cross."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    "text",
    [
        "Punch biopsy of skin from the lower lid of the right eye: basal cell carcinoma.",
        "Skin, right eye, lower lid, excision: basal cell carcinoma.",
        "Skin, right lower eyelid: basal cell carcinoma.",
    ],
)
def test_an_eyelid_named_from_its_eye(text: str) -> None:
    found = extract(text, "histai")
    assert found.get("lateral_sites") == "right eyelid"
    assert found.get("skin_site") == "lower eyelid"


def test_the_eye_alone_stays_the_eye() -> None:
    assert extract("Right eye, enucleation: uveal melanoma.", "histai").get("lateral_sites") == (
        "right eye"
    )


@pytest.mark.parametrize(
    "text",
    ["Invasive disease not seen.", "Invasive disease is not seen.", "Invasive disease: absent."],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_invasive_disease_denied(text: str, dataset: str) -> None:
    assert extract(text, dataset).get("invasion_status") == "absent"


def test_a_denied_invasive_disease_keeps_a_loop_excision_apart_from_an_invasive_one() -> None:
    reference = (
        "Cervix, LLETZ: high grade squamous intraepithelial lesion (CIN 2). Margins clear."
        " No invasion. Diagnosis: CIN 2, completely excised."
    )
    rewrite = (
        "Large loop excision of the transformation zone: HSIL/CIN2. Excision margins free."
        " Invasive disease not seen. Conclusion: CIN2, excision complete."
    )
    wrong = reference.replace("No invasion.", "Focal stromal invasion, 1 mm deep.")
    rw, wr = score_pair(reference, rewrite, "histai"), score_pair(reference, wrong, "histai")
    assert rw.CRQS > wr.CRQS


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_a_submucosal_depth_in_brackets_after_its_code(dataset: str) -> None:
    text = "Tubular adenocarcinoma, well differentiated, submucosal invasion SM1 (300 um)"
    assert extract(text, dataset).get("depth_of_invasion") == pytest.approx(0.3)


@pytest.mark.parametrize(
    "text",
    [
        "Total gastrectomy: adenocarcinoma. Oesophageal and duodenal margins clear.",
        "Total gastrectomy: adenocarcinoma. Duodenal resection margin involved.",
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_margin_named_by_its_organ_names_no_second_organ(text: str, dataset: str) -> None:
    assert extract(text, dataset).get("organ_site") == "stomach"


def test_a_duodenal_biopsy_still_names_the_duodenum() -> None:
    assert (
        extract("Duodenal biopsy: normal villous architecture.", "histai").get("organ_site")
        == "duodenum"
    )


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_an_oesophagogastrectomy_is_an_oesophageal_resection(dataset: str) -> None:
    found = extract(
        "Ivor Lewis oesophagogastrectomy: adenocarcinoma of the distal oesophagus.", dataset
    )
    assert found.get("organ_site") == "esophagus"
    assert found.get("specimen_type") == (
        "esophagectomy" if dataset == "tcga" else "organ resection"
    )


def test_the_layer_reached_through_the_muscularis_propria_is_the_depth() -> None:
    text = (
        "Adenocarcinoma, 30 mm, extending through the muscularis propria into adventitial tissue."
    )
    assert extract(text, "tcga").get("invasion_depth") == "perivisceral fat"


@pytest.mark.parametrize(
    "text", ["Biopsies from TI and caecum: normal.", "Biopsies from the TI and colon: normal."]
)
def test_ti_beside_the_large_bowel_is_the_terminal_ileum(text: str) -> None:
    assert "terminal ileum" in extract(text, "histai").get("tumor_site", "")


def test_ti_alone_is_left_as_written() -> None:
    assert "tumor_site" not in extract("TI: 12 mm.", "histai")


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_a_parotidectomy_names_its_sides_parotid(dataset: str) -> None:
    found = extract(
        "Left parotidectomy specimen:\nBenign mixed tumour (pleomorphic adenoma).", dataset
    )
    assert found.get("lateral_sites") == "left parotid"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Metastatic non-small cell carcinoma of adenocarcinoma type.", "adenocarcinoma"),
        ("Non-small cell carcinoma, squamous cell carcinoma type.", "squamous cell carcinoma"),
        ("Lung adenocarcinoma (NSCLC), TTF1 positive.", "adenocarcinoma"),
        ("Non-small cell carcinoma, not otherwise specified.", "non-small cell carcinoma"),
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_non_small_cell_carcinoma_with_its_type_named(
    text: str, value: str, dataset: str
) -> None:
    assert extract(text, dataset).get("diagnosis") == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Liver core. About one third (30%) of hepatocytes show large-droplet fat.", "mild"),
        ("Liver core. Around 50% of hepatocytes contain small-droplet fat.", "moderate"),
    ],
)
def test_a_share_of_hepatocytes_before_droplet_fat_grades_the_steatosis(
    text: str, value: str
) -> None:
    assert extract(text, "tcga").get("steatosis") == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Sentinel nodes: macrometastatic breast carcinoma in one of two.", "macrometastasis"),
        ("Sentinel node: micrometastatic focus, 1.5 mm.", "micrometastasis"),
    ],
)
def test_a_metastasis_size_class_as_an_adjective(text: str, value: str) -> None:
    assert extract(text, "reg2025").get("nodal_metastasis_size") == value


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_intraductal_carcinoma_of_the_prostate_by_its_initials(dataset: str) -> None:
    found = extract("Radical prostatectomy. Acinar adenocarcinoma. IDC-P: present.", dataset)
    assert found.get("histologic_type") != "ductal"
    assert "invasive ductal" not in str(found.get("findings"))


def test_a_side_of_the_colon_agrees_with_the_segment_on_it() -> None:
    reference = (
        "Right colon, right hemicolectomy: adenocarcinoma of the cecum, moderately"
        " differentiated, 5.2 cm. Margins negative. Lymph nodes 0/22."
    )
    rewrite = (
        "Right hemicolectomy: cecal adenocarcinoma, moderately differentiated, 52 mm."
        " Margins negative. Lymph nodes 0/22."
    )
    wrong = rewrite.replace("cecal", "sigmoid")
    for dataset in ("tcga", "histai"):
        assert (
            score_pair(reference, rewrite, dataset).CRQS
            > score_pair(reference, wrong, dataset).CRQS
        )
        left = score_pair(
            "Left colon, biopsy: adenocarcinoma.", "Sigmoid biopsy: adenocarcinoma.", dataset
        )
        assert "tumor_site" in left.matched
        right = score_pair(
            "Left colon, biopsy: adenocarcinoma.", "Caecal biopsy: adenocarcinoma.", dataset
        )
        assert "tumor_site" in right.discordant


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_soft_tissue_around_an_organ_is_no_second_organ(dataset: str) -> None:
    text = (
        "Total thyroidectomy: papillary carcinoma with minimal extrathyroidal extension into"
        " perithyroidal soft tissue."
    )
    assert extract(text, dataset).get("organ_site") == "thyroid"
    assert extract("Soft tissue, thigh, excision: lipoma.", dataset).get("organ_site") == (
        "soft tissue"
    )


@pytest.mark.parametrize(
    "text",
    [
        "Skin, right forearm, shave biopsy;\nActinic keratosis, no evidence of invasive malignancy",
        "Shave of right forearm skin:\nSolar (actinic) keratosis; there is no invasive malignancy.",
    ],
)
def test_reg_reads_an_actinic_keratosis(text: str) -> None:
    assert extract(text, "reg2025").get("diagnosis") == "actinic keratosis"


def test_reg_bowen_disease_is_no_urothelial_carcinoma_in_situ() -> None:
    text = "Skin, right forearm, shave biopsy;\nSquamous cell carcinoma in situ (Bowen's disease)"
    assert extract(text, "reg2025").get("in_situ_component") == "squamous cis"
    bladder = "Urinary bladder, biopsy;\nUrothelial carcinoma in situ"
    assert extract(bladder, "reg2025").get("in_situ_component") == "urothelial cis"


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_in_situ_carcinoma_named_again_is_no_second_entity(dataset: str) -> None:
    text = (
        "Left breast VAB:\nHigh-grade DCIS with comedo-type necrosis; calcification is seen in"
        " association with the in situ carcinoma."
    )
    found = extract(text, dataset)
    assert found.get("diagnosis") == "ductal carcinoma in situ"
    assert found.get("nuclear_grade") == "high"
    assert "tumor_grade" not in found  # a DCIS grade is its nuclear grade


def test_a_hepatitis_grade_is_no_tumour_grade_in_histai() -> None:
    text = "Chronic hepatitis, grade 2 of 4, fibrosis stage 1 of 4 (Batts-Ludwig, trichrome)."
    assert "tumor_grade" not in extract(text, "histai")
    assert extract("Invasive ductal carcinoma, grade 2.", "histai").get("tumor_grade") == "2"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "Chronic hepatitis - Batts-Ludwig grade 2/4, stage 1/4 on trichrome.",
            "batts ludwig stage 1",
        ),
        ("Steatohepatitis (NAS 5 of 8) with stage 3 (bridging) fibrosis.", "stage 3"),
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_fibrosis_stage_wordings(text: str, value: str, dataset: str) -> None:
    assert extract(text, dataset).get("fibrosis_stage") == value


def test_the_mesorectal_adipose_tissue_reached_through_the_muscularis_propria() -> None:
    text = (
        "LAR: adenocarcinoma extending beyond the muscularis propria into mesorectal adipose"
        " tissue. Nodes: negative (pN0)."
    )
    assert extract(text, "tcga").get("invasion_depth") == "perivisceral fat"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "Lung biopsy:\nNSCLC, favouring squamous differentiation: p40 positive.",
            "squamous cell carcinoma",
        ),
        (
            "Lung biopsy:\nNSCLC, favour glandular differentiation (TTF1 positive).",
            "adenocarcinoma",
        ),
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_the_favoured_lineage_names_the_carcinoma(text: str, value: str, dataset: str) -> None:
    assert extract(text, dataset).get("diagnosis") == value


@pytest.mark.parametrize(
    "text",
    [
        "Tumour reaches the posterior surface (clearance 0 mm); all remaining margins clear.",
        "Posterior margin: 0 mm.",
    ],
)
def test_a_margin_clearance_of_zero_is_an_involved_margin(text: str) -> None:
    assert extract(text, "tcga").get("margin_status") == "positive"


def test_a_clearance_of_ten_millimetres_is_no_involved_margin() -> None:
    assert extract("Margins: 10 mm clearance.", "tcga").get("margin_status") != "positive"


@pytest.mark.parametrize(
    ("text", "value"),
    [("Neuroendocrine tumour, grade 1 (Ki-67 <3%)", 3.0), ("Ki-67 index less than 2%.", 2.0)],
)
@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_a_ki67_index_below_a_bound(text: str, value: float, dataset: str) -> None:
    assert extract(text, dataset).get("ki67_index") == pytest.approx(value)


def test_the_duodenum_named_after_the_small_intestine() -> None:
    text = (
        "Small intestine, duodenum, endoscopic biopsy;\nWell differentiated neuroendocrine tumour"
    )
    assert extract(text, "reg2025").get("tumor_site") == "duodenum"


def test_a_nodal_group_with_its_station_in_brackets() -> None:
    found = extract("Nodes: hilar (10) none of 3, subcarinal (7) none of 4.", "tcga")
    assert found.get("lymph_node_stations") == "10 + 7"
    assert found.get("lymph_node_involvement") == "0/7"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "Segmentectomy V/VI of liver: hepatocellular carcinoma.",
            "liver segment 5 + liver segment 6",
        ),
        ("Liver, segmentectomy 6: hepatocellular carcinoma.", "liver segment 6"),
    ],
)
def test_the_segments_a_segmentectomy_names(text: str, value: str) -> None:
    assert extract(text, "tcga").get("tumor_site") == value


def test_a_size_before_the_weight() -> None:
    text = "Adrenal cortical carcinoma, 11.0 cm and weighing 420 grams."
    assert extract(text, "tcga").get("tumor_size") == pytest.approx(11.0)


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_the_ala_of_the_nose_and_a_teratoma_named_mature_after_it(dataset: str) -> None:
    assert (
        extract("Punch biopsy from the left ala of nose:\nNodular BCC.", dataset).get(
            "lateral_sites"
        )
        == "left nasal ala"
    )
    text = "Mixed germ cell tumour: embryonal carcinoma 60%, teratoma (mature) 40%."
    assert "mature teratoma" in extract(text, dataset).get("findings", "")


def test_special_stains_that_show_no_microorganisms() -> None:
    found = extract("ZN and GMS stains show no microorganisms.", "histai")
    assert found.get("organisms") == "fungi negative + mycobacteria negative"


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Right posterior iliac crest, marrow aspirate and trephine.", "organ_site", "bone"),
        (
            "Chronic hepatitis B, moderate activity, and stage F3 (bridging) fibrosis.",
            "fibrosis_stage",
            "stage 3",
        ),
        ("Conclusion: cryptococcal granulomatous pneumonitis.", "diagnosis", "cryptococcosis"),
    ],
)
def test_histai_wordings(text: str, field: str, value: str) -> None:
    assert extract(text, "histai").get(field) == value


def test_a_close_margin_is_a_negative_one() -> None:
    reference = "Glossectomy: SCC, 24 mm. Deep margin 3 mm; mucosal margins clear (>5 mm)."
    rewrite = "Glossectomy: SCC, 2.4 cm. Deep margin close at 3 mm; mucosal margins over 5 mm."
    wrong = "Glossectomy: SCC, 24 mm. Deep margin involved; mucosal margins clear (>5 mm)."
    rw, wr = score_pair(reference, rewrite, "tcga"), score_pair(reference, wrong, "tcga")
    assert "margin_status" in rw.matched
    assert rw.CRQS > wr.CRQS


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_an_infiltrative_component_beside_a_nodular_type(dataset: str) -> None:
    text = (
        "Skin, left nasal ala, punch biopsy;\n"
        "Basal cell carcinoma, nodular type, with infiltrative component"
    )
    assert extract(text, dataset).get("histologic_type") == "nodular + infiltrative"


def test_a_tumour_that_invades_the_capsule_has_capsular_invasion_only() -> None:
    found = extract("Adrenocortical carcinoma, 11 cm. Tumour invades the capsule.", "tcga")
    assert found.get("capsular_invasion") == "present"
    assert "invasion_status" not in found


def test_the_invasive_encapsulated_follicular_variant_is_a_name() -> None:
    text = (
        "Left thyroid lobectomy: papillary thyroid carcinoma, invasive encapsulated follicular"
        " variant, 2.2 cm. Capsular invasion present."
    )
    found = extract(text, "tcga")
    assert found.get("capsular_invasion") == "present"
    assert "invasion_status" not in found


@pytest.mark.parametrize(
    "text", ["SCC (p16 block staining absent).", "SCC; p16 without block staining."]
)
def test_p16_block_staining_stated_absent_is_negative(text: str) -> None:
    assert extract(text, "tcga").get("ihc_markers") == "p16 negative"


def test_a_pancreatic_ductal_carcinoma_is_an_adenocarcinoma() -> None:
    text = "Pancreaticoduodenectomy: invasive ductal carcinoma of the pancreatic head, 2.8 cm."
    assert extract(text, "tcga").get("diagnosis") == "adenocarcinoma"
    assert extract("Breast: invasive ductal carcinoma.", "tcga").get("diagnosis") == "carcinoma"


@pytest.mark.parametrize(
    "text",
    [
        "Whipple: ductal adenocarcinoma. Tumour invades the superior mesenteric vein wall.",
        "Whipple: ductal adenocarcinoma. Tumour invades the wall of the resected SMV.",
    ],
)
def test_a_superior_mesenteric_vein_invaded(text: str) -> None:
    assert extract(text, "tcga").get("organ_involvement") == "superior mesenteric vein"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_carcinoma_in_situ_with_its_kind_in_brackets(dataset: str) -> None:
    text = (
        "Bladder dome, cold-cup biopsies: flat atypical urothelium. Conclusion: CIS (urothelial)."
    )
    assert extract(text, dataset).get("findings") == "urothelial carcinoma in situ"


def test_ebus_lines_led_by_their_sided_station() -> None:
    text = (
        "Endobronchial ultrasound-guided node aspirates, known left lung primary:\n"
        "4R - lymphoid material, negative for malignancy.\n"
        "4L - positive for metastatic adenocarcinoma."
    )
    found = extract(text, "reg2025")
    assert found.get("lymph_node_stations") == "4l + 4r"
    assert found.get("organ_site") == "lymph node"


def test_a_sentinel_node_biopsy_with_its_count() -> None:
    found = extract("Sentinel lymph node biopsy (right groin): 0/2 involved.", "tcga")
    assert found.get("lymph_node_involvement") == "0/2"
    assert found.get("lymph_nodes_examined") == "2"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Tumor regression score 2 (CAP; partial response).", "cap 2"),
        ("CAP tumour regression score 2 (partial response).", "cap 2"),
        ("Tumour regression grade 2.", "trg 2"),
    ],
)
def test_a_regression_score_with_its_system(text: str, value: str) -> None:
    assert extract(text, "tcga").get("tumor_regression_grade") == value


def test_an_ishak_grade_then_stage_is_no_tnm_stage() -> None:
    found = extract("Chronic hepatitis B; modified Ishak grade 7 of 18, stage 3 of 6.", "tcga")
    assert found.get("fibrosis_stage") == "ishak stage 3"
    assert "stage_group" not in found


def test_a_secretory_endometrium_stated_as_its_phase() -> None:
    text = "Leiomyomas. Endometrium is secretory; cervix not included."
    assert "secretory endometrium" in extract(text, "histai").get("findings", "")


def test_reg_chronic_gastritis_with_neutrophilic_active_inflammation() -> None:
    text = "Gastric antrum, biopsy:\nChronic gastritis with neutrophilic (active) inflammation"
    assert extract(text, "reg2025").get("inflammation_activity") == "chronic active"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("HER2 2+ with ISH amplification (HER2/CEP17 ratio 3.1).", "positive"),
        ("HER2 2+ without ISH amplification (HER2/CEP17 ratio 1.3).", "negative"),
        ("HER2 2+, no amplification by FISH.", "negative"),
    ],
)
def test_her2_amplification_stated_absent(text: str, value: str) -> None:
    assert extract(text, "tcga").get("her2_status") == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("ER positive in 95% and progesterone receptor in 60% of tumour cells.", "positive"),
        ("ER positive in 95%; progesterone receptor in 0% of tumour cells.", "negative"),
    ],
)
def test_the_progesterone_receptor_by_its_share_of_cells(text: str, value: str) -> None:
    assert extract(text, "tcga").get("pr_status") == value


def test_a_metastatic_non_small_cell_carcinoma_is_metastatic() -> None:
    text = "EBUS-TBNA, station 10R: metastatic non-small cell carcinoma, TTF-1 positive."
    assert extract(text, "histai").get("primary_vs_metastatic") == "metastatic"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_asap_named_after_a_suspicion_that_is_not_diagnostic(dataset: str) -> None:
    text = (
        "Left base: small focus of atypical glands suspicious for, but not diagnostic of,"
        " carcinoma (ASAP); repeat biopsy recommended."
    )
    found = extract(text, dataset)
    assert found.get("diagnosis") == "atypical small acinar proliferation"
    assert "atypical small acinar proliferation" not in found.get("excluded_entities", "")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Omentum with metastatic carcinoma, 2.5 cm. Lymph nodes 0/8.", "present"),
        ("Omental deposit 25 mm. Lymph nodes 0/8.", "present"),
        ("Omentum: no tumour deposits. Lymph nodes 0/8.", "absent"),
    ],
)
def test_an_omental_metastasis_beside_negative_nodes(text: str, value: str) -> None:
    assert extract(text, "tcga").get("metastatic_involvement") == value


def test_carcinoma_in_situ_with_its_kind_after_a_comma() -> None:
    text = "Cold-cup biopsy, bladder dome: full-thickness atypia. Impression: CIS, urothelial."
    assert extract(text, "histai").get("diagnosis") == "urothelial carcinoma in situ"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_nodular_benign_prostatic_hyperplasia_with_its_qualifier_in_brackets(dataset: str) -> None:
    text = "Conclusion: nodular (benign) prostatic hyperplasia; no evidence of malignancy."
    assert extract(text, dataset).get("diagnosis") == "benign prostatic hyperplasia"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Acinar adenocarcinoma, involving 2 of 3 cores, maximum tumour length 3 mm", 0.3),
        ("Acinar adenocarcinoma, tumour length 2 mm in 1 of 2 cores", 0.2),
        ("Adenocarcinoma in two of three cores; greatest linear extent 0.3 cm.", 0.3),
    ],
)
def test_a_needle_core_tumour_length(text: str, value: float) -> None:
    found = extract("Prostate, left base, needle biopsy;\n" + text, "reg2025")
    assert found.get("tumor_size") == pytest.approx(value)


def test_an_omentum_involved_by_tumour_and_bilateral_ovarian_carcinoma() -> None:
    found = extract(
        "Bilateral ovarian high-grade serous carcinoma. Omentum involved by tumour, 25 mm.", "tcga"
    )
    assert found.get("metastatic_involvement") == "present"
    assert found.get("organ_involvement") == "ovary + omentum"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_predominantly_solid_adenocarcinoma(dataset: str) -> None:
    text = "Adenocarcinoma, predominantly solid (60% solid, 30% acinar, 10% lepidic), 38 mm."
    found = extract(text, dataset).get("histologic_type", "")
    assert set(found.split(" + ")) == {"acinar", "lepidic", "solid"}


@pytest.mark.parametrize(
    "text",
    [
        "Conclusion: granulomatous lymphadenitis; sarcoidosis to be considered clinically.",
        "Conclusion: granulomatous lymphadenitis; consider sarcoidosis in the clinical context.",
        "Diagnosis: granulomatous lymphadenitis, ?sarcoidosis - correlate clinically.",
    ],
)
def test_a_diagnosis_left_to_the_clinician_is_no_diagnosis(text: str) -> None:
    found = extract(text, "histai")
    assert found.get("diagnosis") == "granulomatous inflammation"
    assert "sarcoidosis" not in found.get("findings", "")


def test_a_stated_sarcoidosis_stays() -> None:
    text = "Conclusion: non-necrotising granulomas, consistent with sarcoidosis."
    assert extract(text, "histai").get("diagnosis") == "sarcoidosis"
