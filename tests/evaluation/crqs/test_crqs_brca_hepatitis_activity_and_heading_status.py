"""Findings of version 55: BRCA status, a hepatitis's Ishak activity score, a tumour of the
appendix, and the status line under a one-line specimen heading."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Somatic BRCA1 pathogenic variant detected.", "brca1 mutant"),
        ("Tumour BRCA1 testing: pathogenic variant identified.", "brca1 mutant"),
        ("Germline BRCA2 mutation.", "brca2 mutant"),
        ("BRCA2-mutated high-grade serous carcinoma.", "brca2 mutant"),
        ("Somatic BRCA1 pathogenic variant not detected.", "brca1 mutant negative"),
        ("BRCA1 testing: no pathogenic variant detected.", "brca1 mutant negative"),
        ("BRCA2 status: wild type.", "brca2 mutant negative"),
        ("No BRCA1 or BRCA2 mutation.", "brca1 mutant negative + brca2 mutant negative"),
        (
            "BRCA1 and BRCA2 mutations were not detected.",
            "brca1 mutant negative + brca2 mutant negative",
        ),
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_brca_status_per_gene(text: str, status: str, dataset: str) -> None:
    assert extract(text, dataset).get("brca_status") == status


def test_a_brca_test_without_its_result_states_no_status() -> None:
    assert "brca_status" not in extract("BRCA1 and BRCA2 testing has been requested.", "tcga")


def test_a_brca_result_reversed_is_caught() -> None:
    reference = (
        "Hysterectomy, bilateral salpingo-oophorectomy and omentectomy: high-grade serous"
        " carcinoma of both ovaries, omental deposits up to 20 mm. WT1 positive, p53 aberrant."
        " Germline BRCA2 pathogenic variant detected. pT3c."
    )
    rewrite = (
        "TAH, BSO and omentectomy. Bilateral ovarian high-grade serous carcinoma with omental"
        " metastases (largest 2.0 cm). Immunoprofile WT1+, p53 aberrant. BRCA2 germline testing:"
        " pathogenic variant identified. Stage pT3c."
    )
    wrong = reference.replace("variant detected", "variant not detected")
    rw, wr = score_pair(reference, rewrite, "tcga"), score_pair(reference, wrong, "tcga")
    assert rw.CRQS > wr.CRQS


@pytest.mark.parametrize(
    "text",
    [
        "KRAS G12D mutation not detected.",
        "KRAS G12C mutation: not detected.",
        "KRAS G12D negative.",
    ],
)
def test_a_kras_variant_not_detected_is_wild_type_only(text: str) -> None:
    assert extract(text, "tcga").get("kras_status") == "wild type"


def test_a_kras_variant_detected_stays_mutant() -> None:
    assert extract("KRAS G12D mutation detected.", "tcga").get("kras_status") == "mutant"


@pytest.mark.parametrize(
    ("text", "degree"),
    [
        ("Chronic hepatitis B, modified Ishak necroinflammatory grade 7/18, stage 3/6.", "mild"),
        ("Chronic hepatitis B; modified Ishak grade 7 of 18, stage 3 of 6.", "mild"),
        ("Chronic hepatitis C, HAI score 3/18.", "minimal"),
        ("Chronic hepatitis C, Ishak activity score 10/18.", "moderate"),
        ("Chronic hepatitis B, modified Ishak necroinflammatory grade 14/18.", "severe"),
    ],
)
def test_the_ishak_activity_score_in_its_bands(text: str, degree: str) -> None:
    assert extract(text, "histai").get("inflammation_severity") == degree


def test_an_ishak_fibrosis_stage_is_no_activity_degree() -> None:
    found = extract("Liver biopsy: chronic hepatitis, Ishak fibrosis stage 3/6.", "histai")
    assert "inflammation_severity" not in found
    assert found.get("fibrosis_stage") == "ishak stage 3"


def test_a_changed_ishak_activity_score_is_caught() -> None:
    reference = (
        "Liver core biopsy, 22 mm with 12 portal tracts. Chronic hepatitis with interface"
        " hepatitis. Conclusion: chronic hepatitis B, modified Ishak necroinflammatory grade"
        " 6/18, fibrosis stage 2/6."
    )
    rewrite = (
        "Needle core of liver, 2.2 cm, 12 portal tracts: chronic hepatitis B with interface"
        " activity; modified Ishak grade 6 of 18, stage 2 of 6."
    )
    wrong = reference.replace("grade 6/18", "grade 15/18")
    rw, wr = score_pair(reference, rewrite, "histai"), score_pair(reference, wrong, "histai")
    assert rw.CRQS > wr.CRQS


@pytest.mark.parametrize("dataset", ["reg2025", "histai"])
def test_an_adenoma_with_high_grade_dysplasia_denied_after_a_semicolon(dataset: str) -> None:
    text = "Ascending colon polyp, snare excision:\nTubular adenoma, 12 mm; negative for HGD."
    assert extract(text, dataset).get("dysplasia_grade") == "low"


def test_an_omentum_that_is_involved_by_carcinoma_beside_negative_nodes() -> None:
    text = (
        "Omentum is involved by metastatic carcinoma, largest deposit 3.5 cm."
        " Pelvic lymph nodes: 0 of 8 involved."
    )
    assert extract(text, "tcga").get("metastatic_involvement") == "present"


def test_an_omentum_not_involved_stays_absent() -> None:
    text = "Omentum is not involved by tumour. Pelvic lymph nodes 0/8."
    assert extract(text, "tcga").get("metastatic_involvement") == "absent"


@pytest.mark.parametrize(
    "text",
    [
        "Adenocarcinoma of the appendix, 5.5 cm.",
        "Low-grade appendiceal mucinous neoplasm confined to the wall.",
        "Well-differentiated neuroendocrine tumour arising in the appendix, 9 mm.",
    ],
)
def test_a_tumour_of_the_appendix(text: str) -> None:
    assert extract(text, "tcga").get("tumor_site") == "appendix"


def test_an_appendix_sent_with_a_hemicolectomy_is_no_tumour_site() -> None:
    text = (
        "Right colon with terminal ileum and appendix, right hemicolectomy. Adenocarcinoma of the"
        " cecum, 5.5 cm."
    )
    assert "appendix" not in str(extract(text, "tcga").get("tumor_site"))


def test_a_caecal_tumour_moved_to_the_appendix_is_caught() -> None:
    reference = (
        "Right colon with terminal ileum and appendix, right hemicolectomy. Adenocarcinoma of the"
        " cecum, moderately differentiated, 5.5 cm, invading subserosal tissue. Margins negative."
        " Metastatic carcinoma in 2 of 26 lymph nodes. pT3 pN1b."
    )
    rewrite = (
        "Right hemicolectomy (with terminal ileum and appendix): moderately differentiated"
        " adenocarcinoma arising in the cecum, 55 mm, into the subserosa. All margins negative."
        " Two of twenty-six nodes involved by metastatic adenocarcinoma. pT3 N1b."
    )
    wrong = reference.replace("of the cecum", "of the appendix")
    rw, wr = score_pair(reference, rewrite, "tcga"), score_pair(reference, wrong, "tcga")
    assert rw.CRQS > wr.CRQS


def test_the_appendix_covers_its_tip() -> None:
    tip_only = "Appendix, appendectomy: NET, 8 mm, located at the tip."
    named = "Appendiceal NET, 8 mm, at the tip of the appendix."
    assert extract(tip_only, "tcga").get("tumor_site") == "appendiceal tip"
    assert extract(named, "tcga").get("tumor_site") == "appendiceal tip + appendix"
    assert "tumor_site" in score_pair(tip_only, named, "tcga").matched


@pytest.mark.parametrize(
    "text",
    [
        "EBUS-guided transbronchial needle aspirate, left lower paratracheal node (4L):\nNodal"
        " metastasis of squamous cell carcinoma.",
        "Subcarinal node, EBUS-TBNA;\nMetastatic small cell carcinoma",
    ],
)
def test_a_reg_node_named_by_its_station(text: str) -> None:
    assert extract(text, "reg2025").get("organ_site") == "lymph node"


def test_extension_into_the_thyroid_cartilage() -> None:
    text = "SCC extending to the subglottis and into the inner table of the thyroid cartilage."
    assert extract(text, "tcga").get("organ_involvement") == "laryngeal cartilage"


def test_no_extension_into_the_thyroid_cartilage() -> None:
    text = "Squamous cell carcinoma. No extension into the thyroid cartilage."
    assert "organ_involvement" not in extract(text, "tcga")


def test_a_glottis_is_its_side_s_vocal_cord() -> None:
    glottis = extract("SCC centred on the right glottis (true vocal cord).", "tcga")
    cord = extract("SCC based on the right true vocal cord (glottic).", "tcga")
    assert glottis.get("lateral_sites") == cord.get("lateral_sites") == "right vocal cord"


def test_a_supraglottis_is_no_vocal_cord() -> None:
    text = "SCC centred on the right supraglottis (false vocal cord)."
    assert "lateral_sites" not in extract(text, "tcga")


@pytest.mark.parametrize(
    "text",
    [
        "Lymph node, right axillary, core biopsy;\nReactive lymphoid tissue; no metastatic"
        " carcinoma",
        "Right axilla, core biopsy of lymph node:\nNegative for metastatic malignancy; reactive"
        " changes only.",
        "Lymph node, right axillary, core biopsy; No metastatic carcinoma",
    ],
)
def test_a_heading_s_status_on_the_line_below(text: str) -> None:
    assert extract(text, "reg2025").get("lateral_sites") == "right node free"


@pytest.mark.parametrize(
    "text",
    [
        "Lymph node, right axillary, core biopsy;\nMetastatic carcinoma; no extranodal extension",
        # A margin's status says nothing of the kidney.
        "Right partial nephrectomy:\nPapillary RCC, 28 mm, WHO/ISUP grade 2, pT1a; resection"
        " margins tumour-free (R0).",
    ],
)
def test_a_heading_over_a_positive_line_or_a_margin_stays_unmarked(text: str) -> None:
    assert not str(extract(text, "reg2025").get("lateral_sites")).endswith("free")


def test_clearances_listed_with_their_direction_are_no_depth_of_invasion() -> None:
    found = extract("Melanoma, Breslow 2.4 mm. Clearances: 9 mm radial, 6 mm deep.", "tcga")
    assert "depth_of_invasion" not in found
    assert found.get("margin_status") == "negative"


def test_a_depth_stated_alone_is_still_a_depth() -> None:
    text = "Squamous cell carcinoma of the tongue, 18 mm across and 6 mm deep."
    assert extract(text, "tcga").get("depth_of_invasion") == pytest.approx(6.0)


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Tumour within veins is identified.", "present"),
        ("Tumour emboli are present within lymphatic spaces.", "present"),
        ("No tumour within vessels.", "absent"),
        ("Tumour within veins is not identified.", "absent"),
    ],
)
def test_tumour_within_vessels(text: str, status: str) -> None:
    assert extract(text, "tcga").get("lymphovascular_invasion") == status


def test_a_pancreatic_margin_named_by_its_artery() -> None:
    text = (
        "Tumour lies 0.5 mm from the SMA (posterior) margin, which is therefore involved;"
        " all other margins are clear."
    )
    found = extract(text, "tcga")
    assert "ihc_markers" not in found
    assert found.get("margin_status") == "positive"
    assert found.get("margin_distance") == pytest.approx(0.05)


def test_an_actin_stain_stays_a_marker() -> None:
    found = extract("Spindle cells are SMA positive and desmin negative.", "tcga")
    assert found.get("ihc_markers") == "desmin negative + smooth muscle actin"


@pytest.mark.parametrize(
    ("text", "site"),
    [
        ("Pancreatic ductal adenocarcinoma of the head, 28 mm.", "pancreatic head"),
        ("Distal pancreatectomy: adenocarcinoma of the tail, 30 mm.", "pancreatic tail"),
    ],
)
def test_the_part_of_the_pancreas_named_after_its_tumour(text: str, site: str) -> None:
    assert extract(text, "tcga").get("tumor_site") == site


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("The single sentinel node contains metastatic melanoma.", "1/1"),
        ("Single sentinel node negative for melanoma.", "0/1"),
        ("The only lymph node identified is free of tumour.", "0/1"),
    ],
)
def test_the_single_node_and_its_status(text: str, count: str) -> None:
    assert extract(text, "tcga").get("lymph_node_involvement") == count


def test_a_single_node_among_others_is_not_the_whole_count() -> None:
    text = (
        "Excision of lymph nodes, right groin. Of the two nodes received, a single node contains"
        " an 8 mm deposit of metastatic melanoma; the second shows reactive changes only."
    )
    assert extract(text, "tcga").get("lymph_node_involvement") != "1/1"


def test_cis_named_by_its_bladder() -> None:
    assert extract("Diagnosis: CIS of the bladder.", "histai").get("diagnosis") == (
        "urothelial carcinoma in situ"
    )


def test_a_reg_ileitis_is_the_ileum_s_inflammation() -> None:
    ileitis = extract("Terminal ileum, endoscopic biopsy;\nChronic active ileitis", "reg2025")
    worded = extract(
        "TI biopsy (colonoscopy):\nIleal mucosa with chronic active inflammation.", "reg2025"
    )
    assert ileitis.get("diagnosis") == worded.get("diagnosis") == "chronic inflammation"


def test_a_false_cord_and_the_pre_epiglottic_space() -> None:
    supraglottic = extract(
        "Total laryngectomy. Supraglottic (left false cord) keratinizing SCC, invading the"
        " preepiglottic space.",
        "tcga",
    )
    glottic = extract(
        "Total laryngectomy: SCC arising in the glottis (left true vocal cord) with invasion of"
        " the pre-epiglottic space.",
        "tcga",
    )
    assert supraglottic.get("lateral_sites") == glottic.get("lateral_sites") == "left vocal cord"
    assert supraglottic.get("tumor_site") == "supraglottis"
    assert glottic.get("tumor_site") == "glottis"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Crypt architecture is not preserved.", "present"),
        ("Loss of normal crypt architecture.", "present"),
        ("Crypt architecture is preserved.", "absent"),
        ("No loss of crypt architecture.", "absent"),
    ],
)
def test_crypt_architecture_not_preserved(text: str, status: str) -> None:
    assert extract(f"Colon, biopsy. {text}", "histai").get("crypt_distortion") == status


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Lymph nodes: peribronchial, one of six involved; mediastinal, none of eight.", "1/14"),
        ("Nodes: one of nine left pelvic positive; none of eleven right pelvic.", "1/20"),
    ],
)
def test_node_groups_counted_in_words_add_up(text: str, count: str) -> None:
    assert extract(text, "tcga").get("lymph_node_involvement") == count


def test_a_node_group_count_changed_is_caught() -> None:
    reference = (
        "Radical cystectomy with bilateral pelvic lymph node dissection: high-grade urothelial"
        " carcinoma invading perivesical fat (pT3a). Margins free. Lymph nodes: left pelvic 1/9"
        " positive, right pelvic 0/11."
    )
    rewrite = (
        "Cystectomy (radical) and pelvic nodes, both sides. High-grade urothelial carcinoma with"
        " perivesical fat invasion, pT3a. Margins clear. Nodes: one of nine left pelvic positive;"
        " none of eleven right pelvic."
    )
    wrong = reference.replace("left pelvic 1/9", "left pelvic 4/9")
    rw, wr = score_pair(reference, rewrite, "tcga"), score_pair(reference, wrong, "tcga")
    assert rw.CRQS > wr.CRQS


@pytest.mark.parametrize(
    "text",
    [
        "Adenocarcinoma invading the subserosa/pericolic fat.",
        "Adenocarcinoma infiltrating pericolic adipose tissue (subserosa).",
    ],
)
def test_the_subserosa_and_the_pericolic_fat_named_together(text: str) -> None:
    assert extract(text, "tcga").get("invasion_depth") == "perivisceral fat"


def test_an_omentum_involved_by_a_measured_deposit() -> None:
    found = extract("Omentum involved by a 4 cm tumour deposit.", "tcga")
    assert found.get("organ_involvement") == "omentum"
    assert "tumor_deposit_count" not in found


def test_a_count_of_tumour_deposits_stays_a_count() -> None:
    found = extract("Three tumour deposits in the mesocolon.", "tcga")
    assert found.get("tumor_deposit_count") == "3"


def test_a_single_hcc_is_unifocal() -> None:
    found = extract("Single HCC, 62 mm.", "tcga")
    assert found.get("tumor_focality") == "unifocal"
    assert found.get("multifocal_involvement") == "absent"


@pytest.mark.parametrize(
    ("text", "side"),
    [
        ("Right hepatectomy: hepatocellular carcinoma.", "right lobe"),
        ("Liver, right lobe resection: HCC.", "right lobe"),
        ("Left hemihepatectomy: metastatic adenocarcinoma.", "left lobe"),
    ],
)
def test_a_hepatectomy_s_side_is_the_liver_s_lobe(text: str, side: str) -> None:
    assert extract(text, "tcga").get("lateral_sites") == side


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("HER2 IHC 2+ with in situ hybridisation showing amplification, ratio 2.6.", "positive"),
        ("HER2 2+; FISH demonstrates amplification.", "positive"),
        ("HER2 2+, ISH showing no amplification.", "negative"),
    ],
)
def test_an_ish_that_shows_its_result(text: str, status: str) -> None:
    assert extract(text, "tcga").get("her2_status") == status


def test_invasive_into_but_not_through_a_layer() -> None:
    text = "Adenocarcinoma, G2, 35 mm, invasive into but not through the muscularis propria."
    assert extract(text, "tcga").get("invasion_depth") == "muscularis propria"


@pytest.mark.parametrize(
    "text",
    [
        "Larynx, right true vocal fold, biopsy: Carcinoma in situ / severe squamous dysplasia.",
        "Vocal cord biopsy: severe squamous dysplasia / carcinoma in situ.",
    ],
)
def test_a_carcinoma_in_situ_named_with_its_squamous_dysplasia(text: str) -> None:
    assert extract(text, "histai").get("diagnosis") == "squamous cell carcinoma in situ"


def test_a_fibrosis_stage_with_its_system_in_brackets() -> None:
    text = "Core biopsy of liver:\n1. Fibrosis with bridging, stage 3 (Kleiner)"
    assert extract(text, "reg2025").get("fibrosis_stage") == "kleiner stage 3"


def test_a_reg_uterus_then_its_cervix() -> None:
    cervix = extract("Uterus, endocervix, curettage;\nEndometrioid adenocarcinoma", "reg2025")
    corpus = extract("Uterus, endometrium, curettage;\nEndometrioid adenocarcinoma", "reg2025")
    assert cervix.get("organ_site") == "uterine cervix"
    assert corpus.get("organ_site") == "uterus"


@pytest.mark.parametrize(
    "text",
    [
        "Salivary gland, right submandibular, excision;\nPleomorphic adenoma, 22 mm",
        "Right submandibular gland excision:\nPleomorphic adenoma, 2.2 cm.",
    ],
)
def test_a_submandibular_gland_and_its_side(text: str) -> None:
    assert extract(text, "reg2025").get("lateral_sites") == "right submandibular"


def test_a_submandibular_node_stays_a_node() -> None:
    text = "Right submandibular lymph node, excision;\nReactive lymphoid hyperplasia"
    assert extract(text, "reg2025").get("lateral_sites") == "right node"


def test_a_margin_distance_then_its_status_after_i_e() -> None:
    text = "CRM: tumour lies 0.6 mm from the circumferential margin, i.e. involved (<1 mm)."
    assert extract(text, "tcga").get("margin_status") == "positive"


def test_spread_beyond_the_muscularis_propria_into_the_mesorectum() -> None:
    text = "Adenocarcinoma of rectum with 4 mm of spread beyond the muscularis propria into the"
    text += " mesorectum (pT3b)."
    assert extract(text, "tcga").get("invasion_depth") == "perivisceral fat"


def test_an_intact_mesorectum_is_no_depth() -> None:
    text = "Anterior resection: adenocarcinoma invading the submucosa. Mesorectum intact."
    assert extract(text, "tcga").get("invasion_depth") == "submucosa"


def test_a_thyroid_tumour_confined_to_the_gland() -> None:
    text = (
        "Thyroid gland, total thyroidectomy: right lobe contains a 1.8 cm classical papillary"
        " carcinoma. Tumour is confined to the gland, with clear resection margins."
    )
    assert extract(text, "tcga").get("extrathyroidal_extension") == "absent"


def test_a_prostate_confined_to_the_gland_has_no_thyroid_field() -> None:
    text = "Radical prostatectomy: adenocarcinoma confined to the gland."
    assert "extrathyroidal_extension" not in extract(text, "tcga")


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("D1/D2 biopsies: normal villi.", "organ_site", "duodenum"),
        ("Left helical rim, excision: SCC.", "skin_site", "ear"),
        ("Left helical rim, excision: SCC.", "lateral_sites", "left ear"),
        ("Trephine, right PIC: marrow 40 per cent cellular.", "organ_site", "bone"),
        ("Trephine, right PIC: marrow 40 per cent cellular.", "lateral_sites", "right iliac"),
        ("Lung core: spherules consistent with Coccidioides species.", "organisms", "fungi"),
        ("Ileal mucosa with pyloric gland metaplasia.", "metaplasia_type", "pyloric"),
        ("Ileal mucosa with villous shortening.", "atrophy", "present"),
        ("TI: chronically and actively inflamed ileal mucosa.", "inflammation_activity", "active"),
        ("TI biopsies: chronic active inflammation of ileal mucosa.", "diagnosis", "enteritis"),
    ],
)
def test_histai_wordings_of_sites_and_mucosa(text: str, field: str, value: str) -> None:
    assert extract(text, "histai").get(field) == value


def test_a_steatosis_graded_after_its_droplet_kind() -> None:
    text = "Liver core biopsy:\nSteatosis, predominantly large-droplet, mild, in 10% of cells."
    assert extract(text, "reg2025").get("steatosis") == "mild"


@pytest.mark.parametrize(
    "text",
    [
        "Liver, needle biopsy;\nMild macrovesicular steatosis (10%)\nNo significant fibrosis",
        "Liver core biopsy:\nSteatosis, mild; fibrosis absent (stage 0).",
    ],
)
def test_no_fibrosis_in_a_liver_is_its_stage_0(text: str) -> None:
    assert extract(text, "reg2025").get("fibrosis_stage") == "stage 0"


def test_no_fibrosis_outside_a_liver_is_no_stage() -> None:
    assert "fibrosis_stage" not in extract("Breast core: fibroadenoma, no fibrosis.", "reg2025")


def test_all_nodes_on_one_side_negative() -> None:
    text = (
        "Inguinofemoral nodes: two of eight on the left contain carcinoma; all seven on the"
        " right are negative."
    )
    assert extract(text, "tcga").get("lymph_node_involvement") == "2/15"


@pytest.mark.parametrize(
    "text",
    [
        "Total thyroidectomy. Papillary thyroid carcinoma, classic variant, 18 mm, in the right"
        " lobe. Left lobe: nodular hyperplasia.",
        "Thyroid gland, total thyroidectomy: classic papillary carcinoma of the right lobe, 18 mm.",
        "Total thyroidectomy. Right lobe: classic papillary thyroid carcinoma, 18 mm. Left lobe:"
        " benign nodular hyperplasia.",
        "Total thyroidectomy: papillary thyroid carcinoma, classic type, right lobe, 2,1 cm.",
    ],
)
def test_the_thyroid_lobe_that_holds_the_tumour(text: str) -> None:
    assert "right thyroid lobe" in str(extract(text, "tcga").get("tumor_site"))


def test_a_thyroid_tumour_moved_to_the_other_lobe_is_caught() -> None:
    reference = (
        "Total thyroidectomy. Papillary thyroid carcinoma, classic variant, 18 mm, in the right"
        " lobe. Margins clear. Central compartment lymph nodes 0/5. Left lobe: nodular"
        " hyperplasia. pT1b pN0a."
    )
    rewrite = (
        "Thyroid gland, total thyroidectomy: classic papillary carcinoma of the right lobe"
        " measuring 1.8 cm. Resection margins free. Central neck nodes negative (none of five)."
        " The left lobe shows benign nodular hyperplasia. Stage pT1b pN0a."
    )
    wrong = reference.replace("in the right lobe", "in the left lobe").replace(
        "Left lobe: nodular", "Right lobe: nodular"
    )
    rw, wr = score_pair(reference, rewrite, "tcga"), score_pair(reference, wrong, "tcga")
    assert rw.CRQS > wr.CRQS


def test_a_liver_lobe_is_no_thyroid_lobe() -> None:
    text = "Right hepatectomy: HCC in the right lobe of the liver."
    assert "thyroid" not in str(extract(text, "tcga").get("tumor_site"))


def test_no_extension_beyond_the_thyroid_gland() -> None:
    text = "Thyroid, total: papillary carcinoma of the right lobe; no extension beyond the gland."
    assert extract(text, "tcga").get("extrathyroidal_extension") == "absent"


def test_an_entity_without_carcinoma_stays_present() -> None:
    text = (
        "The endometrium shows focal atypical hyperplasia (endometrioid intraepithelial"
        " neoplasia) without carcinoma."
    )
    found = extract(text, "histai")
    assert found.get("diagnosis") == "atypical hyperplasia"
    assert found.get("excluded_entities") == "carcinoma"


def test_a_structure_without_carcinoma_is_still_free() -> None:
    found = extract("Seminal vesicles are without carcinoma.", "tcga")
    assert found.get("seminal_vesicle_invasion") == "absent"


@pytest.mark.parametrize(
    ("text", "diagnosis"),
    [
        ("Intramural fibroids up to 5.5 cm.", "leiomyoma"),
        ("Diagnosis: Nodular follicular hyperplasia. No malignancy.", "follicular nodular disease"),
        ("DX: benign hyperplastic (adenomatoid) nodule.", "follicular nodular disease"),
        ("Lymph node: reactive follicular hyperplasia.", "reactive lymphoid hyperplasia"),
    ],
)
def test_benign_entities_by_their_other_names(text: str, diagnosis: str) -> None:
    assert extract(text, "histai").get("diagnosis") == diagnosis


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("One node contains a 4 mm macrometastasis; the other node is negative.", "1/2"),
        ("One node contains metastatic carcinoma; the other two are negative.", "1/3"),
        (
            "One node harbours a 0.3 mm subcapsular deposit of melanoma, highlighted by SOX10;"
            " the second node is negative.",
            "1/2",
        ),
        ("Sentinel nodes, right axilla: both negative.", "0/2"),
        ("Sentinel nodes: both positive for metastatic carcinoma.", "2/2"),
    ],
)
def test_a_node_count_told_node_by_node(text: str, count: str) -> None:
    assert extract(text, "tcga").get("lymph_node_involvement") == count


def test_a_reg_dcis_grade_in_brackets_is_its_nuclear_grade() -> None:
    text = "Left WLE:\nDCIS, nuclear grade intermediate (grade 2), extent 1.8 cm"
    found = extract(text, "reg2025")
    assert found.get("nuclear_grade") == "intermediate"
    assert "tumor_grade" not in found


def test_capsule_and_veins_invaded() -> None:
    found = extract("Adrenocortical carcinoma, Weiss 6; capsule and veins invaded.", "tcga")
    assert found.get("capsular_invasion") == "present"
    assert found.get("lymphovascular_invasion") == "present"


def test_a_size_before_a_weight_in_grams() -> None:
    text = "Adrenocortical carcinoma, 11 cm and 240 grams."
    assert extract(text, "tcga").get("tumor_size") == pytest.approx(11.0)


def test_a_peritoneal_nodule_with_its_metastasis() -> None:
    text = "Separately submitted peritoneal nodule: metastatic adenocarcinoma."
    assert extract(text, "tcga").get("organ_involvement") == "peritoneum"
    assert "organ_involvement" not in extract("Peritoneal biopsy: no malignancy.", "tcga")


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("LLETZ: cervical intraepithelial neoplasia grade 2. Margins free of dysplasia.", "high"),
        ("Cervical biopsy: cervical intraepithelial neoplasia grade 1.", "low"),
    ],
)
def test_a_cin_grade_written_out(text: str, grade: str) -> None:
    assert extract(text, "histai").get("dysplasia_grade") == grade


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        (
            "Thyroid, total thyroidectomy: classic papillary carcinoma, 26 mm, right lobe.",
            "tumor_site",
            "right thyroid lobe",
        ),
        ("Molecular: BRAF p.V600E present.", "braf_status", "mutant"),
        (
            "HER2 equivocal (2+) on IHC with gene amplification on in situ hybridisation.",
            "her2_status",
            "positive",
        ),
        ("Myometrial invasion under 50% (8 mm of a 20 mm wall).", "depth_of_invasion", 8.0),
    ],
)
def test_tcga_wordings_of_results(text: str, field: str, value: object) -> None:
    assert extract(text, "tcga").get(field) == value


def test_a_deep_clearance_is_no_depth_of_invasion() -> None:
    text = "BCC, nodular. Completely excised, with clearance of 2 mm deep and 3 mm peripherally."
    assert "depth_of_invasion" not in extract(text, "histai")


@pytest.mark.parametrize(
    ("text", "diagnosis"),
    [
        ("Diagnosis: changes of gastro-oesophageal reflux.", "esophagitis"),
        ("D2 biopsies: no pathological abnormality in the duodenal mucosa.", "normal mucosa"),
    ],
)
def test_histai_diagnoses_in_other_words(text: str, diagnosis: str) -> None:
    assert extract(text, "histai").get("diagnosis") == diagnosis


def test_a_reg_gastric_mucosa_chronically_and_actively_inflamed() -> None:
    text = "Gastric antral biopsy:\nChronically and actively inflamed gastric mucosa."
    found = extract(text, "reg2025")
    assert found.get("diagnosis") == "gastritis"
    assert found.get("inflammation_activity") == "chronic active"


def test_a_mixed_tumour_s_myoepithelial_cells_are_no_basal_cell_layer() -> None:
    mixed = "Pleomorphic adenoma: epithelial ducts and myoepithelial cells in chondromyxoid matrix."
    assert "basal_cell_layer" not in extract(mixed, "histai")
    breast = "Breast core: sclerosing adenosis, myoepithelial cells preserved."
    assert extract(breast, "histai").get("basal_cell_layer") == "present"


@pytest.mark.parametrize(
    ("text", "marker", "gene"),
    [
        ("MDM2 FISH shows no amplification.", "mdm2 negative", "mdm2 amplification negative"),
        ("MDM2 FISH shows amplification.", "mdm2", "mdm2 amplification"),
    ],
)
def test_an_amplification_test_that_shows_its_result(text: str, marker: str, gene: str) -> None:
    found = extract(text, "histai")
    assert found.get("ihc_markers") == marker
    assert found.get("gene_rearrangements") == gene


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("BMAT (PIC): marrow cellularity 40 percent.", "organ_site", "bone"),
        ("Diagnosis: benign ulcer (slough and granulation tissue).", "diagnosis", "peptic ulcer"),
    ],
)
def test_histai_marrow_and_ulcer_wordings(text: str, field: str, value: str) -> None:
    assert extract(text, "histai").get(field) == value


def test_ulcer_edge_biopsies_of_a_carcinoma_name_no_ulcer() -> None:
    text = "Ulcer-edge biopsies, stomach: poorly differentiated adenocarcinoma."
    assert extract(text, "histai").get("findings") == "adenocarcinoma"


@pytest.mark.parametrize(
    "text",
    [
        "Squamous cell carcinoma, well differentiated, invasive to 3 mm depth",
        "Squamous cell carcinoma, invasive to a depth of 3 mm",
    ],
)
def test_invasive_to_a_depth(text: str) -> None:
    assert extract(text, "reg2025").get("depth_of_invasion") == pytest.approx(3.0)


def test_a_melanoma_invasive_to_its_breslow_depth_is_no_depth_of_invasion() -> None:
    found = extract("Melanoma, invasive to a depth of 1.6 mm (Breslow).", "reg2025")
    assert "depth_of_invasion" not in found
    assert found.get("breslow_thickness") == pytest.approx(1.6)
