"""Laboratory records, UICC codes and differentials set aside.

A laboratory system's export ("SITE=RECTUM | LVI=N | LN=0/14") states the same facts as the
report it stands for. The UICC perineural code "Pn1" is not the nodal stage "pN1", though the two
differ only in case. A differential diagnosis that the report excludes ("which excludes
melanoma", "lymphoma is not supported") is no diagnosis of the case, and a list of stains after
a comma that are "retained" is no list of lost ones.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair
from pathreport.evaluation.crqs.text import normalise

_RECORD = (
    "SITE=RECTUM | PROC=ANTERIOR RESECTION | DX: ADENOCARCINOMA | GRADE=G2 | LVI=N | PNI=Y | "
    "MARG=NEG (4 MM, CIRCUMFERENTIAL) | LN=0/14 | pTNM=pT3 pN0"
)
_PROSE = (
    "Rectum, anterior resection: adenocarcinoma, moderately differentiated (G2). No "
    "lymphovascular invasion; perineural invasion present. Margins negative, circumferential "
    "margin 4 mm. Lymph nodes 0/14. pT3 pN0."
)


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # Key-value records.
        ("tcga", _RECORD, "lymphovascular_invasion", "absent"),
        ("tcga", _RECORD, "perineural_invasion", "present"),
        ("tcga", _RECORD, "margin_status", "negative"),
        ("tcga", _RECORD, "margin_distance", 0.4),
        ("tcga", _RECORD, "lymph_node_involvement", "0/14"),
        ("tcga", "SITE=BREAST; LAT=L; PROC=LUMPECTOMY; DX: INVASIVE LOBULAR CARCINOMA; ER=POS; "
         "PR=NEG", "laterality", "left"),
        ("tcga", "SITE=BREAST; LAT=L; PROC=LUMPECTOMY; DX: INVASIVE LOBULAR CARCINOMA; ER=POS; "
         "PR=NEG", "pr_status", "negative"),
        ("histai", "SITE=STOMACH, BODY | PROC=BIOPSY | DX: CHRONIC GASTRITIS | HP=N | IM=Y",
         "intestinal_metaplasia", "present"),
        ("histai", "SITE=STOMACH, BODY | PROC=BIOPSY | DX: CHRONIC GASTRITIS | HP=N | IM=Y",
         "hpylori_status", "absent"),
        # The UICC perineural code beside the L and V codes.
        ("tcga", "Stomach: adenocarcinoma. pT3 pN0 (0/22) L0 V0 Pn1 R0.", "perineural_invasion",
         "present"),
        ("tcga", "Stomach: adenocarcinoma. pT3 pN0 (0/22) L0 V0 Pn1 R0.", "pn_stage", "n0"),
        ("tcga", "Tonsil: squamous cell carcinoma. pT1 pN1 (1/20) L1 V0 Pn0 R0.",
         "perineural_invasion", "absent"),
        # Microscopic and gross vessel invasion are vascular invasion.
        ("tcga", "Liver, segmentectomy: hepatocellular carcinoma, 3 cm; microvascular invasion "
         "identified.", "lymphovascular_invasion", "present"),
        # "S2, L1, B2" is a steatohepatitis score, not a liver segment and lymphatic invasion.
        ("histai", "Liver biopsy: steatohepatitis, NAS 4 (S2, L1, B1).", "lymphovascular_invasion",
         None),
        ("histai", "Liver biopsy: steatohepatitis, NAS 4 (S2, L1, B1).", "tumor_site", None),
        # Margin distance after a status with its object, or after "(R0)".
        ("tcga", "Cervix, radical hysterectomy: squamous cell carcinoma.\nVaginal margin: "
         "uninvolved by carcinoma; distance 12 mm", "margin_distance", 1.2),
        ("tcga", "Pancreas, Whipple: adenocarcinoma. Retroperitoneal margin tumour-free (R0), "
         "minimal distance 3 mm.", "margin_distance", 0.3),
        # Counts.
        ("tcga", "Stomach, gastrectomy: adenocarcinoma. Lymph node metastases: 3 of 27.",
         "lymph_node_involvement", "3/27"),
        ("tcga", "Vulva, excision: squamous cell carcinoma. Sentinel nodes: 2 examined, both "
         "negative.", "lymph_node_involvement", "0/2"),
        # Differentials set aside.
        ("histai", "Skin, shave: symmetric compound naevus without atypia, which excludes "
         "melanoma.", "diagnosis", "nevus"),
        ("histai", "Lymph node: reactive follicular hyperplasia. Follicular lymphoma is not "
         "supported.", "diagnosis", "reactive lymphoid hyperplasia"),
        ("reg2025", "Stomach, wedge resection;\n  Gastrointestinal stromal tumour\n  Note) DOG1 "
         "positive, desmin negative, excluding leiomyoma.", "diagnosis",
         "gastrointestinal stromal tumor"),
        ("histai", "Breast: DCIS, high grade; myoepithelial stains exclude microinvasion.",
         "invasion_status", "absent"),
        # Mismatch-repair proteins: the list after the comma is retained.
        ("tcga", "Colon: adenocarcinoma. MMR: loss of MSH2 and MSH6, MLH1 and PMS2 retained.",
         "mmr_proteins_lost", "msh2 + msh6"),
        ("tcga", "Colon: adenocarcinoma. MMR: loss of MLH1, PMS2 and MSH6.",
         "mmr_proteins_lost", "mlh1 + msh6 + pms2"),
        # Dysplasia graded with the WHO word in brackets.
        ("reg2025", "Larynx, biopsy;\n  High-grade (severe) squamous dysplasia", "dysplasia_grade",
         "high"),
        ("reg2025", "Larynx, biopsy;\n  High-grade (severe) squamous dysplasia", "tumor_grade",
         None),
        ("histai", "Tongue: low-grade (mild) oral epithelial dysplasia.", "dysplasia_grade", "low"),
        # Background liver, lymphoma cell of origin and nodal stations.
        ("tcga", "Liver, hepatectomy: hepatocellular carcinoma. Non-neoplastic liver: "
         "cirrhosis.", "cirrhosis", "present"),
        ("reg2025", "Liver, segment 6, biopsy;\n  Hepatocellular carcinoma\n  Note) The "
         "surrounding liver is cirrhotic.", "cirrhosis", "present"),
        ("histai", "Liver biopsy: steatohepatitis without cirrhosis.", "cirrhosis", "absent"),
        ("histai", "Neck node: diffuse large B-cell lymphoma, non-germinal centre B-cell type.",
         "cell_of_origin", "non-gcb"),
        ("reg2025", "Lymph node, axilla, biopsy;\n  Diffuse large B-cell lymphoma, GCB type",
         "cell_of_origin", "gcb"),
        ("histai", "Lymph nodes, EBUS: stations 4L and 10R negative; station 7 with metastatic "
         "adenocarcinoma.", "lymph_node_stations", "10r + 4l + 7"),
        # Depth of invasion in mm, and of submucosal invasion in micrometres.
        ("tcga", "Tongue, partial glossectomy: squamous cell carcinoma, DOI 7 mm.",
         "depth_of_invasion", 7.0),
        ("tcga", "Endometrium: endometrioid carcinoma. Myometrial invasion: 5 of 16 mm.",
         "depth_of_invasion", 5.0),
        ("tcga", "Cervix: squamous cell carcinoma invading 4 mm into a 12 mm thick wall.",
         "depth_of_invasion", 4.0),
        ("reg2025", "Colon, polypectomy;\n  Adenocarcinoma in adenoma, depth of submucosal "
         "invasion 1200 μm", "depth_of_invasion", 1.2),
        # Mucosal counts.
        ("histai", "Oesophagus, biopsies: eosinophilic oesophagitis, peak 38 eosinophils/HPF.",
         "eosinophils_per_hpf", 38.0),
        ("histai", "Duodenum: villous atrophy; intraepithelial lymphocytes 40 per 100 "
         "enterocytes.", "intraepithelial_lymphocytes", 40.0),
        # The REG schema reads what the TCGA one defines for FIGO stage and MGMT.
        ("reg2025", "Uterus, hysterectomy;\n  Endometrioid carcinoma, FIGO grade 2\n  FIGO "
         "stage IB", "figo_stage", "ib"),
        ("reg2025", "Brain, biopsy;\n  Glioblastoma, IDH-wildtype\n  Note) MGMT promoter "
         "unmethylated.", "mgmt_status", "unmethylated"),
        # A finding after "with" is stated present, against a negation elsewhere.
        ("tcga", "Bladder, cystectomy: invasive urothelial carcinoma with associated urothelial "
         "carcinoma in situ. Urethral margin free of invasive and in situ carcinoma.",
         "carcinoma_in_situ", "present"),
        # Counts, grades and criteria in other words.
        ("tcga", "Axillary sentinel nodes: four nodes, two containing metastatic carcinoma.",
         "lymph_node_involvement", "2/4"),
        ("histai", "Breast core: invasive carcinoma NST, Nottingham grade 2 (2+3+1).",
         "nottingham_components", "mitoses 1 + pleomorphism 3 + tubules 2"),
        ("tcga", "Rectum: adenocarcinoma, G2. Mesorectum complete, mesorectal plane (grade 1).",
         "tumor_grade", "2"),
        ("histai", "Tongue: squamous dysplasia (low grade).", "tumor_grade", None),
        ("histai", "Uterus: leiomyoma with no more than mild nuclear atypia.", "epithelial_atypia",
         "present"),
        ("histai", "Dura: meningioma, WHO grade 1. Criteria for atypical meningioma are not met.",
         "diagnosis", "meningioma"),
        ("histai", "Dura: meningioma, WHO grade 1; does not meet criteria for atypical "
         "meningioma.", "excluded_entities", "atypical meningioma"),
        # Other wording.
        ("histai", "Endometrium: non-atypical endometrial hyperplasia.", "diagnosis",
         "endometrial hyperplasia"),
        ("histai", "Endometrium: non-atypical endometrial hyperplasia.", "excluded_entities", None),
        ("histai", "Endometrium: endometrioid carcinoma; serous and clear cell features absent.",
         "histologic_type", "endometrioid"),
        ("reg2025", "Stomach, body, biopsy;\n  Chronic active H. pylori-associated gastritis",
         "inflammation_activity", "chronic active"),
        ("tcga", "Rectum: adenocarcinoma (G3). Mesorectal excision: MERCURY grade 1.",
         "tumor_grade", "3"),
    ],
)  # fmt: skip
def test_field_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


def test_a_record_and_its_prose_state_the_same_facts():
    """The record and the report it stands for score as one report."""
    assert score_pair(_PROSE, _RECORD, "tcga").CRQS > 0.9
    flipped = _RECORD.replace("LVI=N", "LVI=Y")
    assert score_pair(_PROSE, flipped, "tcga").CRQS < score_pair(_PROSE, _RECORD, "tcga").CRQS


@pytest.mark.parametrize(
    "text",
    [
        "Gleason score 3+4=7, grade group 2.",  # one "=" is no record
        "Margins: clear; closest = deep, 2 mm.",
    ],
)
def test_equals_signs_outside_records_stay(text):
    """A lone "=" in a Gleason score or a margin is no key-value record."""
    assert "\n" not in normalise(text)


def test_perineural_code_needs_its_case():
    """Only the mixed-case "Pn1" is the perineural code; "pN1" and "PN1" stay nodal stages."""
    assert extract("Colon: adenocarcinoma. pT3 pN1 (2/15).", "tcga").get("pn_stage") == "n1"
    assert "perineural" not in normalise("pT3 PN1")


def test_a_grade_stated_as_nuclear_grade_is_the_same_fact():
    """REG: "intermediate nuclear grade (G2)" against "nuclear grade 2" loses nothing."""
    ref = "Breast, core biopsy;\n  Ductal carcinoma in situ, intermediate nuclear grade (G2)"
    rewrite = "Breast, core biopsy;\n  DCIS, nuclear grade 2"
    assert score_pair(ref, rewrite, "reg2025").CRQS > 0.99
