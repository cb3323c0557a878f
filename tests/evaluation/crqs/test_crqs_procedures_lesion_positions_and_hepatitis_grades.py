"""Procedures named by their shorthand, the clock position of a cervical lesion, a structure that
heads a list sharing one tumour-free status, a chronic hepatitis's grade and stage, and other
facts in the wordings that other writers use.

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import CRQSConfig, extract, load_schema, score_pair
from pathreport.evaluation.crqs.scoring import score_fields


@pytest.mark.parametrize(
    ("dataset", "text", "value"),
    [
        ("histai", "Skin, right forearm, punch: spongiotic dermatitis.", "biopsy"),
        ("histai", "Skin of the nose (shave): basal cell carcinoma, nodular.", "biopsy"),
        ("histai", "Skin, scalp, shave excision: seborrhoeic keratosis.", "excision"),
        ("histai", "Left breast, VAB for calcifications: fibroadenoma.", "biopsy"),
        ("histai", "Lung, LUL, TBBx: organising pneumonia.", "biopsy"),
        ("histai", "Descending colon, CSP: hyperplastic polyp.", "polypectomy"),
        ("histai", "Left axillary clearance: 14 nodes, all reactive.", "lymphadenectomy"),
        ("histai", "Left hemithyroidectomy: follicular adenoma, 22 mm.", "organ resection"),
        ("reg2025", "Thyroid, right hemithyroidectomy; Nodular hyperplasia", "surgical resection"),
        ("reg2025", "Skin, left shin, punch; Lichen planus", "biopsy"),
        ("reg2025", "Colon, sigmoid, cold snare; Tubular adenoma, low grade",
         "endoscopic resection"),
        ("reg2025", "Prostate, 12 cores; Benign prostatic tissue", "biopsy"),
    ],
)  # fmt: skip
def test_procedures_named_by_their_shorthand(dataset, text, value):
    assert extract(text, dataset)["specimen_type"] == value


@pytest.mark.parametrize(
    ("reference", "rewrite"),
    [
        ("Left hemicolectomy: adenocarcinoma, 35 mm, pT2.",
         "Colon, left, resection: adenocarcinoma, 3.5 cm, pT2."),
        ("Right upper lobectomy: squamous cell carcinoma, 41 mm.",
         "Lung, right upper lobe, resection: squamous cell carcinoma, 4.1 cm."),
    ],
)  # fmt: skip
def test_a_named_operation_and_a_resection_are_one_procedure(reference, rewrite):
    result = score_pair(reference, rewrite, "tcga")
    assert "specimen_type" not in result.discordant + result.missed + result.hallucinated


def test_a_biopsy_and_a_resection_still_differ():
    result = score_pair(
        "Left colon, biopsy: adenocarcinoma.", "Left colon, resection: adenocarcinoma.", "tcga"
    )
    assert "specimen_type" in result.discordant


@pytest.mark.parametrize(
    "text",
    [
        "Right ovary: serous carcinoma. Left ovary, both tubes and uterus free of tumor.",
        "Right ovary: serous carcinoma; left ovary, tubes and uterus not involved by tumour.",
        "Right ovary: serous carcinoma. Lt. ovary, fallopian tubes, uterus: no tumour.",
    ],
)
def test_a_structure_heading_a_list_shares_its_tumour_free_status(text):
    assert extract(text, "tcga")["lateral_sites"] == "left ovary free + right ovary"


def test_a_list_with_a_finding_of_its_own_marks_nothing_free():
    text = "Left ovary, right ovary with serous carcinoma and uterus free of tumour."
    assert "left ovary free" not in extract(text, "tcga")["lateral_sites"].split(" + ")


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # The CAP melanoma synoptic line.
        ("tcga", "Wide excision, back: nodular melanoma. Maximum Tumor Thickness: 1.8 mm.",
         "breslow_thickness", 1.8),
        # The Chinese guideline's grade of a hepatocellular carcinoma's microvascular invasion.
        ("tcga", "Liver, S6, partial hepatectomy: hepatocellular carcinoma, 22 mm. MVI: M0.",
         "lymphovascular_invasion", "absent"),
        ("tcga", "Liver, partial hepatectomy: hepatocellular carcinoma, 41 mm, MVI (M2).",
         "lymphovascular_invasion", "present"),
        ("histai", "Lung, core biopsy: adenocarcinoma. ALK-V (D5F3) (-), TTF-1 (+).",
         "alk_status", "negative"),
        ("tcga", "Total gastrectomy: adenocarcinoma. Proximal cut end and distal cut end: "
         "negative.", "margin_status", "negative"),
        ("tcga", "Sigmoid colectomy: adenocarcinoma through the muscularis propria into "
         "pericolorectal adipose tissue.", "invasion_depth", "perivisceral fat"),
        ("tcga", "Right hemicolectomy: adenocarcinoma, pT3. Tumor deposits present (3).",
         "tumor_deposit_count", "3"),
        ("tcga", "Left nephrectomy: renal clear cell carcinoma, WHO/ISUP grade 3, 48 mm.",
         "diagnosis", "renal cell carcinoma"),
        ("tcga", "Segmental resection, proximal tibia, right: conventional osteosarcoma.",
         "lateral_sites", "right tibia"),
        ("histai", "Rectal suction biopsy: ganglion cells not identified; consistent with "
         "Hirschsprung disease.", "diagnosis", "hirschsprung disease"),
        ("histai", "Rectum, EMR: villous-tubular adenoma with low-grade dysplasia.",
         "adenoma_type", "tubulovillous"),
        ("reg2025", "Rectum, polypectomy; Villotubular adenoma with high grade dysplasia",
         "histologic_type", "tubulovillous"),
        ("reg2025", "Nasopharynx, biopsy; NPC, non-keratinizing, EBER positive", "diagnosis",
         "squamous cell carcinoma"),
        ("histai", "Duodenum, D2 biopsies: villi normal; IEL count not increased.",
         "intraepithelial_lymphocytosis", "absent"),
        ("histai", "Duodenum, 4 biopsies. Conclusion: small bowel mucosa normal.", "diagnosis",
         "normal mucosa"),
        ("histai", "Oesophagus, distal biopsy: mild reflux oesophagitis.",
         "inflammation_severity", "mild"),
        ("histai", "Cervix, biopsy: chronic inflammation of the cervix; no dysplasia.",
         "diagnosis", "cervicitis"),
        ("tcga", "Axillary dissection: eleven lymph nodes; two (largest 9 mm) involved by "
         "metastatic carcinoma.", "lymph_node_involvement", "2/11"),
        ("histai", "Neck, level III: four lymph nodes, one of which is involved by metastatic "
         "carcinoma.", "lymph_node_involvement", "1/4"),
        # A margin or a stump headed, then its status in words; a polyp's stalk.
        ("tcga", "Right upper lobectomy: squamous cell carcinoma. Bronchial and vascular stumps: "
         "no cancer involvement.", "margin_status", "negative"),
        ("histai", "Partial hepatectomy: hepatocellular carcinoma. Resection margin: no tumour, "
         "6 mm.", "margin_status", "negative"),
        ("reg2025", "Colon, descending, polypectomy; Tubular adenoma, low grade, stalk not "
         "involved", "margin_status", "free"),
        ("reg2025", "Breast, core needle biopsy; Invasive breast carcinoma, non-special type, "
         "grade 2", "histologic_type", "no special type"),
        # A bracketed second name of the layer's part between the verb and the layer.
        ("tcga", "Radical cystectomy: urothelial carcinoma invading deep (outer half) muscularis "
         "propria.", "invasion_depth", "muscularis propria"),
        ("histai", "Radical cystectomy: urothelial carcinoma with invasion of the outer (deep) "
         "half of the detrusor muscle.", "invasion_depth", "muscularis propria"),
        ("tcga", "Low anterior resection: adenocarcinoma, infiltration of the perirectal "
         "(mesorectal) fat.", "invasion_depth", "perivisceral fat"),
        ("histai", "Gastric ESD: well differentiated adenocarcinoma, intramucosal, pT1a.",
         "invasion_depth", "mucosa"),
    ],
)  # fmt: skip
def test_facts_in_other_wordings(dataset, text, field, value):
    assert extract(text, dataset)[field] == value


@pytest.mark.parametrize(
    ("dataset", "text", "field"),
    [
        # A thickness without a melanocytic lesion is no Breslow thickness.
        ("tcga", "Partial glossectomy: squamous cell carcinoma. Tumor thickness: 9 mm.",
         "breslow_thickness"),
        # The closest margin's distance is no depth of invasion.
        ("tcga", "Partial glossectomy: squamous cell carcinoma, 18 mm; margins free, closest "
         "4 mm deep.", "depth_of_invasion"),
        # A steatosis's share of the hepatocytes is no tumour volume.
        ("reg2025", "Liver, needle biopsy; Macrovesicular steatosis involving about 40% of "
         "hepatocytes", "tumor_volume"),
        # A hepatitis's inflammation grade is no tumour grade.
        ("histai", "Liver biopsy: chronic hepatitis B, inflammation grade G3, fibrosis stage S2.",
         "tumor_grade"),
        ("histai", "Liver biopsy: chronic hepatitis B, inflammation grade G3, fibrosis stage S2.",
         "tumor_site"),
    ],
)  # fmt: skip
def test_wordings_that_state_no_such_fact(dataset, text, field):
    assert field not in extract(text, dataset)


def test_tumour_deposits_without_an_involved_node_are_no_nodal_metastasis():
    text = "Right hemicolectomy: adenocarcinoma. Tumour deposits present (2). Nodes 0/19. pT3 pN1c."
    fields = extract(text, "tcga")
    assert fields["lymph_node_involvement"] == "0/19"
    assert fields.get("metastatic_involvement") != "present"


@pytest.mark.parametrize(
    ("text", "stage", "severity"),
    [
        ("Liver biopsy: chronic hepatitis B, G2S1.", "stage 1", "mild"),
        ("Liver biopsy: chronic hepatitis C, G3, S3.", "stage 3", "moderate"),
        ("Liver biopsy: chronic hepatitis B, inflammation grade G1, fibrosis stage S2.",
         "stage 2", "minimal"),
    ],
)  # fmt: skip
def test_a_chronic_hepatitis_grade_and_stage_by_scheuer(text, stage, severity):
    fields = extract(text, "histai")
    assert fields["fibrosis_stage"] == stage
    assert fields["inflammation_severity"] == severity


def test_a_changed_hepatitis_grade_lowers_the_score():
    reference = "Liver, needle biopsy: mild interface hepatitis. Chronic hepatitis B, G2S2."
    rewrite = "Liver core: interface hepatitis, mild. Chronic hepatitis B (G2, S2)."
    wrong = "Liver, needle biopsy: mild interface hepatitis. Chronic hepatitis B, G4S2."
    right = score_pair(reference, rewrite, "histai")
    assert right.CRQS > score_pair(reference, wrong, "histai").CRQS


@pytest.mark.parametrize(
    ("text", "positions"),
    [
        ("Cervix, punch biopsies. A (2 o'clock): HSIL (CIN 3), p16 block-positive. "
         "B (8 o'clock): squamous metaplasia, no dysplasia.", "2 o'clock"),
        ("Cervix, punch biopsies at 5 and 11 o'clock. 11 o'clock: CIN 2. 5 o'clock: "
         "chronic cervicitis, no HSIL.", "11 o'clock"),
        ("Cervical biopsies: ectocervicitis at 4 o'clock; HSIL (CIN 2-3) at 10 o'clock.",
         "10 o'clock"),
        ("Pathological diagnosis: 1. (Cervix 1, 7 points) chronic inflammation of cervix; "
         "2. (Cervix 4 point) HSIL (CIN III).", "4 o'clock"),
    ],
)  # fmt: skip
def test_the_clock_position_of_the_high_grade_lesion(text, positions):
    assert extract(text, "histai")["lesion_position"] == positions


def test_a_lesion_moved_to_another_biopsy_lowers_the_score():
    reference = (
        "Cervix, punch biopsies. A (2 o'clock): HSIL (CIN 3). B (8 o'clock): benign squamous "
        "mucosa."
    )
    rewrite = "Cx punch bx. 8 o'clock: benign squamous mucosa. 2 o'clock: CIN 3 (HSIL)."
    wrong = (
        "Cervix, punch biopsies. A (8 o'clock): HSIL (CIN 3). B (2 o'clock): benign squamous "
        "mucosa."
    )
    right, moved = score_pair(reference, rewrite, "histai"), score_pair(reference, wrong, "histai")
    assert "lesion_position" in moved.discordant
    assert right.CRQS > moved.CRQS


def test_a_report_that_places_no_lesion_loses_nothing_for_it():
    reference = "Cervix, punch biopsies. A (2 o'clock): HSIL (CIN 3). B (8 o'clock): benign."
    rewrite = "Cervix, punch biopsies at 2 and 8 o'clock: HSIL (CIN 3) in one; the other benign."
    result = score_pair(reference, rewrite, "histai")
    assert "lesion_position" not in result.missed + result.discordant


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Stomach, corpus, biopsy: intestinal and pseudopyloric metaplasia.",
         "intestinal_metaplasia", "present"),
        ("Antrum: chronic gastritis; intestinal and pyloric metaplasia not identified.",
         "intestinal_metaplasia", "absent"),
        ("Corpus ventriculi: glands reduced, metaplasia intestinal. Gastritis atrophica.",
         "gastritis_type", "atrophic"),
        ("Appendix: acute ulcero-phlegmonous appendicitis with periappendicitis.",
         "ulceration", "present"),
    ],
)  # fmt: skip
def test_gastric_and_appendiceal_findings_in_other_wordings(text, field, value):
    assert extract(text, "histai")[field] == value


def test_pyloric_metaplasia_names_no_pylorus():
    assert extract("Gastric body biopsy: pyloric metaplasia.", "histai")["tumor_site"] == "body"


@pytest.mark.parametrize(
    "text",
    [
        "Stomach, fundus, polypectomy: dilated oxyntic glands lined by parietal and chief cells. "
        "Fundic gland polyp.",
        "Lung, RLL, transbronchial biopsy: fibroblast plugs (Masson bodies). Organising pneumonia.",
    ],
)
def test_cells_and_bodies_named_after_a_place_name_no_site(text):
    site = extract(text, "histai").get("tumor_site", "")
    assert "parietal lobe" not in site and "body" not in site


def test_organising_pneumonia_is_a_diagnosis_of_its_own():
    text = "Lung, RML, transbronchial biopsy: Masson bodies. Diagnosis: organising pneumonia."
    assert extract(text, "histai")["diagnosis"] == "organizing pneumonia"


def test_an_adverse_finding_left_out_counts_twice():
    reference = (
        "Sigmoid colectomy: adenocarcinoma, moderately differentiated, 35 mm, into pericolic "
        "fat. Perineural invasion present. Lymphovascular invasion not identified. Margins "
        "negative. Lymph nodes 0/16. pT3 pN0."
    )
    schema = load_schema("tcga")
    ref = extract(reference, "tcga")
    pred = {k: v for k, v in ref.items() if k != "perineural_invasion"}
    scored = score_fields(ref, pred, schema, CRQSConfig())
    assert scored.missed == ["perineural_invasion"]
    total, missing = sum(schema.weights[f] for f in ref), schema.weights["perineural_invasion"]
    assert pytest.approx((total - missing) / (total + missing)) == scored.CFC
    # Stated absent in the reference, the same field left out counts once.
    absent = dict(ref, perineural_invasion="absent")
    once = score_fields(absent, pred, schema, CRQSConfig())
    assert pytest.approx((total - missing) / total) == once.CFC
    # Uniform weighting keeps the paper's counts.
    uniform = score_fields(ref, pred, schema, CRQSConfig(weighting="uniform"))
    assert pytest.approx((len(ref) - 1) / len(ref)) == uniform.CFC
