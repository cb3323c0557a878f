"""Collecting run summaries into a results table: identity from files, idempotence, clear errors."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

from pathreport.app.cli import main
from pathreport.results.collect import Defaults, collect_local
from pathreport.results.store import ResultsError, read_table, upsert, write_table
from tests.helpers.results import REAL_RUNS, real_runs, write_run


@pytest.fixture(scope="module")
def runs_root(tmp_path_factory) -> Path:
    return real_runs(tmp_path_factory)


def _summary(run_dir: Path) -> dict:
    return json.loads((run_dir / "metrics" / "test.json").read_text())


def test_collect_reads_identity_and_values_from_run_files(runs_root):
    outcome = collect_local([runs_root / "logs"])
    found = {Path(r.run).name: r for r in outcome.runs}
    assert set(found) == set(REAL_RUNS)
    for name, overrides in REAL_RUNS.items():
        expected = dict(o.split("=") for o in overrides)
        run = found[name]
        assert (run.model, run.encoder, run.seed, run.dataset, run.split) == (
            expected["model"],
            expected["encoder"],
            int(expected["seed"]),
            "synthetic",
            "test",
        )
        summary = _summary(runs_root / "logs" / name)
        for metric in ("BLEU_4", "METEOR", "ROUGE_L", "CRQS", "HR"):
            assert run.metrics[metric] == pytest.approx(summary[metric])
        assert run.metrics["CRQS_CI95_low"] == pytest.approx(summary["CRQS_CI95"][0])
        assert run.evaluated_set == summary["evaluated_set"] and run.n_cases == summary["n_cases"]
        assert (
            Path(run.per_case).name == "test_per_case.jsonl"
            and Path(run.fields).name == "test_fields.csv"
        )
        # the whole command's time, from run.json, so tables can show each method's cost
        info = json.loads((runs_root / "logs" / name / "run.json").read_text())
        assert (
            run.metrics["wall_seconds"] == pytest.approx(info["wall_seconds"])
            and info["wall_seconds"] > 0
        )


def test_collect_again_is_idempotent_and_never_loses_a_run(runs_root, tmp_path, capsys):
    logs = tmp_path / "logs"
    shutil.copytree(runs_root / "logs", logs)
    table = tmp_path / "results.csv"
    assert main(["results", "collect", str(logs), "--out", str(table)]) == 0
    first = table.read_bytes()
    assert main(["results", "collect", str(logs), "--out", str(table)]) == 0
    assert table.read_bytes() == first
    assert "0 new, 0 updated, 4 unchanged" in capsys.readouterr().out

    # Collecting one run folder again keeps the three others; a changed summary replaces its rows.
    summary_path = logs / "beta" / "metrics" / "test.json"
    summary = json.loads(summary_path.read_text())
    summary["CRQS"] = 0.123
    summary_path.write_text(json.dumps(summary))
    assert main(["results", "collect", str(logs / "beta"), "--table", str(table)]) == 0
    assert "0 new, 1 updated" in capsys.readouterr().out
    frame = read_table(table)
    assert len(frame.drop_duplicates(["run", "split"])) == 4
    crqs = frame[(frame["metric"] == "CRQS") & frame["run"].str.endswith("beta")]
    assert crqs["value"].tolist() == [0.123]
    assert not frame.duplicated(["run", "split", "metric"]).any()


def test_collect_writes_the_default_table_location(runs_root, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PATHREPORT_RESULTS", raising=False)
    assert main(["results", "collect", str(runs_root / "logs" / "alpha")]) == 0
    assert (tmp_path / "results" / "results.csv").is_file()
    assert main(["results", "list"]) == 0
    assert "most_frequent" in capsys.readouterr().out


def test_collect_records_unavailable_metric_as_empty_with_reason(tmp_path):
    run = write_run(
        tmp_path / "r",
        model="histgen",
        encoder="uni2",
        seed=0,
        BLEU_4=0.2,
        METEOR=None,
        CRQS=0.5,
        unavailable={"METEOR": "java was not found on PATH"},
    )
    outcome = collect_local([run])
    table = tmp_path / "t.csv"
    merged, _ = upsert(read_table_or_empty(table), outcome.runs)
    write_table(merged, table)
    rows = read_table(table)
    meteor = rows[rows["metric"] == "METEOR"].iloc[0]
    assert math.isnan(meteor["value"]) and "java" in meteor["note"]
    assert "METEOR,,java" in table.read_text()  # an empty cell, never 0


def read_table_or_empty(path: Path):
    from pathreport.results.store import empty_table

    return read_table(path) if path.is_file() else empty_table()


def test_collect_malformed_summary_names_file_line_and_field(tmp_path):
    good = write_run(
        tmp_path / "logs" / "good", model="histgen", encoder="uni2", seed=0, BLEU_4=0.2
    )
    broken = tmp_path / "logs" / "broken" / "metrics"
    broken.mkdir(parents=True)
    (broken / "test.json").write_text('{"BLEU_4": 0.1,\n "model": }')
    typed = write_run(
        tmp_path / "logs" / "typed", model="migen", encoder="uni2", seed=0, BLEU_4="high"
    )
    with pytest.raises(ResultsError) as err:
        collect_local([tmp_path / "logs"])
    message = str(err.value)
    assert f"{broken / 'test.json'}:2: not valid JSON" in message
    assert (
        str(typed / "metrics" / "test.json") in message
        and "'BLEU_4' must be a number or null" in message
    )
    assert "--skip-invalid" in message
    outcome = collect_local([tmp_path / "logs"], skip_invalid=True)
    assert [Path(r.run) for r in outcome.runs] == [good.resolve()]
    assert len(outcome.invalid) == 2


def test_collect_unknown_identity_asks_for_the_flag(tmp_path):
    folder = tmp_path / "scored"
    folder.mkdir()
    (folder / "summary.json").write_text(
        json.dumps({"dataset": "reg", "n_cases": 2, "BLEU_4": 0.3})
    )
    with pytest.raises(ResultsError, match=r"cannot tell the model .* --model NAME"):
        collect_local([folder])
    run = collect_local([folder], defaults=Defaults(model="gpt", encoder="none")).runs[0]
    assert (run.model, run.encoder, run.dataset, run.seed) == ("gpt", "none", "reg", None)


def test_collect_accepts_evaluate_output_and_lists_ignored_json(runs_root, tmp_path, capsys):
    predictions = runs_root / "logs" / "gamma" / "predictions" / "test.jsonl"
    out = tmp_path / "rescored"
    assert (
        main(
            [
                "evaluate",
                "--predictions",
                str(predictions),
                "--out",
                str(out),
                "--no-meteor",
                "--bootstrap",
                "0",
            ]
        )
        == 0
    )
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "summary.json").write_text(json.dumps({"t1": {"accuracy": 0.5}}))
    table = tmp_path / "t.csv"
    assert main(["results", "collect", str(tmp_path), "--out", str(table), "--verbose"]) == 0
    printed = capsys.readouterr().out
    assert "ignored (not report summaries): 1" in printed and "other/summary.json" in printed
    rows = read_table(table)
    run = rows.drop_duplicates("run").iloc[0]
    # identity from the predictions file's records, the evaluated set from the summary
    assert (run["model"], run["encoder"], run["dataset"]) == (
        "nearest_neighbor",
        "conch15",
        "synthetic",
    )
    assert run["per_case"].endswith("per_case.jsonl") and run["fields"].endswith("fields.csv")
    meteor = rows[rows["metric"] == "METEOR"].iloc[0]
    assert math.isnan(meteor["value"]) and meteor["note"] == "disabled by the caller"


def test_collect_missing_source_is_a_clear_error(tmp_path, capsys):
    assert (
        main(["results", "collect", str(tmp_path / "nope"), "--out", str(tmp_path / "t.csv")]) == 2
    )
    assert "no such file or folder" in capsys.readouterr().err


def test_read_table_rejects_a_foreign_csv(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(ResultsError, match=r"columns \[.*'dataset'.*\] are missing.*--fresh"):
        read_table(path)
