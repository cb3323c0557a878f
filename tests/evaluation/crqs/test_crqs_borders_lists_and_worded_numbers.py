"""Wordings of the 48th schema versions: margins called borders with their status after a colon,
node groups named with a slash, a verb inside a marker list, the adenoma that has no high-grade
dysplasia, numbers in the hundreds written out, and other phrasings that read differently from
their equivalents."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # A "border" with its status after a colon, and a bracketed name before it, is a margin.
        (
            "histai",
            "CIN 3. Endocervical border: free, lesion at 3 mm.",
            "margin_status",
            "negative",
        ),
        (
            "reg2025",
            "Colon polypectomy: adenocarcinoma. Resection border (stalk): free, neoplasia at 3 mm.",
            "margin_distance",
            0.3,
        ),
        (
            "tcga",
            "Adenocarcinoma. Resection margin: free, tumour at 4 mm.",
            "margin_distance",
            0.4,
        ),
        # Nodes of groups joined by a slash, all negative, are a count.
        (
            "tcga",
            "Lung, lobectomy. Adenocarcinoma. Twelve hilar/mediastinal nodes, all negative.",
            "lymph_node_involvement",
            "0/12",
        ),
        # A group named by its "stations" is added to the other groups.
        (
            "tcga",
            "Lobectomy: SCC; peribronchial nodes 1/4 positive, mediastinal stations 0/9; pN1.",
            "lymph_node_involvement",
            "1/13",
        ),
        # The test's method in brackets before the result.
        ("tcga", "Astrocytoma. 1p/19q (FISH): not codeleted.", "codeletion_1p19q", "not codeleted"),
        ("histai", "Astrocytoma. 1p/19q (FISH): codeleted.", "codeletion_1p19q", "codeleted"),
        # The pleura as a label with its status.
        ("tcga", "Thymoma. Mediastinal pleura: focally invaded.", "pleural_invasion", "present"),
        ("tcga", "Adenocarcinoma. Visceral pleura: not involved.", "pleural_invasion", "absent"),
        # A degree of atypia denied after it is no atypia of that degree.
        (
            "histai",
            "Leiomyoma. Significant cytologic atypia is not seen. Mitoses: 1/10 HPF.",
            "cytologic_atypia",
            "none",
        ),
        (
            "tcga",
            "Leiomyoma. Marked nuclear pleomorphism is absent.",
            "cytologic_atypia",
            "none",
        ),
        # Spread beyond the thyroid is its extension, and it can be denied.
        (
            "tcga",
            "Papillary carcinoma, 24 mm. Angioinvasion absent; no spread beyond the thyroid.",
            "extrathyroidal_extension",
            "absent",
        ),
        # Two kinds of invasion sharing the noun across a slash.
        (
            "histai",
            "Follicular adenoma. No capsular/vascular invasion.",
            "capsular_invasion",
            "absent",
        ),
        (
            "histai",
            "Follicular adenoma. No capsular/vascular invasion.",
            "lymphovascular_invasion",
            "absent",
        ),
        # "Not seen:" before a list with such a pair denies every item.
        (
            "histai",
            "Multinodular goitre. Not seen: capsular/vascular invasion, lymphocytic thyroiditis.",
            "findings",
            "follicular nodular disease",
        ),
        # Barrett-type metaplasia is Barrett oesophagus, and a list's status denies it.
        (
            "histai",
            "Oesophagus biopsies: Fungi, Barrett-type metaplasia and dysplasia absent. Consistent "
            "with EoE.",
            "findings",
            "eosinophilic esophagitis",
        ),
        # "No SIL" denies the squamous intraepithelial lesion.
        ("histai", "Chronic cervicitis. No SIL, no malignancy.", "dysplasia_grade", "absent"),
        # Sizes written out in the hundreds.
        (
            "tcga",
            "Undifferentiated pleomorphic sarcoma, measuring one hundred and ten millimetres.",
            "tumor_size",
            11.0,
        ),
        (
            "tcga",
            "Liposarcoma, measuring a hundred and twenty-five mm.",
            "tumor_size",
            12.5,
        ),
        # Initials of squamous cell carcinomas.
        (
            "reg2025",
            "Right cheek skin excision - cSCC, G2.",
            "diagnosis",
            "squamous cell carcinoma",
        ),
        (
            "histai",
            "Right tonsil biopsy: NKSCC of the right tonsil.",
            "histologic_type",
            "non-keratinizing",
        ),
        # Pseudoepitheliomatous hyperplasia of the skin is no endometrial hyperplasia.
        (
            "histai",
            "Skin punch: pseudoepitheliomatous hyperplasia without atypia. Conclusion: cutaneous "
            "leishmaniasis.",
            "findings",
            "leishmaniasis",
        ),
        # The fat beyond the muscle named twice, once as the subserosa.
        (
            "tcga",
            "Adenocarcinoma invades through the muscularis propria into pericolorectal "
            "(subserosal) adipose tissue.",
            "invasion_depth",
            "subserosa",
        ),
        (
            "histai",
            "Adenocarcinoma invading through the muscularis propria into the subserosal "
            "(pericolic) fat.",
            "invasion_depth",
            "subserosa",
        ),
        # The muscle coat reached is the muscularis propria; crossed, it is not the deepest layer.
        (
            "tcga",
            "Sigmoid resection: adenocarcinoma confined to the muscle coat.",
            "invasion_depth",
            "muscularis propria",
        ),
        (
            "tcga",
            "Oesophagectomy: carcinoma penetrating beyond the muscle coat into the adventitia.",
            "invasion_depth",
            "perivisceral fat",
        ),
        # The bowel's ends are its resection margins.
        (
            "tcga",
            "Sigmoid colectomy: adenocarcinoma. Bowel ends tumour-free at 6 cm and 4 cm.",
            "margin_status",
            "negative",
        ),
        # A verb left out of the second of two statements.
        (
            "tcga",
            "Keratinising SCC. Perineural invasion identified, lymphovascular invasion not.",
            "lymphovascular_invasion",
            "absent",
        ),
        # Entities named by the type of a process.
        (
            "histai",
            "Liver core: autoimmune-type chronic hepatitis, moderately active.",
            "diagnosis",
            "autoimmune hepatitis",
        ),
        (
            "histai",
            "Terminal ileum: Crohn's-type chronic active ileitis with a non-caseating granuloma.",
            "diagnosis",
            "crohn disease",
        ),
        # The type after its carcinoma, after a spaced dash.
        (
            "reg2025",
            "Endometrial sampling - adenocarcinoma of endometrioid type, FIGO grade 2 of 3.",
            "diagnosis",
            "endometrioid carcinoma",
        ),
        # A tumour that transects the base and the edges reaches the margins.
        (
            "reg2025",
            "Shave biopsy, skin of nose: BCC; tumour transects the base and the lateral edges.",
            "margin_status",
            "involved",
        ),
        # Colon segments named by their adjectives alone in a list of segments.
        (
            "histai",
            "Six colonic biopsies (terminal ileum, ascending, transverse, descending, sigmoid, "
            "rectum): chronic active colitis.",
            "tumor_site",
            "ascending colon + transverse colon + descending colon + sigmoid colon + rectum + "
            "terminal ileum",
        ),
        ("histai", "Duodenum, descending, biopsy: normal.", "tumor_site", None),
        # A vocabulary phrase does not run across a line: "positive" ends one bullet and
        # "margins free" is the next.
        (
            "reg2025",
            "Small intestine, jejunum, segmental resection;\nGIST, spindle cell type, 4 cm\n- "
            "CD117 and DOG1 positive\n- margins free",
            "margin_status",
            "free",
        ),
        # Margins free of the lesion, written as one word.
        (
            "reg2025",
            "Skin, nasal ala, exeresis;\nBasal cell carcinoma, nodular type.\nMargins: lateral "
            "lesion-free (4 mm); deep lesion-free (2 mm).",
            "margin_status",
            "free",
        ),
        # "Negligible" denies what it follows.
        (
            "reg2025",
            "Liver, needle biopsy;\nChronic hepatitis B, A2 F2; steatosis negligible.",
            "steatosis",
            "absent",
        ),
        # A station named between the count and its nodes.
        (
            "tcga",
            "Lobectomy: SCC. Two of three station 10L (hilar) nodes contain metastatic carcinoma; "
            "nine mediastinal nodes from stations 5, 7 and 9L are negative.",
            "lymph_node_involvement",
            "2/12",
        ),
        # A structure with its status after it, the invader understood.
        (
            "tcga",
            "Radical nephrectomy: clear cell RCC. Extension: perinephric adipose tissue invaded; "
            "renal sinus not involved; renal vein not involved.",
            "organ_specific_invasion",
            "present",
        ),
        (
            "tcga",
            "Radical nephrectomy: clear cell RCC. Extension: perinephric adipose tissue invaded; "
            "renal sinus not involved; renal vein not involved.",
            "organ_involvement",
            "perinephric fat",
        ),
        # The Japanese codes: "pn1" before the lymphatic code is perineural invasion, and a
        # gastric carcinoma's third and wall are no side.
        (
            "tcga",
            "Prostate, radical prostatectomy.\nAdenocarcinoma, Gleason score 4+5=9.\npn1, ly0, v0.",
            "perineural_invasion",
            "present",
        ),
        (
            "tcga",
            "Stomach, distal gastrectomy.\nGastric cancer, L, Less, Type 3, 45x38 mm.",
            "tumor_site",
            "lower third + lesser curvature",
        ),
        (
            "tcga",
            "Stomach, distal gastrectomy.\nGastric cancer, L, Less, Type 3, 45x38 mm.",
            "laterality",
            None,
        ),
        # The Mandard grade named after its number.
        (
            "tcga",
            "Oesophagectomy. Response: TRG3 according to Mandard.",
            "tumor_regression_grade",
            "mandard 3",
        ),
    ],
)
def test_wording_is_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize("dataset", ["reg2025", "histai"])
@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # An adenoma is dysplastic: without high-grade dysplasia, its dysplasia is low grade.
        (
            "Colon, polypectomy:\n- tubular adenoma, 0.9 cm.\n- negative for high-grade dysplasia.",
            "low",
        ),
        ("Colon polyp: tubular adenoma. High-grade dysplasia: not identified.", "low"),
        ("Colon polyp: tubular adenoma, no HGD.", "low"),
        ("Colon polyp: tubular adenoma (low-grade dysplasia only).", "low"),
        ("Colon polyp: tubular adenoma, positive for high-grade dysplasia.", "high"),
        # A sessile serrated adenoma need not be dysplastic, nor Barrett mucosa.
        ("Colon polyp: sessile serrated adenoma, no high-grade dysplasia.", "absent"),
        ("Barrett oesophagus, negative for high-grade dysplasia.", "absent"),
    ],
)
def test_adenoma_without_high_grade_dysplasia_is_low_grade(dataset, text, grade):
    assert extract(text, dataset).get("dysplasia_grade") == grade


@pytest.mark.parametrize("dataset", ["reg2025", "tcga", "histai"])
def test_a_verb_ends_the_list_a_status_closes(dataset):
    """In "express CK20 and CDX2 and are CK7 negative" only CK7 is negative: "are" opens a clause
    of its own, whose status is its marker's."""
    text = (
        "Liver, core biopsy: metastatic adenocarcinoma; tumour cells express CK20 and CDX2 and "
        "are CK7 negative."
    )
    markers = set(extract(text, dataset)["ihc_markers"].split(" + "))
    assert markers == {"ck20", "cdx2", "ck7 negative"}
    listed = extract("Liver, core biopsy: adenocarcinoma; CK20 and CDX2 are negative.", dataset)
    assert set(listed["ihc_markers"].split(" + ")) == {"ck20 negative", "cdx2 negative"}


def test_rewrite_with_borders_ranks_above_an_involved_margin():
    """The border's status and distance read as the rewrite's clear margin does, and an involved
    border stays an involved margin."""
    reference = (
        "Colon, sigmoid, endoscopic polypectomy:\nAdenocarcinoma well differentiated arising "
        "in tubular adenoma, infiltrating the submucosa of the stalk.\nResection border (stalk): "
        "free, neoplasia at 3 mm."
    )
    rewrite = (
        "Pedunculated sigmoid colon polyp, snared: well differentiated adenocarcinoma in a "
        "tubular adenoma, invading the submucosa of the stalk. Stalk margin clear by 3 mm."
    )
    wrong = reference.replace("free, neoplasia at 3 mm", "compromised by neoplasia")
    assert (
        score_pair(reference, rewrite, "reg2025").CRQS
        > score_pair(reference, wrong, "reg2025").CRQS
    )
