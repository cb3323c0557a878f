"""Findings of version 57: a melanocytic lesion's pagetoid spread, the retroperitoneum apart from
the soft tissue of the limbs, urothelial carcinoma in situ as high grade, the last item of a
negated list led by "any" or "evidence of", and wordings that read nothing or the opposite
before."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair

# -- pagetoid spread -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Compound naevus. Pagetoid spread of single melanocytes present.", "present"),
        ("Atypical junctional melanocytic proliferation, pagetoid upward migration.", "present"),
        ("Melanoma in situ; no pagetoid spread.", "absent"),
        ("Junctional naevus: regular nests, pagetoid spread not seen.", "absent"),
    ],
)
@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_pagetoid_spread_and_its_absence(text: str, value: str, dataset: str) -> None:
    assert extract(text, dataset).get("pagetoid_spread") == value


def test_pagetoid_spread_added_to_a_naevus_is_caught() -> None:
    reference = (
        "Skin, back, excision 0.8 cm. Microscopy: compound melanocytic naevus with nests at the"
        " junction and in the dermis, normal maturation. Margins clear."
    )
    rewrite = (
        "Excision from the skin of the back, 8 mm: benign compound nevus (junctional and dermal"
        " nests, maturing with depth), with clear margins."
    )
    wrong = reference.replace("maturation.", "maturation. Pagetoid spread of melanocytes present.")
    assert (
        score_pair(reference, rewrite, "histai").CRQS > score_pair(reference, wrong, "histai").CRQS
    )


# -- the retroperitoneum -------------------------------------------------------------------------


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_retroperitoneal_sarcoma_is_not_one_of_the_thigh(dataset: str) -> None:
    retro = extract("Excision of retroperitoneal mass. Dedifferentiated liposarcoma.", dataset)
    thigh = extract("Excision of thigh mass. Dedifferentiated liposarcoma.", dataset)
    assert retro["organ_site"] == "retroperitoneum"
    assert thigh["organ_site"] == "soft tissue"


def test_a_soft_tissue_heading_agrees_with_the_retroperitoneum_it_names() -> None:
    reference = "Soft tissue, retroperitoneum, core biopsy;\nDedifferentiated liposarcoma"
    rewrite = "Retroperitoneal mass, core needle biopsy:\nDedifferentiated liposarcoma"
    assert score_pair(reference, rewrite, "reg2025").CRQS >= 0.99


# -- urothelial carcinoma in situ ----------------------------------------------------------------


def test_urothelial_carcinoma_in_situ_is_high_grade_by_definition() -> None:
    reference = "Urinary bladder, cold cup biopsy;\nUrothelial carcinoma in situ"
    rewrite = "Bladder mucosa, cold-cup bx:\nCIS (flat high-grade urothelial carcinoma in situ)."
    wrong = reference + ", with focal invasion into lamina propria"
    assert extract(reference, "reg2025")["tumor_grade"] == "high"
    assert (
        score_pair(reference, rewrite, "reg2025").CRQS
        > score_pair(reference, wrong, "reg2025").CRQS
    )


def test_a_low_grade_papillary_tumour_with_cis_keeps_its_stated_grade() -> None:
    text = (
        "Urinary bladder, TURBT;\nNon-invasive papillary urothelial carcinoma, low grade\n"
        "Note) Urothelial carcinoma in situ in the adjacent mucosa"
    )
    assert extract(text, "reg2025")["tumor_grade"] == "low"


# -- the last item of a negated list -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Proliferative endometrium without hyperplasia, atypia or evidence of malignancy.",
        "Proliferative endometrium; no hyperplasia, atypia or any malignancy.",
        "Proliferative endometrium without hyperplasia, atypia or features of malignancy.",
    ],
)
def test_a_led_last_item_of_a_negated_list_is_negated(text: str) -> None:
    assert extract(text, "histai").get("malignancy_status") == "absent"


def test_a_finding_after_its_own_lead_outside_a_list_keeps_its_status() -> None:
    text = "Chronic gastritis, and features of malignancy are present in one fragment."
    assert extract(text, "histai").get("malignancy_status") != "absent"


# -- a bracket after a finding's object ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Squamous cell carcinoma of lung (immunophenotype: TTF1 negative, p40 positive).",
        "Squamous cell carcinoma of lung (TTF1 negative, p40 positive).",
    ],
)
def test_a_negative_stain_in_brackets_does_not_deny_the_carcinoma(text: str) -> None:
    heading = "Transbronchial biopsy of the left upper lobe:\n"
    assert extract(heading + text, "reg2025")["diagnosis"] == "squamous cell carcinoma"


def test_a_status_after_a_findings_object_still_reads() -> None:
    text = "Invasion of the lamina propria is not identified."
    assert extract(text, "reg2025").get("invasion_depth") is None


# -- other wordings ------------------------------------------------------------------------------


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_divergent_differentiation_named_after_its_kind(dataset: str) -> None:
    text = "High-grade urothelial carcinoma showing squamous divergent differentiation."
    assert extract(text, dataset).get("divergent_differentiation") == "squamous"


def test_a_depth_label_before_a_deep_layer() -> None:
    text = "Cystectomy. Urothelial carcinoma, high grade. Depth: deep (outer half) detrusor muscle."
    assert extract(text, "tcga").get("invasion_depth") == "muscularis propria"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_infiltration_around_nerves_is_perineural_invasion(dataset: str) -> None:
    text = "Basal cell carcinoma, nodular type. Tumour infiltrates around nerves."
    assert extract(text, dataset).get("perineural_invasion") == "present"


def test_intraepidermal_squamous_carcinoma_is_in_situ() -> None:
    text = "Skin, shin: Bowen's disease (intraepidermal squamous carcinoma), no dermal invasion."
    assert extract(text, "histai")["diagnosis"] == "squamous cell carcinoma in situ"


def test_a_hysterectomys_organ_list_keeps_the_uterus() -> None:
    text = "Specimen: uterus, cervix, tubes and ovaries (robotic). Endometrioid carcinoma, FIGO 3."
    assert "uterus" in extract(text, "tcga")["organ_site"].split(" + ")


@pytest.mark.parametrize("dataset", ["tcga", "reg2025"])
def test_uterus_then_cervix_alone_names_the_cervix(dataset: str) -> None:
    text = "Uterus, cervix, LEEP cone: HSIL (CIN 3)."
    assert "uterus" not in extract(text, dataset)["organ_site"].split(" + ")


# -- an invented critical finding ----------------------------------------------------------------


def test_invented_perineural_invasion_costs_more_than_a_narrower_site() -> None:
    reference = (
        "Total gastrectomy: poorly cohesive carcinoma, signet ring cell type, in the body along the"
        " lesser curvature, 6 cm, invading the subserosa. Proximal and distal margins free."
        " Metastatic carcinoma in 5 of 22 perigastric lymph nodes. pT3 pN2."
    )
    rewrite = (
        "Total gastrectomy specimen: signet-ring cell (poorly cohesive) carcinoma of the gastric"
        " body, lesser curve, 60 mm, into the subserosal connective tissue (pT3). Five of"
        " twenty-two perigastric nodes contain metastases (pN2). Proximal and distal margins"
        " uninvolved."
    )
    wrong = reference.replace("subserosa.", "subserosa. Perineural invasion present.")
    assert score_pair(reference, rewrite, "tcga").CRQS > score_pair(reference, wrong, "tcga").CRQS


# -- named types and stains ----------------------------------------------------------------------


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_the_lauren_type_after_the_classifications_name(dataset: str) -> None:
    text = "Gastric body carcinoma, poorly cohesive, signet-ring cell morphology (Laurén diffuse)."
    assert "diffuse type" in extract(text, dataset)["histologic_type"].split(" + ")


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_signet_ring_morphology_of_a_poorly_cohesive_carcinoma_is_not_divergent(
    dataset: str,
) -> None:
    text = "Poorly cohesive carcinoma with signet-ring cell morphology, 6 cm."
    assert "divergent_differentiation" not in extract(text, dataset)


def test_a_papillary_thyroid_carcinomas_who_2022_subtype_is_its_variant() -> None:
    subtype = extract("Papillary thyroid carcinoma, follicular subtype, 22 mm.", "tcga")
    variant = extract("Papillary thyroid carcinoma, follicular variant, 22 mm.", "tcga")
    assert subtype["histologic_type"] == variant["histologic_type"] == "follicular variant"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_stain_showing_negative_staining_is_negative(dataset: str) -> None:
    negative = extract("Cervical biopsy. p16 shows negative staining. HSIL.", dataset)
    positive = extract("Cervical biopsy. p16 shows strong block-type positivity. HSIL.", dataset)
    assert negative["ihc_markers"] == "p16 negative"
    assert positive["ihc_markers"] == "p16"


def test_a_disordered_proliferative_pattern_is_proliferative_endometrium() -> None:
    text = "Endometrial curettage. Conclusion: disordered proliferative pattern."
    assert extract(text, "histai")["diagnosis"] == "proliferative endometrium"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Papillary carcinoma, encapsulated; the capsule is breached but vessels are not invaded.",
         "absent"),
        ("Follicular carcinoma; the capsule is breached and veins were invaded.", "present"),
    ],
)  # fmt: skip
def test_the_vessels_status_after_their_verb(text: str, value: str, dataset: str) -> None:
    assert extract(text, dataset).get("lymphovascular_invasion") == value
