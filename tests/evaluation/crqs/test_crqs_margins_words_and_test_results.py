"""Margin idioms, counts in words and test results after their method, as other labs write them.

A margin is "intact", "without tumour growth" or "involved by tumour growth"; an excision
"appears complete". Counts come in words ("none metastatic", "four of the six biopsies",
"three per five square millimetres"), after a group's label ("peribronchial 1 of 6") or in the
"0N+/12" shorthand. A test's result follows its method or clone in brackets ("H. pylori (Giemsa):
(-)", "HER2 (IHC): 3+", "ALK (D5F3): (+)") and an in situ hybridisation result overrides an
equivocal IHC score. Liver biopsies name grade and stage under one system, and "bodies" of
histology are no part of the stomach.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # Margins and excisions.
        ("tcga", "Wedge excision of the lip: squamous cell carcinoma. Excision appears complete.",
         "margin_status", "negative"),
        ("histai", "Skin, ellipse: basal cell carcinoma; excision is incomplete at the deep edge.",
         "margin_status", "positive"),
        ("tcga", "Nephrectomy. Surgical margins: intact (closest, renal vein 4 mm).",
         "margin_status", "negative"),
        ("reg2025", "Testis, orchiectomy;\n  Seminoma.\n  Spermatic cord margin: intact",
         "margin_status", "free"),
        ("reg2025", "Skin of cheek, excision;\n  Basal cell carcinoma\nNote) Lateral margins "
         "without tumour growth, deep margin with tumour growth.", "margin_involved", "deep"),
        ("histai", "Conclusion: carcinoma of the tongue. Tumour growth is present in the deep "
         "margin.", "margin_status", "positive"),
        ("tcga", "Resection margins without tumour growth.", "margin_status", "negative"),
        # Node counts.
        ("tcga", "Nine lymph nodes, none metastatic.", "lymph_node_involvement", "0/9"),
        ("histai", "Nine lymph nodes, none metastatic.", "metastatic_involvement", "absent"),
        ("tcga", "Level II-IV dissection: sixteen nodes - none involved.",
         "lymph_node_involvement", "0/16"),
        ("tcga", "Lymph nodes with metastasis 3 of 17. pT3 pN1b.", "lymph_node_involvement",
         "3/17"),
        ("tcga", "Lymph nodes: hilar 2 of 5 positive, mediastinal 0/9.",
         "lymph_node_involvement", "2/14"),
        ("histai", "Left neck dissection, levels II-IV: 1N+/19.", "lymph_node_involvement",
         "1/19"),
        # Cores and biopsies involved; rates and sizes in words.
        ("reg2025", "Prostate, biopsy (10 cylinders);\n  Acinar adenocarcinoma in 3 of 10 "
         "cylinders, Gleason 3+4=7.", "tumor_extent", "3/10"),
        ("histai", "Bladder, random biopsies: carcinoma in situ in two of the five biopsies.",
         "tumor_extent", "2/5"),
        ("tcga", "Melanoma. The mitotic rate is four per five square millimeters.",
         "mitotic_rate", 4.0),
        ("tcga", "Leiomyosarcoma. The mitotic count is nine per ten high-power fields.",
         "mitotic_rate", 9.0),
        ("histai", "A fatty mass measuring eleven point five times four times three centimeters.",
         "measurements", "11.5 + 3.0 + 4.0"),
        ("histai", "Liver, two needle cores, 1.4 and 2.1 cm.", "measurements", "1.4 + 2.1"),
        ("histai", "Prostate, core biopsy: adenocarcinoma, Gleason four plus four equals eight.",
         "gleason_score", "4+4=8"),
        # Test results after a method, a clone or a shorthand sign.
        ("histai", "Antral biopsies. Helicobacter pylori (Giemsa): (+).", "hpylori_status",
         "present"),
        ("reg2025", "Stomach, biopsy;\n  Chronic gastritis\nNote) Helicobacter pylori "
         "(Giemsa): (-)", "helicobacter_pylori", "absent"),
        ("histai", "Lung, biopsy: adenocarcinoma. ALK (D5F3): (+).", "alk_status", "positive"),
        ("tcga", "Gastric adenocarcinoma. HER2 (IHC): 3+.", "her2_status", "positive"),
        ("tcga", "Melanoma. BRAF V600E: (+).", "braf_status", "mutant"),
        ("tcga", "Breast carcinoma, HER2 2+ by IHC, FISH - amplified (ratio 2.6).",
         "her2_status", "positive"),
        ("tcga", "HER2: IHC 2+, amplification confirmed by FISH.", "her2_status", "positive"),
        ("histai", "Lymphoma: CD20 +ve, CD3 -ve, CD10 -ve.", "ihc_markers",
         "cd10 negative + cd3 negative + cd20"),
        ("histai", "Breast core: carcinoma; oestrogen and progesterone receptors negative.",
         "er_status", "negative"),
        ("tcga", "Lung adenocarcinoma. PD-L1 22C3 tumour proportion score less than 1%.",
         "pdl1_score", 1.0),
        # Grades, stages and types in other words.
        ("tcga", "Chronic hepatitis C, grade 1, stage 2 (Batts-Ludwig).", "fibrosis_stage",
         "batts ludwig stage 2"),
        ("histai", "Chronic hepatitis B. Modified HAI (Ishak): grade 5/18, stage 3/6.",
         "fibrosis_stage", "ishak stage 3"),
        ("histai", "Liver biopsy: trichrome shows bridging fibrosis.", "fibrosis_stage",
         "stage 3"),
        ("reg2025", "Endometrium, biopsy;\n  Endometrioid type adenocarcinoma, low grade "
         "(FIGO 2).", "tumor_grade", "2"),
        ("reg2025", "Cervix, biopsy;\n  HSIL, CIN grade 2.", "histologic_type", "cin 2"),
        ("reg2025", "Bladder, TURBT;\n  Papillary urothelial carcinoma, low grade, without "
         "invasion.", "invasion_depth", "non-invasive"),
        ("reg2025", "Bladder, TURBT;\n  Note) Muscular layer (muscularis propria) is present.",
         "muscle_proper_status", "included"),
        ("tcga", "Anterior resection. Angio-invasion: extramural, not present.",
         "lymphovascular_invasion", "absent"),
        ("histai", "Gallbladder: xanthogranulomatous cholecystitis.", "diagnosis",
         "xanthogranulomatous cholecystitis"),
        ("reg2025", "Prostate, TURP;\n  Nodular hyperplasia of the prostate.", "diagnosis",
         "benign prostatic hyperplasia"),
        ("reg2025", "Rt. neck dissection;\n  Metastatic papillary carcinoma in 3/22 nodes.",
         "organ_site", "lymph node"),
        ("histai", "Thyroid, right lobe: colloid goitre. No e/o malignancy.", "benign_vs_malignant",
         "benign"),
    ],
)  # fmt: skip
def test_idioms_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "absent_value"),
    [
        ("histai", "Lung, wedge: fibrosis with asbestos bodies.", "tumor_site", "body"),
        ("histai", "Lymph node: reactive follicles with tingible body macrophages.",
         "tumor_site", "body"),
        # A histologic grade is not followed onto the next numbered line.
        ("tcga", "Breast, mastectomy;\n1. Invasive carcinoma, NST, histologic grade 3\n"
         "2. Tumor size: 2.5 cm", "tumor_grade", "2 + 3"),
        ("tcga", "Chronic hepatitis B, Batts-Ludwig grade 2, stage 3.", "stage_group", "iii"),
        ("tcga", "Steatohepatitis with stage 2 perisinusoidal fibrosis.", "stage_group", "ii"),
        ("tcga", "Liver biopsy: bridging fibrosis (-).", "fibrosis_stage", "stage 3"),
        ("tcga", "No microsatellites, lymphovascular or perineural invasion.",
         "perineural_invasion", "present"),
        # A clone's digits are no score; cores on a line that names nodes are no node count.
        ("tcga", "PD-L1 SP263 tumour proportion score 5%.", "pdl1_score", 263.0),
        ("tcga", "Prostate: adenocarcinoma in 2 of 12 cores; pelvic lymph nodes 0/4.",
         "lymph_node_involvement", "2/16"),
    ],
)  # fmt: skip
def test_look_alikes_are_not_read(dataset, text, field, absent_value):
    assert extract(text, dataset).get(field) != absent_value


def test_a_margin_with_tumour_growth_is_discordant_with_one_without():
    reference = (
        "Lower lip, excision: squamous cell carcinoma, G2. Deep margin with tumour growth; "
        "mucosal margins without tumour growth."
    )
    rewrite = (
        "Excision of the lower lip: squamous cell carcinoma, G2. The deep margin is involved by "
        "tumour; the mucosal margins are free."
    )
    wrong = reference.replace("Deep margin with tumour growth", "Deep margin without tumour growth")
    assert score_pair(reference, rewrite, "tcga").CRQS > score_pair(reference, wrong, "tcga").CRQS
    assert "margin_status" in score_pair(reference, wrong, "tcga").discordant
