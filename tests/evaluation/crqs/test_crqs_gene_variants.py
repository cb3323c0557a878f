"""The ``gene_variants`` field: the protein-level variant or exon-level alteration a report names
with its gene, so that one actionable variant written as another (KRAS G12D as G12C, EGFR exon
19 deletion as exon 20 insertion) is a discordance, not an agreement on "KRAS mutated"."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import extract, score_pair


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("KRAS G12D mutation detected.", "kras g12d"),
        ("KRAS mutation (p.G12C) identified.", "kras g12c"),
        ("Molecular: KRAS c.35G>A (p.G12D) mutation.", "kras g12d"),
        ("BRAF V600E-mutant melanoma.", "braf v600e"),
        ("G12C-mutant KRAS.", "kras g12c"),
        ("IDH1 R132H mutant astrocytoma.", "idh1 r132h"),
        ("EGFR exon 19 deletion detected.", "egfr exon 19 deletion"),
        ("Mutation analysis: deletion in exon 11 of KIT.", "kit exon 11 deletion"),
        ("An exon 20 insertion in EGFR was found.", "egfr exon 20 insertion"),
        ("KRAS G12C mutation not detected.", "kras g12c negative"),
        ("No deletion in exon 11 of KIT.", "kit exon 11 deletion negative"),
        ("PDGFRA D842V and KIT exon 11 deletion.", "kit exon 11 deletion + pdgfra d842v"),
        # One gene by either of its names.
        ("HER2 exon 20 insertion detected.", "erbb2 exon 20 insertion"),
        ("ERBB2 exon 20 insertion detected.", "erbb2 exon 20 insertion"),
        ("Diffuse midline glioma, H3 K27M-mutant.", "h3 k27m"),
        ("H3F3A K27M mutation.", "h3 k27m"),
    ],
)
def test_variant_is_read_with_its_gene(text: str, value: str) -> None:
    assert extract(text, "tcga").get("gene_variants") == value


@pytest.mark.parametrize(
    "text",
    [
        "KRAS mutation detected.",  # no variant named: kras_status says it
        "Criteria met. Kit used for staining. Grade 2.",  # "met", "kit" as words
        "Tumour cells express CD117 (KIT) and DOG1.",
        "pT2 N1 M0, stage IIB.",
        "HER2 3+ (positive) by immunohistochemistry.",  # a score, no variant
    ],
)
def test_no_variant_without_one(text: str) -> None:
    assert "gene_variants" not in extract(text, "tcga")


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_a_changed_variant_costs_more_than_a_reworded_one(dataset: str) -> None:
    reference = (
        "Right hemicolectomy: adenocarcinoma of the caecum, 6 cm, invading the subserosa."
        " Margins free. Lymph nodes 0/20. MMR proficient. KRAS G12D mutation detected."
    )
    rewrite = (
        "Right hemicolectomy: caecal adenocarcinoma, 60 mm, into the subserosa. Margins"
        " negative. No nodal metastasis (0/20). MMR proficient. KRAS mutation (p.G12D) present."
    )
    wrong = reference.replace("G12D", "G12C")
    assert extract(wrong, dataset)["gene_variants"] == "kras g12c"
    assert score_pair(reference, rewrite, dataset).CRQS > score_pair(reference, wrong, dataset).CRQS
