"""Readings that make a clinically equivalent rewrite extract as its reference does: sizes in
brackets or after a procedure heading, sides after the part, margins listed before their status,
subtypes after their entity or with their other name, sides in brackets or as initials,
invasion of a structure, and thirds of an epithelium.

Each pair is written here for the test: the first wording is how one pathologist states the
fact, the second how another does, and both must give the same value. The look-alikes guard the
rules against reading too much.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract


@pytest.mark.parametrize(
    ("dataset", "field", "first", "second"),
    [
        # Tumour sizes.
        ("tcga", "tumor_size", "Breast, lumpectomy: invasive carcinoma NST, 18 mm.",
         "Right breast, lumpectomy: 1. Invasive carcinoma NST. 2. Tumour size [18 mm]."),
        ("tcga", "tumor_size", "Seminoma, 3.2 cm, confined to the testis.",
         "Seminoma measuring [32 mm], limited to the testicle."),
        ("tcga", "tumor_size", "Lung, lobectomy: typical carcinoid, 1.8 cm.",
         "Lobectomy LUL (left upper lobe): typical carcinoid, 18 mm, no necrosis."),
        ("tcga", "tumor_size", "Stomach: adenocarcinoma of the antrum, 5.0 cm.",
         "Distal gastrectomy: adenoCa of antrum, Lauren intestinal type, 50 mm, into subserosa."),
        ("histai", "tumor_size", "Colon, polypectomy: tubular adenoma, 1.2 cm.",
         "Colonic polypectomy: tubular adenoma of 1.2 cm with low-grade dysplasia."),
        ("histai", "tumor_size", "Colon, polypectomy: tubular adenoma, 0.8 cm.",
         "Descending colon, polypectomy; Tubular adenoma. Polyp diameter: 0.8 cm"),
        ("tcga", "tumor_size", "Esophagectomy: squamous cell carcinoma, 4.0 cm, into adventitia.",
         "Oesophagectomy: squamous cell carcinoma, mid-oesophagus, 40 mm, into the adventitia."),
        # Sides written after the part or the operation.
        ("tcga", "lateral_sites", "Left mastectomy: invasive lobular carcinoma, 31 mm.",
         "Mastectomy left: invasive lobular carcinoma of 31 mm."),
        ("histai", "lateral_sites", "Skin, left shoulder, excision: compound naevus.",
         "Skin of shoulder left, excision: naevus, compound."),
        ("tcga", "lateral_sites", "Left nephroureterectomy: urothelial carcinoma.",
         "Nephroureterectomia left: urothelial carcinoma."),
        ("histai", "lateral_sites", "Left hemithyroidectomy: papillary microcarcinoma.",
         "Left lobo-isthmectomy: papillary microcarcinoma."),
        # Margins listed before their status, or written as limits.
        ("tcga", "margin_status", "Margins negative.",
         "Margins proximal, distal and omental free."),
        ("tcga", "margin_status", "Bronchial and vascular margins negative.",
         "Limits of bronchial and vascular section healthy."),
        ("histai", "margin_status", "Skin, excision: SCC; margins clear.",
         "Skin, excision: SCC, with all surgical margins showing no tumor."),
        ("histai", "margin_status", "Polypectomy: tubular adenoma, completely excised.",
         "Polypectomy: tubular adenoma, removed completely."),
        # A subtype after its entity.
        ("histai", "histologic_type", "Skin, nose, excision: nodular basal cell carcinoma.",
         "Skin, nose, excision; BCC, nodular"),
        ("tcga", "histologic_type", "Thyroidectomy: papillary carcinoma, classic type, 22 mm.",
         "Thyroidectomy: papillary carcinoma of classic form, 22 mm."),
        ("tcga", "histologic_type", "Lung biopsy: adenocarcinoma, solid type.",
         "Lung biopsy: adenocarcinoma with solid growth pattern."),
        # Layers and structures.
        ("tcga", "invasion_depth", "Colectomy: adenocarcinoma penetrating the visceral "
         "peritoneum.", "Colectomy: adenocarcinoma, visceral peritoneum penetrated."),
        # Sites.
        ("reg2025", "tumor_site", "Stomach, body, endoscopic biopsy; chronic gastritis",
         "Stomach, corpus, endoscopic biopsy; chronic gastritis"),
        ("tcga", "tumor_site", "Left lower lobe, lobectomy: adenocarcinoma.",
         "Lobectomy inferior left: adenocarcinoma."),
        ("histai", "tumor_site", "Sigmoid colon, resection: adenocarcinoma.",
         "Sigmoidectomy: adenocarcinoma."),
        ("histai", "organ_site", "Cervix, biopsy: HSIL (CIN 3).", "Cervical bx: HSIL / CIN 3."),
        ("histai", "organ_site", "Bone marrow trephine biopsy: normocellular marrow.",
         "Osteomedullary biopsy: marrow of normal cellularity."),
        # Ovarian surface and crypt architecture in other words.
        ("tcga", "ovarian_surface_involvement", "HGSC of the left ovary with ovarian surface "
         "involvement.", "Left ovary: HGSC, 80 mm, involving the ovarian surface."),
        ("histai", "crypt_distortion", "Rectal biopsies: crypt architectural distortion.",
         "Rectal biopsies: architectural disorganisation of the crypts."),
        ("histai", "crypt_distortion", "Colonic biopsies: crypt architecture preserved.",
         "Colonic biopsies: architecture of the crypts conserved."),
        # Specimens.
        ("tcga", "specimen_type", "Right breast lumpectomy: invasive carcinoma.",
         "Tumorectomy of the right breast: invasive carcinoma."),
        ("reg2025", "specimen_type", "Breast, left, core biopsy; fibroadenoma",
         "Left breast, microbiopsies; fibroadenoma"),
        # The side in brackets after the organ, the operation or its specimen.
        ("tcga", "lateral_sites", "Left radical nephrectomy: papillary RCC, 41 mm.",
         "Radical nephrectomy specimen (left): papillary RCC, 41 mm."),
        ("tcga", "lateral_sites", "Right mastectomy: invasive lobular carcinoma.",
         "Mastectomy specimen (right): invasive lobular carcinoma."),
        ("histai", "lateral_sites", "Right axillary clearance: 14 reactive lymph nodes.",
         "Axillary clearance specimen (right): 14 reactive lymph nodes."),
        ("histai", "lateral_sites", "Skin, right forearm, excision: dermatofibroma.",
         "Excision of skin, forearm (right): dermatofibroma."),
        ("tcga", "lateral_sites", "Brain, left frontal lobe, resection: oligodendroglioma.",
         "Resection, frontal lobe (left): oligodendroglioma."),
        # A side written as letters between commas.
        ("tcga", "lateral_sites", "Left radical orchiectomy: embryonal carcinoma, 25 mm.",
         "Testis, Lt., radical orchiectomy: embryonal carcinoma, 25 mm."),
        ("tcga", "lateral_sites", "Right partial nephrectomy: chromophobe RCC.",
         "Procedure: Partial nephrectomy, R. Histologic type: chromophobe RCC."),
        # The adjective of the organ, and the operation's initials.
        ("histai", "lateral_sites", "Left ovary, cystectomy: serous cystadenoma.",
         "Left ovarian cystectomy: serous cystadenoma."),
        ("tcga", "lateral_sites", "Left modified radical mastectomy: IDC, grade 3.",
         "Lt MRM: IDC, grade 3."),
        # A subtype with its other name in brackets, or named by its entity.
        ("tcga", "histologic_type", "Thyroidectomy: papillary carcinoma, classic type, 9 mm.",
         "Thyroidectomy: papillary carcinoma, conventional (classic) type, 9 mm."),
        ("tcga", "histologic_type", "Orchiectomy: seminoma, classic type, 41 mm.",
         "Orchiectomy. Histologic type: Seminoma (classic). Size 41 mm."),
        ("tcga", "histologic_type", "Whipple: invasive ductal adenocarcinoma, 27 mm.",
         "Whipple: pancreatic ductal adenocarcinoma, 27 mm."),
        ("histai", "histologic_type", "Skin, temple: basal cell carcinoma, infiltrative type.",
         "Skin, temple: infiltrating basal cell carcinoma."),
        ("histai", "histologic_type", "Skin, back: dysplastic nevus, compound, mild atypia.",
         "Skin, back: compound dysplastic nevus with mild atypia."),
        ("histai", "histologic_type", "Lymph node, neck: metastatic papillary carcinoma.",
         "Lymph node, neck: metastatic papillary thyroid carcinoma."),
    ],
)  # fmt: skip
def test_equivalent_wordings_read_alike(dataset: str, field: str, first: str, second: str) -> None:
    value = extract(first, dataset).get(field)
    assert value is not None
    assert extract(second, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field", "value"),
    [
        # New facts: iron, crypt distortion, a percentage in REG, entities in other words.
        ("histai", "Liver biopsy: chronic hepatitis. Iron stain positive.", "iron_deposition",
         "present"),
        ("histai", "Liver biopsy: chronic hepatitis. The iron stain is negative.",
         "iron_deposition", "absent"),
        ("reg2025", "Bone marrow, trephine biopsy; plasma cell myeloma, clonal plasma cells 40% "
         "of marrow cellularity", "percentages", 40.0),
        ("histai", "Bladder biopsy: calcified ova with surrounding granulomatous reaction.",
         "diagnosis", "granulomatous inflammation"),
        ("reg2025", "Left breast, microbiopsies; Adenofibroma", "diagnosis",
         "fibroepithelial lesion"),
    ],
)  # fmt: skip
def test_new_readings(dataset: str, text: str, field: str, value: object) -> None:
    assert extract(text, dataset).get(field) == value


@pytest.mark.parametrize(
    ("dataset", "text", "field"),
    [
        # A third of the squamous epithelium is no third of the oesophagus.
        ("histai", "Cervix: mild atypia limited to the lower one-third of the squamous "
         "epithelium. LSIL.", "tumor_site"),
        ("histai", "Cervix: full-thickness atypia and mitoses in the upper third. HSIL.",
         "tumor_site"),
        # An inflammatory infiltrate of the lamina propria invades nothing.
        ("histai", "Antral mucosa with a dense lymphoplasmacytic infiltrate of the lamina "
         "propria.", "invasion_depth"),
        # "Architectural distortion" in a breast biopsy is a mammographic finding.
        ("histai", "Breast core biopsy for architectural distortion: sclerosing adenosis.",
         "crypt_distortion"),
        # No invasion of the renal sinus is no statement that the carcinoma is non-invasive.
        ("tcga", "Nephrectomy: clear cell RCC without invasion of renal sinus fat or perirenal "
         "fat.", "invasion_status"),
        # "(<50%)" beside "less than half" restates the half.
        ("tcga", "Endometrioid carcinoma invading less than half of the myometrium (<50%).",
         "percentages"),
    ],
)  # fmt: skip
def test_look_alikes_read_nothing(dataset: str, text: str, field: str) -> None:
    assert extract(text, dataset).get(field) is None


def test_a_bracketed_size_after_its_word_keeps_the_other_sizes() -> None:
    found = extract(
        "Right hepatectomy: hepatocellular carcinoma, solitary nodule of [38 mm]. Parenchymal "
        "resection margin free [12 mm].",
        "tcga",
    )
    assert found.get("tumor_size") == 3.8
    assert found.get("margin_distance") == 1.2
