"""The paper recipes run: ``experiment=reg2025-<model>`` trains, tests and scores on CPU.

The recipes (batch size 1, lr 7e-5, ReduceLROnPlateau, early stopping, the best checkpoint by
validation loss, beam 3, REG's 96-token decoding, per-model patch sampling) are what a GPU user runs
first on real features. Here each one runs for two epochs on a small synthetic dataset in REG 2025's
report style, laid out as a real TRIDENT job directory with a split file (the way a user points
pathreport at REG 2025), with the generator at its tiny test size.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pathreport.app.cli import main as cli_main
from pathreport.data.synthetic import SyntheticConfig, SyntheticDataset
from pathreport.registry import ENCODERS
from tests.conftest import smoke_overrides

GENERATORS = ["migen", "histgen", "bigen", "scout"]
# What a user gives each recipe besides features and splits: the model's own dataset settings
# (BiGen's bank built by `pathreport bigen build-bank`; SCOUT's concept count, here the synthetic
# job's instead of REG's 66).
OWN_SETTINGS = {"bigen": ["model.bank_path={bank}"], "scout": ["model.n_concepts={concepts}"]}


@pytest.fixture(scope="module")
def reg_style_job(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A TRIDENT job folder (UNI2-h, CONCH v1, TITAN, GECKO), its split file, a knowledge bank."""
    root = tmp_path_factory.mktemp("reg_style")
    dataset = SyntheticDataset(root, SyntheticConfig(n_slides=12, min_patches=4, max_patches=12))
    dataset.ensure([ENCODERS[name] for name in ("uni2", "conch1", "titan")], concepts=True)
    splits = json.loads(dataset.split_file.read_text())
    bank = root / "bank.pt"
    assert (
        cli_main(
            [
                "bigen",
                "build-bank",
                "--dataset",
                "reg2025",
                "--split-file",
                str(dataset.split_file),
                "--text-encoder",
                "hashing",
                "--out",
                str(bank),
            ]
        )
        == 0
    )
    return {
        "job": dataset.job_dir,
        "splits": dataset.split_file,
        "bank": bank,
        "concepts": len(dataset.concepts()),
        "test_ids": sorted(e["id"] for e in splits["test"]),
    }


@pytest.mark.parametrize("model", GENERATORS)
def test_reg2025_recipe_trains_tests_and_scores(tiny_train, reg_style_job, model):
    job = reg_style_job
    summary, out = tiny_train(
        f"experiment=reg2025-{model}",
        "encoder=uni2",
        f"paths.features_dir={job['job']}",
        f"data.splits={job['splits']}",
        "data.patch_size=256",
        *(setting.format(**job) for setting in OWN_SETTINGS.get(model, [])),
        *smoke_overrides(model),
        synthetic=False,
    )
    config = (out / "config.yaml").read_text()
    # the recipe's settings reached the run
    assert "batch_size: 1\n" in config and "lr: 7.0e-05" in config
    assert "patience: 7" in config
    metrics = json.loads((out / "metrics" / "test.json").read_text())
    assert metrics["n_cases"] == len(job["test_ids"])
    predictions = [
        json.loads(line) for line in (out / "predictions" / "test.jsonl").read_text().splitlines()
    ]
    assert sorted(p["id"] for p in predictions) == job["test_ids"]
    assert all(p["dataset"] == "reg2025" and p["model"] == model for p in predictions)
    assert Path(summary["best_checkpoint"]).is_file()
