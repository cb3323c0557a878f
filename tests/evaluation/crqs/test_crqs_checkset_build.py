"""Check sets generated from report text: wrong edits, equivalent rewrites, splits, run, coverage.

The report texts here are short examples written for these tests in the style of biopsy reports;
real check sets are built by the user from real reports (``pathreport crqs checkset build``).
"""

from __future__ import annotations

import json
import random

import pytest

from pathreport.app.cli import main
from pathreport.evaluation.crqs.checkset import (
    SourceReport,
    build_checkset,
    diversity,
    read_triplets,
    split_of,
)
from pathreport.evaluation.crqs.checkset_rewrite import (
    equivalent_rewrite,
    list_style,
    number_format,
    punctuation,
    reorder,
    synonym,
)
from pathreport.evaluation.crqs.checkset_text import sentences_with_offsets
from pathreport.evaluation.crqs.checkset_wrong import wrong_edits

PROSTATE = (
    "Prostate, biopsy;\n"
    "  Acinar adenocarcinoma, Gleason's score 7 (3+4), grade group 2 "
    "(Gleason pattern 4: 20%), tumor volume: 40%"
)
BREAST = (
    "Breast, core-needle biopsy;\n"
    "  1. Ductal carcinoma in situ\n"
    "  - Type: Solid\n"
    "  - Nuclear grade: High\n"
    "  - Necrosis: Absent\n"
    "  2. Microcalcification"
)
PROSE = (
    "Left breast, lumpectomy: invasive ductal carcinoma, grade 2, 2.1 cm. "
    "Margins are free of tumor. Two of 12 lymph nodes are positive for metastatic carcinoma. "
    "No lymphovascular invasion is identified. Estrogen receptor is positive."
)
REPORTS = [
    PROSTATE,
    BREAST,
    PROSE,
    "Stomach, endoscopic biopsy;\n  Adenocarcinoma, moderately differentiated",
    "Colon, colonoscopic biopsy;\n  Tubular adenoma with low grade dysplasia",
    "Urinary bladder, transurethral resection;\n  Invasive urothelial carcinoma,\n"
    "  with involvement of muscle proper\n\nNote) The specimen includes muscle proper.",
    "Lung, biopsy;\n  Squamous cell carcinoma",
    "Uterine cervix, punch biopsy;\n  High-grade squamous intraepithelial lesion (HSIL; CIN 3)",
]


def _by_category(text: str) -> dict[str, list]:
    out: dict[str, list] = {}
    for edit in wrong_edits(text):
        out.setdefault(edit.category, []).append(edit)
    return out


def test_gleason_edit_changes_pattern_sum_and_grade_group_together():
    edits = _by_category(PROSTATE)["gleason"]
    assert edits
    for edit in edits:
        assert "pattern 4" in edit.text  # a pair with pattern 4 is kept when its share is stated
        if "7 (4+3)" in edit.text:
            assert "grade group 3" in edit.text
        if "8 (4+4)" in edit.text:
            assert "grade group 4" in edit.text


def test_wrong_edits_cover_the_field_kinds_of_a_report():
    categories = set(_by_category(BREAST))
    assert {"negation", "nuclear_grade", "omission", "invention", "site", "specimen"} <= categories
    flipped = [e.text for e in _by_category(BREAST)["negation"]]
    assert any("Necrosis: Present" in t for t in flipped)
    prose = _by_category(PROSE)
    assert {"laterality", "size", "count", "grade", "biomarker", "negation"} <= set(prose)
    assert any("Right breast" in e.text for e in prose["laterality"])


def test_omitting_a_list_item_renumbers_the_rest():
    dropped = [e for e in _by_category(BREAST)["omission"] if e.note == "list item dropped"]
    first = next(e for e in dropped if "Ductal carcinoma in situ" in e.span)
    assert first.text.splitlines()[1].strip() == "1. Microcalcification"


def test_omitting_a_sentence_keeps_the_others_apart():
    dropped = [e for e in _by_category(PROSE)["omission"] if "Margins" in e.span]
    assert dropped
    assert "2.1 cm. Two of 12 lymph nodes" in dropped[0].text


def test_sentences_are_not_split_at_list_markers_or_decimals():
    text = (
        "Breast, biopsy: 1. Ductal carcinoma in situ 2. Microcalcification. Size 2.1 cm. "
        "A. Margins free."
    )
    assert [s for _, _, s in sentences_with_offsets(text)] == [
        "Breast, biopsy: 1. Ductal carcinoma in situ 2. Microcalcification.",
        "Size 2.1 cm.",
        "A. Margins free.",
    ]


def test_a_negated_biomarker_statement_is_not_flipped_into_a_double_negative():
    text = "Breast, excision: carcinoma. No estrogen or progesterone receptors detected."
    assert "biomarker" not in _by_category(text)


def test_invention_adds_only_findings_the_report_does_not_state():
    for edit in _by_category(BREAST)["invention"]:
        assert edit.span not in BREAST
        assert "calcification" not in edit.span.lower()  # already stated in the report


def test_number_format_writes_gleason_and_percent_another_way():
    seen = {number_format(PROSTATE, random.Random(seed))[0] for seed in range(40)}
    assert any("3+4=7" in t or "3 + 4 = 7" in t or "Gleason 3+4 (score 7)" in t for t in seen)
    assert any("percent" in t or "per cent" in t for t in seen)


def test_reordering_list_items_keeps_every_item_and_renumbers():
    text, name = reorder(BREAST, random.Random(1))
    assert name.startswith("reorder:")
    if name == "reorder:list_items":
        assert text.index("Microcalcification") < text.index("Ductal carcinoma in situ")
        assert "1. Microcalcification" in text and "2. Ductal carcinoma in situ" in text
    assert sorted(text.split()) != [] and "Necrosis: Absent" in text


def test_equivalent_rewrite_always_changes_the_text_and_is_seeded():
    for report in REPORTS:
        a = equivalent_rewrite(report, random.Random("s"))
        b = equivalent_rewrite(report, random.Random("s"))
        assert a == b
        assert a[1] and a[0] != report


def test_build_is_reproducible_and_splits_by_report_text():
    # the same text under two ids must land in one split only
    reports = [SourceReport(f"r{i}", t) for i, t in enumerate(REPORTS)] + [
        SourceReport("dup", REPORTS[0])
    ]
    first = build_checkset(reports, "reg2025", seed=3, max_per_category=50)
    again = build_checkset(list(reversed(reports)), "reg2025", seed=3, max_per_category=50)
    assert first.splits == again.splits
    assert first.n_unique_reports == len(REPORTS)
    dev = {t["reference"] for t in first.splits["dev"]}
    heldout = {t["reference"] for t in first.splits["heldout"]}
    assert not dev & heldout and dev | heldout == set(REPORTS)
    assert {split_of(t, 3) for t in REPORTS} == {"dev", "heldout"}
    for t in first.splits["dev"] + first.splits["heldout"]:
        assert t["wrong"] != t["reference"] and t["rewrite"] != t["reference"]
    stats = diversity(first.splits["dev"])
    assert stats["n_triplets"] == len(first.splits["dev"])
    assert all(row["distinct_phrasings"] >= 1 for row in stats["per"].values())


def test_balance_caps_each_edit_kind():
    reports = [SourceReport(f"r{i}", t) for i, t in enumerate(REPORTS)]
    capped = build_checkset(reports, "reg2025", seed=0, max_per_category=1)
    for rows in capped.splits.values():
        kinds = [t["category"] for t in rows]
        assert len(kinds) == len(set(kinds))


@pytest.fixture()
def split_file(tmp_path):
    path = tmp_path / "splits.json"
    train = [{"id": f"t{i}", "report": text} for i, text in enumerate(REPORTS)]
    train.append({"id": "silent", "report": "Received fresh, labelled with the patient's name."})
    path.write_text(json.dumps({"train": train, "test": [{"id": "x", "report": PROSE}]}))
    return path


def test_cli_build_then_run_prints_crqs_beside_bleu(split_file, tmp_path, capsys):
    out = tmp_path / "sets"
    args = ["crqs", "checkset", "build", "--dataset", "reg2025", "--split-file", str(split_file)]
    assert main([*args, "--out", str(out), "--seed", "1"]) == 0
    dev = out / "reg2025_dev.jsonl"
    triplets = read_triplets(dev)
    assert triplets and all(t["dataset"] == "reg2025" for t in triplets)
    assert json.loads((out / "reg2025_diversity.json").read_text())["n_source_reports"] == 9
    capsys.readouterr()
    run_dir = tmp_path / "run"
    assert main(["crqs", "checkset", "run", "--triplets", str(dev), "--out", str(run_dir)]) == 0
    table = capsys.readouterr().out
    assert "reg2025/ALL" in table and "BLEU-4" in table and "self>=.99" in table
    assert "rewrite>=.99" in table and "wrong<.99" in table
    summary = json.loads((run_dir / "summary.json").read_text())
    row = summary["table"]["reg2025/ALL"]
    assert row["n"] == len(triplets) and 0.0 <= row["crqs"] <= 1.0
    assert (run_dir / "failures.jsonl").exists()


def test_cli_run_scores_with_the_schema_profile(split_file, tmp_path, capsys):
    out = tmp_path / "sets"
    build = ["crqs", "checkset", "build", "--dataset", "reg2025", "--split-file", str(split_file)]
    assert main([*build, "--out", str(out)]) == 0
    capsys.readouterr()
    run = ["crqs", "checkset", "run", "--triplets", str(out / "reg2025_dev.jsonl")]
    assert main([*run, "--schema-profile", "paper", "--out", str(tmp_path / "r")]) == 0
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert summary["schema_profile"] == "paper"
    assert main([*run, "--schema-profile", "papr"]) == 2
    assert "Did you mean 'paper'" in capsys.readouterr().err


def test_cli_run_rejects_a_triplet_without_its_wrong_report(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        json.dumps(
            {"id": "a", "dataset": "reg2025", "category": "grade", "reference": "x", "rewrite": "y"}
        )
        + "\n"
    )
    assert main(["crqs", "checkset", "run", "--triplets", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl:1" in err and "wrong" in err and "Traceback" not in err


def test_cli_coverage_lists_field_shares_and_silent_lines(split_file, capsys):
    assert main(["crqs", "coverage", "--dataset", "reg2025", "--split-file", str(split_file)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("9 reports; share of reports where each field is extracted:")
    assert "gleason_score" in out and "diagnosis" in out
    assert "received fresh, labelled with the patient's name." in out


def test_cli_coverage_names_a_missing_split(split_file, capsys):
    args = ["crqs", "coverage", "--dataset", "reg2025", "--split-file", str(split_file)]
    assert main([*args, "--split", "val"]) == 2
    assert "'val'" in capsys.readouterr().err


def test_checkset_rewrite_converts_every_dimension_of_a_size():
    text = "The tumor measures 3.3 x 3.2 x 2.7 cm."
    for seed in range(20):
        out, op = number_format(text, random.Random(seed))
        if op == "number:cm_to_mm":
            assert "33 x 32 x 27 mm" in out
            break
    else:
        pytest.fail("no seed chose the cm_to_mm rewrite")


def test_checkset_wrong_edit_never_flips_a_status_under_a_negation():
    text = "No tumor was identified in the margins. Perineural invasion was identified."
    edits = [e for e in wrong_edits(text) if e.category == "negation"]
    assert edits and all("No tumor was absent" not in e.text for e in edits)
    assert any("Perineural invasion was absent" in e.text for e in edits)


def test_checkset_wrong_edits_change_a_clinical_fact():
    # Normal anatomy is no finding: "the nerves were present" is not flipped.
    text = "Carcinoma of the stomach. The nerves were present. Lymphovascular invasion is present."
    flips = [e.text for e in wrong_edits(text) if e.category == "negation"]
    assert any("Lymphovascular invasion is absent" in t for t in flips)
    assert not any("nerves were absent" in t for t in flips)
    # A procedure named again, or one of an earlier specimen, is not a wrong procedure.
    text = (
        "Kidney, nephrectomy: clear cell carcinoma. Grade as in the previous core biopsy report."
        " The biopsy and the nephrectomy agree."
    )
    procedures = [e.span for e in wrong_edits(text) if e.category == "specimen"]
    assert procedures == []
    # A gross description of the tumour states no finding and is not the omitted fact.
    text = (
        "Soft tissue, excision: leiomyosarcoma.\nThe cut surface of the tumor was yellow.\n"
        "Lymphovascular invasion is present."
    )
    dropped = [e.span for e in wrong_edits(text) if e.note == "statement dropped"]
    assert dropped == ["Lymphovascular invasion is present."]
    # Nor is a sentence that only names topics, and "identified as" names, it is no status.
    text = (
        "Kidney, nephrectomy: the tumor is identified as clear cell carcinoma.\n"
        "The report provides information on tumor grade and lymph node involvement.\n"
        "Lymphovascular invasion is present."
    )
    edits = wrong_edits(text)
    assert [e.span for e in edits if e.note == "statement dropped"] == [
        "Lymphovascular invasion is present."
    ]
    assert not any("is absent as" in e.text for e in edits)
    # A finding stated in other words is not invented again.
    text = (
        "Kidney, nephrectomy: clear cell carcinoma. It is necrotic. "
        "Angiolymphatic invasion is seen."
    )
    invented = [e.span for e in wrong_edits(text) if e.category == "invention"]
    assert not any("ecrosis" in f or "ymphovascular" in f for f in invented)
    # "with ulcerative colitis" holds no "with ulcer" clause to drop.
    text = "Rectum, biopsy: chronic active colitis, consistent with ulcerative colitis."
    assert not [e for e in wrong_edits(text) if e.note == "clause dropped"]


def test_checkset_rewrite_restyles_item_numbers_but_not_counts():
    text = "Gastritis with 1) ulcer 2) erosion. Nodes (0/13) or (2/5) negative."
    out, op = list_style(text, random.Random(0))
    assert op == "list:sub_paren"
    assert out == "Gastritis with (1) ulcer (2) erosion. Nodes (0/13) or (2/5) negative."


def test_checkset_rewrite_synonym_never_doubles_a_modifier():
    text = "No tumor in the examined regional lymph nodes."
    outs = {synonym(text, random.Random(seed))[0] for seed in range(30)}
    assert not any("regional regional" in out for out in outs)


def test_checkset_rewrite_synonym_leaves_a_grade_range_whole():
    # "(moderately-differentiated)" after a range would state a different grade.
    text = "Adenocarcinoma, well to moderately differentiated, pT2."
    outs = {synonym(text, random.Random(seed))[0] for seed in range(30)}
    assert all("to moderately differentiated" in out for out in outs)


def test_checkset_rewrite_synonym_leaves_a_margin_statement_with_its_own_object():
    # "margins are free of the lesion" must not become "margins are free of tumor of the lesion".
    text = "All surgical margins are free of the lesion."
    outs = {synonym(text, random.Random(seed))[0] for seed in range(30)}
    assert outs == {text} or all(" of the lesion" in o and "tumor of" not in o for o in outs)


def test_checkset_rewrite_one_line_keeps_a_semicolon_inside_the_text():
    # "T2b, N0; M0" must not become "T2b, N0: M0"; only a REG "organ; procedure" header joins.
    text = "Clear cell renal cell carcinoma.\nStaging indicates T2b, N0; M0."
    outs = {punctuation(text, random.Random(seed)) for seed in range(40)}
    joined = [out for out, op in outs if op == "punct:one_line"]
    assert joined and all("N0; M0" in out for out in joined)
    header = "Prostate, right; needle biopsy\nAdenocarcinoma, Gleason 3+4=7."
    outs = {punctuation(header, random.Random(seed)) for seed in range(40)}
    assert any(
        out.startswith("Prostate, right: needle biopsy")
        for out, op in outs
        if op == "punct:one_line"
    )
