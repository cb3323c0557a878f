"""Facts stated in synoptic lines, brackets and short headed lists read as in prose.

Each case is one fact a pathologist writes in a checklist line ("Margins: clear; closest is deep
at 4 mm", "IHC negative: S100, CD34") or a condensed phrase ("FIGO G1", "Nottingham 2"); the
extractor must read the value its prose wording gives, and must not read a value the line does
not state (a regression grade is not the tumour grade, a cervical wall is not a Breslow depth).
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract


@pytest.mark.parametrize(
    ("text", "dataset", "field", "value"),
    [
        # margins: distance named after the statement, and a margin reached by the tumour
        ("Margins: clear; closest is deep at 4 mm.", "tcga", "margin_distance", 0.4),
        ("Margins free; nearest medial, 1 mm.", "tcga", "margin_distance", 0.1),
        ("Margins: uninvolved; closest (deep) 5 mm.", "histai", "margin_distance", 0.5),
        ("Bronchial margin: uninvolved; distance 3.0 cm.", "tcga", "margin_distance", 3.0),
        ("The lesion reaches the endocervical margin.", "histai", "margin_status", "positive"),
        ("Endocervical margin involved; ectocervical margin free.", "reg2025", "margin_status",
         "involved"),
        ("Lesion completely excised.", "reg2025", "margin_status", "free"),
        # grades named without the word "grade", or beside another grade
        ("Grade: Nottingham 2 (tubules 3, pleomorphism 2, mitoses 1).", "tcga", "tumor_grade",
         "2"),
        ("Grade: moderately differentiated (Edmondson-Steiner II).", "histai", "tumor_grade",
         "2"),
        ("Clear cell RCC. WHO/ISUP nucleolar grade: 3.", "reg2025", "tumor_grade", "3"),
        ("Endometrioid adenocarcinoma, FIGO G1.", "tcga", "figo_grade", "1"),
        ("Tumour regression grade 2 (AJCC).", "tcga", "tumor_grade", None),
        ("Squamous dysplasia, low grade.", "histai", "dysplasia_grade", "low"),
        ("Squamous dysplasia, low grade.", "histai", "tumor_grade", None),
        ("Low-grade squamous dysplasia.", "reg2025", "dysplasia_grade", "low"),
        ("Adenocarcinoma, moderate to poorly differentiated.", "tcga", "differentiation",
         "moderate to poor"),
        # extent, stage and counts
        ("Myometrial invasion <50% (4 of 15 mm).", "tcga", "myometrial_invasion",
         "less than half"),
        ("Tumour invading the muscularis propria.", "tcga", "organ_specific_invasion",
         "present"),
        ("Tumour not invading the myometrium.", "tcga", "organ_specific_invasion", "absent"),
        ("Invading 9 mm of a 14 mm thick cervical wall.", "tcga", "breslow_thickness", None),
        ("Staged as pT2 pN1 with a FIGO stage of IIIc.", "tcga", "figo_stage", "iiic"),
        ("Rectum, anterior resection; adenocarcinoma (pT3 pN0).", "reg2025", "pt_stage", "pt3"),
        ("Intraparotid lymph nodes: negative (0 of 3).", "tcga", "lymph_node_involvement",
         "0/3"),
        ("Three sentinel nodes negative.", "tcga", "lymph_node_involvement", "0/3"),
        ("Lymph nodes: nil of 15 involved.", "tcga", "lymph_node_involvement", "0/15"),
        ("Metastasis in 1 of 3 nodes; the remaining two nodes are negative.", "histai",
         "lymph_node_involvement", "1/3"),
        # lists that share a head noun or a result
        ("No visceral pleural or lymphovascular invasion.", "tcga", "pleural_invasion",
         "absent"),
        ("IHC negative: S100, CD34, KIT.", "tcga", "ihc_markers",
         "cd117 negative + cd34 negative + s100 negative"),
        ("Positive for mutated isocitrate dehydrogenase 1 (IDH1).", "tcga", "idh_status",
         "mutant"),
        ("PD-L1 clone 22C3: TPS 60%.", "tcga", "pdl1_score", 60.0),
        # sites, subtypes and abbreviations
        ("Larynx, left false vocal fold, biopsy.", "tcga", "tumor_site", "supraglottis"),
        ("Oral cavity, floor of mouth, biopsy.", "histai", "tumor_site", "floor of mouth"),
        ("Basal cell carcinoma, nodular subtype.", "tcga", "histologic_type", "nodular"),
        ("Left hemithyroidectomy: papillary carcinoma.", "tcga", "lateral_sites", "left lobe"),
        ("Whipple: PDAC, 3.2 cm.", "tcga", "diagnosis", "adenocarcinoma"),
        ("Uncinate (SMA) margin negative.", "tcga", "ihc_markers", None),
        ("Tumour cells negative for SMA.", "tcga", "ihc_markers",
         "smooth muscle actin negative"),
        ("Clear cell RCC; renal cortical and medullary parenchyma unremarkable.", "tcga",
         "histologic_type", "clear cell"),
        ("Endometrial curettings: endometrioid carcinoma.", "reg2025", "organ_site", "uterus"),
        ("Fibrosis: stage F3, bridging.", "histai", "fibrosis_stage", "stage 3"),
        ("Bridging fibrosis (Kleiner F3); stage 3 fibrosis.", "histai", "fibrosis_stage",
         "kleiner stage 3"),
        ("Carcinoma, 26 mm in greatest horizontal dimension.", "tcga", "tumor_size", 2.6),
        ("Skin ellipse. Diameter 9 mm; thickness 4 mm.", "histai", "tumor_size", 0.9),
    ],
)  # fmt: skip
def test_values_read_from_synoptic_and_condensed_wording(text, dataset, field, value):
    assert extract(text, dataset).get(field) == value


def test_a_fibrosis_stage_without_its_system_is_that_stage_less_precisely():
    from pathreport.evaluation.crqs import score_pair

    reference = "Steatohepatitis. Bridging fibrosis, Kleiner F3."
    assert score_pair(reference, "Steatohepatitis, fibrosis stage 3.", "histai").CRQS == 1.0
    assert score_pair(reference, "Steatohepatitis, Ishak stage 3.", "histai").CRQS < 0.9
