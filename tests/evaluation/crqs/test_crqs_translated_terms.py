"""The terms of reports translated from Chinese and French, and more of a laboratory record.

A Chinese report translated into English calls lymphovascular invasion a "cancer thrombus in
vessels", perineural invasion "nerve invasion" and a margin a "cutting edge"; a French one calls
lymph nodes "ganglia", vascular invasion "emboli" and perineural invasion "perineural sheathing",
and a healthy limit is a free margin. A laboratory record names margins inside its margin field
("MARG: ecto=NEG, endo=POS") and abbreviates its keys ("CAPS INV=N"). Each states the same fact
as the plain English report, so each must be read as that fact.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # Chinese terms.
        ("tcga", "Rectal adenocarcinoma, ESD; vascular cancer thrombus (-), nerve invasion (+).",
         "lymphovascular_invasion", "absent"),
        ("tcga", "Rectal adenocarcinoma, ESD; vascular cancer thrombus (-), nerve invasion (+).",
         "perineural_invasion", "present"),
        ("tcga", "Gastric carcinoma; cancer thrombus in vessels seen; nerve invasion not seen.",
         "lymphovascular_invasion", "present"),
        ("tcga", "Gastric carcinoma; cancer thrombus in vessels seen; nerve invasion not seen.",
         "perineural_invasion", "absent"),
        ("tcga", "Lobectomy: adenocarcinoma; bronchial cutting edge: no cancer involvement.",
         "margin_status", "negative"),
        ("histai", "LEEP cone: HSIL (CIN 3); endocervical cutting edge: HSIL involvement; "
         "ectocervical cutting edge: no lesion involvement.", "margin_status", "positive"),
        ("tcga", "Colectomy: adenocarcinoma; no cancer involvement at the proximal and distal "
         "cutting edges.", "margin_status", "negative"),
        ("reg2025", "Stomach, antrum, ESD;\n  Intramucosal adenocarcinoma; lateral cutting edge "
         "(+), vertical cutting edge (-)", "margin_status", "involved"),
        ("reg2025", "Skin, left forearm, excision;\n  Squamous cell carcinoma, no cancer "
         "involvement at the cutting edges", "margin_status", "free"),
        ("reg2025", "Thyroid, right lobectomy;\n  Papillary thyroid microcarcinoma, classic type.",
         "diagnosis", "papillary thyroid carcinoma"),
        # French terms.
        ("tcga", "Sigmoidectomy: adenocarcinoma. Ganglia: 3/16 invaded.",
         "lymph_node_involvement", "3/16"),
        ("tcga", "Hemicolectomy: adenocarcinoma. 0/18 invaded ganglia.",
         "metastatic_involvement", "absent"),
        ("tcga", "Gastrectomy: adenocarcinoma. No vascular or lymphatic emboli, no perineural "
         "sheathing.", "lymphovascular_invasion", "absent"),
        ("tcga", "Gastrectomy: adenocarcinoma. No vascular or lymphatic emboli, no perineural "
         "sheathing.", "perineural_invasion", "absent"),
        ("tcga", "Colectomy: adenocarcinoma. Lymphatic emboli present.",
         "lymphovascular_invasion", "present"),
        ("tcga", "Colectomy: carcinoma. Healthy surgical limits.", "margin_status", "negative"),
        ("tcga", "Glossectomy: squamous cell carcinoma. Healthy limits, the deep one at 4 mm.",
         "margin_status", "negative"),
        ("tcga", "Orchiectomy: seminoma. Spermatic cord limit healthy.", "margin_status",
         "negative"),
        ("tcga", "Tumorectomy: lobular carcinoma. RE 95 %, RP 40 %, HER2 score 0.", "er_status",
         "positive"),
        ("tcga", "Tumorectomy: lobular carcinoma. RE 95 %, RP 40 %, HER2 score 0.", "pr_status",
         "positive"),
        # A laboratory record.
        ("reg2025", "SITE=Kidney, R, lower pole mass | PROC=Core bx;\n DX: Clear cell renal cell "
         "carcinoma | NECROSIS=N", "laterality", "right"),
        ("histai", "SITE=Cervix | PROC=LEEP cone;\n DX: HSIL (CIN 3) | MARG: ectocervical=NEG, "
         "endocervical=POS (HSIL), deep=NEG | INVASION=N", "margin_status", "positive"),
        ("tcga", "SPEC=Thyroid, L lobe | DX: Follicular carcinoma | CAPS INV=Y | VASC INV=N",
         "capsular_invasion", "present"),
        ("tcga", "SPEC=Thyroid, L lobe | DX: Follicular carcinoma | CAPS INV=Y | VASC INV=N",
         "lymphovascular_invasion", "absent"),
        ("tcga", "SPEC=Breast, L | DX: Invasive carcinoma NST | SLN=1/2 (macromet 4 mm, ENE=N)",
         "extranodal_extension", "absent"),
        ("tcga", "SPEC=Stomach | MARG: prox POS (tumour at ink), dist NEG | LN=2/20",
         "margin_status", "positive"),
        ("tcga", "SPEC=Breast, R | DX: DCIS, intermediate grade | CALC=Y | MARG=NEG",
         "calcification", "present"),
        ("histai", "SITE=Endometrium | DX: Endometrioid carcinoma\nIHC: MLH1=LOSS | PMS2=LOSS | "
         "MSH2=RETAINED | MSH6=RETAINED", "mmr_proteins_lost", "mlh1 + pms2"),
        ("histai", "DX: SCC | PNI=N | LVI=N | MARG: lat NEG (3 mm), deep NEG (1.5 mm)",
         "margin_status", "negative"),
        # Counts with a qualifier or an area of their own.
        ("histai", "Prostatic adenocarcinoma on 4/12 systematic cores (left side).",
         "tumor_extent", "4/12"),
        ("histai", "GIST, spindle cell type. Mitoses: 3 per 5 mm\u00b2.", "mitotic_rate", 3.0),
        ("histai", "Chronic cholecystitis. Cystic duct limit healthy.", "margin_status",
         "negative"),
        # Nodal groups and stations with their counts.
        ("tcga", "Gastrectomy: lymph nodes: (group 3) 2/8, (group 6) 1/4, (groups 4, 5, 7, 8, 9) "
         "0/13. pT3N2.", "lymph_node_involvement", "3/25"),
        ("tcga", "Lymph nodes: 3/25 positive (station 3, 2/8; station 6, 1/4; stations 4, 5, 7, 8 "
         "and 9, 0/13).", "lymph_node_stations", "3 + 4 + 5 + 6 + 7 + 8 + 9"),
        # Entities worded the other way round.
        ("reg2025", "Endometrium, curettage;\n  Endometrial hyperplasia with atypia.", "diagnosis",
         "atypical hyperplasia"),
        ("reg2025", "Endometrium, curettage;\n  Endometrial hyperplasia without atypia.",
         "diagnosis", "endometrial hyperplasia"),
        ("histai", "Bladder, posterior wall: carcinoma in situ of the urothelium.", "diagnosis",
         "urothelial carcinoma in situ"),
        # A test's own result after a negated list of other tests.
        ("histai", "Prostate core: small acini lacking basal cells (p63 negative) and AMACR "
         "positive.", "ihc_markers", "p63 negative + amacr"),
        ("histai", "Small acini; absence of p63 and CK5/6 staining and AMACR positivity.",
         "ihc_markers", "ck5/6 negative + p63 negative + amacr"),
        # A synoptic Gleason grade stated as its parts is one score.
        ("tcga", "Synoptic data:\n  - Primary Gleason grade: 3\n  - Secondary Gleason grade: 4\n"
         "  - Gleason sum score: 7\n  - Gleason 4/5 percentage: 40%", "gleason_score", "3+4=7"),
        ("tcga", "Prostatectomy: adenocarcinoma with a primary Gleason grade of 4 and a secondary "
         "Gleason grade of 3.", "gleason_score", "4+3=7"),
        # A body site that only skin specimens come from names the skin.
        ("reg2025", "Upper back, wide excision: superficial spreading melanoma, 1.4 mm thick.",
         "organ_site", "skin"),
        # A specimen's measurements are not the tumour's size.
        ("histai", "Specimen: gallbladder, laparoscopic cholecystectomy, 8x3.5x3 cm, with stones.\n"
         "Diagnosis: adenocarcinoma, 1.5x1.2 cm, invading the perimuscular tissue.", "tumor_size",
         1.5),
        ("histai", "Specimen: skin ellipse, right temple, 32 x 18 mm.\nDiagnosis: squamous cell "
         "carcinoma, tumour diameter 12 mm.", "tumor_size", 1.2),
        ("histai", "Specimen: transverse colon polyp, endoscopic polypectomy, 0.8x0.6x0.5 cm.",
         "tumor_size", 0.8),
        ("tcga", "Surgical specimen: total gastrectomy, neoplasia of the antrum, 5 x 4 x 1 cm, "
         "infiltrating the subserosa.", "tumor_size", 5.0),
        ("histai", "Material: rectum, 8 cm from anal verge, endoscopic mucosal resection, "
         "2.6 x 2.1 x 0.5 cm.\nConclusion: neuroendocrine tumour, G1, 0.8 cm, confined to the "
         "submucosa.",
         "tumor_size", 0.8),
        # Procedures: "TAH-BSO" names both.
        ("tcga", "TAH-BSO: endometrioid adenocarcinoma, grade 1.", "specimen_type",
         "hysterectomy + oophorectomy"),
        ("reg2025", "Appendix, appendicectomy;\n  Acute suppurative appendicitis; negative for "
         "neoplasm.", "findings", "appendicitis"),
        # Neck dissections are their side's nodes.
        ("tcga", "Partial glossectomy with left neck dissection: squamous cell carcinoma.",
         "lateral_sites", "left node"),
    ],
)  # fmt: skip
def test_translated_and_recorded_facts_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "absent_value"),
    [
        # A tumour in a named nerve or a thrombus-free embolus of another kind is no invasion.
        ("tcga", "Retinoblastoma; optic nerve invasion beyond the lamina cribrosa.",
         "perineural_invasion", "present"),
        ("tcga", "Lung: fat emboli in small pulmonary arteries; no tumour.",
         "lymphovascular_invasion", "present"),
        # Inflammatory cells infiltrating mucosa are no invasion by a tumour.
        ("histai", "Gastric antral mucosa with moderate chronic inflammatory cell infiltration; "
         "chronic gastritis.", "invasion_status", "present"),
        # Isolated tumour cells make no node positive (pN0(i+)).
        ("tcga", "Sentinel lymph nodes: isolated tumour cells in 1/3. pN0(i+)(sn).",
         "lymph_node_involvement", "1/3"),
    ],
)  # fmt: skip
def test_look_alikes_are_not_read_as_the_finding(dataset, text, field, absent_value):
    assert extract(text, dataset).get(field) != absent_value


def test_a_flipped_thrombus_status_costs_more_than_its_plain_english_rewording():
    reference = (
        "(Stomach) distal gastrectomy: adenocarcinoma, moderately differentiated; cancer thrombus "
        "in vessels (+), nerve invasion (-); no cancer involvement at the proximal and distal "
        "cutting edges; lymph nodes: metastasis (2/14)."
    )
    rewrite = (
        "Distal gastrectomy: moderately differentiated adenocarcinoma. Lymphovascular invasion "
        "present; no perineural invasion. Proximal and distal margins free. 2 of 14 lymph nodes "
        "positive."
    )
    wrong = reference.replace("cancer thrombus in vessels (+)", "cancer thrombus in vessels (-)")
    assert score_pair(reference, rewrite, "tcga").CRQS > score_pair(reference, wrong, "tcga").CRQS
