"""Results that head their markers, clock positions, and statements of absence read one way.

"Immunohistochemistry: positive CD20, BCL6; negative CD3, CD10" puts each result before the
markers it applies to, without a colon; a cervical biopsy's clock positions come as lists ("at 12
and 3 o'clock"); "No malignancy" and "Malignancy is not seen" state the same absence, while
"detrusor free of tumour" in a carcinoma's report rules no malignancy out. Other wordings: an
involved or close margin after its distance, "none of 2" nodes, the Lauren type before its
bracket ("Diffuse-type (Lauren) gastric carcinoma"), "papillary carcinoma of urothelium" (not of
the thyroid), ASAP, and washings named without the peritoneum.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair
from pathreport.evaluation.crqs.schema import SchemaError, build_schema


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_a_result_before_its_markers_reaches_each_of_them(dataset):
    text = (
        "Immunohistochemistry: positive CD20, BCL6, MUM1; negative CD3, CD10; Ki-67 80%.\n"
        "Conclusion: diffuse large B-cell lymphoma."
    )
    markers = extract(text, dataset)["ihc_markers"].split(" + ")
    assert {"cd3 negative", "cd10 negative", "cd20", "bcl6", "mum1"} <= set(markers)


def test_a_result_word_outside_an_immunohistochemistry_line_stays_as_it_was():
    # "negative margins" is no marker list; the margin keeps its own status.
    found = extract("Excision: basal cell carcinoma; negative margins.", "histai")
    assert found["margin_status"] == "negative" and "ihc_markers" not in found


@pytest.mark.parametrize("dataset", ["reg2025", "histai"])
@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("Cervix, 12 o'clock, punch biopsy;\nHSIL (CIN 3).", {"12"}),
        ("Uterine cervix at 6 o'clock, punch biopsy;\nHSIL (CIN 3).", {"6"}),
        ("Cervix uteri, punch biopsies at 12 and 3 o'clock;\nHSIL (CIN 3).", {"12", "3"}),
        ("Cervix, biopsies at 3, 6, 9 and 12 o'clock;\nHSIL (CIN 3).", {"3", "6", "9", "12"}),
        ("Cervix, punch biopsies, 12 o'clock and 3 o'clock;\nHSIL (CIN 3).", {"12", "3"}),
    ],
)
def test_a_cervical_biopsy_keeps_its_clock_positions(dataset, text, hours):
    site = extract(text, dataset)["tumor_site"]
    assert set(site.split(" + ")) == {f"{h} o'clock" for h in hours}


def test_a_moved_clock_position_of_a_cervical_biopsy_is_seen():
    ref = "Cervix, 12 o'clock, colposcopic punch biopsy;\nHSIL (CIN 3), p16 block positive."
    rewrite = "Uterine cervix at 12 o'clock, punch biopsy;\nCIN III / HSIL; p16 block-positive."
    wrong = ref.replace("12 o'clock", "6 o'clock")
    assert score_pair(ref, rewrite, "reg2025").CRQS > score_pair(ref, wrong, "reg2025").CRQS


@pytest.mark.parametrize(
    "absent",
    ["No malignancy.", "Malignancy is not seen.", "Negative for malignancy.", "Not malignant."],
)
def test_no_malignancy_is_one_statement_however_it_is_worded(absent):
    found = extract(f"Gallbladder: chronic cholecystitis. {absent}", "histai")
    assert found["malignancy_status"] == "absent"


@pytest.mark.parametrize("status", ["free of tumour", "negative for tumor", "not involved"])
def test_a_structure_free_of_tumour_beside_a_carcinoma_rules_no_malignancy_out(status):
    text = f"TURBT: high-grade papillary urothelial carcinoma, pT1. Detrusor present, {status}."
    assert "malignancy_status" not in extract(text, "histai")


def test_void_when_must_name_a_field_and_one_of_its_values():
    raw = {
        "name": "demo",
        "version": 1,
        "fields": [
            {"name": "kind", "type": "categorical", "values": {"malignant": ["cancer"]}},
            {
                "name": "status",
                "type": "presence",
                "negated_mentions": ["malignancy"],
                "void_when": {"kind": "benign"},
            },
        ],
    }
    with pytest.raises(SchemaError, match="void_when names kind='benign'"):
        build_schema(raw)


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # A margin's status after its distance, with a comma or in brackets.
        ("tcga", "Whipple: ductal adenocarcinoma. Margins: neck and bile duct free; SMA margin "
         "0.5 mm, involved.", "margin_status", "positive"),
        ("histai", "Glossectomy: squamous cell carcinoma. Margins: deep margin 3 mm (close), "
         "mucosal margins clear.", "margin_status", "close"),
        ("tcga", "Ileocaecal resection: neuroendocrine tumour. Margins without neoplasia.",
         "margin_status", "negative"),
        # Nodes: "none of" before a number in digits.
        ("tcga", "Melanoma, back. Left axillary sentinel nodes: none of 2 involved.",
         "lymph_node_involvement", "0/2"),
        ("histai", "Sentinel nodes: none of the 3 involved.", "lymph_node_involvement", "0/3"),
        # The Lauren type before its bracket names an adenocarcinoma.
        ("tcga", "Gastrectomy: diffuse-type (Lauren) gastric carcinoma, poorly cohesive.",
         "diagnosis", "adenocarcinoma"),
        ("reg2025", "Stomach, gastrectomy;\nGastric carcinoma of intestinal type.", "diagnosis",
         "adenocarcinoma"),
        # Urothelium, not the thyroid.
        ("reg2025", "Bladder, TURBT;\nHigh-grade papillary carcinoma of urothelium, pT1.",
         "diagnosis", "urothelial carcinoma"),
        ("histai", "Conclusion: papillary carcinoma of the urothelium, low grade.", "diagnosis",
         "urothelial carcinoma"),
        # ASAP is an entity of its own, not an acinar carcinoma's type.
        ("reg2025", "Prostate, needle biopsy;\nAtypical small acinar proliferation (ASAP).",
         "diagnosis", "atypical small acinar proliferation"),
        ("histai", "Prostate cores: ASAP in 1 of 12 cores.", "diagnosis",
         "atypical small acinar proliferation"),
        # "chronically inflamed" and a diameter after "with".
        ("reg2025", "Prostate, biopsy;\nBenign prostatic tissue, focally chronically inflamed.",
         "diagnosis", "chronic inflammation"),
        ("reg2025", "Thyroid, right lobectomy;\nPapillary carcinoma, classic type, with diameter "
         "0.6 cm, unifocal.", "tumor_size", 0.6),
        # Microvessels, a penetrated capsule, and EBER by in situ hybridisation.
        ("tcga", "Glioblastoma: necrosis with pseudopalisading and proliferation of "
         "microvessels.", "microvascular_proliferation", "present"),
        ("histai", "Encapsulated follicular neoplasm, capsule penetrated through its full "
         "thickness.", "capsular_invasion", "present"),
        ("tcga", "Adrenocortical carcinoma. Invasion of capsule and veins identified.",
         "capsular_invasion", "present"),
        ("tcga", "Gastrectomy: adenocarcinoma. HER2 IHC 0; EBER ISH -; MMR proficient.",
         "ihc_markers", "eber negative"),
        # Markers after "by negative", tumour deposits counted with "x", cores without tumour.
        ("histai", "Small glands lacking basal cells, confirmed by negative p63 and HMWCK.",
         "ihc_markers", "hmwck negative + p63 negative"),
        ("tcga", "Sigmoid colectomy: adenocarcinoma. Mesocolic tumour deposits x2; lymph nodes "
         "negative (0/15).", "tumor_deposit_count", "2"),
        ("histai", "A. Right prostate: carcinoma in 4 of 6 cores. B. Left prostate: benign; no "
         "carcinoma in six cores.", "tumor_extent", "4/12"),
        # A sign before a bracket, a margin's status after its bracket, CHL.
        ("tcga", "Endometrioid carcinoma. IHC: MLH1 +, PMS2 +, MSH2 -, MSH6 - (MMR-deficient).",
         "mmr_proteins_lost", "msh2 + msh6"),
        ("tcga", "Distal gastrectomy: adenocarcinoma. Surgical margins (proximal and distal) "
         "without neoplasia.", "margin_status", "negative"),
        ("reg2025", "Lymph node, right neck, excision;\nCHL, nodular sclerosis subtype.",
         "diagnosis", "lymphoma"),
        # Washings named without the peritoneum.
        ("tcga", "TAH-BSO: serous carcinoma of the right ovary; washings negative for malignant "
         "cells.", "peritoneal_cytology", "negative"),
    ],
)  # fmt: skip
def test_less_common_wordings_are_read(dataset, text, field, value):
    assert extract(text, dataset)[field] == value


def test_asap_has_no_histologic_type():
    found = extract("Prostate, needle biopsy;\nAtypical small acinar proliferation.", "reg2025")
    assert "histologic_type" not in found


@pytest.mark.parametrize("dataset", ["reg2025", "histai"])
def test_non_small_cell_carcinoma_beside_its_subtype_is_one_entity(dataset):
    found = extract("Lung, core biopsy;\nNon-small cell carcinoma, adenocarcinoma.", dataset)
    assert found["findings"] == "adenocarcinoma"


def test_a_liver_biopsy_stage_in_brackets_of_fibrosis_is_no_stage_group():
    text = "Chronic hepatitis, Batts-Ludwig grade 3 (moderate), stage 3 (bridging fibrosis)."
    found = extract(text, "histai")
    assert found["fibrosis_stage"] == "stage 3" and "stage_group" not in found


def test_a_cyst_lined_by_keratinizing_epithelium_has_no_carcinoma_type():
    text = "Left ovary, cystectomy: cyst lined by keratinizing squamous epithelium with adnexa."
    assert "histologic_type" not in extract(text, "histai")


def test_a_nodes_extracapsular_extension_is_no_extraprostatic_extension():
    text = "Axillary nodes: metastatic carcinoma, 3/14; one node shows extracapsular extension."
    found = extract(text, "histai")
    assert found["extranodal_extension"] == "present" and "extraprostatic_extension" not in found
    prostate = extract("Prostate biopsy: adenocarcinoma with extracapsular extension.", "histai")
    assert prostate["extraprostatic_extension"] == "present"
