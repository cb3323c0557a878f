"""Wordings of the 47th schema versions: the layer reached through the wall, invasion stated as a
noun, the melanoma's depth in Breslow's name, sizes in inches, and other phrasings that read
differently from their equivalents."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # The layer reached after the one crossed, named with its fat.
        (
            "histai",
            "Adenocarcinoma infiltrating through the muscularis propria into the subserosal "
            "pericolic fat.",
            "invasion_depth",
            "subserosa",
        ),
        (
            "tcga",
            "Adenocarcinoma infiltrating through the muscularis propria into the subserosal fat.",
            "invasion_depth",
            "subserosa",
        ),
        # Invasion stated as a noun makes the carcinoma invasive beside its in-situ component.
        (
            "histai",
            "High-grade papillary urothelial carcinoma with lamina propria invasion. Flat "
            "carcinoma in situ in adjacent mucosa.",
            "in_situ_vs_invasive",
            "invasive",
        ),
        # "Invades veins" is vascular invasion.
        (
            "tcga",
            "Tumour breaches the capsule and invades veins.",
            "lymphovascular_invasion",
            "present",
        ),
        # A bracketed qualifier inside the finding's name.
        (
            "tcga",
            "Vascular invasion: microvascular (small vessel) invasion present; no major vessel "
            "invasion.",
            "lymphovascular_invasion",
            "present",
        ),
        # The depth of a melanoma named Breslow's is its thickness.
        (
            "reg2025",
            "Superficial spreading melanoma, invasive to a depth of 1.6 mm (Breslow), Clark IV.",
            "breslow_thickness",
            1.6,
        ),
        # An American size in inches with its metric size in brackets.
        ("tcga", "Tumor size: 1.5 in (3.9 cm)", "tumor_size", 3.9),
        # The initials of adrenocortical carcinoma name the tumour on the specimen's line.
        ("tcga", "L adrenalectomy: ACC, 11 cm, 260 g; Weiss 8.", "tumor_size", 11.0),
        # Margins transected at the base or at an edge.
        ("histai", "Infiltrative BCC, transected at the base.", "margin_status", "positive"),
        (
            "histai",
            "Compound dysplastic nevus. Transected at a lateral edge.",
            "margin_status",
            "positive",
        ),
        (
            "histai",
            "Crypts are distorted, with basal plasmacytosis.",
            "crypt_distortion",
            "present",
        ),
        ("histai", "A single well-formed noncaseating granuloma.", "necrosis", "absent"),
        ("histai", "Tubal ectopic gestation confirmed.", "diagnosis", "ectopic pregnancy"),
        ("histai", "DIAGNOSIS: CHRONIC BILHARZIAL CYSTITIS.", "diagnosis", "schistosomiasis"),
        (
            "reg2025",
            "Urinary bladder, trigone, cystoscopic biopsy; CHRONIC BILHARZIAL CYSTITIS with "
            "calcified Schistosoma haematobium ova",
            "diagnosis",
            "cystitis",
        ),
        (
            "tcga",
            "Pelvic lymphadenectomy: twelve pelvic nodes free.",
            "lymph_node_involvement",
            "0/12",
        ),
    ],
)
def test_crqs_reads_the_wording(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # Receptors named without "receptor" after a "Receptors:" heading.
        ("tcga", "Receptor status: oestrogen 100 %, progesterone 80 %.", "er_status", "positive"),
        ("tcga", "Receptor status: oestrogen 0 %, progesterone 0%.", "pr_status", "negative"),
        ("tcga", "Twenty-four pelvic nodes, none involved. FIGO 2018: IB2.", "figo_stage", "ib2"),
        ("histai", "Summary: mild chronic carditis only.", "diagnosis", "chronic inflammation"),
        (
            "reg2025",
            "Lung core: adenocarcinoma. PD-L1 SP263 membranous staining in 60% of tumour cells.",
            "pdl1_score",
            60.0,
        ),
        ("reg2025", "ALK D5F3 IHC: no expression.", "alk_status", "negative"),
        (
            "reg2025",
            "Stomach, antrum and body, biopsies: Chronic gastritis moderate, with mild activity.",
            "inflammation_activity",
            "chronic active",
        ),
        (
            "reg2025",
            "Rectum, biopsies; Chronic colitis with crypt distortion and basal plasmacytosis, mild "
            "activity (cryptitis).",
            "inflammation_activity",
            "chronic active",
        ),
        (
            "reg2025",
            "Colon, biopsies; chronic active colitis. CMV immunostain positive, highlighting viral "
            "inclusions.",
            "diagnosis",
            "viral infection",
        ),
        (
            "reg2025",
            "Rectal biopsies: moderately active chronic colitis.",
            "inflammation_activity",
            "chronic active",
        ),
        (
            "reg2025",
            "Gastric body ulcer, biopsy: signet-ring cell / poorly cohesive type carcinoma.",
            "diagnosis",
            "adenocarcinoma",
        ),
        (
            "tcga",
            "Lobectomy: 43 mm keratinising squamous cell lung carcinoma, G2.",
            "diagnosis",
            "squamous cell carcinoma",
        ),
        (
            "histai",
            "Only occasional residual poorly cohesive tumour cells in a fibrotic bed (ypT2).",
            "diagnosis",
            "adenocarcinoma",
        ),
    ],
)
def test_crqs_reads_receptors_stages_and_diagnoses_in_other_words(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("text", "field"),
    [
        # The Prague classification of a Barrett's segment is no M category.
        ("Z-line biopsies (irregular junction, C0 M1): squamous fragments.", "pm_stage"),
        (
            "Z-line biopsies (irregular junction, C0 M1): squamous fragments.",
            "metastatic_involvement",
        ),
        # The mesorectum's grade is no tumour grade.
        ("Mesorectal fascia intact (TME grade 3, complete).", "tumor_grade"),
    ],
)
def test_crqs_other_scores_are_not_read_as_the_tumours(text, field):
    assert field not in extract(text, "histai")


@pytest.mark.parametrize(
    ("text", "count"),
    [
        # Node groups named in three words each.
        (
            "Lymph nodes: perigastric lesser curvature 3/12, perigastric greater curvature 1/9, "
            "left gastric artery 0/3, celiac 0/2.",
            "4/26",
        ),
        # A group's count in brackets after its name.
        (
            "Two of eleven para-oesophageal nodes positive; subcarinal (0/4) and perigastric "
            "(0/6) nodes negative.",
            "2/21",
        ),
        ("Lymph nodes: paraesophageal 2/11, subcarinal 0/4, perigastric 0/6.", "2/21"),
        ("Pelvic nodes: right side 2 of 12 with metastasis, left side none of 10.", "2/22"),
    ],
)
def test_crqs_adds_the_counts_of_named_node_groups(text, count):
    assert extract(text, "tcga")["lymph_node_involvement"] == count


def test_crqs_the_clinicians_question_names_no_diagnosis():
    fields = extract(
        "Clinical information: enlarged lymph node, right groin; exclusion of lymphoma. "
        "Conclusion: reactive follicular hyperplasia.",
        "histai",
    )
    assert fields["diagnosis"] == "reactive lymphoid hyperplasia"
    assert fields["benign_vs_malignant"] == "benign"


def test_crqs_neither_part_denies_what_follows_its_verb():
    fields = extract(
        "Part B: tubular adenoma with low-grade dysplasia. Neither part shows high-grade "
        "dysplasia or carcinoma.",
        "histai",
    )
    assert fields["diagnosis"] == "adenoma" and fields["excluded_entities"] == "carcinoma"
    assert fields["dysplasia_grade"] == "low"


def test_crqs_a_size_inside_a_melanoma_report_is_not_its_invasion_depth():
    fields = extract(
        "Superficial spreading melanoma, invasive to a depth of 1.6 mm (Breslow).", "tcga"
    )
    assert "depth_of_invasion" not in fields
