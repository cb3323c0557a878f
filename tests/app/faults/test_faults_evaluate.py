"""``pathreport evaluate`` on bad predictions files and bad output folders: exit 2, one message
naming the file (and line) and the fix, nothing scored, and no earlier result changed."""

from __future__ import annotations

import json
import os

import pytest

from pathreport.app.cli import main
from tests.helpers.faults import assert_user_error, snapshot

GOOD = [
    {"id": "a", "reference": "Adenocarcinoma, grade 2.", "prediction": "Adenocarcinoma, grade 2."},
    {"id": "b", "reference": "Benign colonic mucosa.", "prediction": "Benign mucosa."},
]
FAST = ["--no-meteor", "--nlg-normalization", "simple", "--bootstrap", "0", "--dataset", "reg2025"]


def _jsonl(rows) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def _evaluate(capsys, predictions, out, *extra) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["evaluate", "--predictions", str(predictions), "--out", str(out), *FAST, *extra])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    "content, needles",
    [
        (b"", ["is empty", "id, reference, prediction"]),
        (b"not json at all\n", ["preds.jsonl:1: not valid JSON"]),
        (
            _jsonl(GOOD) + b'{"id": "c", "reference": "x"}\n',
            ["preds.jsonl:3: missing field(s) ['prediction']"],
        ),
        (_jsonl([*GOOD, GOOD[0]]), ["preds.jsonl:3: slide id 'a' already appeared on line 1"]),
        (
            _jsonl(GOOD)
            + '{"id": "c", "reference": "Tubular adenoma.", "prediction": "Ad\u00e9nome"}\n'.encode(
                "latin-1"
            ),
            ["preds.jsonl:3: not UTF-8 text", "column", "iconv"],
        ),
        (
            _jsonl([{**GOOD[0], "prediction": 3}]),
            ["preds.jsonl:1: field 'prediction' must be a string"],
        ),
    ],
)
def test_malformed_predictions_are_named_with_line_and_nothing_is_written(
    tmp_path, capsys, content, needles
):
    predictions = tmp_path / "preds.jsonl"
    predictions.write_bytes(content)
    code, err = _evaluate(capsys, predictions, tmp_path / "out")
    assert_user_error(code, err, str(predictions), *needles)
    assert not (tmp_path / "out").exists()


def test_a_second_evaluation_into_the_same_out_is_refused_or_replaces_it_whole(tmp_path, capsys):
    predictions = tmp_path / "preds.jsonl"
    predictions.write_bytes(_jsonl(GOOD))
    out = tmp_path / "out"
    assert _evaluate(capsys, predictions, out)[0] == 0
    assert (out / "fields.csv").exists()
    before = snapshot(out)
    code, err = _evaluate(capsys, predictions, out, "--metrics", "nlg")
    assert_user_error(code, err, f"--out {out} already holds files", "--overwrite")
    assert snapshot(out) == before
    assert _evaluate(capsys, predictions, out, "--metrics", "nlg", "--overwrite")[0] == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "per_case.jsonl",
        "summary.json",
    ]  # no stale fields.csv
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "out",
        "preds.jsonl",
    ]  # no temporary folder left


def test_a_failing_evaluation_leaves_the_earlier_out_as_it_was(tmp_path, capsys, monkeypatch):
    predictions = tmp_path / "preds.jsonl"
    predictions.write_bytes(_jsonl(GOOD))
    out = tmp_path / "out"
    assert _evaluate(capsys, predictions, out)[0] == 0
    before = snapshot(out)

    def fails(*args, **kwargs):
        raise ValueError("a metric broke half-way")

    monkeypatch.setattr("pathreport.evaluation.evaluate.evaluate_records", fails)
    code, err = _evaluate(capsys, predictions, out, "--overwrite")
    assert code == 2 and "a metric broke half-way" in err
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "preds.jsonl"]


def test_an_unwritable_out_stops_before_any_metric_runs(tmp_path, capsys, monkeypatch):
    predictions = tmp_path / "preds.jsonl"
    predictions.write_bytes(_jsonl(GOOD))
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")

    def never(*args, **kwargs):
        raise AssertionError("metrics ran before the output folder was checked")

    monkeypatch.setattr("pathreport.evaluation.evaluate.evaluate_records", never)
    code, err = _evaluate(capsys, predictions, blocker / "out")
    assert_user_error(code, err, f"Cannot write to {blocker}", "--out")


def test_an_unknown_dataset_name_is_an_error_with_a_suggestion(tmp_path, capsys):
    predictions = tmp_path / "preds.jsonl"
    predictions.write_bytes(_jsonl(GOOD))
    capsys.readouterr()
    code = main(
        [
            "evaluate",
            "--predictions",
            str(predictions),
            "--out",
            str(tmp_path / "out"),
            "--dataset",
            "reg2052",
            "--metrics",
            "nlg",
            "--no-meteor",
        ]
    )
    assert_user_error(
        code,
        capsys.readouterr().err,
        "Unknown dataset 'reg2052'",
        "Did you mean 'reg2025'?",
        "--schema",
    )
    assert not (tmp_path / "out").exists()


def test_a_huge_prediction_is_scored_on_a_bounded_length_and_counted(tmp_path, capsys):
    """A 5 MB report: NLG scores its first 1000 words (documented bound); the summary says so."""
    huge = ("carcinoma invades the muscularis propria " * 130_000)[:5_000_000]
    rows = [*GOOD, {"id": "c", "reference": "Invasive carcinoma.", "prediction": huge}]
    predictions = tmp_path / "preds.jsonl"
    predictions.write_bytes(_jsonl(rows))
    code, _ = _evaluate(capsys, predictions, tmp_path / "out", "--metrics", "nlg")
    assert code == 0
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["nlg_max_words"] == 1000 and summary["n_nlg_truncated_predictions"] == 1
    cases = {
        json.loads(line)["id"]: json.loads(line)
        for line in (tmp_path / "out" / "per_case.jsonl").open()
    }
    assert cases["c"]["nlg_truncated"] is True and "nlg_truncated" not in cases["a"]


def test_result_files_follow_the_umask(tmp_path, capsys):
    predictions = tmp_path / "preds.jsonl"
    predictions.write_bytes(_jsonl(GOOD))
    umask = os.umask(0o022)
    os.umask(umask)
    assert _evaluate(capsys, predictions, tmp_path / "out")[0] == 0
    for path in (tmp_path / "out").iterdir():
        assert path.stat().st_mode & 0o777 == 0o666 & ~umask, path
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o777 & ~umask
