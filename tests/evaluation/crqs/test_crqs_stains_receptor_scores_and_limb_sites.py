"""Wordings of the 50th schema versions: special stains named for their organism, the Allred
score in brackets after a receptor's status (no node count), limb sub-sites with their side,
a carcinoma's type alone after a comma, and other phrasings that read differently from their
equivalents."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # A special stain named for its organism is that organism's test.
        (
            "histai",
            "Epithelioid granulomas. ZN and Grocott stains negative.",
            "organisms",
            "fungi negative + mycobacteria negative",
        ),
        (
            "histai",
            "Granulomas. Ziehl-Neelsen stain negative for acid-fast bacilli.",
            "organisms",
            "mycobacteria negative",
        ),
        ("histai", "Granulomas. ZN shows no AFB.", "organisms", "mycobacteria negative"),
        (
            "reg2025",
            "Lymph node, biopsy; Granulomatous inflammation. ZN stain: positive.",
            "organisms",
            "mycobacteria",
        ),
        # The Allred score out of 8 in brackets after the status.
        ("tcga", "ER negative (0/8), PR positive (5/8), HER2 negative.", "er_allred_score", 0.0),
        ("tcga", "ER negative (0/8), PR positive (5/8), HER2 negative.", "pr_allred_score", 5.0),
        # A limb's part keeps its side; a digit is its hand or foot, a calf its leg.
        (
            "tcga",
            "Soft tissue, left calf, wide resection: leiomyosarcoma.",
            "lateral_sites",
            "left leg",
        ),
        (
            "histai",
            "Soft tissue, left middle finger, excision: giant cell tumour.",
            "lateral_sites",
            "left hand",
        ),
        (
            "histai",
            "Excision of a nodule from the middle finger of the left hand.",
            "lateral_sites",
            "left hand",
        ),
        ("tcga", "Skin, right heel, excision: acral melanoma.", "lateral_sites", "right foot"),
        # A carcinoma's type alone between commas is its type.
        (
            "tcga",
            "Endometrial adenocarcinoma, endometrioid, FIGO grade 2.",
            "diagnosis",
            "endometrioid carcinoma",
        ),
        # The classic subtype before "infiltrating lobular".
        (
            "tcga",
            "Lumpectomy: classic infiltrating lobular carcinoma, grade 2.",
            "histologic_type",
            "lobular + classic",
        ),
        # French "ADK" is an adenocarcinoma.
        (
            "reg2025",
            "Gallbladder, cholecystectomy; Incidental ADK, well differentiated.",
            "diagnosis",
            "adenocarcinoma",
        ),
        # The deepest layer a carcinoma is confined to.
        (
            "reg2025",
            "Gallbladder, cholecystectomy; Adenocarcinoma confined to the lamina propria, pT1a.",
            "invasion_depth",
            "lamina propria",
        ),
        # Candida oesophagitis is the oesophagitis; its organism is read on its own.
        ("reg2025", "Esophagus, biopsy; Candida esophagitis", "diagnosis", "esophagitis"),
        (
            "reg2025",
            "Esophagus, biopsy; consistent with oesophageal candidiasis",
            "diagnosis",
            "esophagitis",
        ),
        # Duodenitis, and the duodenum's chronic inflammation in words.
        ("reg2025", "Duodenum, biopsy; Mild chronic duodenitis", "diagnosis", "duodenitis"),
        ("histai", "Duodenal biopsy: mild chronic duodenitis.", "diagnosis", "enteritis"),
        # Leprosy is named as the granulomas' cause; granulomatous dermatitis is granulomatous.
        (
            "reg2025",
            "Skin, punch biopsy; Granulomatous dermatitis, consistent with borderline"
            " tuberculoid leprosy",
            "diagnosis",
            "leprosy",
        ),
        (
            "reg2025",
            "Skin, punch biopsy; Granulomatous dermatitis",
            "diagnosis",
            "granulomatous inflammation",
        ),
        # "Favouring" is "favour".
        (
            "reg2025",
            "Lung, core biopsy; NSCLC, favouring adenocarcinoma",
            "histologic_type",
            "favor adenocarcinoma",
        ),
        # Lepra bacilli are mycobacteria.
        (
            "reg2025",
            "Skin, biopsy; Fite-Faraco stain negative for acid-fast lepra bacilli.",
            "organisms",
            "mycobacteria negative",
        ),
        # A lip is a site of the oral cavity.
        ("histai", "Excision of swelling from upper lip, 2 cm.", "tumor_site", "upper lip"),
        ("histai", "Excision of swelling from upper lip, 2 cm.", "organ_site", "oral cavity"),
        # A tumour regression "score" is its grade.
        (
            "tcga",
            "LAR: adenocarcinoma. Tumour regression score 2 (partial response).",
            "tumor_regression_grade",
            "trg 2",
        ),
        # A nasal polyp is a polyp; a sinonasal papilloma is an entity of its own.
        ("histai", "Diagnosis: inflammatory (allergic-type) nasal polyp.", "diagnosis", "polyp"),
        ("histai", "Diagnosis: sinonasal inverted papilloma.", "diagnosis", "sinonasal papilloma"),
        # A mole whose type is not stated; its denial leaves the products of conception.
        (
            "histai",
            "Products of conception; evidence of molar pregnancy.",
            "diagnosis",
            "hydatidiform mole",
        ),
        (
            "histai",
            "Products of conception; no evidence of molar pregnancy.",
            "diagnosis",
            "products of conception",
        ),
        # Benign bone and joint tumours.
        (
            "histai",
            "Right distal femur, giant cell tumour (osteoclastoma).",
            "diagnosis",
            "giant cell tumour of bone",
        ),
        (
            "histai",
            "Diagnosis: aneurysmal bone cyst, right distal femur.",
            "diagnosis",
            "aneurysmal bone cyst",
        ),
        (
            "histai",
            "Conclusion: tenosynovial giant cell tumour, localized type.",
            "diagnosis",
            "tenosynovial giant cell tumour",
        ),
        # A statement of absence of dysplasia and malignancy after "no evidence of".
        (
            "histai",
            "Nasal septum biopsy. No evidence of dysplasia or malignancy.",
            "diagnosis",
            "benign",
        ),
        # A structure's label with its tumour present.
        (
            "tcga",
            "Nephrectomy: clear cell RCC. Renal vein: tumour present.",
            "organ_involvement",
            "renal vein",
        ),
        # The detrusor invaded is an invasion of the bladder wall's muscle.
        (
            "tcga",
            "Cystectomy: urothelial carcinoma infiltrating the detrusor muscle.",
            "organ_specific_invasion",
            "present",
        ),
    ],
)
def test_wording_is_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # A synoptic heading in capitals, then a spaced dash: the element and its value.
        (
            "tcga",
            "TYPE - Adenocarcinoma\nLVI / PNI - Absent / absent",
            "lymphovascular_invasion",
            "absent",
        ),
        (
            "tcga",
            "TYPE - Adenocarcinoma\nLVI / PNI - Absent / absent",
            "perineural_invasion",
            "absent",
        ),
        # Each named margin's distance after the heading.
        ("tcga", "Melanoma. Margins: peripheral 9 mm, deep 6 mm.", "margin_distance", "0.6 + 0.9"),
        (
            "reg2025",
            "Colon; adenocarcinoma. Margins: not involved; distal 4.5 cm.",
            "margin_distance",
            4.5,
        ),
        # REG reads the depth of myometrial invasion, in either wording.
        (
            "reg2025",
            "Uterus, hysterectomy; Endometrioid carcinoma, G1, invading under half of"
            " myometrial thickness",
            "myometrial_invasion",
            "less than half",
        ),
        (
            "reg2025",
            "Uterus, hysterectomy; Endometrioid carcinoma, FIGO grade 1, myometrial"
            " invasion more than 50%",
            "myometrial_invasion",
            "half or more",
        ),
        # The detrusor alone is the muscularis propria.
        (
            "reg2025",
            "Urinary bladder, TURBT; Tumour invades detrusor (muscularis propria)",
            "invasion_depth",
            "muscularis propria",
        ),
        # The organ a metastasis is in, and both ovaries involved.
        (
            "tcga",
            "TAH BSO: serous carcinoma involving both ovaries. Metastatic carcinoma in the"
            " omentum, largest deposit 3 cm.",
            "organ_involvement",
            "ovary + omentum",
        ),
        # A granulomatous lymphadenitis is granulomatous; a reactive lymph node is reactive.
        (
            "histai",
            "Diagnosis: non-necrotising granulomatous lymphadenitis.",
            "diagnosis",
            "granulomatous inflammation",
        ),
        (
            "histai",
            "Diagnosis: reactive lymph node; no lymphoma.",
            "diagnosis",
            "reactive lymphoid hyperplasia",
        ),
        # The second part of the duodenum, without its article.
        ("reg2025", "Second part of duodenum, biopsies: normal villi.", "tumor_site", "duodenum"),
        # A silver stain that shows no fungi.
        (
            "histai",
            "Granulomas. Grocott methenamine silver stain shows no fungal organisms.",
            "organisms",
            "fungi negative",
        ),
    ],
)
def test_more_wordings_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # Nodes counted and negative for a melanoma.
        ("Two sentinel nodes negative for melanoma.", "lymph_node_involvement", "0/2"),
        # Genes listed before the result they share.
        ("Lung adenocarcinoma. EGFR and ALK negative.", "egfr_status", "wild type"),
        ("Lung adenocarcinoma. EGFR and ALK negative.", "alk_status", "negative"),
        ("Colon adenocarcinoma. KRAS, NRAS and BRAF wild-type.", "kras_status", "wild type"),
        ("Lung adenocarcinoma. EGFR/ALK/ROS1: negative", "egfr_status", "wild type"),
        # A fibrosis stage out of four, before its fibrosis.
        (
            "Background liver: chronic hepatitis C with stage 3 of 4 fibrosis.",
            "fibrosis_stage",
            "stage 3",
        ),
        # Carcinoma at a margin named with a slash; the other margins clear.
        (
            "Carcinoma is present at the uncinate/superior mesenteric artery margin; all remaining"
            " margins are clear.",
            "margin_status",
            "positive",
        ),
    ],
)
def test_tcga_wordings_are_read(text, field, value):
    assert extract(text, "tcga").get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # The basal-cell stains' result in words.
        (
            "reg2025",
            "Prostate, biopsy; IHC: p63 and HMWCK show absence of basal cells; AMACR positive.",
            "ihc_markers",
            "hmwck negative + p63 negative + amacr",
        ),
        (
            "histai",
            "Prostate core. IHC: p63 and HMWCK show retained basal cells.",
            "ihc_markers",
            "p63 + hmwck",
        ),
        # Nodes counted from their stations, without metastasis.
        (
            "tcga",
            "Eleven lymph nodes from stations 4R, 7, 10R and 11R without metastasis.",
            "lymph_node_involvement",
            "0/11",
        ),
        # An immunophenotype that supports a primary site.
        (
            "histai",
            "Metastatic adenocarcinoma; immunophenotype supports colorectal origin.",
            "primary_site",
            "colorectum",
        ),
        # The N category after a pT is pathologic, with every pN reading: tumour deposits (N1c),
        # micrometastases (N1mi), and the compact form with its M category.
        ("tcga", "Sigmoid adenocarcinoma. Stage pT3 N1c.", "tumor_deposits", "present"),
        ("tcga", "Breast carcinoma. Stage pT2 N1mi.", "nodal_metastasis_size", "micrometastasis"),
        ("tcga", "Colon adenocarcinoma, pT3N2aM1.", "pn_stage", "n2a"),
        ("tcga", "Colon adenocarcinoma, pT3N2aM1.", "pm_stage", "m1"),
    ],
)
def test_stains_nodes_and_stages_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


def test_a_fibrosis_stage_is_no_stage_group():
    found = extract("Chronic hepatitis C with stage 3 of 4 fibrosis (bridging).", "tcga")
    assert "stage_group" not in found


def test_nodes_none_of_which_contains_tumour_are_benign():
    text = "Right axillary dissection: none of the 14 nodes contains metastatic tumour."
    assert extract(text, "histai")["benign_vs_malignant"] == "benign"


def test_an_in_situ_carcinomas_grade_is_its_nuclear_grade():
    reference = "Breast, right, excision;\nDuctal carcinoma in situ, high grade, 18 mm"
    rewrite = "Right breast excision:\nHigh nuclear grade DCIS, 1.8 cm."
    assert score_pair(reference, rewrite, "reg2025").CRQS >= 0.99


def test_receptor_scores_in_brackets_are_no_node_count():
    text = "Sentinel lymph nodes 0/3. ER negative (0/8), PR negative (0/8), HER2 negative."
    found = extract(text, "tcga")
    assert found["lymph_node_involvement"] == "0/3"
    assert found["lymph_nodes_examined"] == "3"


@pytest.mark.parametrize("dataset", ["histai", "reg2025"])
def test_a_stain_only_done_or_followed_by_its_organism_finds_nothing_itself(dataset):
    assert "organisms" not in extract("Lymph node. ZN stain was performed.", dataset)
    assert "organisms" not in extract("Lymph node. ZN and GMS stains pending.", dataset)


def test_a_stain_result_flipped_is_caught():
    reference = (
        "Bronchial biopsies, right lower lobe. Non-necrotising epithelioid granulomas. ZN and"
        " Grocott stains negative. Conclusion: granulomatous inflammation."
    )
    rewrite = (
        "Right lower lobe bronchial biopsies: non-caseating epithelioid granulomas; no"
        " acid-fast bacilli on Ziehl-Neelsen and no fungi on Grocott. Granulomatous"
        " inflammation."
    )
    wrong = reference.replace(
        "ZN and Grocott stains negative", "ZN stain positive, Grocott negative"
    )
    assert (
        score_pair(reference, rewrite, "histai").CRQS > score_pair(reference, wrong, "histai").CRQS
    )
