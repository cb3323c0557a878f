"""``pathreport evaluate`` and ``pathreport crqs``: files in; summary, per-case, fields.csv out."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from pathreport.app.cli import main
from pathreport.data.predictions import PredictionRecord
from pathreport.evaluation.evaluate import evaluate_records, write_evaluation

REF_DCIS = (
    "Breast, left, core-needle biopsy;\n  Ductal carcinoma in situ\n  - Type: Solid\n"
    "  - Nuclear grade: High\n  - Necrosis: Absent"
)
REF_PROSTATE = (
    "Prostate, biopsy;\n"
    "  Acinar adenocarcinoma, Gleason's score 7 (3+4), grade group 2, tumor volume: 30%"
)
REF_GASTRITIS = "Stomach, antrum, endoscopic biopsy;\n  Chronic gastritis"
RECORDS = [
    PredictionRecord("a", REF_DCIS, REF_DCIS.replace("Absent", "Present (Comedo-type)")),
    PredictionRecord(
        "b",
        REF_PROSTATE,
        "Prostate, biopsy: acinar adenocarcinoma, Gleason score 3+4=7, grade group 2, tumor volume "
        "30%",
    ),
    PredictionRecord("c", REF_GASTRITIS, ""),
]


def test_evaluate_records_crqs_summary_per_case_and_fields_table(tmp_path: Path):
    result = evaluate_records(
        RECORDS, dataset="reg2025", metrics=["crqs"], options={"crqs": {"n_bootstrap": 200}}
    )
    summary = result.summary
    for key in (
        "CRQS",
        "CRQS_raw",
        "CFC",
        "KIR",
        "HR",
        "CDS",
        "CRQS_CI95",
        "n_vacuous_reference",
        "n_vacuous_key",
        "n_empty_prediction_fields",
        "n_no_comparable_fields",
    ):
        assert key in summary
    assert (
        summary["n_cases"] == 3
        and summary["CRQS_n_scored"] == 3
        and summary["n_empty_prediction_fields"] == 1
    )
    settings = summary["crqs_settings"]
    assert (
        settings["formula"] == "subtractive"
        and settings["schema"] == "reg2025"
        and settings["divisor"] == pytest.approx(0.7)
    )
    assert result.per_case["b"]["CRQS"] == pytest.approx(1.0)
    assert (
        result.per_case["a"]["discordant"] == ["necrosis"]
        and result.per_case["a"]["prediction_fields"]["necrosis"] == "present"
    )
    assert result.per_case["c"]["missed"] == [
        "diagnosis",
        "findings",
        "inflammation_activity",
        "tumor_site",
        "organ_site",
        "specimen_type",
    ]
    per_case_mean = sum(c["CRQS"] for c in result.per_case.values()) / 3
    assert summary["CRQS"] == pytest.approx(per_case_mean)

    written = write_evaluation(result, tmp_path)
    rows = {r["field"]: r for r in csv.DictReader(written["fields"].open())}
    assert set(rows) >= {"diagnosis", "necrosis", "gleason_score"}
    assert rows["necrosis"]["reference_support"] == "1" and rows["necrosis"]["discordant"] == "1"
    assert rows["gleason_score"]["recall"] == "1.0"
    lines = [json.loads(line) for line in written["per_case"].read_text().splitlines()]
    assert [line["id"] for line in lines] == ["a", "b", "c"]


def test_evaluate_records_dataset_without_schema_makes_crqs_unavailable_not_a_crash():
    result = evaluate_records(
        RECORDS,
        dataset="mystery",
        metrics=["nlg", "crqs"],
        options={"nlg": {"normalization": "simple", "meteor": False}},
    )
    assert result.summary["CRQS"] is None and "mystery" in result.unavailable["CRQS"]
    assert result.summary["BLEU_4"] is not None  # the other evaluator still ran


def test_evaluate_records_scores_do_not_depend_on_the_other_predictions():
    alone = evaluate_records(
        RECORDS[:1], dataset="reg2025", metrics=["crqs"], options={"crqs": {"n_bootstrap": 0}}
    )
    together = evaluate_records(
        list(reversed(RECORDS)),
        dataset="reg2025",
        metrics=["crqs"],
        options={"crqs": {"n_bootstrap": 0}},
    )
    assert alone.per_case["a"] == together.per_case["a"]


def _write_jsonl(path: Path, records: list[PredictionRecord]) -> Path:
    path.write_text("".join(json.dumps(r.to_json()) + "\n" for r in records))
    return path


def test_evaluate_cli_writes_the_three_files_from_either_predictions_format(tmp_path: Path, capsys):
    jsonl = _write_jsonl(tmp_path / "preds.jsonl", RECORDS)
    assert (
        main(
            [
                "evaluate",
                "--predictions",
                str(jsonl),
                "--dataset",
                "reg2025",
                "--out",
                str(tmp_path / "a"),
                "--metrics",
                "crqs",
                "--bootstrap",
                "50",
            ]
        )
        == 0
    )
    reference_format = tmp_path / "predictions.json"
    reference_format.write_text(
        json.dumps({r.id: {"pred": r.prediction, "target": r.reference} for r in RECORDS})
    )
    assert (
        main(
            [
                "evaluate",
                "--predictions",
                str(reference_format),
                "--dataset",
                "reg2025",
                "--out",
                str(tmp_path / "b"),
                "--metrics",
                "crqs",
                "--bootstrap",
                "50",
            ]
        )
        == 0
    )
    a = json.loads((tmp_path / "a" / "summary.json").read_text())
    b = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert a["CRQS"] == pytest.approx(b["CRQS"]) and a["n_cases"] == 3
    assert (tmp_path / "a" / "per_case.jsonl").is_file() and (
        tmp_path / "a" / "fields.csv"
    ).is_file()
    assert "CRQS" in capsys.readouterr().out


def test_evaluate_cli_missing_predictions_are_an_error_unless_scored_as_empty(
    tmp_path: Path, capsys
):
    preds = _write_jsonl(tmp_path / "preds.jsonl", RECORDS[:2])
    refs = tmp_path / "split.json"
    refs.write_text(json.dumps({"test": [{"id": r.id, "report": r.reference} for r in RECORDS]}))
    args = [
        "evaluate",
        "--predictions",
        str(preds),
        "--dataset",
        "reg2025",
        "--out",
        str(tmp_path / "o"),
        "--metrics",
        "crqs",
        "--references",
        str(refs),
        "--bootstrap",
        "0",
    ]
    assert main(args) == 2
    assert "ids ['c']" in capsys.readouterr().err
    assert main([*args, "--missing-as-empty"]) == 0
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["n_cases"] == 3 and summary["n_empty_predictions"] == 1


def test_crqs_cli_extract_prints_fields_and_explains(capsys):
    assert (
        main(
            [
                "crqs",
                "extract",
                "--dataset",
                "histai",
                "Chronic inactive gastritis. H. pylori not detected.",
            ]
        )
        == 0
    )
    fields = json.loads(capsys.readouterr().out)
    assert fields["hpylori_status"] == "absent" and fields["inflammation_activity"] == "inactive"
    assert (
        main(["crqs", "extract", "--dataset", "histai", "--explain", "No perineural invasion."])
        == 0
    )
    explained = json.loads(capsys.readouterr().out)
    assert explained["findings"][0]["negated_by"] == "no"
    assert main(["crqs", "extract", "--dataset", "nope", "x"]) == 2


def test_crqs_build_vocab_learns_from_training_references_only(tmp_path: Path, capsys):
    schema_file = tmp_path / "tiny.yaml"
    schema_file.write_text(
        "name: tiny\nlearned_vocab: tiny.vocab.json\nfields:\n"
        "  - {name: diagnosis, type: categorical, values: {adenocarcinoma: [adenocarcinoma]}}\n"
    )
    split = tmp_path / "split.json"
    split.write_text(
        json.dumps(
            {
                "train": [
                    {"id": str(i), "report": r}
                    for i, r in enumerate(
                        [
                            "Lung, right lower lobe, biopsy;\n  Sclerosing pneumocytoma",
                            "Lung, right lower lobe, biopsy;\n  Sclerosing pneumocytoma, 1.2 cm",
                            "Lung, right lower lobe, biopsy;\n  Adenocarcinoma",
                            "Lung, right lower lobe, biopsy;\n  Hamartoma",
                        ]
                    )
                ],
                "test": [
                    {"id": "t", "report": "Lung, right lower lobe, biopsy;\n  Pulmonary blastoma"},
                    {"id": "u", "report": "Lung, right lower lobe, biopsy;\n  Pulmonary blastoma"},
                ],
            }
        )
    )
    from pathreport.evaluation.crqs import get_extractor, load_schema

    curated = load_schema(schema_file, with_learned_vocab=False)
    build_vocab = [
        "crqs",
        "build-vocab",
        "--schema",
        str(schema_file),
        "--split-file",
        str(split),
        "--min-count",
        "2",
    ]
    assert main(build_vocab) == 0
    vocab = json.loads((tmp_path / "tiny.vocab.json").read_text())
    assert vocab["fields"]["diagnosis"] == {
        "sclerosing pneumocytoma": "sclerosing pneumocytoma"
    }  # hamartoma seen once
    assert vocab["n_reports"] == 4 and vocab["built_from"]["split"] == "train"
    learned = load_schema(schema_file)
    assert (
        learned.digest != curated.digest
        and learned.describe()["learned_vocab"] == "tiny.vocab.json"
    )
    backend = get_extractor("rule", learned)
    assert backend.extract("Sclerosing pneumocytoma of the lung") == {
        "diagnosis": "sclerosing pneumocytoma"
    }
    assert backend.extract("Pulmonary blastoma") == {}  # test-split phrases are never learned
    # Rebuilding starts from the curated schema, so the frozen file does not feed on itself.
    assert main(build_vocab) == 0
    assert json.loads((tmp_path / "tiny.vocab.json").read_text())["fields"] == vocab["fields"]
