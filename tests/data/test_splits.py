"""Split files: the formats in use, and integrity checks that name the offending entries."""

from __future__ import annotations

import json

import pytest

from pathreport.data.splits import SplitError, load_splits, parse_splits


def _write(tmp_path, data):
    path = tmp_path / "splits.json"
    path.write_text(json.dumps(data))
    return path


def test_splits_paper_format_is_read(tmp_path):
    path = _write(
        tmp_path,
        {
            "train": [{"id": "a", "report": "r1"}],
            "val": [{"id": "b", "report": "r2"}],
            "test": [{"id": "c", "report": "r3"}],
        },
    )
    splits = load_splits(path)
    assert splits.counts() == {"train": 1, "val": 1, "test": 1}
    assert len(splits.sha256) == 64


def test_splits_histgen_format_with_image_path_and_split_is_read():
    raw = {
        "train": [{"id": "a", "report": "r", "image_path": ["a.pt"], "split": "train"}],
        "val": [{"id": "b", "report": "r", "image_path": ["b.pt"], "split": "val"}],
        "test": [{"id": "c", "report": "r", "image_path": ["c.pt"], "split": "test"}],
    }
    assert parse_splits(raw).test[0].id == "c"


def test_splits_empty_report_is_an_error_naming_the_slide():
    with pytest.raises(SplitError, match=r"\['train'\]\[1\]: slide s2 has an empty report"):
        parse_splits({"train": [{"id": "s1", "report": "ok"}, {"id": "s2", "report": "  "}]})


def test_splits_slide_in_two_splits_is_an_error():
    with pytest.raises(SplitError, match="slide s1 is in 'train' and again in 'test'"):
        parse_splits(
            {"train": [{"id": "s1", "report": "a"}], "test": [{"id": "s1", "report": "a"}]}
        )


def test_splits_patient_leakage_is_detected_from_barcode_pattern():
    raw = {
        "train": [{"id": "TCGA-A2-A0CM-01Z-00-DX1", "report": "a"}],
        "test": [{"id": "TCGA-A2-A0CM-01Z-00-DX2", "report": "b"}],
    }
    with pytest.raises(SplitError, match="patient TCGA-A2-A0CM has slides in 'train' and 'test'"):
        parse_splits(raw, patient_id_pattern=r"^(TCGA-[A-Za-z0-9]{2}-[A-Za-z0-9]{4})")


def test_splits_unknown_split_name_is_rejected():
    with pytest.raises(SplitError, match="unknown split name"):
        parse_splits({"training": []})


def test_splits_verify_command_recognises_a_different_split(tmp_path, capsys):
    from pathreport.app.cli import main

    path = _write(
        tmp_path,
        {"train": [{"id": "a", "report": "r"}], "val": [], "test": [{"id": "b", "report": "r"}]},
    )
    assert main(["splits", "verify", "--dataset", "reg2025", "--split-file", str(path)]) == 1
    out = capsys.readouterr().out
    assert "NOT the fixed reg2025 split" in out and "5924" in out
    assert main(["splits", "verify", "--dataset", "tcga", "--split-file", str(path)]) == 0
    assert "No checksum is recorded for tcga" in capsys.readouterr().out
