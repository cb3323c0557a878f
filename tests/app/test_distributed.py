"""Lightning DDP with two CPU processes (gloo): training completes, and testing a checkpoint with
two processes gives exactly the predictions and metrics of one process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import torch

from pathreport import paths
from pathreport.data.predictions import read_predictions
from tests.conftest import TINY_DATA, smoke_overrides

QUIET = ["callbacks.progress_bar=none", "logger=none", "trainer.enable_model_summary=false"]


def _run(args: list[str], cwd: Path) -> None:
    # One thread per process in both settings, so the arithmetic is the same slide by slide.
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    result = subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-4000:]


def test_ddp_two_processes_train_and_test_exactly_like_one(tmp_path):
    ddp_run = tmp_path / "ddp"
    # Odd test-set size: the distributed sampler pads one rank with a repeated slide.
    data = [*TINY_DATA, "data.synthetic.n_slides=34", "data.eval_batch_size=1"]
    _run(
        [
            str(paths.PROJECT_ROOT / "train.py"),
            "model=migen",
            *smoke_overrides("migen"),
            *data,
            *QUIET,
            "trainer=ddp_cpu",
            "trainer.max_epochs=2",
            f"hydra.run.dir={ddp_run}",
        ],
        tmp_path,
    )
    ddp_summary = json.loads((ddp_run / "run.json").read_text())
    best = Path(ddp_summary["best_checkpoint"])
    ckpt = torch.load(best, map_location="cpu", weights_only=False)
    assert ckpt["epoch"] in (0, 1) and ckpt["hyper_parameters"]["config"]["trainer"]["devices"] == 2

    single = tmp_path / "single"
    _run(
        [
            str(paths.PROJECT_ROOT / "eval.py"),
            f"ckpt_path={best}",
            *QUIET[1:],
            "trainer.devices=1",
            "trainer.accelerator=cpu",
            f"hydra.run.dir={single}",
        ],
        tmp_path,
    )

    manifest = json.loads((ddp_run / "manifest.json").read_text())
    ddp_preds = read_predictions(ddp_run / "predictions" / "test.jsonl")
    one_preds = read_predictions(single / "predictions" / "test.jsonl")
    ids = [r.id for r in ddp_preds]
    assert (
        len(ids) == len(set(ids)) == manifest["splits"]["test"]["used"] == 5
    )  # none duplicated, none lost
    assert [(r.id, r.prediction) for r in ddp_preds] == [(r.id, r.prediction) for r in one_preds]
    ddp_metrics = json.loads((ddp_run / "metrics" / "test.json").read_text())
    one_metrics = json.loads((single / "metrics" / "test.json").read_text())
    for key in ("BLEU_4", "METEOR", "ROUGE_L", "CIDEr", "CRQS", "n_cases", "evaluated_set"):
        assert ddp_metrics[key] == one_metrics[key], key
