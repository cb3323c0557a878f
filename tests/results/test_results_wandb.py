"""Collecting W&B runs: a real offline run's transaction log, W&B's summary files, and a project
through a stand-in for ``wandb.Api`` (the real one needs the network)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pathreport.app.cli import main
from pathreport.data.predictions import evaluated_set_digest
from pathreport.results.collect import collect_local
from pathreport.results.store import ResultsError, read_table
from pathreport.results.wandb_runs import NOT_LOGGED, collect_wandb_project, parse_transaction_log
from tests.helpers.results import real_runs

OFFLINE_RUN = """
import sys
import wandb
run = wandb.init(mode="offline", dir=sys.argv[1], project="pathreport", config={
    "data": {"name": "reg2025"}, "model": {"name": "histgen"}, "encoder": {"name": "uni2"},
    "seed": 2, "notes": "x" * 40000})  # larger than one 32 KiB block of the log
run.log({"test/BLEU_4": 0.25, "test/CRQS": 0.5, "test/ROUGE_L": 0.4, "test/n_cases": 2,
         "test/seed": 2, "val_loss": 1.5,
         "val/loss": 1.5, "train/loss": 2.0})  # the loss under its current and its earlier name
per_case = [["s1", 0.5, 1.0], ["s2", 0.0, 0.0]]
run.log({"test/per_case": wandb.Table(columns=["id", "BLEU_4", "CRQS"], data=per_case)})
run.finish()
"""


@pytest.fixture(scope="module")
def offline_run(tmp_path_factory) -> Path:
    """The folder of a run that logged to W&B offline (written by the real wandb library)."""
    folder = tmp_path_factory.mktemp("wandb-run")
    done = subprocess.run(
        [sys.executable, "-c", OFFLINE_RUN, str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "WANDB_MODE": "offline", "WANDB_SILENT": "true"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return folder


def test_wandb_offline_run_is_read_from_its_transaction_log(offline_run):
    (run,) = collect_local([offline_run]).runs
    assert (run.dataset, run.model, run.encoder, run.seed, run.split) == (
        "reg2025",
        "histgen",
        "uni2",
        2,
        "test",
    )
    assert run.metrics["BLEU_4"] == 0.25 and run.metrics["CRQS"] == 0.5 and run.n_cases == 2
    assert (
        run.metrics["METEOR"] is None and run.notes["METEOR"] == NOT_LOGGED
    )  # unavailable, never zero
    assert not {"val_loss", "loss"} & set(run.metrics) and "seed" not in run.metrics
    assert run.source == "wandb-offline" and run.run == str(offline_run.resolve())
    assert run.per_case.endswith(".table.json") and run.evaluated_set == evaluated_set_digest(
        ["s1", "s2"]
    )
    # the W&B run folder itself is a source too
    (same,) = collect_local(list(offline_run.glob("wandb/offline-run-*"))).runs
    assert same.key == run.key


def test_wandb_log_with_a_torn_tail_still_gives_what_was_written(offline_run, tmp_path):
    (log,) = offline_run.glob("wandb/offline-run-*/run-*.wandb")
    assert log.stat().st_size > 32 * 1024  # records span several blocks
    torn = tmp_path / "run-torn.wandb"
    torn.write_bytes(log.read_bytes()[:-50])
    data = parse_transaction_log(torn)
    assert data.config["model"]["name"] == "histgen" and len(data.config["notes"]) == 40000
    bad = tmp_path / "run-bad.wandb"
    bad.write_bytes(b"not a log")
    with pytest.raises(ResultsError, match="not a W&B transaction log"):
        parse_transaction_log(bad)


def test_wandb_run_inside_a_collected_run_folder_is_not_counted_twice(
    offline_run, tmp_path_factory, tmp_path, capsys
):
    run_dir = tmp_path / "logs" / "alpha"
    shutil.copytree(real_runs(tmp_path_factory) / "logs" / "alpha", run_dir)
    shutil.copytree(offline_run / "wandb", run_dir / "wandb")
    assert (
        main(["results", "collect", str(tmp_path / "logs"), "--out", str(tmp_path / "t.csv"), "-v"])
        == 0
    )
    out = capsys.readouterr().out
    assert (
        "collected 1 run(s)" in out
        and "not counted twice: 1" in out
        and "same run as the metrics files" in out
    )
    assert set(read_table(tmp_path / "t.csv")["source"]) == {"files"}


def test_wandb_summary_files_of_a_synced_run_are_read(tmp_path):
    files = tmp_path / "somewhere" / "wandb" / "run-20260101_000000-abc123" / "files"
    (files / "media" / "table" / "test").mkdir(parents=True)
    summary = {
        "test/BLEU_4": 0.1,
        "test/METEOR": 0.3,
        "test/CRQS": 0.2,
        "_step": 4,
        "test/per_case": {
            "_type": "table-file",
            "path": "media/table/test/per_case_2_x.table.json",
        },
    }
    (files / "wandb-summary.json").write_text(json.dumps(summary))
    (files / "media" / "table" / "test" / "per_case_2_x.table.json").write_text(
        json.dumps({"columns": ["id", "CRQS"], "data": [["a", 0.2]]})
    )
    config = {
        "_wandb": {"value": {}},
        "data": {"desc": None, "value": {"name": "tcga"}},
        "model": {"desc": None, "value": {"name": "scout"}},
        "encoder": {"value": {"name": "hoptimus1"}},
        "seed": {"desc": None, "value": 0},
    }
    (files / "config.yaml").write_text(yaml.safe_dump(config))
    (run,) = collect_local([tmp_path]).runs
    assert (run.dataset, run.model, run.encoder, run.seed) == ("tcga", "scout", "hoptimus1", 0)
    assert (
        run.metrics["METEOR"] == 0.3
        and run.source == "wandb-local"
        and run.evaluated_set == evaluated_set_digest(["a"])
    )


class FakeFile:
    def __init__(self, name: str, content: str):
        self.name, self.content = name, content

    def download(self, root: str, replace: bool = False):
        path = Path(root) / self.name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.content)
        return path


class FakeRun:
    def __init__(
        self,
        run_id: str,
        state: str,
        config: dict,
        summary: dict,
        files: dict[str, str] | None = None,
    ):
        self.id, self.state, self.config, self.summary = run_id, state, config, summary
        self.path = ["lab", "reg", run_id]
        self._files = files or {}

    def file(self, name: str) -> FakeFile:
        return FakeFile(name, self._files[name])


class FakeApi:
    """What pathreport uses of ``wandb.Api``: ``runs(path)``, each run's config, summary, file()."""

    def __init__(self, runs: list[FakeRun]):
        self._runs = runs
        self.asked: list[str] = []

    def runs(self, path: str) -> list[FakeRun]:
        self.asked.append(path)
        if path != "lab/reg":
            raise ValueError(f"Could not find project {path}")
        return self._runs


TABLE_PATH = "media/table/test/per_case_3_ff.table.json"


def _project(output_dir: str) -> FakeApi:
    finished = FakeRun(
        "r1",
        "finished",
        {
            "data": {"name": "reg2025"},
            "model": {"name": "bigen"},
            "encoder": {"name": "conch15"},
            "seed": 1,
            "paths": {"output_dir": output_dir},
        },
        {
            "test/BLEU_4": 0.3,
            "test/CRQS": 0.6,
            "test/METEOR": 0.2,
            "test/n_cases": 2,
            "_step": 3,
            "test/per_case": {"_type": "table-file", "path": TABLE_PATH},
        },
        {TABLE_PATH: json.dumps({"columns": ["id", "CRQS"], "data": [["s1", 0.5], ["s2", 0.7]]})},
    )
    crashed = FakeRun("r2", "crashed", {"model": {"name": "bigen"}}, {"train/loss": 3.2})
    return FakeApi([finished, crashed])


def test_wandb_project_runs_are_collected_with_their_per_case_tables(tmp_path):
    api = _project("/cluster/logs/run1")
    runs, ignored = collect_wandb_project("lab/reg", download_dir=tmp_path / "wandb", api=api)
    (run,) = runs
    assert (run.dataset, run.model, run.encoder, run.seed, run.source) == (
        "reg2025",
        "bigen",
        "conch15",
        1,
        "wandb",
    )
    assert run.run == "/cluster/logs/run1" and run.summary == "wandb:lab/reg/r1"
    assert (
        run.metrics["CRQS"] == 0.6
        and run.metrics["ROUGE_L"] is None
        and run.notes["ROUGE_L"] == NOT_LOGGED
    )
    assert Path(run.per_case) == (tmp_path / "wandb" / "r1" / TABLE_PATH).resolve()
    assert run.evaluated_set == evaluated_set_digest(["s1", "s2"])
    assert [label for label, _ in ignored] == ["wandb:lab/reg/r2"] and "state: crashed" in ignored[
        0
    ][1]
    with pytest.raises(
        ResultsError, match=r"Could not list the runs of W&B project 'lab/nope'.*wandb login"
    ):
        collect_wandb_project("lab/nope", download_dir=tmp_path, api=api)


def test_cli_collects_a_wandb_project_beside_local_runs_without_double_counting(
    tmp_path_factory, tmp_path, monkeypatch, capsys
):
    import wandb

    logs = real_runs(tmp_path_factory) / "logs"
    api = _project(
        str((logs / "alpha").resolve())
    )  # the W&B copy of a run folder collected from files
    monkeypatch.setattr(wandb, "Api", lambda: api)
    table = tmp_path / "results" / "results.csv"
    assert main(["results", "collect", str(logs), "wandb:lab/reg", "--out", str(table), "-v"]) == 0
    out = capsys.readouterr().out
    assert api.asked == ["lab/reg"]
    assert "collected 4 run(s)" in out and "not counted twice: 1" in out and "state: crashed" in out
    assert set(read_table(table)["source"]) == {"files"}
