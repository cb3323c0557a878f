"""Latin diagnoses, node counts per side and per group, and signs that close a list.

Central European reports name the diagnosis in Latin ("Carcinoma planoepitheliale keratodes").
Node counts come per side with their qualifiers ("right 2/30 positive with extranodal extension
(largest 15 mm); left 0/22"), with some groups repeated in brackets ("1/19 (paratracheal 1/4)"),
as "L.N.s", and in Nordic templates as "Lymph node metastasis in 0/14". A sign in brackets closes
a list ("capsular and vascular invasion (-)"); a clinician's question ("?TB") states nothing;
a mesorectum's Quirke grade is no tumour grade.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # Latin diagnoses.
        ("reg2025", "Uterus, hysterectomy;\nAdenocarcinoma endometrioides endometrii, G2.",
         "diagnosis", "endometrioid carcinoma"),
        ("histai", "Conclusion: Carcinoma planoepitheliale keratodes, G2.", "histologic_type",
         "keratinizing"),
        ("tcga", "Nephrectomy: carcinoma renis clarocellulare, WHO/ISUP grade 2.",
         "histologic_type", "clear cell"),
        ("histai", "Gastric polyp: polypus hyperplasticus.", "polyp_type", "hyperplastic polyp"),
        ("reg2025", "Stomach, biopsy;\nGastritis chronica activa. H. pylori present.",
         "inflammation_activity", "chronic active"),
        ("histai", "Oral mucosa: dysplasia epithelialis moderata.", "dysplasia_grade",
         "moderate"),
        # Node counts per side, per group, abbreviated, and as "metastasis in 0/n".
        ("tcga", "Lymph nodes: right 2/30 positive with extranodal extension (largest 15 mm); "
         "left 0/22.", "lymph_node_involvement", "2/52"),
        ("tcga", "Neck L.N.s: left 1/12 (deposit 4 mm, no extranodal extension), right 0/15.",
         "lymph_node_involvement", "1/27"),
        ("tcga", "Axillary L.N.s 0/16. pT1c pN0.", "lymph_node_involvement", "0/16"),
        ("tcga", "Lymph nodes: 1/19 (paratracheal 1/4). pT2 pN1.", "lymph_node_involvement",
         "1/19"),
        ("tcga", "Lymph node metastasis in 0/14.", "lymph_node_involvement", "0/14"),
        ("tcga", "Lymph node metastasis in 0/14.", "metastatic_involvement", "absent"),
        ("histai", "Sentinel nodes: ITC in one of three nodes, pN0(i+).",
         "lymph_node_involvement", "0/3"),
        # A sign in brackets after a list; a question that states nothing.
        ("histai", "Adrenal nodule: nests of clear cells; capsular and vascular invasion (-).",
         "capsular_invasion", "absent"),
        ("histai", "Clinical details: ?Kaposi sarcoma. Diagnosis: plasmablastic lymphoma.",
         "diagnosis", "lymphoma"),
        # Other wordings.
        ("tcga", "Anterior resection: adenocarcinoma, G2. Mesorectal excision complete (grade 3, "
         "Quirke).", "tumor_grade", "2"),
        ("tcga", "Thyroid: papillary carcinoma. BRAF p.V600E mutated.", "braf_status", "mutant"),
        ("tcga", "Thyroid: papillary carcinoma. BRAF V600E (VE1) immunohistochemistry positive.",
         "braf_status", "mutant"),
        ("tcga", "Hepatectomy: HCC. Microvascular invasion (MVI): (-).",
         "lymphovascular_invasion", "absent"),
        ("tcga", "Nephrectomy: clear cell RCC with invasion into perinephric fat. No renal vein "
         "involvement.", "organ_specific_invasion", "present"),
        ("tcga", "Orchiectomy: seminoma with invasion into the tunica albuginea without "
         "involvement of the tunica vaginalis.", "organ_specific_invasion", "present"),
        ("tcga", "Glioma. IHC: IDH1 R132H (+), ATRX (loss).", "ihc_markers", "atrx negative"),
        ("reg2025", "Skin, back, shave;\nBasal cell carcinoma, present at the deep edge of the "
         "specimen.", "margin_status", "involved"),
        ("reg2025", "Parotid, excision;\nPleomorphic adenoma. Free surgical margins.",
         "margin_status", "free"),
        ("histai", "Oesophagus, biopsy: Barrett mucosa. Dysplasia: low grade.",
         "dysplasia_grade", "low"),
        ("histai", "Macro: gall bladder, 70 mm. Conclusion: chronic cholecystitis.",
         "organ_site", "gallbladder"),
        ("histai", "Liver core: steatohepatitis with bridging fibrosis, stage 3/4.",
         "fibrosis_stage", "stage 3"),
        ("tcga", "Colon: adenocarcinoma invading through muscularis propria into pericolorectal "
         "tissue.", "invasion_depth", "perivisceral fat"),
    ],
)  # fmt: skip
def test_wordings_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "absent_value"),
    [
        ("tcga", "Cystectomy: urothelial carcinoma. Carcinoma in situ not identified at margins.",
         "margin_status", "positive"),
        ("reg2025", "Skin of the left temporal region, excision;\nBasal cell carcinoma.",
         "tumor_site", "temporal lobe"),
        ("tcga", "Pancreaticoduodenectomy: PDAC. SMA (retroperitoneal) margin clear.",
         "ihc_markers", "smooth muscle actin"),
        # A count of some groups in brackets is part of the total, not more nodes.
        ("tcga", "Lymph nodes: 2/18 (subcarinal 1/3).", "lymph_node_involvement", "3/21"),
        # "Metastases in 0 of 13 lymph nodes" keeps its count; no second reading.
        ("tcga", "Metastases in 0 of 13 lymph nodes; tumour deposits: 2. ypN1c.",
         "lymph_node_involvement", "present"),
        ("tcga", "Margins without involvement of tumour.", "margin_status", None),
    ],
)  # fmt: skip
def test_look_alikes_are_not_read(dataset, text, field, absent_value):
    assert extract(text, dataset).get(field) != absent_value


def test_a_right_sided_count_change_is_seen_when_both_sides_are_listed():
    reference = (
        "Total laryngectomy with bilateral neck dissection: squamous cell carcinoma, 40 mm. "
        "Lymph nodes: right 1/24 positive with extranodal extension (largest 20 mm); left 0/19. "
        "pT4a pN3b."
    )
    rewrite = (
        "Laryngectomy and neck dissections: SCC, 4.0 cm. Left neck: nineteen nodes, all "
        "negative. Right neck: 1 of 24 nodes involved, with ENE, largest 2.0 cm. pT4a N3b."
    )
    wrong = reference.replace("left 0/19", "left 2/19")
    assert score_pair(reference, rewrite, "tcga").CRQS > score_pair(reference, wrong, "tcga").CRQS
