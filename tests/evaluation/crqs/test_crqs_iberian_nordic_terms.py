"""The wording of reports written in English by Spanish, Portuguese and Nordic pathologists.

A report translated from Spanish or Portuguese calls a margin a surgical "border" and an
involved one "affected"; a Nordic report counts involved nodes over examined ones as "2(18)" and
states mitoses per area ("3/5 mm2"), which is a count, not the Nottingham mitotic score. Each
states the same fact as the plain English report, so each must be read as that fact. A line that
describes the specimen (a macroscopic heading, or the procedure) gives the specimen's own size
before it names the tumour; that size is not the tumour's.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # A surgical border is a margin; "affected" and "compromised" mean involved.
        ("tcga", "Hemicolectomy: adenocarcinoma. Surgical borders free of neoplasia.",
         "margin_status", "negative"),
        ("tcga", "Wide excision: melanoma. Deep surgical border affected by neoplasia; lateral "
         "borders free.", "margin_status", "positive"),
        ("tcga", "Wide excision: melanoma. Deep surgical border affected by neoplasia; lateral "
         "borders free.", "margin_involved", "deep"),
        ("histai", "Cone biopsy: HSIL (CIN 3). Endocervical border affected by the lesion; "
         "exocervical border free.", "margin_status", "positive"),
        ("reg2025", "Skin, back, excision;\n  Basal cell carcinoma, nodular type\n  Note) Surgical "
         "borders free of neoplasia, closest (deep) at 3 mm.", "margin_status", "free"),
        ("reg2025", "Skin, back, excision;\n  Basal cell carcinoma, nodular type\n  Note) Surgical "
         "borders free of neoplasia, closest (deep) at 3 mm.", "margin_distance", 0.3),
        ("tcga", "Orchiectomy: seminoma. Spermatic cord border free.", "margin_status",
         "negative"),
        ("tcga", "Mastectomy: carcinoma. Deep margin compromised.", "margin_status", "positive"),
        ("reg2025", "Colon, polypectomy;\n  Adenocarcinoma in adenoma\n  Note) Margin of resection "
         "free, distance 2 mm.", "margin_status", "free"),
        # Margins named in a list or a bracket before their shared status.
        ("tcga", "Esophagectomy: adenocarcinoma. Margins proximal, distal and circumferential "
         "are free.", "margin_status", "negative"),
        ("tcga", "Whipple: adenocarcinoma. Margins (pancreatic neck, common bile duct, "
         "uncinate/retroperitoneal) are free.", "margin_status", "negative"),
        ("histai", "Anterior resection: adenocarcinoma. Margins: circumferential (radial) free "
         "at 4 mm, distal free at 20 mm.", "margin_status", "negative"),
        # The Nordic node count: involved (examined).
        ("tcga", "Gastrectomy: adenocarcinoma. Lymph nodes 2(18).", "lymph_node_involvement",
         "2/18"),
        ("tcga", "Pneumonectomy: squamous cell carcinoma. Lymph nodes: hilar 2(5); mediastinal "
         "0(7).", "lymph_node_involvement", "2/12"),
        ("histai", "Neck dissection, left: metastatic carcinoma. Conclusion: lymph nodes 2(23).",
         "lymph_node_involvement", "2/23"),
        ("reg2025", "Stomach, distal gastrectomy;\n  Adenocarcinoma, intestinal type\n  Lymph "
         "nodes 0(15).", "lymph_node_involvement", "0/15"),
        # A node count apart from the status all the nodes share.
        ("tcga", "Right axillary sentinel nodes (2): negative.", "lymph_node_involvement", "0/2"),
        ("tcga", "Pelvic lymph nodes, right and left: twenty-four, all negative.",
         "lymph_node_involvement", "0/24"),
        ("tcga", "Left axillary sentinel nodes: three, all negative.", "lymph_node_involvement",
         "0/3"),
        ("tcga", "Hemicolectomy: adenocarcinoma. 31 nodes examined, none positive.",
         "lymph_node_involvement", "0/31"),
        ("reg2025", "Lymph node, left axilla, sentinel biopsy;\n  Sentinel nodes (2): no "
         "metastasis", "lymph_node_involvement", "0/2"),
        # No node found is no node examined (pNX), not a negative node.
        ("tcga", "Left radical nephrectomy: renal cell carcinoma. No lymph nodes were isolated.",
         "lymph_nodes_examined", "0"),
        ("tcga", "Left radical nephrectomy: renal cell carcinoma. Lymph nodes isolated: 0.",
         "lymph_nodes_examined", "0"),
        # "Infiltrating until" a layer reaches it.
        ("tcga", "Gastrectomy: adenocarcinoma infiltrating until subserosa.", "invasion_depth",
         "subserosa"),
        # One invaded structure makes the invasion present, whatever the others' status.
        ("tcga", "Radical nephrectomy: renal cell carcinoma with extension into perirenal fat; "
         "renal vein not involved.", "organ_specific_invasion", "present"),
        ("tcga", "Radical nephrectomy: clear cell carcinoma. There is infiltration of perirenal "
         "adipose tissue; the renal vein is free.", "organ_specific_invasion", "present"),
        # A number of tumours is multifocality.
        ("tcga", "Ileum: neuroendocrine tumour, four separate tumours, the largest 11 mm.",
         "tumor_focality", "multifocal"),
        ("tcga", "Thyroidectomy: papillary carcinoma, three foci: dominant 1.4 cm.",
         "multifocal_involvement", "present"),
        # The Lauren type named after its classification.
        ("tcga", "Gastrectomy: adenocarcinoma, poorly cohesive type (diffuse of Lauren).",
         "histologic_type", "diffuse type"),
        # Thyroid: the nodular disease is an entity; papillary-type nuclei are ruled out.
        ("histai", "Diagnosis: left thyroid lobectomy: adenomatoid nodule (follicular nodular "
         "disease), 27 mm.", "diagnosis", "follicular nodular disease"),
        ("histai", "Encapsulated microfollicular lesion. Papillary carcinoma-type nuclear features "
         "absent. Diagnosis: follicular adenoma.", "excluded_entities",
         "papillary thyroid carcinoma"),
        # Mismatch repair in other words.
        ("tcga", "Colectomy: adenocarcinoma. Intact MLH1/PMS2/MSH2/MSH6.", "mmr_msi_status",
         "proficient"),
        ("tcga", "Colectomy: adenocarcinoma. Mismatch repair proteins show intact expression.",
         "mmr_msi_status", "proficient"),
        ("tcga", "Colectomy: adenocarcinoma. MLH1 and PMS2 nuclear staining lost; MSH2 and MSH6 "
         "retained.", "mmr_proteins_lost", "mlh1 + pms2"),
        # Melanoma: a non-ulcerated tumour, dermal mitoses; margins whose status follows them.
        ("tcga", "Wide excision: nodular melanoma, nonulcerated.", "ulceration", "absent"),
        ("tcga", "Wide excision: melanoma; 1 dermal mitosis per mm2.", "mitotic_rate", 1.0),
        ("tcga", "Jejunum: GIST, 60 mm, with three mitoses per 5 square mm.", "mitotic_rate", 3.0),
        ("tcga", "Wide excision: melanoma. Peripheral margin 10 mm, deep margin 6 mm (both "
         "negative).", "margin_status", "negative"),
        # REG: appendicitis is an entity of its own; "no neoplasm seen" beside it adds none.
        ("reg2025", "Appendix, appendectomy;\n  - Acute appendicitis, not perforated.\n  - No "
         "neoplasm seen.", "findings", "appendicitis"),
        # A size "of maximum diameter", with a decimal comma.
        ("tcga", "Nephrectomy: clear cell renal cell carcinoma, 7,2 cm of maximum diameter.",
         "tumor_size", 7.2),
        ("reg2025", "Thyroid, right lobe, hemithyroidectomy;\n  Papillary carcinoma, 0,8 cm of "
         "maximum diameter", "tumor_size", 0.8),
        # The specimen's own sizes, on a macroscopic or procedure line, are not the tumour's.
        ("histai", "Macroscopic: Segment of terminal ileum, 120 mm, with a firm yellow "
         "submucosal nodule 11 mm.", "tumor_size", 1.1),
        ("histai", "Macro: skin ellipse, 28x12x6 mm, left temple; ulcerated lesion 9 mm.",
         "tumor_size", 0.9),
        ("histai", "Skin excision from left temple, 28 x 12 x 6 mm, with a 9 mm ulcerated "
         "tumour.", "tumor_size", 0.9),
        ("tcga", "Partial nephrectomy, 48 x 35 x 30 mm, with a circumscribed tumour of 32 mm.",
         "tumor_size", 3.2),
        ("tcga", "Right partial glossectomy with neck dissection. Moderately differentiated SCC, "
         "2.1 cm, DOI 7 mm.", "tumor_size", 2.1),
        ("histai", "Macroscopy: Right orchiectomy, testis of 5,5 x 4 x 3 cm with a whitish "
         "nodule of 2,8 cm.", "tumor_size", 2.8),
        ("histai", "Myomectomy: 6,5 cm nodule with whorled cut surface.", "tumor_size", 6.5),
        # "by" between the dimensions of one size.
        ("histai", "A grey nodule measuring 30 by 25 by 20 mm.", "tumor_size", 3.0),
        # A mitotic count per area is a rate.
        ("reg2025", "Stomach, wedge resection;\n  Gastrointestinal stromal tumour\n  Mitoses "
         "3/5 mm2.", "mitotic_rate", 3.0),
        # A bladder specimen's muscle, in the past tense; a primary named by its adjective.
        ("reg2025", "Bladder, transurethral resection;\n  Urothelial carcinoma, Comment: "
         "muscularis propria (detrusor muscle) was present.", "muscle_proper_status", "included"),
        ("reg2025", "Lung, biopsy;\n  Metastatic adenocarcinoma of colonic origin",
         "primary_site", "colorectum"),
        ("tcga", "Gastric biopsy: chronic gastritis with intestinal-type metaplasia.",
         "intestinal_metaplasia", "present"),
    ],
)  # fmt: skip
def test_iberian_and_nordic_wordings_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "absent_value"),
    [
        # An anatomical border and a growth pattern's border are no margin.
        ("reg2025", "Oral cavity, tongue, left lateral border, partial glossectomy;\n  Squamous "
         "cell carcinoma", "margin_status", "free"),
        ("tcga", "Excision: melanoma with pushing borders.", "margin_status", "negative"),
        # No node found is not a negative node; a node metastasis stays one.
        ("tcga", "Nephrectomy: renal cell carcinoma. No lymph nodes identified.",
         "lymph_node_involvement", "absent"),
        # A size before "with" a tumour is the specimen's.
        ("histai", "Testis of 5,5 x 4 x 3 cm with a whitish nodule.", "tumor_size", 5.5),
        # A mitotic count per area is not the Nottingham mitotic score of 3.
        ("reg2025", "Stomach, wedge resection;\n  Gastrointestinal stromal tumour\n  Mitoses: "
         "3 per 5 mm2.", "mitotic_score", "3"),
        # A size after a comma that runs on into its noun is no specimen size.
        ("histai", "Macroscopic: Skin ellipse 30 x 10 mm, 6 mm pigmented lesion.", "tumor_size",
         3.0),
        # A bracket after a size is no node count, even on a line that names nodes later.
        ("tcga", "Tumour 2(3) cm. Lymph nodes negative.", "lymph_node_involvement", "2/3"),
        # Colloid in a thyroid nodule is no colloid (mucinous) carcinoma; papillary-type nuclei
        # stated absent are no papillary tumour.
        ("histai", "Nodule with abundant colloid; papillary-type nuclei are absent.",
         "histologic_type", "mucinous"),
        ("histai", "Encapsulated lesion; papillary carcinoma-type nuclear features absent.",
         "diagnosis", "papillary thyroid carcinoma"),
        # Intestinal-type metaplasia is no Lauren intestinal-type carcinoma.
        ("reg2025", "Stomach, endoscopic biopsy;\n  Chronic gastritis with intestinal-type "
         "metaplasia", "histologic_type", "intestinal type"),
    ],
)  # fmt: skip
def test_look_alikes_stay_what_they_are(dataset, text, field, absent_value):
    assert extract(text, dataset).get(field) != absent_value


def test_an_affected_border_costs_more_than_its_plain_english_rewording():
    reference = (
        "Wide local excision, right forearm: nodular basal cell carcinoma. Surgical borders "
        "free of neoplasia, the closest (deep) at 2 mm."
    )
    rewrite = "Right forearm excision: nodular BCC. Margins clear; closest deep margin 2 mm."
    wrong = (
        "Wide local excision, right forearm: nodular basal cell carcinoma. Deep surgical "
        "border affected by neoplasia."
    )
    assert score_pair(reference, rewrite, "tcga").CRQS > score_pair(reference, wrong, "tcga").CRQS


def test_a_changed_nordic_node_count_is_discordant():
    reference = "Distal gastrectomy: adenocarcinoma, pT3. Lymph nodes 2(18). Radicality: R0."
    rewrite = "Distal gastrectomy: adenocarcinoma, pT3; 2 of 18 nodes with metastasis; R0."
    wrong = reference.replace("2(18)", "0(18)")
    assert score_pair(reference, rewrite, "tcga").CRQS > score_pair(reference, wrong, "tcga").CRQS


def test_two_readings_of_the_same_stated_sizes_agree_and_a_changed_size_does_not():
    # The first report's tumour size is read as the uterus's 9 cm, the second's as the 4.5 cm
    # leiomyoma; both state the same sizes, so the tumour size is no discordance. A changed size
    # is among neither report's sizes, so it stays one.
    reference = "Uterus, 9 x 6 x 4 cm. Leiomyoma 45 mm."
    rewrite = "The uterus measures 9 x 6 x 4 cm and contains a 4.5 cm leiomyoma."
    wrong = "The uterus measures 9 x 6 x 4 cm and contains a 7.5 cm leiomyoma."
    assert "tumor_size" not in score_pair(reference, rewrite, "histai").discordant
    assert "tumor_size" in score_pair(reference, wrong, "histai").discordant


def test_a_changed_number_of_foci_is_discordant_and_an_uncounted_multifocal_tumour_is_not():
    reference = (
        "Total thyroidectomy: papillary thyroid carcinoma, classic type, multifocal (3 foci)."
    )
    recounted = "Total thyroidectomy: classic papillary carcinoma, three foci."
    uncounted = "Total thyroidectomy: classic papillary thyroid carcinoma, multifocal."
    wrong = reference.replace("(3 foci)", "(5 foci)")
    assert extract(recounted, "tcga").get("tumor_focus_count") == "3"
    assert "tumor_focus_count" not in score_pair(reference, recounted, "tcga").discordant
    assert "tumor_focus_count" not in score_pair(reference, uncounted, "tcga").missed
    assert "tumor_focus_count" in score_pair(reference, wrong, "tcga").discordant
