"""Node counts in other notations, coded histology, and typing slips.

Synoptic reports give the involved and the examined nodes on separate labelled lines; others
write the count in words ("one of eighteen") or give each side or station its own count, which
add up to the report's total. Japanese reports code the histology ("tub1 > tub2"); reports
translated from Russian call a margin a "resection line". Typed and dictated reports contain
slips ("adenocarinoma", "perinueral"), which are read as the word meant when exactly one
vocabulary word is one slip away and the slip is not a prefix or an inflection.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair
from pathreport.evaluation.crqs.spelling import TypoReader


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # CAP synoptic counts on labelled lines, either order.
        ("tcga", "Lobectomy:\n+ Regional Lymph Nodes: Number examined: 14; Number involved: 2 "
         "(station 10R)\npT2a pN1", "lymph_node_involvement", "2/14"),
        ("tcga", "Colectomy:\n+ Regional lymph nodes: number involved: 0; number examined: 19",
         "lymph_node_involvement", "0/19"),
        ("histai", "Nodes - Number of lymph nodes examined: 11. Number of lymph nodes involved: 1.",
         "lymph_node_involvement", "1/11"),
        # Counts in words.
        ("tcga", "Neck dissection: metastatic carcinoma; lymph nodes: two of fourteen positive.",
         "lymph_node_involvement", "2/14"),
        ("tcga", "Pelvic lymph nodes: none of nine involved.", "lymph_node_involvement", "0/9"),
        ("tcga", "Lymph nodes: four of twenty-three with metastasis.", "lymph_node_involvement",
         "4/23"),
        # Each side's or station's count adds to the total.
        ("tcga", "Laryngectomy. Right neck LN 2/21, one with ENE; left neck 0/17.",
         "lymph_node_involvement", "2/38"),
        ("tcga", "Lymph nodes: left side 1/9 (no extranodal extension), right side 0/11.",
         "lymph_node_involvement", "1/20"),
        ("tcga", "Lymph nodes: station 11L 1/4, station 10L 0/3, mediastinal (4L, 7) 0/8.",
         "lymph_node_involvement", "1/15"),
        ("tcga", "Right neck (levels II-IV): 0/14; left neck (levels II-III): 0/9.",
         "lymph_node_involvement", "0/23"),
        ("tcga", "Lymph nodes: right pelvic 3/12; left pelvic nodes, eight, all negative.",
         "lymph_node_involvement", "3/20"),
        # A stated total with its breakdown stays the total.
        ("tcga", "Lymph nodes 3/20: right pelvic 3/12, left pelvic 0/8.",
         "lymph_node_involvement", "3/20"),
        # A (micro)metastasis "in" a count.
        ("tcga", "Sentinel lymph nodes: micrometastasis (0.6 mm, subcapsular) in 1/3.",
         "lymph_node_involvement", "1/3"),
        # Tumour deposits counted.
        ("tcga", "Anterior resection: adenocarcinoma, pT3. Three tumour deposits in the "
         "mesorectum.", "tumor_deposit_count", "3"),
        ("tcga", "Tumour deposits: two, in pericolic fat.", "tumor_deposit_count", "2"),
        # Ten or more foci (the pattern's "1\d").
        ("tcga", "Papillary microcarcinoma, multifocal, 11 foci.", "tumor_focus_count", "11"),
        # Adenomas counted after a comma.
        ("histai", "Conclusion: Tubular adenomas, four, largest 0.9 cm, low-grade dysplasia.",
         "polyp_count", "4"),
        # Japanese histology codes.
        ("tcga", "Distal gastrectomy: adenocarcinoma, tub2 > por2, pT2.", "differentiation",
         "moderate + poor"),
        ("reg2025", "Rectum, ESD;\n  Adenocarcinoma in adenoma, tub1, pT1a", "differentiation",
         "well"),
        # A resection line is a margin.
        ("tcga", "Gastrectomy: signet ring cell carcinoma. Proximal and distal resection lines "
         "without tumour growth.", "margin_status", "negative"),
        ("reg2025", "Colon, polypectomy;\n  Tubular adenoma\n  Note) Resection line (stalk) free "
         "of tumour.", "margin_status", "free"),
        # Organisms "like" H. pylori, with their status after them.
        ("reg2025", "Stomach, antrum, biopsy;\n  Chronic gastritis, Helicobacter pylori-like "
         "organisms absent.", "helicobacter_pylori", "absent"),
        ("tcga", "Gastric biopsy: chronic active gastritis; H. pylori-like organisms (+).",
         "hpylori_status", "present"),
        # Receptors named in full before their share of stained nuclei.
        ("tcga", "Breast: invasive carcinoma. Oestrogen receptor 80%, progesterone receptor 0%.",
         "er_status", "positive"),
        ("tcga", "Breast: invasive carcinoma. Oestrogen receptor 80%, progesterone receptor 0%.",
         "pr_status", "negative"),
        # The lung's two high-grade neuroendocrine carcinomas are different types.
        ("histai", "Conclusion: small cell carcinoma of the lung.", "histologic_type",
         "small cell"),
        ("tcga", "Lobectomy: large cell neuroendocrine carcinoma, 3 cm.", "histologic_type",
         "large cell neuroendocrine"),
        # Gestational trophoblastic disease.
        ("histai", "Conclusion: partial hydatidiform mole.", "diagnosis",
         "partial hydatidiform mole"),
        # The gastric corpus is the body.
        ("tcga", "Gastrectomy: adenocarcinoma of the gastric corpus, 4 cm.", "tumor_site", "body"),
        # A side after the procedure names the organ's side.
        ("tcga", "Specimen: radical nephrectomy, right. Clear cell renal cell carcinoma.",
         "lateral_sites", "right kidney"),
        ("tcga", "Mastectomy (left): invasive lobular carcinoma.", "lateral_sites",
         "left breast"),
        # Invasion stated of an adenoma (REG).
        ("reg2025", "Colon, sigmoid, polypectomy;\n  Tubular adenoma, low grade dysplasia\n  "
         "Note) Invasive growth not found.", "stromal_invasion", "absent"),
        ("reg2025", "Colon, sigmoid, polypectomy;\n  Tubular adenoma, low grade dysplasia\n  "
         "Note) No signs of invasion.", "stromal_invasion", "absent"),
        # A count of cores in words; a count with its status after the nodes.
        ("reg2025", "Prostate, needle biopsy;\n  Acinar adenocarcinoma in five of the twelve cores",
         "tumor_extent", "5/12"),
        ("tcga", "Axillary dissection: two lymph nodes, one positive for metastatic carcinoma.",
         "lymph_node_involvement", "1/2"),
        # No involved node, stated with the finding's word.
        ("tcga", "Lobectomy: adenocarcinoma. 0 of 9 lymph nodes with metastasis. KRAS mutated.",
         "metastatic_involvement", "absent"),
        # A margin free of what is named before it; MMR with a hyphen.
        ("reg2025", "Colon, polypectomy;\n  Tubular adenoma\n  Note) Neoplasia-free resection "
         "margin.", "margin_status", "free"),
        ("reg2025", "Colon, biopsy;\n  Adenocarcinoma\n  Note) Mismatch-repair proteins (MLH1, "
         "PMS2, MSH2, MSH6) retained.", "mmr_msi_status", "proficient"),
        # Normal mucosa in other words; the microscopic colitides by type.
        ("histai", "Conclusion: unremarkable gastric mucosa.", "diagnosis", "normal mucosa"),
        ("histai", "Conclusion: microscopic colitis, lymphocytic type.", "diagnosis",
         "lymphocytic colitis"),
        # Slips in long words.
        ("reg2025", "Prostate, needle biopsy;\n  Acinar adenocarinoma, Gleason score 3+3=6",
         "diagnosis", "adenocarcinoma"),
        ("reg2025", "Prostate, needle biopsy;\n  Adenocarcinoma, Gleason 3+4=7. Perinueral "
         "invasion identified.", "perineural_invasion", "present"),
        ("tcga", "Laryngectomy: keratinzing squamous cell carcinoma.", "histologic_type",
         "keratinizing"),
    ],
)  # fmt: skip
def test_counts_codes_and_slips_are_read(dataset, text, field, value):
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "absent_value"),
    [
        # A non-small cell carcinoma is no small cell type.
        ("tcga", "Lung biopsy: non-small cell carcinoma, favour adenocarcinoma.",
         "histologic_type", "small cell"),
        ("reg2025", "Lymph node, EBUS FNA;\n  Metastatic non-small cell carcinoma",
         "histologic_type", "small cell"),
        # A count of cores in words is no node count; a metastasis in cores is none either.
        ("tcga", "Liver biopsy: metastatic adenocarcinoma in 2/3 cores.",
         "lymph_node_involvement", "2/3"),
        # Two involved numbers make no count.
        ("tcga", "Number involved: 1; number positive: 1.", "lymph_node_involvement", "1/1"),
        # A biphasic pleomorphic adenoma has no biphasic subtype.
        ("histai", "Microscopy: biphasic tumour of ductal and myoepithelial cells. Conclusion: "
         "pleomorphic adenoma.", "histologic_type", "biphasic"),
        # A slip is read by the patterns too: the negated high grade belongs to dysplasia.
        ("reg2025", "Colon, polypectomy;\n  Tubular adenoma, low grade dysplasia. Negative for "
         "high grade dysplaisa.", "tumor_grade", "high"),
        # A prefix and an inflection are no slips.
        ("histai", "Acellular mucin pools; no carcinoma.", "diagnosis", "cellular"),
    ],
)  # fmt: skip
def test_look_alikes_are_not_read_as_counts_or_slips(dataset, text, field, absent_value):
    assert extract(text, dataset).get(field) != absent_value


def test_the_typo_reader_reads_one_slip_inside_a_long_word_and_nothing_else():
    reader = TypoReader(["carcinoma", "perineural", "infection", "anterior", "cellular"])
    assert reader.read("carcinma") == "carcinoma"  # a letter left out
    assert reader.read("carcinnoma") == "carcinoma"  # a letter typed twice
    assert reader.read("perinueral") == "perineural"  # two neighbours swapped
    assert reader.read("injection") is None  # a letter in place of another
    assert reader.read("interior") is None  # a short target
    assert reader.read("acellular") is None  # a prefix
    assert reader.read("carcinomas") is None  # an inflection
    assert reader.read("xarcinoma") is None  # the first letter


def test_a_word_one_slip_from_two_vocabulary_words_is_left_as_it_is():
    reader = TypoReader(["neoplasia", "neoplasma"])
    assert reader.read("neoplasa") is None


def test_a_changed_count_in_a_synoptic_node_line_is_discordant():
    reference = (
        "Stomach, distal gastrectomy:\n+ Histologic Type: Adenocarcinoma\n+ Regional Lymph "
        "Nodes: Number examined: 24; Number involved: 3\npT3 pN2"
    )
    rewrite = "Distal gastrectomy. Adenocarcinoma invading the subserosa; three of twenty-four "
    rewrite += "lymph nodes involved. pT3 pN2."
    wrong = reference.replace("Number involved: 3", "Number involved: 9")
    assert "lymph_node_involvement" in score_pair(reference, wrong, "tcga").discordant
    assert "lymph_node_involvement" not in score_pair(reference, rewrite, "tcga").discordant


def test_a_changed_number_of_tumour_deposits_is_discordant_and_an_uncounted_one_is_not():
    reference = "Sigmoid colectomy: adenocarcinoma, pT3 pN1c. Two tumour deposits. LN 0/14."
    uncounted = "Sigmoid colectomy: adenocarcinoma with tumour deposits, pT3 pN1c; 0/14 nodes."
    wrong = reference.replace("Two tumour deposits", "Five tumour deposits")
    assert "tumor_deposit_count" not in score_pair(reference, uncounted, "tcga").missed
    assert "tumor_deposit_count" in score_pair(reference, wrong, "tcga").discordant


def test_a_slip_in_the_reference_no_longer_hides_a_wrong_side():
    reference = "Prostate, left base, needle biopsy;\n  Acinar adenocarinoma, Gleason 3+4=7"
    rewrite = "Prostate, left base, core biopsy;\n  Acinar adenocarcinoma, Gleason score 7 (3+4)"
    wrong = reference.replace("left base", "right base")
    assert score_pair(reference, rewrite, "reg2025").CRQS > 0.99
    assert (
        score_pair(reference, rewrite, "reg2025").CRQS
        > score_pair(reference, wrong, "reg2025").CRQS
    )
