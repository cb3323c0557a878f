"""Margins listed one by one, sites named after their organ, test results written as signs.

Synoptic and telegraphic reports give each margin its own status or distance ("Resection
margins: proximal (-), distal (-), radial (+)"; "PRM negative; DRM negative"), name the part
of an organ after the organ ("Oesophagus, distal"; "Skin, forearm, left") and write a
molecular test's result as a sign, often with the antibody clone in between ("ALK (D5F3) (-)").
A finding held possible ("carcinoma cannot be excluded") is stated neither way. The organ of a
specimen named alone agrees with the same organ named beside the structures it reaches.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair
from pathreport.evaluation.crqs.scoring import DEFAULT_WEIGHTS, PAPER_WEIGHTS


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # Each named margin with its own status; any involved one makes the margins involved.
        ("tcga", "Colectomy. Resection margins: proximal (-), distal (-), mesenteric (-).",
         "margin_status", "negative"),
        ("tcga", "Colectomy. Resection margins: proximal (-), distal (+), mesenteric (-).",
         "margin_status", "positive"),
        ("histai", "Margins: medial negative, lateral negative, deep negative.", "margin_status",
         "negative"),
        ("tcga", "Margins: gastric negative, duodenal involved, omental negative.",
         "margin_status", "positive"),
        ("tcga", "Margins: superior not involved, inferior not involved; deep 3 mm.",
         "margin_status", "negative"),
        # The distances first, then one status.
        ("tcga", "Resection margins: proximal 9 cm, distal 4.5 cm, radial 11 mm, all clear.",
         "margin_status", "negative"),
        # Abbreviated margins.
        ("tcga", "Anterior resection. PRM free, DRM free (3 cm), CRM clear at 6 mm.",
         "margin_status", "negative"),
        ("tcga", "Anterior resection. DRM negative; CRM involved.", "margin_status", "positive"),
        # A clearance, a staple line, a complete resection.
        ("histai", "Excised with 4 mm deep clearance.", "margin_status", "negative"),
        ("tcga", "Wedge resection, left upper lobe: adenocarcinoma. Staple line free, 15 mm.",
         "margin_status", "negative"),
        ("tcga", "Lateral margin at 3 o'clock reached by carcinoma.", "margin_status",
         "positive"),
        ("reg2025", "Kidney, partial nephrectomy;\n  Papillary renal cell carcinoma, resection "
         "margin tumour-free (R0)", "margin_status", "free"),
        ("reg2025", "Colon, polypectomy;\n  Adenocarcinoma in a tubular adenoma. Margin of the "
         "stalk free.", "margin_status", "free"),
        ("reg2025", "Colon, polypectomy;\n  Adenocarcinoma in a villous adenoma. Stalk margin "
         "with presence of carcinoma.", "margin_status", "involved"),
        # Distances after other wordings.
        ("tcga", "Resection margin tumour-free, 1,4 cm.", "margin_distance", 1.4),
        ("tcga", "Completely excised: 5 mm lateral, 2 mm deep.", "margin_distance", "0.2 + 0.5"),
        # Sites named after the organ, sides after the procedure or the body part.
        ("tcga", "Oesophagus, distal, biopsies: adenocarcinoma.", "tumor_site", "lower third"),
        ("histai", "Biopsies, esophagus, proximal and distal: eosinophilic esophagitis.",
         "tumor_site", "upper third + lower third"),
        ("tcga", "Anterior resection: adenocarcinoma of the mid rectum.", "tumor_site",
         "middle third"),
        ("tcga", "Breast, right, 7 o'clock, ultrasound-guided core: invasive carcinoma.",
         "tumor_site", "7 o'clock"),
        ("tcga", "Nephrectomy (partial), right side: chromophobe carcinoma.", "lateral_sites",
         "right kidney"),
        ("histai", "Skin, shoulder, right, shave: seborrhoeic keratosis.", "lateral_sites",
         "right shoulder"),
        # Tests written as signs, with or without the clone.
        ("tcga", "Lung adenocarcinoma. ALK (D5F3) (+), ROS1 (-).", "alk_status", "positive"),
        ("histai", "Adenocarcinoma. ALK (-).", "alk_status", "negative"),
        ("tcga", "Adenocarcinoma, colon. KRAS (-), BRAF (-).", "kras_status", "wild type"),
        ("tcga", "Adenocarcinoma, colon. KRAS p.G13D.", "kras_status", "mutant"),
        ("histai", "Gastric adenocarcinoma. HER2 (IHC 2+), FISH pending.", "her2_status",
         "equivocal"),
        # Invasion through a qualifier, a size before a bracket, sizes "in size".
        ("tcga", "Adenocarcinoma infiltrating at least into the muscularis propria.",
         "invasion_depth", "muscularis propria"),
        ("tcga", "Adenocarcinoma extending 6 mm into pericolic fat.", "invasion_depth",
         "perivisceral fat"),
        ("histai", "Adenocarcinoma in a polyp with submucosal invasion.", "invasion_depth",
         "submucosa"),
        ("tcga", "Radical orchidectomy: embryonal carcinoma 22 mm in size.", "tumor_size", 2.2),
        ("tcga", "Hemicolectomy: adenocarcinoma, G2, 4.1 cm (4.1 x 3.3 cm), pT3.", "tumor_size",
         4.1),
        # Shorthand: "Ca." before a comma, "MD" before a carcinoma, EMVI.
        ("reg2025", "Bladder, TURBT;\n  Papillary urothelial Ca., low grade, non-invasive",
         "diagnosis", "urothelial carcinoma"),
        ("tcga", "Gastrectomy: MD tubular adenocarcinoma, 3 cm.", "differentiation", "moderate"),
        ("tcga", "Rectum: adenocarcinoma, EMVI present.", "lymphovascular_invasion", "present"),
        # Duodenum and liver findings, a sarcoma's grade, a node count of none received.
        ("histai", "Duodenal biopsies: normal villi; intraepithelial lymphocytes not increased.",
         "intraepithelial_lymphocytosis", "absent"),
        ("histai", "Duodenum: villous blunting with increased IELs (38/100 enterocytes).",
         "intraepithelial_lymphocytosis", "present"),
        ("histai", "Liver: macrovesicular steatosis 30%, ballooned hepatocytes present.",
         "hepatocyte_ballooning", "present"),
        ("tcga", "Myxofibrosarcoma. Grade: FNCLCC 3.", "tumor_grade", "3"),
        ("tcga", "Leiomyosarcoma, 6 cm. Nodes: none received.", "lymph_nodes_examined", "0"),
        # Diagnoses in other word orders.
        ("histai", "Diagnosis: meningioma, anaplastic (CNS WHO grade 3).", "diagnosis",
         "atypical meningioma"),
        ("tcga", "Gastrectomy: carcinoma of poorly cohesive type, 5 cm.", "diagnosis",
         "adenocarcinoma"),
        ("reg2025", "Lymph node, cervical, excision;\n  Necrotising granulomatous "
         "lymphadenitis, consistent with tuberculous lymphadenitis", "diagnosis",
         "tuberculosis"),
        ("tcga", "Metastatic carcinoma in a cervical node; the profile suggests a pulmonary "
         "origin.", "primary_site", "lung"),
    ],
)  # fmt: skip
def test_margins_sites_and_signs_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "absent_value"),
    [
        # "Circa" before a number is no carcinoma.
        ("tcga", "Specimen: skin ellipse, ca. 4 x 2 cm, with a pale nodule.", "diagnosis",
         "carcinoma"),
        # "M.D." is no differentiation.
        ("tcga", "Reported by A. Jones MD. Lymph node: reactive changes.", "differentiation",
         "moderate"),
        # A clock position of a suture or a margin is no tumour site.
        ("tcga", "Skin ellipse, suture at 12 o'clock; margin at 6 o'clock clear.", "tumor_site",
         "12 o'clock"),
        # A regression grade is no tumour grade.
        ("tcga", "Gastrectomy: residual adenocarcinoma; regression Becker grade 3.",
         "tumor_grade", "3"),
        # A station number is no clearance, a zero clearance no clear margin.
        ("histai", "Tumour transected, clearance 0 mm.", "margin_status", "negative"),
        # Normal intraepithelial lymphocytes are no lymphocytosis.
        ("histai", "Duodenum: no increase in intraepithelial lymphocytes.",
         "intraepithelial_lymphocytosis", "present"),
    ],
)  # fmt: skip
def test_look_alikes_are_not_read(dataset, text, field, absent_value):
    assert extract(text, dataset).get(field) != absent_value


def test_a_finding_held_possible_is_neither_stated_nor_ruled_out():
    fields = extract(
        "Endometrium, biopsy: atypical hyperplasia. A coexisting carcinoma cannot be excluded.",
        "histai",
    )
    assert fields.get("diagnosis") == "atypical hyperplasia"
    assert "carcinoma" not in str(fields.get("excluded_entities"))
    fields = extract("Lymph node: reactive hyperplasia; we cannot exclude lymphoma.", "histai")
    assert fields.get("diagnosis") == "reactive lymphoid hyperplasia"
    assert "lymphoma" not in str(fields.get("excluded_entities"))


def test_the_organ_named_alone_agrees_with_the_organ_beside_its_structures():
    reference = "Right upper lobectomy: adenocarcinoma, 3 cm; visceral pleura invaded (PL1)."
    rewrite = "Lung, right upper lobectomy: adenocarcinoma, 3 cm. The pleural surface is "
    rewrite += "puckered; tumour invades the visceral pleura (PL1)."
    assert extract(rewrite, "tcga")["organ_site"] == "lung + pleura"  # the structure it reaches
    assert "organ_site" not in score_pair(reference, rewrite, "tcga").discordant
    wrong = "Liver, segment 7, resection: adenocarcinoma, 3 cm."
    assert "organ_site" in score_pair(reference, wrong, "tcga").discordant


def test_a_flipped_margin_in_a_list_is_discordant_and_a_reworded_list_is_not():
    reference = "Low anterior resection. Margins: proximal (-), distal (-), radial (-). LN 0/12."
    rewrite = "LAR: PRM negative, DRM negative, CRM negative. Nodes 0 of 12."
    wrong = reference.replace("radial (-)", "radial (+)")
    assert "margin_status" in score_pair(reference, wrong, "tcga").discordant
    assert "margin_status" not in score_pair(reference, rewrite, "tcga").discordant


def test_the_default_weighs_discordance_eight_times_the_papers():
    assert DEFAULT_WEIGHTS[3] == 8 * PAPER_WEIGHTS[3]
    assert DEFAULT_WEIGHTS[:3] == PAPER_WEIGHTS[:3]
