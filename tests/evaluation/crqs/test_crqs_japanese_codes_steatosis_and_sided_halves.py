"""Codes of the Japanese classifications, the prostate's "ECE", a liver's steatosis, hepatitis
viruses by their initials, a sided site whose tumour-free mark one report leaves out, and
grades, depths and node counts in the wordings other writers use.

The wordings are written here for the test; what they must read is the clinical fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, load_schema, score_pair
from pathreport.evaluation.crqs.scoring import partial_agreement


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # The Japanese Classification's depth after the T category.
        ("tcga", "Sigmoid colectomy: tub2, 40 mm, pT3 (SS), ly1, v0.", "invasion_depth",
         "subserosa"),
        ("tcga", "Gastrectomy: por, pT1b (SM2), ly0, v0.", "invasion_depth", "submucosa"),
        ("tcga", "ESD: tub1, 12 mm, pT1a (M), ly0, v0, HM0, VM0.", "invasion_depth", "mucosa"),
        ("tcga", "Anterior resection: tub2, pT2 (MP), ly0, v1.", "invasion_depth",
         "muscularis propria"),
        ("tcga", "Transverse colectomy: tub1, pT4a (SE), ly1, v1.", "invasion_depth",
         "perivisceral fat"),
        ("tcga", "Low anterior resection: tub2, 30 mm, depth MP, ly0, v0.", "invasion_depth",
         "muscularis propria"),
        # Its histological codes, beside another of its codes.
        ("tcga", "Right hemicolectomy: muc, 60 mm, pT3 (SS), ly0, v0.", "histologic_type",
         "mucinous"),
        ("tcga", "Distal gastrectomy: sig > por, pT1b (SM2), ly1, v0.", "histologic_type",
         "signet ring cell"),
        # Its rectal parts, above and below the peritoneal reflection.
        ("tcga", "Low anterior resection, rectum (Rb): tub1, 25 mm, pT2.", "tumor_site",
         "rectum + lower third"),
        ("tcga", "Anterior resection, rectum Ra: tub2, pT3.", "tumor_site",
         "rectum + upper third"),
        # Its prostate codes and its margin code without the p.
        ("tcga", "Radical prostatectomy: acinar adenocarcinoma, GS 4+3=7. EPE1, SV0, RM0.",
         "extraprostatic_extension", "present"),
        ("tcga", "Radical prostatectomy: acinar adenocarcinoma, GS 3+4=7. EPE0, SV1, RM0.",
         "seminal_vesicle_invasion", "present"),
        ("tcga", "Radical prostatectomy: acinar adenocarcinoma, GS 3+4=7. EPE0, SV0, RM1.",
         "margin_status", "positive"),
    ],
)  # fmt: skip
def test_japanese_classification_codes_are_read(dataset, text, field, value):
    assert extract(text, dataset)[field] == value


@pytest.mark.parametrize(
    "text",
    [
        "Sigmoid colon, sig. colectomy: adenocarcinoma, 30 mm.",
        "Cervix, HPV positive; pap smear showed LSIL.",
    ],
)
def test_japanese_type_codes_alone_are_read_as_the_words_they_are(text):
    fields = extract(text, "tcga")
    assert fields.get("histologic_type") not in ("signet ring cell", "papillary")


@pytest.mark.parametrize(
    ("dataset", "text"),
    [
        ("tcga", "Radical prostatectomy: acinar adenocarcinoma, Gleason 4+3=7. Extracapsular "
         "extension present, right posterolateral."),
        ("reg2025", "Prostate, needle biopsy; Acinar adenocarcinoma, Gleason 4+4=8, with ECE "
         "into periprostatic fat"),
    ],
)  # fmt: skip
def test_extracapsular_extension_of_a_prostate_cancer_is_extraprostatic(dataset, text):
    fields = extract(text, dataset)
    assert fields["extraprostatic_extension"] == "present"
    assert "extranodal_extension" not in fields


@pytest.mark.parametrize(
    "text",
    [
        "Radical prostatectomy: Gleason 3+4=7. Pelvic lymph node metastasis (1/9) with "
        "extracapsular extension.",
        "Neck dissection: squamous cell carcinoma in 2 of 31 nodes, ECE present.",
    ],
)
def test_extracapsular_extension_of_a_node_stays_extranodal(text):
    fields = extract(text, "tcga")
    assert fields["extranodal_extension"] == "present"
    assert "extraprostatic_extension" not in fields


def test_an_acinar_salivary_gland_is_no_prostate():
    fields = extract(
        "Submandibular gland: acinar atrophy, periductal fibrosis and chronic inflammation. "
        "Chronic sialadenitis.",
        "histai",
    )
    assert fields["diagnosis"] == "sialadenitis"
    assert "histologic_type" not in fields


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Liver, core biopsy: chronic hepatitis C with moderate macrovesicular steatosis.",
         "moderate"),
        ("Liver biopsy: steatosis involving about 20% of hepatocytes; no ballooning.", "mild"),
        ("Liver, needle core: roughly 70% of hepatocytes contain large fat droplets.", "severe"),
        ("Liver, needle core: 45% macrovesicular fat, no fibrosis.", "moderate"),
        ("Donor liver, wedge biopsy: no steatosis; no necrosis.", "absent"),
        ("Liver, biopsy: steatosis, marked, with lobular inflammation.", "severe"),
    ],
)  # fmt: skip
def test_steatosis_is_read_by_its_grade_or_its_share_of_hepatocytes(text, grade):
    for dataset in ("tcga", "histai", "reg2025"):
        assert extract(text, dataset)["steatosis"] == grade


def test_a_share_of_tumour_beside_fat_is_no_steatosis():
    text = "Rectum, resection: adenocarcinoma, tumour regression 30%, into perirectal fat."
    assert "steatosis" not in extract(text, "tcga")


def test_invented_steatosis_lowers_the_score():
    reference = "Liver, needle biopsy; Chronic hepatitis, mild activity, portal fibrosis (stage 1)"
    rewrite = "LIVER, CORE BIOPSY: CHRONIC HEPATITIS. ACTIVITY MILD. FIBROSIS: PORTAL (STAGE 1)."
    wrong = reference + ", with moderate macrovesicular steatosis (about 40%)"
    assert score_pair(reference, rewrite, "reg2025").CRQS > (
        score_pair(reference, wrong, "reg2025").CRQS
    )


@pytest.mark.parametrize(
    ("reference", "rewrite"),
    [
        ("Right hepatectomy: hepatocellular carcinoma, 5 cm. Background liver: cirrhosis, "
         "HBV-related.", "Right hepatectomy: HCC, 50 mm. Non-tumoural liver: cirrhosis "
         "(chronic hepatitis B)."),
        ("Left hepatectomy: hepatocellular carcinoma. Background liver: chronic hepatitis C.",
         "Left hepatectomy: hepatocellular carcinoma; background HCV infection."),
    ],
)  # fmt: skip
def test_hepatitis_viruses_by_their_initials_are_hepatitis(reference, rewrite):
    assert pytest.approx(1.0) == score_pair(reference, rewrite, "tcga").CRQS


@pytest.mark.parametrize(
    ("dataset", "reference", "rewrite"),
    [
        # A thickness is measured only where a melanoma invades.
        ("tcga", "Wide excision, skin of the left thigh: invasive melanoma, superficial "
         "spreading type, Breslow 1.4 mm. Margins clear.", "Left thigh skin, wide excision: "
         "superficial spreading melanoma, Breslow thickness 1.4 mm; margins clear."),
        # Chronic inflammation in a prostate is a chronic prostatitis.
        ("histai", "Prostate, needle cores: benign prostatic tissue with chronic inflammation.",
         "Prostate needle biopsies: chronic prostatitis; benign."),
        # The commas of an aside split no cue.
        ("histai", "Prostate biopsy: a focus of atypical small acinar proliferation, suspicious "
         "for but not diagnostic of carcinoma.", "Prostate biopsy: focus of ASAP, suspicious, "
         "but not diagnostic, of carcinoma."),
        ("histai", "Stomach, corpus biopsy: chronic atrophic corpus gastritis, consistent with "
         "autoimmune gastritis.", "Gastric body biopsy: chronic atrophic gastritis of the "
         "corpus, compatible with autoimmune gastritis (type A gastritis)."),
        ("histai", "Excision, right submandibular gland: chronic sialadenitis with a calculus.",
         "Submandibular gland (right), excision: chronic sialadenitis; sialolith present."),
    ],
)  # fmt: skip
def test_one_fact_in_another_wording_scores_as_the_same_fact(dataset, reference, rewrite):
    assert pytest.approx(1.0) == score_pair(reference, rewrite, dataset).CRQS


@pytest.mark.parametrize(
    ("dataset", "reference", "wrong", "field"),
    [
        ("histai", "Skin of the left upper eyelid, excision: basal cell carcinoma, nodular.",
         "Skin of the left lower eyelid, excision: basal cell carcinoma, nodular.",
         "skin_site"),
        ("histai", "Skin, punch biopsy, forearm: cutaneous leishmaniasis.",
         "Skin, punch biopsy, forearm: tuberculoid leprosy.", "diagnosis"),
        ("tcga", "Right parotidectomy: mucoepidermoid carcinoma, low grade, 1.8 cm.",
         "Right parotidectomy: acinic cell carcinoma, low grade, 1.8 cm.", "histologic_type"),
        ("histai", "Stomach, corpus biopsy: chronic atrophic corpus gastritis, consistent with "
         "autoimmune gastritis.", "Stomach, corpus biopsy: chronic atrophic corpus gastritis.",
         "gastritis_type"),
        ("reg2025", "Liver, needle biopsy; Steatosis, mild (about 10%)",
         "Liver, needle biopsy; Steatosis, severe (about 80%)", "steatosis"),
    ],
)  # fmt: skip
def test_the_same_wordings_still_tell_a_different_fact(dataset, reference, wrong, field):
    assert field in score_pair(reference, wrong, dataset).discordant


@pytest.mark.parametrize(
    ("dataset", "text"),
    [
        ("reg2025", "Cervix, punch biopsy; Chronic cervicitis; negative for malignancy"),
        ("reg2025", "Appendix, appendectomy; Acute appendicitis. No neoplasm seen."),
    ],
)
def test_no_malignancy_beside_a_named_entity_adds_no_entity(dataset, text):
    assert "benign" not in extract(text, dataset)["findings"].split(" + ")


def test_chorionic_villi_left_out_of_a_curettage_are_missed():
    reference = "Uterine curettings: decidua and chorionic villi (products of conception)."
    wrong = "Uterine curettings: decidua with Arias-Stella reaction."
    assert "diagnosis" in score_pair(reference, wrong, "histai").missed


def test_a_breslow_thickness_does_not_restate_an_in_situ_melanoma():
    reference = "Excision, skin of the back: invasive melanoma, Breslow 0.6 mm."
    wrong = "Excision, skin of the back: melanoma in situ."
    assert "invasion_status" in score_pair(reference, wrong, "tcga").discordant


def test_a_site_marked_tumour_free_on_one_side_only_shares_half_the_site():
    spec = load_schema("tcga").field("lateral_sites")
    assert partial_agreement(spec, "left node", "left node free") == pytest.approx(0.5)
    assert partial_agreement(
        spec, "left ovary + right ovary free", "left ovary + right ovary"
    ) == pytest.approx(0.75)
    # Another side shares nothing, marked or not.
    assert partial_agreement(spec, "left node", "right node free") == 0.0
    assert partial_agreement(spec, "left node free", "right node free") == 0.0


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # FIGO grade after the letter G, or "of FIGO".
        ("tcga", "Hysterectomy: endometrioid adenocarcinoma, G2 (FIGO), 3 cm.", "figo_grade", "2"),
        ("tcga", "Hysterectomy: endometrioid carcinoma, grade 3 of FIGO.", "figo_grade", "3"),
        # The depth of invasion in brackets, after "to depth", or over the wall's thickness.
        ("tcga", "Hysterectomy: endometrioid carcinoma invading less than half of the "
         "myometrium (5 mm / 16 mm).", "depth_of_invasion", 5.0),
        ("tcga", "Hysterectomy: carcinoma infiltrates the myometrium to depth 7 mm.",
         "depth_of_invasion", 7.0),
        ("tcga", "Radical hysterectomy: squamous cell carcinoma, stromal invasion 6 mm / wall "
         "12 mm.", "depth_of_invasion", 6.0),
        ("tcga", "EMR: adenocarcinoma with submucosal invasion, depth 2,300 um.",
         "depth_of_invasion", 2.3),
        # The layer invaded in other words.
        ("tcga", "Cystectomy: urothelial carcinoma reaching the perivesical fat.",
         "invasion_depth", "perivisceral fat"),
        ("tcga", "TURBT: high-grade urothelial carcinoma with LP invasion.", "invasion_depth",
         "mucosa"),
        ("tcga", "Esophagectomy: adenocarcinoma, 2.5 cm, into adventitia.", "invasion_depth",
         "perivisceral fat"),
        # Extrathyroidal extension stated in one word or by its code.
        ("tcga", "Lobectomy: papillary thyroid carcinoma, 9 mm, intrathyroidal.",
         "extrathyroidal_extension", "absent"),
        ("tcga", "Lobectomy: PTC, 14 mm, Ex1.", "extrathyroidal_extension", "present"),
        # A node count after the statement it counts.
        ("histai", "Left axillary sentinel nodes: no signs of metastasis, 0 of 3.",
         "lymph_node_involvement", "0/3"),
        ("tcga", "Sentinel nodes, right axilla: metastasis of carcinoma, 2/4, macrometastases.",
         "lymph_node_involvement", "2/4"),
        # Dysplasia graded after the word.
        ("histai", "Sigmoid polyp: tubular adenoma; the dysplasia is high grade.",
         "dysplasia_grade", "high"),
        ("histai", "Tongue, biopsy: hyperkeratosis, dysplasia mild.", "dysplasia_grade", "low"),
        # A type named before a finding with its own status stays stated.
        ("tcga", "Skin, excision: basal cell carcinoma, nodular type, perineural invasion not "
         "identified.", "histologic_type", "nodular"),
        ("histai", "Thyroid: classic papillary thyroid carcinoma, 7 mm.", "histologic_type",
         "papillary + classic"),
        ("histai", "TUR-B material: papillary urothelial carcinoma, low grade.", "organ_site",
         "bladder"),
        ("histai", "Polypectomy, sigma: tubular adenoma.", "tumor_site", "sigmoid colon"),
    ],
)  # fmt: skip
def test_grades_depths_counts_and_sites_in_other_wordings(dataset, text, field, value):
    assert extract(text, dataset)[field] == value


@pytest.mark.parametrize(
    ("dataset", "text", "field"),
    [
        ("reg2025", "Lung, transbronchial biopsy; Epithelioid cell granulomas without necrosis",
         "histologic_type"),
        ("tcga", "Liver, core biopsies: metastatic adenocarcinoma, 2/3 cores.",
         "lymph_node_involvement"),
        ("tcga", "Cervix, LEEP: HSIL, cervical intraepithelial neoplasia grade 3.",
         "tumor_grade"),
    ],
)  # fmt: skip
def test_wordings_that_state_no_such_fact(dataset, text, field):
    assert field not in extract(text, dataset)


@pytest.mark.parametrize(
    ("dataset", "reference", "rewrite"),
    [
        ("histai", "Colon, polypectomy: tubular adenoma with low-grade dysplasia, 7 mm.",
         "Colonic polyp (7 mm), polypectomy: tubular adenoma, low grade."),
        ("tcga", "Hysterectomy: endometrioid adenocarcinoma, FIGO grade 1, 2.5 cm.",
         "Hysterectomy: endometrioid adenocarcinoma, G1, 25 mm."),
        ("tcga", "Right colectomy: adenocarcinoma, 4 cm. Mitoses are frequent.",
         "Right hemicolectomy: adenocarcinoma, 40 mm; mitotic count high."),
        ("tcga", "Total hysterectomy and bilateral salpingo-oophorectomy: endometrioid "
         "carcinoma, FIGO grade 1.", "TH-BSO: endometrioid carcinoma, FIGO grade 1."),
        ("histai", "Lymph node, excision biopsy: reactive follicular hyperplasia.",
         "Lymph node, excised: reactive follicular hyperplasia."),
    ],
)  # fmt: skip
def test_more_facts_in_another_wording_score_as_the_same_fact(dataset, reference, rewrite):
    assert pytest.approx(1.0) == score_pair(reference, rewrite, dataset).CRQS
