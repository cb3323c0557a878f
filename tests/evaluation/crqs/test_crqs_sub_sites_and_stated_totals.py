"""Wordings of the 49th schema versions: sub-sites that change management (Couinaud segments
listed after a plural, the ampulla of Vater, the appendiceal tip and base), node totals stated
after their groups in words, and other phrasings that read differently from their
equivalents."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # A total after its groups, in words, is the count; the groups are its parts.
        (
            "tcga",
            "Lobectomy: SCC. Nodes: station 11i (1 of 2) and 12l (1 of 3) positive, remaining"
            " 15 negative - two of twenty in total. pT2b N1.",
            "lymph_node_involvement",
            "2/20",
        ),
        # A margin distance after a bronchial stump.
        ("tcga", "Lobectomy: SCC. Bronchial stump clear at 1.2 cm.", "margin_distance", 1.2),
        # Couinaud segments listed after the plural, in Arabic or Roman numerals.
        (
            "tcga",
            "Liver, segments 2 and 3, partial hepatectomy: cholangiocarcinoma.",
            "tumor_site",
            "liver segment 2 + liver segment 3",
        ),
        (
            "histai",
            "Resection of segments VII/VIII: hepatocellular carcinoma.",
            "tumor_site",
            "liver segment 7 + liver segment 8",
        ),
        # The ampulla of Vater is a site of its own in the duodenum; the bulb is the duodenum's.
        (
            "histai",
            "Biopsies of the papilla of Vater: tubular adenoma, low-grade dysplasia.",
            "tumor_site",
            "ampulla of vater",
        ),
        ("tcga", "Duodenum, bulb, biopsies: tubular adenoma.", "tumor_site", "duodenum"),
        # Where in the appendix a tumour lies, but not the base named as a margin.
        (
            "histai",
            "Appendix, appendectomy: neuroendocrine tumor, 0.8 cm, located at the tip.",
            "tumor_site",
            "appendiceal tip",
        ),
        (
            "tcga",
            "Appendix: carcinoid tumour at the base of the appendix, 9 mm.",
            "tumor_site",
            "appendiceal base",
        ),
        # The stomach's part after a label, in a gastrectomy report.
        (
            "tcga",
            "Stomach, total gastrectomy.\nAdenocarcinoma, diffuse type.\nLocation: body, lesser"
            " curvature. Size 60 mm.",
            "tumor_site",
            "body + lesser curvature",
        ),
        # The N category after a pathologic T category states the nodal status.
        ("tcga", "Adenocarcinoma. pT2 N1.", "lymph_node_involvement", "present"),
        ("tcga", "Adenocarcinoma. pT3N0.", "lymph_node_involvement", "absent"),
        # "not yet" denies: bridging fibrosis that is not yet cirrhosis.
        (
            "reg2025",
            "Liver: bridging fibrosis (METAVIR F3), not yet cirrhosis.",
            "cirrhosis",
            "absent",
        ),
        # Submucosal invasion measured in micrometres after the layer.
        (
            "histai",
            "ESD: tubular adenocarcinoma invading submucosa 300 micrometres from muscularis"
            " mucosae (SM1).",
            "depth_of_invasion",
            0.3,
        ),
        # The vertical (deep) and lateral margins of an endoscopic resection.
        (
            "tcga",
            "ESD, antrum: tubular adenocarcinoma. En bloc, negative lateral and vertical margins.",
            "margin_status",
            "negative",
        ),
        # The differentiation named as the grade.
        (
            "histai",
            "Stomach: tubular adenocarcinoma, grade moderate, 40 mm.",
            "differentiation",
            "moderate",
        ),
        # An eosinophil count is no mitotic rate, and its "count" names it.
        (
            "reg2025",
            "Esophagus, biopsy; eosinophilic esophagitis. Peak eosinophil count 45/HPF.",
            "eosinophils_per_hpf",
            45.0,
        ),
        # Ovarian surfaces in the plural, and the chemotherapy response score.
        (
            "tcga",
            "HGSC, both ovaries; ovarian surfaces involved.",
            "ovarian_surface_involvement",
            "present",
        ),
        (
            "tcga",
            "HGSC after neoadjuvant chemotherapy. CRS 2 of 3.",
            "tumor_regression_grade",
            "crs 2",
        ),
        # "PTB" is pulmonary tuberculosis beside its granulomas.
        (
            "reg2025",
            "Lung core: caseating granulomas with AFB. Findings c/w PTB.",
            "diagnosis",
            "tuberculosis",
        ),
        # A protein loss named with "protein" between the markers and the loss.
        (
            "tcga",
            "Endometrioid carcinoma. MLH1/PMS2 protein loss on IHC.",
            "mmr_proteins_lost",
            "mlh1 + pms2",
        ),
        # A transected margin named by its clock position.
        (
            "histai",
            "Nodular BCC. The tumour is transected at the 3:00 lateral edge.",
            "margin_status",
            "positive",
        ),
        # The buccal mucosa named by its adjective.
        (
            "histai",
            "L buccal WLE: well-differentiated keratinising SCC.",
            "tumor_site",
            "buccal mucosa",
        ),
        # Chronic inflammation beside "no malignancy" names the inflammation.
        (
            "reg2025",
            "Gastric antral mucosa with moderate chronic inflammation; no dysplasia or malignancy.",
            "findings",
            "chronic inflammation",
        ),
        # Margins called resection lines, with "tumour growth ... not found".
        (
            "reg2025",
            "Skin, excision; BCC. Tumour growth in resection lines not found, closest line 2 mm.",
            "margin_status",
            "free",
        ),
        (
            "tcga",
            "BCC. Tumour growth in lateral resection line found.",
            "margin_status",
            "positive",
        ),
        # Metastases not found in the nodes counted: none of them.
        (
            "tcga",
            "Carcinoma. Lymph nodes: metastases not found in 12 lymph nodes.",
            "lymph_node_involvement",
            "0/12",
        ),
        # Each sample's peak eosinophil count.
        (
            "histai",
            "Oesophagus: intraepithelial eosinophils up to 45 per HPF (No. 2) and up to 30 per HPF"
            " (No. 1).",
            "eosinophils_per_hpf",
            "30.0 + 45.0",
        ),
        (
            "reg2025",
            "Oesophagus: EoE. Peak intraepithelial eosinophils: 45/HPF.",
            "eosinophils_per_hpf",
            45.0,
        ),
        # Side letters after node counts, and a single node among those examined.
        ("tcga", "Laryngectomy. Neck nodes: 0/18 R, 0/15 L.", "lymph_node_involvement", "0/33"),
        (
            "tcga",
            "Laryngectomy: SCC. Single metastatic node (left level III, 22 mm) among 34 examined.",
            "lymph_node_involvement",
            "1/34",
        ),
        # A station named before the group's adjective.
        (
            "tcga",
            "Hilar nodes negative (zero of three); one of four station 7 subcarinal nodes is"
            " positive.",
            "lymph_node_involvement",
            "1/7",
        ),
        # A layer invaded makes the tumour invasive beside its in situ component.
        (
            "tcga",
            "Cystectomy: high grade urothelial carcinoma invading perivesical fat. Carcinoma"
            " in situ in adjacent mucosa.",
            "in_situ_vs_invasive",
            "invasive",
        ),
        (
            "reg2025",
            "Lung, core biopsy - NSCLC, favour adeno; TTF1+, p40-.",
            "diagnosis",
            "adenocarcinoma",
        ),
        (
            "histai",
            "Necrotising granuloma; GMS shows yeasts in keeping with Histoplasma capsulatum.",
            "diagnosis",
            "histoplasmosis",
        ),
        # Organisms denied with "consistent with" between the cue and their name.
        (
            "histai",
            "Antrum. No curved bacilli consistent with Helicobacter pylori are identified.",
            "hpylori_status",
            "absent",
        ),
        # The Japanese depth code with its measure, and the layer after "depth:".
        (
            "reg2025",
            "Stomach, ESD; tubular adenocarcinoma. Depth: submucosa (SM1, 300 um).",
            "depth_of_invasion",
            0.3,
        ),
        (
            "reg2025",
            "Stomach, ESD; adenocarcinoma. Depth: submucosa (SM1).",
            "invasion_depth",
            "submucosa",
        ),
        # Glomeruli counted after their labels.
        (
            "reg2025",
            "Kidney, needle biopsy; IgA nephropathy. Glomeruli: 18, global sclerosis: 3.",
            "global_glomerulosclerosis",
            "3/18",
        ),
        # A capsule penetrated, and an "invasive encapsulated" carcinoma, are no intact capsule.
        (
            "tcga",
            "Invasive encapsulated follicular variant PTC with focal penetration of the tumour"
            " capsule.",
            "capsular_invasion",
            "present",
        ),
        (
            "histai",
            "Pipelle sample: mid-secretory pattern, days 21 to 22.",
            "diagnosis",
            "secretory endometrium",
        ),
        # The clinician's suspicion is no finding.
        (
            "histai",
            "Duodenum, biopsies (suspected coeliac disease): normal mucosa.",
            "findings",
            "normal mucosa",
        ),
        # A stated total beside a breakdown of its positive groups only.
        (
            "tcga",
            "Lymph nodes 3/31; paraesophageal nodes 2/8; left gastric nodes 1/6.",
            "lymph_node_involvement",
            "3/31",
        ),
        # An adenoma's dysplasia named by its grade before it.
        (
            "histai",
            "Low-grade tubular adenoma x 6. Neither high-grade dysplasia nor carcinoma is seen.",
            "dysplasia_grade",
            "low",
        ),
    ],
)
def test_reads_the_wording(dataset: str, text: str, field: str, value: object) -> None:
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field"),
    [
        # The base of the appendix named as its margin is no tumour site.
        (
            "histai",
            "LAMN limited to the appendix; base of appendix (proximal margin) negative.",
            "tumor_site",
        ),
        ("histai", "Acute appendicitis; appendiceal base normal. No tumour seen.", "tumor_site"),
        # Eosinophils per high-power field are no mitoses.
        (
            "histai",
            "Oesophagus: intraepithelial eosinophils, peak count 45 per high-power field.",
            "mitotic_rate",
        ),
        (
            "histai",
            "Oesophagus: intraepithelial eosinophils up to 45 per high-power field.",
            "mitotic_rate",
        ),
        # A dysplasia's grade is no differentiation.
        ("histai", "Adenoma with dysplasia, grade: moderate.", "differentiation"),
        # The markers of a GIST that are negative name no GIST.
        (
            "tcga",
            "Retroperitoneum: leiomyosarcoma; desmin positive, GIST markers CD117/DOG-1 negative.",
            "excluded_entities",
        ),
        # An FNCLCC necrosis score is no nodal stage.
        ("tcga", "UPS, grade 3 by FNCLCC (D3 + M3 + N1 = 7). pT3 NX.", "pn_stage"),
    ],
)
def test_does_not_read(dataset: str, text: str, field: str) -> None:
    assert field not in extract(text, dataset)


@pytest.mark.parametrize(
    ("dataset", "text"),
    [
        (
            "tcga",
            "Retroperitoneum: leiomyosarcoma; desmin positive, GIST markers CD117/DOG-1 negative.",
        ),
        ("reg2025", "Soft tissue: leiomyosarcoma. Desmin, SMA positive, GIST markers negative."),
    ],
)
def test_gist_markers_name_no_gist(dataset: str, text: str) -> None:
    assert "gastrointestinal stromal tumor" not in str(extract(text, dataset).get("findings"))


@pytest.mark.parametrize(
    ("dataset", "text"),
    [
        # A work-up advised leaves tuberculosis open.
        (
            "reg2025",
            "Neck node: granulomatous lymphadenitis; ZN no AFB. TB lymphadenitis needs exclusion.",
        ),
        (
            "histai",
            "Neck node: granulomatous lymphadenitis; ZN no AFB. TB lymphadenitis needs exclusion.",
        ),
    ],
)
def test_an_advised_exclusion_states_no_tuberculosis(dataset: str, text: str) -> None:
    assert extract(text, dataset).get("diagnosis") != "tuberculosis"


@pytest.mark.parametrize(
    ("dataset", "reference", "rewrite", "wrong"),
    [
        (
            "tcga",
            "Liver, segments 2 and 3, partial hepatectomy: intrahepatic cholangiocarcinoma,"
            " 4.8 cm. Parenchymal margin negative (0.6 cm). pT2 pN1.",
            "Left lateral sectionectomy (segments II/III): intrahepatic cholangiocarcinoma, 48 mm;"
            " parenchymal margin clear at 6 mm. pT2 N1.",
            "Liver, segments 7 and 8, partial hepatectomy: intrahepatic cholangiocarcinoma,"
            " 4.8 cm. Parenchymal margin negative (0.6 cm). pT2 pN1.",
        ),
        (
            "histai",
            "Duodenum, ampulla of Vater, endoscopic biopsies: tubular adenoma, low-grade"
            " dysplasia; no high-grade dysplasia.",
            "Three biopsies of the papilla of Vater: tubular adenoma with"
            " low-grade dysplasia, no high-grade dysplasia.",
            "Duodenum, bulb, endoscopic biopsies: tubular adenoma, low-grade dysplasia; no"
            " high-grade dysplasia.",
        ),
    ],
)
def test_the_rewrite_outranks_the_wrong_site(
    dataset: str, reference: str, rewrite: str, wrong: str
) -> None:
    assert score_pair(reference, rewrite, dataset).CRQS > score_pair(reference, wrong, dataset).CRQS
