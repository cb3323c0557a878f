"""British "nil", layers named before their invasion, depths of invasion, margins named in
brackets, and organs an entity names by itself.

The wordings are written here for the test; each states a fact the way some pathologists do, and
its reading must equal the plain wording's. The look-alikes guard each reading.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # "Nil" as a status after the finding, and before it.
        ("reg2025", "Stomach, antrum, biopsy; Chronic gastritis. H. pylori: present. Intestinal "
         "metaplasia: nil.", "intestinal_metaplasia", "absent"),
        ("tcga", "Melanoma, Breslow 1.4 mm. Microsatellites: nil. Margins clear.",
         "microsatellites", "absent"),
        ("histai", "Bladder biopsy: chronic cystitis. Nil dysplasia; nil malignancy.",
         "benign_vs_malignant", "benign"),
        # A sign with a note in one bracket, and margins named in brackets before their status.
        ("histai", "Cervix, LEEP: HSIL (CIN 3). Margins: ectocervical (-), endocervical (+, CIN "
         "3).", "margin_status", "positive"),
        ("tcga", "Whipple: ductal adenocarcinoma, 31 mm. Margins (pancreatic neck, bile duct, "
         "uncinate): all negative.", "margin_status", "negative"),
        # The layer before the noun or the participle, or reached without a verb.
        ("tcga", "Radical cystectomy: urothelial carcinoma, high grade; perivesical fat invasion "
         "present.", "invasion_depth", "perivisceral fat"),
        ("tcga", "Sigmoid colectomy: adenocarcinoma, 41 mm, mesocolic fat infiltrated (pT3).",
         "invasion_depth", "perivisceral fat"),
        ("tcga", "Right hemicolectomy: adenocarcinoma, 38 mm, into pericolic fat (pT3).",
         "invasion_depth", "perivisceral fat"),
        ("tcga", "Low anterior resection: adenocarcinoma, invades into but not through the "
         "muscularis propria.", "invasion_depth", "muscularis propria"),
        # The depth of invasion in brackets, over the wall's thickness, or as a depth alone.
        ("tcga", "Glossectomy: SCC, moderately differentiated, DOI [5 mm].", "depth_of_invasion",
         5.0),
        ("tcga", "Radical hysterectomy: SCC of cervix, 31 mm, depth of invasion 11/17 mm.",
         "depth_of_invasion", 11.0),
        ("tcga", "Radical hysterectomy: SCC of cervix, 22 mm, depth of stromal infiltration 6 mm.",
         "depth_of_invasion", 6.0),
        ("tcga", "Cone: SCC, stromal invasion 3 mm in depth and 6 mm wide.", "depth_of_invasion",
         3.0),
        ("tcga", "Stomach, ESD: tubular adenocarcinoma, SM invasion 400 µm (SM1).",
         "depth_of_invasion", 0.4),
        # Parts of the oesophagus after it, in brackets or joined by "+".
        ("histai", "Esophageal biopsies, proximal and distal: eosinophilic esophagitis.",
         "tumor_site", "upper third + lower third"),
        ("histai", "Oesophagus (mid + distal), biopsies: eosinophilic oesophagitis.",
         "tumor_site", "middle third + lower third"),
        # Margins stated free without the word.
        ("reg2025", "Skin, scalp, excision; Basal cell carcinoma, surgical margins without "
         "evidence of tumor", "margin_status", "free"),
        # A suspicion is no diagnosis; entities in other words.
        ("histai", "Prostate biopsy: focus of atypical glands, suspicious but not diagnostic of "
         "carcinoma.", "diagnosis", None),
        ("reg2025", "Colon, polypectomy; Tubular adenoma with focal intramucosal carcinoma",
         "diagnosis", "adenocarcinoma"),
        ("reg2025", "UB, TUR: papillary UC, non-invasive, low grade", "diagnosis",
         "urothelial carcinoma"),
        ("reg2025", "Skin, left thigh, punch biopsy; Benign fibrous histiocytoma", "diagnosis",
         "dermatofibroma"),
        # A count in brackets after the statement of metastasis; a biopsy's edges are margins.
        ("histai", "Axillary dissection: 9 lymph nodes; metastatic carcinoma not seen (0 out of "
         "9).", "lymph_node_involvement", "0/9"),
        ("histai", "Skin, nose, shave: BCC. Tumour present at the lateral and deep biopsy edges.",
         "margin_status", "positive"),
        # A REG margin statement in other words names no benign entity beside the tumour.
        ("reg2025", "Skin, back, excision; Basal cell carcinoma, nodular type. The surgical "
         "margins are negative for tumor.", "findings", "basal cell carcinoma"),
        # HistAI states no malignancy in other words.
        ("histai", "Cervix, punch biopsy: LSIL (CIN 1); negative for invasion.",
         "malignancy_status", "absent"),
        # Shorthand: colon parts by initials, a liver tumour and an operation by their letters.
        ("histai", "Colon, polypectomy x2 (T-colon 1, D-colon 1): tubular adenomas.",
         "tumor_site", "transverse colon + descending colon"),
        ("tcga", "Liver, segmentectomy: iCCA, mass-forming, 42 mm.", "diagnosis",
         "cholangiocarcinoma"),
        ("tcga", "Liver, LLS: hepatocellular carcinoma, 25 mm.", "laterality", "left"),
        # A tumour of two lineages is an entity of its own.
        ("tcga", "Hepatectomy: combined hepatocellular-cholangiocarcinoma, 6 cm.", "diagnosis",
         "combined hepatocellular-cholangiocarcinoma"),
        # The degree after the inflammation's name.
        ("histai", "Antral biopsies: chronic gastritis, moderate, active. H. pylori present.",
         "inflammation_severity", "moderate"),
        # An entity only the skin or the brain has names its organ; a node named is examined.
        ("histai", "L shin, punch biopsy: spongiotic dermatitis.", "organ_site", "skin"),
        ("histai", "Right nasal ala, shave: nodular basal cell carcinoma.", "organ_site", "skin"),
        ("tcga", "Right temporal tumour, resection: glioblastoma, IDH-wildtype.", "organ_site",
         "brain"),
        ("histai", "Core biopsy of right axillary node: classic Hodgkin lymphoma.", "organ_site",
         "lymph node"),
        ("tcga", "Right heel WLE: acral lentiginous melanoma, Breslow 1.9 mm.", "organ_site",
         "skin"),
    ],
)  # fmt: skip
def test_readings(dataset: str, text: str, field: str, value: object) -> None:
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field"),
    [
        # A structure not invaded says nothing of the carcinoma's own invasion.
        ("tcga", "Nephrectomy: clear cell RCC, 45 mm; renal sinus fat and perinephric fat not "
         "invaded.", "invasion_status"),
        # A negated layer invades nothing.
        ("tcga", "Cystectomy: urothelial carcinoma in situ. No perivesical fat invasion.",
         "invasion_depth"),
        # "Gastritis, mild atrophy": the degree of the atrophy, not of the gastritis.
        ("histai", "Corpus biopsies: chronic gastritis, mild atrophy.", "inflammation_severity"),
    ],
)  # fmt: skip
def test_look_alikes_read_nothing(dataset: str, text: str, field: str) -> None:
    assert extract(text, dataset).get(field) is None


def test_organs_named_only_where_the_entity_or_the_specimen_names_them() -> None:
    # A TCGA resection's nodes are no organ of it.
    assert (
        extract("Radical cystectomy: urothelial carcinoma. Lymph nodes 0/14.", "tcga").get(
            "organ_site"
        )
        == "bladder"
    )
    # An omental "metastatic deposit" is spread of the ovarian tumour, not a resected metastasis.
    assert (
        extract(
            "BSO and omentectomy: HGSC of the right ovary, 8 cm. Omentum: metastatic deposit, "
            "20 mm.",
            "tcga",
        ).get("primary_vs_metastatic")
        is None
    )
    # A melanoma may be a node's metastasis: it names no skin.
    assert "skin" not in str(
        extract("Axillary dissection: metastatic melanoma.", "histai").get("organ_site")
    )


def test_a_margin_distance_stated_only_as_a_measurement_is_not_missed() -> None:
    from pathreport.evaluation.crqs import score_pair

    reference = "Wide excision, thigh: myxofibrosarcoma, 64 mm. Margins negative, closest 7 mm."
    rewrite = "Thigh, wide excision: myxofibrosarcoma, 64 mm; margins free (nearest at [7 mm])."
    assert extract(reference, "tcga").get("margin_distance") == 0.7
    assert extract(rewrite, "tcga").get("margin_distance") is None  # a measurement only
    assert "margin_distance" not in score_pair(reference, rewrite, "tcga").missed
    changed = "Thigh, wide excision: myxofibrosarcoma, 64 mm; margins free (nearest at [2 mm])."
    assert "margin_distance" in score_pair(reference, changed, "tcga").missed
