"""Wordings of the 52nd schema versions (REG 43rd): a renal vein with tumour in it, a serosa
penetrated, a margin reached past a bracketed name, proteins "not expressed", a diagnosis short of
its criteria, and entity names with a qualifier in brackets; each beside a look-alike that keeps
its reading."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # REG reads the structures a tumour involves (a renal vein is pT3a).
        (
            "reg2025",
            "Kidney, right, radical nephrectomy;\nClear cell renal cell carcinoma, WHO/ISUP grade"
            " 2, 4.5 cm\nRenal vein invasion present",
            "organ_involvement",
            "renal vein",
        ),
        (
            "reg2025",
            "Right radical nephrectomy:\nRenal cell carcinoma, clear cell type, 45 mm, with tumour"
            " in the renal vein",
            "organ_involvement",
            "renal vein",
        ),
        (
            "tcga",
            "Radical nephrectomy: clear cell RCC, 7 cm. Tumour thrombus in the main renal vein.",
            "organ_involvement",
            "renal vein",
        ),
        (
            "tcga",
            "Radical nephrectomy: clear-cell RCC, 75 mm. Tumour extends into perirenal adipose"
            " tissue; renal sinus fat uninvolved.",
            "organ_involvement",
            "perinephric fat",
        ),
        # A serosa is the serosa of whichever organ the report is about.
        (
            "reg2025",
            "Stomach, total gastrectomy;\nPoorly cohesive carcinoma, invading serosa (pT4a)",
            "organ_involvement",
            "serosa",
        ),
        (
            "reg2025",
            "Total gastrectomy:\nSignet-ring cell carcinoma penetrating the serosa, pT4a.",
            "organ_involvement",
            "serosa",
        ),
        (
            "tcga",
            "Hysterectomy: endometrioid carcinoma, FIGO grade 2, invading the uterine serosa.",
            "organ_involvement",
            "serosa",
        ),
        # A named margin with its artery in brackets.
        (
            "tcga",
            "Whipple resection. Tumour reaches the uncinate (superior mesenteric artery) margin;"
            " neck and common bile duct margins are clear.",
            "margin_status",
            "positive",
        ),
        (
            "tcga",
            "Whipple resection. Tumour reaches the uncinate (superior mesenteric artery) margin;"
            " neck and common bile duct margins are clear.",
            "margin_involved",
            "pancreatic",
        ),
        (
            "tcga",
            "Right colectomy: adenocarcinoma. MLH1 and PMS2 not expressed: mismatch-repair"
            " deficient.",
            "mmr_proteins_lost",
            "mlh1 + pms2",
        ),
        (
            "tcga",
            "Right colectomy: adenocarcinoma. MLH1 and PMS2 are not expressed.",
            "mmr_msi_status",
            "deficient",
        ),
        # Entities with a qualifier in brackets, and in other words.
        (
            "histai",
            "Cervical lymph node, excision. Impression: tuberculous (caseating granulomatous)"
            " lymphadenitis.",
            "diagnosis",
            "tuberculosis",
        ),
        (
            "reg2025",
            "Lymph node, excision;\nTuberculous granulomatous lymphadenitis",
            "diagnosis",
            "tuberculosis",
        ),
        (
            "histai",
            "Colonic biopsy: mixed tubular and villous adenoma with low-grade dysplasia.",
            "adenoma_type",
            "tubulovillous",
        ),
        (
            "histai",
            "Colonic biopsy. Sections show villous and tubular architecture with low grade"
            " dysplasia. Diagnosis: adenoma.",
            "histologic_type",
            "tubulovillous",
        ),
        (
            "tcga",
            "Thyroid, total thyroidectomy. Right lobe: papillary carcinoma, 18 mm. Left lobe:"
            " nodular (adenomatous) hyperplasia.",
            "findings",
            "papillary thyroid carcinoma + follicular nodular disease",
        ),
        (
            "histai",
            "Liver, pericystectomy. Diagnosis: hepatic echinococcosis (hydatid cyst, E."
            " granulosus).",
            "diagnosis",
            "echinococcosis",
        ),
        (
            "histai",
            "Liver, pericystectomy. Conclusion: hydatid cyst of the liver.",
            "benign_vs_malignant",
            "benign",
        ),
        (
            "histai",
            "Ileocecal valve biopsy. Caseating granulomatous inflammation suggestive of tubercular"
            " (Koch's) aetiology.",
            "diagnosis",
            "tuberculosis",
        ),
        (
            "histai",
            "Products of conception, evacuation. Conclusion: products of conception; no molar"
            " change.",
            "excluded_entities",
            "hydatidiform mole",
        ),
        (
            "histai",
            "ERPC material. Diagnosis: POC with no features of hydatidiform mole.",
            "diagnosis",
            "products of conception",
        ),
        (
            "tcga",
            "Total gastrectomy. Histology: poorly cohesive carcinoma. Invasion: subserosal.",
            "invasion_depth",
            "subserosa",
        ),
        (
            "histai",
            "TI and caecal bx: active ileitis with granulomas; focal active colitis.",
            "tumor_site",
            "cecum + terminal ileum",
        ),
        (
            "histai",
            "Colon, polypectomies. Three polyps, 4, 6 and 11 mm. Diagnosis: tubular adenomas.",
            "measurements",
            "0.4 + 0.6 + 1.1",
        ),
        (
            "tcga",
            "Distal gastrectomy: antral gastric carcinoma, Lauren diffuse type, 50 mm.",
            "diagnosis",
            "adenocarcinoma",
        ),
        (
            "histai",
            "Colon, random biopsies. Diagnosis: collagenous type of microscopic colitis.",
            "diagnosis",
            "collagenous colitis",
        ),
        (
            "reg2025",
            "Lung, right upper lobe, transbronchial biopsy;\nNon-necrotizing granulomas; no"
            " acid-fast bacilli identified (Ziehl-Neelsen)",
            "organisms",
            "mycobacteria negative",
        ),
        (
            "histai",
            "Lung, biopsy: granulomas; acid-fast bacilli identified (ZN stain).",
            "organisms",
            "mycobacteria",
        ),
        (
            "histai",
            "Bladder, TURBT. High-grade papillary urothelial carcinoma invading the lamina propria"
            " (pT1). Adjacent flat mucosa shows urothelial carcinoma in situ.",
            "in_situ_vs_invasive",
            "invasive",
        ),
        (
            "histai",
            "Right axillary lymph node clearance. Fourteen lymph nodes are identified. Two contain"
            " metastatic carcinoma consistent with breast primary.",
            "lymph_node_involvement",
            "2/14",
        ),
        (
            "tcga",
            "Axillary dissection: 14 lymph nodes were recovered; 2 contain metastatic carcinoma.",
            "lymph_node_involvement",
            "2/14",
        ),
        (
            "tcga",
            "Radical hysterectomy. Both parametria, vaginal cuff and surgical margins:"
            " tumour-free.",
            "margin_status",
            "negative",
        ),
        (
            "reg2025",
            "Endometrium, pipelle biopsy;\nDisordered proliferative endometrium\nNo atypia"
            " identified",
            "epithelial_atypia",
            "absent",
        ),
        (
            "reg2025",
            "Endometrium, pipelle biopsy;\nProliferative endometrium with cytological atypia",
            "epithelial_atypia",
            "present",
        ),
        (
            "tcga",
            "Bladder, TURBT. Urothelial carcinoma in situ; no invasion of the lamina propria.",
            "in_situ_vs_invasive",
            "in situ",
        ),
        (
            "tcga",
            "EBUS. Subcarinal node: metastatic adenocarcinoma. Right lower paratracheal node (4R):"
            " negative for malignancy.",
            "lymph_node_stations",
            "4r + 7",
        ),
        (
            "tcga",
            "Mediastinoscopy: left lower paratracheal lymph node, 0/2; subaortic node 0/1.",
            "lymph_node_stations",
            "4l + 5",
        ),
        (
            "reg2025",
            "Prostate, right apex, needle biopsy;\nHigh-grade prostatic intraepithelial neoplasia"
            " (HGPIN), no invasive carcinoma identified",
            "diagnosis",
            "high-grade prostatic intraepithelial neoplasia",
        ),
        (
            "reg2025",
            "Prostate, biopsy;\nHGPIN and ASAP",
            "diagnosis",
            "atypical small acinar proliferation",
        ),
        (
            "reg2025",
            "Products of conception, evacuation;\nPartial hydatidiform mole",
            "diagnosis",
            "partial hydatidiform mole",
        ),
        (
            "reg2025",
            "Products of conception, evacuation;\nNon-molar hydropic abortion",
            "diagnosis",
            "products of conception",
        ),
        (
            "histai",
            "Duodenum, four fragments. Villi are markedly but not completely atrophic.",
            "atrophy",
            "present",
        ),
        (
            "histai",
            "D2 biopsies: villous atrophy with raised intra-epithelial lymphocyte count.",
            "intraepithelial_lymphocytosis",
            "present",
        ),
        (
            "tcga",
            "Duodenum: intra-epithelial lymphocytes not increased.",
            "intraepithelial_lymphocytosis",
            "absent",
        ),
        (
            "histai",
            "TURP chips: benign prostatic (nodular) hyperplasia; acinar adenocarcinoma,"
            " Gleason 3+3.",
            "findings",
            "benign prostatic hyperplasia + adenocarcinoma",
        ),
        (
            "reg2025",
            "Lymph node, left neck, excision biopsy;\nSCC, metastatic, with extranodal"
            " (extracapsular) spread.",
            "extranodal_extension",
            "present",
        ),
        (
            "reg2025",
            "Duodenum, endoscopic biopsy;\nIncreased intraepithelial lymphocytes without villous"
            " atrophy, consistent with celiac disease",
            "atrophy",
            "absent",
        ),
        (
            "reg2025",
            "Duodenum, endoscopic biopsy;\nIncreased intraepithelial lymphocytes with villous"
            " atrophy, consistent with celiac disease",
            "atrophy",
            "present",
        ),
        (
            "tcga",
            "Segmental resection, left breast: invasive ductal carcinoma NST, grade III, 21 mm.",
            "specimen_type",
            "lumpectomy",
        ),
        ("tcga", "Colon, segmental resection. Adenocarcinoma.", "specimen_type", "resection"),
        (
            "reg2025",
            "Gastric biopsies (antrum and corpus):\nChronic gastritis",
            "tumor_site",
            "body + antrum",
        ),
        (
            "reg2025",
            "Cervix, LLETZ;\nHigh-grade squamous intraepithelial lesion (CIN 3), involving"
            " endocervical crypts\nMargins clear of HSIL",
            "margin_status",
            "free",
        ),
        (
            "reg2025",
            "Cervix, LLETZ;\nHSIL (CIN 3), involving the endocervical margin",
            "margin_status",
            "involved",
        ),
        (
            "histai",
            "Gastric corpus biopsies: atrophic chronic gastritis; intestinal metaplasia present.",
            "gastritis_type",
            "atrophic",
        ),
        (
            "histai",
            "Right hemicolectomy. Sixteen lymph nodes isolated, one shows metastatic deposit.",
            "lymph_node_involvement",
            "1/16",
        ),
        (
            "histai",
            "Soft tissue, right thigh, excision. MDM2 FISH: not amplified. Diagnosis: lipoma.",
            "ihc_markers",
            "mdm2 negative",
        ),
        (
            "reg2025",
            "Stomach, antrum and body, endoscopic biopsy;\nChronic active gastritis",
            "tumor_site",
            "body + antrum",
        ),
        (
            "tcga",
            "Right hemicolectomy: caecal adenocarcinoma. None of 21 nodes harbours metastasis.",
            "metastatic_involvement",
            "absent",
        ),
        (
            "histai",
            "Biopsies from the edge of an ulcer in the gastric antrum. Granulation tissue with"
            " regenerative epithelial changes. No dysplasia or malignancy.",
            "diagnosis",
            "peptic ulcer",
        ),
        (
            "tcga",
            "Left lateral oral tongue, partial glossectomy: squamous cell carcinoma, 2.2 cm.",
            "tumor_site",
            "lateral tongue",
        ),
    ],
)
def test_new_wording_is_read(dataset: str, text: str, field: str, value: str) -> None:
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field"),
    [
        # No tumour in the vein: the vein is not involved.
        (
            "tcga",
            "Radical nephrectomy. Clear cell RCC, 5 cm. No tumour in the renal vein.",
            "organ_involvement",
        ),
        # A margin named but clear.
        (
            "tcga",
            "Whipple resection. The uncinate (superior mesenteric artery) margin is clear.",
            "margin_involved",
        ),
        # The proteins expressed.
        ("tcga", "Colectomy: adenocarcinoma. MLH1 and PMS2 are expressed.", "mmr_proteins_lost"),
        # A fibroid's place is no depth of invasion.
        ("tcga", "Hysterectomy: leiomyoma, subserosal, 3 cm.", "invasion_depth"),
        # The renal vein uninvolved is no statement about lymphovascular invasion.
        (
            "tcga",
            "Radical nephrectomy: clear cell RCC. Renal sinus fat and renal vein: not involved.",
            "lymphovascular_invasion",
        ),
        # The uterus's corpus is no gastric body.
        ("tcga", "Uterus, corpus and cervix: endometrioid carcinoma.", "tumor_site"),
        # "Hydatid" is no hydatidiform mole.
        ("histai", "Liver, pericystectomy. Conclusion: hydatid cyst.", "excluded_entities"),
    ],
)
def test_look_alike_adds_nothing(dataset: str, text: str, field: str) -> None:
    assert field not in extract(text, dataset)


def test_a_diagnosis_short_of_its_criteria_is_not_made() -> None:
    """ "Worrisome for but insufficient for a diagnosis of carcinoma" is atypia, as "suspicious
    for, but not diagnostic of, carcinoma" is: no carcinoma."""
    fields = extract(
        "Twelve prostate core biopsies. In the left base core a small focus of atypical small"
        " acinar proliferation (ASAP), worrisome for but insufficient for a diagnosis of"
        " carcinoma; re-biopsy is advised.",
        "histai",
    )
    assert fields["diagnosis"] == "atypical small acinar proliferation"
    assert fields["benign_vs_malignant"] == "benign"
    assert "carcinoma" in fields["excluded_entities"]


def test_completely_excised_says_nothing_of_the_site_in_the_heading() -> None:
    """ "Completely excised" is the margins' status, like "margins free": the site above it is the
    lesion's, not a site free of tumour."""
    rewrite = (
        "Excision, skin of left ala nasi:\nNodular BCC, completely excised; deep clearance 0.2 cm."
    )
    reference = "Skin, left nasal ala, excision;\nBasal cell carcinoma, nodular type\nMargins free"
    assert extract(rewrite, "reg2025")["lateral_sites"] == "left nasal ala"
    assert extract(reference, "reg2025")["lateral_sites"] == "left nasal ala"


def test_a_renal_vein_left_out_costs_the_reg_score() -> None:
    reference = (
        "Kidney, left, radical nephrectomy;\n1. Clear cell renal cell carcinoma, WHO/ISUP grade 2,"
        " 4,5 cm\n2. Renal vein invasion: present\n3. Surgical margins: negative"
    )
    rewrite = (
        "Left radical nephrectomy:\nClear cell RCC, WHO/ISUP nuclear grade 2, 45 mm in greatest"
        " dimension, with invasion of the renal vein; surgical margins free of tumour."
    )
    wrong = (
        "Kidney, left, radical nephrectomy;\n1. Clear cell renal cell carcinoma, WHO/ISUP grade 2,"
        " 4,5 cm\n2. Surgical margins: negative"
    )
    assert (
        score_pair(reference, rewrite, "reg2025").CRQS
        > score_pair(reference, wrong, "reg2025").CRQS
    )


def test_an_entity_whose_infiltration_is_absent_is_denied() -> None:
    """ "Lymphoma infiltration: absent" is "no infiltration by lymphoma", not a lymphoma."""
    ref = (
        "Bone marrow, right posterior iliac crest, trephine biopsy;\nNormocellular marrow (40%)"
        " with trilineage haematopoiesis\nLymphoma infiltration: absent"
    )
    assert "diagnosis" not in extract(ref, "reg2025")
    assert extract(ref.replace("absent", "present"), "reg2025")["diagnosis"] == "lymphoma"


def test_a_margin_named_by_the_structure_it_is_at() -> None:
    text = (
        "Radical nephrectomy. Soft tissue margin at Gerota's fascia positive; ureteral and"
        " vascular margins negative."
    )
    assert extract(text, "tcga")["margin_status"] == "positive"
    assert (
        extract(text.replace("fascia positive", "fascia negative"), "tcga")["margin_status"]
        == "negative"
    )


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_invented_perineural_invasion_costs_as_much_as_invented_lymphovascular_invasion(
    dataset: str,
) -> None:
    """Perineural invasion changes adjuvant treatment (head and neck and cutaneous squamous cell
    carcinoma, stage II colon cancer): it is as critical as lymphovascular invasion."""
    reference = (
        "Colon, sigmoid, resection: adenocarcinoma, moderately differentiated, 3 cm, invading the"
        " subserosa. Margins free. Lymph nodes 0/14."
    )
    perineural = score_pair(reference, reference + " Perineural invasion present.", dataset)
    lymphovascular = score_pair(reference, reference + " Lymphovascular invasion present.", dataset)
    assert pytest.approx(lymphovascular.CRQS) == perineural.CRQS
    assert perineural.CRQS < 0.97


def test_malignant_washings_cost_more_than_an_invented_descriptive_finding() -> None:
    """Positive peritoneal cytology is M1 in gastric cancer: critical, unlike tumour necrosis."""
    reference = (
        "Total gastrectomy: poorly cohesive carcinoma of the gastric body, 4.5 cm, invading the"
        " subserosa. Proximal and distal margins free. pT3."
    )
    washings = score_pair(reference, reference + " Peritoneal lavage cytology positive.", "tcga")
    necrosis = score_pair(reference, reference + " Tumour necrosis present.", "tcga")
    assert 1 - washings.CRQS > 1.3 * (1 - necrosis.CRQS)
