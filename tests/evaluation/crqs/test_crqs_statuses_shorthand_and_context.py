"""Statuses that close a sentence or a list, shorthand of busy reports, and words read in context.

A status may follow an abbreviation's full stop ("Invasive ca. not identified") or a post cue
that starts with a shorter cue ("not seen in the sample"); a node count or a size must not be
read across a bullet or from a size range; a "5 mm thick" wall is no Breslow thickness outside
a melanocytic lesion, and "no EGFR mutation detected" states no mutation.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair
from pathreport.evaluation.crqs.schema import SchemaError, build_schema


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # The full stop of "ca." before a status does not end the sentence.
        ("reg2025", "Gallbladder, cholecystectomy;\n  Chronic cholecystitis. Invasive ca. not "
         "identified.", "diagnosis", "cholecystitis"),
        ("histai", "Calculous cholecystitis, chronic. No dysplasia.", "diagnosis",
         "cholecystitis"),
        # A status after a longer post cue closes the whole list.
        ("reg2025", "Kidney, biopsy;\n  Clear cell renal cell carcinoma; sarcomatoid or rhabdoid "
         "differentiation and necrosis not seen in the cores.", "sarcomatoid_features",
         "absent"),
        # The list's last item: words of the vocabulary, then a noun of its own.
        ("histai", "Bone, curettage: giant cell tumour. Atypia, atypical mitoses and tumour "
         "osteoid absent.", "epithelial_atypia", "absent"),
        # Mitotic rates, sizes, depths in other units and words.
        ("tcga", "Nodular melanoma, Breslow 2.1 mm. Mitotic rate five per sq. mm.",
         "mitotic_rate", 5.0),
        ("tcga", "Retroperitoneal liposarcoma, 21 cm x 9 cm x 7 cm.", "tumor_size", 21.0),
        ("tcga", "Tongue: squamous cell carcinoma; depth of invasion at least 5 mm.",
         "depth_of_invasion", 5.0),
        # Gleason in REG shorthand; a node specimen's count after its diagnosis.
        ("reg2025", "Prostate, needle biopsy;\n  Acinar adenocarcinoma, GS 7 (4+3).",
         "gleason_score", "4+3=7"),
        ("reg2025", "(Right axillary sentinel lymph nodes) excision;\n  Metastatic carcinoma "
         "(2/4), largest deposit 5 mm.", "lymph_node_involvement", "2/4"),
        # Margins named in a bracket or between dashes, then one status; lists with signs (REG).
        ("tcga", "Gastrectomy. Resection margins (oesophageal/duodenal) and omentum free of "
         "carcinoma.", "margin_status", "negative"),
        ("histai", "Colectomy. Margins - proximal, distal and mesenteric - negative.",
         "margin_status", "negative"),
        ("reg2025", "Breast, lumpectomy;\n  Ductal carcinoma in situ. Margins: anterior (-), "
         "posterior (-), medial (+).", "margin_status", "involved"),
        # A skin excision's edges are its margins.
        ("histai", "Skin, back: basal cell carcinoma, extends to the deep edge.", "margin_status",
         "positive"),
        # Bulleted shorthand: a type after the carcinoma, TB beside granulomas, EoE.
        ("reg2025", "Endometrium, biopsy;\n- ADENOCARCINOMA, ENDOMETRIOID TYPE", "diagnosis",
         "endometrioid carcinoma"),
        ("reg2025", "Lymph node, excision;\n  Caseating granulomas, consistent with TB.",
         "diagnosis", "tuberculosis"),
        ("histai", "Oesophagus, mid, biopsies: EoE, up to 50 eosinophils per HPF.", "diagnosis",
         "eosinophilic esophagitis"),
        # A bracketed synonym before the noun; the diffuse (Lauren) type.
        ("reg2025", "Stomach, antrum, biopsy;\n  Poorly cohesive (signet-ring cell) carcinoma.",
         "diagnosis", "adenocarcinoma"),
        ("tcga", "Gastrectomy: diffuse-type (poorly cohesive) carcinoma, pT3.", "diagnosis",
         "adenocarcinoma"),
        # Tests: a negated mutation is the wild type; results after a list; clone names.
        ("tcga", "Lung adenocarcinoma. No KRAS mutation detected.", "kras_status", "wild type"),
        ("tcga", "Glioblastoma. No MGMT promoter methylation detected.", "mgmt_status",
         "unmethylated"),
        ("reg2025", "Colon, biopsy;\n  Adenocarcinoma. MMR: MLH1, MSH2, MSH6, PMS2 all retained.",
         "mmr_msi_status", "proficient"),
        ("tcga", "PD-L1, SP263 clone: tumour proportion score 30%.", "pdl1_score", 30.0),
        ("reg2025", "Endometrium, curettage;\n  Serous carcinoma. p53 (aberrant).", "p53_status",
         "aberrant"),
        # Other wording: perineural growth, a pulmonary origin, an extent item.
        ("tcga", "Basal cell carcinoma. Perineural growth not seen.", "perineural_invasion",
         "absent"),
        ("reg2025", "Lymph node, biopsy;\n  Adenocarcinoma, compatible with pulmonary origin.",
         "primary_site", "lung"),
        ("tcga", "Nephrectomy: clear cell RCC. Renal vein invasion present.", "organ_involvement",
         "renal vein"),
    ],
)  # fmt: skip
def test_statuses_shorthand_and_wordings_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "absent_value"),
    [
        # A size range is no node count, nor is a size before a bullet.
        ("histai", "Neck dissection: 18 nodes of 2 to 15 mm; no metastasis.",
         "lymph_node_involvement", "18/2"),
        ("tcga", "- Omental deposits up to 25 mm\n- Nodes negative (0 of 6)",
         "lymph_node_involvement", "0/31"),
        # A station or level number is no count of nodes.
        ("tcga", "Station 4 lymph node: metastatic adenocarcinoma.", "lymph_node_involvement",
         "4"),
        # A thick wall is no Breslow thickness outside a melanocytic lesion.
        ("histai", "Gallbladder: wall up to 6 mm thick; chronic cholecystitis.",
         "breslow_thickness", 6.0),
        # Low-grade dysplasia before a negated high-grade one keeps its grade.
        ("reg2025", "Colon, polyp;\n  Tubular adenoma with low-grade dysplasia, high-grade "
         "dysplasia is not identified.", "dysplasia_grade", "high"),
        # A tumour reaching its capsule with a clearance does not reach the margin.
        ("histai", "Parotid: pleomorphic adenoma reaches the capsule, with margin clearance "
         "under 1 mm.", "margin_status", "positive"),
        # "TB" as a tumour budding score stays a score.
        ("tcga", "Colon adenocarcinoma, TB: low (3 buds); granulomas absent.", "diagnosis",
         "tuberculosis"),
        # A chronic hepatitis's grade and stage are no tumour grade and no liver segment.
        ("tcga", "Hepatocellular carcinoma, grade 3. Background liver: chronic hepatitis B (G2, "
         "S4).", "tumor_grade", "2 + 3"),
        ("tcga", "Hepatocellular carcinoma. Background: chronic hepatitis C, G1, S3.",
         "tumor_site", "liver segment 3"),
        # "No EGFR mutation detected" reads no mutation.
        ("tcga", "Lung adenocarcinoma; no EGFR mutation detected.", "egfr_status",
         "mutant + wild type"),
    ],
)  # fmt: skip
def test_look_alikes_are_not_read(dataset, text, field, absent_value):
    assert extract(text, dataset).get(field) != absent_value


def test_a_breslow_thickness_needs_a_melanocytic_lesion():
    assert extract("Skin: melanoma, 1.1 mm thick.", "tcga").get("breslow_thickness") == 1.1
    assert "breslow_thickness" not in extract("Skin ellipse 4 mm thick: basal cell carcinoma.",
                                              "tcga")  # fmt: skip


def test_only_with_must_be_a_list_of_words():
    raw = {
        "name": "t",
        "version": 1,
        "fields": [
            {
                "name": "depth",
                "type": "numeric",
                "parser": "number",
                "patterns": ["(?P<value>\\d+) mm thick"],
                "only_with": "melanoma",
            }
        ],
    }
    with pytest.raises(SchemaError, match="only_with"):
        build_schema(raw)


def test_a_flipped_perineural_growth_is_discordant_and_its_rewording_is_not():
    reference = "Skin, cheek: basal cell carcinoma, nodular. Perineural growth not seen."
    rewrite = "Nodular BCC of the cheek skin, no perineural invasion."
    wrong = reference.replace("not seen", "seen")
    assert "perineural_invasion" in score_pair(reference, wrong, "tcga").discordant
    assert "perineural_invasion" not in score_pair(reference, rewrite, "tcga").discordant
