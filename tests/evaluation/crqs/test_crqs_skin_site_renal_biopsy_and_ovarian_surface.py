"""Readings of version 34: the body site of a skin specimen, crescents and global sclerosis in a
kidney biopsy, ovarian surface involvement, an unlisted entity beside a statement of absence,
and wordings of margins, node counts and sizes that earlier versions did not read.

Each sentence is written here for the test. The readings are what a pathologist takes from the
sentence; the look-alikes next to them guard the rules against reading too much.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, load_schema, score_pair
from pathreport.evaluation.crqs.schema import SchemaError, build_schema


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # The body site of a skin specimen, however it is worded.
        ("histai", "Skin, nasal ala, punch biopsy: basal cell carcinoma, nodular type.",
         "skin_site", "nose"),
        ("histai", "Punch biopsy of skin from the tip of the nose: nodular BCC.", "skin_site",
         "nose"),
        ("histai", "Shave biopsy, left upper back: seborrhoeic keratosis.", "skin_site", "back"),
        ("tcga", "Wide local excision, skin of the right calf: melanoma, Breslow 1.4 mm.",
         "skin_site", "leg"),
        # Crescents and globally sclerosed glomeruli, counted or stated.
        ("histai", "Kidney, core biopsy: 18 glomeruli, 10 with cellular crescents.",
         "glomerular_crescents", "10/18"),
        ("histai", "Renal core with 15 glomeruli; cellular crescents in 9/15.",
         "glomerular_crescents", "9/15"),
        ("histai", "Renal biopsy. Fifteen glomeruli, nine of which show cellular crescents.",
         "glomerular_crescents", "9/15"),
        ("reg2025", "Kidney, needle biopsy; IgA nephropathy, no crescents identified",
         "glomerular_crescents", "absent"),
        ("histai", "Kidney biopsy. None of the glomeruli shows a crescent.",
         "glomerular_crescents", "absent"),
        ("histai", "Kidney biopsy: 18 glomeruli, of which 2 are globally sclerosed.",
         "global_glomerulosclerosis", "2/18"),
        # Tumour on the surface of the ovary (CAP ovary protocol).
        ("tcga", "Serous carcinoma of the right ovary; capsule intact; ovarian surface involved.",
         "ovarian_surface_involvement", "present"),
        ("tcga", "Capsule: intact. Ovarian surface: free of tumour.",
         "ovarian_surface_involvement", "absent"),
        ("tcga", "HGSC of both ovaries, surface of ovaries involved.",
         "ovarian_surface_involvement", "present"),
        # An entity outside the vocabulary beside "negative for malignancy" (REG).
        ("reg2025", "Pleura, biopsy; Fibrinous pleuritis, negative for malignancy", "diagnosis",
         "unlisted: fibrinous pleuritis"),
        ("reg2025", "Pleura, biopsy; Fibrinous pleuritis. No malignant cells identified.",
         "diagnosis", "unlisted: fibrinous pleuritis"),
        ("histai", "Bladder biopsy: chronic cystitis. No dysplasia or malignancy seen.",
         "diagnosis", "benign"),
        # A margin named by its position before its tissue, or reached.
        ("histai", "Leukoplakia: dysplasia extends to the posterior mucosal margin.",
         "margin_involved", "posterior"),
        ("tcga", "Buccal mucosa: the dysplasia is reaching the posterior margin.",
         "margin_involved", "posterior"),
        # Node counts in new wordings.
        ("tcga", "Esophagectomy: none of the nineteen lymph nodes examined shows metastatic "
         "disease.", "metastatic_involvement", "absent"),
        ("histai", "Level VI dissection. Twelve lymph nodes; metastatic papillary thyroid "
         "carcinoma in 1 of 12.", "lymph_node_involvement", "1/12"),
        # Sizes and depths.
        ("tcga", "Cervix: depth of invasion: 8 of 15 mm of cervical wall.",
         "depth_of_invasion", 8.0),
        ("reg2025", "Stomach, endoscopic submucosal dissection; Tubular adenocarcinoma, well "
         "differentiated, intramucosal, 1.8 x 1.2 cm", "tumor_size", 1.8),
        ("tcga", "Liver resection: a solitary moderately differentiated HCC of 42 mm.",
         "tumor_size", 4.2),
        ("tcga", "Liver: hepatocellular carcinoma, single nodule, 4.2 cm.",
         "multifocal_involvement", "absent"),
        # A part or layer written after its organ.
        ("tcga", "Oesophagus distal, biopsy: adenocarcinoma.", "tumor_site", "lower third"),
        ("histai", "Colon, left side, biopsies. Chronic active colitis.", "tumor_site",
         "left colon"),
        # Other wordings.
        ("histai", "Cells show positivity for CD20 and BCL6, negativity for CD10.",
         "ihc_markers", "cd10 negative + cd20 + bcl6"),
        ("tcga", "Kidney right, nephron-sparing resection: clear cell RCC, 34 mm.",
         "specimen_type", "nephrectomy"),
        ("reg2025", "Impression: LEEP cone - HSIL (CIN III).", "organ_site", "uterine cervix"),
        ("tcga", "Ovarian HGSC. Metastasis in the omentum, 45 mm.", "organ_involvement",
         "omentum"),
    ],
)  # fmt: skip
def test_version_34_reads(dataset: str, text: str, field: str, value: object) -> None:
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field"),
    [
        # "Neck", "back" and "hand" outside a skin report name no skin site.
        ("tcga", "Radical neck dissection: metastatic squamous cell carcinoma in 2 of 30 nodes.",
         "skin_site"),
        ("histai", "Gastric biopsy. On the other hand, the antrum shows chronic gastritis.",
         "skin_site"),
        ("tcga", "Lung, lobectomy: epidermoid carcinoma invading the chest wall.", "skin_site"),
        # Endocervical glands and mitoses that reach the middle third are not invasion.
        ("histai", "HSIL (CIN 3) extending into endocervical glands.", "invasion_status"),
        # "Pleura, left parietal" is no parietal lobe; "Esophagus, proximal margin" no third.
        ("reg2025", "Pleura, left parietal, thoracoscopic biopsy; Fibrinous pleuritis",
         "tumor_site"),
        ("tcga", "Esophagus, proximal margin free.", "tumor_site"),
        # A LEEP alone may be vaginal: it names no cervix in REG.
        ("reg2025", "Vagina, Loop Electrosurgical Excision Procedure; HSIL", "organ_site"),
    ],
)  # fmt: skip
def test_version_34_look_alikes(dataset: str, text: str, field: str) -> None:
    assert extract(text, dataset).get(field) is None


def test_a_papillary_carcinoma_whose_nuclear_features_are_not_seen_is_ruled_out() -> None:
    found = extract("Papillary carcinoma nuclear features are not seen.", "histai")
    assert found.get("diagnosis") is None
    assert found.get("excluded_entities") == "papillary thyroid carcinoma"


def test_colon_named_with_the_operations_side_keeps_the_side() -> None:
    found = extract("Colon, right, hemicolectomy: adenocarcinoma arising in the cecum.", "tcga")
    assert found.get("laterality") == "right"
    assert found.get("tumor_site") == "cecum"


@pytest.mark.parametrize(
    ("dataset", "reference", "rewrite", "wrong"),
    [
        ("histai", "Skin, nasal ala, punch biopsy: basal cell carcinoma, nodular type.",
         "Punch biopsy of skin from the ala of the nose: nodular BCC.",
         "Skin, upper back, punch biopsy: basal cell carcinoma, nodular type."),
        ("histai", "Kidney biopsy: 18 glomeruli, 10 with cellular crescents. Pauci-immune "
         "crescentic glomerulonephritis.",
         "Renal core: eighteen glomeruli, ten of which show cellular crescents; pauci-immune "
         "crescentic glomerulonephritis.",
         "Kidney biopsy: 18 glomeruli, 3 with cellular crescents. Pauci-immune crescentic "
         "glomerulonephritis."),
        ("tcga", "Right ovary: high-grade serous carcinoma, 9 cm; capsule intact; ovarian surface "
         "not involved. pT1a.",
         "Right ovary, HGSC, 90 mm. Capsule: intact. Ovarian surface: free of tumour. pT1a.",
         "Right ovary: high-grade serous carcinoma, 9 cm; capsule intact; ovarian surface "
         "involved. pT1a."),
    ],
)  # fmt: skip
def test_the_rewrite_outranks_the_wrong_report(
    dataset: str, reference: str, rewrite: str, wrong: str
) -> None:
    assert score_pair(reference, rewrite, dataset).CRQS > score_pair(reference, wrong, dataset).CRQS


def test_every_new_field_weighs_at_least_as_a_major_finding() -> None:
    for dataset, names in (
        ("histai", ("skin_site", "glomerular_crescents", "global_glomerulosclerosis")),
        ("tcga", ("ovarian_surface_involvement", "skin_site")),
    ):
        schema = load_schema(dataset)
        for name in names:
            f = schema.field(name)
            assert f.severity in ("critical", "major") and f.weight >= 1.0


def test_open_class_beside_must_be_a_list_of_phrases() -> None:
    raw = {
        "name": "t",
        "version": 1,
        "fields": [
            {
                "name": "diagnosis",
                "group": "g",
                "type": "categorical",
                "values": {"benign": ["no tumor"]},
                "open_class": {"suffixes": ["oma"], "beside": 3},
            }
        ],
    }
    with pytest.raises(SchemaError, match="beside"):
        build_schema(raw, with_learned_vocab=False)
